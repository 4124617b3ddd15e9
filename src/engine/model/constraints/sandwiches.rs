//! Sandwiches: a clue beside a row or column is the sum of the digits between its 1 and its
//! largest digit (9 on a 9x9), the crusts; 0 when they are neighbours. Each clue is a
//! propagator over its line: every placement of the two crusts is tried, kept when the cells
//! between can make the sum (by bounds, then by the sets of digits that make it, see
//! [`fillings`]) and the cells outside can hold a digit that is no crust, and the line keeps
//! the digits of the placements kept; when few assignments remain they are all tried, which
//! is exact.

use std::fmt;
use std::sync::Arc;

use super::outside::Outside;
use super::outside::Side;
use super::propagators::{
    distinct_sum_bounds, low_high, narrow_by_enumeration, range_mask, Propagator,
};
use super::{ConstraintError, Family};
use crate::engine::model::grid::{Cell, Shape};
use crate::engine::model::validate::{Unit, UnitKind};

/// One sandwich clue ("sandwich clue 1" in messages, `sandwich` in the JSON API).
pub const SANDWICH_CLUE: UnitKind =
    UnitKind::relation("sandwich", "sandwich clue", "sandwich clues");

const PROBLEM: &str = "invalid-sandwiches";

/// One clue as a caller describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SandwichClue {
    pub at: Outside,
    pub sum: u32,
}

/// The sandwich clues of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sandwiches {
    clues: Vec<SandwichClue>,
}

/// The largest sandwich: every digit but the crusts.
fn largest(side: usize) -> u32 {
    let side = side as u32;
    side * (side + 1) / 2 - 1 - side
}

impl Sandwiches {
    /// The clues as sent, checked against `shape`: a line on the grid, a sum from 0 to every
    /// digit but the crusts, one clue a line.
    pub fn new(shape: Shape, clues: &[SandwichClue]) -> Result<Sandwiches, ConstraintError> {
        let side = shape.side();
        let mut lines: Vec<(bool, usize)> = Vec::new();
        for (k, clue) in clues.iter().enumerate() {
            let at = clue.at.check(shape, PROBLEM, ("sandwiches", k))?;
            if clue.sum > largest(side) {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/sandwiches/{k}/sum"),
                    detail: format!(
                        "sandwich clue {}: {} is more than the {} that every digit between \
                         1 and {side} makes",
                        k + 1,
                        clue.sum,
                        largest(side)
                    ),
                });
            }
            let cells = at.cells(shape);
            let line = (cells[0].row() == cells[1].row(), at.index);
            if lines.contains(&line) {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/sandwiches/{k}"),
                    detail: format!("sandwich clue {}: its line already has a clue", k + 1),
                });
            }
            lines.push(line);
        }
        Ok(Sandwiches {
            clues: clues.to_vec(),
        })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.clues.is_empty()
    }

    /// The clues as given (for the renderer).
    pub(crate) fn clues(&self) -> &[SandwichClue] {
        &self.clues
    }
}

/// One clue as the engines read it.
#[derive(Debug)]
struct Sandwich {
    unit: Unit,
    cells: Vec<Cell>,
    side: u32,
    sum: i64,
    /// Every filling that makes the sum, by its number of digits (see [`fillings`]); `None`
    /// on a board too large to list them, where the sum is narrowed by bounds alone.
    fillings: Option<Vec<Vec<u32>>>,
}

/// The largest side whose fillings are listed: 2^14 sets of middle digits on a 16x16.
const LISTED_SIDE: u32 = 16;

