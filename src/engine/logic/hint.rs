//! Hints for a player's board: what is wrong with it, or what to do next.
//!
//! A hint must never mislead, so the checks run from "the board is broken" to "here is a
//! deduction": a clash first (visible without solving), then the solver's verdict on the
//! puzzle, then a wrong entry, and only then a logical step on a board known to be on track.

use std::fmt;

use crate::engine::budget::{Budget, Exhausted, Stop};
use crate::engine::model::board::{classic_conflicts, Board, ClassicPuzzle};
use crate::engine::model::grid::{Cell, Digit, Grid};
use crate::engine::model::validate::Conflict;
use crate::engine::solve::band::Solver;

use super::text::capitalize;
use super::{Assumptions, Candidates, Geometry, Step};

/// What to tell a player about their board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// A digit repeats in a row, column or box; point at the cells.
    Conflict(Conflict),
    /// A filled cell disagrees with the puzzle's only solution.
    Mistake {
        pos: Cell,
        entered: Digit,
        /// The solution's digit; the caller decides whether to show it.
        correct: Digit,
    },
    /// The puzzle has no solution at all.
    Unsolvable,
    /// The puzzle has more than one solution, so no deduction can be certain.
    MultipleSolutions,
    /// The work budget ran out before the solver knew whether the puzzle is sound.
    Undecided,
    /// Every cell is filled and correct.
    Solved,
    /// A logical deduction that fills a cell. `setup` holds the elimination steps (possibly
    /// none) that make it visible, in order; a player without pencil marks needs them first.
    Step { setup: Vec<Step>, step: Step },
    /// No technique here makes progress (or the techniques ran out of work first), so one
    /// cell of the solution is given away: the empty cell with the fewest candidates (after
    /// `setup`), first in reading order.
    Reveal {
        setup: Vec<Step>,
        pos: Cell,
        digit: Digit,
        /// Why no step was found: none applies, or the work budget ran out looking.
        why: RevealWhy,
    },
}

/// Why a hint gives a cell away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RevealWhy {
    /// No technique applies to the position.
    NoTechnique,
    /// The techniques ran out of work before they found a step: the solution is known, so the
    /// hint still helps rather than giving up.
    Budget,
}

impl Hint {
    /// Stable snake_case name of the variant, for wire formats.
    pub const fn kind(&self) -> &'static str {
        match self {
            Hint::Conflict(_) => "conflict",
            Hint::Mistake { .. } => "mistake",
            Hint::Unsolvable => "unsolvable",
            Hint::MultipleSolutions => "multiple_solutions",
            Hint::Undecided => "undecided",
            Hint::Solved => "solved",
            Hint::Step { .. } => "step",
            Hint::Reveal { .. } => "guess",
        }
    }
}

impl fmt::Display for Hint {
    /// One sentence for the player.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::Conflict(c) => write!(f, "{}.", capitalize(&c.to_string())),
            Hint::Mistake { pos, entered, .. } => {
                write!(f, "The {entered} in {pos} is not part of the solution.")
            }
            Hint::Unsolvable => f.write_str("This puzzle has no solution."),
            Hint::MultipleSolutions => {
                f.write_str("This puzzle has more than one solution, so no hint is certain.")
            }
            Hint::Undecided => f.write_str("This puzzle is too hard to check in time."),
            Hint::Solved => f.write_str("The puzzle is solved."),
            Hint::Step { step, .. } => f.write_str(&step.explanation),
            Hint::Reveal {
                pos,
                digit,
                why: RevealWhy::NoTechnique,
                ..
            } => write!(f, "No simple technique applies here; {pos} is {digit}."),
            Hint::Reveal {
                pos,
                digit,
                why: RevealWhy::Budget,
                ..
            } => write!(
                f,
                "The next step is too hard to find within the work limit; {pos} is {digit}."
            ),
        }
    }
}

/// A hint for `board` when only the board is known: its filled cells count as the puzzle.
/// A wrong entry then usually shows up as [`Hint::Unsolvable`]; pass the original givens to
/// [`hint_with_givens`] to have the wrong cell named instead. (Used by the tests.)
#[cfg(test)]
pub fn hint(board: &Board, solver: &mut Solver, budget: &Budget) -> Result<Hint, Exhausted> {
    hint_with_givens(board, board, solver, budget)
}

