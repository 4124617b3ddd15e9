//! Diagonals as houses: Sudoku X has both main diagonals, and a setter may use one alone
//! (f-puzzles' `diagonal-`, top-left to bottom-right, or `diagonal+`, bottom-left to
//! top-right). Index 0 is the diagonal from the top-left corner, 1 the one from the
//! top-right, whichever are in play.

use super::{Family, House, Role};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One diagonal ("diagonal 1" in messages, `diagonal` in the JSON API).
pub const DIAGONAL: UnitKind = UnitKind::distinct("diagonal", "diagonal", "diagonals");

/// One main diagonal alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OneDiagonal {
    /// From the top-left corner to the bottom-right.
    Main,
    /// From the top-right corner to the bottom-left.
    Anti,
}

/// The main diagonals that hold each digit once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Diagonals {
    main: bool,
    anti: bool,
}

impl Diagonals {
    /// Both diagonals: Sudoku X.
    pub const BOTH: Diagonals = Diagonals {
        main: true,
        anti: true,
    };

    /// One diagonal alone.
    pub fn one(which: OneDiagonal) -> Diagonals {
        Diagonals {
            main: which == OneDiagonal::Main,
            anti: which == OneDiagonal::Anti,
        }
    }

    /// Whether both are houses (Sudoku X).
    pub fn both(self) -> bool {
        self.main && self.anti
    }

    /// The one diagonal in play, when only one is.
    pub fn alone(self) -> Option<OneDiagonal> {
        match (self.main, self.anti) {
            (true, false) => Some(OneDiagonal::Main),
            (false, true) => Some(OneDiagonal::Anti),
            _ => None,
        }
    }
}

impl Family for Diagonals {
    fn houses(&self, shape: Shape, out: &mut Vec<House>) {
        let side = shape.side();
        for (index, on) in [self.main, self.anti].into_iter().enumerate() {
            if !on {
                continue;
            }
            let cells = (0..side)
                .map(|i| match index {
                    0 => Cell::at(i, i),
                    _ => Cell::at(i, side - 1 - i),
                })
                .collect();
            out.push(House {
                unit: Unit {
                    kind: DIAGONAL,
                    index,
                },
                cells,
                role: Role::Complete,
            });
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        Some((3, if self.both() { "X" } else { "Diagonal" }))
    }

    fn identify(&self, hash: &mut dyn std::fmt::Write) {
        let _ = hash.write_str(match self.alone() {
            None => ";diagonals",
            Some(OneDiagonal::Main) => ";diagonal-main",
            Some(OneDiagonal::Anti) => ";diagonal-anti",
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_diagonal_alone_is_one_house_with_its_own_index() {
        let mut houses = Vec::new();
        Diagonals::one(OneDiagonal::Anti).houses(Shape::FOUR, &mut houses);
        assert_eq!(houses.len(), 1);
        assert_eq!(houses[0].unit.index, 1);
        assert_eq!(houses[0].cells[0], Cell::at(0, 3));
        let mut both = Vec::new();
        Diagonals::BOTH.houses(Shape::FOUR, &mut both);
        assert_eq!(both.len(), 2);
        assert_eq!(Diagonals::BOTH.kind_word(), Some((3, "X")));
    }
}
