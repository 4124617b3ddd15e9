//! Skyscrapers: a clue beside a row or column counts the digits seen from it, each digit a
//! building of its height that hides every lower one behind it. Each clue is a propagator
//! over its line: each digit stays only where some filling's walk of (tallest so far,
//! buildings seen) through it shows the count (see [`narrow_by_views`]), and when few
//! assignments remain they are all tried, which is exact.

use std::fmt;
use std::sync::Arc;

use super::outside::Outside;
use super::propagators::{narrow_by_enumeration, Propagator};
use super::{ConstraintError, Family};
use crate::engine::model::grid::{Cell, Shape, MAX_SIDE};
use crate::engine::model::validate::{Unit, UnitKind};

/// One skyscraper clue ("skyscraper clue 1" in messages, `skyscraper` in the JSON API).
pub const SKYSCRAPER_CLUE: UnitKind =
    UnitKind::relation("skyscraper", "skyscraper clue", "skyscraper clues");

const PROBLEM: &str = "invalid-skyscrapers";

/// One clue as a caller describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SkyscraperClue {
    pub at: Outside,
    pub count: u32,
}

/// The skyscraper clues of a puzzle, in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Skyscrapers {
    clues: Vec<SkyscraperClue>,
}

impl Skyscrapers {
    /// The clues as sent, checked against `shape`: a line on the grid, a count from 1 to
    /// the side, one clue a place.
    pub fn new(shape: Shape, clues: &[SkyscraperClue]) -> Result<Skyscrapers, ConstraintError> {
        let side = shape.side();
        for (k, clue) in clues.iter().enumerate() {
            clue.at.check(shape, PROBLEM, ("skyscrapers", k))?;
            if clue.count == 0 || clue.count as usize > side {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/skyscrapers/{k}/count"),
                    detail: format!(
                        "skyscraper clue {}: a line of {side} shows 1 to {side} buildings, \
                         not {}",
                        k + 1,
                        clue.count
                    ),
                });
            }
            if clues[..k].iter().any(|c| c.at == clue.at) {
                return Err(ConstraintError {
                    problem: PROBLEM,
                    pointer: format!("/skyscrapers/{k}"),
                    detail: format!("skyscraper clue {}: its place already has a clue", k + 1),
                });
            }
        }
        Ok(Skyscrapers {
            clues: clues.to_vec(),
        })
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.clues.is_empty()
    }

    /// The clues as given (for the renderer).
    pub(crate) fn clues(&self) -> &[SkyscraperClue] {
        &self.clues
    }
}

/// How many of `digits` are taller than every digit before them.
fn visible(digits: &[u8]) -> u32 {
    let mut tallest = 0;
    let mut seen = 0;
    for &d in digits {
        if d > tallest {
            tallest = d;
            seen += 1;
        }
    }
    seen
}

/// Narrows the `masks` of a line (from its clue, one per cell, as many as digits) to the
/// digits of some filling that shows `count` buildings; `false` when none does. The line is
/// read as a walk through states (the tallest so far, the buildings seen): a taller digit
/// is one more building, a lower one hides. A digit stays where some walk from the clue to
/// the far end, seeing `count` and placing the tallest digit, passes through it. Digits are
/// not kept distinct beyond differing from the tallest so far, so this is sound, not exact
/// (the enumeration after it is exact on nearly decided lines); it covers the classic rules
/// (a clue of 1 sees the tallest first; a cell `i` places from a clue of `count` holds at
/// most `side - count + 1 + i`) and what a placed tall digit near the clue implies.
fn narrow_by_views(masks: &mut [u32], count: u32) -> bool {
    let n = masks.len();
    let counts = (1u32 << (count + 1)) - 1;
    // `ahead[i][m]`: the counts (bits) seen after the first i cells with tallest m (0 for
    // none yet).
    let mut ahead = [[0u32; MAX_SIDE + 1]; MAX_SIDE + 1];
    ahead[0][0] = 1;
    for i in 0..n {
        let mask = masks[i];
        let mut lower = 0u32;
        for d in 1..=n {
            lower |= ahead[i][d - 1];
            let below = mask & ((1 << (d - 1)) - 1);
            let mut next = if below != 0 { ahead[i][d] } else { 0 };
            if mask >> (d - 1) & 1 == 1 {
                next |= lower << 1;
            }
            ahead[i + 1][d] = next & counts;
        }
    }
    if ahead[n][n] >> count & 1 == 0 {
        return false;
    }
    // Back from the far end: `behind[m]`, the counts from which the cells from i + 1 on
    // can finish with tallest m before them.
    let mut behind = [0u32; MAX_SIDE + 1];
    behind[n] = 1 << count;
    for i in (0..n).rev() {
        let mut kept = 0u32;
        // Hidden behind a taller m: kept if some walk stays at m through cell i.
        let mut hidden_above = false;
        for d in (1..=n).rev() {
            if hidden_above {
                kept |= 1 << (d - 1);
            }
            hidden_above |= ahead[i][d] & behind[d] != 0;
        }
        // Seen: kept if a walk below d reaches it and finishes from it.
        let mut lower = 0u32;
        for d in 1..=n {
            lower |= ahead[i][d - 1];
            if (lower << 1) & behind[d] != 0 {
                kept |= 1 << (d - 1);
            }
        }
        masks[i] &= kept;
        let mask = masks[i];
        if mask == 0 {
            return false;
        }
        // A taller digit than m: one more seen, tallest that digit; a lower one: stay.
        let mut taller = 0u32;
        for m in (0..=n).rev() {
            let below = if m == 0 {
                0
            } else {
                mask & ((1 << (m - 1)) - 1)
            };
            let stay = if below != 0 { behind[m] } else { 0 };
            if m >= 1 && mask >> (m - 1) & 1 == 1 {
                let seen = behind[m] >> 1;
                behind[m] = taller | stay;
                taller |= seen;
            } else {
                behind[m] = taller | stay;
            }
        }
    }
    true
}

