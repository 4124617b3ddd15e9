//! The JSON shapes on the wire: every request and answer body (DTO), and their conversions
//! from and to the engine's types. The bottom of the HTTP layer: it imports only the engine.
//!
//! Boards come in two forms (row strings, or one line) and answers go back in the form the
//! client used. Positions are 0-based; sentences for people count from 1.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::engine::{
    Cage, CageError, Cell, Conflict, Counted, Digit, Grade, Grid, Hint, ParseError, Puzzle,
    PuzzleError, Rules, Shape, Solution, Step, Unit,
};

/// The body of `/solve`, `/validate` and `/grade`: a board and, for Killer puzzles, cages.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    pub board: BoardText,
    /// Killer Sudoku cages.
    #[serde(default)]
    pub cages: Option<Vec<CageJson>>,
}

impl BoardRequest {
    /// The grid of the board.
    pub fn grid(&self) -> Result<Grid, ParseError> {
        self.board.parse()
    }

    /// The rules for a grid of `shape`: its units, and the cages if any.
    pub fn rules(&self, shape: Shape) -> Result<Rules, CageError> {
        Rules::for_cages(shape, self.engine_cages())
    }

    /// The puzzle: the grid under its rules (givens must not clash).
    pub fn puzzle(&self) -> Result<Puzzle, PuzzleError> {
        let grid = self.grid()?;
        let rules = self.rules(grid.shape())?;
        Puzzle::new(grid, rules)
    }

    /// The cages as the engine takes them (none when absent).
    pub fn engine_cages(&self) -> Vec<Cage> {
        self.cages
            .iter()
            .flatten()
            .map(|c| Cage {
                sum: c.sum,
                cells: c.cells.iter().map(|&[r, col]| (r, col)).collect(),
            })
            .collect()
    }
}

/// A cage as sent: its sum and its cells as `[row, col]` pairs, 0-based.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CageJson {
    pub sum: u32,
    pub cells: Vec<[usize; 2]>,
}

/// A board as the client sent it, before parsing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardText {
    /// `["9.7.....6", ...]`
    Rows(Vec<String>),
    /// `"9.7.....6..."`
    Line(String),
}

impl BoardText {
    /// The grid (any supported size; the row count or the line length picks it).
    pub fn parse(&self) -> Result<Grid, ParseError> {
        match self {
            BoardText::Rows(rows) => Grid::from_rows(rows),
            BoardText::Line(line) => Grid::from_line(line),
        }
    }

    /// Writes `grid` back in the same form as this one.
    pub fn render(&self, grid: &Grid) -> BoardText {
        match self {
            BoardText::Rows(_) => BoardText::Rows(grid.to_rows()),
            BoardText::Line(_) => BoardText::Line(grid.to_line()),
        }
    }
}

impl Serialize for BoardText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            BoardText::Rows(rows) => rows.serialize(serializer),
            BoardText::Line(line) => line.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for BoardText {
    /// Hand-written rather than `#[serde(untagged)]`, whose error ("did not match any variant")
    /// would not tell the client what a board looks like.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BoardVisitor;

        impl<'de> Visitor<'de> for BoardVisitor {
            type Value = BoardText;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of row strings or one string of all cells")
            }

            fn visit_str<E: de::Error>(self, line: &str) -> Result<BoardText, E> {
                Ok(BoardText::Line(line.to_string()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<BoardText, A::Error> {
                let mut rows = Vec::with_capacity(9);
                while let Some(row) = seq.next_element::<String>()? {
                    rows.push(row);
                }
                Ok(BoardText::Rows(rows))
            }
        }

        deserializer.deserialize_any(BoardVisitor)
    }
}

/// A cell position in JSON, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CellJson {
    pub row: usize,
    pub col: usize,
}

impl From<Cell> for CellJson {
    fn from(cell: Cell) -> Self {
        CellJson {
            row: cell.row(),
            col: cell.col(),
        }
    }
}

/// A repeated digit in JSON: `{"unit": "row", "index": 0, "digit": 5, "cells": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConflictJson {
    pub unit: &'static str,
    pub index: usize,
    pub digit: u8,
    pub cells: Vec<CellJson>,
}

