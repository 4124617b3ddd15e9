//! Between lines: the digits on a line's inner cells lie strictly between the digits of its
//! two ends, the bulbs (either one the larger). Each line is a propagator: every pair of
//! bulb digits is tried, kept when each inner cell has a digit strictly between them, and
//! the cells keep the digits of the pairs kept.

use std::fmt;
use std::sync::Arc;

use super::propagators::{digits_of, range_mask, Propagator};
use super::{identify_lines, line_on, ConstraintError, Family};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One between line ("between line 1" in messages, `between_line` in the JSON API).
pub const BETWEEN_LINE: UnitKind =
    UnitKind::relation("between_line", "between line", "between lines");

const PROBLEM: &str = "invalid-between-lines";

/// The between lines of a puzzle, each from one bulb to the other, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BetweenLines {
    lines: Vec<Vec<Cell>>,
}

impl BetweenLines {
    /// The lines as sent (0-based cells), checked against `shape`: three cells or more (two
    /// bulbs and what lies between), on the grid, none twice, each the king's-move
    /// neighbour of the one before.
    pub fn new(
        shape: Shape,
        lines: &[Vec<(usize, usize)>],
    ) -> Result<BetweenLines, ConstraintError> {
        let side = shape.side();
        let mut checked = Vec::with_capacity(lines.len());
        for (k, line) in lines.iter().enumerate() {
            if line.len() == 2 {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/between_lines/{k}/cells"),
                    detail: format!(
                        "between line {}: a line has at least one cell between its bulbs",
                        k + 1
                    ),
                });
            }
            checked.push(line_on(
                side,
                line,
                PROBLEM,
                ("between_lines", "between line", k),
            )?);
        }
        Ok(BetweenLines { lines: checked })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Each line's cells from one bulb to the other (for the renderer).
    pub(crate) fn lines(&self) -> impl Iterator<Item = &[Cell]> + '_ {
        self.lines.iter().map(Vec::as_slice)
    }
}

/// One line as the engines read it: bulb, inner cells, bulb.
#[derive(Debug)]
struct Between {
    unit: Unit,
    cells: Vec<Cell>,
}

impl Propagator for Between {
    fn unit(&self) -> Unit {
        self.unit
    }

    fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn holds(&self, digits: &[u8]) -> bool {
        let (a, b) = (digits[0], digits[digits.len() - 1]);
        let (low, high) = (a.min(b), a.max(b));
        digits[1..digits.len() - 1]
            .iter()
            .all(|&d| low < d && d < high)
    }

    fn narrow(&self, masks: &mut [u32], work: &mut u64) -> bool {
        let last = masks.len() - 1;
        let mut kept = vec![0u32; masks.len()];
        for a in digits_of(masks[0]) {
            for b in digits_of(masks[last]) {
                *work += last as u64;
                let between = range_mask(i64::from(a.min(b)) + 1, i64::from(a.max(b)) - 1);
                if masks[1..last].iter().all(|&m| m & between != 0) {
                    kept[0] |= 1 << (a - 1);
                    kept[last] |= 1 << (b - 1);
                    for (slot, &m) in kept[1..last].iter_mut().zip(&masks[1..last]) {
                        *slot |= m & between;
                    }
                }
            }
        }
        for (mask, &k) in masks.iter_mut().zip(&kept) {
            *mask &= k;
        }
        kept[0] != 0
    }
}

impl Family for BetweenLines {
    fn propagators(&self, _shape: Shape, out: &mut Vec<Arc<dyn Propagator>>) {
        for (index, line) in self.lines.iter().enumerate() {
            out.push(Arc::new(Between {
                unit: Unit {
                    kind: BETWEEN_LINE,
                    index,
                },
                cells: line.clone(),
            }));
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.lines.is_empty()).then_some((20, "Between Lines"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        // A line read from its other bulb is the same line.
        identify_lines(
            hash,
            self.lines.iter().map(|line| {
                let first = line[0].min(line[line.len() - 1]);
                (line.as_slice(), first, ";between")
            }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::propagators::revise;
    use super::*;

    #[test]
    fn inner_cells_lie_strictly_between_the_bulbs() {
        let lines =
            BetweenLines::new(Shape::NINE, &[vec![(0, 0), (0, 1), (0, 2), (1, 3)]]).unwrap();
        let mut out = Vec::new();
        lines.propagators(Shape::NINE, &mut out);
        let p = &out[0];
        assert!(p.holds(&[9, 4, 5, 2]) && p.holds(&[2, 4, 5, 9]));
        assert!(!p.holds(&[9, 4, 9, 2]));
        // Two inner cells: the bulbs are at least 3 apart... by bounds, 1 and 9 cannot be
        // inner, and a bulb of 5 needs a far other bulb.
        let mut masks = vec![0x1ff; 4];
        assert!(revise(p.as_ref(), &mut masks, &mut 0));
        assert_eq!(masks[1], 0x1ff & !1 & !(1 << 8));
        let mut masks = vec![1 << 4, 0x1ff, 0x1ff, 0b1_1111];
        assert!(revise(p.as_ref(), &mut masks, &mut 0));
        assert_eq!(masks[3], 0b111);
        assert_eq!(masks[1], 0b1000 | 0b100 | 0b10);
    }

    #[test]
    fn a_line_without_inner_cells_is_refused() {
        let err = BetweenLines::new(Shape::NINE, &[vec![(0, 0), (0, 1)]]).unwrap_err();
        assert_eq!(err.pointer, "/between_lines/0/cells");
        let err = BetweenLines::new(Shape::NINE, &[vec![(0, 0), (0, 1), (0, 3)]]).unwrap_err();
        assert_eq!(err.pointer, "/between_lines/0/cells/2");
    }
}