/// One clue as the engines read it: the line's cells from the clue.
#[derive(Debug)]
struct Skyscraper {
    unit: Unit,
    cells: Vec<Cell>,
    count: u32,
}

impl Propagator for Skyscraper {
    fn unit(&self) -> Unit {
        self.unit
    }

    fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn holds(&self, digits: &[u8]) -> bool {
        visible(digits) == self.count
    }

    fn narrow(&self, masks: &mut [u32], work: &mut u64) -> bool {
        // Two walks over the line's states, each a side-sized sweep a cell, so the cost
        // grows with the square of the side. Charged by the side alone (12 a cell), a 25x25
        // with a clue on every line spent 1.25 s of CPU in a 250,000-unit budget, about five
        // microseconds a unit (`examples/work_units`, BENCHMARKS.md).
        let n = masks.len() as u64;
        *work += 2 * n * n + 12 * n;
        if !narrow_by_views(masks, self.count) {
            return false;
        }
        let (n, top) = (masks.len(), masks.len() as u8);
        let want = self.count;
        // A prefix fails once it shows more than the count, or once the tallest is placed
        // (nothing behind it shows) short of it, or when the cells left could not make up
        // the difference.
        let mut fits = |digits: &[u8]| {
            let seen = visible(digits);
            let left = (n - digits.len()) as u32;
            seen <= want && seen + left >= want && (!digits.contains(&top) || seen == want)
        };
        narrow_by_enumeration(masks, true, work, &mut fits).unwrap_or(true)
    }
}

impl Family for Skyscrapers {
    fn propagators(&self, shape: Shape, out: &mut Vec<Arc<dyn Propagator>>) {
        for (index, clue) in self.clues.iter().enumerate() {
            out.push(Arc::new(Skyscraper {
                unit: Unit {
                    kind: SKYSCRAPER_CLUE,
                    index,
                },
                cells: clue.at.cells(shape),
                count: clue.count,
            }));
        }
    }

    fn kind_word(&self) -> Option<(u8, &'static str)> {
        (!self.clues.is_empty()).then_some((19, "Skyscrapers"))
    }

    fn identify(&self, hash: &mut dyn fmt::Write) {
        let mut clues: Vec<&SkyscraperClue> = self.clues.iter().collect();
        clues.sort_unstable_by_key(|c| (c.at, c.count));
        for clue in clues {
            let _ = write!(hash, ";skyscraper,{}={}", clue.at, clue.count);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::outside::Side;
    use super::super::propagators::revise;
    use super::*;

    fn propagator(count: u32) -> Arc<dyn Propagator> {
        let at = Outside {
            side: Side::Bottom,
            index: 3,
        };
        let clues = Skyscrapers::new(Shape::SIX, &[SkyscraperClue { at, count }]).unwrap();
        let mut out = Vec::new();
        clues.propagators(Shape::SIX, &mut out);
        out.pop().unwrap()
    }

    #[test]
    fn a_clue_counts_the_buildings_it_sees() {
        assert_eq!(visible(&[2, 1, 4, 3, 6, 5]), 3);
        assert!(propagator(3).holds(&[2, 1, 4, 3, 6, 5]));
        assert!(!propagator(2).holds(&[2, 1, 4, 3, 6, 5]));
    }

    #[test]
    fn the_count_bounds_the_cells_near_the_clue() {
        // A 1 sees only the tallest first; a 6 sees every height in order.
        let mut masks = vec![0b11_1111; 6];
        assert!(revise(propagator(1).as_ref(), &mut masks, &mut 0));
        assert_eq!(masks[0], 0b10_0000);
        let mut masks = vec![0b11_1111; 6];
        assert!(revise(propagator(6).as_ref(), &mut masks, &mut 0));
        assert_eq!(masks[0], 0b1);
        // Count 3: the first cell at most 4, the second at most 5.
        let mut masks = vec![0b11_1111; 6];
        assert!(revise(propagator(3).as_ref(), &mut masks, &mut 0));
        assert_eq!((masks[0], masks[1]), (0b1111, 0b1_1111));
    }

    #[test]
    fn a_tall_building_placed_early_decides_the_view_before_it() {
        // Count 3 with the 6 third: both cells before it are seen, rising, so the second is
        // not 1 (and the first not 5), which no bound on a single cell says.
        let mut masks = vec![0b11_1111; 6];
        masks[2] = 0b10_0000;
        assert!(revise(propagator(3).as_ref(), &mut masks, &mut 0));
        assert_eq!((masks[0], masks[1]), (0b1111, 0b1_1110));
        // Behind the 6 nothing is seen, so nothing else is narrowed; with a count of 4 the
        // 6 third is impossible.
        assert!(masks[3..].iter().all(|&m| m == 0b1_1111));
        let mut masks = vec![0b11_1111; 6];
        masks[2] = 0b10_0000;
        assert!(!revise(propagator(4).as_ref(), &mut masks, &mut 0));
    }

    #[test]
    fn a_nearly_decided_line_is_decided_exactly() {
        // 6 first sees one building, not two.
        let mut masks = vec![0b10_0000, 0b1, 0b10, 0b100, 0b1000, 0b1_0000];
        assert!(!revise(propagator(2).as_ref(), &mut masks, &mut 0));
        let mut masks = vec![0b110, 0b110, 0b10_0000, 0b1, 0b1000, 0b1_0000];
        assert!(revise(propagator(3).as_ref(), &mut masks, &mut 0));
        assert_eq!((masks[0], masks[1]), (0b10, 0b100));
    }
}
