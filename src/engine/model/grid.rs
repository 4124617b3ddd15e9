//! The board model for every size: [`Shape`], [`Cell`], [`Digit`], [`Grid`] and the one
//! [`ParseError`] of the two text forms.
//!
//! A [`Grid`] is any board whose *shape* is right; it may still break the rules (two 5s in a
//! row). That is deliberate: `/validate` must be able to describe a broken board. Searches take
//! a [`Puzzle`](crate::engine::Puzzle), which proves that the givens do not clash.
//!
//! Digits above 9 are written `A`-`P` (10-25), the usual convention for 16x16 and 25x25
//! puzzles. Positions are 0-based; messages for people print them 1-based.

use std::fmt;

/// The largest side supported (25x25, digits up to `P`).
pub const MAX_SIDE: usize = 25;

/// A grid shape: `side` x `side` cells, boxes `box_rows` tall and `box_cols` wide.
///
/// Built only by [`Shape::from_side`] (or the named constants), so an unsupported side or a
/// box that does not tile the grid cannot exist: every other module can trust that
/// `box_rows * box_cols == side` and that digits fit in a `u32` candidate mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    side: u8,
    box_rows: u8,
    box_cols: u8,
}

impl Shape {
    /// 4x4 with 2x2 boxes.
    pub const FOUR: Shape = Shape::new_unchecked(4, 2, 2);
    /// 6x6 with boxes 2 rows tall and 3 columns wide.
    pub const SIX: Shape = Shape::new_unchecked(6, 2, 3);
    /// 8x8 with boxes 2 rows tall and 4 columns wide.
    pub const EIGHT: Shape = Shape::new_unchecked(8, 2, 4);
    /// Classic 9x9 with 3x3 boxes.
    pub const NINE: Shape = Shape::new_unchecked(9, 3, 3);
    /// 10x10 with boxes 2 rows tall and 5 columns wide.
    pub const TEN: Shape = Shape::new_unchecked(10, 2, 5);
    /// 12x12 with boxes 3 rows tall and 4 columns wide.
    pub const TWELVE: Shape = Shape::new_unchecked(12, 3, 4);
    /// 16x16 with 4x4 boxes.
    pub const SIXTEEN: Shape = Shape::new_unchecked(16, 4, 4);
    /// 25x25 with 5x5 boxes.
    pub const TWENTY_FIVE: Shape = Shape::new_unchecked(25, 5, 5);

    /// Every supported shape, smallest first.
    /// The rectangular boxes (6, 8, 10, 12) are f-puzzles' own, wider than tall.
    pub const ALL: [Shape; 8] = [
        Shape::FOUR,
        Shape::SIX,
        Shape::EIGHT,
        Shape::NINE,
        Shape::TEN,
        Shape::TWELVE,
        Shape::SIXTEEN,
        Shape::TWENTY_FIVE,
    ];

    const fn new_unchecked(side: u8, box_rows: u8, box_cols: u8) -> Shape {
        Shape {
            side,
            box_rows,
            box_cols,
        }
    }

