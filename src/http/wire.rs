//! The JSON shapes on the wire: every request and answer body (DTO), and their conversions
//! from and to the engine's types. The bottom of the HTTP layer: it imports only the engine.
//!
//! Boards come in two forms (row strings, or one line) and answers go back in the form the
//! client used. Positions are 0-based; sentences for people count from 1.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::engine::{
    Cage, Cell, Conflict, ConflictCell, Counted, Digit, Dot, DotKind, Grade, Grid, Hint, Negative,
    ParseError, Puzzle, PuzzleError, RuleSpec, Rules, RulesError, Shape, Solution, Step,
    Thermometer, Unit,
};

/// Declares a request body that takes the rule fields every puzzle endpoint shares
/// (`cages`, `regions`, `diagonals`, `windows`) after its own fields, and implements
/// [`HasRules`] for it. A macro rather than `#[serde(flatten)]`, which cannot be combined
/// with `deny_unknown_fields`: a misspelt rule field must be an error, never a silently
/// classic puzzle.
macro_rules! with_rule_fields {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$field_meta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $ty, )*
            /// Killer Sudoku cages.
            #[serde(default, deserialize_with = "objects")]
            pub cages: Option<Vec<CageJson>>,
            /// Jigsaw regions in place of the boxes: a grid of labels, one per cell.
            #[serde(default)]
            pub regions: Option<RegionLabels>,
            /// Both main diagonals are houses too (Sudoku X).
            #[serde(default)]
            pub diagonals: bool,
            /// The four 3x3 windows of a 9x9 grid are houses too (Hyper Sudoku, Windoku).
            #[serde(default)]
            pub windows: bool,
            /// No two cells a king's move apart hold the same digit (anti-king).
            #[serde(default)]
            pub anti_king: bool,
            /// No two cells a knight's move apart hold the same digit (anti-knight).
            #[serde(default)]
            pub anti_knight: bool,
            /// Orthogonal neighbours never hold digits that differ by 1.
            #[serde(default)]
            pub non_consecutive: bool,
            /// Cells that hold odd digits, 0-based.
            #[serde(default)]
            pub odd: Option<Vec<CellInput>>,
            /// Cells that hold even digits, 0-based.
            #[serde(default)]
            pub even: Option<Vec<CellInput>>,
            /// Thermometers: digits increase from the bulb (the first cell).
            #[serde(default, deserialize_with = "objects")]
            pub thermometers: Option<Vec<ThermometerJson>>,
            /// Kropki (white, black) and XV dots between orthogonal neighbours.
            #[serde(default, deserialize_with = "objects")]
            pub dots: Option<Vec<DotJson>>,
            /// Kinds of dot that are all given: no other pair of neighbours is in their
            /// relation.
            #[serde(default)]
            pub negative: Option<Vec<NegativeJson>>,
        }

        impl HasRules for $name {
            fn rule_fields(&self) -> RuleFields<'_> {
                RuleFields {
                    cages: self.cages.as_deref(),
                    regions: self.regions.as_ref(),
                    diagonals: self.diagonals,
                    windows: self.windows,
                    anti_king: self.anti_king,
                    anti_knight: self.anti_knight,
                    non_consecutive: self.non_consecutive,
                    odd: self.odd.as_deref(),
                    even: self.even.as_deref(),
                    thermometers: self.thermometers.as_deref(),
                    dots: self.dots.as_deref(),
                    negative: self.negative.as_deref(),
                }
            }
        }
    };
}

/// The rule fields of a request, as sent.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleFields<'a> {
    pub cages: Option<&'a [CageJson]>,
    pub regions: Option<&'a RegionLabels>,
    pub diagonals: bool,
    pub windows: bool,
    pub anti_king: bool,
    pub anti_knight: bool,
    pub non_consecutive: bool,
    pub odd: Option<&'a [CellInput]>,
    pub even: Option<&'a [CellInput]>,
    pub thermometers: Option<&'a [ThermometerJson]>,
    pub dots: Option<&'a [DotJson]>,
    pub negative: Option<&'a [NegativeJson]>,
}

/// A request body with the shared rule fields.
pub trait HasRules {
    fn rule_fields(&self) -> RuleFields<'_>;

