//! The player-facing endpoints built on the logical solver: `POST /grade`, `POST /hint` and
//! `POST /candidates`. Like `/solve`, each parses on the async side and does its CPU work on
//! the solver pool, under the work budget.

use axum::extract::State;
use axum::Json;

use super::client::Client;
use super::extract::ApiJson;
use super::problem::Problem;
use super::wire::{
    BoardRequest, CandidatesRequest, CandidatesResponse, GradeJson, GradeResponse, HintRequest,
    HintResponse,
};
use super::AppState;
use crate::engine::{Cell, EngineError, Puzzle};

pub async fn grade(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<BoardRequest>,
) -> Result<Json<GradeResponse>, Problem> {
    let puzzle = request.puzzle()?;
    let timed = app
        .pool
        .run(client, move |engine, budget| engine.grade(&puzzle, budget))
        .await?;
    let (counted, grade) = timed.value?;
    let grade = grade.ok_or(Problem::NoSolution)?;
    Ok(Json(GradeResponse {
        grade: GradeJson::from(&grade),
        unique: counted.is_unique(),
    }))
}

/// The 422 for `cages` sent to an endpoint that does not take them yet.
fn cages_unsupported(endpoint: &str) -> Problem {
    Problem::Unsupported {
        detail: format!(
            "{endpoint} does not take cages yet; /solve and /validate take Killer cages"
        ),
    }
}

pub async fn hint(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<HintRequest>,
) -> Result<Json<HintResponse>, Problem> {
    if request.cages.is_some() {
        return Err(cages_unsupported("/hint"));
    }
    let board = request.board.parse()?;
    let givens = match &request.givens {
        Some(givens) => givens.parse()?,
        None => board.clone(),
    };
    let timed = app
        .pool
        .run(client, move |engine, budget| {
            engine.hint(&board, &givens, budget)
        })
        .await?;
    Ok(Json(HintResponse::from(&timed.value?)))
}

pub async fn candidates(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<CandidatesRequest>,
) -> Result<Json<CandidatesResponse>, Problem> {
    if request.cages.is_some() {
        return Err(cages_unsupported("/candidates"));
    }
    let board = request.board.parse()?;
    // A board whose givens clash has no honest pencil marks.
    Puzzle::classic(board.clone())?;
    let techniques = request.techniques;
    let timed = app
        .pool
        .run(client, move |engine, budget| {
            let marks = engine.candidates(&board, techniques, budget)?;
            let side = board.shape().side();
            let rows = (0..side)
                .map(|row| {
                    (0..side)
                        .filter_map(|col| Cell::new(row, col))
                        .map(|cell| marks.digits(cell).iter().map(|d| d.get()).collect())
                        .collect()
                })
                .collect();
            Ok::<_, EngineError>(rows)
        })
        .await?;
    Ok(Json(CandidatesResponse {
        candidates: timed.value?,
        techniques,
    }))
}
