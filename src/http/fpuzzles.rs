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
use axum::extract::{FromRequest, Request};
use axum::http::header;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::extract::{data_problem, ApiJson};
use super::lz_string::{self, DecodeError};
use super::problem::Problem;
use super::wire::{
    BoardRequest, BoardText, CandidatesRequest, CellJson, HintRequest, Object, RulesJson,
    ValidateRequest,
};
use crate::engine::Shape;

/// The request field that carries an f-puzzles puzzle.
pub const FIELD: &str = "fpuzzles";

/// Where f-puzzles links point; the compressed puzzle follows `?load=`.
pub const LINK_PREFIX: &str = "https://www.f-puzzles.com/?load=";

/// The native request fields, named once: the translation writes these, and a request that
/// sends `fpuzzles` must send none of them.
pub mod native {
    pub const BOARD: &str = "board";
    pub const GIVENS: &str = "givens";
    pub const CAGES: &str = "cages";
    pub const REGIONS: &str = "regions";
    pub const DIAGONALS: &str = "diagonals";
    pub const WINDOWS: &str = "windows";
    pub const ANTI_KING: &str = "anti_king";
    pub const ANTI_KNIGHT: &str = "anti_knight";
    pub const NON_CONSECUTIVE: &str = "non_consecutive";
    pub const DISJOINT_GROUPS: &str = "disjoint_groups";
    pub const ODD: &str = "odd";
    pub const EVEN: &str = "even";
    pub const THERMOMETERS: &str = "thermometers";
    pub const WHISPERS: &str = "whispers";
    pub const PALINDROMES: &str = "palindromes";
    pub const EXTRA_REGIONS: &str = "extra_regions";
    pub const DOTS: &str = "dots";
    pub const NEGATIVE: &str = "negative";

    /// Every native field the puzzle is made of: `fpuzzles` replaces all of them.
    pub const PUZZLE_FIELDS: [&str; 18] = [
        BOARD,
        GIVENS,
        CAGES,
        REGIONS,
        DIAGONALS,
        WINDOWS,
        ANTI_KING,
        ANTI_KNIGHT,
        NON_CONSECUTIVE,
        DISJOINT_GROUPS,
        ODD,
        EVEN,
        THERMOMETERS,
        WHISPERS,
        PALINDROMES,
        EXTRA_REGIONS,
        DOTS,
        NEGATIVE,
    ];
}

/// An f-puzzles puzzle as f-puzzles exports it before compressing it. The constraint arrays
/// and flags are kept as sent (each converter reads its own shape), so that an answer can
/// give the puzzle back whole.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Fpuzzles {
    /// Cells per row: 4 to 16 in f-puzzles; the service takes 4, 6, 9 and 16.
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
    Link,
}

/// An f-puzzles puzzle a request sent, and in which form.
#[derive(Debug, Clone)]
pub struct Sent {
    pub puzzle: Fpuzzles,
    pub form: Form,
}

impl Sent {
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

/// The most characters a compressed puzzle may decompress to. A 16x16 f-puzzles object with
/// every cell given and in a region, a cage, a dot, an odd mark and a thermometer on every
/// cell is about 40,000; lz-string output grows with the square of its input, so without a
/// limit a few kilobytes would expand into megabytes.
pub const MAX_DECOMPRESSED: usize = 128 * 1024;

/// The puzzle in `text`: a compressed string, or a link with `?load=` (or `&load=`).
pub fn decompress(text: &str) -> Result<(Fpuzzles, Form), Problem> {
    let pointer = format!("/{FIELD}");
    // `?load=` or `&load=`, never a bare `load=`: a compressed string may end in `load=`
    // (base64 letters and its padding).
    let (data, form) = match ["?load=", "&load="].iter().find_map(|key| text.find(key)) {
        Some(at) => {
            let rest = &text[at + "?load=".len()..];
            let end = rest.find(['&', '#']).unwrap_or(rest.len());
            (percent_decode(&rest[..end]), Form::Link)
        }
        None => (text.trim().to_string(), Form::Compressed),
    };
    let refuse = |why: &str| {
        Problem::invalid_at(
            pointer.clone(),
            format!(
                "`{FIELD}` as a string must be an f-puzzles puzzle compressed with lz-string \
                 (base64), or a link with `?load=`: {why}"
            ),
        )
    };
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
    let value: Value = serde_json::from_str(&json)
        .map_err(|e| refuse(&format!("it decompresses to no JSON ({e})")))?;
    Ok((parse_object(value)?, form))
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
        let path = if path == "." {
            FIELD.to_string()
        } else {
            format!("{FIELD}.{path}")
        };
        data_problem(&format!("{path}: {}", err.inner()))
    })
}