    /// The rules for a grid of `shape`, checked (regions, windows, cages).
    fn rules(&self, shape: Shape) -> Result<Rules, RulesError> {
        self.rule_fields().rules(shape)
    }
}

impl RuleFields<'_> {
    /// The rules these fields describe for a grid of `shape`.
    pub fn rules(&self, shape: Shape) -> Result<Rules, RulesError> {
        Rules::new(
            shape,
            RuleSpec {
                regions: self.regions.map(|labels| labels.cells(shape.side())),
                diagonals: self.diagonals,
                windows: self.windows,
                anti_king: self.anti_king,
                anti_knight: self.anti_knight,
                non_consecutive: self.non_consecutive,
                odd: pairs_of(self.odd),
                even: pairs_of(self.even),
                thermometers: self
                    .thermometers
                    .into_iter()
                    .flatten()
                    .map(|t| Thermometer {
                        cells: pairs_of(Some(&t.cells)),
                        slow: t.slow,
                    })
                    .collect(),
                dots: self
                    .dots
                    .into_iter()
                    .flatten()
                    .map(|d| Dot {
                        cells: d.cells.map(|c| (c.row, c.col)),
                        kind: match d.kind {
                            DotKindJson::White => DotKind::White,
                            DotKindJson::Black => DotKind::Black,
                            DotKindJson::X => DotKind::X,
                            DotKindJson::V => DotKind::V,
                        },
                        value: d.value,
                    })
                    .collect(),
                negative: self
                    .negative
                    .into_iter()
                    .flatten()
                    .map(|n| match n {
                        NegativeJson::White => Negative::White,
                        NegativeJson::Black => Negative::Black,
                        NegativeJson::Xv => Negative::Xv,
                    })
                    .collect(),
                cages: engine_cages(self.cages),
            },
        )
    }

    /// The JSON pointer of the first rule field sent (`/cages`, `/regions`, `/diagonals`,
    /// `/windows`), for a problem about the rule set as a whole; `None` for classic rules.
    pub fn first_pointer(&self) -> Option<&'static str> {
        [
            (self.cages.is_some_and(|c| !c.is_empty()), "/cages"),
            (self.regions.is_some(), "/regions"),
            (self.diagonals, "/diagonals"),
            (self.windows, "/windows"),
            (self.anti_king, "/anti_king"),
            (self.anti_knight, "/anti_knight"),
            (self.non_consecutive, "/non_consecutive"),
            (self.odd.is_some_and(|c| !c.is_empty()), "/odd"),
            (self.even.is_some_and(|c| !c.is_empty()), "/even"),
            (
                self.thermometers.is_some_and(|t| !t.is_empty()),
                "/thermometers",
            ),
            (self.dots.is_some_and(|d| !d.is_empty()), "/dots"),
            (self.negative.is_some_and(|n| !n.is_empty()), "/negative"),
        ]
        .into_iter()
        .find_map(|(sent, pointer)| sent.then_some(pointer))
    }
}

/// Jigsaw region labels as sent: row strings (a label per character), one line of all cells,
/// or rows of labels (numbers or strings, null for none). Labels are compared as they are
/// written, never as numbers: `1e300` and `2e300` are two regions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegionLabels {
    /// `["112223333", ...]`
    Rows(Vec<String>),
    /// `"112223333..."`
    Line(String),
    /// `[[1, 1, 2, ...], ...]` or `[["a", "a", "b", ...], ...]`
    Labels(Vec<Vec<Option<String>>>),
}

impl RegionLabels {
    /// The label of each cell, rows top first: each character of a row (or of the line, cut
    /// into rows of `side`), or each label (null: no label).
    pub fn cells(&self, side: usize) -> Vec<Vec<Option<String>>> {
        let of_chars = |row: &[char]| row.iter().map(|c| Some(c.to_string())).collect();
        match self {
            RegionLabels::Rows(rows) => rows
                .iter()
                .map(|row| of_chars(&row.chars().collect::<Vec<_>>()))
                .collect(),
            RegionLabels::Line(line) => {
                let chars: Vec<char> = line.chars().collect();
                chars.chunks(side.max(1)).map(of_chars).collect()
            }
            RegionLabels::Labels(rows) => rows.clone(),
        }
    }
}

