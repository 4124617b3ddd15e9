//! Renban lines: the digits on a line are distinct and consecutive, in any order. A line is
//! a house of distinct digits (its cells peers) and every two of its cells a relation of
//! digits at most `len - 1` apart: `len` distinct digits within a span of `len` are exactly
//! a run, so a full grid that keeps both keeps the rule, and the solvers propagate both.
//! Pairs alone miss what the run as a whole says (on a 9x9, a four-cell line whose cells
//! allow 1-4 and 6-9 but whose 4 is elsewhere must be 6-9), so the solvers also narrow each
//! line by the runs it can still be ([`Run`]); validation names a broken line by its pairs.

use std::fmt;
use std::sync::Arc;

use super::propagators::Propagator;
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

    fn propagators(&self, shape: Shape, out: &mut Vec<Arc<dyn Propagator>>) {
        for (index, cells) in self.lines.iter().enumerate() {
            out.push(Arc::new(Run {
                unit: Renban::unit(index),
                cells: cells.clone(),
                side: shape.side() as u32,
            }));
        }
    }

    fn holds(&self, grid: &Grid) -> bool {
        self.lines.iter().all(|cells| {
            let digits: Vec<u8> = cells
                .iter()
                .filter_map(|&c| grid.get(c))
                .map(|d| d.get())
                .collect();
            digits.len() < cells.len() || is_run(&digits)
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

/// Whether `digits` are distinct and consecutive, in any order.
fn is_run(digits: &[u8]) -> bool {
    let mask = digits.iter().fold(0u32, |mask, &d| mask | 1 << (d - 1));
    let run = (1u32 << digits.len()) - 1;
    mask.count_ones() as usize == digits.len() && mask >> mask.trailing_zeros() == run
}

/// One line as the solvers narrow it: its digits are one run of `len` consecutive digits,
/// a run possible only while every cell can take one of its digits and each of its digits
/// has a cell that can take it; every cell keeps the digits of the runs still possible.
#[derive(Debug)]
struct Run {
    unit: Unit,
    cells: Vec<Cell>,
    side: u32,
}

impl Propagator for Run {
    fn unit(&self) -> Unit {
        self.unit
    }

    fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn holds(&self, digits: &[u8]) -> bool {
        is_run(digits)
    }

    fn narrow(&self, masks: &mut [u32], work: &mut u64) -> bool {
        let len = masks.len() as u32;
        let union = masks.iter().fold(0, |union, &m| union | m);
        let run = (1u32 << len) - 1;
        let mut kept = 0u32;
        for start in 0..=self.side - len {
            let digits = run << start;
            if union & digits == digits && masks.iter().all(|&m| m & digits != 0) {
                kept |= digits;
            }
        }
        *work += u64::from((self.side - len + 1) * len);
        masks.iter_mut().for_each(|m| *m &= kept);
        kept != 0
    }

    fn reported(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::propagators::revise;
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
    fn a_line_keeps_the_digits_of_the_runs_it_can_still_be() {
        let lines = Renban::new(Shape::NINE, &[(0..4).map(|c| (0, c)).collect()]).unwrap();
        let mut out = Vec::new();
        lines.propagators(Shape::NINE, &mut out);
        let run = &out[0];
        assert!(!run.reported());
        assert!(run.holds(&[5, 3, 4, 6]) && !run.holds(&[5, 3, 4, 7]) && !run.holds(&[3, 3, 4, 5]));
        // No 4 on the line: 1-4 through 4-7 are gone, only 6-9 is left (pairs of cells
        // within 3 of each other say nothing of it).
        let mut masks = vec![0b1_1110_0111u32; 4];
        assert!(revise(run.as_ref(), &mut masks, &mut 0));
        assert!(masks.iter().all(|&m| m == 0b1_1110_0000), "{masks:?}");
        // A cell that only allows 1 and another only 9: no run of four holds both.
        let mut masks = vec![0b1, 0x1ff, 0x1ff, 0b1_0000_0000];
        assert!(!revise(run.as_ref(), &mut masks, &mut 0));
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
