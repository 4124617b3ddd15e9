//! Minimum and maximum cells: a minimum cell's digit is smaller than each of its orthogonal
//! neighbours', a maximum cell's larger. Each neighbour is a relation.

use std::fmt;

use super::{identify_marks, two_marks, ConstraintError, Family, Relation};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One minimum cell ("minimum cell" in messages, `minimum` in the JSON API).
pub const MINIMUM: UnitKind =
    UnitKind::relation("minimum", "minimum cell", "minimum cells").unnumbered();

/// One maximum cell ("maximum cell" in messages, `maximum` in the JSON API).
pub const MAXIMUM: UnitKind =
    UnitKind::relation("maximum", "maximum cell", "maximum cells").unnumbered();

const PROBLEM: &str = "invalid-extremes";

/// The minimum cells and the maximum cells, each in reading order, no cell in both.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Extremes {
    minimum: Vec<Cell>,
    maximum: Vec<Cell>,
}

impl Extremes {
    /// The cells as sent (0-based), checked against `shape`: on the grid, none twice, none
    /// both a minimum and a maximum.
    pub fn new(
        shape: Shape,
        minimum: &[(usize, usize)],
        maximum: &[(usize, usize)],
    ) -> Result<Extremes, ConstraintError> {
        let marks = [("minimum", minimum), ("maximum", maximum)];
        let [minimum, maximum] = two_marks(shape, marks, PROBLEM)?;
        Ok(Extremes { minimum, maximum })
    }

    /// Whether no cell is marked.
    pub fn is_empty(&self) -> bool {
        self.minimum.is_empty() && self.maximum.is_empty()
    }

    /// The minimum cells, in reading order (for the renderer).
    pub(crate) fn minimum(&self) -> &[Cell] {
        &self.minimum
    }

    /// The maximum cells, in reading order (for the renderer).
    pub(crate) fn maximum(&self) -> &[Cell] {
        &self.maximum
    }
}

/// The orthogonal neighbours of `cell` on a grid of `side`.
fn neighbours(cell: Cell, side: usize) -> impl Iterator<Item = Cell> {
    let (row, col) = (cell.row(), cell.col());
    [
        row.checked_sub(1).map(|r| Cell::at(r, col)),
        (row + 1 < side).then(|| Cell::at(row + 1, col)),
        col.checked_sub(1).map(|c| Cell::at(row, c)),
        (col + 1 < side).then(|| Cell::at(row, col + 1)),
    ]
    .into_iter()
    .flatten()
}

impl Family for Extremes {
    fn relations(&self, shape: Shape, out: &mut Vec<Relation>) {
        let side = shape.side();
        for (kind, cells, smaller) in [
            (MINIMUM, &self.minimum, true),
            (MAXIMUM, &self.maximum, false),
        ] {
            let unit = Unit { kind, index: 0 };
            for &cell in cells {
                for other in neighbours(cell, side) {
                    out.push(if smaller {
                        Relation::of(unit, [cell, other], side, |a, b| a < b)
                    } else {
                        Relation::of(unit, [cell, other], side, |a, b| a > b)
                    });
                }
            }
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.is_empty()).then_some((23, "Min-Max"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let marks = [
            ("minimum", &self.minimum[..]),
            ("maximum", &self.maximum[..]),
        ];
        identify_marks(hash, marks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minimum_is_below_each_neighbour_and_a_maximum_above() {
        let extremes = Extremes::new(Shape::FOUR, &[(0, 0)], &[(1, 1)]).unwrap();
        let mut relations = Vec::new();
        extremes.relations(Shape::FOUR, &mut relations);
        // A corner has two neighbours, an inner cell four.
        assert_eq!(relations.len(), 6);
        assert!(relations[0].allows(1, 2) && !relations[0].allows(2, 1));
        assert!(relations[2].allows(4, 3) && !relations[2].allows(3, 4));
        let err = Extremes::new(Shape::FOUR, &[(0, 0)], &[(0, 0)]).unwrap_err();
        assert_eq!(err.pointer, "/maximum/0");
        let err = Extremes::new(Shape::FOUR, &[(4, 0)], &[]).unwrap_err();
        assert_eq!(err.pointer, "/minimum/0");
    }
}