/// A hint for a player's `board` of the puzzle `givens`: conflicts in the board, then the
/// puzzle's verdict (no, several, or unknown solutions), then the first wrong entry in reading
/// order (a changed given counts), then whether it is solved, then the next deduction.
///
/// Running out of work while checking the puzzle is an answer ([`Hint::Undecided`]); a
/// deadline or a cancellation is not, and comes back as `Err`.
/// The one solution a hint may lean on, from a count to 2 (the count and the first
/// solution), or the hint that says why there is none: no solution, several, or a search
/// that ran out of work (`undecided`). `Err` for a deadline or cancellation.
pub(crate) fn the_solution<S>(
    counted: Result<(u32, Option<S>), Exhausted>,
) -> Result<Result<S, Hint>, Exhausted> {
    match counted {
        Ok((1, Some(solution))) => Ok(Ok(solution)),
        Ok((0, _)) => Ok(Err(Hint::Unsolvable)),
        Ok(_) => Ok(Err(Hint::MultipleSolutions)),
        Err(Exhausted {
            stop: Stop::Work, ..
        }) => Ok(Err(Hint::Undecided)),
        Err(other) => Err(other),
    }
}

pub fn hint_with_givens(
    givens: &Board,
    board: &Board,
    solver: &mut Solver,
    budget: &Budget,
) -> Result<Hint, Exhausted> {
    if let Some(conflict) = classic_conflicts(board).into_iter().next() {
        return Ok(Hint::Conflict(conflict));
    }
    let puzzle = match ClassicPuzzle::new(*givens) {
        Ok(puzzle) => puzzle,
        Err(conflict) => return Ok(Hint::Conflict(conflict)),
    };
    let counted = solver
        .count_solutions(&puzzle, 2, budget)
        .map(|found| (found.count, found.first));
    let truth = match the_solution(counted)? {
        Ok(solution) => solution,
        Err(hint) => return Ok(hint),
    };
    next_hint(board, &truth, Geometry::classic(), budget)
}

/// The first filled cell of `board` (reading order) that disagrees with `truth`, the
/// puzzle's one solution, as a hint.
pub(crate) fn first_mistake(board: &Grid, truth: &Grid) -> Option<Hint> {
    board.givens().find_map(|(pos, entered)| {
        let correct = truth.get(pos)?;
        (correct != entered).then_some(Hint::Mistake {
            pos,
            entered,
            correct,
        })
    })
}

/// The hint for a 9x9 `board` of a puzzle whose one solution is `truth`, under the houses
/// and cages of `geometry`: the first wrong entry, else solved, else the next deduction
/// (with the elimination steps that make it visible), else a revealed cell. The board is
/// known to be free of clashes.
pub(crate) fn next_hint(
    board: &Board,
    truth: &Board,
    geometry: &Geometry,
    budget: &Budget,
) -> Result<Hint, Exhausted> {
    if let Some(mistake) = first_mistake(&board.to_grid(), &truth.to_grid()) {
        return Ok(mistake);
    }
    if board.is_full() {
        return Ok(Hint::Solved);
    }
    // The puzzle has exactly one solution here, so uniqueness techniques are sound.
    let assume = Assumptions::unique();
    let mut marks = Candidates::with_geometry(board, geometry);
    let mut setup = Vec::new();
    let why = loop {
        match assume.next_step(&marks, budget) {
            Ok(Some(step)) if !step.placements.is_empty() => {
                return Ok(Hint::Step { setup, step });
            }
            Ok(Some(step)) => {
                marks.apply(&step);
                setup.push(step);
            }
            Ok(None) => break RevealWhy::NoTechnique,
            // The solution is known: a cell of it helps more than "too hard".
            Err(Exhausted {
                stop: Stop::Work, ..
            }) => break RevealWhy::Budget,
            Err(other) => return Err(other),
        }
    };
    // Stuck: reveal the most constrained empty cell. `board` is not full, so one exists.
    let empty = Cell::all()
        .filter(|&p| !marks.is_filled(p))
        .min_by_key(|&p| (marks.count(p), p));
    Ok(
        match empty.and_then(|pos| truth.get(pos).map(|digit| (pos, digit))) {
            Some((pos, digit)) => Hint::Reveal {
                setup,
                pos,
                digit,
                why,
            },
            None => Hint::Solved,
        },
    )
}