impl<'de> Deserialize<'de> for RegionLabels {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        const EXPECTED: &str = "regions as an array of row strings (a label per character), one \
                                string of all cells, or an array of rows of labels (numbers or \
                                strings)";
        let refuse = || de::Error::custom(format!("expected {EXPECTED}"));
        // A label as written: a number keeps its JSON spelling's value exactly (f64's
        // shortest round-trip form), so different numbers stay different labels.
        let label = |value: serde_json::Value| match value {
            serde_json::Value::Null => Ok(None),
            serde_json::Value::String(text) => Ok(Some(text)),
            serde_json::Value::Number(number) => Ok(Some(number.to_string())),
            _ => Err(refuse()),
        };
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::String(line) => Ok(RegionLabels::Line(line)),
            serde_json::Value::Array(rows) if rows.iter().all(|r| r.is_string()) => {
                Ok(RegionLabels::Rows(
                    rows.into_iter()
                        .filter_map(|r| r.as_str().map(str::to_string))
                        .collect(),
                ))
            }
            serde_json::Value::Array(rows) => rows
                .into_iter()
                .map(|row| match row {
                    serde_json::Value::Array(cells) => cells.into_iter().map(label).collect(),
                    _ => Err(refuse()),
                })
                .collect::<Result<_, _>>()
                .map(RegionLabels::Labels),
            _ => Err(refuse()),
        }
    }
}

with_rule_fields! {
    /// The body of `/solve` and `/grade`: a board and its rules.
    #[derive(Debug, Clone, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct BoardRequest {
        pub board: BoardText,
    }
}

impl BoardRequest {
    /// The grid of the board.
    pub fn grid(&self) -> Result<Grid, ParseError> {
        self.board.parse()
    }

    /// The puzzle: the grid under its rules (givens must not clash).
    pub fn puzzle(&self) -> Result<Puzzle, PuzzleError> {
        let grid = self.grid()?;
        let rules = self.rules(grid.shape())?;
        Puzzle::new(grid, rules)
    }
}

/// Cages as sent, as the engine takes them.
fn engine_cages(cages: Option<&[CageJson]>) -> Vec<Cage> {
    cages
        .into_iter()
        .flatten()
        .map(|c| Cage {
            sum: c.sum,
            cells: c.cells.iter().map(|cell| (cell.row, cell.col)).collect(),
        })
        .collect()
}

/// Cells as sent, as 0-based `(row, col)` pairs.
fn pairs_of(cells: Option<&[CellInput]>) -> Vec<(usize, usize)> {
    cells
        .into_iter()
        .flatten()
        .map(|cell| (cell.row, cell.col))
        .collect()
}

/// A thermometer as sent: its cells from the bulb, each the king's-move neighbour of the one
/// before; `slow`: digits never decrease (rather than strictly increase).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThermometerJson {
    pub cells: Vec<CellInput>,
    #[serde(default)]
    pub slow: bool,
}

/// A dot between two orthogonal neighbours.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DotJson {
    pub cells: [CellInput; 2],
    pub kind: DotKindJson,
    /// White: the difference (default 1); black: the ratio (default 2); none for x and v.
    #[serde(default)]
    pub value: Option<u32>,
}

/// What a dot says: white, the digits differ by its value; black, one is its value times
/// the other; x, they sum to 10; v, to 5.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DotKindJson {
    White,
    Black,
    X,
    V,
}

/// A kind of dot that is all given: white (no other neighbours differ by 1), black (none
/// in ratio 2), xv (none sum to 10 or 5).
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NegativeJson {
    White,
    Black,
    Xv,
}

/// A cage as sent: its sum and its cells, 0-based, each as `[row, col]` or `{"row", "col"}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CageJson {
    pub sum: u32,
    pub cells: Vec<CellInput>,
}

/// A cell as sent: `[row, col]` (the compact form) or `{"row": r, "col": c}` (the form every
/// answer uses), 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellInput {
    pub row: usize,
    pub col: usize,
}