    /// The shape with `side` cells per row: 4, 6, 8, 9, 10, 12, 16 or 25; `None` for anything
    /// else.
    pub fn from_side(side: usize) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.side() == side)
    }

    /// Cells per row, column and box; also the largest digit.
    pub const fn side(self) -> usize {
        self.side as usize
    }

    /// Rows per box.
    pub const fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box.
    pub const fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// Number of cells.
    pub const fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// 0-based box of a cell, boxes numbered in reading order.
    pub const fn box_of(self, row: usize, col: usize) -> usize {
        let boxes_per_row = self.side() / self.box_cols();
        (row / self.box_rows()) * boxes_per_row + col / self.box_cols()
    }

    /// The `i`-th cell (0-based, reading order within the box) of box `index`, as (row, col).
    pub const fn box_cell(self, index: usize, i: usize) -> (usize, usize) {
        let boxes_per_row = self.side() / self.box_cols();
        let top = (index / boxes_per_row) * self.box_rows();
        let left = (index % boxes_per_row) * self.box_cols();
        (top + i / self.box_cols(), left + i % self.box_cols())
    }

    /// Mask with one bit per digit: bit `d - 1` stands for digit `d`.
    pub const fn all_digits(self) -> u32 {
        (1u32 << self.side()) - 1
    }

    /// Sum of all digits 1..=side.
    pub const fn digit_total(self) -> u32 {
        let n = self.side() as u32;
        n * (n + 1) / 2
    }

    /// `cell`'s index in reading order, when it lies on this grid.
    pub fn index_of(self, cell: Cell) -> Option<usize> {
        (cell.row() < self.side() && cell.col() < self.side())
            .then(|| cell.row() * self.side() + cell.col())
    }

    /// The cell at `index` in reading order (`index < cells()`).
    pub fn cell_at(self, index: usize) -> Cell {
        debug_assert!(index < self.cells());
        Cell::at(index / self.side(), index % self.side())
    }

    /// Every cell of the grid in reading order.
    pub fn all_cells(self) -> impl Iterator<Item = Cell> {
        (0..self.cells()).map(move |i| self.cell_at(i))
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{0}x{0} (boxes {1}x{2})",
            self.side, self.box_rows, self.box_cols
        )
    }
}

/// A cell position on a grid of any size, 0-based. Messages for people print it 1-based (see
/// `Display`). Whether it lies on a given grid is the grid's question
/// ([`Shape::index_of`]); every cell of the largest grid can be represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    row: u8,
    col: u8,
}

impl Cell {
    /// `Some` when both coordinates are below [`MAX_SIDE`].
    pub const fn new(row: usize, col: usize) -> Option<Cell> {
        if row < MAX_SIDE && col < MAX_SIDE {
            Some(Cell::at(row, col))
        } else {
            None
        }
    }

    /// For coordinates the engine produced itself from a shape (both below its side).
    pub(crate) const fn at(row: usize, col: usize) -> Cell {
        debug_assert!(row < MAX_SIDE && col < MAX_SIDE);
        Cell {
            row: row as u8,
            col: col as u8,
        }
    }

    /// 0-based row.
    pub const fn row(self) -> usize {
        self.row as usize
    }

    /// 0-based column.
    pub const fn col(self) -> usize {
        self.col as usize
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row + 1, self.col + 1)
    }
}

/// A digit 1-25. Constructing one out of that range is impossible; whether it fits a given
/// grid (at most its side) is checked where a grid takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(u8);

impl Digit {
    /// `Some` for 1-25, `None` otherwise.
    pub const fn new(value: u8) -> Option<Digit> {
        if value >= 1 && value as usize <= MAX_SIDE {
            Some(Digit(value))
        } else {
            None
        }
    }

    /// The digit's value.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The digits 1..=`side`.
    pub fn up_to(side: usize) -> impl Iterator<Item = Digit> {
        (1..=side.min(MAX_SIDE) as u8).map(Digit)
    }

    /// The character that writes it: `1`-`9`, then `A`-`P`.
    pub fn to_char(self) -> char {
        char_of(self.0)
    }
}

