//! Singles: the ways a digit is forced into a cell without any elimination first.
//!
//! SE rates them by how much of the grid a player must scan: the last empty cell of a unit
//! (full house) 1.0, the only place of a digit in a box 1.2, in a row or column 1.5, and the
//! only digit left in a cell (naked single) 2.3, which needs every peer of the cell checked.

use crate::engine::model::constraints::lines::{COLUMN, ROW};
use crate::engine::model::grid::Cell;
use crate::engine::model::validate::Unit;

use super::candidates::{digit, indices_of, Candidates};
use super::text::capitalize;
use super::{Step, Technique};

/// The last empty cell of a house (boxes, columns, rows, then a variant's extra houses).
pub fn full_house(marks: &Candidates) -> Option<Step> {
    single_place(marks, true)
}

/// A digit with exactly one place left in a house: boxes (1.2), then columns and rows
/// (1.5), then a variant's extra houses (windows as boxes, diagonals as lines).
pub fn hidden(marks: &Candidates) -> Option<Step> {
    single_place(marks, false)
}

/// The first digit with one place in a unit, among units with one empty cell (`last_cell`)
/// or among the others.
fn single_place(marks: &Candidates, last_cell: bool) -> Option<Step> {
    let g = marks.geometry();
    for &k in g.scan_order() {
        if (marks.empty_in(k) == 1) != last_cell {
            continue;
        }
        for d in 0..9 {
            let places = marks.places_in(k, d);
            if places.len() != 1 {
                continue;
            }
            let pos = Cell::from_index(places.first()?);
            let unit = g.unit(k);
            let digit = digit(d);
            return Some(if last_cell {
                Step::placing(
                    Technique::FullHouse,
                    10,
                    (pos, digit),
                    vec![unit],
                    format!(
                        "{} is the last empty cell of {unit}, so it is {digit}.",
                        capitalize(&pos.to_string())
                    ),
                )
            } else {
                let rating = if g.is_box_like(k) { 12 } else { 15 };
                Step::placing(
                    Technique::HiddenSingle,
                    rating,
                    (pos, digit),
                    vec![unit],
                    format!("In {unit}, {digit} can only go in {}.", place(unit, pos)),
                )
            });
        }
    }
    None
}

/// A cell whose marks are down to one digit. Cells in reading order.
pub fn naked(marks: &Candidates) -> Option<Step> {
    Cell::all().find_map(|pos| {
        let mask = marks.mask(pos.index());
        if mask.count_ones() != 1 {
            return None;
        }
        let digit = digit(indices_of(mask).next()?);
        Some(Step::placing(
            Technique::NakedSingle,
            23,
            (pos, digit),
            Vec::new(),
            format!(
                "{} has only one candidate left, {digit}.",
                capitalize(&pos.to_string())
            ),
        ))
    })
}

/// Where in `unit` the cell is, without repeating the unit: "column 5" in a row, "row 2" in a
/// column, the full position in a box.
pub(crate) fn place(unit: Unit, pos: Cell) -> String {
    if unit.kind == ROW {
        format!("column {}", pos.col() + 1)
    } else if unit.kind == COLUMN {
        format!("row {}", pos.row() + 1)
    } else {
        pos.to_string()
    }
}
