//! `POST /solve`: the solution, and whether it is the only one. The pieces that turn a board
//! into a puzzle and a search into an answer are shared with `/solve/batch`.

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use super::pool::SolvePool;
use super::problem::Problem;
use super::wire::{ApiJson, BoardRequest, BoardText};
use super::{variant, AppState};
use crate::engine::{conflicts, Counted, GaveUp, Puzzle, Solution};

#[derive(Debug, Serialize)]
pub struct SolveResponse {
    /// In the form the board was sent in.
    pub solution: BoardText,
    /// Always checked: `false` means the puzzle has other solutions too.
    pub unique: bool,
    pub stats: SolveStats,
}

#[derive(Debug, Serialize)]
pub struct SolveStats {
    /// Branch points the search needed.
    pub guesses: u64,
    /// Time inside the solver, in microseconds.
    pub micros: u64,
}

/// A board the solver may take, or the problem with it.
pub fn puzzle_of(board: &BoardText) -> Result<Puzzle, Problem> {
    let board = board.parse().map_err(Problem::InvalidBoard)?;
    Puzzle::new(board).map_err(|_| Problem::ConflictingGivens(conflicts(&board)))
}

/// A search that ran out of budget becomes its problem (and is counted for `/metrics`), for
/// either engine's result.
pub fn within_budget<T>(counted: Result<T, GaveUp>, pool: &SolvePool) -> Result<T, Problem> {
    counted.map_err(|gave_up| {
        pool.note_budget_exhausted();
        Problem::BudgetExhausted(gave_up)
    })
}

/// A counting search's first solution with the count, or the problem with it.
pub fn solved(
    counted: Result<Counted, GaveUp>,
    pool: &SolvePool,
) -> Result<(Solution, Counted), Problem> {
    let counted = within_budget(counted, pool)?;
    let solution = counted.first.ok_or(Problem::NoSolution)?;
    Ok((solution, counted))
}

pub async fn solve(
    State(app): State<AppState>,
    ApiJson(request): ApiJson<BoardRequest>,
) -> Result<Json<SolveResponse>, Problem> {
    if variant::is_variant(&request.board, request.cages.as_ref()) {
        return Ok(Json(
            variant::solve(&app, &request.board, request.cages).await?,
        ));
    }
    let puzzle = puzzle_of(&request.board)?;
    let timed = app.pool.count_solutions(puzzle, 2).await?;
    let (solution, counted) = solved(timed.value, &app.pool)?;
    Ok(Json(SolveResponse {
        solution: request.board.render(solution.board()),
        unique: counted.is_unique(),
        stats: SolveStats {
            guesses: counted.stats.guesses,
            micros: timed.elapsed.as_micros() as u64,
        },
    }))
}
