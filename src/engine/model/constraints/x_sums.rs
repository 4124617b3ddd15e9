//! X-sums: a clue beside a row or column is the sum of the first X digits seen from it,
//! where X is the first digit itself. Each clue is a propagator over its line: every value
//! of the first cell is tried, kept when the cells it counts can make the sum (by bounds),
//! and the line keeps the digits of the values kept; when few assignments remain they are
//! all tried, which is exact.

use std::fmt;
use std::sync::Arc;

use super::outside::Outside;
use super::propagators::{
    digits_of, distinct_sum_bounds, low_high, narrow_by_enumeration, range_mask, Propagator,
};
use super::{ConstraintError, Family};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One X-sum clue ("X-sum clue 1" in messages, `x_sum` in the JSON API).
pub const X_SUM_CLUE: UnitKind = UnitKind::relation("x_sum", "X-sum clue", "X-sum clues");

const PROBLEM: &str = "invalid-x-sums";

/// One clue as a caller describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct XSumClue {
    pub at: Outside,
    pub sum: u32,
}

/// The X-sum clues of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct XSums {
    clues: Vec<XSumClue>,
}

impl XSums {
    /// The clues as sent, checked against `shape`: a line on the grid, a sum from 1 to the
    /// whole line's, one clue a place.
    pub fn new(shape: Shape, clues: &[XSumClue]) -> Result<XSums, ConstraintError> {
        let most = shape.digit_total();
        for (k, clue) in clues.iter().enumerate() {
            clue.at.check(shape, PROBLEM, ("x_sums", k))?;
            if clue.sum == 0 || clue.sum > most {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/x_sums/{k}/sum"),
                    detail: format!(
                        "X-sum clue {}: {} is not a sum of the first digits of a line \
                         (1 to {most})",
                        k + 1,
                        clue.sum
                    ),
                });
            }
            if clues[..k].iter().any(|c| c.at == clue.at) {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/x_sums/{k}"),
                    detail: format!("X-sum clue {}: its place already has a clue", k + 1),
                });
            }
        }
        Ok(XSums {
            clues: clues.to_vec(),
        })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.clues.is_empty()
    }

    /// The clues as given (for the renderer).
    pub(crate) fn clues(&self) -> &[XSumClue] {
        &self.clues
    }
}

/// One clue as the engines read it: the line's cells from the clue.
#[derive(Debug)]
struct XSum {
    unit: Unit,
    cells: Vec<Cell>,
    sum: i64,
}

impl Propagator for XSum {
    fn unit(&self) -> Unit {
        self.unit
    }

    fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn holds(&self, digits: &[u8]) -> bool {
        let count = usize::from(digits[0]).min(digits.len());
        digits[..count].iter().map(|&d| i64::from(d)).sum::<i64>() == self.sum
    }

    fn narrow(&self, masks: &mut [u32], work: &mut u64) -> bool {
        let n = masks.len();
        let mut kept = vec![0u32; n];
        for count in digits_of(masks[0]).map(|d| d as usize) {
            let bit = 1u32 << (count - 1);
            *work += n as u64;
            let (mut low, mut high) = (count as i64, count as i64);
            // Every other cell of the line needs a digit but the count.
            if masks[1..].iter().any(|&mask| mask & !bit == 0) {
                continue;
            }
            let mut union = 0u32;
            for &mask in &masks[1..count.min(n)] {
                let (lo, hi) = low_high(mask & !bit);
                low += lo;
                high += hi;
                union |= mask & !bit;
            }
            // The counted cells are distinct digits of the line, the count among them.
            let Some((least, most)) = distinct_sum_bounds(union, count - 1) else {
                continue;
            };
            let (least, most) = (least + count as i64, most + count as i64);
            if self.sum < low.max(least) || self.sum > high.min(most) {
                continue;
            }
            kept[0] |= bit;
            for (i, &mask) in masks.iter().enumerate().skip(1) {
                let open = mask & !bit;
                if i < count {
                    let (lo, hi) = low_high(open);
                    kept[i] |= open & range_mask(self.sum - (high - hi), self.sum - (low - lo));
                } else {
                    kept[i] |= open;
                }
            }
        }
        for (mask, &k) in masks.iter_mut().zip(&kept) {
            *mask &= k;
        }
        if masks.contains(&0) {
            return false;
        }
        let sum = self.sum;
        let mut fits = |digits: &[u8]| {
            let count = usize::from(digits[0]);
            let counted: i64 = digits.iter().take(count).map(|&d| i64::from(d)).sum();
            if digits.len() >= count {
                counted == sum
            } else {
                counted < sum
            }
        };
        narrow_by_enumeration(masks, true, work, &mut fits).unwrap_or(true)
    }
}

