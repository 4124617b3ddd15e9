//! The JSON shapes on the wire: every request and answer body (DTO), and their conversions
//! from and to the engine's types. The bottom of the HTTP layer: it imports only the engine.
//!
//! Boards come in two forms (row strings, or one line) and answers go back in the form the
//! client used. Positions are 0-based; sentences for people count from 1.

use std::fmt;

use schemars::JsonSchema;
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

use crate::engine::{
    Conflict, ConflictCell, Counted, Grid, Hint, ParseError, Puzzle, PuzzleError, Solution,
};

#[macro_use]
mod rules;

pub use rules::*;

pub use crate::shapes::{
    BoardText, CageOut, CellDigitJson, CellJson, GenerateBatchLine, GenerateResponse, GradeJson,
    RulesJson, SeedJson, StepJson, UnitJson, MAX_SAFE_SEED,
};

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
        self.puzzle_of(&self.board)
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
    /// The body of `/v1/render`: a puzzle (board and rule fields, or `fpuzzles`) and how to
    /// draw it.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct RenderRequest {
        pub board: BoardText,
        /// `svg`, `png` or `pdf`; when absent, the `Accept` header chooses (SVG by default).
        #[serde(default)]
        pub format: Option<ImageFormat>,
        /// A PNG's width in pixels (its height follows the picture's proportions).
        #[serde(default)]
        pub size: Option<u32>,
        /// What the cells show besides the givens. Default: the puzzle alone.
        #[serde(default)]
        pub show: ShowJson,
        /// A line above the grid.
        #[serde(default)]
        pub title: Option<String>,
        /// A line under the title.
        #[serde(default)]
        pub author: Option<String>,
    }
}

/// The picture formats `/v1/render` answers in, in the order `Accept` prefers them on a tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    Svg,
    Png,
    Pdf,
}

impl ImageFormat {
    pub const ALL: [ImageFormat; 3] = [ImageFormat::Svg, ImageFormat::Png, ImageFormat::Pdf];

    /// Its media type, as `Content-Type` and `Accept` name it.
    pub const fn media_type(self) -> &'static str {
        match self {
            ImageFormat::Svg => "image/svg+xml",
            ImageFormat::Png => "image/png",
            ImageFormat::Pdf => "application/pdf",
        }
    }

    /// Its name in a body or a query string.
    pub const fn name(self) -> &'static str {
        match self {
            ImageFormat::Svg => "svg",
            ImageFormat::Png => "png",
            ImageFormat::Pdf => "pdf",
        }
    }
}

/// The body of `/v1/booklet`: the puzzles (a list, or a generation), and how to lay them out.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookletRequest {
    /// The puzzles, each any puzzle body `/v1/render` takes (board and rule fields, or
    /// `fpuzzles`) with an optional `title`; read one by one (see [`BookletPuzzle`]), so a
    /// problem points into the puzzle at fault.
    #[serde(default)]
    pub puzzles: Option<Vec<serde_json::Value>>,
    /// Instead of `puzzles`: a `/v1/generate/batch` body; the booklet holds the puzzles that
    /// batch answers, in its order.
    #[serde(default)]
    pub generate: Option<GenerateBatchRequest>,
    /// Puzzles per page: 1, 2, 4 (default) or 6.
    #[serde(default)]
    pub per_page: Option<u64>,
    /// `a4` (default) or `letter`.
    #[serde(default)]
    pub paper: Option<PaperJson>,
    /// The header line of every page and the document's title (default "Sudoku").
    #[serde(default)]
    pub title: Option<String>,
    /// Whether the answer pages follow the puzzles (default: they do).
    #[serde(default)]
    pub answers: Option<bool>,
}

with_rule_fields! {
    /// One puzzle of `/v1/booklet`'s `puzzles`.
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct BookletPuzzle {
        pub board: BoardText,
        /// Its name, shown after its number in its label.
        #[serde(default)]
        pub title: Option<String>,
    }
}

/// The paper a booklet is printed on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaperJson {
    #[default]
    A4,
    Letter,
}

