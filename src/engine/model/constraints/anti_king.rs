//! Anti-king: no two cells a king's move apart (touching, diagonals included) hold the same
//! digit. Orthogonal neighbours share a row or column already, so the rule adds the
//! diagonal neighbours as forbidden pairs; the house table drops those inside a box.

use std::fmt;

use super::{Family, Pair};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One anti-king pair ("anti-king pair" in messages, `anti_king` in the JSON API).
pub const ANTI_KING: UnitKind =
    UnitKind::distinct("anti_king", "anti-king pair", "anti-king pairs").unnumbered();

/// Cells a king's move apart hold different digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AntiKing;

impl Family for AntiKing {
    fn forbidden_pairs(&self, shape: Shape, out: &mut Vec<Pair>) {
        let side = shape.side();
        let unit = Unit {
            kind: ANTI_KING,
            index: 0,
        };
        for row in 0..side - 1 {
            for col in 0..side {
                let below = [col.checked_sub(1), (col + 1 < side).then_some(col + 1)];
                out.extend(below.into_iter().flatten().map(|other| Pair {
                    unit,
                    cells: [Cell::at(row, col), Cell::at(row + 1, other)],
                }));
            }
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        Some((5, "Anti-King"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let _ = hash.write_str(";anti_king");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_pairs_with_its_diagonal_neighbours_below() {
        let mut pairs = Vec::new();
        AntiKing.forbidden_pairs(Shape::FOUR, &mut pairs);
        // Three row gaps, each with three down-right and three down-left pairs.
        assert_eq!(pairs.len(), 18);
        for pair in &pairs {
            let [a, b] = pair.cells;
            assert_eq!(b.row(), a.row() + 1);
            assert_eq!(a.col().abs_diff(b.col()), 1);
            assert!(a < b);
        }
    }
}
