//! The JSON shapes of a puzzle answer that more than the HTTP service writes: a generated
//! puzzle (`/v1/generate`, a line of `/v1/generate/batch`, a line of a bank file from
//! `sudoku-service generate`), its grade and steps, and the board forms. They sit below both
//! front ends so that the CLI writes the very lines the endpoint streams without depending on
//! the HTTP layer; [`crate::http::wire`] re-exports them beside the request shapes.
//!
//! Boards come in two forms (row strings, or one line) and answers go back in the form the
//! client used. Positions are 0-based.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::engine::{Cell, Digit, Grade, Grid, ParseError, Rules, Step, Unit};

/// A board as the client sent it, before parsing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardText {
    /// `["9.7.....6", ...]`
    Rows(Vec<String>),
    /// `"9.7.....6..."`
    Line(String),
    /// `[[9, 0, 7, ...], ...]`: the form front ends keep a grid in; 0 or null is empty.
    Numbers(Vec<Vec<Option<i64>>>),
}

impl BoardText {
    /// The grid (any supported size; the row count or the line length picks it).
    pub fn parse(&self) -> Result<Grid, ParseError> {
        match self {
            BoardText::Rows(rows) => Grid::from_rows(rows),
            BoardText::Line(line) => Grid::from_line(line),
            BoardText::Numbers(rows) => Grid::from_numbers(rows),
        }
    }

    /// All cells on one line, whatever the form (for the text batch format).
    pub fn to_line(&self) -> String {
        match self {
            BoardText::Rows(rows) => rows.concat(),
            BoardText::Line(line) => line.clone(),
            BoardText::Numbers(rows) => rows
                .iter()
                .flatten()
                .map(
                    |&d| match d.and_then(|d| u8::try_from(d).ok()).and_then(Digit::new) {
                        Some(digit) => digit.to_char(),
                        None => '.',
                    },
                )
                .collect(),
        }
    }

    /// Writes `grid` back in the same form as this one (0 for an empty cell in numbers).
    pub fn render(&self, grid: &Grid) -> BoardText {
        match self {
            BoardText::Rows(_) => BoardText::Rows(grid.to_rows()),
            BoardText::Line(_) => BoardText::Line(grid.to_line()),
            BoardText::Numbers(_) => BoardText::Numbers(
                grid.to_numbers()
                    .into_iter()
                    .map(|row| row.into_iter().map(|d| Some(i64::from(d))).collect())
                    .collect(),
            ),
        }
    }
}

impl Serialize for BoardText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            BoardText::Rows(rows) => rows.serialize(serializer),
            BoardText::Line(line) => line.serialize(serializer),
            BoardText::Numbers(rows) => rows.serialize(serializer),
        }
    }
}

/// One row of a board as sent: a string, or an array of numbers (null for empty).
enum RowInput {
    Text(String),
    Numbers(Vec<Option<i64>>),
}

impl<'de> Deserialize<'de> for RowInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RowVisitor;

        impl<'de> Visitor<'de> for RowVisitor {
            type Value = RowInput;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a row as a string, or as an array of numbers (0 or null for empty)")
            }

            fn visit_str<E: de::Error>(self, row: &str) -> Result<RowInput, E> {
                Ok(RowInput::Text(row.to_string()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RowInput, A::Error> {
                let mut cells = Vec::with_capacity(9);
                while let Some(cell) = seq.next_element::<Option<NumberCell>>()? {
                    cells.push(cell.map(|c| c.0));
                }
                Ok(RowInput::Numbers(cells))
            }
        }

        deserializer.deserialize_any(RowVisitor)
    }
}

/// One cell of a board sent as numbers. JSON Schema counts `5.0` and `1e30` as integers, so
/// any whole number is taken (beyond i64 it saturates, and the grid refuses it as out of
/// range by cell); a fraction is a shape error.
struct NumberCell(i64);

