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

use crate::engine::budget::{Budget, Exhausted, Stop};
#[cfg(test)]
use crate::engine::model::board::ClassicPuzzle;
#[cfg(test)]
use crate::engine::solve::band::Solver;

use super::search::lowest_left_out;
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
    /// Whether the techniques finished the puzzle, and so whether its rating is known.
    pub finish: Finish,
    /// The hardest technique used (the one that set the rating, or the bound); `None` when
    /// the puzzle needed no step (already full) or the solver was stuck from the start.
    pub hardest: Option<Technique>,
    /// How many steps of each technique were applied (only techniques used appear).
    pub counts: BTreeMap<Technique, u32>,
    /// Sum of the ratings of all steps, in tenths: how much work the whole solve is.
    pub score: u32,
}

/// How a logical solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The techniques solved the puzzle: its SE rating is the hardest step's.
    Rated(Rating),
    /// They stopped first, so the rating is not known; it is at least `at_least`.
    Stopped { at_least: Rating, why: Stopped },
}

/// Why a logical solve stopped before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// No technique applies: a player would have to guess. Under a cap ([`Enough::above`]),
    /// none of the techniques up to it applies, and the bound is the lowest rating of those
    /// it left out.
    NoTechnique,
    /// The puzzle has more than one solution, which logic alone cannot finish.
    NotUnique,
    /// The work budget ran out.
    Budget,
    /// A step rated above the rating the caller asked about was found (a generator asking
    /// "is this at most 6.5?" needs no more).
    AboveCap,
    /// The solve filled the cells the caller allowed without such a step: a generator seeking
    /// a hard puzzle bets that the rest of the solve is easier (see [`Enough::hard_part`]).
    PastTheHardPart,
}

impl Stopped {
    /// Stable snake_case name for wire formats.
    pub const fn name(self) -> &'static str {
        match self {
            Stopped::NoTechnique => "no_technique",
            Stopped::NotUnique => "not_unique",
            Stopped::Budget => "budget",
            Stopped::AboveCap => "above_cap",
            Stopped::PastTheHardPart => "past_the_hard_part",
        }
    }
}

/// The rating every step beyond the engine's classic techniques has at least: when dynamic
/// forcing chains "plus" (9.0, the last of them) find nothing, Sudoku Explainer's next
/// technique is its nested forcing chains, whose base is 9.5 (8.5 + 0.5 per nesting level,
/// level 2 the first past the "plus" one), and every later one rates higher. Checked against
/// Sukaku Explainer's ratings of the puzzles this grade leaves stuck (BENCHMARKS.md).
const BEYOND_THE_TECHNIQUES: Rating = Rating::from_tenths(95);

/// How much of a grade a caller needs: all of it, or only enough to place the puzzle
/// against a range (a generator's question): [`Enough::ALL`] or [`Enough::above`], or a
/// cap with cells (the generator's `enough_for`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Enough {
    /// Stop at the first step rated above this ([`Stopped::AboveCap`]): "is this puzzle at
    /// most 6.5?" or "at least 9.0?" needs no more.
    pub(crate) above: Option<Rating>,
    /// Stop once enough cells are filled while no step has reached the range sought
    /// ([`Stopped::PastTheHardPart`]). Hard steps come early in a solve, while few cells are
    /// filled: a generator seeking a hard puzzle gives up on one whose start was easy,
    /// rather than grading the easier rest. Without `above` it is never used.
    pub(crate) hard_part: Option<HardPart>,
}

/// Where a grade bets that a puzzle is too easy (see [`Enough::hard_part`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HardPart {
    /// Filled cells (givens included) by which a step must have reached `reaching`.
    pub(crate) cells: usize,
    /// The range's minimum. Not the cap: a closed range's cap is its maximum, and a bet on
    /// that would give up on every puzzle in the range.
    pub(crate) reaching: Rating,
}

impl Enough {
    /// The whole grade.
    pub(crate) const ALL: Enough = Enough {
        above: None,
        hard_part: None,
    };

    /// Up to the first step rated above `cap`.
    pub(crate) const fn above(cap: Rating) -> Enough {
        Enough {
            above: Some(cap),
            hard_part: None,
        }
    }
}

impl Grade {
    /// The SE rating, when the techniques finished the puzzle.
    pub fn rating(&self) -> Option<Rating> {
        match self.finish {
            Finish::Rated(rating) => Some(rating),
            Finish::Stopped { .. } => None,
        }
    }

    /// What is known of the rating: the rating itself, or the bound it is at least.
    pub fn lower_bound(&self) -> Rating {
        match self.finish {
            Finish::Rated(rating)
            | Finish::Stopped {
                at_least: rating, ..
            } => rating,
        }
    }

    /// Why the solve stopped early, if it did.
    pub fn stopped(&self) -> Option<Stopped> {
        match self.finish {
            Finish::Rated(_) => None,
            Finish::Stopped { why, .. } => Some(why),
        }
    }

    /// The level, when it is known: a rated puzzle's band; `Extreme` for a puzzle beyond the
    /// techniques (that level is "9.0 and up, or beyond every technique") or whose bound
    /// already reaches it; `None` when the solve stopped for another reason below 9.0 (out of
    /// work, several solutions).
    pub fn difficulty(&self) -> Option<Difficulty> {
        match self.finish {
            Finish::Rated(rating) => Some(Difficulty::of_rating(rating)),
            Finish::Stopped { at_least, why } => (why == Stopped::NoTechnique
                || Difficulty::of_rating(at_least) == Difficulty::Extreme)
                .then_some(Difficulty::Extreme),
        }
    }

