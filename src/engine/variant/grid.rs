//! [`Grid`]: a board of any supported [`Shape`], its text form and its rule check.
//!
//! Like the 9x9 [`Board`](crate::engine::Board), a `Grid` may break the rules (so a caller can
//! be told what is wrong); [`conflicts`] lists every repeated digit. Digits above 9 are written
//! `A`-`P` (10-25), the usual convention for 16x16 and 25x25 puzzles.

use std::fmt;

use super::shape::Shape;
use crate::engine::validate::{Unit, UnitKind};

/// A cell position, 0-based. Messages print it 1-based, like [`Pos`](crate::engine::Pos).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Coord {
    pub row: usize,
    pub col: usize,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row + 1, self.col + 1)
    }
}

/// Why rows of text are not a grid. Rows and columns in messages are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantParseError {
    /// The number of rows is not a supported side (4, 6, 9, 16 or 25).
    #[error("found {found} rows; supported sizes are 4, 6, 9, 16 and 25 rows")]
    RowCount { found: usize },
    /// A row has the wrong number of characters (not bytes).
    #[error("row {row} has {found} characters, expected {expected}")]
    RowLength {
        row: usize,
        found: usize,
        expected: usize,
    },
    /// A character that is neither a digit (`1`-`9`, `A`-`P`) nor an empty cell.
    #[error(
        "row {row}, column {col}: {found:?} is not a digit (1-9, A-P) or an empty cell ('.' or '0')"
    )]
    IllegalChar { row: usize, col: usize, found: char },
    /// A digit that exists but is larger than the grid's side.
    #[error("row {row}, column {col}: digit {digit} ({found:?}) is too large for a {side}x{side} grid (1-{side})")]
    DigitTooLarge {
        row: usize,
        col: usize,
        found: char,
        digit: u8,
        side: usize,
    },
}

/// Why a single cell could not be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    #[error("row {row}, column {col} is outside the {side}x{side} grid", row = .row + 1, col = .col + 1)]
    OutOfRange { row: usize, col: usize, side: usize },
    #[error("digit {digit} does not fit a {side}x{side} grid (1-{side})")]
    BadDigit { digit: u8, side: usize },
}

/// A grid of givens and empty cells. Every value is 0 (empty) or 1..=side: `cells` is private
/// and every way in checks the range.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl Grid {
    /// A grid with no givens.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// Parses the API form: one string per row, top row first; the row count picks the shape.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid, VariantParseError> {
        let shape = Shape::from_side(rows.len())
            .ok_or(VariantParseError::RowCount { found: rows.len() })?;
        let side = shape.side();
        let mut grid = Grid::empty(shape);
        for (r, text) in rows.iter().enumerate() {
            let text = text.as_ref();
            let found = text.chars().count();
            if found != side {
                return Err(VariantParseError::RowLength {
                    row: r + 1,
                    found,
                    expected: side,
                });
            }
            for (c, ch) in text.chars().enumerate() {
                let digit = digit_of(ch).ok_or(VariantParseError::IllegalChar {
                    row: r + 1,
                    col: c + 1,
                    found: ch,
                })?;
                if usize::from(digit) > side {
                    return Err(VariantParseError::DigitTooLarge {
                        row: r + 1,
                        col: c + 1,
                        found: ch,
                        digit,
                        side,
                    });
                }
                grid.cells[r * side + c] = digit;
            }
        }
        Ok(grid)
    }

    /// The API form: one string per row, `.` for empty cells, `A`-`P` for 10-25.
    pub fn to_rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.shape.side())
            .map(|row| row.iter().map(|&v| char_of(v)).collect())
            .collect()
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The digit at (`row`, `col`), 0-based; `None` when empty or outside the grid.
    pub fn get(&self, row: usize, col: usize) -> Option<u8> {
        let side = self.shape.side();
        if row >= side || col >= side {
            return None;
        }
        match self.cells[row * side + col] {
            0 => None,
            d => Some(d),
        }
    }

    /// Puts `digit` at (`row`, `col`), or empties the cell with `None`.
    pub fn set(&mut self, row: usize, col: usize, digit: Option<u8>) -> Result<(), GridError> {
        let side = self.shape.side();
        if row >= side || col >= side {
            return Err(GridError::OutOfRange { row, col, side });
        }
        let value = digit.unwrap_or(0);
        if digit.is_some() && !(1..=side).contains(&usize::from(value)) {
            return Err(GridError::BadDigit { digit: value, side });
        }
        self.cells[row * side + col] = value;
        Ok(())
    }

    /// Number of givens.
    pub fn given_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Raw values in reading order (0 = empty), for the engine's own loops.
    pub(crate) fn raw(&self) -> &[u8] {
        &self.cells
    }

    /// A grid from values the engine produced itself (each 0..=side, right length).
    pub(crate) fn from_raw(shape: Shape, cells: Vec<u8>) -> Grid {
        debug_assert_eq!(cells.len(), shape.cells());
        debug_assert!(cells.iter().all(|&v| usize::from(v) <= shape.side()));
        Grid { shape, cells }
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_rows().join("/"))
    }
}