impl<'de> Deserialize<'de> for CellInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Named {
            row: usize,
            col: usize,
        }

        struct CellVisitor;

        impl<'de> Visitor<'de> for CellVisitor {
            type Value = CellInput;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a cell as [row, col] or {\"row\": r, \"col\": c}, 0-based")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CellInput, A::Error> {
                let row = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let col = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(CellInput { row, col })
            }

            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<CellInput, A::Error> {
                let named = Named::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(CellInput {
                    row: named.row,
                    col: named.col,
                })
            }
        }

        deserializer.deserialize_any(CellVisitor)
    }
}

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
    /// The puzzle's id.
    pub id: String,
    /// In the form the board was sent in.
    pub solution: BoardText,
    /// Always checked: `false` means the puzzle has other solutions too.
    pub unique: bool,
    /// With several solutions: a second one and the cells where the two differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_solution: Option<BoardText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub differences: Option<Vec<CellJson>>,
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

with_rule_fields! {
    /// The body of `/validate`: a board, and for a game in progress the original puzzle and
    /// the player's move.
    #[derive(Debug, Clone, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct ValidateRequest {
        /// The player's board: the givens and the entries so far.
        pub board: BoardText,
        /// The puzzle as it was handed out: with it the answer tells entries from givens,
        /// names wrong entries, and refuses a board that changed a given.
        #[serde(default)]
        pub givens: Option<BoardText>,
        /// A move to make on `board` first (the answer then holds the new board).
        #[serde(default, rename = "move", deserialize_with = "object")]
        pub player_move: Option<MoveJson>,
    }
}

/// A player's move: a digit into a cell, or `null` (or 0) to clear it. 0-based.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveJson {
    pub row: usize,
    pub col: usize,
    pub digit: Option<u8>,
}

/// A clashing cell, listed once, with the units it breaks and who placed it.
#[derive(Debug, Serialize)]
pub struct ConflictCellJson {
    pub row: usize,
    pub col: usize,
    pub digit: u8,
    /// `given` or `entry` (only when the givens were sent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<&'static str>,
    pub units: Vec<UnitJson>,
}

impl From<&ConflictCell> for ConflictCellJson {
    fn from(c: &ConflictCell) -> Self {
        ConflictCellJson {
            row: c.cell.row(),
            col: c.cell.col(),
            digit: c.digit.get(),
            by: c.entered.map(|e| if e { "entry" } else { "given" }),
            units: c.units.iter().map(UnitJson::from).collect(),
        }
    }
}

/// An entry that is not the solution's digit (the right one is not told).
#[derive(Debug, Serialize)]
pub struct MistakeJson {
    pub row: usize,
    pub col: usize,
    pub entered: u8,
}

/// The answer of `/validate`.
#[derive(Debug, Serialize)]
pub struct ValidateResponse {
    /// The puzzle's id: the givens' when sent, else the board's.
    pub id: String,
    /// No digit repeats in any row, column, box or cage.
    pub valid: bool,
    /// No empty cell.
    pub complete: bool,
    /// Complete, valid, and every cage adds up.
    pub solved: bool,
    /// Every repeat, by unit.
    pub conflicts: Vec<ConflictJson>,
    /// Every clashing cell once, with the units it breaks and who placed it.
    pub conflict_cells: Vec<ConflictCellJson>,
    /// Completions of the board, counted up to 2 (2 means "more than one"); 0 when the board
    /// has conflicts or can no longer be finished.
    pub solutions: u32,
    /// Entries that differ from the solution: with `givens`, when the puzzle has one solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mistakes: Option<Vec<MistakeJson>>,
    /// The board after the move, in the form sent (when a move was sent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardText>,
    /// Two different completions and the cells where they differ, when there are several.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub ambiguity: Option<Ambiguity>,
}

/// Proof that a puzzle has more than one solution: two of them, and where they differ.
#[derive(Debug, Serialize)]
pub struct Ambiguity {
    pub solution: BoardText,
    pub second_solution: BoardText,
    pub differences: Vec<CellJson>,
}