/// The `fpuzzles` field of a request, read.
pub fn read(value: Value) -> Result<Sent, Problem> {
    match value {
        Value::String(text) => decompress(&text).map(|(puzzle, form)| Sent { puzzle, form }),
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
    ("whispers", native::WHISPERS, lines),
    ("palindrome", native::PALINDROMES, lines),
    ("difference", native::DOTS, difference_dots),
    ("ratio", native::DOTS, ratio_dots),
    ("xv", native::DOTS, xv_dots),
    ("negative", native::NEGATIVE, negative),
];

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
                "f-puzzles size {size}: the service takes sizes 4, 6, 9 and 16 (boxes 2x2, \
                 2x3, 3x3, 4x4)"
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
        .any(|c| c.value.is_some() && !c.given);
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
    let diagonal = |key: &str| puzzle.rest.get(key).and_then(Value::as_bool) == Some(true);
    if let Some(alone) = match (diagonal("diagonal+"), diagonal("diagonal-")) {
        (true, false) => Some("diagonal+"),
        (false, true) => Some("diagonal-"),
        _ => None,
    } {
        return Err(Problem::Unsupported {
            detail: format!(
                "f-puzzles `{alone}` alone: the service has both diagonals together \
                 (`diagonals`), not one"
            ),
            pointer: Some(format!("/{FIELD}/{}", escape(alone))),
        });
    }
    for (key, value) in &puzzle.rest {
        if COSMETIC.contains(&key.as_str()) || is_empty(value) {
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
    let text = text.as_str().ok_or_else(refuse)?;
    let upper = text.to_ascii_uppercase();
    let (row, col) = upper
        .strip_prefix('R')
        .and_then(|rest| rest.split_once('C'))
        .ok_or_else(refuse)?;
    let index = |part: &str| {
        part.parse::<usize>()
            .ok()
            .filter(|n| (1..=size).contains(n))
            .map(|n| n - 1)
    };
    match (index(row), index(col)) {
        (Some(row), Some(col)) => Ok(Value::from(vec![row, col])),
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

/// `killercage`: `{"cells", "value"}` -> `{"sum", "cells"}`; a cage without a sum is refused.
fn killer_cages(value: &Value, at: &str, size: usize) -> Result<Native, Problem> {
    let mut cages = Vec::new();
    for (i, entry) in entries(value, at)?.iter().enumerate() {
        let at = format!("{at}/{i}");
        let cells = cells_of(entry, "cells", &at, size)?;
        let sum = number(entry, &at)?.ok_or_else(|| Problem::Unsupported {
            detail: "a killer cage without a sum: the service's cages need one".to_string(),
            pointer: Some(format!("{at}/value")),
        })?;
        cages.push(serde_json::json!({"sum": sum, "cells": cells}));
    }
    Ok(Native::Items(cages))
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
    let mut out = Vec::new();
    for (i, entry) in entries(value, at)?.iter().enumerate() {
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
            out.push(serde_json::json!({ "cells": cells }));
        }
    }
    Ok(Native::Items(out))
}

/// Dots of one kind: `{"cells": [a, b], "value"?}` -> `{"cells", "kind", "value"?}`.
fn dots(value: &Value, at: &str, size: usize, kind: &str) -> Result<Native, Problem> {
    items(value, at, |i, entry| {
        let at = format!("{at}/{i}");
        let cells = cells_of(entry, "cells", &at, size)?;
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
        let cells = cells_of(entry, "cells", &at, size)?;
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

/// A request body that may come in f-puzzles form: whether it takes `givens` (a player's
/// entries in the f-puzzles grid become the board, its given values the givens).
pub trait PuzzleBody: DeserializeOwned {
    const TAKES_GIVENS: bool;
}

impl PuzzleBody for BoardRequest {
    const TAKES_GIVENS: bool = false;
}

impl PuzzleBody for ValidateRequest {
    const TAKES_GIVENS: bool = true;
}

impl PuzzleBody for HintRequest {
    const TAKES_GIVENS: bool = true;
}

impl PuzzleBody for CandidatesRequest {
    const TAKES_GIVENS: bool = true;
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
            let ApiJson(value) = ApiJson::<Value>::from_request(request, state).await?;
            return from_value(value);
        }
        let body = Bytes::from_request(request, state)
            .await
            .map_err(|_| Problem::BodyTooLarge)?;
        // The usual body has no f-puzzles: it is read straight into `T`, as by ApiJson.
        if !body.windows(FIELD.len() + 2).any(|w| w == b"\"fpuzzles\"") {
            return match axum::Json::<Object<T>>::from_bytes(&body) {
                Ok(axum::Json(Object(value))) => Ok(PuzzleJson(value, None)),
                Err(rejection) => Err(super::extract::rejection_problem(rejection, None)),
            };
        }
        let value: Value = serde_json::from_slice(&body).map_err(|e| Problem::InvalidJson {
            detail: format!("Failed to parse the request body as JSON: {e}"),
        })?;
        from_value(value)
    }
}

/// Reads `T` from a parsed body, translating its `fpuzzles` first when there is one.
fn from_value<T: PuzzleBody>(value: Value) -> Result<PuzzleJson<T>, Problem> {
    let Value::Object(mut body) = value else {
        return deserialize(value, None).map(|t| PuzzleJson(t, None));
    };
    let Some(sent) = body.remove(FIELD) else {
        return deserialize(Value::Object(body), None).map(|t| PuzzleJson(t, None));
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
    body.extend(translate(&sent.puzzle, T::TAKES_GIVENS)?);
    let request = deserialize(Value::Object(body), Some(&sent.puzzle))?;
    Ok(PuzzleJson(request, Some(sent)))
}

/// `T` from `value`; with `puzzle`, an error about a field translated from it points at the
/// f-puzzles key it came from, and a field this server does not take is `unsupported`.
fn deserialize<T: DeserializeOwned>(value: Value, puzzle: Option<&Fpuzzles>) -> Result<T, Problem> {
    let read = serde_path_to_error::deserialize(value).map(|Object(body)| body);
    read.map_err(|err| {
        let problem = data_problem(&format!("{}: {}", err.path(), err.inner()));
        let Some(puzzle) = puzzle else {
            return problem;
        };
        let Problem::InvalidRequest {
            detail,
            pointer: Some(pointer),
        } = &problem
        else {
            return problem;
        };
        let field = pointer
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or("");
        match key_of(puzzle, field) {
            Some(key) if detail.starts_with("unknown field") => Problem::Unsupported {
                detail: format!(
                    "f-puzzles `{key}` becomes the native field `{field}`, which this server \
                     does not take yet"
                ),
                pointer: Some(format!("/{FIELD}/{}", escape(key))),
            },
            Some(key) => Problem::invalid_at(
                format!("/{FIELD}/{}", escape(key)),
                format!("f-puzzles `{key}` (as `{field}`): {detail}"),
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
}

/// `POST /v1/fpuzzles`: a body with `fpuzzles` (object, compressed string or link) becomes
/// the native body it stands for (what the puzzle endpoints read it as); a native body
/// (`board` and the rule fields) becomes the f-puzzles puzzle, its compressed form and a link.
pub async fn convert(ApiJson(body): ApiJson<Value>) -> Result<axum::Json<Value>, Problem> {
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
        let sent = read(fields[FIELD].clone())?;
        return Ok(axum::Json(Value::Object(translate(&sent.puzzle, true)?)));
    }
    let request: BoardRequest = deserialize(body, None)?;
    let converted = to_fpuzzles(&request)?;
    serde_json::to_value(converted)
        .map(axum::Json)
        .map_err(|_| Problem::Internal)
}

/// The f-puzzles form of a native puzzle (checked as the puzzle endpoints check it).
pub fn to_fpuzzles(request: &BoardRequest) -> Result<Converted, Problem> {
    let puzzle = request.puzzle()?;
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
    let grid = puzzle
        .grid()
        .to_numbers()
        .into_iter()
        .enumerate()
        .map(|(row, digits)| {
            digits
                .into_iter()
                .enumerate()
                .map(|(col, digit)| FpuzzlesCell {
                    value: (digit != 0).then_some(i64::from(digit)),
                    given: digit != 0,
                    region: regions.as_ref().map(|r| r[row][col]),
                    rest: Map::new(),
                })
                .collect()
        })
        .collect();
    let mut rest = Map::new();
    if let Some(cages) = &rules.cages {
        let cages = cages
            .iter()
            .map(|cage| {
                serde_json::json!({
                    "cells": cage.cells.iter().map(name).collect::<Vec<_>>(),
                    "value": cage.sum.to_string(),
                })
            })
            .collect();
        rest.insert("killercage".into(), Value::Array(cages));
    }
    if rules.diagonals {
        rest.insert("diagonal+".into(), Value::Bool(true));
        rest.insert("diagonal-".into(), Value::Bool(true));
    }
    if request.anti_king {
        rest.insert("antiking".into(), Value::Bool(true));
    }
    let fpuzzles = Fpuzzles {
        size: puzzle.grid().shape().side(),
        grid,
        rest,
    };
    Ok(Converted {
        compressed: compress(&fpuzzles),
        link: link(&fpuzzles),
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
        let (at, detail) = pointer(json!({"arrow": [{"cells": ["R1C1"], "lines": []}]}));
        assert_eq!(at, "/fpuzzles/arrow");
        assert!(detail.contains("`arrow`"), "{detail}");
        assert_eq!(pointer(json!({"diagonal-": true})).0, "/fpuzzles/diagonal-");
        assert_eq!(
            pointer(json!({"killercage": [{"cells": ["R1C1"]}]})).0,
            "/fpuzzles/killercage/0/value"
        );
        let mut big = puzzle(json!({}));
        big.size = 8;
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
        assert_eq!(decompress(&escaped).unwrap(), (sent, Form::Link));
        assert!(decompress("not lz-string").is_err());
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
        let converted = to_fpuzzles(&request).unwrap();
        assert_eq!(converted.fpuzzles.rest["killercage"][0]["value"], "7");
        let (back, _) = decompress(&converted.compressed).unwrap();
        assert_eq!(back, converted.fpuzzles);
        let mut again = translate(&back, true).unwrap();
        again.insert("anti_king".into(), Value::Bool(false));
        assert_eq!(Value::Object(again), native);
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