impl<'de> Deserialize<'de> for NumberCell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CellVisitor;

        impl Visitor<'_> for CellVisitor {
            type Value = NumberCell;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number (0 or null for an empty cell)")
            }

            fn visit_i64<E: de::Error>(self, n: i64) -> Result<NumberCell, E> {
                Ok(NumberCell(n))
            }

            fn visit_u64<E: de::Error>(self, n: u64) -> Result<NumberCell, E> {
                Ok(NumberCell(i64::try_from(n).unwrap_or(i64::MAX)))
            }

            fn visit_f64<E: de::Error>(self, n: f64) -> Result<NumberCell, E> {
                if n.fract() == 0.0 {
                    // `as` saturates at the ends of i64.
                    Ok(NumberCell(n as i64))
                } else {
                    Err(E::invalid_value(de::Unexpected::Float(n), &self))
                }
            }
        }

        deserializer.deserialize_any(CellVisitor)
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
                f.write_str(
                    "an array of row strings, one string of all cells, or an array of rows \
                     of numbers",
                )
            }

            fn visit_str<E: de::Error>(self, line: &str) -> Result<BoardText, E> {
                Ok(BoardText::Line(line.to_string()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<BoardText, A::Error> {
                let mut rows = Vec::with_capacity(9);
                while let Some(row) = seq.next_element::<RowInput>()? {
                    rows.push(row);
                }
                if rows.iter().all(|r| matches!(r, RowInput::Numbers(_))) && !rows.is_empty() {
                    let numbers = rows
                        .into_iter()
                        .filter_map(|r| match r {
                            RowInput::Numbers(cells) => Some(cells),
                            RowInput::Text(_) => None,
                        })
                        .collect();
                    return Ok(BoardText::Numbers(numbers));
                }
                rows.into_iter()
                    .map(|r| match r {
                        RowInput::Text(text) => Ok(text),
                        RowInput::Numbers(_) => Err(de::Error::custom(
                            "the rows must all be strings or all be arrays of numbers",
                        )),
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(BoardText::Rows)
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
    /// The step's Sudoku Explainer rating, e.g. 2.3.
    pub rating: f64,
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
            rating: step.rating.value(),
            explanation: step.explanation.clone(),
            placements: step.placements.iter().map(CellDigitJson::from).collect(),
            eliminations: step.eliminations.iter().map(CellDigitJson::from).collect(),
            cells: step.cells.iter().copied().map(CellJson::from).collect(),
            digits: step.digits.iter().map(|d| d.get()).collect(),
            units: step.units.iter().map(UnitJson::from).collect(),
        }
    }
}

/// A grade: the difficulty and why. A solve that stopped before the end has no rating: it
/// says what is known instead (`rating_at_least`, and why it stopped), so that a site sorting
/// by `rating` never files an unfinished grade under a number.
#[derive(Debug, Serialize)]
pub struct GradeJson {
    /// The level, when it is known (null when the solve stopped below the extreme level for
    /// lack of work or because the puzzle has several solutions).
    pub difficulty: Option<&'static str>,
    /// The Sudoku Explainer rating: the hardest step's, one decimal (e.g. 7.2); null when the
    /// techniques did not finish the puzzle.
    pub rating: Option<f64>,
    /// When `rating` is null: the rating is at least this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_at_least: Option<f64>,
    /// When `rating` is null: why the solve stopped (`no_technique`, `not_unique`, `budget`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<&'static str>,
    /// The hardest technique used, if any.
    pub hardest: Option<&'static str>,
    /// Steps applied, by technique.
    pub counts: BTreeMap<&'static str, u32>,
    pub score: u32,
    pub needs_guessing: bool,
}

impl From<&Grade> for GradeJson {
    fn from(grade: &Grade) -> Self {
        let stopped = grade.stopped();
        GradeJson {
            difficulty: grade.difficulty().map(|d| d.name()),
            rating: grade.rating().map(|r| r.value()),
            rating_at_least: stopped.map(|_| grade.lower_bound().value()),
            stopped: stopped.map(|why| why.name()),
            hardest: grade.hardest.map(|t| t.name()),
            counts: grade.counts.iter().map(|(t, &n)| (t.name(), n)).collect(),
            score: grade.score,
            needs_guessing: grade.needs_guessing(),
        }
    }
}

/// One line of `/v1/generate/batch`.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum GenerateBatchLine<E> {
    /// A puzzle, as `/generate` answers it, and where to continue after it.
    Puzzle {
        #[serde(flatten)]
        puzzle: Box<GenerateResponse>,
        cursor: String,
    },
    /// The batch stopped early (the time limit, the pool full): why, and where to continue.
    Stopped { error: E, cursor: String },
    /// The last line of a batch that answered all its puzzles.
    Done {
        done: bool,
        /// Puzzles answered by this response.
        puzzles: u64,
        /// Seeds skipped: no puzzle within the generation budget, outside `clues`, or (with
        /// `distinct`) the same puzzle as an earlier line in disguise.
        skipped: u64,
    },
}

/// The answer of `/generate`.
#[derive(Debug, Serialize)]
pub struct GenerateResponse {
    /// The puzzle's id (the same for the same puzzle everywhere).
    pub id: String,
    pub variant: &'static str,
    /// The puzzle's givens, named as every request names its board.
    pub board: BoardText,
    pub solution: BoardText,
    /// The puzzle's canonical form (as `/v1/canonical` gives it), in the answer's board
    /// form; absent for Killers, whose cages name digits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical: Option<BoardText>,
    /// A Jigsaw's canonical form's regions (the form moves them with the grid), as `regions`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_regions: Option<BoardText>,
    /// The canonical form's id: the same for the puzzle and every disguise of it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_id: Option<String>,
    /// The level (absent for a variant generated without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<&'static str>,
    pub seed: SeedJson,
    pub symmetry: &'static str,
    /// How many cells are given (`givens` is the givens board everywhere else).
    pub clues: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grade: Option<GradeJson>,
    /// The puzzle's rules, in the form `/solve` and the other endpoints take them.
    #[serde(flatten)]
    pub rules: RulesJson,
}

/// A rule set in the request fields' form (classic rules: no fields at all).
#[derive(Debug, Default, Serialize)]
pub struct RulesJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cages: Option<Vec<CageOut>>,
    /// Region labels `1`-`9`, numbered in reading order of each region's first cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub regions: Option<BoardText>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub diagonals: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub windows: bool,
}

/// A cage in an answer: its sum and cells, in the form requests take them.
#[derive(Debug, Serialize)]
pub struct CageOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sum: Option<u32>,
    pub cells: Vec<CellJson>,
}