/// Every set of middle digits (neither 1 nor `side`) that adds up to `sum`, as masks, by
/// how many digits it has; `None` above [`LISTED_SIDE`]. A row holds each digit once, so
/// the cells between the crusts hold exactly one of these sets and the cells outside them
/// hold the rest of the middle digits: a set is possible only if every cell between can
/// take a digit of it, every cell outside a digit of the rest, and each digit of both has
/// a cell that can take it. Far stronger than the sum's bounds: sum 10 over three cells is
/// {2,3,5} (not 4, not 6 or more), and the line's 4 is then outside.
fn fillings(side: u32, sum: i64) -> Option<Vec<Vec<u32>>> {
    if side > LISTED_SIDE {
        return None;
    }
    let middle = (side - 2) as usize;
    // `totals[set]` for the sets of middle digits, bit k standing for digit k + 2; each
    // set's total is its lowest digit plus the total of the others.
    let mut totals = vec![0i64; 1 << middle];
    let mut by_count = vec![Vec::new(); middle + 1];
    for set in 0u32..1 << middle {
        if set != 0 {
            let lowest = i64::from(set.trailing_zeros()) + 2;
            totals[set as usize] = totals[(set & (set - 1)) as usize] + lowest;
        }
        if totals[set as usize] == sum {
            by_count[set.count_ones() as usize].push(set << 1);
        }
    }
    Some(by_count)
}

impl Sandwich {
    fn crusts(&self) -> u32 {
        1 | 1 << (self.side - 1)
    }

    /// The digits each cell keeps (added to `kept`) with the crusts at `p` and `q` and the
    /// listed `fillings` between them; whether any filling fits.
    fn keep_fillings(
        &self,
        masks: &[u32],
        (p, q): (usize, usize),
        fillings: &[u32],
        kept: &mut [u32],
        work: &mut u64,
    ) -> bool {
        let middle = ((1u32 << self.side) - 1) & !self.crusts();
        let mut fits = false;
        for &filling in fillings {
            *work += masks.len() as u64;
            let rest = middle & !filling;
            let allowed = |i: usize| if i > p && i < q { filling } else { rest };
            let (mut inside, mut outside) = (0u32, 0u32);
            let mut each_cell = true;
            for (i, &mask) in masks.iter().enumerate() {
                if i == p || i == q {
                    continue;
                }
                let digits = mask & allowed(i);
                each_cell &= digits != 0;
                if i > p && i < q {
                    inside |= digits;
                } else {
                    outside |= digits;
                }
            }
            if !each_cell || inside != filling || outside != rest {
                continue;
            }
            fits = true;
            for (i, &mask) in masks.iter().enumerate() {
                if i != p && i != q {
                    kept[i] |= mask & allowed(i);
                }
            }
        }
        fits
    }
}

impl Propagator for Sandwich {
    fn unit(&self) -> Unit {
        self.unit
    }

    fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn holds(&self, digits: &[u8]) -> bool {
        let at = |digit: u32| digits.iter().position(|&d| u32::from(d) == digit);
        match (at(1), at(self.side)) {
            (Some(a), Some(b)) => {
                let (from, to) = (a.min(b), a.max(b));
                let between: i64 = digits[from + 1..to].iter().map(|&d| i64::from(d)).sum();
                between == self.sum
            }
            _ => false,
        }
    }

