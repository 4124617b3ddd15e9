//! Rating a puzzle on the Sudoku Explainer scale, and the six levels built on it.
//!
//! # Rating
//! The logical solver applies, again and again, the first step SE's ordered techniques produce
//! (see [`Assumptions::next_step`]) until the grid is full or nothing applies. The puzzle's rating is
//! its hardest step's rating: SE's number, e.g. 7.2. Uniqueness techniques are used only when
//! the exact solver confirms exactly one solution.
//!
//! # Levels
//! Fixed bands of the rating:
//!
//! | Level     | SE rating  | typically needs                                          |
//! |-----------|------------|----------------------------------------------------------|
//! | `easy`    | 1.0 - 1.5  | hidden singles                                           |
//! | `medium`  | 1.7 - 2.5  | naked singles, direct pointing and hidden pairs           |
//! | `hard`    | 2.6 - 4.0  | locked candidates, pairs, triples, X-Wing, Swordfish      |
//! | `expert`  | 4.1 - 5.9  | wings, unique rectangles, quads, strong-link chains, BUG  |
//! | `master`  | 6.0 - 8.9  | aligned exclusion, chains and cycles, forcing chains      |
//! | `extreme` | 9.0 and up | long dynamic forcing chains; or beyond every technique    |

use std::collections::BTreeMap;
use std::fmt;

use crate::engine::board::ClassicPuzzle;
use crate::engine::budget::{Budget, Exhausted};
use crate::engine::solver::Solver;

use super::{Assumptions, Candidates, Rating, Technique};

/// How hard a puzzle is for a person: a fixed band of its SE rating; ordered easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
    Expert,
    Master,
    Extreme,
}

impl Difficulty {
    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 6] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
        Difficulty::Master,
        Difficulty::Extreme,
    ];

    /// Stable lower-case name for wire formats.
    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
            Difficulty::Master => "master",
            Difficulty::Extreme => "extreme",
        }
    }

    /// The difficulty with this [`name`](Difficulty::name).
    pub fn from_name(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The band `rating` falls in.
    pub fn of_rating(rating: Rating) -> Difficulty {
        match rating.tenths() {
            0..=15 => Difficulty::Easy,
            16..=25 => Difficulty::Medium,
            26..=40 => Difficulty::Hard,
            41..=59 => Difficulty::Expert,
            60..=89 => Difficulty::Master,
            _ => Difficulty::Extreme,
        }
    }

    /// The ratings of this band, both ends included.
    pub fn ratings(self) -> std::ops::RangeInclusive<Rating> {
        let (low, high) = match self {
            Difficulty::Easy => (0, 15),
            Difficulty::Medium => (16, 25),
            Difficulty::Hard => (26, 40),
            Difficulty::Expert => (41, 59),
            Difficulty::Master => (60, 89),
            Difficulty::Extreme => (90, u16::MAX),
        };
        Rating::from_tenths(low)..=Rating::from_tenths(high)
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The verdict of a logical solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grade {
    /// The band of `rating`; `Extreme` when the puzzle needs guessing.
    pub difficulty: Difficulty,
    /// The SE rating: the hardest step's. For a puzzle that needs guessing, the hardest step
    /// taken before the techniques got stuck (a lower bound).
    pub rating: Rating,
    /// The hardest technique used (the one that set the rating); `None` when the puzzle needed
    /// no step (already full) or the solver was stuck from the start.
    pub hardest: Option<Technique>,
    /// How many steps of each technique were applied (only techniques used appear).
    pub counts: BTreeMap<Technique, u32>,
    /// Sum of the ratings of all steps, in tenths: how much work the whole solve is.
    pub score: u32,
    /// The techniques here do not finish the puzzle: a player would have to guess. Always
    /// true for a puzzle without exactly one solution, since logic alone cannot finish one.
    pub needs_guessing: bool,
}

/// Rates `puzzle`: counts its solutions (uniqueness techniques need exactly one), then runs
/// the logical solver to the end or until stuck; `Err` when `budget` stops either first.
pub fn grade(
    puzzle: &ClassicPuzzle,
    solver: &mut Solver,
    budget: &Budget,
) -> Result<Grade, Exhausted> {
    let unique = solver.count_solutions(puzzle, 2, budget)?.count == 1;
    grade_with(puzzle, &Assumptions { uniqueness: unique }, None, budget)
}

/// Rates `puzzle` under `assume`, stopping as soon as a step is rated above `stop_above` (when
/// given). The grade then has that step's rating and `needs_guessing` false, but the solve is
/// not finished: a generator asking "is this puzzle at most 6.5?" or "at least 9.0?" needs no
/// more.
pub(crate) fn grade_with(
    puzzle: &ClassicPuzzle,
    assume: &Assumptions,
    stop_above: Option<Rating>,
    budget: &Budget,
) -> Result<Grade, Exhausted> {
    grade_marks(Candidates::new(puzzle.board()), assume, stop_above, budget)
}

/// [`grade_with`] from the basic marks of any geometry's puzzle (a variant's).
pub(crate) fn grade_marks(
    mut marks: Candidates<'_>,
    assume: &Assumptions,
    stop_above: Option<Rating>,
    budget: &Budget,
) -> Result<Grade, Exhausted> {
    let cap = stop_above;
    let mut counts = BTreeMap::new();
    let mut score = 0;
    let mut hardest: Option<(Rating, Technique)> = None;
    // Each step fills a cell or removes a mark, so 81 + 729 steps is a hard upper bound; the
    // cap only guards against a bug turning into an endless loop.
    for _ in 0..(81 + 729) {
        if marks.is_solved() || marks.has_contradiction() {
            break;
        }
        let Some(step) = assume.next_step_within(&marks, cap, budget)? else {
            break;
        };
        *counts.entry(step.technique).or_insert(0) += 1;
        score += u32::from(step.rating.tenths());
        if hardest.is_none_or(|(r, _)| step.rating > r) {
            hardest = Some((step.rating, step.technique));
        }
        marks.apply(&step);
        if cap.is_some_and(|c| step.rating > c) {
            let rating = step.rating;
            return Ok(Grade {
                difficulty: Difficulty::of_rating(rating),
                rating,
                hardest: Some(step.technique),
                counts,
                score,
                needs_guessing: false,
            });
        }
    }
    let needs_guessing = !marks.is_solved() || marks.has_contradiction() || !assume.uniqueness;
    let rating = hardest.map_or(Rating::default(), |(r, _)| r);
    let difficulty = if needs_guessing {
        Difficulty::Extreme
    } else {
        Difficulty::of_rating(rating)
    };
    Ok(Grade {
        difficulty,
        rating,
        hardest: hardest.map(|(_, t)| t),
        counts,
        score,
        needs_guessing,
    })
}