impl Ambiguity {
    /// The proof in `counted`, in the form `board` was sent in; none for a unique count.
    pub fn of(board: &BoardText, counted: &Counted) -> Option<Ambiguity> {
        let (first, second) = (counted.first.as_ref()?, counted.second.as_ref()?);
        Some(Ambiguity {
            solution: board.render(first.grid()),
            second_solution: board.render(second.grid()),
            differences: first
                .differences(second)
                .into_iter()
                .map(CellJson::from)
                .collect(),
        })
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

/// The answer of `/grade`.
#[derive(Debug, Serialize)]
pub struct GradeResponse {
    /// The puzzle's id.
    pub id: String,
    #[serde(flatten)]
    pub grade: GradeJson,
    /// False when the puzzle has more than one solution (it then needs guessing).
    pub unique: bool,
}

with_rule_fields! {
    /// The body of `/hint`.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct HintRequest {
        /// The player's board: givens and entries.
        pub board: BoardText,
        /// The puzzle as it was handed out. With it a wrong entry is named exactly; without
        /// it a wrong entry usually shows only as "no solution".
        #[serde(default)]
        pub givens: Option<BoardText>,
        /// Tell the right digit of a wrong entry too (`solution_digit`); a spoiler, so off
        /// unless asked for.
        #[serde(default)]
        pub spoiler: bool,
    }
}

/// The answer of `/hint`. Every field has one meaning whatever the kind: `digit` is always
/// the digit the hint places (a revealed cell), never a wrong entry or a clash.
#[derive(Debug, Default, Serialize)]
pub struct HintResponse {
    /// The puzzle's id: the givens' when sent, else the board's.
    pub id: String,
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
    /// The digit the hint places: the revealed digit (`guess`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digit: Option<u8>,
    /// The wrong digit the player entered (`mistake`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entered: Option<u8>,
    /// The right digit of a wrong entry (`mistake`), only when `spoiler` was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solution_digit: Option<u8>,
    /// The repeated digit and its cells (`conflict`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conflict: Option<ConflictJson>,
}

impl HintResponse {
    /// The answer for `hint` about the puzzle `id`; the right digit of a mistake only with
    /// `spoiler`.
    pub fn new(hint: &Hint, id: String, spoiler: bool) -> HintResponse {
        let mut response = HintResponse {
            id,
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
                response.solution_digit = spoiler.then(|| correct.get());
            }
            Hint::Step { setup, step } => {
                response.setup = setup.iter().map(StepJson::from).collect();
                response.step = Some(StepJson::from(step));
            }
            Hint::Reveal {
                setup, pos, digit, ..
            } => {
                response.setup = setup.iter().map(StepJson::from).collect();
                response.cell = Some(CellJson::from(*pos));
                response.digit = Some(digit.get());
            }
            Hint::Unsolvable | Hint::MultipleSolutions | Hint::Undecided | Hint::Solved => {}
        }
        response
    }
}

with_rule_fields! {
    /// The body of `/candidates`.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct CandidatesRequest {
        /// The player's board (it may clash: the marks of the empty cells are still given).
        pub board: BoardText,
        /// The puzzle as it was handed out (checked against the board; names the puzzle's
        /// id).
        #[serde(default)]
        pub givens: Option<BoardText>,
        /// Also apply the elimination techniques (locked candidates, subsets, fish, wings) to
        /// a fixpoint, as a strong player's pencil marks would show. Default: basic
        /// eliminations.
        #[serde(default)]
        pub techniques: bool,
    }
}

/// The answer of `/candidates`.
#[derive(Debug, Serialize)]
pub struct CandidatesResponse {
    /// The puzzle's id: the givens' when sent, else the board's.
    pub id: String,
    /// One list per row, each cell the digits still possible there (empty for a filled cell).
    pub candidates: Vec<Vec<Vec<u8>>>,
    /// Whether the elimination techniques were applied: as asked on a 9x9 board of any rule
    /// set (a Killer's cage techniques among them), except one that clashes (marks resting
    /// on a wrong digit would mislead); other sizes get the basic marks (houses, cages and
    /// cage sums).
    pub techniques: bool,
    /// The board's repeats, when it has any: the marks are given beside them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<ConflictJson>,
}

