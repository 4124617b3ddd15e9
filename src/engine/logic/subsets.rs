//! Naked and hidden subsets (pairs and triples) inside one unit.
//!
//! Naked: `n` cells whose marks together are `n` digits; those digits must fill those cells, so
//! they leave the rest of the unit. Hidden: `n` digits whose places together are `n` cells;
//! those cells must take those digits, so their other marks go.

use crate::engine::grid::{Cell, Digit};
use crate::engine::validate::{Unit, UnitKind};

use super::candidates::{digits_of, subsets, unit, Candidates, ALL_DIGITS, UNIT_CELLS};
use super::text::{capitalize, cells_in_unit, list};
use super::{Step, Technique};

fn technique(naked: bool, size: u32) -> Technique {
    match (naked, size) {
        (true, 2) => Technique::NakedPair,
        (true, _) => Technique::NakedTriple,
        (false, 2) => Technique::HiddenPair,
        (false, _) => Technique::HiddenTriple,
    }
}

/// The cells of unit `k` selected by the 9-bit set `members`.
fn cells_of(k: usize, members: u16) -> Vec<Cell> {
    (0..9)
        .filter(|j| members & (1 << j) != 0)
        .map(|j| Cell::from_index(UNIT_CELLS[k][j] as usize))
        .collect()
}

/// A naked subset of `size` cells (2 or 3). Units: rows, columns, boxes.
pub fn naked(marks: &Candidates, size: u32) -> Option<Step> {
    for (k, unit_cells) in UNIT_CELLS.iter().enumerate() {
        let cell_mask = |j: usize| marks.mask(unit_cells[j] as usize);
        let eligible = (0..9)
            .filter(|&j| (2..=size).contains(&cell_mask(j).count_ones()))
            .fold(0u16, |acc, j| acc | 1 << j);
        for chosen in subsets(eligible, size) {
            let union = (0..9)
                .filter(|j| chosen & (1 << j) != 0)
                .fold(0u16, |acc, j| acc | cell_mask(j));
            if union.count_ones() != size {
                continue;
            }
            let mut eliminations = Vec::new();
            for j in (0..9).filter(|j| chosen & (1 << j) == 0) {
                let pos = Cell::from_index(unit_cells[j] as usize);
                eliminations.extend(digits_of(cell_mask(j) & union).map(|d| (pos, d)));
            }
            if eliminations.is_empty() {
                continue;
            }
            let unit = unit(k);
            let cells = cells_of(k, chosen);
            let digits: Vec<Digit> = digits_of(union).collect();
            let named = list(&digits);
            let explanation = format!(
                "{} hold only {named}, so {named} are removed from the rest of {unit}.",
                capitalize(&cells_in_unit(unit, &cells))
            );
            return Some(finish(
                technique(true, size),
                eliminations,
                cells,
                digits,
                unit,
                explanation,
            ));
        }
    }
    None
}

/// A hidden subset of `size` digits (2 or 3). Units: rows, columns, boxes.
pub fn hidden(marks: &Candidates, size: u32) -> Option<Step> {
    for k in 0..27 {
        let free = !marks.placed_in(k) & ALL_DIGITS;
        let mut places = [0u16; 9];
        let mut eligible = 0u16;
        for digit in digits_of(free) {
            let p = marks.places(k, digit);
            places[usize::from(digit.get() - 1)] = p;
            if (1..=size).contains(&p.count_ones()) {
                eligible |= super::candidates::bit(digit);
            }
        }
        for chosen in subsets(eligible, size) {
            let cells_set =
                digits_of(chosen).fold(0u16, |acc, d| acc | places[usize::from(d.get() - 1)]);
            if cells_set.count_ones() != size {
                continue;
            }
            let cells = cells_of(k, cells_set);
            let eliminations: Vec<(Cell, Digit)> = cells
                .iter()
                .flat_map(|&pos| {
                    digits_of(marks.mask(pos.index()) & !chosen).map(move |d| (pos, d))
                })
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            let unit = unit(k);
            let digits: Vec<Digit> = digits_of(chosen).collect();
            let places_text = match unit.kind {
                UnitKind::Row => {
                    let cols: Vec<usize> = cells.iter().map(|p| p.col() + 1).collect();
                    format!("columns {}", list(&cols))
                }
                UnitKind::Column => {
                    let rows: Vec<usize> = cells.iter().map(|p| p.row() + 1).collect();
                    format!("rows {}", list(&rows))
                }
                _ => list(&cells),
            };
            let explanation = format!(
                "In {unit}, {} can only go in {places_text}, so the other candidates are removed \
                 from those cells.",
                list(&digits)
            );
            return Some(finish(
                technique(false, size),
                eliminations,
                cells,
                digits,
                unit,
                explanation,
            ));
        }
    }
    None
}

fn finish(
    technique: Technique,
    mut eliminations: Vec<(Cell, Digit)>,
    cells: Vec<Cell>,
    digits: Vec<Digit>,
    unit: Unit,
    explanation: String,
) -> Step {
    eliminations.sort();
    let mut cells = cells;
    cells.sort();
    Step {
        technique,
        placements: Vec::new(),
        eliminations,
        cells,
        digits,
        units: vec![unit],
        explanation,
    }
}
