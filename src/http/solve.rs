//! `POST /solve`: the solution, and whether it is the only one; and `POST /validate`: a
//! verdict on any well-formed board, even one that breaks the rules, and for a game in
//! progress on the player's position and move. Both take every size and Killer cages; the
//! engine picks the solver.

use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use super::client::Client;
use super::fpuzzles::{Answer, PuzzleJson};
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
    PuzzleJson(request, sent): PuzzleJson<BoardRequest>,
) -> Result<SizedJson<Answer<SolveResponse>>, Problem> {
    let puzzle = request.puzzle()?;
    let id = puzzle.id();
    // Only the board's form is needed from here: the rest of the request (576 bytes of rule
    // fields) is dropped before the wait, so the handler's future, moved whole between the
    // layers, stays small.
    let board = { request }.board;
    let timed = app
        .pool
        .run_inline_first(client, move |engine, budget| {
            engine.count(&puzzle, 2, budget)
        })
        .await?;
    let counted = timed.value?;
    let solution = counted.first.as_ref().ok_or(Problem::NoSolution)?;
    let micros = timed.elapsed.as_micros() as u64;
    let side = solution.grid().shape().side();
    let answer = SolveResponse::new(id, &board, solution, &counted, micros);
    let digits = sent.as_ref().map(|_| solution.grid().to_numbers());
    Ok(SizedJson {
        value: Answer::new(answer, sent.as_ref(), digits.as_deref()),
        // Up to three bytes a cell in any board form, and the rest of the answer (an
        // f-puzzles puzzle given back takes more: the buffer grows for it).
        capacity: 3 * side * side + 128,
    })
}

/// A JSON answer written into a buffer of about its size. axum's `Json` starts at 128 bytes,
/// so every solve's answer (81 cells, the id and the stats: about 200 bytes) was copied into
/// a larger buffer half-way; and its header map has room from the start for the headers the
/// middleware adds (request id, CORS), so it never grows either.
pub struct SizedJson<T> {
    value: T,
    capacity: usize,
}

impl<T> SizedJson<T> {
    /// The answer itself, for a caller that is not HTTP (the MCP tools).
    pub fn into_inner(self) -> T {
        self.value
    }
}

/// Headers a JSON answer carries by the time it leaves: its content type, the request id,
/// the CORS and rate-limit headers.
const ANSWER_HEADERS: usize = 8;

impl<T: Serialize> IntoResponse for SizedJson<T> {
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(self.capacity);
        if serde_json::to_writer(&mut body, &self.value).is_err() {
            return Problem::Internal.into_response();
        }
        let mut headers = HeaderMap::with_capacity(ANSWER_HEADERS);
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        let mut response = Response::new(Body::from(body));
        *response.headers_mut() = headers;
        response
    }
}

pub async fn validate(
    State(app): State<AppState>,
    client: Client,
    PuzzleJson(request, sent): PuzzleJson<ValidateRequest>,
) -> Result<Json<Answer<ValidateResponse>>, Problem> {
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
    let moved_digits = request.player_move.map(|_| board.to_numbers());
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
    let answer = ValidateResponse {
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
    };
    Ok(Json(Answer::new(
        answer,
        sent.as_ref(),
        moved_digits.as_deref(),
    )))
}