/// The body of `/generate`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    /// `classic` (default), `killer`, `x`, `hyper` or `jigsaw` (any case).
    #[serde(default)]
    pub variant: Option<String>,
    /// A level: `easy`, `medium`, `hard`, `expert`, `master` or `extreme` (any case).
    /// Required for classic puzzles (or `rating`); a variant without either gets its
    /// minimal puzzle, not graded.
    #[serde(default)]
    pub difficulty: Option<String>,
    /// Instead of a level, a range of SE ratings: `{"min": 6.5, "max": 7.5}` (either end may
    /// be left out), or in a query string `6.5-7.5`, `6.5-` or `7.2`. Kept as raw JSON so
    /// that every malformed shape gets its own message (see `http::generate`).
    #[serde(default)]
    #[schemars(with = "Option<super::schema::RatingInput>")]
    pub rating: Option<serde_json::Value>,
    /// Same seed, same puzzle. Omitted: a random one, returned in the answer. A number up
    /// to 2^53 - 1 (JavaScript's safe integers), or a string of digits up to 2^64 - 1.
    #[serde(default, deserialize_with = "integral_seed")]
    #[schemars(with = "Option<super::schema::SeedInput>")]
    pub seed: Option<u64>,
    /// `none` (default) or `rotational` (the givens are symmetric under a half turn).
    #[serde(default)]
    pub symmetry: Option<String>,
    /// `rows` (default: 9 strings) or `line` (one 81-character string).
    #[serde(default)]
    pub format: Option<String>,
}

/// The body of `/v1/generate/batch`: how many puzzles, the options of `/generate` (each
/// puzzle gets its own seed, derived from `seed` and its index), and what to keep.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateBatchRequest {
    /// Puzzles to answer, from 1 to the server's `generate_batch_items` limit.
    pub count: u64,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub difficulty: Option<String>,
    #[serde(default)]
    #[schemars(with = "Option<super::schema::RatingInput>")]
    pub rating: Option<serde_json::Value>,
    /// The batch's seed: puzzle `i` is generated from a seed derived from it and `i`.
    #[serde(default, deserialize_with = "integral_seed")]
    #[schemars(with = "Option<super::schema::SeedInput>")]
    pub seed: Option<u64>,
    #[serde(default)]
    pub symmetry: Option<String>,
    #[serde(default)]
    pub format: Option<String>,
    /// Keep only puzzles with this many givens (either end may be left out).
    #[serde(default, deserialize_with = "object")]
    pub clues: Option<ClueRange>,
    /// No two answers share a canonical form (classic puzzles only).
    #[serde(default)]
    pub distinct: Option<bool>,
    /// A line's `cursor`, to continue the batch after that line.
    #[serde(default)]
    pub cursor: Option<String>,
}

impl GenerateBatchRequest {
    /// The options every puzzle is generated with, as `/generate` takes them.
    pub fn options(&self) -> GenerateRequest {
        GenerateRequest {
            variant: self.variant.clone(),
            difficulty: self.difficulty.clone(),
            rating: self.rating.clone(),
            seed: self.seed,
            symmetry: self.symmetry.clone(),
            format: self.format.clone(),
        }
    }
}

/// A range of clue counts; either end may be left out.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClueRange {
    #[serde(default)]
    pub min: Option<usize>,
    #[serde(default)]
    pub max: Option<usize>,
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
    /// A classic puzzle's canonical form (as `/v1/canonical` gives it), in the answer's board
    /// form; absent for variants, whose symmetry groups are smaller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical: Option<BoardText>,
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
    pub sum: u32,
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

/// A seed as JSON Schema sees integers: `42` and `42.0` are the same integer, so both are
/// accepted, and so is `"42"` (a query string has only text); fractions, negatives and values
/// beyond u64 are not.
/// `T`, read from a JSON object only. serde's derived structs also take an array of their
/// fields in declaration order (`"cages": [[3, [[0, 0], [0, 1]]]]` would be a cage, and a
/// whole body `[["1...", ...]]` a board), which no schema of this API states and no client
/// should come to rely on. [`ApiJson`](super::extract::ApiJson) reads every body through it,
/// and the fields of struct type through [`objects`] and [`object`].
#[derive(Debug, Clone, Copy)]
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Fields<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Fields<T> {
            type Value = T;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map))
            }
        }
        deserializer
            .deserialize_map(Fields(std::marker::PhantomData))
            .map(Object)
    }
}

/// A field holding a list of objects (or null), each read as [`Object`].
fn objects<'de, D, T>(deserializer: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let list = Option::<Vec<Object<T>>>::deserialize(deserializer)?;
    Ok(list.map(|items| items.into_iter().map(|Object(item)| item).collect()))
}

