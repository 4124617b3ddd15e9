//! Where a clue outside the grid sits, shared by the families that read a row or column
//! from one end (sandwiches, X-sums, skyscrapers): beside a row (left or right) or a column
//! (top or bottom), and the cells it looks along, nearest first.

use std::fmt;

use super::ConstraintError;
use crate::engine::model::grid::{Cell, Shape};

/// The side of the grid a clue is written on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    Left,
    Right,
    Top,
    Bottom,
}

impl Side {
    /// The word on the wire and in ids: `left`, `right`, `top`, `bottom`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
            Side::Top => "top",
            Side::Bottom => "bottom",
        }
    }
}

/// A clue's place: the side it is written on and the row (left, right) or column (top,
/// bottom) it faces, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Outside {
    pub side: Side,
    pub index: usize,
}

impl Outside {
    /// The cells the clue looks along, nearest first.
    pub fn cells(self, shape: Shape) -> Vec<Cell> {
        let side = shape.side();
        let i = self.index;
        (0..side)
            .map(|k| match self.side {
                Side::Left => Cell::at(i, k),
                Side::Right => Cell::at(i, side - 1 - k),
                Side::Top => Cell::at(k, i),
                Side::Bottom => Cell::at(side - 1 - k, i),
            })
            .collect()
    }

    /// Checks `self` against `shape`: the row or column it faces is on the grid. `field` and
    /// `k` make the pointer (`/sandwiches/3/index`), `problem` the error's type.
    pub fn check(
        self,
        shape: Shape,
        problem: &'static str,
        (field, k): (&str, usize),
    ) -> Result<Outside, ConstraintError> {
        let side = shape.side();
        if self.index >= side {
            let line = match self.side {
                Side::Left | Side::Right => "row",
                Side::Top | Side::Bottom => "column",
            };
            return Err(ConstraintError {
                problem,
                pointer: format!("/{field}/{k}/index"),
                detail: format!(
                    "{line} {} is outside the {side}x{side} grid",
                    self.index.saturating_add(1)
                ),
            });
        }
        Ok(self)
    }
}

impl fmt::Display for Outside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.side.name(), self.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clue_looks_along_its_line_from_its_side() {
        let cells = |side, index| Outside { side, index }.cells(Shape::FOUR);
        assert_eq!(cells(Side::Left, 1)[0], Cell::at(1, 0));
        assert_eq!(cells(Side::Right, 1)[0], Cell::at(1, 3));
        assert_eq!(cells(Side::Top, 2)[3], Cell::at(3, 2));
        assert_eq!(cells(Side::Bottom, 2)[0], Cell::at(3, 2));
        let far = Outside {
            side: Side::Top,
            index: 4,
        };
        let err = far.check(Shape::FOUR, "p", ("x", 0)).unwrap_err();
        assert_eq!(err.pointer, "/x/0/index");
        assert_eq!(err.detail, "column 5 is outside the 4x4 grid");
    }
}