impl fmt::Display for Digit {
    /// The value as a number, honouring width and alignment (`{:<3}`), like a plain integer.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The line lengths a one-line board may have, smallest grid first.
const LINE_LENGTHS: [usize; 8] = [16, 36, 64, 81, 100, 144, 256, 625];
/// The row counts a board may have.
const ROW_COUNTS: [usize; 8] = [4, 6, 8, 9, 10, 12, 16, 25];

/// Why a text is not a board. Every variant that points somewhere says where; rows and
/// columns are 1-based here and in the message. `expected` lists what the caller accepts
/// (every size, or only the classic 9x9 for the classic-only tools).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The number of row strings is not one of `expected`.
    #[error("expected {} rows, found {found}", alternatives(expected))]
    RowCount {
        found: usize,
        expected: &'static [usize],
    },
    /// A row has the wrong number of characters (not bytes).
    #[error("row {row} has {found} characters, expected {expected}")]
    RowLength {
        row: usize,
        found: usize,
        expected: usize,
    },
    /// The one-line form has a length that is not one of `expected` (in characters).
    #[error("expected {} characters, found {found}", alternatives(expected))]
    LineLength {
        found: usize,
        expected: &'static [usize],
    },
    /// A character that is neither a digit (`1`-`9`, `A`-`P`) nor an empty cell.
    #[error(
        "row {row}, column {col}: {found:?} is not a digit ({}) or an empty cell ('.' or '0')",
        digit_range(*side)
    )]
    IllegalChar {
        row: usize,
        col: usize,
        found: char,
        side: usize,
    },
    /// A number in the integer form that is not a digit of the grid (0 and null are empty).
    #[error(
        "row {row}, column {col}: {found} is not a digit 1-{side} or an empty cell (0 or null)"
    )]
    IllegalNumber {
        row: usize,
        col: usize,
        found: i64,
        side: usize,
    },
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

/// "9", "16 or 81", "4, 6, 8, 9, 10, 12, 16 or 25".
fn alternatives(values: &[usize]) -> String {
    join_words(values, "or")
}

/// "a", "a and b", "a, b and c" (with `conjunction` "and"): the one way the engine's messages
/// list things.
pub(crate) fn join_words<T: fmt::Display>(items: &[T], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => {
            let head: Vec<String> = init.iter().map(ToString::to_string).collect();
            format!("{} {conjunction} {last}", head.join(", "))
        }
    }
}

fn digit_range(side: usize) -> &'static str {
    if side <= 9 {
        "1-9"
    } else {
        "1-9, A-P"
    }
}

impl ParseError {
    /// The 1-based (row, column) the error points at, where it points at one.
    pub fn location(&self) -> (Option<usize>, Option<usize>) {
        match *self {
            ParseError::RowCount { .. } | ParseError::LineLength { .. } => (None, None),
            ParseError::RowLength { row, .. } => (Some(row), None),
            ParseError::IllegalChar { row, col, .. }
            | ParseError::IllegalNumber { row, col, .. }
            | ParseError::DigitTooLarge { row, col, .. } => (Some(row), Some(col)),
        }
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

/// 0 -> `.`, 1-9 -> `1`-`9`, 10-25 -> `A`-`P`.
pub(crate) fn char_of(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => char::from(b'0' + value),
        _ => char::from(b'A' + value - 10),
    }
}

/// The cells of a 9x9 one-line form of `.`, `0` and digits, without a branch per byte; `None`
/// when any byte is something else (the caller's character path then names the error).
pub(crate) fn parse_nine_line(bytes: &[u8; 81]) -> Option<[u8; 81]> {
    let mut cells = [0u8; 81];
    let mut invalid = 0u8;
    for (cell, &byte) in cells.iter_mut().zip(bytes) {
        let value = byte.wrapping_sub(b'0');
        let digit = u8::from(value <= 9);
        invalid |= (digit ^ 1) & u8::from(byte != b'.');
        *cell = value & digit.wrapping_neg();
    }
    (invalid == 0).then_some(cells)
}

/// Parses one cell's character for a grid of `side` (row and column 0-based here).
fn parse_cell(ch: char, row: usize, col: usize, side: usize) -> Result<u8, ParseError> {
    let digit = digit_of(ch).ok_or(ParseError::IllegalChar {
        row: row + 1,
        col: col + 1,
        found: ch,
        side,
    })?;
    if usize::from(digit) > side {
        return Err(ParseError::DigitTooLarge {
            row: row + 1,
            col: col + 1,
            found: ch,
            digit,
            side,
        });
    }
    Ok(digit)
}

/// Parses `rows` (already known to be `side` of them) into `cells`, reading order.
pub(crate) fn parse_rows_into<S: AsRef<str>>(
    rows: &[S],
    side: usize,
    cells: &mut [u8],
) -> Result<(), ParseError> {
    for (r, text) in rows.iter().enumerate() {
        let text = text.as_ref();
        let found = text.chars().count();
        if found != side {
            return Err(ParseError::RowLength {
                row: r + 1,
                found,
                expected: side,
            });
        }
        for (c, ch) in text.chars().enumerate() {
            cells[r * side + c] = parse_cell(ch, r, c, side)?;
        }
    }
    Ok(())
}

/// Parses a line (already known to have `cells.len()` characters) into `cells`.
pub(crate) fn parse_line_into(line: &str, side: usize, cells: &mut [u8]) -> Result<(), ParseError> {
    for (i, ch) in line.chars().enumerate() {
        cells[i] = parse_cell(ch, i / side, i % side, side)?;
    }
    Ok(())
}

/// Why a single cell could not be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    #[error("{cell} is outside the {side}x{side} grid")]
    OutOfRange { cell: Cell, side: usize },
    #[error("digit {digit} does not fit a {side}x{side} grid (1-{side})")]
    BadDigit { digit: Digit, side: usize },
}

