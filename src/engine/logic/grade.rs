//! Rating a puzzle by the hardest technique a player needs.
//!
//! # Mapping
//! The logical solver applies the easiest available step until the grid is full or no
//! technique applies. The difficulty is the band of the hardest technique it used:
//!
//! | Difficulty | Hardest technique needed                                            |
//! |------------|---------------------------------------------------------------------|
//! | `Easy`     | naked and hidden singles only                                       |
//! | `Medium`   | locked candidates (pointing, claiming), naked and hidden pairs      |
//! | `Hard`     | naked and hidden triples, X-Wing, Swordfish, XY-Wing                |
//! | `Expert`   | none of the above finish it: the solver got stuck (needs guessing)  |
//!
//! Because steps are always the easiest available, "hardest used" is a fair measure: a harder
//! technique only appears when nothing easier made progress.

use std::collections::BTreeMap;
use std::fmt;

use crate::engine::board::ClassicPuzzle;
use crate::engine::budget::{Budget, Exhausted};

use super::{next_step, Candidates, Technique, STEP_WORK};

/// How hard a puzzle is for a person; ordered easiest first. See the module docs for the
/// mapping from techniques.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
    Expert,
}

impl Difficulty {
    /// Every difficulty, easiest first.
    pub const ALL: [Difficulty; 4] = [
        Difficulty::Easy,
        Difficulty::Medium,
        Difficulty::Hard,
        Difficulty::Expert,
    ];

    /// Stable lower-case name for wire formats.
    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        }
    }

    /// The difficulty with this [`name`](Difficulty::name).
    pub fn from_name(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == name)
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
    pub difficulty: Difficulty,
    /// The hardest technique used; `None` when the puzzle needed no step (already full) or the
    /// solver was stuck from the start.
    pub hardest: Option<Technique>,
    /// How many steps of each technique were applied (only techniques used appear).
    pub counts: BTreeMap<Technique, u32>,
    /// Sum of [`Technique::weight`] over the steps taken. For a puzzle that needs guessing it
    /// covers only the part solved before the solver got stuck.
    pub score: u32,
    /// The techniques here do not finish the puzzle: a player would have to guess (or use
    /// something harder, such as chains). Always true for a puzzle without exactly one
    /// solution, since logic alone cannot finish one.
    pub needs_guessing: bool,
}

/// Runs the logical solver on `puzzle` to the end or until stuck, and rates it; `Err` when
/// `budget` stops it first (each step is charged [`STEP_WORK`]).
pub fn grade(puzzle: &ClassicPuzzle, budget: &Budget) -> Result<Grade, Exhausted> {
    let mut marks = Candidates::new(puzzle.board());
    let mut counts = BTreeMap::new();
    let mut score = 0;
    let mut hardest = None;
    // Each step fills a cell or removes a mark, so 81 + 729 steps is a hard upper bound; the
    // cap only guards against a bug turning into an endless loop.
    for _ in 0..(81 + 729) {
        if marks.is_solved() || marks.has_contradiction() {
            break;
        }
        budget.charge(STEP_WORK)?;
        let Some(step) = next_step(&marks) else {
            break;
        };
        *counts.entry(step.technique).or_insert(0) += 1;
        score += step.technique.weight();
        hardest = hardest.max(Some(step.technique));
        marks.apply(&step);
    }
    let needs_guessing = !marks.is_solved() || marks.has_contradiction();
    let difficulty = if needs_guessing {
        Difficulty::Expert
    } else {
        hardest.map_or(Difficulty::Easy, Technique::difficulty)
    };
    Ok(Grade {
        difficulty,
        hardest,
        counts,
        score,
        needs_guessing,
    })
}
