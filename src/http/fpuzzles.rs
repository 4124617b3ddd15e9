//! The f-puzzles format (f-puzzles.com, and the SudokuPad links made from it) as a wire
//! format: a request may send `"fpuzzles": <object>` or `"fpuzzles": "<compressed string or
//! link>"` in place of `board` and the rule fields. It is translated here into the native
//! fields (board, givens, cages, regions, ...), and the request then takes the normal path,
//! so its errors and answers are the native ones. The engine never sees the format.
//!
//! The translation is one table, [`FAMILIES`]: an f-puzzles key, the native field it becomes
//! and its converter. Adding a family is one line. Keys that are neither in the table nor
//! cosmetic ([`COSMETIC`]) are refused as `unsupported`, naming the key: the service never
//! solves a silently different puzzle.
//!
//! `cage` is the cosmetic cage of f-puzzles (its own solver ignores it; Killer cages are
//! `killercage`), so it is ignored like the other drawings.

use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::header;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::error::Category;
use serde_json::{Map, Value};

use super::extract::{data_problem, data_problem_taking, ApiJson};
use super::lz_string::{self, DecodeError};
use super::problem::Problem;
use super::wire::{
    native, BoardRequest, BoardText, BookletPuzzle, CandidatesRequest, CellInput, CellJson,
    DiagonalsJson, DirectionJson, DotKindJson, HasRules, HintRequest, NegativeJson, Object,
    OneDiagonalJson, RulesJson, SideJson, StrictJson, ValidateRequest,
};
use crate::engine::{check_givens, default_difference, Grid, Shape};

/// The request field that carries an f-puzzles puzzle.
pub const FIELD: &str = "fpuzzles";

/// Where f-puzzles links point; the compressed puzzle follows `?load=`.
pub const LINK_PREFIX: &str = "https://www.f-puzzles.com/?load=";

/// What marks an f-puzzles puzzle in a SudokuPad link: the compressed puzzle follows it, in
/// the path (`https://sudokupad.app/fpuzzles...`) or the query (`?puzzleid=fpuzzles...`).
const SUDOKUPAD_MARK: &str = "fpuzzles";

/// Where SudokuPad links to an f-puzzles puzzle point; the compressed puzzle follows.
pub const SUDOKUPAD_PREFIX: &str = "https://sudokupad.app/fpuzzles";

/// An f-puzzles puzzle as f-puzzles exports it before compressing it. The constraint arrays
/// and flags are kept as sent (each converter reads its own shape), so that an answer can
/// give the puzzle back whole.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Fpuzzles {
    /// Cells per row: 4 to 16 in f-puzzles; the service takes 4, 6, 8, 9, 10, 12 and 16.
    pub size: usize,
    /// Rows top first.
    pub grid: Vec<Vec<FpuzzlesCell>>,
    /// Every other key: constraints, flags and cosmetic drawings.
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// One cell: `{}`, or `{"value": 5, "given": true}`; `region` (0-based) when the cell is not
/// in its box's region (Jigsaw). Other keys (pencil marks, colours) are kept and ignored.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct FpuzzlesCell {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub given: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<i64>,
    #[serde(flatten)]
    pub rest: Map<String, Value>,
}

/// How the puzzle was sent, so the answer gives it back in the same form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Object,
    Compressed,
    /// An f-puzzles link (`?load=`).
    Link,
    /// A SudokuPad link (`sudokupad.app/fpuzzles...`).
    SudokuPad,
    /// A SudokuPad puzzle id alone (`fpuzzles...`, what follows a SudokuPad link's host).
    SudokuPadId,
}

/// An f-puzzles puzzle a request sent, and in which form.
#[derive(Debug, Clone)]
pub struct Sent {
    pub puzzle: Fpuzzles,
    pub form: Form,
}

impl Sent {
    /// `problem`, found in this puzzle, as the client can follow it: a place inside a
    /// compressed string or link is named beside the pointer, which stops at `/fpuzzles`.
    pub fn refusal(&self, problem: Problem) -> Problem {
        match self.form {
            Form::Object => problem,
            Form::Compressed | Form::Link | Form::SudokuPad | Form::SudokuPadId => {
                problem.in_compressed()
            }
        }
    }

    /// `problem`, about a native field translated from this puzzle, pointed at the place in
    /// the puzzle sent that it came from (see [`point_back`] and [`Sent::refusal`]).
    pub fn point(&self, problem: Problem) -> Problem {
        self.refusal(point_back(&self.puzzle, problem))
    }

    /// The puzzle in the form it was sent in, with `digits` (rows of 0..=size, 0 empty)
    /// written into the grid's cells that are not given, as f-puzzles keeps a player's
    /// entries; `None` leaves the grid as sent.
    pub fn answer(&self, digits: Option<&[Vec<u8>]>) -> Value {
        let mut puzzle = self.puzzle.clone();
        if let Some(digits) = digits {
            fill(&mut puzzle, digits);
        }
        match self.form {
            Form::Object => serde_json::to_value(&puzzle).unwrap_or(Value::Null),
            Form::Compressed => Value::String(compress(&puzzle)),
            Form::Link => Value::String(link(&puzzle)),
            Form::SudokuPad => Value::String(sudokupad_link(&puzzle)),
            Form::SudokuPadId => Value::String(format!("{SUDOKUPAD_MARK}{}", compress(&puzzle))),
        }
    }
}

/// An answer, with the f-puzzles puzzle beside its fields when the request sent one (see
/// [`Sent::answer`]): the fields are the native answer's, unchanged.
#[derive(Debug, Serialize)]
pub struct Answer<T> {
    #[serde(flatten)]
    pub answer: T,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fpuzzles: Option<Value>,
}

impl<T> Answer<T> {
    /// `answer`, with `sent` given back (its grid filled with `digits`, when given).
    pub fn new(answer: T, sent: Option<&Sent>, digits: Option<&[Vec<u8>]>) -> Answer<T> {
        Answer {
            answer,
            fpuzzles: sent.map(|sent| sent.answer(digits)),
        }
    }
}

/// Writes `digits` into the cells of `puzzle` that are not given.
pub fn fill(puzzle: &mut Fpuzzles, digits: &[Vec<u8>]) {
    for (row, cells) in puzzle.grid.iter_mut().zip(digits) {
        for (cell, &digit) in row.iter_mut().zip(cells) {
            if !cell.given {
                cell.value = (digit != 0).then_some(i64::from(digit));
            }
        }
    }
}

/// The lz-string base64 form of `puzzle`, as f-puzzles links and SudokuPad take it.
pub fn compress(puzzle: &Fpuzzles) -> String {
    let text = serde_json::to_string(puzzle).unwrap_or_default();
    lz_str::compress_to_base64(text.as_str())
}

/// An f-puzzles link that opens `puzzle`.
pub fn link(puzzle: &Fpuzzles) -> String {
    format!("{LINK_PREFIX}{}", compress(puzzle))
}

/// A SudokuPad link that opens `puzzle`.
pub fn sudokupad_link(puzzle: &Fpuzzles) -> String {
    format!("{SUDOKUPAD_PREFIX}{}", compress(puzzle))
}

/// The most characters a compressed puzzle may decompress to. A 16x16 f-puzzles object with
/// every cell given and in a region, a cage, a dot, an odd mark and a thermometer on every
/// cell is about 40,000; lz-string output grows with the square of its input, so without a
/// limit a few kilobytes would expand into megabytes.
pub const MAX_DECOMPRESSED: usize = 128 * 1024;

/// The puzzle in `text`: a compressed string, an f-puzzles link with `?load=` (or
/// `&load=`), or a SudokuPad link (or puzzle id) with `fpuzzles` before the puzzle.
pub fn decompress(text: &str) -> Result<(Fpuzzles, Form), Problem> {
    let pointer = format!("/{FIELD}");
    let refuse = |why: &str| {
        Problem::invalid_at(
            pointer.clone(),
            format!(
                "`{FIELD}` as a string must be an f-puzzles puzzle compressed with lz-string \
                 (base64), an f-puzzles link with `?load=`, or a SudokuPad link with \
                 `{SUDOKUPAD_MARK}` before the puzzle ({SUDOKUPAD_PREFIX}...): {why}"
            ),
        )
    };
    let (data, form) = compressed_part(text.trim()).ok_or_else(|| {
        refuse(
            "this link carries neither; a SudokuPad link to a puzzle in SudokuPad's own format \
             or by a short name holds no f-puzzles puzzle to read",
        )
    })?;
    let wide = match lz_string::decode_base64(&data, MAX_DECOMPRESSED) {
        Ok(wide) if !wide.is_empty() => wide,
        Err(DecodeError::TooLong) => {
            return Err(refuse(&format!(
                "it decompresses to more than {MAX_DECOMPRESSED} characters"
            )))
        }
        _ => return Err(refuse("it does not decompress")),
    };
    let json = String::from_utf16(&wide).map_err(|_| refuse("it decompresses to no text"))?;
    let value = strict_json(json.as_bytes()).map_err(|(path, e)| match e.classify() {
        // A key given twice: pointed at inside `/fpuzzles`, as in the object form.
        Category::Data => data_problem(&format!("{}: {e}", within_field(&path))),
        _ => refuse(&format!("it decompresses to no JSON ({e})")),
    })?;
    Ok((parse_object(value)?, form))
}

