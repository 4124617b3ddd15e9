//! Singles: the two ways a digit is forced into a cell. Both place a digit.

use crate::engine::grid::Cell;
use crate::engine::validate::{Unit, UnitKind};

use super::candidates::{digits_of, unit, Candidates, UNIT_CELLS};
use super::text::capitalize;
use super::{Step, Technique};

/// A cell whose marks are down to one digit. Cells in reading order.
pub fn naked(marks: &Candidates) -> Option<Step> {
    Cell::all().find_map(|pos| {
        let mask = marks.mask(pos.index());
        if mask.count_ones() != 1 {
            return None;
        }
        let digit = digits_of(mask).next()?;
        Some(Step {
            technique: Technique::NakedSingle,
            placements: vec![(pos, digit)],
            eliminations: Vec::new(),
            cells: vec![pos],
            digits: vec![digit],
            units: Vec::new(),
            explanation: format!(
                "{} has only one candidate left, {digit}.",
                capitalize(&pos.to_string())
            ),
        })
    })
}

/// A digit with exactly one place left in a unit. Boxes are scanned first, then rows, then
/// columns: that is the order players look in, so hints point where a person would look.
pub fn hidden(marks: &Candidates) -> Option<Step> {
    let order = (18..27).chain(0..18);
    for k in order {
        let placed = marks.placed_in(k);
        for digit in digits_of(!placed & 0x1FF) {
            let places = marks.places(k, digit);
            if places.count_ones() != 1 {
                continue;
            }
            let j = places.trailing_zeros() as usize;
            let pos = Cell::from_index(UNIT_CELLS[k][j] as usize);
            let unit = unit(k);
            return Some(Step {
                technique: Technique::HiddenSingle,
                placements: vec![(pos, digit)],
                eliminations: Vec::new(),
                cells: vec![pos],
                digits: vec![digit],
                units: vec![unit],
                explanation: format!("In {unit}, {digit} can only go in {}.", place(unit, pos)),
            });
        }
    }
    None
}

/// Where in `unit` the cell is, without repeating the unit: "column 5" in a row, "row 2" in a
/// column, the full position in a box.
fn place(unit: Unit, pos: Cell) -> String {
    match unit.kind {
        UnitKind::Row => format!("column {}", pos.col() + 1),
        UnitKind::Column => format!("row {}", pos.row() + 1),
        _ => pos.to_string(),
    }
}
