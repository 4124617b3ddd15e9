//! The shape's boxes (3x3 on a 9x9, 2x3 on a 6x6): houses unless Jigsaw regions replace
//! them.

use super::{Family, House, Role};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One box ("box 1" in messages, `box` in the JSON API).
pub const BOX: UnitKind = UnitKind::distinct("box", "box", "boxes").box_like();

/// Every box of the shape holds each digit once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Boxes;

impl Family for Boxes {
    fn houses(&self, shape: Shape, out: &mut Vec<House>) {
        let side = shape.side();
        out.extend((0..side).map(|index| {
            House {
                unit: Unit { kind: BOX, index },
                cells: (0..side)
                    .map(|i| {
                        let (row, col) = shape.box_cell(index, i);
                        Cell::at(row, col)
                    })
                    .collect(),
                role: Role::Complete,
            }
        }));
    }

    fn is_classic(&self) -> bool {
        true
    }
}
