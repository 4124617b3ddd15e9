//! Human-style solving: the techniques a player uses, one explained step at a time.
//!
//! The exact solver ([`Solver`](crate::engine::Solver)) answers *what* the solution is; this
//! module answers *how a person gets there*. It works on [`Candidates`] (pencil marks) and
//! finds [`Step`]s, each made by one [`Technique`] and each sound: a step never removes a digit
//! that the true solution needs, so on a uniquely solvable puzzle following steps only ever
//! moves towards that solution.
//!
//! * [`candidates`](mod@candidates): the pencil-mark grid and its geometry tables.
//! * `singles`, `intersections`, `subsets`, `fish`, `wings` (private): one file per technique
//!   group, each a finder `Candidates -> Option<Step>`; [`Technique::find`] is the public door,
//!   so a finder can never be asked for a subset or fish size it does not name.
//! * [`grade`](mod@grade): run the steps to the end and rate the puzzle.
//! * [`hint`](mod@hint): what to tell a player looking at their own board.
//!
//! Determinism: every finder scans in a fixed order (units rows, columns, boxes unless said
//! otherwise; digits and cells ascending) and returns the first pattern that changes something,
//! so the same marks always give the same step.

pub mod candidates;
mod fish;
pub mod grade;
pub mod hint;
mod intersections;
mod singles;
mod subsets;
mod text;
mod wings;

use std::fmt;

use crate::engine::board::Board;
use crate::engine::budget::{Budget, Exhausted};
use crate::engine::grid::{Cell, Digit};
use crate::engine::validate::Unit;

pub use candidates::Candidates;
pub use grade::{grade, Difficulty, Grade};
pub use hint::{hint, hint_with_givens, Hint};

