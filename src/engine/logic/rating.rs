//! Sudoku Explainer (SE) ratings: a number with one decimal, stored in tenths.
//!
//! SE rates a step by a base value for its technique plus modifiers for its size (chains:
//! their length). Chains sum those modifiers as floating-point tenths and compare the sums as
//! such, so [`ExactRating`] keeps that exact value for ordering candidate steps the way SE
//! does, and [`Rating`] is what is shown: the value rounded to one decimal.

use std::fmt;
use std::ops::RangeInclusive;

/// A rating on the Sudoku Explainer scale, in tenths (72 is 7.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rating(u16);

impl Rating {
    /// The rating `tenths / 10`.
    pub const fn from_tenths(tenths: u16) -> Rating {
        Rating(tenths)
    }

    /// The rating in tenths (7.2 gives 72).
    pub const fn tenths(self) -> u16 {
        self.0
    }

    /// The rating as a number, e.g. 7.2.
    pub fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }

    /// The ratings from `min` to `max`, both included, either end open (`None`); each end a
    /// number from 0 to [`Rating::HIGHEST`]. Ratings have one decimal, so an end between two
    /// of them moves inward: "9.14 or more" is 9.2 or more, "at most 0.95" at most 0.9.
    /// Rounding to the nearest instead would answer 9.1 to a caller who asked for 9.14 or
    /// more. `None` when no rating lies within (2.66 to 2.69), or an end is off the scale.
    pub fn between(min: Option<f64>, max: Option<f64>) -> Option<RangeInclusive<Rating>> {
        // A number a client computed may miss its tenth by a rounding error (0.1 + 0.2 is
        // 0.30000000000000004): within this of a tenth, an end is that tenth.
        const SLACK: f64 = 1e-6;
        let on_scale = |v: f64| (0.0..=Rating::HIGHEST.value()).contains(&v);
        let low = match min {
            Some(v) if !on_scale(v) => return None,
            Some(v) => (v * 10.0 - SLACK).ceil() as u16,
            None => 0,
        };
        let high = match max {
            Some(v) if !on_scale(v) => return None,
            Some(v) => (v * 10.0 + SLACK).floor() as u16,
            None => u16::MAX,
        };
        (low <= high).then_some(Rating(low)..=Rating(high))
    }

    /// The highest end a range may name: beyond anything Sudoku Explainer gives a 9x9
    /// puzzle.
    pub const HIGHEST: Rating = Rating(200);
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// A step's rating as SE computes it, before rounding: a base plus 0.1 per modifier, added
/// one by one in floating point. Two steps of "the same" rating can differ in the last bits
/// (6.6 + 0.4 is not 7.0); SE orders candidate steps by these exact values, and so does the
/// search here.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub(crate) struct ExactRating(f64);

impl ExactRating {
    /// `base` tenths plus `steps` increments of 0.1.
    pub(crate) fn new(base_tenths: u16, steps: u32) -> ExactRating {
        let mut value = f64::from(base_tenths) / 10.0;
        for _ in 0..steps {
            value += 0.1;
        }
        ExactRating(value)
    }

    pub(crate) fn rating(self) -> Rating {
        Rating((self.0 * 10.0).round() as u16)
    }
}

/// How many 0.1 steps SE adds for a chain of `complexity` nodes: none up to 6 nodes, then one
/// more each time the length passes the next bound of 4, 6, 8, 12, 16, 24, 32, 48, ... (the
/// bounds grow by 3/2 and 4/3 in turn), so that doubling a long chain costs about 0.2.
pub(crate) fn length_steps(complexity: usize) -> u32 {
    let length = complexity.saturating_sub(2);
    let mut bound = 4usize;
    let mut steps = 0;
    let mut by_half = true;
    while length > bound {
        steps += 1;
        bound = if by_half {
            bound * 3 / 2
        } else {
            bound * 4 / 3
        };
        by_half = !by_half;
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_print_with_one_decimal() {
        assert_eq!(Rating::from_tenths(72).to_string(), "7.2");
        assert_eq!(Rating::from_tenths(100).to_string(), "10.0");
        assert_eq!(Rating::from_tenths(12).value(), 1.2);
    }

    #[test]
    fn length_steps_follow_the_growing_bounds() {
        let steps: Vec<u32> = [4, 6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27]
            .iter()
            .map(|&c| length_steps(c))
            .collect();
        assert_eq!(steps, vec![0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]);
    }

    #[test]
    fn a_range_s_ends_move_inward_to_ratings() {
        let tenths = |low: u16, high: u16| Some(Rating(low)..=Rating(high));
        assert_eq!(Rating::between(Some(9.14), None), tenths(92, u16::MAX));
        assert_eq!(Rating::between(None, Some(0.95)), tenths(0, 9));
        assert_eq!(Rating::between(Some(6.5), Some(7.5)), tenths(65, 75));
        // A rounding error off a tenth stays on it.
        assert_eq!(Rating::between(Some(0.7), Some(0.7)), tenths(7, 7));
        assert_eq!(Rating::between(Some(2.3), Some(9.9)), tenths(23, 99));
        assert_eq!(Rating::between(Some(0.1 + 0.2), None), tenths(3, u16::MAX));
        assert_eq!(Rating::between(Some(1.45), Some(1.45)), None);
        assert_eq!(Rating::between(Some(2.66), Some(2.69)), None);
        assert_eq!(Rating::between(Some(20.0), None), tenths(200, u16::MAX));
        for off in [-0.1, 20.01, f64::NAN, f64::INFINITY] {
            assert_eq!(Rating::between(Some(off), None), None, "{off}");
            assert_eq!(Rating::between(None, Some(off)), None, "{off}");
        }
    }

    #[test]
    fn exact_ratings_keep_float_order_but_round_for_display() {
        let chain = ExactRating::new(66, 4);
        let cycle = ExactRating::new(70, 0);
        assert_eq!(chain.rating(), cycle.rating());
        // 6.6 + 0.4 in floating point falls just below 7.0, so SE ranks such a chain first.
        assert!(chain < cycle);
        assert_eq!(ExactRating::new(85, 3).rating(), Rating::from_tenths(88));
    }
}