impl Family for XSums {
    fn propagators(&self, shape: Shape, out: &mut Vec<Arc<dyn Propagator>>) {
        for (index, clue) in self.clues.iter().enumerate() {
            out.push(Arc::new(XSum {
                unit: Unit {
                    kind: X_SUM_CLUE,
                    index,
                },
                cells: clue.at.cells(shape),
                sum: i64::from(clue.sum),
            }));
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.clues.is_empty()).then_some((18, "X-Sums"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let mut clues: Vec<&XSumClue> = self.clues.iter().collect();
        clues.sort_unstable_by_key(|c| (c.at, c.sum));
        for clue in clues {
            let _ = write!(hash, ";xsum,{}={}", clue.at, clue.sum);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::outside::Side;
    use super::super::propagators::revise;
    use super::*;

    fn propagator(side: Side, sum: u32) -> Arc<dyn Propagator> {
        let at = Outside { side, index: 0 };
        let clues = XSums::new(Shape::NINE, &[XSumClue { at, sum }]).unwrap();
        let mut out = Vec::new();
        clues.propagators(Shape::NINE, &mut out);
        out.pop().unwrap()
    }

    #[test]
    fn an_x_sum_counts_the_first_digit_of_digits() {
        let p = propagator(Side::Left, 10);
        // 3 + 2 + 5.
        assert!(p.holds(&[3, 2, 5, 1, 4, 6, 7, 8, 9]));
        assert!(!p.holds(&[3, 2, 4, 1, 5, 6, 7, 8, 9]));
        assert!(propagator(Side::Left, 45).holds(&[9, 1, 2, 3, 4, 5, 6, 7, 8]));
    }

    #[test]
    fn the_first_cell_keeps_the_counts_that_can_make_the_sum() {
        // Sum 1: only a 1 first. Sum 45: only a 9 first.
        for (sum, first) in [(1, 1), (45, 1 << 8)] {
            let p = propagator(Side::Right, sum);
            let mut masks = vec![0x1ff; 9];
            assert!(revise(p.as_ref(), &mut masks, &mut 0));
            assert_eq!(masks[0], first, "sum {sum}");
        }
        // Sum 3: 1 alone is 1, 2 + 1 is 3, 3 + at least 1 + 2 is 6: a 2 first, then a 1.
        let p = propagator(Side::Top, 3);
        let mut masks = vec![0x1ff; 9];
        assert!(revise(p.as_ref(), &mut masks, &mut 0));
        assert_eq!((masks[0], masks[1]), (0b10, 0b1));
    }

    #[test]
    fn malformed_clues_are_refused() {
        let at = Outside {
            side: Side::Left,
            index: 0,
        };
        let err = XSums::new(Shape::NINE, &[XSumClue { at, sum: 46 }]).unwrap_err();
        assert_eq!(err.pointer, "/x_sums/0/sum");
        let twice = [XSumClue { at, sum: 5 }, XSumClue { at, sum: 6 }];
        assert_eq!(
            XSums::new(Shape::NINE, &twice).unwrap_err().pointer,
            "/x_sums/1"
        );
    }
}