/// A grid of givens and empty cells of any supported shape. Every value is 0 (empty) or
/// 1..=side: `cells` is private and every way in checks the range.
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
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid, ParseError> {
        let shape = Shape::from_side(rows.len()).ok_or(ParseError::RowCount {
            found: rows.len(),
            expected: &ROW_COUNTS,
        })?;
        let mut cells = vec![0; shape.cells()];
        parse_rows_into(rows, shape.side(), &mut cells)?;
        Ok(Grid { shape, cells })
    }

    /// Parses the one-line form: all cells in reading order; the length picks the shape
    /// (16, 36, 81, 256 or 625 characters).
    pub fn from_line(line: &str) -> Result<Grid, ParseError> {
        // The common case, 81 bytes of `.` and digits, in one branch-free pass; anything else
        // (other sizes, errors to name) takes the character path.
        if let Ok(bytes) = <&[u8; 81]>::try_from(line.as_bytes()) {
            if let Some(cells) = parse_nine_line(bytes) {
                return Ok(Grid {
                    shape: Shape::NINE,
                    cells: cells.to_vec(),
                });
            }
        }
        let found = line.chars().count();
        let shape =
            Shape::ALL
                .into_iter()
                .find(|s| s.cells() == found)
                .ok_or(ParseError::LineLength {
                    found,
                    expected: &LINE_LENGTHS,
                })?;
        let mut cells = vec![0; found];
        parse_line_into(line, shape.side(), &mut cells)?;
        Ok(Grid { shape, cells })
    }

    /// Parses the integer form front ends use: one array of numbers per row, top row first,
    /// 0 or `None` (JSON null) for an empty cell; the row count picks the shape.
    pub fn from_numbers<R: AsRef<[Option<i64>]>>(rows: &[R]) -> Result<Grid, ParseError> {
        let shape = Shape::from_side(rows.len()).ok_or(ParseError::RowCount {
            found: rows.len(),
            expected: &ROW_COUNTS,
        })?;
        let side = shape.side();
        let mut cells = Vec::with_capacity(shape.cells());
        for (r, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            if row.len() != side {
                return Err(ParseError::RowLength {
                    row: r + 1,
                    found: row.len(),
                    expected: side,
                });
            }
            for (c, &value) in row.iter().enumerate() {
                let value = value.unwrap_or(0);
                match u8::try_from(value) {
                    Ok(digit) if usize::from(digit) <= side => cells.push(digit),
                    _ => {
                        return Err(ParseError::IllegalNumber {
                            row: r + 1,
                            col: c + 1,
                            found: value,
                            side,
                        })
                    }
                }
            }
        }
        Ok(Grid { shape, cells })
    }

    /// The integer form: one array of numbers per row, 0 for an empty cell.
    pub fn to_numbers(&self) -> Vec<Vec<u8>> {
        self.cells
            .chunks(self.shape.side())
            .map(<[u8]>::to_vec)
            .collect()
    }

    /// The API form: one string per row, `.` for empty cells, `A`-`P` for 10-25.
    pub fn to_rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.shape.side())
            .map(|row| row.iter().map(|&v| char_of(v)).collect())
            .collect()
    }

    /// The one-line form, `.` for empty cells.
    pub fn to_line(&self) -> String {
        // Bytes first: every cell's character is ASCII, and a byte vector of known length is
        // filled in one pass, where collecting chars pushes (and re-checks room) one by one.
        let bytes: Vec<u8> = self.cells.iter().map(|&v| char_of(v) as u8).collect();
        String::from_utf8(bytes).expect("cell characters are ASCII")
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The digit at `cell`; `None` when empty or off the grid.
    pub fn get(&self, cell: Cell) -> Option<Digit> {
        self.shape
            .index_of(cell)
            .and_then(|i| Digit::new(self.cells[i]))
    }

    /// Puts `digit` at `cell`, or empties the cell with `None`.
    pub fn set(&mut self, cell: Cell, digit: Option<Digit>) -> Result<(), GridError> {
        let side = self.shape.side();
        let i = self
            .shape
            .index_of(cell)
            .ok_or(GridError::OutOfRange { cell, side })?;
        if let Some(d) = digit.filter(|d| usize::from(d.get()) > side) {
            return Err(GridError::BadDigit { digit: d, side });
        }
        self.cells[i] = digit.map_or(0, Digit::get);
        Ok(())
    }

    /// Every given with its cell, in reading order.
    pub fn givens(&self) -> impl Iterator<Item = (Cell, Digit)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, &v)| Digit::new(v).map(|d| (self.shape.cell_at(i), d)))
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