/// `.`/`0` -> 0, `1`-`9` -> 1-9, `A`-`P` (either case) -> 10-25.
fn digit_of(ch: char) -> Option<u8> {
    match ch {
        '.' | '0' => Some(0),
        '1'..='9' => Some(ch as u8 - b'0'),
        'A'..='P' => Some(ch as u8 - b'A' + 10),
        'a'..='p' => Some(ch as u8 - b'a' + 10),
        _ => None,
    }
}

fn char_of(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => char::from(b'0' + value),
        _ => char::from(b'A' + value - 10),
    }
}

/// A digit repeated in one unit, with every cell holding it there (reading order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantConflict {
    pub unit: Unit,
    pub digit: u8,
    pub cells: Vec<Coord>,
}

impl fmt::Display for VariantConflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::engine::validate::write_conflict(f, self.digit, self.unit, &self.cells)
    }
}

impl std::error::Error for VariantConflict {}

/// The cells of a unit of `shape`, in reading order.
pub(crate) fn unit_cells(shape: Shape, unit: Unit) -> impl Iterator<Item = Coord> {
    let Unit { kind, index } = unit;
    (0..shape.side()).map(move |i| {
        let (row, col) = match kind {
            UnitKind::Row => (index, i),
            UnitKind::Column => (i, index),
            UnitKind::Box => shape.box_cell(index, i),
        };
        Coord { row, col }
    })
}

/// All units of `shape`: rows, then columns, then boxes.
pub(crate) fn all_units(shape: Shape) -> impl Iterator<Item = Unit> {
    [UnitKind::Row, UnitKind::Column, UnitKind::Box]
        .into_iter()
        .flat_map(move |kind| (0..shape.side()).map(move |index| Unit { kind, index }))
}

