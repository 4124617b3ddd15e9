//! Naked and hidden subsets (pairs, triples, quads) inside one unit.
//!
//! Naked: `n` cells whose marks together are `n` digits; those digits must fill those cells, so
//! they leave the rest of the unit. Hidden: `n` digits whose places together are `n` cells;
//! those cells must take those digits, so their other marks go. SE rates naked 3.0 / 3.6 /
//! 5.0 and hidden 3.4 / 4.0 / 5.4, and only looks for a hidden subset where the unit has more
//! than twice as many empty cells as the subset (otherwise the naked complement is smaller).

use crate::engine::board::{Digit, Pos};

use super::candidates::{digit, digits_of, indices_of, subsets, Candidates};
use super::cellset::CellSet;
use super::direct::{hidden_cells, hidden_digits};
use super::rating::Rating;
use super::singles::BOXES_COLUMNS_ROWS;
use super::text::{capitalize, cells_in_unit, list, places_within};
use super::{Step, Technique};

fn technique(naked: bool, size: u32) -> (Technique, u16) {
    match (naked, size) {
        (true, 2) => (Technique::NakedPair, 30),
        (true, 3) => (Technique::NakedTriple, 36),
        (true, _) => (Technique::NakedQuad, 50),
        (false, 2) => (Technique::HiddenPair, 34),
        (false, 3) => (Technique::HiddenTriple, 40),
        (false, _) => (Technique::HiddenQuad, 54),
    }
}

/// The cells of unit `k` chosen by the 9-bit set `members` (bit `j` = `j`-th cell).
fn unit_cells(marks: &Candidates, k: usize, members: u16) -> CellSet {
    let cells = marks.geometry().cells_of(k);
    indices_of(members).map(|j| cells[j] as usize).collect()
}

/// A naked subset of `size` cells (2-4). Units: boxes, columns, rows; SE only looks where the
/// unit has at least twice `size` empty cells.
pub fn naked(marks: &Candidates, size: u32) -> Option<Step> {
    let g = marks.geometry();
    for k in BOXES_COLUMNS_ROWS {
        if marks.empty_in(k) < 2 * size {
            continue;
        }
        let unit_cells_list = g.cells_of(k);
        let eligible = (0..9)
            .filter(|&j| (2..=size).contains(&marks.mask(unit_cells_list[j] as usize).count_ones()))
            .fold(0u16, |acc, j| acc | 1 << j);
        for chosen in subsets(eligible, size) {
            let cells = unit_cells(marks, k, chosen);
            let union = cells.iter().fold(0u16, |acc, c| acc | marks.mask(c));
            if union.count_ones() != size {
                continue;
            }
            let mut eliminations = Vec::new();
            for c in (g.set_of(k) - cells).iter() {
                let pos = Pos::from_index(c);
                eliminations.extend(digits_of(marks.mask(c) & union).map(|d| (pos, d)));
            }
            if eliminations.is_empty() {
                continue;
            }
            let unit = g.unit(k);
            let at: Vec<Pos> = cells.iter().map(Pos::from_index).collect();
            let digits: Vec<Digit> = digits_of(union).collect();
            let named = list(&digits);
            let (technique, rating) = technique(true, size);
            return Some(Step::eliminating(
                technique,
                Rating::from_tenths(rating),
                eliminations,
                at.clone(),
                digits,
                vec![unit],
                format!(
                    "{} hold only {named}, so {named} are removed from the rest of {unit}.",
                    capitalize(&cells_in_unit(unit, &at))
                ),
            ));
        }
    }
    None
}

/// A hidden subset of `size` digits (2-4). Units: boxes, columns, rows.
pub fn hidden(marks: &Candidates, size: u32) -> Option<Step> {
    let g = marks.geometry();
    for k in BOXES_COLUMNS_ROWS {
        if marks.empty_in(k) <= 2 * size {
            continue;
        }
        for chosen in subsets(hidden_digits(marks, k, size), size) {
            let Some(cells) = hidden_cells(marks, k, chosen) else {
                continue;
            };
            let eliminations: Vec<(Pos, Digit)> = cells
                .iter()
                .flat_map(|c| {
                    indices_of(marks.mask(c) & !chosen).map(move |d| (Pos::from_index(c), digit(d)))
                })
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            let unit = g.unit(k);
            let digits: Vec<Digit> = digits_of(chosen).collect();
            let at: Vec<Pos> = cells.iter().map(Pos::from_index).collect();
            let (technique, rating) = technique(false, size);
            return Some(Step::eliminating(
                technique,
                Rating::from_tenths(rating),
                eliminations,
                at.clone(),
                digits.clone(),
                vec![unit],
                format!(
                    "In {unit}, {} can only go in {}, so the other candidates are removed from \
                     those cells.",
                    list(&digits),
                    places_within(unit, &at)
                ),
            ));
        }
    }
    None
}
