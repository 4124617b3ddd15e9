//! Direct techniques: an elimination pattern that is only worth spotting because it leaves a
//! digit with one place, which a player then fills at once.
//!
//! SE rates these below the plain patterns (direct pointing 1.7 against pointing 2.6) because
//! the player only needs to see the consequence in one unit, not keep pencil marks. Like SE,
//! a direct step only places the digit; the eliminations that justified it are not applied,
//! so a later step may still need the full pattern.

use crate::engine::model::grid::Cell;

use super::candidates::{digit, digits_of, indices_of, subsets, Candidates, ALL_DIGITS};
use super::cellset::CellSet;
use super::intersections::{locked_sets, LOCKING_PASSES};
use super::singles::place;
use super::text::{list, places_within};
use super::{Step, Technique};

/// Pointing or claiming that leaves a digit one place in a house of the first kind:
/// direct pointing (1.7) when the first house is box-like, direct claiming (1.9) otherwise.
pub fn locking(marks: &Candidates) -> Option<Step> {
    let g = marks.geometry();
    locked_sets(marks).find_map(|(pass, d, k1, k2, _)| {
        super::work::count(9);
        let (first, _) = &LOCKING_PASSES[pass];
        let (k3, pos) = first.clone().filter(|&k3| k3 != k1).find_map(|k3| {
            // The digit leaves the second house outside the first.
            let cleared = g.set_of(k2) - g.set_of(k1);
            if (g.set_of(k3) & cleared).is_empty() {
                return None;
            }
            let others = marks.places_in(k3, d);
            let left = others - cleared;
            (others.len() >= 2 && left.len() == 1)
                .then(|| (k3, Cell::from_index(left.first().unwrap_or(0))))
        })?;
        let (u1, u2, u3) = (g.unit(k1), g.unit(k2), g.unit(k3));
        let digit = digit(d);
        let (technique, rating) = if g.is_box_like(k1) {
            (Technique::DirectPointing, 17)
        } else {
            (Technique::DirectClaiming, 19)
        };
        Some(Step::placing(
            technique,
            rating,
            (pos, digit),
            vec![u1, u2, u3],
            format!(
                "In {u1}, {digit} can only go in {u2}, so it is not in the rest of {u2}, and in \
                 {u3} it can only go in {}.",
                place(u3, pos)
            ),
        ))
    })
}

/// A hidden pair (`size` 2, rated 2.0) or triple (3, rated 2.5) that leaves another digit of
/// the unit with one place. Units: boxes, columns, rows; digit sets in ascending order.
pub fn hidden_set(marks: &Candidates, size: u32) -> Option<Step> {
    let g = marks.geometry();
    for &k in g.scan_order() {
        if marks.empty_in(k) <= size {
            continue;
        }
        super::work::count(9);
        for chosen in subsets(hidden_digits(marks, k, size), size) {
            super::work::count(u64::from(size) + 9);
            let Some(cells) = hidden_cells(marks, k, chosen) else {
                continue;
            };
            for d in indices_of(ALL_DIGITS & !chosen) {
                let places = marks.places_in(k, d);
                let left = places - cells;
                if places.len() < 2 || left.len() != 1 {
                    continue;
                }
                let pos = Cell::from_index(left.first()?);
                let unit = g.unit(k);
                let set: Vec<_> = digits_of(chosen).collect();
                let at: Vec<Cell> = cells.iter().map(Cell::from_index).collect();
                let (technique, rating) = if size == 2 {
                    (Technique::DirectHiddenPair, 20)
                } else {
                    (Technique::DirectHiddenTriple, 25)
                };
                let digit = digit(d);
                return Some(Step::placing(
                    technique,
                    rating,
                    (pos, digit),
                    vec![unit],
                    format!(
                        "In {unit}, {} can only go in {}, so those cells hold nothing else and \
                         {digit} can only go in {}.",
                        list(&set),
                        places_within(unit, &at),
                        place(unit, pos)
                    ),
                ));
            }
        }
    }
    None
}

/// The digits that can be part of a hidden set of `size` in unit `k`: those with two to `size`
/// places there.
pub(crate) fn hidden_digits(marks: &Candidates, k: usize, size: u32) -> u16 {
    (0..9)
        .filter(|&d| (2..=size).contains(&marks.places_in(k, d).len()))
        .fold(0, |acc, d| acc | 1 << d)
}

/// The cells of unit `k` that the digits of `chosen` share when they form a hidden set: each
/// digit has at least two places there and together they have exactly as many places as
/// digits. SE's condition, also used by the plain hidden subsets.
pub(crate) fn hidden_cells(marks: &Candidates, k: usize, chosen: u16) -> Option<CellSet> {
    let mut union = CellSet::EMPTY;
    for d in indices_of(chosen) {
        let places = marks.places_in(k, d);
        if places.len() < 2 {
            return None;
        }
        union |= places;
    }
    (union.len() == chosen.count_ones()).then_some(union)
}
