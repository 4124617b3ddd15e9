//! `POST /solve`: the solution, and whether it is the only one; and `POST /validate`: a
//! verdict on any well-formed board, even one that breaks the rules, and for a game in
//! progress on the player's position and move. Both take every size and Killer cages; the
//! engine picks the solver.

use axum::extract::State;
use axum::Json;

use super::client::Client;
use super::extract::ApiJson;
use super::problem::Problem;
use super::wire::{
    Ambiguity, BoardRequest, ConflictCellJson, ConflictJson, HasRules, MistakeJson, SolveResponse,
    ValidateRequest, ValidateResponse,
};
use super::AppState;
use crate::engine::{apply_move, check_givens, puzzle_id};

pub async fn solve(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<BoardRequest>,
) -> Result<Json<SolveResponse>, Problem> {
    let puzzle = request.puzzle()?;
    let id = puzzle.id();
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
        id,
        &request.board,
        solution,
        &counted,
        micros,
    )))
}

pub async fn validate(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<ValidateRequest>,
) -> Result<Json<ValidateResponse>, Problem> {
    let mut board = request.board.parse()?;
    let givens = match &request.givens {
        Some(text) => Some(
            text.parse()
                .map_err(|e| Problem::from(e).in_field("givens"))?,
        ),
        None => None,
    };
    if let Some(givens) = &givens {
        check_givens(&board, givens)?;
    }
    if let Some(step) = request.player_move {
        let puzzle_givens = givens.as_ref().unwrap_or(&board);
        board = apply_move(&board, puzzle_givens, step.row, step.col, step.digit)?;
    }
    let rules = request.rules(board.shape())?;
    let id = puzzle_id(givens.as_ref().unwrap_or(&board), &rules);
    let moved = request.player_move.map(|_| request.board.render(&board));
    let (checked, checked_givens, checked_rules) = (board, givens, rules);
    let timed = app
        .pool
        .run_inline_first(client, move |engine, budget| {
            engine.verdict(&checked, checked_givens.as_ref(), &checked_rules, budget)
        })
        .await?;
    let verdict = timed.value?;
    let ambiguity = verdict
        .completions
        .as_ref()
        .and_then(|c| Ambiguity::of(&request.board, c));
    Ok(Json(ValidateResponse {
        id,
        valid: verdict.report.conflicts.is_empty(),
        complete: verdict.report.complete,
        solved: verdict.report.solved,
        conflicts: verdict
            .report
            .conflicts
            .iter()
            .map(ConflictJson::from)
            .collect(),
        conflict_cells: verdict
            .conflict_cells
            .iter()
            .map(ConflictCellJson::from)
            .collect(),
        solutions: verdict.completions.as_ref().map_or(0, |c| c.count),
        mistakes: verdict.mistakes.map(|found| {
            found
                .iter()
                .map(|m| MistakeJson {
                    row: m.cell.row(),
                    col: m.cell.col(),
                    entered: m.entered.get(),
                })
                .collect()
        }),
        board: moved,
        ambiguity,
    }))
}
