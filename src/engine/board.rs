//! The board model: parsing the two exchange formats and printing them back.
//!
//! A [`Board`] is any 9x9 grid of givens and empty cells whose *shape* is right; it may still
//! break the rules (two 5s in a row). That is deliberate: `/validate` must be able to describe a
//! broken board. The solver only accepts a [`Puzzle`](crate::engine::Puzzle), which proves that
//! the givens do not conflict.

use std::fmt;

/// Side length of the grid.
pub const SIZE: usize = 9;
/// Number of cells in the grid.
pub const CELLS: usize = SIZE * SIZE;

/// A digit 1-9. Constructing one out of range is impossible, so code holding a `Digit` never
/// re-checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Digit(u8);

impl Digit {
    /// `Some` for 1-9, `None` otherwise.
    pub const fn new(value: u8) -> Option<Digit> {
        if value >= 1 && value <= 9 {
            Some(Digit(value))
        } else {
            None
        }
    }

    /// The digit's value, 1-9.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Every digit, 1 to 9.
    pub fn all() -> impl Iterator<Item = Digit> {
        (1..=9).map(Digit)
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A cell position, 0-based. Messages for people print it 1-based (see `Display`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    row: u8,
    col: u8,
}

impl Pos {
    /// `Some` when both coordinates are below 9.
    pub const fn new(row: usize, col: usize) -> Option<Pos> {
        if row < SIZE && col < SIZE {
            Some(Pos {
                row: row as u8,
                col: col as u8,
            })
        } else {
            None
        }
    }

    /// The position of cell `index` in reading order (0-80).
    ///
    /// # Panics
    /// When `index >= 81`; callers iterate `0..CELLS`.
    pub const fn from_index(index: usize) -> Pos {
        assert!(index < CELLS);
        Pos {
            row: (index / SIZE) as u8,
            col: (index % SIZE) as u8,
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

    /// 0-based box, numbered in reading order.
    pub const fn box_index(self) -> usize {
        (self.row() / 3) * 3 + self.col() / 3
    }

    /// Index in reading order (0-80).
    pub const fn index(self) -> usize {
        self.row() * SIZE + self.col()
    }

    /// All 81 positions in reading order.
    pub fn all() -> impl Iterator<Item = Pos> {
        (0..CELLS).map(Pos::from_index)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row + 1, self.col + 1)
    }
}

/// Why a text is not a board. Every variant says where (1-based in the message).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The API form had the wrong number of row strings.
    #[error("expected 9 rows, found {found}")]
    RowCount { found: usize },
    /// A row string of the API form had the wrong number of characters (not bytes).
    #[error("row {row} has {found} characters, expected 9")]
    RowLength { row: usize, found: usize },
    /// The one-line form had the wrong number of characters (not bytes).
    #[error("expected 81 characters, found {found}")]
    LineLength { found: usize },
    /// A character that is neither a digit 1-9 nor an empty-cell mark.
    #[error("row {row}, column {col}: {found:?} is not a digit 1-9 or an empty cell ('.' or '0')")]
    IllegalChar { row: usize, col: usize, found: char },
}

impl ParseError {
    /// The 1-based (row, column) the error points at, where it points at one.
    pub fn location(&self) -> (Option<usize>, Option<usize>) {
        match *self {
            ParseError::RowCount { .. } | ParseError::LineLength { .. } => (None, None),
            ParseError::RowLength { row, .. } => (Some(row), None),
            ParseError::IllegalChar { row, col, .. } => (Some(row), Some(col)),
        }
    }
}

/// A 9x9 grid of givens and empty cells with the right shape. It may break the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// 0 for empty, 1-9 for a given. Private so that no other value can get in.
    cells: [u8; CELLS],
}

impl Board {
    /// A board with no givens.
    pub const fn empty() -> Board {
        Board { cells: [0; CELLS] }
    }

    /// Parses the API form: 9 strings of 9 characters, top row first.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, ParseError> {
        if rows.len() != SIZE {
            return Err(ParseError::RowCount { found: rows.len() });
        }
        let mut board = Board::empty();
        for (r, text) in rows.iter().enumerate() {
            let text = text.as_ref();
            let found = text.chars().count();
            if found != SIZE {
                return Err(ParseError::RowLength { row: r + 1, found });
            }
            for (c, ch) in text.chars().enumerate() {
                board.cells[r * SIZE + c] = parse_cell(ch, r, c)?;
            }
        }
        Ok(board)
    }

    /// Parses the one-line community form: 81 characters in reading order.
    pub fn from_line(line: &str) -> Result<Board, ParseError> {
        // Nearly every line is 81 ASCII bytes of `.` and digits: one branch-free pass over
        // the bytes. Anything else takes the character path below, which names the error.
        if let Ok(bytes) = <&[u8; CELLS]>::try_from(line.as_bytes()) {
            let mut cells = [0u8; CELLS];
            let mut invalid = 0u8;
            for (cell, &byte) in cells.iter_mut().zip(bytes) {
                let value = byte.wrapping_sub(b'0');
                let digit = u8::from(value <= 9);
                invalid |= (digit ^ 1) & u8::from(byte != b'.');
                *cell = value & digit.wrapping_neg();
            }
            if invalid == 0 {
                return Ok(Board { cells });
            }
        }
        let found = line.chars().count();
        if found != CELLS {
            return Err(ParseError::LineLength { found });
        }
        let mut board = Board::empty();
        for (i, ch) in line.chars().enumerate() {
            board.cells[i] = parse_cell(ch, i / SIZE, i % SIZE)?;
        }
        Ok(board)
    }

