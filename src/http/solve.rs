//! `POST /solve`: the solution, and whether it is the only one.

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use super::problem::Problem;
use super::wire::{ApiJson, BoardRequest, BoardText};
use super::AppState;
use crate::engine::{conflicts, Puzzle};

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

pub async fn solve(
    State(app): State<AppState>,
    ApiJson(request): ApiJson<BoardRequest>,
) -> Result<Json<SolveResponse>, Problem> {
    let board = request.board.parse().map_err(Problem::InvalidBoard)?;
    let puzzle = Puzzle::new(board).map_err(|_| Problem::ConflictingGivens(conflicts(&board)))?;
    let timed = app
        .pool
        .run(move |solver| solver.count_solutions(&puzzle, 2))
        .await?;
    let counted = timed.value.map_err(|gave_up| {
        app.pool.note_budget_exhausted();
        Problem::BudgetExhausted(gave_up)
    })?;
    let solution = counted.first.ok_or(Problem::NoSolution)?;
    tracing::debug!(
        guesses = counted.stats.guesses,
        unique = counted.is_unique(),
        "solved"
    );
    Ok(Json(SolveResponse {
        solution: request.board.render(solution.board()),
        unique: counted.is_unique(),
        stats: SolveStats {
            guesses: counted.stats.guesses,
            micros: timed.elapsed.as_micros() as u64,
        },
    }))
}
