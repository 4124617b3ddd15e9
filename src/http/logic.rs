//! The player-facing endpoints built on the logical solver: `POST /grade`, `POST /hint` and
//! `POST /candidates`. Like `/solve`, each parses on the async side and does its CPU work on
//! the solver pool, under the search budget.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};

use super::problem::Problem;
use super::solve::{puzzle_of, within_budget};
use super::wire::{ApiJson, BoardRequest, BoardText, CellJson, ConflictJson};
use super::AppState;
use crate::engine::{self, Digit, Grade, Hint, Pos, Step, Unit};

/// A cell with a digit: a placement, an elimination, or a revealed cell.
#[derive(Debug, Serialize)]
pub struct CellDigitJson {
    pub row: usize,
    pub col: usize,
    pub digit: u8,
}

impl From<&(Pos, Digit)> for CellDigitJson {
    fn from(&(pos, digit): &(Pos, Digit)) -> Self {
        CellDigitJson {
            row: pos.row(),
            col: pos.col(),
            digit: digit.get(),
        }
    }
}

fn cell(pos: Pos) -> CellJson {
    CellJson {
        row: pos.row(),
        col: pos.col(),
    }
}

/// A row, column or box.
#[derive(Debug, Serialize)]
pub struct UnitJson {
    pub unit: &'static str,
    pub index: usize,
}

impl From<&Unit> for UnitJson {
    fn from(unit: &Unit) -> Self {
        UnitJson {
            unit: unit.kind.name(),
            index: unit.index,
        }
    }
}

/// One logical step, everything a page needs to highlight and explain it.
#[derive(Debug, Serialize)]
pub struct StepJson {
    pub technique: &'static str,
    pub explanation: String,
    pub placements: Vec<CellDigitJson>,
    pub eliminations: Vec<CellDigitJson>,
    pub cells: Vec<CellJson>,
    pub digits: Vec<u8>,
    pub units: Vec<UnitJson>,
}

impl From<&Step> for StepJson {
    fn from(step: &Step) -> Self {
        StepJson {
            technique: step.technique.name(),
            explanation: step.explanation.clone(),
            placements: step.placements.iter().map(CellDigitJson::from).collect(),
            eliminations: step.eliminations.iter().map(CellDigitJson::from).collect(),
            cells: step.cells.iter().copied().map(cell).collect(),
            digits: step.digits.iter().map(|d| d.get()).collect(),
            units: step.units.iter().map(UnitJson::from).collect(),
        }
    }
}

/// A grade: the difficulty and why.
#[derive(Debug, Serialize)]
pub struct GradeJson {
    pub difficulty: &'static str,
    /// The Sudoku Explainer rating, one decimal (e.g. 7.2).
    pub rating: f64,
    /// The hardest technique used, if any.
    pub hardest: Option<&'static str>,
    /// Steps applied, by technique.
    pub counts: BTreeMap<&'static str, u32>,
    pub score: u32,
    pub needs_guessing: bool,
}