    fn narrow(&self, masks: &mut [u32], work: &mut u64) -> bool {
        let n = masks.len();
        let (one, top) = (1u32, 1u32 << (self.side - 1));
        let crusts = self.crusts();
        let mut kept = vec![0u32; n];
        for p in 0..n {
            for q in p + 1..n {
                let ends = [(one, top), (top, one)]
                    .into_iter()
                    .filter(|&(a, b)| masks[p] & a != 0 && masks[q] & b != 0)
                    .fold((0, 0), |(x, y), (a, b)| (x | a, y | b));
                if ends == (0, 0) {
                    continue;
                }
                // Two passes over the line: the bounds, then the digits kept.
                *work += 3 * n as u64;
                let (mut low, mut high) = (0i64, 0i64);
                let mut fillable = true;
                let mut union = 0u32;
                for (i, &mask) in masks.iter().enumerate() {
                    if i == p || i == q {
                        continue;
                    }
                    let inner = mask & !crusts;
                    if inner == 0 {
                        fillable = false;
                        break;
                    }
                    if i > p && i < q {
                        let (lo, hi) = low_high(inner);
                        low += lo;
                        high += hi;
                        union |= inner;
                    }
                }
                // The filling is distinct digits of the line.
                let Some((least, most)) = distinct_sum_bounds(union, q - p - 1) else {
                    continue;
                };
                if !fillable || self.sum < low.max(least) || self.sum > high.min(most) {
                    continue;
                }
                if let Some(fillings) = &self.fillings {
                    let count = &fillings[q - p - 1];
                    if self.keep_fillings(masks, (p, q), count, &mut kept, work) {
                        kept[p] |= ends.0;
                        kept[q] |= ends.1;
                    }
                    continue;
                }
                kept[p] |= ends.0;
                kept[q] |= ends.1;
                for (i, &mask) in masks.iter().enumerate() {
                    if i == p || i == q {
                        continue;
                    }
                    let inner = mask & !crusts;
                    if i > p && i < q {
                        let (lo, hi) = low_high(inner);
                        let (from, to) = (self.sum - (high - hi), self.sum - (low - lo));
                        kept[i] |= inner & range_mask(from, to);
                    } else {
                        kept[i] |= inner;
                    }
                }
            }
        }
        for (mask, &k) in masks.iter_mut().zip(&kept) {
            *mask &= k;
        }
        if masks.contains(&0) {
            return false;
        }
        let (side, sum, n) = (self.side, self.sum, masks.len());
        // Every assignment of a nearly decided line: a prefix fails once its sandwich is
        // closed with the wrong sum, or its open one is already too large, or the line ends
        // without closing it.
        let mut fits = |digits: &[u8]| {
            let mut open: Option<i64> = None;
            for &d in digits {
                let d = u32::from(d);
                if d == 1 || d == side {
                    match open {
                        None => open = Some(0),
                        Some(total) => return total == sum,
                    }
                } else if let Some(total) = open.as_mut() {
                    *total += i64::from(d);
                    if *total > sum {
                        return false;
                    }
                }
            }
            digits.len() < n
        };
        narrow_by_enumeration(masks, true, work, &mut fits).unwrap_or(true)
    }
}