/// Every repeated digit in every unit (rows, then columns, then boxes).
pub fn conflicts(grid: &Grid) -> Vec<VariantConflict> {
    let shape = grid.shape();
    let mut found = Vec::new();
    for unit in all_units(shape) {
        let mut seen = 0u32;
        let mut repeated = 0u32;
        for at in unit_cells(shape, unit) {
            if let Some(d) = grid.get(at.row, at.col) {
                let bit = 1u32 << (d - 1);
                repeated |= seen & bit;
                seen |= bit;
            }
        }
        let mut digits = repeated;
        while digits != 0 {
            let digit = digits.trailing_zeros() as u8 + 1;
            digits &= digits - 1;
            let cells = unit_cells(shape, unit)
                .filter(|at| grid.get(at.row, at.col) == Some(digit))
                .collect();
            found.push(VariantConflict { unit, digit, cells });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(n: usize) -> Vec<String> {
        vec![".".repeat(n); n]
    }

    #[test]
    fn every_supported_size_parses_and_round_trips() {
        for shape in Shape::ALL {
            let n = shape.side();
            let mut text = rows(n);
            text[n - 1] = format!("{}{}", ".".repeat(n - 1), char_of(n as u8));
            let grid = Grid::from_rows(&text).unwrap();
            assert_eq!(grid.shape(), shape);
            assert_eq!(grid.get(n - 1, n - 1), Some(n as u8));
            assert_eq!(grid.to_rows(), text);
        }
    }

    #[test]
    fn letters_are_case_insensitive_and_zero_is_empty() {
        let mut text = rows(16);
        text[0] = "aG0.............".to_string();
        let grid = Grid::from_rows(&text).unwrap();
        assert_eq!(grid.get(0, 0), Some(10));
        assert_eq!(grid.get(0, 1), Some(16));
        assert_eq!(grid.get(0, 2), None);
        assert_eq!(grid.to_rows()[0], "AG..............");
    }

    #[test]
    fn unsupported_row_counts_are_rejected() {
        for n in [0, 1, 5, 8, 10, 24, 26] {
            assert_eq!(
                Grid::from_rows(&rows(n)),
                Err(VariantParseError::RowCount { found: n })
            );
        }
        assert_eq!(
            VariantParseError::RowCount { found: 5 }.to_string(),
            "found 5 rows; supported sizes are 4, 6, 9, 16 and 25 rows"
        );
    }

    #[test]
    fn row_length_is_checked_per_size_in_characters() {
        for shape in Shape::ALL {
            let n = shape.side();
            let mut text = rows(n);
            text[1] = "é".repeat(n - 1); // n - 1 characters, more bytes
            assert_eq!(
                Grid::from_rows(&text),
                Err(VariantParseError::RowLength {
                    row: 2,
                    found: n - 1,
                    expected: n
                })
            );
        }
    }

    #[test]
    fn illegal_characters_name_their_cell() {
        for shape in Shape::ALL {
            let n = shape.side();
            let mut text = rows(n);
            text[2] = format!("..x{}", ".".repeat(n - 3));
            let err = Grid::from_rows(&text).unwrap_err();
            assert_eq!(
                err,
                VariantParseError::IllegalChar {
                    row: 3,
                    col: 3,
                    found: 'x'
                }
            );
            assert!(err.to_string().starts_with("row 3, column 3: 'x'"));
        }
        let mut text = rows(25);
        text[0] = format!("Q{}", ".".repeat(24));
        assert!(matches!(
            Grid::from_rows(&text),
            Err(VariantParseError::IllegalChar { found: 'Q', .. })
        ));
    }

    #[test]
    fn digits_above_the_side_are_too_large() {
        let cases = [(4, '5', 5), (6, '7', 7), (9, 'A', 10), (16, 'h', 17)];
        for (n, ch, digit) in cases {
            let mut text = rows(n);
            text[n - 1] = format!("{}{ch}", ".".repeat(n - 1));
            let err = Grid::from_rows(&text).unwrap_err();
            assert_eq!(
                err,
                VariantParseError::DigitTooLarge {
                    row: n,
                    col: n,
                    found: ch,
                    digit,
                    side: n
                }
            );
        }
        let err = Grid::from_rows(&["5...", "....", "....", "...."]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 1, column 1: digit 5 ('5') is too large for a 4x4 grid (1-4)"
        );
    }

    #[test]
    fn set_checks_range() {
        let mut grid = Grid::empty(Shape::SIX);
        assert!(grid.set(5, 5, Some(6)).is_ok());
        assert_eq!(grid.given_count(), 1);
        assert_eq!(
            grid.set(6, 0, Some(1)),
            Err(GridError::OutOfRange {
                row: 6,
                col: 0,
                side: 6
            })
        );
        assert_eq!(
            grid.set(0, 0, Some(7)),
            Err(GridError::BadDigit { digit: 7, side: 6 })
        );
        assert_eq!(
            grid.set(0, 0, Some(0)),
            Err(GridError::BadDigit { digit: 0, side: 6 })
        );
        assert_eq!(
            GridError::OutOfRange {
                row: 6,
                col: 0,
                side: 6
            }
            .to_string(),
            "row 7, column 1 is outside the 6x6 grid"
        );
    }

    #[test]
    fn conflicts_name_unit_and_cells() {
        // 6x6: two 3s in box 1 (rows 1-2, columns 1-3), not sharing a row or column.
        let grid =
            Grid::from_rows(&["3.....", ".3....", "......", "......", "......", "......"]).unwrap();
        let found = conflicts(&grid);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].unit.kind, UnitKind::Box);
        assert_eq!(
            found[0].to_string(),
            "digit 3 repeats in box 1: row 1, column 1 and row 2, column 2"
        );
        // 16x16: a repeated G in a column.
        let mut text = rows(16);
        text[0] = format!("G{}", ".".repeat(15));
        text[15] = format!("g{}", ".".repeat(15));
        let found = conflicts(&Grid::from_rows(&text).unwrap());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].digit, 16);
        assert_eq!(found[0].unit.kind, UnitKind::Column);
        assert!(conflicts(&Grid::empty(Shape::TWENTY_FIVE)).is_empty());
    }
}