impl From<&Conflict> for ConflictJson {
    fn from(conflict: &Conflict) -> Self {
        ConflictJson {
            unit: conflict.unit.kind.name(),
            index: conflict.unit.index,
            digit: conflict.digit.get(),
            cells: conflict.cells.iter().copied().map(CellJson::from).collect(),
        }
    }
}

/// The answer of `/solve`.
#[derive(Debug, Serialize)]
pub struct SolveResponse {
    /// In the form the board was sent in.
    pub solution: BoardText,
    /// Always checked: `false` means the puzzle has other solutions too.
    pub unique: bool,
    pub stats: SolveStats,
}

/// How much searching a solve took.
#[derive(Debug, Serialize)]
pub struct SolveStats {
    /// Branch points the search needed.
    pub guesses: u64,
    /// Time inside the solver, in microseconds.
    pub micros: u64,
}

/// The answer of `/validate`.
#[derive(Debug, Serialize)]
pub struct ValidateResponse {
    /// No digit repeats in any row, column, box or cage.
    pub valid: bool,
    /// No empty cell.
    pub complete: bool,
    /// Complete, valid, and every cage adds up.
    pub solved: bool,
    pub conflicts: Vec<ConflictJson>,
    /// Completions of the board, counted up to 2 (2 means "more than one"); 0 when the board
    /// has conflicts or can no longer be finished.
    pub solutions: u32,
}

/// A cell with a digit: a placement, an elimination, or a revealed cell.
#[derive(Debug, Serialize)]
pub struct CellDigitJson {
    pub row: usize,
    pub col: usize,
    pub digit: u8,
}

impl From<&(Cell, Digit)> for CellDigitJson {
    fn from(&(cell, digit): &(Cell, Digit)) -> Self {
        CellDigitJson {
            row: cell.row(),
            col: cell.col(),
            digit: digit.get(),
        }
    }
}

/// A row, column, box or cage.
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
            cells: step.cells.iter().copied().map(CellJson::from).collect(),
            digits: step.digits.iter().map(|d| d.get()).collect(),
            units: step.units.iter().map(UnitJson::from).collect(),
        }
    }
}

/// A grade: the difficulty and why.
#[derive(Debug, Serialize)]
pub struct GradeJson {
    pub difficulty: &'static str,
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
            hardest: grade.hardest.map(|t| t.name()),
            counts: grade.counts.iter().map(|(t, &n)| (t.name(), n)).collect(),
            score: grade.score,
            needs_guessing: grade.needs_guessing,
        }
    }
}

/// The answer of `/grade`.
#[derive(Debug, Serialize)]
pub struct GradeResponse {
    #[serde(flatten)]
    pub grade: GradeJson,
    /// False when the puzzle has more than one solution (it then needs guessing).
    pub unique: bool,
}

/// The body of `/hint`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// The player's board: givens and entries.
    pub board: BoardText,
    /// The puzzle as it was handed out. With it a wrong entry is named exactly; without it a
    /// wrong entry usually shows only as "no solution".
    #[serde(default)]
    pub givens: Option<BoardText>,
    /// Not supported here yet: named so that sending it is a clear 422, not a silent no-op.
    #[serde(default)]
    pub cages: Option<serde::de::IgnoredAny>,
}

/// The answer of `/hint`.
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
                response.cell = Some(CellJson::from(*pos));
                response.entered = Some(entered.get());
                response.digit = Some(correct.get());
            }
            Hint::Step { setup, step } => {
                response.setup = setup.iter().map(StepJson::from).collect();
                response.step = Some(StepJson::from(step));
            }
            Hint::Reveal { setup, pos, digit } => {
                response.setup = setup.iter().map(StepJson::from).collect();
                response.cell = Some(CellJson::from(*pos));
                response.digit = Some(digit.get());
            }
            Hint::Unsolvable | Hint::MultipleSolutions | Hint::Undecided | Hint::Solved => {}
        }
        response
    }
}

/// The body of `/candidates`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CandidatesRequest {
    pub board: BoardText,
    /// Also apply the elimination techniques (locked candidates, subsets, fish, wings) to a
    /// fixpoint, as a strong player's pencil marks would show. Default: basic eliminations.
    #[serde(default)]
    pub techniques: bool,
    /// Not supported here yet: named so that sending it is a clear 422, not a silent no-op.
    #[serde(default)]
    pub cages: Option<serde::de::IgnoredAny>,
}