/// What a picture shows in the cells besides the givens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShowJson {
    #[default]
    Puzzle,
    Solution,
    Candidates,
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
    #[serde(default, deserialize_with = "rating_value")]
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
    /// `rows` (default: 9 strings) or `line` (one 81-character string); on
    /// `GET /v1/generate` also `svg`, `png` or `pdf`, a picture of the puzzle.
    #[serde(default)]
    pub format: Option<String>,
    /// Where the givens go, for a classic puzzle: 81 characters, `x` a given and `.` an
    /// empty cell (at least 17 givens); takes no `symmetry`.
    #[serde(default)]
    pub pattern: Option<String>,
    /// `GET /v1/generate` with `format=png` only: the picture's width in pixels.
    #[serde(default)]
    #[schemars(skip)]
    pub size: Option<u32>,
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
    #[serde(default, deserialize_with = "rating_value")]
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
    /// Where every puzzle's givens go, as in `/generate`.
    #[serde(default)]
    pub pattern: Option<String>,
    /// Keep only puzzles with this many givens (either end may be left out).
    #[serde(default, deserialize_with = "object")]
    pub clues: Option<ClueRange>,
    /// No two answers share a canonical form (every variant but Killer).
    #[serde(default)]
    pub distinct: Option<bool>,
    /// A technique every puzzle must need (a name as grades give them, such as `x_wing`).
    #[serde(default)]
    pub technique: Option<String>,
    /// Where `technique` must be: `hardest` (default: the puzzle's hardest step) or `any`.
    #[serde(default)]
    pub technique_as: Option<String>,
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
            pattern: self.pattern.clone(),
            size: None,
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

/// `rating` as raw JSON (see `http::generate`), read as [`StrictJson`]: a key given twice in
/// its object is refused, as the request's own fields are, so `{"min": 9.2, "min": 1.0}`
/// does not ask for 1.0.
fn rating_value<'de, D>(deserializer: D) -> Result<Option<serde_json::Value>, D::Error>
where
    D: Deserializer<'de>,
{
    let StrictJson(value) = StrictJson::deserialize(deserializer)?;
    Ok((!value.is_null()).then_some(value))
}

/// Any JSON value, read like `serde_json::Value` but refusing a key given twice in an object
/// at any depth ("duplicate field `key`", at the object's path). serde_json's own map keeps
/// the last one silently, so a field read as raw JSON (an f-puzzles puzzle, a rating range)
/// would otherwise lose what its first copy said; a struct's derived reader refuses the same
/// in its own fields. No well-kept crate offers this reader, so it is written here.
#[derive(Debug, Clone, PartialEq)]
pub struct StrictJson(pub serde_json::Value);