impl From<&Grade> for GradeJson {
    fn from(grade: &Grade) -> Self {
        GradeJson {
            difficulty: grade.difficulty.name(),
            rating: grade.rating.value(),
            hardest: grade.hardest.map(|t| t.name()),
            counts: grade.counts.iter().map(|(t, &n)| (t.name(), n)).collect(),
            score: grade.score,
            needs_guessing: grade.needs_guessing,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct GradeResponse {
    #[serde(flatten)]
    pub grade: GradeJson,
    /// False when the puzzle has more than one solution (it then grades as expert).
    pub unique: bool,
}

pub async fn grade(
    State(app): State<AppState>,
    ApiJson(request): ApiJson<BoardRequest>,
) -> Result<Json<GradeResponse>, Problem> {
    if request.cages.is_some() {
        return Err(Problem::InvalidRequest {
            detail: "grading covers classic 9x9 puzzles; cages are accepted by /solve and \
                     /validate"
                .to_string(),
        });
    }
    let puzzle = puzzle_of(&request.board)?;
    let timed = app
        .pool
        .run(move |solver| {
            let counted = solver.count_solutions(&puzzle, 2);
            let grade = matches!(&counted, Ok(c) if c.count > 0).then(|| engine::grade(&puzzle));
            (counted, grade)
        })
        .await?;
    let (counted, grade) = timed.value;
    let counted = within_budget(counted, &app.pool)?;
    let grade = grade.ok_or(Problem::NoSolution)?;
    Ok(Json(GradeResponse {
        grade: GradeJson::from(&grade),
        unique: counted.is_unique(),
    }))
}

#[derive(Debug, Deserialize)]
pub struct HintRequest {
    /// The player's board: givens and entries.
    pub board: BoardText,
    /// The puzzle as it was handed out. With it a wrong entry is named exactly; without it a
    /// wrong entry usually shows only as "no solution".
    #[serde(default)]
    pub givens: Option<BoardText>,
}

#[derive(Debug, Default, Serialize)]
pub struct HintResponse {
    /// `step`, `guess` (logic is stuck: one cell revealed), `conflict`, `mistake`,
    /// `unsolvable`, `multiple_solutions`, `undecided` or `solved`.
    pub kind: &'static str,
    /// One sentence for the player.
    pub explanation: String,
    /// The deduction (kind `step`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<StepJson>,
    /// Eliminations to make first, for a player without pencil marks (kinds `step`, `guess`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub setup: Vec<StepJson>,
    /// The cell at fault (`mistake`) or revealed (`guess`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<CellJson>,
    /// The digit revealed (`guess`) or the right one (`mistake`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digit: Option<u8>,
    /// The wrong digit the player entered (`mistake`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entered: Option<u8>,
    /// The repeated digit and its cells (`conflict`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflict: Option<ConflictJson>,
}

impl From<&Hint> for HintResponse {
    fn from(hint: &Hint) -> Self {
        let mut response = HintResponse {
            kind: hint.kind(),
            explanation: hint.to_string(),
            ..HintResponse::default()
        };
        match hint {
            Hint::Conflict(conflict) => response.conflict = Some(ConflictJson::from(conflict)),
            Hint::Mistake {
                pos,
                entered,
                correct,
            } => {
                response.cell = Some(cell(*pos));
                response.entered = Some(entered.get());
                response.digit = Some(correct.get());
            }
            Hint::Step { setup, step } => {
                response.setup = setup.iter().map(StepJson::from).collect();
                response.step = Some(StepJson::from(step));
            }
            Hint::Reveal { setup, pos, digit } => {
                response.setup = setup.iter().map(StepJson::from).collect();
                response.cell = Some(cell(*pos));
                response.digit = Some(digit.get());
            }
            Hint::Unsolvable | Hint::MultipleSolutions | Hint::Undecided | Hint::Solved => {}
        }
        response
    }
}

pub async fn hint(
    State(app): State<AppState>,
    ApiJson(request): ApiJson<HintRequest>,
) -> Result<Json<HintResponse>, Problem> {
    let board = request.board.parse().map_err(Problem::InvalidBoard)?;
    let givens = match &request.givens {
        Some(givens) => givens.parse().map_err(Problem::InvalidBoard)?,
        None => board,
    };
    let timed = app
        .pool
        .run(move |solver| engine::hint_with_givens(&givens, &board, solver))
        .await?;
    Ok(Json(HintResponse::from(&timed.value)))
}

#[derive(Debug, Deserialize)]
pub struct CandidatesRequest {
    pub board: BoardText,
    /// Also apply the elimination techniques (locked candidates, subsets, fish, wings) to a
    /// fixpoint, as a strong player's pencil marks would show. Default: basic eliminations.
    #[serde(default)]
    pub techniques: bool,
}

#[derive(Debug, Serialize)]
pub struct CandidatesResponse {
    /// 9 rows of 9 cells, each the digits still possible there (empty for a filled cell).
    pub candidates: Vec<Vec<Vec<u8>>>,
    pub techniques: bool,
}

pub async fn candidates(
    State(app): State<AppState>,
    ApiJson(request): ApiJson<CandidatesRequest>,
) -> Result<Json<CandidatesResponse>, Problem> {
    let puzzle = puzzle_of(&request.board)?;
    let techniques = request.techniques;
    let timed = app
        .pool
        .run(move |_| {
            let marks = engine::candidates(puzzle.board(), techniques);
            (0..9)
                .map(|row| {
                    (0..9)
                        .filter_map(|col| Pos::new(row, col))
                        .map(|pos| marks.digits(pos).iter().map(|d| d.get()).collect())
                        .collect()
                })
                .collect()
        })
        .await?;
    Ok(Json(CandidatesResponse {
        candidates: timed.value,
        techniques,
    }))
}