/// A field holding one object (or null), read as [`Object`].
fn object<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Object<T>>::deserialize(deserializer)?.map(|Object(item)| item))
}

fn integral_seed<'de, D>(deserializer: D) -> Result<Option<u64>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::Error;
    let refuse = |got: &dyn fmt::Display| {
        D::Error::custom(format!(
            "seed must be a whole number from 0 to {MAX_SAFE_SEED}, or a string of digits up \
             to {}, got {got}",
            u64::MAX
        ))
    };
    let number = match Option::<serde_json::Value>::deserialize(deserializer)? {
        None | Some(serde_json::Value::Null) => return Ok(None),
        Some(serde_json::Value::Number(number)) => number,
        Some(serde_json::Value::String(text)) => {
            return text.trim().parse().map(Some).map_err(|_| refuse(&text));
        }
        Some(other) => return Err(refuse(&other)),
    };
    let seed = match (number.as_u64(), number.as_f64()) {
        (Some(seed), _) => seed,
        (None, Some(f)) if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) => {
            f as u64
        }
        _ => return Err(refuse(&number)),
    };
    if seed > MAX_SAFE_SEED {
        return Err(D::Error::custom(format!(
            "seed {number} is above {MAX_SAFE_SEED}, the largest a JavaScript number holds \
             exactly; send larger seeds (up to {}) as a string of digits",
            u64::MAX
        )));
    }
    Ok(Some(seed))
}

/// One puzzle's answer in a batch.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum BatchItem<E> {
    Solved {
        id: String,
        solution: BoardText,
        unique: bool,
    },
    /// `id` when the board could be read (a puzzle without solution, out of budget).
    Failed {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        error: E,
    },
}

/// The answer of `/v1/canonical`.
#[derive(Debug, Serialize)]
pub struct CanonicalResponse {
    /// The puzzle's id.
    pub id: String,
    /// The canonical form, in the form the board was sent in.
    pub canonical: BoardText,
    /// The id of the canonical form: the same for every disguise of the puzzle.
    pub canonical_id: String,
}

/// One answer of `/v1/canonical/batch`.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum CanonicalItem<E> {
    Found {
        id: String,
        canonical: BoardText,
        canonical_id: String,
    },
    /// `id` when the board could be read.
    Failed {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        error: E,
    },
}

