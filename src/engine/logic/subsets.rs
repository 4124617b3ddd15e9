//! Naked and hidden subsets (pairs, triples, quads) inside one unit.
//!
//! Naked: `n` cells whose marks together are `n` digits; those digits must fill those cells, so
//! they leave the rest of the unit. Hidden: `n` digits whose places together are `n` cells;
//! those cells must take those digits, so their other marks go. SE rates naked 3.0 / 3.6 /
//! 5.0 and hidden 3.4 / 4.0 / 5.4, and only looks for a hidden subset where the unit has more
//! than twice as many empty cells as the subset (otherwise the naked complement is smaller).

use crate::engine::model::grid::{Cell, Digit};

use super::candidates::{digit, digits_of, indices_of, subsets, Candidates};
use super::cellset::CellSet;
use super::direct::{hidden_cells, hidden_digits};
use super::rating::Rating;
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

/// A subset pattern in one unit: `cells` hold (naked) or take (hidden) exactly `digits`.
#[derive(Clone, Copy)]
pub(crate) struct Subset {
    pub(crate) unit: usize,
    pub(crate) cells: CellSet,
    pub(crate) digits: u16,
    pub(crate) naked: bool,
}

impl Subset {
    /// The marks it removes, as (cell, digit index): for a naked set its digits from the rest
    /// of the unit, for a hidden set the other digits of its cells.
    pub(crate) fn removed(&self, marks: &Candidates) -> Vec<(usize, usize)> {
        let g = marks.geometry();
        let (cells, digits) = if self.naked {
            (g.set_of(self.unit) - self.cells, self.digits)
        } else {
            (self.cells, !self.digits & 0x1FF)
        };
        cells
            .iter()
            .flat_map(|c| indices_of(marks.mask(c) & digits).map(move |d| (c, d)))
            .collect()
    }
}

/// Calls `visit` with every naked set of `size` cells (2-4) in SE's order (boxes, columns,
/// rows; cell sets ascending) until it returns true. SE only looks where the unit has at least
/// twice `size` empty cells, and at cells with two or more candidates.
pub(crate) fn naked_sets(marks: &Candidates, size: u32, mut visit: impl FnMut(Subset) -> bool) {
    let g = marks.geometry();
    for &k in marks.geometry().scan_order() {
        if marks.empty_in(k) < 2 * size {
            continue;
        }
        let cells_list = g.cells_of(k);
        let eligible = (0..9)
            .filter(|&j| (2..=size).contains(&marks.mask(cells_list[j] as usize).count_ones()))
            .fold(0u16, |acc, j| acc | 1 << j);
        super::work::count(9);
        for chosen in subsets(eligible, size) {
            super::work::count(u64::from(size));
            let cells = unit_cells(marks, k, chosen);
            let union = cells.iter().fold(0u16, |acc, c| acc | marks.mask(c));
            if union.count_ones() == size
                && visit(Subset {
                    unit: k,
                    cells,
                    digits: union,
                    naked: true,
                })
            {
                return;
            }
        }
    }
}

/// Calls `visit` with every hidden set of `size` digits (2-4) in SE's order until it returns
/// true. SE only looks where the unit has more than twice `size` empty cells.
pub(crate) fn hidden_sets(marks: &Candidates, size: u32, mut visit: impl FnMut(Subset) -> bool) {
    for &k in marks.geometry().scan_order() {
        if marks.empty_in(k) <= 2 * size {
            continue;
        }
        super::work::count(9);
        for chosen in subsets(hidden_digits(marks, k, size), size) {
            super::work::count(u64::from(size));
            if let Some(cells) = hidden_cells(marks, k, chosen) {
                let set = Subset {
                    unit: k,
                    cells,
                    digits: chosen,
                    naked: false,
                };
                if visit(set) {
                    return;
                }
            }
        }
    }
}

/// A naked subset of `size` cells (2-4) that removes something.
pub fn naked(marks: &Candidates, size: u32) -> Option<Step> {
    first_step(marks, size, true)
}

/// A hidden subset of `size` digits (2-4) that removes something.
pub fn hidden(marks: &Candidates, size: u32) -> Option<Step> {
    first_step(marks, size, false)
}

fn first_step(marks: &Candidates, size: u32, naked: bool) -> Option<Step> {
    let mut found = None;
    let mut visit = |set: Subset| {
        let removed = set.removed(marks);
        if !removed.is_empty() {
            found = Some(subset_step(marks, &set, removed));
        }
        found.is_some()
    };
    if naked {
        naked_sets(marks, size, &mut visit);
    } else {
        hidden_sets(marks, size, &mut visit);
    }
    found
}

fn subset_step(marks: &Candidates, set: &Subset, removed: Vec<(usize, usize)>) -> Step {
    let unit = marks.geometry().unit(set.unit);
    let at: Vec<Cell> = set.cells.iter().map(Cell::from_index).collect();
    let digits: Vec<Digit> = digits_of(set.digits).collect();
    let (technique, rating) = technique(set.naked, set.cells.len());
    let explanation = if set.naked {
        let named = list(&digits);
        format!(
            "{} hold only {named}, so {named} are removed from the rest of {unit}.",
            capitalize(&cells_in_unit(unit, &at))
        )
    } else {
        format!(
            "In {unit}, {} can only go in {}, so the other candidates are removed from those \
             cells.",
            list(&digits),
            places_within(unit, &at)
        )
    };
    Step::eliminating(
        technique,
        Rating::from_tenths(rating),
        removed
            .iter()
            .map(|&(c, d)| (Cell::from_index(c), digit(d)))
            .collect(),
        at,
        digits,
        vec![unit],
        explanation,
    )
}
