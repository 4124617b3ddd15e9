//! Rows and columns: the houses of every puzzle.

use super::{Family, House, Role};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One row ("row 1" in messages, `row` in the JSON API).
pub const ROW: UnitKind = UnitKind::distinct("row", "row", "rows");

/// One column ("column 1" in messages, `column` in the JSON API).
pub const COLUMN: UnitKind = UnitKind::distinct("column", "column", "columns");

/// Every row and every column holds each digit once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lines;

impl Family for Lines {
    fn houses(&self, shape: Shape, out: &mut Vec<House>) {
        let side = shape.side();
        for (kind, at) in [
            (
                ROW,
                (|line, i| Cell::at(line, i)) as fn(usize, usize) -> Cell,
            ),
            (COLUMN, |line, i| Cell::at(i, line)),
        ] {
            out.extend((0..side).map(|index| House {
                unit: Unit { kind, index },
                cells: (0..side).map(|i| at(index, i)).collect(),
                role: Role::Complete,
            }));
        }
    }

    fn is_classic(&self) -> bool {
        true
    }
}