impl Family for Sandwiches {
    fn propagators(&self, shape: Shape, out: &mut Vec<Arc<dyn Propagator>>) {
        for (index, clue) in self.clues.iter().enumerate() {
            out.push(Arc::new(Sandwich {
                unit: Unit {
                    kind: SANDWICH_CLUE,
                    index,
                },
                cells: clue.at.cells(shape),
                side: shape.side() as u32,
                sum: i64::from(clue.sum),
                fillings: fillings(shape.side() as u32, i64::from(clue.sum)),
            }));
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.clues.is_empty()).then_some((17, "Sandwich"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        // A clue on the right says what the same clue on the left does.
        let mut clues: Vec<(bool, usize, u32)> = self
            .clues
            .iter()
            .map(|c| {
                let rows = matches!(c.at.side, Side::Left | Side::Right);
                (rows, c.at.index, c.sum)
            })
            .collect();
        clues.sort_unstable();
        for (rows, index, sum) in clues {
            let line = if rows { "r" } else { "c" };
            let _ = write!(hash, ";sandwich,{line}{index}={sum}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::propagators::revise;
    use super::*;

    fn clue(side: Side, index: usize, sum: u32) -> SandwichClue {
        SandwichClue {
            at: Outside { side, index },
            sum,
        }
    }

    fn propagator(shape: Shape, sum: u32) -> Arc<dyn Propagator> {
        let sandwiches = Sandwiches::new(shape, &[clue(Side::Left, 0, sum)]).unwrap();
        let mut out = Vec::new();
        sandwiches.propagators(shape, &mut out);
        out.pop().unwrap()
    }

    #[test]
    fn a_sandwich_sums_the_digits_between_its_crusts() {
        let p = propagator(Shape::NINE, 5);
        assert!(p.holds(&[2, 1, 3, 2, 9, 4, 5, 6, 7]));
        assert!(p.holds(&[9, 5, 1, 2, 3, 4, 6, 7, 8]));
        assert!(!p.holds(&[9, 4, 1, 2, 3, 5, 6, 7, 8]));
        let zero = propagator(Shape::FOUR, 0);
        assert!(zero.holds(&[2, 1, 4, 3]) && !zero.holds(&[1, 2, 4, 3]));
    }

    #[test]
    fn a_large_sandwich_keeps_its_crusts_near_the_ends() {
        // 35 is every digit from 2 to 8: the crusts are the first and last cells.
        let p = propagator(Shape::NINE, 35);
        let mut masks = vec![0x1ff; 9];
        assert!(revise(p.as_ref(), &mut masks, &mut 0));
        assert_eq!(masks[0], 1 | 1 << 8);
        assert_eq!(masks[8], 1 | 1 << 8);
        assert_eq!(masks[4], 0x1ff & !(1 | 1 << 8));
    }

    #[test]
    fn a_sum_keeps_only_the_digits_of_the_sets_that_make_it() {
        // Crusts at the first and fifth cells: 10 over three cells is only {2, 3, 5}, so the
        // 4 goes outside with 6, 7 and 8 (bounds alone would leave 4 between the crusts).
        let p = propagator(Shape::NINE, 10);
        let mut masks = vec![0x1ff; 9];
        masks[0] = 1;
        masks[4] = 1 << 8;
        assert!(revise(p.as_ref(), &mut masks, &mut 0));
        let between = 1 << 1 | 1 << 2 | 1 << 4;
        assert!(masks[1..4].iter().all(|&m| m == between), "{masks:?}");
        let outside = 1 << 3 | 1 << 5 | 1 << 6 | 1 << 7;
        assert!(masks[5..].iter().all(|&m| m == outside), "{masks:?}");
    }

    #[test]
    fn fillings_are_listed_up_to_sixteen_by_sixteen() {
        let nine = fillings(9, 10).unwrap();
        assert_eq!(nine[3], vec![1 << 1 | 1 << 2 | 1 << 4]);
        assert_eq!(nine[2].len(), 3); // 2+8, 3+7, 4+6
        assert!(nine[0].is_empty() && fillings(9, 0).unwrap()[0] == vec![0]);
        assert_eq!(fillings(16, 119).unwrap()[14].len(), 1); // 2 + ... + 15
        assert!(fillings(17, 10).is_none());
    }

    #[test]
    fn a_nearly_full_line_is_decided_exactly() {
        // 4x4, sum 0: crusts 1 and 4 side by side.
        let p = propagator(Shape::FOUR, 0);
        let mut masks = vec![0b0010, 0b1001, 0b1001, 0b0110];
        assert!(revise(p.as_ref(), &mut masks, &mut 0));
        assert_eq!(masks, vec![0b0010, 0b1001, 0b1001, 0b0100]);
        let mut masks = vec![0b1001, 0b0110, 0b0110, 0b1001];
        assert!(!revise(p.as_ref(), &mut masks, &mut 0));
    }

    #[test]
    fn malformed_clues_are_refused() {
        let err = Sandwiches::new(Shape::NINE, &[clue(Side::Top, 9, 3)]).unwrap_err();
        assert_eq!(err.pointer, "/sandwiches/0/index");
        let err = Sandwiches::new(Shape::NINE, &[clue(Side::Top, 0, 36)]).unwrap_err();
        assert_eq!(err.pointer, "/sandwiches/0/sum");
        let twice = [clue(Side::Left, 2, 3), clue(Side::Right, 2, 4)];
        let err = Sandwiches::new(Shape::NINE, &twice).unwrap_err();
        assert_eq!(err.pointer, "/sandwiches/1");
        assert!(Sandwiches::new(Shape::NINE, &[clue(Side::Top, 0, 35)]).is_ok());
    }
}
