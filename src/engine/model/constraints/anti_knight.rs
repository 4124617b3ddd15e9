//! Anti-knight: no two cells a knight's move apart hold the same digit. Such cells never
//! share a row or column, so every one is a forbidden pair (the house table drops those a box
//! already holds).

use std::fmt;

use super::{Family, Pair};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One anti-knight pair ("anti-knight pair" in messages, `anti_knight` in the JSON API).
pub const ANTI_KNIGHT: UnitKind =
    UnitKind::distinct("anti_knight", "anti-knight pair", "anti-knight pairs").unnumbered();

/// Cells a knight's move apart hold different digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AntiKnight;

impl Family for AntiKnight {
    fn forbidden_pairs(&self, shape: Shape, out: &mut Vec<Pair>) {
        let side = shape.side() as isize;
        let unit = Unit {
            kind: ANTI_KNIGHT,
            index: 0,
        };
        // Each pair once: the lower cell one or two rows below.
        for row in 0..side {
            for col in 0..side {
                for (dr, dc) in [(1, -2), (1, 2), (2, -1), (2, 1)] {
                    let (r, c) = (row + dr, col + dc);
                    if r < side && (0..side).contains(&c) {
                        out.push(Pair {
                            unit,
                            cells: [
                                Cell::at(row as usize, col as usize),
                                Cell::at(r as usize, c as usize),
                            ],
                        });
                    }
                }
            }
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        Some((6, "Anti-Knight"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let _ = hash.write_str(";anti_knight");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_is_a_knight_move_listed_once() {
        let mut pairs = Vec::new();
        AntiKnight.forbidden_pairs(Shape::FOUR, &mut pairs);
        // On a 4x4 board: 2 * (4-1) * (4-2) * 2 knight moves.
        assert_eq!(pairs.len(), 24);
        let mut seen = std::collections::HashSet::new();
        for pair in &pairs {
            let [a, b] = pair.cells;
            let (dr, dc) = (a.row().abs_diff(b.row()), a.col().abs_diff(b.col()));
            assert!((dr, dc) == (1, 2) || (dr, dc) == (2, 1));
            assert!(a < b);
            assert!(seen.insert(pair.cells));
        }
    }
}