/// A solving technique, ordered easiest first: the derived `Ord` *is* the difficulty order,
/// and [`next_step`] tries them in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit with one place left in a row, column or box.
    HiddenSingle,
    /// A digit confined to one row or column inside a box leaves the rest of that line.
    LockedCandidatesPointing,
    /// A digit confined to one box inside a row or column leaves the rest of that box.
    LockedCandidatesClaiming,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// Two digits with the same two places in a unit.
    HiddenPair,
    /// Three cells of a unit whose candidates together are three digits.
    NakedTriple,
    /// Three digits whose places in a unit are together three cells.
    HiddenTriple,
    /// A digit in two rows (columns) confined to the same two columns (rows).
    XWing,
    /// The three-line version of the X-Wing.
    Swordfish,
    /// A bivalue pivot and two bivalue pincers that force a digit out of their common peers.
    XyWing,
}

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; 11] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::LockedCandidatesPointing,
        Technique::LockedCandidatesClaiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::Swordfish,
        Technique::XyWing,
    ];

    /// Stable snake_case name for wire formats and logs; never changes once published.
    pub const fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked_single",
            Technique::HiddenSingle => "hidden_single",
            Technique::LockedCandidatesPointing => "locked_candidates_pointing",
            Technique::LockedCandidatesClaiming => "locked_candidates_claiming",
            Technique::NakedPair => "naked_pair",
            Technique::HiddenPair => "hidden_pair",
            Technique::NakedTriple => "naked_triple",
            Technique::HiddenTriple => "hidden_triple",
            Technique::XWing => "x_wing",
            Technique::Swordfish => "swordfish",
            Technique::XyWing => "xy_wing",
        }
    }

    /// The technique with this [`name`](Technique::name).
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Points a step of this technique adds to a puzzle's score. Roughly how long a player
    /// needs to spot one: singles are quick, fish and wings need a scan of the whole grid.
    pub const fn weight(self) -> u32 {
        match self {
            Technique::NakedSingle => 1,
            Technique::HiddenSingle => 2,
            Technique::LockedCandidatesPointing => 5,
            Technique::LockedCandidatesClaiming => 6,
            Technique::NakedPair => 8,
            Technique::HiddenPair => 10,
            Technique::NakedTriple => 14,
            Technique::HiddenTriple => 16,
            Technique::XWing => 20,
            Technique::Swordfish => 28,
            Technique::XyWing => 30,
        }
    }

    /// The band a puzzle lands in when this is the hardest technique it needs.
    pub const fn difficulty(self) -> Difficulty {
        match self {
            Technique::NakedSingle | Technique::HiddenSingle => Difficulty::Easy,
            Technique::LockedCandidatesPointing
            | Technique::LockedCandidatesClaiming
            | Technique::NakedPair
            | Technique::HiddenPair => Difficulty::Medium,
            Technique::NakedTriple
            | Technique::HiddenTriple
            | Technique::XWing
            | Technique::Swordfish
            | Technique::XyWing => Difficulty::Hard,
        }
    }

    /// True for techniques that only remove pencil marks (everything but the singles).
    pub const fn eliminates_only(self) -> bool {
        !matches!(self, Technique::NakedSingle | Technique::HiddenSingle)
    }

    /// The first step of this technique on `marks`, if one changes anything.
    pub fn find(self, marks: &Candidates) -> Option<Step> {
        match self {
            Technique::NakedSingle => singles::naked(marks),
            Technique::HiddenSingle => singles::hidden(marks),
            Technique::LockedCandidatesPointing => intersections::pointing(marks),
            Technique::LockedCandidatesClaiming => intersections::claiming(marks),
            Technique::NakedPair => subsets::naked(marks, 2),
            Technique::HiddenPair => subsets::hidden(marks, 2),
            Technique::NakedTriple => subsets::naked(marks, 3),
            Technique::HiddenTriple => subsets::hidden(marks, 3),
            Technique::XWing => fish::find(marks, 2),
            Technique::Swordfish => fish::find(marks, 3),
            Technique::XyWing => wings::xy_wing(marks),
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One deduction: what a technique found and what it changes.
///
/// Every step changes something: `placements` or `eliminations` is non-empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub technique: Technique,
    /// Cells this step fills, with their digits.
    pub placements: Vec<(Cell, Digit)>,
    /// Pencil marks this step removes.
    pub eliminations: Vec<(Cell, Digit)>,
    /// The cells that form the pattern (what a player should look at), in reading order.
    pub cells: Vec<Cell>,
    /// The digits the pattern is about, ascending.
    pub digits: Vec<Digit>,
    /// The rows, columns and boxes the pattern lives in, for highlighting.
    pub units: Vec<Unit>,
    /// One sentence for a player, rows and columns 1-based.
    pub explanation: String,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explanation)
    }
}

/// Work units one logic step is charged: a scan of every technique up to the one that applies,
/// tens of microseconds at most for these techniques (`examples/logic_work.rs` measures it).
pub const STEP_WORK: u64 = 20;

/// The easiest step that applies to `marks`, or `None` when no technique here makes progress
/// (the grid is solved, contradictory, or needs something harder than an XY-Wing).
pub fn next_step(marks: &Candidates) -> Option<Step> {
    Technique::ALL.into_iter().find_map(|t| t.find(marks))
}

/// The pencil marks of `board`. With `with_techniques`, the elimination techniques (locked
/// candidates up to XY-Wing) are applied until none changes anything, but no digit is placed:
/// the result is what a careful player's marks look like before they fill the next cell.
pub fn candidates(
    board: &Board,
    with_techniques: bool,
    budget: &Budget,
) -> Result<Candidates, Exhausted> {
    let mut marks = Candidates::new(board);
    if with_techniques {
        // Each step removes at least one of at most 729 marks, so this ends.
        loop {
            budget.charge(STEP_WORK)?;
            let Some(step) = Technique::ALL
                .into_iter()
                .filter(|t| t.eliminates_only())
                .find_map(|t| t.find(&marks))
            else {
                break;
            };
            marks.apply(&step);
        }
    }
    Ok(marks)
}

#[cfg(test)]
mod tests;