impl fmt::Display for Grid {
    /// The one-line form, so that grids print the way puzzle files store them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 9x9 line's fast path gives what the character path gives, and leaves every
    /// error (a letter, a sign, a space) to it.
    #[test]
    fn the_nine_line_fast_path_agrees_with_the_character_path() {
        let line: String = (0..81).map(|i| ['.', '0', '5', '9'][i % 4]).collect();
        let fast = Grid::from_line(&line).unwrap();
        let rows: Vec<String> = (0..9).map(|r| line[r * 9..r * 9 + 9].to_string()).collect();
        assert_eq!(fast, Grid::from_rows(&rows).unwrap());
        assert_eq!(fast.to_line(), line.replace('0', "."));
        for bad in ["A", "x", "/", ":", " "] {
            let mut text = line.clone();
            text.replace_range(40..41, bad);
            let rows: Vec<String> = (0..9).map(|r| text[r * 9..r * 9 + 9].to_string()).collect();
            let error = Grid::from_line(&text).unwrap_err();
            assert_eq!(Err(error), Grid::from_rows(&rows), "{bad:?}");
        }
    }

    fn rows(n: usize) -> Vec<String> {
        vec![".".repeat(n); n]
    }

    fn cell(row: usize, col: usize) -> Cell {
        Cell::new(row, col).unwrap()
    }

    #[test]
    fn only_the_eight_sides_are_supported() {
        for n in 0..40 {
            let found = Shape::from_side(n);
            assert_eq!(found.is_some(), ROW_COUNTS.contains(&n), "side {n}");
            if let Some(s) = found {
                assert_eq!(s.box_rows() * s.box_cols(), n);
            }
        }
        assert_eq!(Shape::from_side(6).unwrap().box_rows(), 2);
        assert_eq!(Shape::from_side(6).unwrap().box_cols(), 3);
        assert_eq!((Shape::EIGHT.box_rows(), Shape::EIGHT.box_cols()), (2, 4));
        assert_eq!((Shape::TEN.box_rows(), Shape::TEN.box_cols()), (2, 5));
        assert_eq!((Shape::TWELVE.box_rows(), Shape::TWELVE.box_cols()), (3, 4));
    }