/// The answer of `/candidates`.
#[derive(Debug, Serialize)]
pub struct CandidatesResponse {
    /// One list per row, each cell the digits still possible there (empty for a filled cell).
    pub candidates: Vec<Vec<Vec<u8>>>,
    pub techniques: bool,
}

/// The body of `/generate`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// `easy`, `medium`, `hard` or `expert`.
    pub difficulty: String,
    /// Same seed, same puzzle. Omitted: a random one, returned in the answer.
    #[serde(default, deserialize_with = "integral_seed")]
    pub seed: Option<u64>,
    /// `none` (default) or `rotational` (the givens are symmetric under a half turn).
    #[serde(default)]
    pub symmetry: Option<String>,
    /// `rows` (default: 9 strings) or `line` (one 81-character string).
    #[serde(default)]
    pub format: Option<String>,
}

/// The answer of `/generate`.
#[derive(Debug, Serialize)]
pub struct GenerateResponse {
    pub puzzle: BoardText,
    pub solution: BoardText,
    pub difficulty: &'static str,
    pub seed: u64,
    pub symmetry: &'static str,
    pub givens: usize,
    pub grade: GradeJson,
}

/// A seed as JSON Schema sees integers: `42` and `42.0` are the same integer, so both are
/// accepted; fractions, negatives and values beyond u64 are not.
fn integral_seed<'de, D>(deserializer: D) -> Result<Option<u64>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::Error;
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(None);
    };
    if let Some(seed) = number.as_u64() {
        return Ok(Some(seed));
    }
    match number.as_f64() {
        Some(f) if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) => {
            Ok(Some(f as u64))
        }
        _ => Err(D::Error::custom(format!(
            "seed must be a whole number from 0 to {}, got {number}",
            u64::MAX
        ))),
    }
}

/// One puzzle's answer in a batch.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum BatchItem<E> {
    Solved { solution: BoardText, unique: bool },
    Failed { error: E },
}

impl SolveResponse {
    /// The answer for a count that found `solution`, in the form `board` was sent in.
    pub fn new(board: &BoardText, solution: &Solution, counted: &Counted, micros: u64) -> Self {
        SolveResponse {
            solution: board.render(solution.grid()),
            unique: counted.is_unique(),
            stats: SolveStats {
                guesses: counted.stats.guesses,
                micros,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_board_forms_deserialize() {
        let rows: BoardRequest = serde_json::from_str(r#"{"board": ["a", "b"]}"#).unwrap();
        assert_eq!(
            rows.board,
            BoardText::Rows(vec!["a".to_string(), "b".to_string()])
        );
        let line: BoardRequest = serde_json::from_str(r#"{"board": "abc"}"#).unwrap();
        assert_eq!(line.board, BoardText::Line("abc".to_string()));
    }

    #[test]
    fn wrong_board_type_says_what_a_board_is() {
        let err = serde_json::from_str::<BoardRequest>(r#"{"board": 5}"#).unwrap_err();
        assert!(err
            .to_string()
            .contains("expected an array of row strings or one string of all cells"));
        let err = serde_json::from_str::<BoardRequest>(r#"{"board": [1]}"#).unwrap_err();
        assert!(err.to_string().contains("expected a string"), "{err}");
    }

    #[test]
    fn answers_keep_the_form_they_were_asked_in() {
        let grid = Grid::from_line("1.....3..4.....2").unwrap();
        let rows = BoardText::Rows(vec![]).render(&grid);
        assert_eq!(
            serde_json::to_string(&rows).unwrap(),
            r#"["1...","..3.",".4..","...2"]"#
        );
        let line = BoardText::Line(String::new()).render(&grid);
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            r#""1.....3..4.....2""#
        );
    }

    #[test]
    fn cages_become_engine_cages() {
        let request: BoardRequest = serde_json::from_str(
            r#"{"board": "....", "cages": [{"sum": 3, "cells": [[0, 0], [0, 1]]}]}"#,
        )
        .unwrap();
        assert_eq!(
            request.engine_cages(),
            vec![Cage {
                sum: 3,
                cells: vec![(0, 0), (0, 1)]
            }]
        );
    }
}