impl SolveResponse {
    /// The answer for a count that found `solution`, in the form `board` was sent in.
    pub fn new(
        id: String,
        board: &BoardText,
        solution: &Solution,
        counted: &Counted,
        micros: u64,
    ) -> Self {
        let ambiguity = Ambiguity::of(board, counted);
        SolveResponse {
            id,
            solution: board.render(solution.grid()),
            unique: counted.is_unique(),
            second_solution: ambiguity.as_ref().map(|a| a.second_solution.clone()),
            differences: ambiguity.map(|a| a.differences),
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
        assert!(err.to_string().contains(
            "expected an array of row strings, one string of all cells, or an array of rows \
             of numbers"
        ));
        let err = serde_json::from_str::<BoardRequest>(r#"{"board": [1]}"#).unwrap_err();
        assert!(
            err.to_string().contains("expected a row as a string"),
            "{err}"
        );
        let err = serde_json::from_str::<BoardRequest>(r#"{"board": ["....", [0, 0, 0, 0]]}"#)
            .unwrap_err();
        assert!(
            err.to_string().contains("all be strings or all be arrays"),
            "{err}"
        );
    }

    #[test]
    fn integer_grids_parse_and_answer_in_kind() {
        let request: BoardRequest = serde_json::from_str(
            r#"{"board": [[1, 0, null, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]}"#,
        )
        .unwrap();
        let grid = request.grid().unwrap();
        assert_eq!(grid.to_line(), "1.....3..4.....2");
        let answer = request.board.render(&grid);
        assert_eq!(
            serde_json::to_string(&answer).unwrap(),
            "[[1,0,0,0],[0,0,3,0],[0,4,0,0],[0,0,0,2]]"
        );
    }

    #[test]
    fn whole_numbers_of_any_json_spelling_are_cells() {
        let request: BoardRequest = serde_json::from_str(
            r#"{"board": [[1.0, 0, null, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2e0]]}"#,
        )
        .unwrap();
        assert_eq!(request.grid().unwrap().to_line(), "1.....3..4.....2");
        // Too large for any grid, but a whole number: refused by the grid, by cell.
        let request: BoardRequest =
            serde_json::from_str(r#"{"board": [[1e30, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 18446744073709551615]]}"#).unwrap();
        let error = request.grid().unwrap_err();
        assert_eq!(error.location(), (Some(1), Some(1)), "{error}");
        let err =
            serde_json::from_str::<BoardRequest>(r#"{"board": [[1.5, 0], [0, 0]]}"#).unwrap_err();
        assert!(err.to_string().contains("a whole number"), "{err}");
    }

    #[test]
    fn cage_cells_come_as_pairs_or_named() {
        let request: BoardRequest = serde_json::from_str(
            r#"{"board": "....", "cages": [{"sum": 3, "cells": [[0, 0], {"row": 0, "col": 1}]}]}"#,
        )
        .unwrap();
        assert_eq!(
            engine_cages(request.rule_fields().cages)[0].cells,
            vec![(0, 0), (0, 1)]
        );
        // Each refusal says what is wrong, and a cell of the wrong shape names both forms, so
        // the client can fix it.
        let both_forms = r#"expected a cell as [row, col] or {"row": r, "col": c}, 0-based"#;
        for (bad, says) in [
            (r#""a1""#, both_forms),
            ("5", both_forms),
            ("[0]", both_forms),
            ("[0, 1, 2]", both_forms),
            (r#"{"row": 0}"#, "missing field `col`"),
            (r#"{"row": 0, "col": 1, "x": 2}"#, "unknown field `x`"),
        ] {
            let text = format!(r#"{{"board": "....", "cages": [{{"sum": 3, "cells": [{bad}]}}]}}"#);
            let err = serde_json::from_str::<BoardRequest>(&text).unwrap_err();
            assert!(err.to_string().contains(says), "{bad}: {err}");
        }
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
            engine_cages(request.rule_fields().cages),
            vec![Cage {
                sum: 3,
                cells: vec![(0, 0), (0, 1)]
            }]
        );
    }

    #[test]
    fn region_labels_come_as_rows_a_line_or_numbers() {
        let expected = vec![
            vec![Some("1".to_string()), Some("1".to_string())],
            vec![Some("2".to_string()), Some("2".to_string())],
        ];
        for text in [r#"["11", "22"]"#, r#""1122""#, r#"[[1, 1], [2, 2]]"#] {
            let labels: RegionLabels = serde_json::from_str(text).unwrap();
            assert_eq!(labels.cells(2), expected, "{text}");
        }
        let numbers: RegionLabels = serde_json::from_str("[[1, null], [2, 2]]").unwrap();
        assert_eq!(numbers.cells(2)[0][1], None);
        // A line of the wrong length keeps its short last row, for the engine to name.
        let short: RegionLabels = serde_json::from_str(r#""112""#).unwrap();
        assert_eq!(short.cells(2)[1].len(), 1);
        // Labels are compared as written, never as numbers beyond any cell value.
        let huge: RegionLabels = serde_json::from_str("[[1e300, 1e300], [2e300, 2e300]]").unwrap();
        let cells = huge.cells(2);
        assert_ne!(cells[0][0], cells[1][0]);
        let words: RegionLabels = serde_json::from_str(r#"[["a", "a"], ["b", "b"]]"#).unwrap();
        assert_eq!(words.cells(2)[1][0].as_deref(), Some("b"));
        assert!(serde_json::from_str::<RegionLabels>("[[true]]").is_err());
        assert!(serde_json::from_str::<RegionLabels>("7").is_err());
    }

    #[test]
    fn the_first_rule_sent_is_where_an_unsupported_rule_set_points() {
        let request: BoardRequest =
            serde_json::from_str(r#"{"board": "....", "windows": true, "regions": "11112222"}"#)
                .unwrap();
        assert_eq!(request.rule_fields().first_pointer(), Some("/regions"));
        let classic: BoardRequest =
            serde_json::from_str(r#"{"board": "....", "cages": []}"#).unwrap();
        assert_eq!(classic.rule_fields().first_pointer(), None);
    }
}