    /// The given at `pos`, if any.
    pub fn get(&self, pos: Pos) -> Option<Digit> {
        Digit::new(self.cells[pos.index()])
    }

    /// Puts `digit` at `pos`, or empties the cell with `None`.
    pub fn set(&mut self, pos: Pos, digit: Option<Digit>) {
        self.cells[pos.index()] = digit.map_or(0, Digit::get);
    }

    /// Every given with its position, in reading order.
    pub fn givens(&self) -> impl Iterator<Item = (Pos, Digit)> + '_ {
        Pos::all().filter_map(|p| self.get(p).map(|d| (p, d)))
    }

    /// Number of givens.
    pub fn given_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The one-line form, `.` for empty cells.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| cell_char(v)).collect()
    }

    /// The API form: 9 strings of 9 characters, `.` for empty cells.
    pub fn to_rows(&self) -> Vec<String> {
        self.cells
            .chunks(SIZE)
            .map(|row| row.iter().map(|&v| cell_char(v)).collect())
            .collect()
    }

    /// Raw cell values (0 = empty) for the engine's own fast paths.
    pub(crate) fn raw(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// Builds a board from raw values the engine produced itself (all in 0-9).
    pub(crate) fn from_raw(cells: [u8; CELLS]) -> Board {
        debug_assert!(cells.iter().all(|&v| v <= 9));
        Board { cells }
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl fmt::Display for Board {
    /// The one-line form, so that boards print the way puzzle files store them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_line())
    }
}

impl std::str::FromStr for Board {
    type Err = ParseError;

    /// The one-line form.
    fn from_str(s: &str) -> Result<Board, ParseError> {
        Board::from_line(s)
    }
}

fn parse_cell(ch: char, row: usize, col: usize) -> Result<u8, ParseError> {
    match ch {
        '.' | '0' => Ok(0),
        '1'..='9' => Ok(ch as u8 - b'0'),
        _ => Err(ParseError::IllegalChar {
            row: row + 1,
            col: col + 1,
            found: ch,
        }),
    }
}

fn cell_char(value: u8) -> char {
    if value == 0 {
        '.'
    } else {
        char::from(b'0' + value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";

    #[test]
    fn line_and_rows_round_trip() {
        let board = Board::from_line(LINE).unwrap();
        assert_eq!(board.to_line(), LINE);
        let rows = board.to_rows();
        assert_eq!(rows.len(), 9);
        assert_eq!(rows[0], "9.7.....6");
        assert_eq!(Board::from_rows(&rows).unwrap(), board);
    }

    #[test]
    fn zero_is_an_empty_cell() {
        let zeros = LINE.replace('.', "0");
        assert_eq!(Board::from_line(&zeros).unwrap().to_line(), LINE);
    }

    #[test]
    fn wrong_row_count_is_reported() {
        let rows = vec!["........."; 8];
        assert_eq!(
            Board::from_rows(&rows),
            Err(ParseError::RowCount { found: 8 })
        );
    }

    #[test]
    fn row_length_counts_characters_not_bytes() {
        let mut rows = vec![".........".to_string(); 9];
        rows[3] = "１........".to_string(); // a full-width digit: 9 chars, 11 bytes
        assert_eq!(
            Board::from_rows(&rows),
            Err(ParseError::IllegalChar {
                row: 4,
                col: 1,
                found: '１'
            })
        );
        rows[3] = "１.......".to_string();
        assert_eq!(
            Board::from_rows(&rows),
            Err(ParseError::RowLength { row: 4, found: 8 })
        );
    }

    #[test]
    fn illegal_character_names_its_cell() {
        let mut line = LINE.to_string();
        line.replace_range(13..14, "x");
        let err = Board::from_line(&line).unwrap_err();
        assert_eq!(
            err,
            ParseError::IllegalChar {
                row: 2,
                col: 5,
                found: 'x'
            }
        );
        assert_eq!(
            err.to_string(),
            "row 2, column 5: 'x' is not a digit 1-9 or an empty cell ('.' or '0')"
        );
    }

    #[test]
    fn every_other_ascii_character_is_illegal() {
        for byte in (0u8..128).filter(|&b| b != b'.' && !b.is_ascii_digit()) {
            let mut line = LINE.as_bytes().to_vec();
            line[40] = byte;
            let line = String::from_utf8(line).unwrap();
            assert_eq!(
                Board::from_line(&line),
                Err(ParseError::IllegalChar {
                    row: 5,
                    col: 5,
                    found: char::from(byte)
                }),
                "byte {byte}"
            );
        }
    }

    #[test]
    fn line_length_is_checked() {
        assert_eq!(
            Board::from_line("123"),
            Err(ParseError::LineLength { found: 3 })
        );
    }

    #[test]
    fn positions_print_one_based() {
        assert_eq!(Pos::new(0, 8).unwrap().to_string(), "row 1, column 9");
        assert_eq!(Pos::new(4, 4).unwrap().box_index(), 4);
        assert!(Pos::new(9, 0).is_none());
    }
}