/// The compressed puzzle in `text` (trimmed), and the form it came in; `None` for a link
/// that carries none.
fn compressed_part(text: &str) -> Option<(String, Form)> {
    // The query's end, or the fragment's: the puzzle stops there.
    let until_end =
        |rest: &str| percent_decode(&rest[..rest.find(['&', '#']).unwrap_or(rest.len())]);
    // `?load=` or `&load=`, never a bare `load=`: a compressed string may end in `load=`
    // (base64 letters and its padding).
    if let Some(at) = ["?load=", "&load="].iter().find_map(|key| text.find(key)) {
        return Some((until_end(&text[at + "?load=".len()..]), Form::Link));
    }
    // SudokuPad: `fpuzzles` opens a puzzle id, alone or in a link's path or query. Only in a
    // link is it looked for past the start, where a compressed string (base64) cannot be.
    let link = text.contains("://");
    let mark = match text.strip_prefix(SUDOKUPAD_MARK) {
        Some(_) => Some((0, Form::SudokuPadId)),
        None if link => text
            .match_indices(SUDOKUPAD_MARK)
            .map(|(at, _)| at)
            .find(|&at| text[..at].ends_with(['/', '=']))
            .map(|at| (at, Form::SudokuPad)),
        None => None,
    };
    match mark {
        Some((at, form)) => {
            let rest = &text[at + SUDOKUPAD_MARK.len()..];
            let end = rest.find('?').unwrap_or(rest.len());
            Some((until_end(&rest[..end]), form))
        }
        None if link => None,
        None => Some((text.to_string(), Form::Compressed)),
    }
}

/// JSON text as a value, refusing a key given twice in any object ([`StrictJson`]): the
/// f-puzzles object is read as raw JSON, where serde_json would keep the last copy silently
/// and solve a puzzle without what the first said. On an error, the path where it was met
/// ("." for the root) and the error.
fn strict_json(text: &[u8]) -> Result<Value, (String, serde_json::Error)> {
    let mut reader = serde_json::Deserializer::from_slice(text);
    let StrictJson(value) = serde_path_to_error::deserialize(&mut reader)
        .map_err(|e| (e.path().to_string(), e.into_inner()))?;
    reader.end().map_err(|e| (".".to_string(), e))?;
    Ok(value)
}

/// A path inside the f-puzzles object as a path in the request ("." is the object itself).
fn within_field(path: &str) -> String {
    match path {
        "." => FIELD.to_string(),
        inner => format!("{FIELD}.{inner}"),
    }
}

/// `%2B`-style escapes of a link's query undone (base64's `+`, `/` and `=`).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The f-puzzles object in `value`, its shape errors pointing inside `/fpuzzles`.
fn parse_object(value: Value) -> Result<Fpuzzles, Problem> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let path = err.path().to_string();
        data_problem(&format!("{}: {}", within_field(&path), err.inner()))
    })
}

/// The `fpuzzles` field of a request, read.
pub fn read(value: Value) -> Result<Sent, Problem> {
    match value {
        Value::String(text) => decompress(&text)
            .map(|(puzzle, form)| Sent { puzzle, form })
            .map_err(Problem::in_compressed),
        object @ Value::Object(_) => parse_object(object).map(|puzzle| Sent {
            puzzle,
            form: Form::Object,
        }),
        _ => Err(Problem::invalid_at(
            format!("/{FIELD}"),
            format!("`{FIELD}` must be an f-puzzles object or its compressed string (or link)"),
        )),
    }
}

/// What a converter makes of one f-puzzles key: a flag, or items for a native array (several
/// keys may add to one array: `difference`, `ratio` and `xv` are all `dots`).
#[derive(Debug, Clone, PartialEq)]
pub enum Native {
    Flag,
    Items(Vec<Value>),
}

/// Reads the value of one f-puzzles key (at JSON pointer `at`) on a grid of `size`.
type Convert = fn(&Value, &str, usize) -> Result<Native, Problem>;

/// Every f-puzzles key the service solves: (key, native field, converter). One line a family.
pub const FAMILIES: &[(&str, &str, Convert)] = &[
    ("antiking", native::ANTI_KING, flag),
    ("antiknight", native::ANTI_KNIGHT, flag),
    ("nonconsecutive", native::NON_CONSECUTIVE, flag),
    ("disjointgroups", native::DISJOINT_GROUPS, flag),
    ("diagonal+", native::DIAGONALS, flag),
    ("diagonal-", native::DIAGONALS, flag),
    ("killercage", native::CAGES, killer_cages),
    ("extraregion", native::EXTRA_REGIONS, cell_groups),
    ("odd", native::ODD, single_cells),
    ("even", native::EVEN, single_cells),
    ("thermometer", native::THERMOMETERS, lines),
    ("whispers", native::WHISPERS, whisper_lines),
    ("palindrome", native::PALINDROMES, lines),
    ("renban", native::RENBAN, lines),
    ("difference", native::DOTS, difference_dots),
    ("ratio", native::DOTS, ratio_dots),
    ("xv", native::DOTS, xv_dots),
    ("negative", native::NEGATIVE, negative),
    ("arrow", native::ARROWS, arrows),
    ("littlekillersum", native::LITTLE_KILLERS, little_killers),
    ("sandwichsum", native::SANDWICHES, sum_clues),
    ("xsum", native::X_SUMS, sum_clues),
    ("skyscraper", native::SKYSCRAPERS, skyscraper_clues),
    ("betweenline", native::BETWEEN_LINES, lines),
    ("regionsumline", native::REGION_SUM_LINES, lines),
    ("quadruple", native::QUADRUPLES, quadruples),
    ("minimum", native::MINIMUM, single_cells),
    ("maximum", native::MAXIMUM, single_cells),
    ("clone", native::CLONES, clones),
];

/// The keys of the two diagonals, read together before the other keys.
const DIAGONAL_KEYS: [&str; 2] = ["diagonal+", "diagonal-"];

/// Keys that draw or describe but constrain nothing: accepted and ignored.
pub const COSMETIC: &[&str] = &[
    "title",
    "author",
    "ruleset",
    "text",
    "line",
    "rectangle",
    "circle",
    "cage",
    "solution",
    "highlightConflicts",
    "disabledlogic",
    "truecandidatesoptions",
];

/// The native request fields for `puzzle`: `board` (numbers; with `with_givens`, every value
/// and, when some are a player's entries, `givens` with the given ones only; else the given
/// values only), `regions` when a cell names its region, and each constraint's field.
pub fn translate(puzzle: &Fpuzzles, with_givens: bool) -> Result<Map<String, Value>, Problem> {
    let size = puzzle.size;
    let shape = Shape::from_side(size)
        .filter(|_| (4..=16).contains(&size))
        .ok_or_else(|| Problem::Unsupported {
            detail: format!(
                "f-puzzles size {size}: the service takes sizes 4, 6, 8, 9, 10, 12 and 16 \
                 (boxes 2x2, 2x3, 2x4, 3x3, 2x5, 3x4, 4x4)"
            ),
            pointer: Some(format!("/{FIELD}/size")),
        })?;
    if puzzle.grid.len() != size || puzzle.grid.iter().any(|row| row.len() != size) {
        return Err(Problem::invalid_at(
            format!("/{FIELD}/grid"),
            format!("the grid of a size {size} puzzle must be {size} rows of {size} cells"),
        ));
    }
    let mut fields = Map::new();
    let board = |keep: fn(&FpuzzlesCell) -> bool| -> Value {
        puzzle
            .grid
            .iter()
            .map(|row| {
                row.iter()
                    .map(|cell| Value::from(cell.value.filter(|_| keep(cell)).unwrap_or(0)))
                    .collect::<Value>()
            })
            .collect()
    };
    let entered = puzzle
        .grid
        .iter()
        .flatten()
        .any(|c| c.value.is_some_and(|v| v != 0) && !c.given);
    if with_givens && entered {
        fields.insert(native::BOARD.into(), board(|_| true));
        fields.insert(native::GIVENS.into(), board(|cell| cell.given));
    } else {
        fields.insert(native::BOARD.into(), board(|cell| cell.given));
    }
    if puzzle
        .grid
        .iter()
        .flatten()
        .any(|cell| cell.region.is_some())
    {
        let labels: Value = (0..size)
            .map(|row| {
                (0..size)
                    .map(|col| {
                        let default = shape.box_of(row, col) as i64;
                        Value::from(puzzle.grid[row][col].region.unwrap_or(default))
                    })
                    .collect::<Value>()
            })
            .collect();
        fields.insert(native::REGIONS.into(), labels);
    }
    // `diagonal-` runs from the top-left corner (the native `main`), `diagonal+` from the
    // bottom-left (`anti`); both are Sudoku X.
    let diagonal = |key: &str| puzzle.rest.get(key).and_then(Value::as_bool) == Some(true);
    let diagonals = match (diagonal("diagonal-"), diagonal("diagonal+")) {
        (true, true) => Some(Value::Bool(true)),
        (true, false) => Some(Value::from("main")),
        (false, true) => Some(Value::from("anti")),
        (false, false) => None,
    };
    if let Some(diagonals) = diagonals {
        fields.insert(native::DIAGONALS.into(), diagonals);
    }
    for (key, value) in &puzzle.rest {
        let read = value.is_boolean() && DIAGONAL_KEYS.contains(&key.as_str());
        if read || COSMETIC.contains(&key.as_str()) || is_empty(value) {
            continue;
        }
        let at = format!("/{FIELD}/{}", escape(key));
        let Some(&(_, field, convert)) = FAMILIES.iter().find(|(k, _, _)| k == key) else {
            return Err(Problem::Unsupported {
                detail: format!(
                    "f-puzzles `{key}` is a rule this service does not solve (yet); it \
                     solves {}",
                    FAMILIES
                        .iter()
                        .map(|(k, _, _)| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                pointer: Some(at),
            });
        };
        match convert(value, &at, size)? {
            Native::Flag => {
                fields.insert(field.into(), Value::Bool(true));
            }
            Native::Items(items) => {
                let slot = fields
                    .entry(field)
                    .or_insert_with(|| Value::Array(Vec::new()));
                if let Value::Array(list) = slot {
                    list.extend(items);
                }
            }
        }
    }
    Ok(fields)
}

/// The f-puzzles key a native field came from in `puzzle`, for errors about it.
pub fn key_of(puzzle: &Fpuzzles, field: &str) -> Option<&'static str> {
    FAMILIES
        .iter()
        .find(|(key, f, _)| *f == field && puzzle.rest.get(*key).is_some_and(|v| !is_empty(v)))
        .map(|(key, _, _)| *key)
}

/// False, null, an empty array or object: nothing asked for.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// A key as a JSON pointer token.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn flag(value: &Value, at: &str, _size: usize) -> Result<Native, Problem> {
    match value {
        Value::Bool(true) => Ok(Native::Flag),
        _ => Err(Problem::invalid_at(at, "expected true or false")),
    }
}