impl RulesJson {
    /// `rules` as fields; regions as rows of labels, or one line when `as_rows` is false.
    pub fn new(rules: &Rules, as_rows: bool) -> RulesJson {
        let cages = rules.cages().cages();
        RulesJson {
            cages: (!cages.is_empty()).then(|| {
                cages
                    .iter()
                    .map(|cage| CageOut {
                        sum: cage.sum(),
                        cells: cage.cells().iter().copied().map(CellJson::from).collect(),
                    })
                    .collect()
            }),
            regions: rules.regions().map(|regions| {
                let rows = regions.to_rows();
                if as_rows {
                    BoardText::Rows(rows)
                } else {
                    BoardText::Line(rows.concat())
                }
            }),
            diagonals: rules.diagonals(),
            windows: rules.windows(),
        }
    }
}

/// Seeds above this lose precision in JavaScript numbers: sent as numbers they are refused
/// (the client may already have rounded them), and answered as strings.
pub const MAX_SAFE_SEED: u64 = (1 << 53) - 1;

/// A seed in an answer: a number while JavaScript can hold it exactly, else its digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeedJson(pub u64);

impl Serialize for SeedJson {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0 <= MAX_SAFE_SEED {
            serializer.serialize_u64(self.0)
        } else {
            serializer.collect_str(&self.0)
        }
    }
}

/// Appends `item` as one JSON line to `out`: an NDJSON stream's line, or a bank file's.
pub fn write_json_line<T: Serialize>(out: &mut Vec<u8>, item: &T) {
    if serde_json::to_writer(&mut *out, item).is_ok() {
        out.push(b'\n');
    }
}
