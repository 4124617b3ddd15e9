//! The player-facing endpoints built on the logical solver: `POST /grade`, `POST /hint` and
//! `POST /candidates`. Like `/solve`, each parses on the async side and does its CPU work on
//! the solver pool, under the work budget.

use axum::extract::State;
use axum::Json;

use super::client::Client;
use super::fpuzzles::{Answer, PuzzleJson, Sent};
use super::problem::Problem;
use super::wire::{
    BoardRequest, BoardText, CandidatesRequest, CandidatesResponse, ConflictJson, GradeJson,
    GradeResponse, HasRules, HintRequest, HintResponse, RuleFields,
};
use super::AppState;
use crate::engine::{check_givens, conflicts, puzzle_id, Cell, EngineError, Exhausted, Grid};

pub async fn grade(
    State(app): State<AppState>,
    client: Client,
    PuzzleJson(request, sent): PuzzleJson<BoardRequest>,
) -> Result<Json<Answer<GradeResponse>>, Problem> {
    let puzzle = request.puzzle()?;
    let id = puzzle.id();
    let timed = app
        .pool
        .run(client, move |engine, budget| engine.grade(&puzzle, budget))
        .await?;
    let (counted, grade) = timed
        .value
        .map_err(|e| at_rules(e, &request, sent.as_ref()))?;
    let grade = grade.ok_or(Problem::NoSolution)?;
    let answer = GradeResponse {
        id,
        grade: GradeJson::from(&grade),
        unique: counted.is_unique(),
    };
    Ok(Json(Answer::new(answer, sent.as_ref(), None)))
}

pub async fn hint(
    State(app): State<AppState>,
    client: Client,
    PuzzleJson(request, sent): PuzzleJson<HintRequest>,
) -> Result<Json<Answer<HintResponse>>, Problem> {
    let (board, givens) = player_position(&request.board, request.givens.as_ref())?;
    let rules = request.rules(givens.shape())?;
    let id = puzzle_id(&givens, &rules);
    let timed = app
        .pool
        .run(client, move |engine, budget| {
            engine.hint(&board, &givens, &rules, budget)
        })
        .await?;
    let hint = timed
        .value
        .map_err(|e| at_rules(e, &request, sent.as_ref()))?;
    let answer = HintResponse::new(&hint, id, request.spoiler);
    Ok(Json(Answer::new(answer, sent.as_ref(), None)))
}

/// The problem for `error`, pointing at the rule the operation does not take when the rule
/// set is the reason (rather than at the board, which stands for the size), or at the first
/// rule field sent where the engine names no field of ours; when the puzzle was `sent` as
/// f-puzzles, at the place in it that field (or the board: the grid) came from.
fn at_rules(error: EngineError, request: &impl HasRules, sent: Option<&Sent>) -> Problem {
    let pointer = match error {
        EngineError::Unsupported {
            rule: Some(unit), ..
        } => RuleFields::pointer_of(unit)
            .or_else(|| request.rule_fields().first_pointer().map(String::from)),
        _ => None,
    };
    let problem = Problem::from(error);
    let problem = match pointer {
        Some(pointer) => problem.at_pointer(&pointer),
        None => problem,
    };
    match sent {
        Some(sent) => sent.point(problem),
        None => problem,
    }
}

/// A player's board and the puzzle's givens (the board itself when they were not sent),
/// checked to agree: same size, every given kept.
fn player_position(board: &BoardText, givens: Option<&BoardText>) -> Result<(Grid, Grid), Problem> {
    let board = board.parse()?;
    let givens = match givens {
        Some(text) => {
            let givens = text
                .parse()
                .map_err(|e| Problem::from(e).in_field("givens"))?;
            check_givens(&board, &givens)?;
            givens
        }
        None => board.clone(),
    };
    Ok((board, givens))
}

pub async fn candidates(
    State(app): State<AppState>,
    client: Client,
    PuzzleJson(request, sent): PuzzleJson<CandidatesRequest>,
) -> Result<Json<Answer<CandidatesResponse>>, Problem> {
    let (board, givens) = player_position(&request.board, request.givens.as_ref())?;
    let rules = request.rules(board.shape())?;
    let id = puzzle_id(&givens, &rules);
    // A board that clashes still gets the marks of its empty cells, with the clash beside
    // them; the techniques are left out there, as they would reason from a wrong digit.
    let clashes = conflicts(&board, &rules);
    let techniques = request.techniques && clashes.is_empty();
    let timed = app
        .pool
        .run(client, move |engine, budget| {
            let marks = engine.candidates(&board, &rules, techniques, budget)?;
            let side = board.shape().side();
            let rows: Vec<Vec<Vec<u8>>> = (0..side)
                .map(|row| {
                    (0..side)
                        .filter_map(|col| Cell::new(row, col))
                        .map(|cell| marks.digits(cell).iter().map(|d| d.get()).collect())
                        .collect()
                })
                .collect();
            Ok::<_, Exhausted>((rows, marks.techniques_applied()))
        })
        .await?;
    let (candidates, techniques) = timed.value?;
    let answer = CandidatesResponse {
        id,
        candidates,
        techniques,
        conflicts: clashes.iter().map(ConflictJson::from).collect(),
    };
    Ok(Json(Answer::new(answer, sent.as_ref(), None)))
}