    /// The techniques do not finish the puzzle: a player would have to guess. Always true for
    /// a puzzle without exactly one solution.
    pub fn needs_guessing(&self) -> bool {
        matches!(
            self.stopped(),
            Some(Stopped::NoTechnique | Stopped::NotUnique)
        )
    }
}

/// Rates `puzzle`: counts its solutions (uniqueness techniques need exactly one), then runs
/// the logical solver to the end or until stuck; `Err` when `budget` stops either first.
/// The tests' entry point: the engine grades through [`grade_until_stopped`].
#[cfg(test)]
pub fn grade(
    puzzle: &ClassicPuzzle,
    solver: &mut Solver,
    budget: &Budget,
) -> Result<Grade, Exhausted> {
    let unique = solver.count_solutions(puzzle, 2, budget)?.count == 1;
    grade_with(
        puzzle,
        &Assumptions { uniqueness: unique },
        Enough::ALL,
        budget,
    )
}

/// Rates `puzzle` under `assume`, as far as `enough` asks. A grade stopped by a step above
/// its cap has that step's rating as its bound ([`Stopped::AboveCap`]).
#[cfg(test)]
pub(crate) fn grade_with(
    puzzle: &ClassicPuzzle,
    assume: &Assumptions,
    enough: Enough,
    budget: &Budget,
) -> Result<Grade, Exhausted> {
    grade_marks(Candidates::new(puzzle.board()), assume, enough, budget)
}

/// [`grade_with`] from the basic marks of any geometry's puzzle (a variant's). Running out of
/// work is an error here, as every search's: a generator must not take an unfinished grade
/// for a verdict. [`grade_until_stopped`] keeps what was learnt instead.
pub(crate) fn grade_marks(
    marks: Candidates<'_>,
    assume: &Assumptions,
    enough: Enough,
    budget: &Budget,
) -> Result<Grade, Exhausted> {
    let grade = grade_until_stopped(marks, assume, enough, budget)?;
    match grade.stopped() {
        Some(Stopped::Budget) => Err(Exhausted {
            stop: Stop::Work,
            work: budget.used(),
        }),
        _ => Ok(grade),
    }
}

/// [`grade_marks`], but a solve that runs out of work is a grade too: the bound reached, with
/// [`Stopped::Budget`] (what `/grade` answers). A deadline or cancellation is still an error.
pub(crate) fn grade_until_stopped(
    mut marks: Candidates<'_>,
    assume: &Assumptions,
    enough: Enough,
    budget: &Budget,
) -> Result<Grade, Exhausted> {
    // One-digit finders re-run step after step on mostly the same places: let them remember.
    let _memory = super::barren::Scope::open();
    let cap = enough.above;
    // Only a cap makes a bet on the rest meaningful: without one, every step counts.
    let hard_part = enough.hard_part.filter(|_| cap.is_some());
    let mut counts = BTreeMap::new();
    let mut score = 0;
    let mut hardest: Option<(Rating, Technique)> = None;
    let mut stopped = None;
    // Each step fills a cell or removes a mark, so 81 + 729 steps is a hard upper bound; the
    // cap only guards against a bug turning into an endless loop.
    for _ in 0..(81 + 729) {
        if marks.is_solved() || marks.has_contradiction() {
            break;
        }
        let missed = |h: HardPart| hardest.is_none_or(|(r, _)| r < h.reaching);
        if hard_part.is_some_and(|h| marks.board().given_count() >= h.cells && missed(h)) {
            stopped = Some(Stopped::PastTheHardPart);
            break;
        }
        let step = match assume.next_step_within(&marks, cap, budget) {
            Ok(Some(step)) => step,
            Ok(None) => break,
            // Out of work, the grade so far is what is known: a bound, not a rating.
            Err(Exhausted {
                stop: Stop::Work, ..
            }) => {
                stopped = Some(Stopped::Budget);
                break;
            }
            Err(other) => return Err(other),
        };
        *counts.entry(step.technique).or_insert(0) += 1;
        score += u32::from(step.rating.tenths());
        if hardest.is_none_or(|(r, _)| step.rating > r) {
            hardest = Some((step.rating, step.technique));
        }
        marks.apply(&step);
        if cap.is_some_and(|c| step.rating > c) {
            stopped = Some(Stopped::AboveCap);
            break;
        }
    }
    let reached = hardest.map_or(Rating::default(), |(r, _)| r);
    let stopped = stopped.or(if !assume.uniqueness {
        Some(Stopped::NotUnique)
    } else if !marks.is_solved() || marks.has_contradiction() {
        Some(Stopped::NoTechnique)
    } else {
        None
    });
    let finish = match (stopped, lowest_left_out(marks.geometry(), cap)) {
        (None, _) => Finish::Rated(reached),
        // A cap left the harder techniques out: the next step, if any, needs one of them.
        (Some(Stopped::NoTechnique), Some(next)) => Finish::Stopped {
            at_least: reached.max(next),
            why: Stopped::NoTechnique,
        },
        // Past the classic techniques (every house a house, no cages), Sudoku Explainer's
        // next ones rate 9.5 and up. A Killer's cage techniques have no such scale beyond
        // them: only what was reached is known.
        (Some(Stopped::NoTechnique), None) if marks.geometry().cages().is_empty() => {
            Finish::Stopped {
                at_least: reached.max(BEYOND_THE_TECHNIQUES),
                why: Stopped::NoTechnique,
            }
        }
        (Some(why), _) => Finish::Stopped {
            at_least: reached,
            why,
        },
    };
    Ok(Grade {
        finish,
        hardest: hardest.map(|(_, t)| t),
        counts,
        score,
    })
}
