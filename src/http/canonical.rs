//! `POST /v1/canonical` and `POST /v1/canonical/batch`: the canonical form of a classic
//! puzzle, the one representative of every puzzle that is the same up to the grid's
//! symmetries and a relabelling of its digits, and its id. A bank that keeps one puzzle per
//! `canonical_id` holds no two puzzles that are the same puzzle in disguise.
//!
//! The batch takes what `/solve/batch` takes (a JSON array of boards, or `text/plain` with
//! one puzzle per line) and answers in the same format, one item per board in input order,
//! under the same limits (item count, body size, one place in the pool, the time limit).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::batch::{check_batch_size, input_format, json_boards, text_boards, Format, TEXT};
use super::client::Client;
use super::extract::ApiJson;
use super::problem::{Problem, ProblemBody};
use super::wire::{BoardRequest, BoardText, CanonicalItem, CanonicalResponse, RulesJson};
use super::AppState;
use crate::engine::{Budget, Engine, Puzzle};

pub async fn canonical(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<BoardRequest>,
) -> Result<Json<CanonicalResponse>, Problem> {
    let puzzle = request.puzzle()?;
    let timed = app
        .pool
        .run_inline_first(client, move |engine, budget| {
            engine
                .canonical(&puzzle, budget)
                .map(|form| (puzzle.id(), form))
        })
        .await?;
    let (id, form) = timed.value?;
    let as_rows = !matches!(request.board, BoardText::Line(_));
    Ok(Json(CanonicalResponse {
        id,
        canonical: request.board.render(form.grid()),
        canonical_regions: RulesJson::new(form.rules(), as_rows).regions,
        canonical_id: form.id(),
    }))
}

/// One board of a batch: its form, or its problem (with the puzzle's id once it was read).
fn canonical_item(
    engine: &mut Engine,
    budget: &Budget,
    board: &BoardText,
) -> CanonicalItem<ProblemBody> {
    let whole = |problem: Problem| problem.in_field("");
    let puzzle = match budget
        .check()
        .map_err(Problem::from)
        .and_then(|()| board.parse().map_err(|e| whole(e.into())))
        .and_then(|grid| Puzzle::classic(grid).map_err(|e| whole(e.into())))
    {
        Ok(puzzle) => puzzle,
        Err(problem) => {
            return CanonicalItem::Failed {
                id: None,
                error: problem.body().brief(),
            }
        }
    };
    let id = puzzle.id();
    match engine.canonical(&puzzle, budget) {
        Ok(form) => CanonicalItem::Found {
            id,
            canonical: board.render(form.grid()),
            canonical_id: form.id(),
        },
        Err(error) => CanonicalItem::Failed {
            id: Some(id),
            error: Problem::from(error).body().brief(),
        },
    }
}

pub async fn canonical_batch(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Problem> {
    let format = input_format(&headers)?;
    let boards = match format {
        Format::Text => text_boards(&body)?,
        _ => json_boards(&body)?,
    };
    check_batch_size(boards.len())?;
    let admission = app.pool.admit(client)?;
    let deadline = app.pool.answer_by(std::time::Instant::now());
    let items: Vec<CanonicalItem<ProblemBody>> = app
        .pool
        .run_batch(&admission, boards, deadline, canonical_item)
        .await?
        .value
        .into_iter()
        .map(|item| {
            item.unwrap_or_else(|| CanonicalItem::Failed {
                id: None,
                error: Problem::Timeout.body().brief(),
            })
        })
        .collect();
    Ok(match format {
        Format::Text => {
            let mut text = String::with_capacity(items.len() * 82);
            for item in &items {
                match item {
                    CanonicalItem::Found { canonical, .. } => text.push_str(&canonical.to_line()),
                    CanonicalItem::Failed { error, .. } => {
                        text.push_str("error: ");
                        text.push_str(&error.detail);
                    }
                }
                text.push('\n');
            }
            ([(header::CONTENT_TYPE, TEXT)], text).into_response()
        }
        _ => Json(items).into_response(),
    })
}
