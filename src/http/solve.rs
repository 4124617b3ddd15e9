//! `POST /solve`: the solution, and whether it is the only one; and `POST /validate`: a
//! verdict on any well-formed board, even one that breaks the rules. Both take every size and
//! Killer cages; the engine picks the solver.

use axum::extract::State;
use axum::Json;

use super::client::Client;
use super::extract::ApiJson;
use super::problem::Problem;
use super::wire::{BoardRequest, ConflictJson, SolveResponse, ValidateResponse};
use super::AppState;
use crate::engine::{validate as check, Puzzle};

pub async fn solve(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<BoardRequest>,
) -> Result<Json<SolveResponse>, Problem> {
    let puzzle = request.puzzle()?;
    let timed = app
        .pool
        .run_inline_first(client, move |engine, budget| {
            engine.count(&puzzle, 2, budget)
        })
        .await?;
    let counted = timed.value?;
    let solution = counted.first.as_ref().ok_or(Problem::NoSolution)?;
    let micros = timed.elapsed.as_micros() as u64;
    Ok(Json(SolveResponse::new(
        &request.board,
        solution,
        &counted,
        micros,
    )))
}

pub async fn validate(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<BoardRequest>,
) -> Result<Json<ValidateResponse>, Problem> {
    let grid = request.grid()?;
    let rules = request.rules(grid.shape())?;
    let report = check(&grid, &rules);
    let solutions = match Puzzle::new(grid, rules) {
        Err(_) => 0,
        Ok(puzzle) => {
            let timed = app
                .pool
                .run_inline_first(client, move |engine, budget| {
                    engine.count(&puzzle, 2, budget)
                })
                .await?;
            timed.value?.count
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