/// `"R3C5"` as a native cell `[2, 4]` (0-based), on a grid of `size`.
fn cell(text: &Value, at: &str, size: usize) -> Result<Value, Problem> {
    let refuse = || {
        Problem::invalid_at(
            at,
            format!("expected a cell as \"R1C1\" to \"R{size}C{size}\", got {text}"),
        )
    };
    match place(text, size) {
        Some((row, col)) if row > 0 && col > 0 => Ok(Value::from(vec![row - 1, col - 1])),
        _ => Err(refuse()),
    }
}

/// The entries of a constraint array.
fn entries<'v>(value: &'v Value, at: &str) -> Result<&'v [Value], Problem> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| Problem::invalid_at(at, "expected an array"))
}

/// `entry[name]` as an array of cells.
fn cells_of(entry: &Value, name: &str, at: &str, size: usize) -> Result<Vec<Value>, Problem> {
    let at = format!("{at}/{name}");
    let list = entry
        .get(name)
        .ok_or_else(|| Problem::invalid_at(&at, format!("missing `{name}`")))?;
    entries(list, &at)?
        .iter()
        .enumerate()
        .map(|(i, c)| cell(c, &format!("{at}/{i}"), size))
        .collect()
}

/// A dot's `cells`: two of them, refused at the entry itself (the native field's own error
/// would point at the whole f-puzzles key, not the entry).
fn pair_of(entry: &Value, at: &str, size: usize) -> Result<Vec<Value>, Problem> {
    let cells = cells_of(entry, "cells", at, size)?;
    if cells.len() != 2 {
        return Err(Problem::invalid_at(
            format!("{at}/cells"),
            format!("a dot joins two cells, got {}", cells.len()),
        ));
    }
    Ok(cells)
}

/// An entry's `value`: a number, or its digits as text (f-puzzles writes them as text).
fn number(entry: &Value, at: &str) -> Result<Option<u64>, Problem> {
    let refuse = || Problem::invalid_at(format!("{at}/value"), "expected a whole number");
    match entry.get("value") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
        Some(Value::String(text)) => text.trim().parse().map(Some).map_err(|_| refuse()),
        Some(Value::Number(n)) => n.as_u64().map(Some).ok_or_else(refuse),
        Some(_) => Err(refuse()),
    }
}

/// `killercage`: `{"cells", "value"}` -> `{"sum", "cells"}`; without a value, a cage whose
/// digits are only distinct.
fn killer_cages(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}");
        let cells = cells_of(entry, "cells", &at, size)?;
        let mut cage = serde_json::json!({ "cells": cells });
        if let Some(sum) = number(entry, &at)? {
            cage["sum"] = Value::from(sum);
        }
        Ok(cage)
    })
}

/// Each entry of the array `value` (at `at`) converted by `convert(index, entry)`.
fn items(
    value: &Value,
    at: &str,
    convert: impl Fn(usize, &Value) -> Result<Value, Problem>,
) -> Result<Native, Problem> {
    entries(value, at)?
        .iter()
        .enumerate()
        .map(|(i, entry)| convert(i, entry))
        .collect::<Result<_, _>>()
        .map(Native::Items)
}

/// `{"cells": [...]}` entries -> `{"cells": [...]}` (extra regions).
fn cell_groups(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let cells = cells_of(entry, "cells", &format!("{at}/{i}"), size)?;
        Ok(serde_json::json!({ "cells": cells }))
    })
}

/// `{"cell": "R1C1"}` entries -> cells (odd, even).
fn single_cells(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}/cell");
        let text = entry
            .get("cell")
            .ok_or_else(|| Problem::invalid_at(&at, "missing `cell`"))?;
        cell(text, &at, size)
    })
}

/// `{"lines": [[cells from the bulb or start], ...]}` entries -> one `{"cells"}` per line.
fn lines(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    lines_with(value, at, size, |_, _| Ok(None))
}

/// `{"lines": [...], "value"?}` entries -> one `{"cells", "difference"?}` per line: an entry's
/// `value` is the least difference of its lines (f-puzzles' whispers and the solvers that
/// read its format take it so), half the side rounded up without one.
fn whisper_lines(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    lines_with(value, at, size, |entry, at| {
        Ok(number(entry, at)?.map(|d| ("difference", Value::from(d))))
    })
}

/// Line entries, each line `{"cells"}` plus the field `extra` reads off its entry (at its
/// pointer), if any.
fn lines_with(
    value: &Value,
    at: &str,
    size: usize,
    extra: impl Fn(&Value, &str) -> Result<Option<(&'static str, Value)>, Problem>,
) -> Result<Native, Problem> {
    let mut out = Vec::new();
    for (i, entry) in entries(value, at)?.iter().enumerate() {
        let field = extra(entry, &format!("{at}/{i}"))?;
        let at = format!("{at}/{i}/lines");
        let list = entry
            .get("lines")
            .ok_or_else(|| Problem::invalid_at(&at, "missing `lines`"))?;
        for (j, line) in entries(list, &at)?.iter().enumerate() {
            let at = format!("{at}/{j}");
            let cells = entries(line, &at)?
                .iter()
                .enumerate()
                .map(|(k, c)| cell(c, &format!("{at}/{k}"), size))
                .collect::<Result<Vec<_>, _>>()?;
            let mut line = serde_json::json!({ "cells": cells });
            if let Some((name, value)) = &field {
                line[*name] = value.clone();
            }
            out.push(line);
        }
    }
    Ok(Native::Items(out))
}

/// Dots of one kind: `{"cells": [a, b], "value"?}` -> `{"cells", "kind", "value"?}`.
fn dots(value: &Value, at: &str, size: usize, kind: &str) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}");
        let cells = pair_of(entry, &at, size)?;
        let mut dot = serde_json::json!({ "cells": cells, "kind": kind });
        if let Some(n) = number(entry, &at)? {
            dot["value"] = Value::from(n);
        }
        Ok(dot)
    })
}

/// `difference`: white dots (consecutive, or the difference given as `value`).
fn difference_dots(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    dots(value, at, size, "white")
}

/// `ratio`: black dots (ratio 2, or the ratio given as `value`).
fn ratio_dots(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    dots(value, at, size, "black")
}

/// `xv`: `"value": "X"` (sum 10) or `"V"` (sum 5) -> kind `x` or `v`.
fn xv_dots(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}");
        let cells = pair_of(entry, &at, size)?;
        let kind = match entry.get("value").and_then(Value::as_str) {
            Some("X" | "x") => "x",
            Some("V" | "v") => "v",
            _ => {
                return Err(Problem::invalid_at(
                    format!("{at}/value"),
                    "an xv clue's value is \"X\" or \"V\"",
                ))
            }
        };
        Ok(serde_json::json!({ "cells": cells, "kind": kind }))
    })
}

/// The negative constraint: every dot of a kind is given. f-puzzles names the kinds by their
/// keys: `difference` -> `white`, `ratio` -> `black`, `xv` -> `xv`.
fn negative(value: &Value, at: &str, _size: usize) -> Result<Native, Problem> {
    items(value, at, |i, kind| match kind.as_str() {
        Some("difference") => Ok(Value::from("white")),
        Some("ratio") => Ok(Value::from("black")),
        Some("xv") => Ok(Value::from("xv")),
        _ => Err(Problem::Unsupported {
            detail: format!(
                "f-puzzles negative {kind}: the service takes the negative constraint of \
                     \"difference\", \"ratio\" and \"xv\""
            ),
            pointer: Some(format!("{at}/{i}")),
        }),
    })
}

/// A clue's place outside the grid, `"R0C3"` (above column 3) to `"R{size+1}C{c}"` (below),
/// `"R{r}C0"` (left of row r) or `"R{r}C{size+1}"` (right), as the native `{"side",
/// "index"}`; `size` cells a side.
fn outside_clue(text: &Value, at: &str, size: usize) -> Result<(&'static str, usize), Problem> {
    let refuse = || {
        Problem::invalid_at(
            at,
            format!(
                "expected a clue's place outside the grid, as \"R0C1\" (above column 1) to \
                 \"R{n}C{size}\" (below column {size}) or \"R1C0\" (left of row 1) to \
                 \"R{size}C{n}\" (right of row {size}), got {text}",
                n = size + 1
            ),
        )
    };
    let (row, col) = place(text, size + 1).ok_or_else(refuse)?;
    let inside = |i: usize| (1..=size).contains(&i);
    match (row, col) {
        (0, c) if inside(c) => Ok(("top", c - 1)),
        (r, c) if r == size + 1 && inside(c) => Ok(("bottom", c - 1)),
        (r, 0) if inside(r) => Ok(("left", r - 1)),
        (r, c) if c == size + 1 && inside(r) => Ok(("right", r - 1)),
        _ => Err(refuse()),
    }
}

