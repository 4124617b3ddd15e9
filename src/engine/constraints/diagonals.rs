//! Sudoku X: both main diagonals are houses.

use super::{Family, House, Role};
use crate::engine::grid::{Cell, Shape};
use crate::engine::validate::{Unit, UnitKind};

/// Both main diagonals hold each digit once: index 0 runs from the top-left corner, 1 from
/// the top-right.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Diagonals;

impl Family for Diagonals {
    fn houses(&self, shape: Shape, out: &mut Vec<House>) {
        let side = shape.side();
        for index in 0..2 {
            let cells = (0..side)
                .map(|i| match index {
                    0 => Cell::at(i, i),
                    _ => Cell::at(i, side - 1 - i),
                })
                .collect();
            out.push(House {
                unit: Unit {
                    kind: UnitKind::Diagonal,
                    index,
                },
                cells,
                role: Role::Complete,
            });
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        Some((3, "X"))
    }

    fn identify(&self, hash: &mut dyn std::fmt::Write) {
        let _ = hash.write_str(";diagonals");
    }
}