impl<'de> Deserialize<'de> for StrictJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<StrictJson, D::Error> {
        use serde_json::Value;
        struct Strict;
        impl<'de> Visitor<'de> for Strict {
            type Value = StrictJson;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<StrictJson, A::Error> {
                let mut fields = serde_json::Map::new();
                while let Some(key) = map.next_key::<String>()? {
                    if fields.contains_key(&key) {
                        return Err(de::Error::custom(format!("duplicate field `{key}`")));
                    }
                    let StrictJson(value) = map.next_value()?;
                    fields.insert(key, value);
                }
                Ok(StrictJson(Value::Object(fields)))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<StrictJson, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(StrictJson(item)) = seq.next_element()? {
                    items.push(item);
                }
                Ok(StrictJson(Value::Array(items)))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<StrictJson, E> {
                Ok(StrictJson(Value::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<StrictJson, E> {
                Ok(StrictJson(v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<StrictJson, E> {
                Ok(StrictJson(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<StrictJson, E> {
                let number = serde_json::Number::from_f64(v);
                Ok(StrictJson(number.map_or(Value::Null, Value::Number)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StrictJson, E> {
                Ok(StrictJson(Value::String(v.to_owned())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<StrictJson, E> {
                Ok(StrictJson(Value::Null))
            }
            fn visit_none<E: de::Error>(self) -> Result<StrictJson, E> {
                Ok(StrictJson(Value::Null))
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<StrictJson, D::Error> {
                StrictJson::deserialize(d)
            }
        }
        deserializer.deserialize_any(Strict)
    }
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
            // Quoted, as JSON writes it: an empty or odd string stays visible.
            let quoted = serde_json::Value::String(text.clone());
            return text.trim().parse().map(Some).map_err(|_| refuse(&quoted));
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
    /// A Jigsaw's canonical form's regions: the form turns or mirrors the grid, and the
    /// regions with it (labels `1`-`9` in reading order of first cells).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_regions: Option<BoardText>,
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
    use super::rules::engine_cages;
    use super::*;
    use crate::engine::{Cage, Shape};

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
                sum: Some(3),
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

    /// The classic shortcut of `RuleFields::rules` is taken exactly when the fields add
    /// nothing, and then gives what the full description gives.
    #[test]
    fn only_fields_that_add_nothing_take_the_classic_shortcut() {
        let board = ".".repeat(81);
        let shape = Shape::NINE;
        let parse = |fields: &str| -> BoardRequest {
            serde_json::from_str(&format!(r#"{{"board": "{board}"{fields}}}"#)).unwrap()
        };
        let cell = r#"[0, 0]"#;
        let sent = [
            format!(r#", "cages": [{{"sum": 3, "cells": [{cell}, [0, 1]]}}]"#),
            format!(r#", "regions": "{}""#, "1".repeat(81)),
            r#", "diagonals": true"#.to_string(),
            r#", "diagonals": "main""#.to_string(),
            r#", "windows": true"#.to_string(),
            r#", "anti_king": true"#.to_string(),
            r#", "anti_knight": true"#.to_string(),
            r#", "non_consecutive": true"#.to_string(),
            r#", "disjoint_groups": true"#.to_string(),
            format!(r#", "extra_regions": [{{"cells": [{cell}]}}]"#),
            format!(r#", "odd": [{cell}]"#),
            format!(r#", "even": [{cell}]"#),
            format!(r#", "thermometers": [{{"cells": [{cell}, [0, 1]]}}]"#),
            format!(r#", "dots": [{{"cells": [{cell}, [0, 1]], "kind": "white"}}]"#),
            r#", "negative": ["white"]"#.to_string(),
            format!(r#", "whispers": [{{"cells": [{cell}, [0, 1]]}}]"#),
            format!(r#", "palindromes": [{{"cells": [{cell}, [0, 1]]}}]"#),
            format!(r#", "renban": [{{"cells": [{cell}, [0, 1]]}}]"#),
            format!(r#", "arrows": [{{"circle": [{cell}], "lines": [[[0, 1]]]}}]"#),
            r#", "little_killers": [{"start": [4, 4], "direction": "up-left", "sum": 9}]"#
                .to_string(),
            r#", "sandwiches": [{"side": "left", "index": 3, "sum": 35}]"#.to_string(),
            r#", "x_sums": [{"side": "left", "index": 3, "sum": 35}]"#.to_string(),
            r#", "skyscrapers": [{"side": "top", "index": 0, "count": 1}]"#.to_string(),
            format!(r#", "between_lines": [{{"cells": [{cell}, [0, 1], [0, 2]]}}]"#),
            format!(r#", "region_sum_lines": [{{"cells": [{cell}, [0, 1]]}}]"#),
            format!(
                r#", "quadruples": [{{"cells": [{cell}, [0, 1], [1, 0], [1, 1]], "digits": [1]}}]"#
            ),
            format!(r#", "minimum": [{cell}]"#),
            format!(r#", "maximum": [{cell}]"#),
            format!(r#", "clones": [{{"cells": [{cell}], "copy": [[8, 8]]}}]"#),
        ];
        // Every rule field the body schema names has a sample above, so a field added later
        // must be decided on here (a forgotten one would take the shortcut and be dropped).
        let schema = schemars::schema_for!(BoardRequest).to_value();
        for name in schema["properties"].as_object().unwrap().keys() {
            let key = format!(r#", "{name}":"#);
            assert!(
                name == "board" || sent.iter().any(|fields| fields.starts_with(&key)),
                "no sample of the rule field {name}"
            );
        }
        for fields in &sent {
            let request = parse(fields);
            assert!(!request.rule_fields().is_classic(), "{fields}");
        }
        let empty = [
            "",
            r#", "cages": []"#,
            r#", "diagonals": false"#,
            r#", "windows": false, "anti_king": false, "odd": [], "clones": [], "negative": []"#,
        ];
        for fields in empty {
            let request = parse(fields);
            assert!(request.rule_fields().is_classic(), "{fields}");
            assert_eq!(
                request.rules(shape).unwrap(),
                request.rule_fields().described(shape).unwrap(),
                "{fields}"
            );
        }
    }
}