/// `"R3C5"` as 1-based (row, column), each at most `most`; `None` when it is not such text.
fn place(text: &Value, most: usize) -> Option<(usize, usize)> {
    let upper = text.as_str()?.to_ascii_uppercase();
    let (row, col) = upper.strip_prefix('R')?.split_once('C')?;
    let number = |part: &str| part.parse::<usize>().ok().filter(|&n| n <= most);
    Some((number(row)?, number(col)?))
}

/// An entry's `value` that must be there.
fn required_number(entry: &Value, at: &str) -> Result<u64, Problem> {
    number(entry, at)?.ok_or_else(|| Problem::invalid_at(format!("{at}/value"), "missing `value`"))
}

/// `arrow`: `{"cells": [circle], "lines": [[circle cell, shaft...], ...]}` -> `{"circle",
/// "lines"}`, each line without the circle cells it starts from.
fn arrows(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}");
        let circle = cells_of(entry, "cells", &at, size)?;
        let list = entry
            .get("lines")
            .ok_or_else(|| Problem::invalid_at(format!("{at}/lines"), "missing `lines`"))?;
        let mut lines = Vec::new();
        for (j, line) in entries(list, &format!("{at}/lines"))?.iter().enumerate() {
            let at = format!("{at}/lines/{j}");
            let cells = entries(line, &at)?
                .iter()
                .enumerate()
                .map(|(k, c)| cell(c, &format!("{at}/{k}"), size))
                .collect::<Result<Vec<_>, _>>()?;
            let shaft: Vec<Value> = cells
                .into_iter()
                .skip_while(|c| circle.contains(c))
                .collect();
            lines.push(Value::Array(shaft));
        }
        Ok(serde_json::json!({ "circle": circle, "lines": lines }))
    })
}

/// `littlekillersum`: `{"cell": outside, "direction": "UR" | "DR" | "DL" | "UL", "value"}`
/// -> `{"start", "direction", "sum"}`, the start one step from the clue along the arrow.
fn little_killers(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}");
        let (direction, (dr, dc)) = match entry.get("direction").and_then(Value::as_str) {
            Some("DR") => ("down-right", (1, 1)),
            Some("DL") => ("down-left", (1, -1)),
            Some("UR") => ("up-right", (-1, 1)),
            Some("UL") => ("up-left", (-1, -1)),
            _ => {
                return Err(Problem::invalid_at(
                    format!("{at}/direction"),
                    "a little killer's direction is \"UR\", \"DR\", \"DL\" or \"UL\"",
                ))
            }
        };
        let clue = entry.get("cell").unwrap_or(&Value::Null);
        let start = place(clue, size + 1).and_then(|(row, col)| {
            let row = (row as isize - 1 + dr) as usize;
            let col = (col as isize - 1 + dc) as usize;
            (row < size && col < size).then_some([row, col])
        });
        let start = start.ok_or_else(|| {
            Problem::invalid_at(
                format!("{at}/cell"),
                format!(
                    "a little killer's cell is outside the grid, one step before its \
                         diagonal's first cell, got {clue}"
                ),
            )
        })?;
        let sum = required_number(entry, &at)?;
        Ok(serde_json::json!({ "start": start, "direction": direction, "sum": sum }))
    })
}

/// Clues outside the grid, `{"cell": outside, "value"}` -> `{"side", "index", <number>}`.
fn outside_clues(value: &Value, at: &str, size: usize, number: &str) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}");
        let clue = entry.get("cell").unwrap_or(&Value::Null);
        let (side, index) = outside_clue(clue, &format!("{at}/cell"), size)?;
        let mut native = serde_json::json!({ "side": side, "index": index });
        native[number] = Value::from(required_number(entry, &at)?);
        Ok(native)
    })
}

/// `sandwichsum`, `xsum`: `{"cell": outside, "value"}` -> `{"side", "index", "sum"}`.
fn sum_clues(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    outside_clues(value, at, size, "sum")
}

/// `skyscraper`: `{"cell": outside, "value"}` -> `{"side", "index", "count"}`.
fn skyscraper_clues(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    outside_clues(value, at, size, "count")
}

/// `quadruple`: `{"cells": [four cells], "values": [digits]}` -> `{"cells", "digits"}`.
fn quadruples(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}");
        let cells = cells_of(entry, "cells", &at, size)?;
        let values = entry
            .get("values")
            .ok_or_else(|| Problem::invalid_at(format!("{at}/values"), "missing `values`"))?;
        let digits = entries(values, &format!("{at}/values"))?
            .iter()
            .enumerate()
            .map(|(k, v)| {
                let digit = match v {
                    Value::Number(n) => n.as_u64(),
                    Value::String(text) => text.trim().parse().ok(),
                    _ => None,
                };
                digit.ok_or_else(|| {
                    Problem::invalid_at(format!("{at}/values/{k}"), "expected a digit")
                })
            })
            .collect::<Result<Vec<u64>, _>>()?;
        Ok(serde_json::json!({ "cells": cells, "digits": digits }))
    })
}

/// `clone`: `{"cells", "cloneCells"}` -> `{"cells", "copy"}`.
fn clones(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}");
        let cells = cells_of(entry, "cells", &at, size)?;
        let copy = cells_of(entry, "cloneCells", &at, size)?;
        Ok(serde_json::json!({ "cells": cells, "copy": copy }))
    })
}

/// A request body that may come in f-puzzles form: whether it takes `givens` (a player's
/// entries in the f-puzzles grid become the board, its given values the givens), and its
/// board, whose shape its rules are checked against.
pub trait PuzzleBody: DeserializeOwned + HasRules {
    const TAKES_GIVENS: bool;
    fn board(&self) -> &BoardText;
    /// The puzzle's givens beside a player's board, where the body takes them.
    fn givens(&self) -> Option<&BoardText> {
        None
    }
}

impl PuzzleBody for BoardRequest {
    const TAKES_GIVENS: bool = false;
    fn board(&self) -> &BoardText {
        &self.board
    }
}

impl PuzzleBody for ValidateRequest {
    const TAKES_GIVENS: bool = true;
    fn board(&self) -> &BoardText {
        &self.board
    }
    fn givens(&self) -> Option<&BoardText> {
        self.givens.as_ref()
    }
}

impl PuzzleBody for HintRequest {
    const TAKES_GIVENS: bool = true;
    fn board(&self) -> &BoardText {
        &self.board
    }
    fn givens(&self) -> Option<&BoardText> {
        self.givens.as_ref()
    }
}

impl PuzzleBody for CandidatesRequest {
    const TAKES_GIVENS: bool = true;
    fn board(&self) -> &BoardText {
        &self.board
    }
    fn givens(&self) -> Option<&BoardText> {
        self.givens.as_ref()
    }
}

impl PuzzleBody for BookletPuzzle {
    const TAKES_GIVENS: bool = false;
    fn board(&self) -> &BoardText {
        &self.board
    }
}

/// [`ApiJson`] for the puzzle endpoints: a body with `fpuzzles` is translated into the
/// native fields first, then read as `T` like any other body (so its errors are the native
/// ones; an error about a translated field points back at the f-puzzles key). The second
/// field is the f-puzzles puzzle sent, for the answer.
#[derive(Debug, Clone)]
pub struct PuzzleJson<T>(pub T, pub Option<Sent>);

impl<S, T> FromRequest<S> for PuzzleJson<T>
where
    T: PuzzleBody,
    S: Send + Sync,
{
    type Rejection = Problem;

    async fn from_request(request: Request, state: &S) -> Result<Self, Problem> {
        let plain = request
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|t| t.as_bytes() == b"application/json");
        if !plain {
            // Any other content type: axum's verdict on it, then the same reading.
            let ApiJson(StrictJson(value)) = ApiJson::from_request(request, state).await?;
            return from_value(value);
        }
        let body = Bytes::from_request(request, state)
            .await
            .map_err(|_| Problem::BodyTooLarge)?;
        // The usual body has no f-puzzles: it is read straight into `T`, as by ApiJson. A
        // key spelled with `\u` escapes (`"fpuzzle\u0073"`) is an unknown field `fpuzzles` to
        // `T` (serde's message names the key decoded), and is then read the long way, as
        // under any other content type.
        if !body.windows(FIELD.len() + 2).any(|w| w == b"\"fpuzzles\"") {
            match axum::Json::<Object<T>>::from_bytes(&body) {
                Ok(axum::Json(Object(value))) => return Ok(PuzzleJson(value, None)),
                Err(JsonRejection::JsonDataError(e))
                    if e.body_text().contains("unknown field `fpuzzles`") => {}
                Err(rejection) => {
                    return Err(super::extract::rejection_problem_taking(
                        rejection,
                        None,
                        &[FIELD],
                    ))
                }
            }
        }
        let value = strict_json(&body).map_err(|(path, e)| match e.classify() {
            Category::Data => data_problem(&format!("{path}: {e}")),
            _ => Problem::InvalidJson {
                detail: format!("Failed to parse the request body as JSON: {e}"),
            },
        })?;
        from_value(value)
    }
}

/// One puzzle of a list (`/v1/booklet`'s `puzzles`) read as `T` like a whole body, its
/// `fpuzzles` translated first when it has one.
pub fn puzzle_in_list<T: PuzzleBody>(value: Value) -> Result<T, Problem> {
    from_value(value).map(|PuzzleJson(body, _)| body)
}

