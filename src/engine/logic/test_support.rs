//! The logic engine's calls with an unlimited budget, for the unit tests (imported by name,
//! they shadow the budgeted ones of `use super::*`).

use super::*;
use crate::engine::budget::Budget;
use crate::engine::model::board::ClassicPuzzle;
use crate::engine::solve::band::Solver;

pub(super) fn grade(puzzle: &ClassicPuzzle) -> Grade {
    super::grade(puzzle, &mut Solver::new(), &Budget::unlimited()).unwrap()
}

pub(super) fn candidates(board: &Board, with_techniques: bool) -> Candidates<'static> {
    super::candidates(
        board,
        Geometry::classic(),
        with_techniques,
        &Budget::unlimited(),
    )
    .unwrap()
}

pub(super) fn hint(board: &Board, solver: &mut Solver) -> Hint {
    super::hint(board, solver, &Budget::unlimited()).unwrap()
}

pub(super) fn hint_with_givens(givens: &Board, board: &Board, solver: &mut Solver) -> Hint {
    super::hint_with_givens(givens, board, solver, &Budget::unlimited()).unwrap()
}

/// The easiest step, uniqueness techniques allowed only when the caller vouches for one
/// solution through [`unique_step`].
pub(super) fn next_step(marks: &Candidates) -> Option<Step> {
    super::next_step(marks, &Budget::unlimited()).unwrap()
}

/// The easiest step of a puzzle known to have one solution (SE's order).
pub(super) fn unique_step(marks: &Candidates) -> Option<Step> {
    Assumptions::unique()
        .next_step(marks, &Budget::unlimited())
        .unwrap()
}

/// The one solution of a classic puzzle.
pub(super) fn solution_of(puzzle: &ClassicPuzzle) -> Board {
    Solver::new()
        .solve(puzzle, &Budget::unlimited())
        .unwrap()
        .first
        .unwrap()
}
