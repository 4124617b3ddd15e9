//! Skyscrapers: a clue beside a row or column counts the digits seen from it, each digit a
//! building of its height that hides every lower one behind it. Each clue is a propagator
//! over its line: a cell `i` places from the clue holds at most `side - count + 1 + i`
//! (fewer buildings in front could not make up the count), a clue of 1 sees the tallest
//! first, and when few assignments remain
//! they are all tried, which is exact.

use std::fmt;
use std::sync::Arc;

use super::outside::Outside;
use super::propagators::{narrow_by_enumeration, range_mask, Propagator};
use super::{ConstraintError, Family};
use crate::engine::model::grid::{Cell, Shape};
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
        let side = masks.len() as i64;
        let count = i64::from(self.count);
        if count == 1 {
            // Only the tallest first hides every other.
            masks[0] &= 1 << (side - 1);
        }
        for (i, mask) in masks.iter_mut().enumerate() {
            *mask &= range_mask(1, side - count + 1 + i as i64);
            if *mask == 0 {
                return false;
            }
        }
        *work += masks.len() as u64;
        let (n, top) = (masks.len(), side as u8);
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
    fn a_nearly_decided_line_is_decided_exactly() {
        // 6 first sees one building, not two.
        let mut masks = vec![0b10_0000, 0b1, 0b10, 0b100, 0b1000, 0b1_0000];
        assert!(!revise(propagator(2).as_ref(), &mut masks, &mut 0));
        let mut masks = vec![0b110, 0b110, 0b10_0000, 0b1, 0b1000, 0b1_0000];
        assert!(revise(propagator(3).as_ref(), &mut masks, &mut 0));
        assert_eq!((masks[0], masks[1]), (0b10, 0b100));
    }
}