/// Reads `T` from a parsed body, translating its `fpuzzles` first when there is one.
fn from_value<T: PuzzleBody>(value: Value) -> Result<PuzzleJson<T>, Problem> {
    let Value::Object(mut body) = value else {
        return deserialize(value, None, &[FIELD]).map(|t| PuzzleJson(t, None));
    };
    let Some(sent) = body.remove(FIELD) else {
        return deserialize(Value::Object(body), None, &[FIELD]).map(|t| PuzzleJson(t, None));
    };
    if let Some(field) = native::PUZZLE_FIELDS
        .iter()
        .find(|f| body.contains_key(**f))
    {
        return Err(Problem::invalid_at(
            format!("/{field}"),
            format!(
                "`{FIELD}` takes the place of `board` and the rule fields: send the puzzle \
                 either as `{FIELD}` or natively, not `{field}` beside `{FIELD}`"
            ),
        ));
    }
    let sent = read(sent)?;
    let request = translate(&sent.puzzle, T::TAKES_GIVENS).and_then(|native| {
        body.extend(native);
        checked(Value::Object(body), &sent.puzzle)
    });
    match request {
        Ok(request) => Ok(PuzzleJson(request, Some(sent))),
        Err(problem) => Err(sent.refusal(problem)),
    }
}

/// `T` from a body translated from `puzzle`, checked here, where a problem can still point
/// at the f-puzzles entry it came from (the client never sent `/thermometers/0`); the
/// handler's own check then passes. The board and rules are checked, and the givens, which
/// must not clash: the board's where it is the puzzle, the `givens`' beside a player's board
/// (whose own clashes are the player's, for the handler to report).
fn checked<T: PuzzleBody>(body: Value, puzzle: &Fpuzzles) -> Result<T, Problem> {
    let request: T = deserialize(body, Some(puzzle), &[])?;
    let check = || -> Result<(), Problem> {
        let grid = request.board().parse()?;
        request.rules(grid.shape())?;
        let (givens, field) = match request.givens() {
            Some(givens) => (givens, native::GIVENS),
            None if T::TAKES_GIVENS => return Ok(()),
            None => (request.board(), native::BOARD),
        };
        match request.puzzle_of(givens) {
            Err(e) => Err(Problem::from(e).in_field(field)),
            Ok(_) => Ok(()),
        }
    };
    check().map_err(|problem| point_back(puzzle, problem))?;
    Ok(request)
}

/// Where item `index` of the native `field` came from in `puzzle`: the f-puzzles key, the
/// entry in it, and the line in the entry when it made several items (one a line). Replays
/// [`translate`]: the keys in the order it reads them (three keys make `dots`), each entry
/// converted again to count the items it made.
fn source_of(
    puzzle: &Fpuzzles,
    field: &str,
    mut index: usize,
) -> Option<(&'static str, usize, Option<usize>)> {
    for (key, value) in &puzzle.rest {
        let family = FAMILIES.iter().find(|(k, f, _)| k == key && *f == field);
        let Some(&(family, _, convert)) = family.filter(|_| !is_empty(value)) else {
            continue;
        };
        let Some(entries) = value.as_array() else {
            continue;
        };
        for (e, entry) in entries.iter().enumerate() {
            let one = Value::Array(vec![entry.clone()]);
            let made = match convert(&one, "", puzzle.size) {
                Ok(Native::Items(items)) => items.len(),
                _ => 0,
            };
            if index < made {
                return Some((family, e, (made > 1).then_some(index)));
            }
            index -= made;
        }
    }
    None
}

/// `problem`, about a native field translated from `puzzle`, pointed at the place in the
/// f-puzzles puzzle it came from (see [`source`]).
fn point_back(puzzle: &Fpuzzles, problem: Problem) -> Problem {
    let Some(native) = problem.pointer() else {
        return problem;
    };
    match source(puzzle, &native) {
        Some((key, entry)) => Problem::InFpuzzles {
            key,
            entry,
            native,
            problem: Box::new(problem),
        },
        None => problem,
    }
}

/// The f-puzzles key, and the place in it, that the native pointer `native`
/// (`/thermometers/2/cells/1`) came from in `puzzle`, as closely as the translation keeps
/// it: the grid for the board, givens and regions; for an item, its entry (`/3`), the line
/// of an entry that made several or of an arrow (`/3/lines/1`), the entry's `value`
/// (`values`) a native sum, count, value or difference (digits) was read from, or the clue's
/// `cell` its native place was; the key itself for a flag or the whole field.
fn source(puzzle: &Fpuzzles, native: &str) -> Option<(&'static str, String)> {
    let mut segments = native.trim_start_matches('/').split('/');
    let field = segments.next().unwrap_or("");
    if matches!(field, native::BOARD | native::GIVENS | native::REGIONS) {
        return Some(("grid", String::new()));
    }
    let item = segments.next().and_then(|i| i.parse().ok());
    let Some((key, entry, line)) = item.and_then(|i| source_of(puzzle, field, i)) else {
        return Some((key_of(puzzle, field)?, String::new()));
    };
    let place = match (segments.next(), segments.next()) {
        (Some("difference" | "value" | "sum" | "count"), _) => "/value".to_string(),
        (Some("digits"), _) => "/values".to_string(),
        (Some("circle"), _) => "/cells".to_string(),
        (Some("start" | "side" | "index"), _) => "/cell".to_string(),
        (Some("direction"), _) => "/direction".to_string(),
        (Some("lines"), Some(j)) => format!("/lines/{j}"),
        _ => line.map(|j| format!("/lines/{j}")).unwrap_or_default(),
    };
    Some((key, format!("/{entry}{place}")))
}

/// `T` from `value`; with `puzzle`, an error about a field translated from it points at the
/// f-puzzles entry it came from, and a field this server does not take is `unsupported`;
/// without, an unknown field is refused with the fields `T` takes and `also` listed (a
/// native body may come as `fpuzzles` instead, which `T` does not list).
fn deserialize<T: DeserializeOwned>(
    value: Value,
    puzzle: Option<&Fpuzzles>,
    also: &[&str],
) -> Result<T, Problem> {
    let read = serde_path_to_error::deserialize(value).map(|Object(body)| body);
    read.map_err(|err| {
        let text = format!("{}: {}", err.path(), err.inner());
        let Some(puzzle) = puzzle else {
            return data_problem_taking(&text, also);
        };
        let problem = data_problem(&text);
        let Problem::InvalidRequest {
            detail,
            pointer: Some(pointer),
        } = &problem
        else {
            return problem;
        };
        let field = pointer.trim_start_matches('/').split('/').next();
        let field = field.unwrap_or("");
        match source(puzzle, pointer) {
            Some((key, _)) if detail.starts_with("unknown field") => Problem::Unsupported {
                detail: format!(
                    "f-puzzles `{key}` becomes the native field `{field}`, which this server \
                     does not take yet"
                ),
                pointer: Some(format!("/{FIELD}/{}", escape(key))),
            },
            Some((key, entry)) => Problem::invalid_at(
                format!("/{FIELD}/{}{entry}", escape(key)),
                format!("f-puzzles `{key}` (as `{pointer}`): {detail}"),
            ),
            None => problem,
        }
    })
}

/// The answer of `POST /v1/fpuzzles` for a native body: the puzzle as f-puzzles takes it.
#[derive(Debug, Serialize)]
pub struct Converted {
    pub fpuzzles: Fpuzzles,
    /// lz-string base64 of `fpuzzles`, as f-puzzles and SudokuPad links take it.
    pub compressed: String,
    /// An f-puzzles link that opens the puzzle.
    pub link: String,
    /// A SudokuPad link that opens the puzzle.
    pub sudokupad: String,
}

/// `POST /v1/fpuzzles`: a body with `fpuzzles` (object, compressed string or link) becomes
/// the native body it stands for (what the puzzle endpoints read it as); a native body
/// (`board` and the rule fields) becomes the f-puzzles puzzle, its compressed form and a link.
pub async fn convert(
    ApiJson(StrictJson(body)): ApiJson<StrictJson>,
) -> Result<axum::Json<Value>, Problem> {
    if let Some(Value::Object(fields)) = body.get(FIELD).map(|_| &body) {
        if let Some(field) = native::PUZZLE_FIELDS
            .iter()
            .find(|f| fields.contains_key(**f))
        {
            return Err(Problem::invalid_at(
                format!("/{field}"),
                format!("send `{FIELD}` or a native body (`board` and the rule fields), not both"),
            ));
        }
        if let Some(other) = fields.keys().find(|k| *k != FIELD) {
            return Err(Problem::invalid_at(
                format!("/{}", escape(other)),
                format!("unknown field `{other}`: this endpoint takes `{FIELD}`, or a native body"),
            ));
        }
        // Checked as a puzzle endpoint reading a player's position checks it (the grid's
        // values, the rules, the givens' clashes).
        let sent = read(fields[FIELD].clone())?;
        let native = translate(&sent.puzzle, true).and_then(|native| {
            checked::<ValidateRequest>(Value::Object(native.clone()), &sent.puzzle)?;
            Ok(native)
        });
        return native
            .map(|native| axum::Json(Value::Object(native)))
            .map_err(|problem| sent.refusal(problem));
    }
    // A player's position, as this endpoint answers an f-puzzles grid with entries and as
    // `/v1/validate` takes it: `givens` is the puzzle, and the rest of `board` the player's
    // entries, which f-puzzles keeps as values that are not given.
    let mut body = body;
    let givens = (body.as_object_mut()).and_then(|fields| fields.remove(native::GIVENS));
    let request: BoardRequest = deserialize(body, None, &[FIELD, native::GIVENS])?;
    let converted = match givens {
        None => to_fpuzzles(&request, None)?,
        Some(givens) => {
            /// `givens` alone, read as in a `/v1/validate` body (its errors' paths the same).
            #[derive(Deserialize)]
            struct Givens {
                givens: BoardText,
            }
            let alone = Map::from_iter([(native::GIVENS.to_string(), givens)]);
            let Givens { givens } = deserialize(Value::Object(alone), None, &[])?;
            let position = request.board.parse()?;
            let puzzle = (givens.parse()).map_err(|e| Problem::from(e).in_field(native::GIVENS))?;
            check_givens(&position, &puzzle)?;
            let request = BoardRequest {
                board: givens,
                ..request
            };
            // The givens' clashes are the givens' (the entries' are the player's to make).
            to_fpuzzles(&request, Some(&position)).map_err(|e| e.in_field(native::GIVENS))?
        }
    };
    serde_json::to_value(converted)
        .map(axum::Json)
        .map_err(|_| Problem::Internal)
}

