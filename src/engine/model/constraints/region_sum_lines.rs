//! Region-sum lines: a line splits into segments where it crosses from one box (or Jigsaw
//! region) into another, and every segment adds up to the same sum; a segment that
//! re-enters a region it left counts on its own. Each segment after the first is a
//! [`Linear`] propagator against the first (its cells at weight 1, the first's at -1,
//! adding up to 0).

use std::fmt;
use std::sync::Arc;

use super::propagators::{in_houses, Linear, Propagator};
use super::{identify_lines, line_on, ConstraintError, Family};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One region-sum line ("region-sum line 1" in messages, `region_sum_line` in the JSON API).
pub const REGION_SUM_LINE: UnitKind =
    UnitKind::relation("region_sum_line", "region-sum line", "region-sum lines");

const PROBLEM: &str = "invalid-region-sum-lines";

/// A checked line, with its segments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Placed {
    cells: Vec<Cell>,
    /// Runs of `cells` in one region, in order.
    segments: Vec<Vec<Cell>>,
}

/// The region-sum lines of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RegionSumLines {
    lines: Vec<Placed>,
    /// The box or Jigsaw region of every cell (reading order): a segment's digits are
    /// distinct.
    houses: Vec<usize>,
}

impl RegionSumLines {
    /// The lines as sent (0-based cells), checked against `shape` (two cells or more, on
    /// the grid, none twice, each the king's-move neighbour of the one before), split by
    /// `region_of` (the box or Jigsaw region of a cell).
    pub fn new(
        shape: Shape,
        lines: &[Vec<(usize, usize)>],
        region_of: impl Fn(Cell) -> usize,
    ) -> Result<RegionSumLines, ConstraintError> {
        let side = shape.side();
        let mut placed = Vec::with_capacity(lines.len());
        for (k, line) in lines.iter().enumerate() {
            let cells = line_on(
                side,
                line,
                PROBLEM,
                ("region_sum_lines", "region-sum line", k),
            )?;
            let mut segments: Vec<Vec<Cell>> = Vec::new();
            for &cell in &cells {
                match segments.last_mut() {
                    Some(segment) if region_of(segment[0]) == region_of(cell) => segment.push(cell),
                    _ => segments.push(vec![cell]),
                }
            }
            placed.push(Placed { cells, segments });
        }
        // The table only where lines read it.
        let houses = if placed.is_empty() {
            Vec::new()
        } else {
            shape.all_cells().map(region_of).collect()
        };
        Ok(RegionSumLines {
            lines: placed,
            houses,
        })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Each line's cells (for the renderer).
    pub(crate) fn lines(&self) -> impl Iterator<Item = &[Cell]> + '_ {
        self.lines.iter().map(|line| line.cells.as_slice())
    }
}

impl Family for RegionSumLines {
    fn propagators(&self, _shape: Shape, out: &mut Vec<Arc<dyn Propagator>>) {
        for (index, line) in self.lines.iter().enumerate() {
            let unit = Unit {
                kind: REGION_SUM_LINE,
                index,
            };
            let first = &line.segments[0];
            for segment in &line.segments[1..] {
                let terms = (segment.iter().map(|&c| (c, 1))).chain(first.iter().map(|&c| (c, -1)));
                out.push(Arc::new(in_houses(
                    Linear::new(unit, terms, 0),
                    &self.houses,
                )));
            }
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.lines.is_empty()).then_some((21, "Region Sum Lines"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        identify_lines(
            hash,
            self.lines.iter().map(|line| {
                let ends = line.cells[0].min(line.cells[line.cells.len() - 1]);
                (line.cells.as_slice(), ends, ";regionsum")
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_splits_where_it_changes_box() {
        let shape = Shape::NINE;
        let boxes = |c: Cell| shape.box_of(c.row(), c.col());
        // Box 0 (two cells), box 1 (two), then back into box 0 (one).
        let line = vec![(1, 1), (1, 2), (1, 3), (0, 3), (0, 2)];
        let lines = RegionSumLines::new(shape, &[line], boxes).unwrap();
        assert_eq!(lines.lines[0].segments.len(), 3);
        let mut out = Vec::new();
        lines.propagators(shape, &mut out);
        assert_eq!(out.len(), 2);
        // 3 + 4 = 2 + 5 = 7: the last segment breaks it.
        assert!(out[0].holds(&[2, 5, 3, 4]));
        assert!(!out[1].holds(&[6, 3, 4]));
        // One box only: nothing to compare.
        let alone = RegionSumLines::new(shape, &[vec![(0, 0), (1, 1)]], boxes).unwrap();
        let mut out = Vec::new();
        alone.propagators(shape, &mut out);
        assert!(out.is_empty());
    }
}
