//! `POST /validate`: a verdict on any well-formed board, even one that breaks the rules.

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use super::problem::Problem;
use super::solve::within_budget;
use super::wire::{ApiJson, BoardRequest, ConflictJson};
use super::{variant, AppState};
use crate::engine::{validate as check, Puzzle};

#[derive(Debug, Serialize)]
pub struct ValidateResponse {
    /// No digit repeats in any row, column or box.
    pub valid: bool,
    /// No empty cell.
    pub complete: bool,
    /// Complete and valid.
    pub solved: bool,
    pub conflicts: Vec<ConflictJson>,
    /// Completions of the board, counted up to 2 (2 means "more than one"); 0 when the board
    /// has conflicts or can no longer be finished.
    pub solutions: u32,
}

pub async fn validate(
    State(app): State<AppState>,
    ApiJson(request): ApiJson<BoardRequest>,
) -> Result<Json<ValidateResponse>, Problem> {
    if variant::is_variant(&request.board, request.cages.as_ref()) {
        return Ok(Json(
            variant::validate(&app, &request.board, request.cages).await?,
        ));
    }
    let board = request.board.parse().map_err(Problem::InvalidBoard)?;
    let report = check(&board);
    let solutions = match Puzzle::new(board) {
        Err(_) => 0,
        Ok(puzzle) => {
            let timed = app.pool.count_solutions(puzzle, 2).await?;
            within_budget(timed.value, &app.pool)?.count
        }
    };
    Ok(Json(ValidateResponse {
        valid: report.conflicts.is_empty(),
        complete: report.complete,
        solved: report.solved,
        conflicts: report.conflicts.iter().map(ConflictJson::from).collect(),
        solutions,
    }))
}