/// The f-puzzles form of a native puzzle (checked as the puzzle endpoints check it), with a
/// player's entries from `position` (a board holding the puzzle's givens) where it has them.
pub fn to_fpuzzles(request: &BoardRequest, position: Option<&Grid>) -> Result<Converted, Problem> {
    let puzzle = request.puzzle()?;
    let side = puzzle.grid().shape().side();
    if side > 16 {
        // f-puzzles draws at most 16x16; a link it cannot open is no answer.
        return Err(Problem::Unsupported {
            detail: format!("f-puzzles takes sizes up to 16x16, not {side}x{side}"),
            pointer: Some(format!("/{}", native::BOARD)),
        });
    }
    let rules = RulesJson::new(puzzle.rules(), true);
    if rules.windows {
        return Err(Problem::Unsupported {
            detail: "f-puzzles has no windows rule (Hyper Sudoku draws them as extra regions)"
                .to_string(),
            pointer: Some(format!("/{}", native::WINDOWS)),
        });
    }
    let name = |cell: &CellJson| format!("R{}C{}", cell.row + 1, cell.col + 1);
    // Region labels `1`-`9`, `A`-`P` by region number: f-puzzles numbers regions from 0.
    let regions: Option<Vec<Vec<i64>>> = match &rules.regions {
        Some(BoardText::Rows(rows)) => Some(
            rows.iter()
                .map(|row| {
                    row.chars()
                        .map(|c| i64::from(c.to_digit(36).unwrap_or(1)) - 1)
                        .collect()
                })
                .collect(),
        ),
        _ => None,
    };
    let givens = puzzle.grid().to_numbers();
    let entered = position.map(Grid::to_numbers);
    let grid = givens
        .into_iter()
        .enumerate()
        .map(|(row, digits)| {
            digits
                .into_iter()
                .enumerate()
                .map(|(col, given)| {
                    let digit = entered.as_ref().map_or(given, |e| e[row][col]);
                    FpuzzlesCell {
                        value: (digit != 0).then_some(i64::from(digit)),
                        given: given != 0,
                        region: regions.as_ref().map(|r| r[row][col]),
                        rest: Map::new(),
                    }
                })
                .collect()
        })
        .collect();
    let mut rest = Map::new();
    if let Some(cages) = &rules.cages {
        let cages = cages
            .iter()
            .map(|cage| {
                let mut entry = serde_json::json!({
                    "cells": cage.cells.iter().map(name).collect::<Vec<_>>(),
                });
                if let Some(sum) = cage.sum {
                    entry["value"] = Value::from(sum.to_string());
                }
                entry
            })
            .collect();
        rest.insert("killercage".into(), Value::Array(cages));
    }
    let (main, anti) = match request.diagonals {
        DiagonalsJson::Both(both) => (both, both),
        DiagonalsJson::One(OneDiagonalJson::Main) => (true, false),
        DiagonalsJson::One(OneDiagonalJson::Anti) => (false, true),
    };
    for (on, key) in [(main, "diagonal-"), (anti, "diagonal+")] {
        if on {
            rest.insert(key.into(), Value::Bool(true));
        }
    }
    if request.anti_king {
        rest.insert("antiking".into(), Value::Bool(true));
    }
    for (on, key) in [
        (request.disjoint_groups, "disjointgroups"),
        (request.anti_knight, "antiknight"),
        (request.non_consecutive, "nonconsecutive"),
    ] {
        if on {
            rest.insert(key.into(), Value::Bool(true));
        }
    }
    let names = |cells: &[CellInput]| -> Vec<String> {
        cells
            .iter()
            .map(|c| format!("R{}C{}", c.row + 1, c.col + 1))
            .collect()
    };
    for (key, cells) in [("odd", &request.odd), ("even", &request.even)] {
        if let Some(cells) = cells.as_deref().filter(|c| !c.is_empty()) {
            let entries = names(cells)
                .into_iter()
                .map(|cell| serde_json::json!({ "cell": cell }))
                .collect();
            rest.insert(key.into(), Value::Array(entries));
        }
    }
    let thermometers = request.thermometers.as_deref().unwrap_or_default();
    if let Some(t) = thermometers.iter().position(|t| t.slow) {
        return Err(Problem::Unsupported {
            detail: "f-puzzles has no slow thermometer (digits that may repeat along it)"
                .to_string(),
            pointer: Some(format!("/{}/{t}/slow", native::THERMOMETERS)),
        });
    }
    // Each dot under its f-puzzles key; a white dot's difference and a black dot's ratio
    // only when they are not f-puzzles' defaults (1 and 2).
    let mut dots: [(&str, Vec<Value>); 3] =
        [("difference", vec![]), ("ratio", vec![]), ("xv", vec![])];
    for dot in request.dots.as_deref().unwrap_or_default() {
        let cells = names(&dot.cells);
        let (slot, value) = match dot.kind {
            DotKindJson::White => (0, dot.value.filter(|&v| v != 1).map(Value::from)),
            DotKindJson::Black => (1, dot.value.filter(|&v| v != 2).map(Value::from)),
            DotKindJson::X => (2, Some(Value::from("X"))),
            DotKindJson::V => (2, Some(Value::from("V"))),
        };
        let mut entry = serde_json::json!({ "cells": cells });
        if let Some(value) = value {
            entry["value"] = value;
        }
        dots[slot].1.push(entry);
    }
    for (key, entries) in dots {
        if !entries.is_empty() {
            rest.insert(key.into(), Value::Array(entries));
        }
    }
    if let Some(kinds) = request.negative.as_deref().filter(|k| !k.is_empty()) {
        let kinds = kinds
            .iter()
            .map(|kind| {
                Value::from(match kind {
                    NegativeJson::White => "difference",
                    NegativeJson::Black => "ratio",
                    NegativeJson::Xv => "xv",
                })
            })
            .collect();
        rest.insert("negative".into(), Value::Array(kinds));
    }
    if let Some(regions) = request.extra_regions.as_deref().filter(|r| !r.is_empty()) {
        let regions = regions
            .iter()
            .map(|region| serde_json::json!({ "cells": names(&region.cells) }))
            .collect();
        rest.insert("extraregion".into(), Value::Array(regions));
    }
    let whispers = request.whispers.as_deref().unwrap_or_default();
    // One f-puzzles entry per line, as f-puzzles draws them (a thermometer from its bulb).
    let mut lines = |key: &str, lines: Vec<&[CellInput]>| {
        if !lines.is_empty() {
            let entries = lines
                .into_iter()
                .map(|cells| serde_json::json!({ "lines": [names(cells)] }))
                .collect();
            rest.insert(key.into(), Value::Array(entries));
        }
    };
    lines(
        "thermometer",
        thermometers.iter().map(|t| t.cells.as_slice()).collect(),
    );
    lines(
        "whispers",
        whispers.iter().map(|w| w.cells.as_slice()).collect(),
    );
    lines(
        "palindrome",
        (request.palindromes.as_deref().unwrap_or_default().iter())
            .map(|p| p.cells.as_slice())
            .collect(),
    );
    lines(
        "renban",
        (request.renban.as_deref().unwrap_or_default().iter())
            .map(|p| p.cells.as_slice())
            .collect(),
    );
    for (key, groups) in [
        ("betweenline", &request.between_lines),
        ("regionsumline", &request.region_sum_lines),
    ] {
        lines(
            key,
            (groups.as_deref().unwrap_or_default().iter())
                .map(|p| p.cells.as_slice())
                .collect(),
        );
    }
    // A difference other than the default is the entry's `value`, as text like f-puzzles'.
    if let Some(Value::Array(entries)) = rest.get_mut("whispers") {
        for (entry, whisper) in entries.iter_mut().zip(whispers) {
            if let Some(d) = whisper
                .difference
                .filter(|&d| d != default_difference(side))
            {
                entry["value"] = Value::from(d.to_string());
            }
        }
    }
    for (key, cells) in [("minimum", &request.minimum), ("maximum", &request.maximum)] {
        if let Some(cells) = cells.as_deref().filter(|c| !c.is_empty()) {
            let entries = names(cells)
                .into_iter()
                .map(|cell| serde_json::json!({ "cell": cell }))
                .collect();
            rest.insert(key.into(), Value::Array(entries));
        }
    }
    let mut entries = |key: &str, list: Vec<Value>| {
        if !list.is_empty() {
            rest.insert(key.into(), Value::Array(list));
        }
    };
    // An arrow's lines start at the circle cell they leave from, as f-puzzles draws them.
    entries(
        "arrow",
        (request.arrows.as_deref().unwrap_or_default().iter())
            .map(|arrow| {
                let circle = names(&arrow.circle);
                let lines: Vec<Vec<String>> = (arrow.lines.iter())
                    .map(|line| {
                        let from = line.first().and_then(|first| {
                            (arrow.circle.iter()).min_by_key(|c| {
                                c.row.abs_diff(first.row) + c.col.abs_diff(first.col)
                            })
                        });
                        from.map(|c| names(std::slice::from_ref(c)))
                            .unwrap_or_default()
                            .into_iter()
                            .chain(names(line))
                            .collect()
                    })
                    .collect();
                serde_json::json!({ "cells": circle, "lines": lines })
            })
            .collect(),
    );
    entries(
        "littlekillersum",
        (request.little_killers.as_deref().unwrap_or_default().iter())
            .map(|clue| {
                let (dr, dc, word) = match clue.direction {
                    DirectionJson::DownRight => (1, 1, "DR"),
                    DirectionJson::DownLeft => (1, -1, "DL"),
                    DirectionJson::UpRight => (-1, 1, "UR"),
                    DirectionJson::UpLeft => (-1, -1, "UL"),
                };
                // 1-based, one step back from the start: 0 or size + 1 outside the grid.
                let row = clue.start.row as i64 + 1 - dr;
                let col = clue.start.col as i64 + 1 - dc;
                serde_json::json!({
                    "cell": format!("R{row}C{col}"),
                    "direction": word,
                    "value": clue.sum.to_string(),
                })
            })
            .collect(),
    );
    let outside = |at: SideJson, index: usize| {
        let (row, col) = match at {
            SideJson::Left => (index + 1, 0),
            SideJson::Right => (index + 1, side + 1),
            SideJson::Top => (0, index + 1),
            SideJson::Bottom => (side + 1, index + 1),
        };
        format!("R{row}C{col}")
    };
    for (key, clues) in [
        ("sandwichsum", &request.sandwiches),
        ("xsum", &request.x_sums),
    ] {
        entries(
            key,
            (clues.as_deref().unwrap_or_default().iter())
                .map(|c| {
                    serde_json::json!({ "cell": outside(c.side, c.index), "value": c.sum.to_string() })
                })
                .collect(),
        );
    }
    entries(
        "skyscraper",
        (request.skyscrapers.as_deref().unwrap_or_default().iter())
            .map(|c| {
                serde_json::json!({ "cell": outside(c.side, c.index), "value": c.count.to_string() })
            })
            .collect(),
    );
    entries(
        "quadruple",
        (request.quadruples.as_deref().unwrap_or_default().iter())
            .map(|q| serde_json::json!({ "cells": names(&q.cells), "values": q.digits }))
            .collect(),
    );
    entries(
        "clone",
        (request.clones.as_deref().unwrap_or_default().iter())
            .map(|c| serde_json::json!({ "cells": names(&c.cells), "cloneCells": names(&c.copy) }))
            .collect(),
    );
    let fpuzzles = Fpuzzles {
        size: side,
        grid,
        rest,
    };
    Ok(Converted {
        compressed: compress(&fpuzzles),
        link: link(&fpuzzles),
        sudokupad: sudokupad_link(&fpuzzles),
        fpuzzles,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn puzzle(extra: Value) -> Fpuzzles {
        let mut object = json!({
            "size": 4,
            "grid": [
                [{"value": 1, "given": true}, {}, {}, {}],
                [{}, {}, {"value": 3}, {}],
                [{}, {}, {}, {}],
                [{}, {}, {}, {"value": 2, "given": true}]
            ]
        });
        object
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        serde_json::from_value(object).unwrap()
    }

    #[test]
    fn the_grid_becomes_the_board_and_entries_the_givens_split() {
        let fields = translate(&puzzle(json!({"title": "t"})), false).unwrap();
        assert_eq!(
            fields[native::BOARD],
            json!([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])
        );
        assert!(!fields.contains_key(native::GIVENS));
        let fields = translate(&puzzle(json!({})), true).unwrap();
        assert_eq!(fields[native::BOARD][1], json!([0, 0, 3, 0]));
        assert_eq!(fields[native::GIVENS][1], json!([0, 0, 0, 0]));
    }

    #[test]
    fn each_family_maps_onto_its_native_field() {
        let fields = translate(
            &puzzle(json!({
                "antiking": true,
                "antiknight": false,
                "diagonal+": true,
                "diagonal-": true,
                "killercage": [{"cells": ["R1C1", "R1C2"], "value": "5"}],
                "cage": [{"cells": ["R2C1"], "value": "1"}],
                "thermometer": [{"lines": [["R1C1", "R2C1"], ["R3C3", "R3C4"]]}],
                "difference": [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C1", "R2C2"], "value": 2}],
                "ratio": [{"cells": ["R3C1", "R3C2"]}],
                "xv": [{"cells": ["R4C1", "R4C2"], "value": "V"}],
                "negative": ["ratio", "xv"],
                "odd": [{"cell": "R2C2"}],
                "extraregion": [{"cells": ["R1C4", "R2C4"]}],
                "arrow": []
            })),
            false,
        )
        .unwrap();
        assert_eq!(fields[native::ANTI_KING], json!(true));
        assert!(!fields.contains_key(native::ANTI_KNIGHT));
        assert_eq!(fields[native::DIAGONALS], json!(true));
        assert_eq!(
            fields[native::CAGES],
            json!([{"sum": 5, "cells": [[0, 0], [0, 1]]}])
        );
        assert_eq!(
            fields[native::THERMOMETERS],
            json!([{"cells": [[0, 0], [1, 0]]}, {"cells": [[2, 2], [2, 3]]}])
        );
        assert_eq!(
            fields[native::DOTS],
            json!([
                {"cells": [[0, 0], [0, 1]], "kind": "white"},
                {"cells": [[1, 0], [1, 1]], "kind": "white", "value": 2},
                {"cells": [[2, 0], [2, 1]], "kind": "black"},
                {"cells": [[3, 0], [3, 1]], "kind": "v"}
            ])
        );
        assert_eq!(fields[native::NEGATIVE], json!(["black", "xv"]));
        assert_eq!(fields[native::ODD], json!([[1, 1]]));
        assert_eq!(
            fields[native::EXTRA_REGIONS],
            json!([{"cells": [[0, 3], [1, 3]]}])
        );
    }

    #[test]
    fn what_the_service_cannot_solve_is_refused_by_name() {
        let pointer = |extra: Value| match translate(&puzzle(extra), false).unwrap_err() {
            Problem::Unsupported { pointer, detail } => (pointer.unwrap(), detail),
            other => panic!("{other:?}"),
        };
        let (at, detail) = pointer(json!({"doublearrow": [{"lines": [["R1C1", "R1C2"]]}]}));
        assert_eq!(at, "/fpuzzles/doublearrow");
        assert!(detail.contains("`doublearrow`"), "{detail}");
        let mut big = puzzle(json!({}));
        big.size = 7;
        assert!(matches!(
            translate(&big, false),
            Err(Problem::Unsupported { pointer: Some(p), .. }) if p == "/fpuzzles/size"
        ));
        let bad = translate(&puzzle(json!({"odd": [{"cell": "R5C1"}]})), false).unwrap_err();
        assert_eq!(bad.pointer().as_deref(), Some("/fpuzzles/odd/0/cell"));
    }

    #[test]
    fn cells_naming_a_region_make_jigsaw_labels() {
        let mut jigsaw = puzzle(json!({}));
        jigsaw.grid[0][2].region = Some(0);
        jigsaw.grid[0][1].region = Some(1);
        let fields = translate(&jigsaw, false).unwrap();
        assert_eq!(fields[native::REGIONS][0], json!([0, 1, 0, 1]));
        assert_eq!(fields[native::REGIONS][3], json!([2, 2, 3, 3]));
    }

    #[test]
    fn compressed_strings_and_links_round_trip() {
        let sent = puzzle(json!({"antiking": true, "title": "x"}));
        let text = compress(&sent);
        assert_eq!(decompress(&text).unwrap(), (sent.clone(), Form::Compressed));
        let escaped = link(&sent).replace('+', "%2B").replace('/', "%2F");
        let escaped = escaped.replacen("https:%2F%2F", "https://", 1);
        assert_eq!(decompress(&escaped).unwrap(), (sent.clone(), Form::Link));
        assert!(decompress("not lz-string").is_err());
        // SudokuPad: the puzzle after `fpuzzles`, in the path, in the query, or as a bare
        // puzzle id; a link that carries no f-puzzles puzzle is refused as such.
        for pad in [
            sudokupad_link(&sent),
            format!("https://beta.sudokupad.app/fpuzzles{text}?setting-nogrid=1"),
            format!(
                "https://sudokupad.app/?puzzleid=fpuzzles{}&x=1",
                text.replace('+', "%2B")
            ),
        ] {
            assert_eq!(
                decompress(&pad).unwrap(),
                (sent.clone(), Form::SudokuPad),
                "{pad}"
            );
        }
        // The bare id is given back as one, not as a whole link.
        let id = format!("fpuzzles{text}");
        assert_eq!(
            decompress(&format!("  {id}  ")).unwrap(),
            (sent.clone(), Form::SudokuPadId)
        );
        let answered = Sent {
            puzzle: sent.clone(),
            form: Form::SudokuPadId,
        };
        assert_eq!(answered.answer(None), Value::String(id));
        for other in [
            "https://sudokupad.app/sclN4Ig",
            "https://sudokupad.app/abc123",
        ] {
            let refused = decompress(other).unwrap_err();
            assert!(refused.body().detail.contains("carries neither"), "{other}");
        }
    }

    #[test]
    fn native_to_fpuzzles_to_native_is_the_same_body() {
        let native = json!({
            "board": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]],
            "cages": [{"sum": 7, "cells": [[0, 1], [0, 2]]}],
            "regions": [[0, 0, 0, 1], [2, 0, 1, 1], [2, 2, 3, 1], [2, 3, 3, 3]],
            "diagonals": true,
            "anti_king": false,
        });
        let request: BoardRequest = serde_json::from_value(native.clone()).unwrap();
        let converted = to_fpuzzles(&request, None).unwrap();
        assert_eq!(converted.fpuzzles.rest["killercage"][0]["value"], "7");
        let (back, _) = decompress(&converted.compressed).unwrap();
        assert_eq!(back, converted.fpuzzles);
        let mut again = translate(&back, true).unwrap();
        again.insert("anti_king".into(), Value::Bool(false));
        assert_eq!(Value::Object(again), native);
    }

    #[test]
    fn a_players_entries_go_to_fpuzzles_as_values_not_given_and_back() {
        let native = json!({
            "board": [[1, 3, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0], [0, 0, 0, 2]],
            "givens": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]],
        });
        let request: BoardRequest = serde_json::from_value(json!({
            "board": native["givens"],
        }))
        .unwrap();
        let position: BoardText = serde_json::from_value(native["board"].clone()).unwrap();
        let converted = to_fpuzzles(&request, Some(&position.parse().unwrap())).unwrap();
        let cell = |row: usize, col: usize| &converted.fpuzzles.grid[row][col];
        assert_eq!((cell(0, 0).value, cell(0, 0).given), (Some(1), true));
        assert_eq!((cell(0, 1).value, cell(0, 1).given), (Some(3), false));
        assert_eq!((cell(2, 2).value, cell(2, 2).given), (Some(4), false));
        assert_eq!((cell(1, 1).value, cell(1, 1).given), (None, false));
        let (back, _) = decompress(&converted.compressed).unwrap();
        assert_eq!(Value::Object(translate(&back, true).unwrap()), native);
    }

    #[test]
    fn the_region_and_line_families_go_to_fpuzzles_and_back() {
        let native = json!({
            "board": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]],
            "disjoint_groups": true,
            "extra_regions": [{"cells": [[0, 0], [3, 3]]}, {"cells": [[1, 2]]}],
            "whispers": [
                {"cells": [[0, 0], [0, 1]]},
                {"cells": [[2, 2], [3, 3], [3, 2]], "difference": 1}
            ],
            "palindromes": [{"cells": [[1, 0], [2, 1], [3, 1]]}],
            "renban": [{"cells": [[0, 2], [0, 3]]}],
        });
        let request: BoardRequest = serde_json::from_value(native.clone()).unwrap();
        let converted = to_fpuzzles(&request, None).unwrap();
        assert_eq!(
            converted.fpuzzles.rest["extraregion"][0],
            json!({"cells": ["R1C1", "R4C4"]})
        );
        // A whispers difference other than the default is its entry's `value`.
        assert_eq!(
            converted.fpuzzles.rest["whispers"],
            json!([
                {"lines": [["R1C1", "R1C2"]]},
                {"lines": [["R3C3", "R4C4", "R4C3"]], "value": "1"}
            ])
        );
        let (back, _) = decompress(&converted.compressed).unwrap();
        assert_eq!(Value::Object(translate(&back, true).unwrap()), native);
    }

    /// A key given twice inside a compressed puzzle is refused where it is, as in the object
    /// form: the last copy would otherwise have won silently.
    #[test]
    fn a_compressed_puzzle_with_a_key_given_twice_is_refused() {
        let text = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]],
            "thermometer":[{"lines":[["R1C4","R1C3"]]}],"thermometer":[]}"#;
        let refused = decompress(&lz_str::compress_to_base64(text)).unwrap_err();
        assert_eq!(refused.pointer().as_deref(), Some("/fpuzzles/thermometer"));
        let text = r#"{"size":4,"grid":[[{"value":1,"value":2},{},{},{}]]}"#;
        let refused = decompress(&lz_str::compress_to_base64(text)).unwrap_err();
        assert_eq!(
            refused.pointer().as_deref(),
            Some("/fpuzzles/grid/0/0/value")
        );
    }

    /// An entry's `value` is the least difference of each of its lines, as text or a number.
    #[test]
    fn a_whispers_value_is_its_lines_difference() {
        let sent = puzzle(json!({"whispers": [
            {"lines": [["R1C1", "R1C2", "R1C3"], ["R2C1", "R3C1"]], "value": "3"},
            {"lines": [["R4C4", "R4C3"]]},
            {"lines": [["R2C2", "R2C3"]], "value": 1}
        ]}));
        let fields = translate(&sent, false).unwrap();
        assert_eq!(
            fields["whispers"],
            json!([
                {"cells": [[0, 0], [0, 1], [0, 2]], "difference": 3},
                {"cells": [[1, 0], [2, 0]], "difference": 3},
                {"cells": [[3, 3], [3, 2]]},
                {"cells": [[1, 1], [1, 2]], "difference": 1}
            ])
        );
        let bad = puzzle(json!({"whispers": [{"lines": [["R1C1", "R1C2"]], "value": "x"}]}));
        let refused = translate(&bad, false).unwrap_err();
        assert_eq!(
            refused.pointer().as_deref(),
            Some("/fpuzzles/whispers/0/value")
        );
    }

    #[test]
    fn the_setter_families_go_to_fpuzzles_and_back() {
        let native = json!({
            "board": vec![vec![0; 6]; 6],
            "diagonals": "anti",
            "cages": [{"cells": [[5, 0], [5, 1]]}],
            "arrows": [{"circle": [[0, 0], [0, 1]], "lines": [[[1, 2], [2, 2]]]}],
            "little_killers": [{"start": [0, 1], "direction": "down-right", "sum": 12}],
            "sandwiches": [{"side": "left", "index": 2, "sum": 5}],
            "x_sums": [{"side": "right", "index": 3, "sum": 9}],
            "skyscrapers": [{"side": "bottom", "index": 4, "count": 2}],
            "between_lines": [{"cells": [[3, 0], [3, 1], [4, 2]]}],
            "region_sum_lines": [{"cells": [[1, 1], [1, 2], [1, 3]]}],
            "quadruples": [{"cells": [[4, 4], [4, 5], [5, 4], [5, 5]], "digits": [1, 2]}],
            "minimum": [[2, 5]],
            "maximum": [[0, 5]],
            "clones": [{"cells": [[3, 4]], "copy": [[3, 5]]}],
        });
        let request: BoardRequest = serde_json::from_value(native.clone()).unwrap();
        let converted = to_fpuzzles(&request, None).unwrap();
        let rest = &converted.fpuzzles.rest;
        assert_eq!(rest["diagonal+"], json!(true));
        assert!(rest.get("diagonal-").is_none());
        assert_eq!(rest["killercage"], json!([{"cells": ["R6C1", "R6C2"]}]));
        // The arrow's line starts at the circle cell next to its first cell.
        assert_eq!(rest["arrow"][0]["lines"], json!([["R1C2", "R2C3", "R3C3"]]));
        assert_eq!(
            rest["littlekillersum"][0],
            json!({"cell": "R0C1", "direction": "DR", "value": "12"})
        );
        assert_eq!(rest["sandwichsum"][0]["cell"], "R3C0");
        assert_eq!(rest["xsum"][0]["cell"], "R4C7");
        assert_eq!(rest["skyscraper"][0]["cell"], "R7C5");
        let (back, _) = decompress(&converted.compressed).unwrap();
        assert_eq!(Value::Object(translate(&back, true).unwrap()), native);
    }

    /// Every rule f-puzzles can hold goes out and comes back as sent: a rule left out of
    /// the export would make the link a different puzzle with no word said.
    #[test]
    fn the_pair_parity_and_thermometer_families_go_to_fpuzzles_and_back() {
        let native = json!({
            "board": vec![vec![0; 6]; 6],
            "anti_knight": true,
            "non_consecutive": true,
            "odd": [[0, 0], [1, 1]],
            "even": [[3, 3]],
            "thermometers": [{"cells": [[2, 0], [2, 1], [2, 2]]}],
            "dots": [
                {"cells": [[0, 1], [0, 2]], "kind": "white"},
                {"cells": [[1, 2], [1, 3]], "kind": "white", "value": 3},
                {"cells": [[3, 0], [3, 1]], "kind": "black"},
                {"cells": [[0, 3], [1, 3]], "kind": "x"},
                {"cells": [[2, 3], [3, 3]], "kind": "v"}
            ],
            "negative": ["white", "xv"],
        });
        let request: BoardRequest = serde_json::from_value(native.clone()).unwrap();
        let converted = to_fpuzzles(&request, None).unwrap();
        let rest = &converted.fpuzzles.rest;
        assert_eq!(
            rest["difference"][1],
            json!({"cells": ["R2C3", "R2C4"], "value": 3})
        );
        assert_eq!(rest["negative"], json!(["difference", "xv"]));
        let (back, _) = decompress(&converted.compressed).unwrap();
        let mut again = translate(&back, true).unwrap();
        // Dots come back grouped by kind (white, black, then X and V), each kind in order.
        again.remove(native::DOTS);
        let mut expected = native.clone();
        expected.as_object_mut().unwrap().remove(native::DOTS);
        assert_eq!(Value::Object(again), expected);
        let dots = translate(&back, true).unwrap()[native::DOTS].clone();
        assert_eq!(dots.as_array().map(Vec::len), Some(5));
        let mut slow = request.clone();
        slow.thermometers.as_mut().unwrap()[0].slow = true;
        let refused = to_fpuzzles(&slow, None).unwrap_err();
        assert_eq!(refused.pointer().as_deref(), Some("/thermometers/0/slow"));
    }

    #[test]
    fn an_answer_writes_digits_into_the_cells_not_given() {
        let sent = Sent {
            puzzle: puzzle(json!({})),
            form: Form::Object,
        };
        let digits = vec![vec![9, 8, 7, 6]; 4];
        let answer = sent.answer(Some(&digits));
        assert_eq!(answer["grid"][0][0], json!({"value": 1, "given": true}));
        assert_eq!(answer["grid"][0][1], json!({"value": 8}));
    }
}