    #[test]
    fn box_cells_and_box_of_agree() {
        for shape in Shape::ALL {
            let mut seen = vec![0; shape.cells()];
            for b in 0..shape.side() {
                for i in 0..shape.side() {
                    let (r, c) = shape.box_cell(b, i);
                    assert_eq!(shape.box_of(r, c), b, "{shape} box {b}");
                    seen[r * shape.side() + c] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{shape}");
        }
    }

    #[test]
    fn six_by_six_boxes_are_two_rows_tall() {
        let s = Shape::SIX;
        assert_eq!(s.box_of(1, 2), 0);
        assert_eq!(s.box_of(1, 3), 1);
        assert_eq!(s.box_of(2, 0), 2);
        assert_eq!(s.to_string(), "6x6 (boxes 2x3)");
    }

    #[test]
    fn cells_and_digits_are_checked_at_construction() {
        assert_eq!(cell(0, 8).to_string(), "row 1, column 9");
        assert!(Cell::new(24, 24).is_some());
        assert!(Cell::new(25, 0).is_none());
        assert_eq!(Shape::NINE.index_of(cell(4, 4)), Some(40));
        assert_eq!(Shape::NINE.index_of(cell(9, 0)), None);
        assert_eq!(Shape::NINE.cell_at(80), cell(8, 8));
        assert!(Digit::new(0).is_none() && Digit::new(26).is_none());
        assert_eq!(Digit::new(16).unwrap().to_char(), 'G');
        assert_eq!(format!("{:<3}|", Digit::new(7).unwrap()), "7  |");
        assert_eq!(
            Digit::up_to(4).map(Digit::get).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
    }

    #[test]
    fn every_supported_size_parses_and_round_trips_in_both_forms() {
        for shape in Shape::ALL {
            let n = shape.side();
            let mut text = rows(n);
            text[n - 1] = format!("{}{}", ".".repeat(n - 1), char_of(n as u8));
            let grid = Grid::from_rows(&text).unwrap();
            assert_eq!(grid.shape(), shape);
            assert_eq!(grid.get(cell(n - 1, n - 1)).map(Digit::get), Some(n as u8));
            assert_eq!(grid.to_rows(), text);
            assert_eq!(Grid::from_line(&grid.to_line()).unwrap(), grid);
        }
    }

    #[test]
    fn letters_are_case_insensitive_and_zero_is_empty() {
        let mut text = rows(16);
        text[0] = "aG0.............".to_string();
        let grid = Grid::from_rows(&text).unwrap();
        assert_eq!(grid.get(cell(0, 0)), Digit::new(10));
        assert_eq!(grid.get(cell(0, 1)), Digit::new(16));
        assert_eq!(grid.get(cell(0, 2)), None);
        assert_eq!(grid.to_rows()[0], "AG..............");
    }

    #[test]
    fn wrong_counts_and_lengths_say_what_is_accepted() {
        for n in [0, 1, 5, 7, 11, 24, 26] {
            assert_eq!(
                Grid::from_rows(&rows(n)),
                Err(ParseError::RowCount {
                    found: n,
                    expected: &ROW_COUNTS
                })
            );
        }
        assert_eq!(
            Grid::from_rows(&rows(5)).unwrap_err().to_string(),
            "expected 4, 6, 8, 9, 10, 12, 16 or 25 rows, found 5"
        );
        assert_eq!(
            Grid::from_line("123").unwrap_err().to_string(),
            "expected 16, 36, 64, 81, 100, 144, 256 or 625 characters, found 3"
        );
        assert_eq!(Grid::from_line("123").unwrap_err().location(), (None, None));
    }

    #[test]
    fn row_length_is_checked_per_size_in_characters() {
        for shape in Shape::ALL {
            let n = shape.side();
            let mut text = rows(n);
            text[1] = "é".repeat(n - 1); // n - 1 characters, more bytes
            let err = Grid::from_rows(&text).unwrap_err();
            assert_eq!(
                err,
                ParseError::RowLength {
                    row: 2,
                    found: n - 1,
                    expected: n
                }
            );
            assert_eq!(err.location(), (Some(2), None));
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
                ParseError::IllegalChar {
                    row: 3,
                    col: 3,
                    found: 'x',
                    side: n
                }
            );
            assert_eq!(err.location(), (Some(3), Some(3)));
        }
        let mut line = ".".repeat(81);
        line.replace_range(13..14, "x");
        assert_eq!(
            Grid::from_line(&line).unwrap_err().to_string(),
            "row 2, column 5: 'x' is not a digit (1-9) or an empty cell ('.' or '0')"
        );
        let mut text = rows(25);
        text[0] = format!("Q{}", ".".repeat(24));
        assert_eq!(
            Grid::from_rows(&text).unwrap_err().to_string(),
            "row 1, column 1: 'Q' is not a digit (1-9, A-P) or an empty cell ('.' or '0')"
        );
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
                ParseError::DigitTooLarge {
                    row: n,
                    col: n,
                    found: ch,
                    digit,
                    side: n
                }
            );
            assert_eq!(err.location(), (Some(n), Some(n)));
        }
        let err = Grid::from_rows(&["5...", "....", "....", "...."]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 1, column 1: digit 5 ('5') is too large for a 4x4 grid (1-4)"
        );
    }

