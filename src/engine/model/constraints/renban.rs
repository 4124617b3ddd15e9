//! Renban lines: the digits on a line are distinct and consecutive, in any order. A line is
//! a house of distinct digits (its cells peers) and every two of its cells a relation of
//! digits at most `len - 1` apart: `len` distinct digits within a span of `len` are exactly
//! a run, so a full grid that keeps both keeps the rule, and the solvers propagate both.

use std::fmt;

use super::{identify_lines, line_on, ConstraintError, Family, House, Relation, Role};
use crate::engine::model::grid::{Cell, Grid, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One renban line ("renban line 1" in messages, `renban` in the JSON API).
pub const RENBAN_LINE: UnitKind = UnitKind::relation("renban", "renban line", "renban lines");

const PROBLEM: &str = "invalid-renban";

/// The renban lines of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Renban {
    lines: Vec<Vec<Cell>>,
}

impl Renban {
    /// The lines as sent (0-based cells), checked against `shape`: two to `side` cells (more
    /// cannot be distinct), on the grid, none twice, each touching the one before.
    pub fn new(shape: Shape, lines: &[Vec<(usize, usize)>]) -> Result<Renban, ConstraintError> {
        let side = shape.side();
        let mut checked = Vec::with_capacity(lines.len());
        for (r, line) in lines.iter().enumerate() {
            if line.len() > side {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/renban/{r}/cells"),
                    detail: format!(
                        "renban line {}: {} cells cannot hold distinct digits 1-{side}",
                        r + 1,
                        line.len()
                    ),
                });
            }
            checked.push(line_on(side, line, PROBLEM, ("renban", "renban line", r))?);
        }
        Ok(Renban { lines: checked })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Each line's cells in the order sent (for the renderer).
    pub(crate) fn lines(&self) -> impl Iterator<Item = &[Cell]> + '_ {
        self.lines.iter().map(Vec::as_slice)
    }

    fn unit(index: usize) -> Unit {
        Unit {
            kind: RENBAN_LINE,
            index,
        }
    }
}

impl Family for Renban {
    fn houses(&self, _shape: Shape, out: &mut Vec<House>) {
        out.extend(self.lines.iter().enumerate().map(|(index, cells)| {
            let mut cells = cells.clone();
            cells.sort();
            House {
                unit: Renban::unit(index),
                cells,
                role: Role::Distinct,
            }
        }));
    }

    fn relations(&self, shape: Shape, out: &mut Vec<Relation>) {
        let side = shape.side();
        for (index, cells) in self.lines.iter().enumerate() {
            let span = cells.len() as u32 - 1;
            for (k, &a) in cells.iter().enumerate() {
                for &b in &cells[k + 1..] {
                    // Equal digits are the house's to refuse (and to report once).
                    out.push(Relation::of(Renban::unit(index), [a, b], side, |x, y| {
                        x.abs_diff(y) <= span
                    }));
                }
            }
        }
    }

    fn holds(&self, grid: &Grid) -> bool {
        self.lines.iter().all(|cells| {
            let mut digits: Vec<u8> = cells
                .iter()
                .filter_map(|&c| grid.get(c))
                .map(|d| d.get())
                .collect();
            digits.sort_unstable();
            digits.len() < cells.len() || digits.windows(2).all(|w| w[1] == w[0] + 1)
        })
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.lines.is_empty()).then_some((14, "Renban"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        identify_lines(
            hash,
            self.lines
                .iter()
                .map(|cells| (cells.as_slice(), (), ";renban")),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::grid::Digit;

    #[test]
    fn a_line_is_a_distinct_house_with_every_pair_within_its_span() {
        let lines = Renban::new(Shape::NINE, &[vec![(0, 2), (0, 1), (1, 1)]]).unwrap();
        let mut houses = Vec::new();
        lines.houses(Shape::NINE, &mut houses);
        assert_eq!(
            houses[0].cells,
            [Cell::at(0, 1), Cell::at(0, 2), Cell::at(1, 1)]
        );
        let mut relations = Vec::new();
        lines.relations(Shape::NINE, &mut relations);
        assert_eq!(relations.len(), 3);
        assert!(relations[0].allows(4, 6) && !relations[0].allows(4, 7));
        let mut grid = Grid::empty(Shape::NINE);
        for (cell, d) in [((0, 2), 5), ((0, 1), 3), ((1, 1), 4)] {
            grid.set(Cell::at(cell.0, cell.1), Digit::new(d)).unwrap();
        }
        assert!(lines.holds(&grid));
        grid.set(Cell::at(1, 1), Digit::new(6)).unwrap();
        assert!(!lines.holds(&grid));
    }

    #[test]
    fn malformed_lines_are_refused_with_a_pointer() {
        let long: Vec<_> = (0..4).map(|c| (0, c)).chain([(1, 3)]).collect();
        let err = Renban::new(Shape::FOUR, &[long]).unwrap_err();
        assert_eq!(err.pointer, "/renban/0/cells");
        let err = Renban::new(Shape::FOUR, &[vec![(0, 0), (2, 0)]]).unwrap_err();
        assert_eq!(err.pointer, "/renban/0/cells/1");
        assert_eq!(err.problem, PROBLEM);
    }
}
