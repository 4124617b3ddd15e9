//! Killer Sudoku and the other sizes (4x4, 6x6, 16x16, 25x25) on `/solve` and `/validate`.
//!
//! A request goes here when it carries `cages` or its board is not 9x9 (9 rows, or one line
//! of 81 characters); everything else stays on the fast 9x9 engine. The answers have the same
//! shape as the classic ones.

use std::time::Instant;

use serde::Deserialize;

use super::problem::Problem;
use super::solve::{within_budget, SolveResponse, SolveStats};
use super::validate::ValidateResponse;
use super::wire::{BoardText, CellJson, ConflictJson};
use super::AppState;
use crate::engine::variant::{conflicts, VariantConflict};
use crate::engine::{
    Cage, Cages, Grid, Shape, VariantCounted, VariantPuzzle, VariantPuzzleError, VariantSolver,
};

/// A cage as sent: its sum and its cells as `[row, col]` pairs, 0-based.
#[derive(Debug, Clone, Deserialize)]
pub struct CageJson {
    pub sum: u32,
    pub cells: Vec<[usize; 2]>,
}

/// Line lengths of the supported non-9x9 sizes.
const VARIANT_LINE_LENGTHS: [usize; 4] = [16, 36, 256, 625];

/// True when this board and these cages need the general engine.
pub fn is_variant(board: &BoardText, cages: Option<&Vec<CageJson>>) -> bool {
    if cages.is_some() {
        return true;
    }
    match board {
        BoardText::Rows(rows) => rows.len() != 9 && Shape::from_side(rows.len()).is_some(),
        BoardText::Line(line) => VARIANT_LINE_LENGTHS.contains(&line.chars().count()),
    }
}

/// The grid of a board in either form; a line's size comes from its length.
fn grid_of(board: &BoardText) -> Result<Grid, Problem> {
    let grid = match board {
        BoardText::Rows(rows) => Grid::from_rows(rows),
        BoardText::Line(line) => {
            let chars: Vec<char> = line.chars().collect();
            let side = (1..=25)
                .find(|s| s * s == chars.len())
                .unwrap_or(chars.len());
            let rows: Vec<String> = chars
                .chunks(side.max(1))
                .map(|row| row.iter().collect())
                .collect();
            Grid::from_rows(&rows)
        }
    };
    grid.map_err(|err| Problem::InvalidVariantBoard(err.to_string()))
}

fn cages_of(shape: Shape, cages: Option<Vec<CageJson>>) -> Result<Cages, Problem> {
    let cages = cages
        .unwrap_or_default()
        .into_iter()
        .map(|c| Cage {
            sum: c.sum,
            cells: c.cells.into_iter().map(|[r, col]| (r, col)).collect(),
        })
        .collect();
    Cages::new(shape, cages).map_err(|err| Problem::InvalidCages(err.to_string()))
}

fn conflict_json(conflict: &VariantConflict) -> ConflictJson {
    ConflictJson {
        unit: conflict.unit.kind.name(),
        index: conflict.unit.index,
        digit: conflict.digit,
        cells: conflict
            .cells
            .iter()
            .map(|c| CellJson {
                row: c.row,
                col: c.col,
            })
            .collect(),
    }
}

fn puzzle_of(grid: &Grid, cages: Cages) -> Result<VariantPuzzle, Problem> {
    VariantPuzzle::killer(grid.clone(), cages).map_err(|err| match err {
        VariantPuzzleError::Conflict(_) => {
            let found = conflicts(grid);
            let detail = found
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ");
            Problem::VariantConflicts(found.iter().map(conflict_json).collect(), detail)
        }
        other => Problem::InvalidCages(other.to_string()),
    })
}

/// Counts solutions up to 2 on the solver pool, under the budget.
async fn count(app: &AppState, puzzle: VariantPuzzle) -> Result<(VariantCounted, u64), Problem> {
    let timed = app
        .pool
        .run_with_budget(move |budget| {
            let started = Instant::now();
            let counted = VariantSolver::with_budget(budget).count_solutions(&puzzle, 2);
            (counted, started.elapsed().as_micros() as u64)
        })
        .await?;
    let (counted, micros) = timed.value;
    Ok((within_budget(counted, &app.pool)?, micros))
}

pub async fn solve(
    app: &AppState,
    board: &BoardText,
    cages: Option<Vec<CageJson>>,
) -> Result<SolveResponse, Problem> {
    let grid = grid_of(board)?;
    let puzzle = puzzle_of(&grid, cages_of(grid.shape(), cages)?)?;
    let (counted, micros) = count(app, puzzle).await?;
    let solution = counted.first.as_ref().ok_or(Problem::NoSolution)?;
    let rows = solution.to_rows();
    Ok(SolveResponse {
        solution: match board {
            BoardText::Rows(_) => BoardText::Rows(rows),
            BoardText::Line(_) => BoardText::Line(rows.concat()),
        },
        unique: counted.is_unique(),
        stats: SolveStats {
            guesses: counted.stats.guesses,
            micros,
        },
    })
}

pub async fn validate(
    app: &AppState,
    board: &BoardText,
    cages: Option<Vec<CageJson>>,
) -> Result<ValidateResponse, Problem> {
    let grid = grid_of(board)?;
    let cages = cages_of(grid.shape(), cages)?;
    let found = conflicts(&grid);
    let solutions = if found.is_empty() {
        count(app, puzzle_of(&grid, cages)?).await?.0.count
    } else {
        0
    };
    let complete = grid.is_full();
    Ok(ValidateResponse {
        valid: found.is_empty(),
        complete,
        // A full grid without repeats is solved when it also meets every cage sum, which is
        // exactly when it is its own (single) solution.
        solved: complete && found.is_empty() && solutions == 1,
        conflicts: found.iter().map(conflict_json).collect(),
        solutions,
    })
}