    #[test]
    fn the_integer_form_takes_zero_or_null_for_empty_and_names_bad_numbers() {
        let rows = vec![
            vec![Some(1), None, Some(0), Some(4)],
            vec![None; 4],
            vec![None; 4],
            vec![None, None, None, Some(2)],
        ];
        let grid = Grid::from_numbers(&rows).unwrap();
        assert_eq!(grid.to_line(), "1..4...........2");
        assert_eq!(grid.to_numbers()[0], vec![1, 0, 0, 4]);
        let mut bad = rows.clone();
        bad[2][1] = Some(5);
        let err = Grid::from_numbers(&bad).unwrap_err();
        assert_eq!(err.location(), (Some(3), Some(2)));
        assert_eq!(
            err.to_string(),
            "row 3, column 2: 5 is not a digit 1-4 or an empty cell (0 or null)"
        );
        bad[2][1] = Some(-1);
        assert!(Grid::from_numbers(&bad).is_err());
        bad[2] = vec![None; 3];
        assert_eq!(
            Grid::from_numbers(&bad),
            Err(ParseError::RowLength {
                row: 3,
                found: 3,
                expected: 4
            })
        );
    }

    #[test]
    fn set_checks_range() {
        let mut grid = Grid::empty(Shape::SIX);
        assert!(grid.set(cell(5, 5), Digit::new(6)).is_ok());
        assert_eq!(grid.given_count(), 1);
        assert_eq!(
            grid.givens().collect::<Vec<_>>(),
            vec![(cell(5, 5), Digit::new(6).unwrap())]
        );
        assert_eq!(
            grid.set(cell(6, 0), Digit::new(1)),
            Err(GridError::OutOfRange {
                cell: cell(6, 0),
                side: 6
            })
        );
        assert_eq!(
            grid.set(cell(0, 0), Digit::new(7)).unwrap_err().to_string(),
            "digit 7 does not fit a 6x6 grid (1-6)"
        );
        assert_eq!(
            GridError::OutOfRange {
                cell: cell(6, 0),
                side: 6
            }
            .to_string(),
            "row 7, column 1 is outside the 6x6 grid"
        );
    }
}
