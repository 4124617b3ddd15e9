//! The classic 9x9 board as the fast engines see it: [`Board`], a fixed array of 81 cells, and
//! [`ClassicPuzzle`], a board whose givens do not clash.
//!
//! The facade ([`Puzzle`](crate::engine::Puzzle), [`Grid`]) serves every size; the band solver,
//! the human-technique logic and the generator work on this compact copy instead (no
//! allocation, `Copy`, indexable by a cell's reading-order index), and the facade converts at
//! its edge. The classic-only tools (the batch CLI) parse straight into it.

use std::fmt;

use crate::engine::model::grid::{
    char_of, parse_line_into, parse_nine_line, parse_rows_into, Cell, Digit, Grid, ParseError,
    Shape,
};
use crate::engine::model::rules::Rules;
use crate::engine::model::validate::{conflicts, Conflict};

/// Side length of the grid.
pub const SIZE: usize = 9;
/// Number of cells in the grid.
pub const CELLS: usize = SIZE * SIZE;

/// The 6 orders of three things (bands, stacks, the lines of a band or the cells of a box's
/// row), in lexicographic order.
pub(crate) const ORDERS_OF_THREE: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// How a cell is addressed on the classic board: by its index in reading order (0-80), and
/// its box (0-8). Only for cells of a 9x9 board, which is all the classic engines ever make.
impl Cell {
    /// The cell at classic index `index` (0-80).
    ///
    /// # Panics
    /// When `index >= 81`; callers iterate `0..CELLS`.
    pub(crate) const fn from_index(index: usize) -> Cell {
        assert!(index < CELLS);
        Cell::at(index / SIZE, index % SIZE)
    }

    /// Index in reading order on the 9x9 board (0-80).
    pub(crate) const fn index(self) -> usize {
        debug_assert!(self.row() < SIZE && self.col() < SIZE);
        self.row() * SIZE + self.col()
    }

    /// 0-based box on the 9x9 board, numbered in reading order.
    pub(crate) const fn box_index(self) -> usize {
        (self.row() / 3) * 3 + self.col() / 3
    }

    /// All 81 cells of the 9x9 board in reading order.
    pub(crate) fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS).map(Cell::from_index)
    }
}

/// The classic digits, 1-9.
#[cfg(test)]
pub(crate) fn classic_digits() -> impl Iterator<Item = Digit> {
    Digit::up_to(SIZE)
}

/// A 9x9 grid of givens and empty cells. It may break the rules.
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

    /// Parses 9 strings of 9 characters, top row first.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, ParseError> {
        if rows.len() != SIZE {
            return Err(ParseError::RowCount {
                found: rows.len(),
                expected: &[SIZE],
            });
        }
        let mut board = Board::empty();
        parse_rows_into(rows, SIZE, &mut board.cells)?;
        Ok(board)
    }

    /// Parses the one-line community form: 81 characters in reading order.
    pub fn from_line(line: &str) -> Result<Board, ParseError> {
        // Nearly every line is 81 ASCII bytes of `.` and digits: one branch-free pass over
        // the bytes. Anything else takes the character path below, which names the error.
        if let Some(cells) = <&[u8; CELLS]>::try_from(line.as_bytes())
            .ok()
            .and_then(parse_nine_line)
        {
            return Ok(Board { cells });
        }
        let found = line.chars().count();
        if found != CELLS {
            return Err(ParseError::LineLength {
                found,
                expected: &[CELLS],
            });
        }
        let mut board = Board::empty();
        parse_line_into(line, SIZE, &mut board.cells)?;
        Ok(board)
    }

    /// The classic copy of a 9x9 grid; `None` for other sizes.
    pub fn from_grid(grid: &Grid) -> Option<Board> {
        let cells: &[u8; CELLS] = grid.raw().try_into().ok()?;
        (grid.shape() == Shape::NINE).then_some(Board { cells: *cells })
    }

    /// The same board as a [`Grid`].
    pub fn to_grid(&self) -> Grid {
        Grid::from_raw(Shape::NINE, self.cells.to_vec())
    }

    /// The given at `cell`, if any.
    pub fn get(&self, cell: Cell) -> Option<Digit> {
        Digit::new(self.cells[cell.index()])
    }

    /// Puts `digit` (1-9) at `cell`, or empties the cell with `None`.
    pub fn set(&mut self, cell: Cell, digit: Option<Digit>) {
        debug_assert!(digit.is_none_or(|d| usize::from(d.get()) <= SIZE));
        self.cells[cell.index()] = digit.map_or(0, Digit::get);
    }

    /// Every given with its cell, in reading order.
    pub fn givens(&self) -> impl Iterator<Item = (Cell, Digit)> + '_ {
        Cell::all().filter_map(|p| self.get(p).map(|d| (p, d)))
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
        self.cells.iter().map(|&v| char_of(v)).collect()
    }

    /// Nine strings of nine characters, `.` for empty cells.
    pub fn to_rows(&self) -> Vec<String> {
        self.cells
            .chunks(SIZE)
            .map(|row| row.iter().map(|&v| char_of(v)).collect())
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

/// Every repeated digit of a classic board, by unit (rows, columns, boxes).
pub fn classic_conflicts(board: &Board) -> Vec<Conflict> {
    if !has_conflict(board) {
        return Vec::new();
    }
    conflicts(&board.to_grid(), &Rules::classic(Shape::NINE))
}

/// A fast yes/no; the descriptive path runs only after a yes. Per unit it adds up the digits'
/// bits and ORs them: the two differ exactly when some digit repeats. Nothing in the loop
/// depends on an earlier check, so it runs without branches.
fn has_conflict(board: &Board) -> bool {
    let (mut row_sum, mut row_any) = ([0u16; SIZE], [0u16; SIZE]);
    let (mut col_sum, mut col_any) = ([0u16; SIZE], [0u16; SIZE]);
    let (mut box_sum, mut box_any) = ([0u16; SIZE], [0u16; SIZE]);
    for (r, row) in board.cells.chunks_exact(SIZE).enumerate() {
        for (c, &value) in row.iter().enumerate() {
            // Bit 0 stands for an empty cell and never counts.
            let bit = (1u16 << value) & !1;
            let b = Cell::at(r, c).box_index();
            row_sum[r] += bit;
            row_any[r] |= bit;
            col_sum[c] += bit;
            col_any[c] |= bit;
            box_sum[b] += bit;
            box_any[b] |= bit;
        }
    }
    row_sum != row_any || col_sum != col_any || box_sum != box_any
}

/// A classic board whose givens do not repeat in any unit: what the band solver, the logic
/// and the generator accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClassicPuzzle(Board);

impl ClassicPuzzle {
    /// Accepts `board` unless two givens clash; the error is the first clash found.
    pub fn new(board: Board) -> Result<ClassicPuzzle, Conflict> {
        match classic_conflicts(&board).into_iter().next() {
            Some(conflict) => Err(conflict),
            None => Ok(ClassicPuzzle(board)),
        }
    }

    /// The board this puzzle was made from.
    pub fn board(&self) -> &Board {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::boxes::BOX;
    use crate::engine::model::constraints::lines::{COLUMN, ROW};

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
        assert_eq!(Board::from_grid(&board.to_grid()), Some(board));
        assert_eq!(board.to_grid(), Grid::from_line(LINE).unwrap());
    }

    #[test]
    fn zero_is_an_empty_cell() {
        let zeros = LINE.replace('.', "0");
        assert_eq!(Board::from_line(&zeros).unwrap().to_line(), LINE);
    }

    #[test]
    fn the_classic_parsers_say_they_want_nine() {
        let rows = vec!["........."; 8];
        assert_eq!(
            Board::from_rows(&rows).unwrap_err().to_string(),
            "expected 9 rows, found 8"
        );
        assert_eq!(
            Board::from_line("123").unwrap_err().to_string(),
            "expected 81 characters, found 3"
        );
        let other_size = Grid::from_line(&".".repeat(16)).unwrap();
        assert_eq!(Board::from_grid(&other_size), None);
    }

    #[test]
    fn row_length_counts_characters_not_bytes() {
        let mut rows = vec![".........".to_string(); 9];
        rows[3] = "１........".to_string(); // a full-width digit: 9 chars, 11 bytes
        assert_eq!(
            Board::from_rows(&rows).unwrap_err().location(),
            (Some(4), Some(1))
        );
        rows[3] = "１.......".to_string();
        assert_eq!(
            Board::from_rows(&rows),
            Err(ParseError::RowLength {
                row: 4,
                found: 8,
                expected: 9
            })
        );
    }

    #[test]
    fn illegal_character_names_its_cell() {
        let mut line = LINE.to_string();
        line.replace_range(13..14, "x");
        let err = Board::from_line(&line).unwrap_err();
        assert_eq!(err.location(), (Some(2), Some(5)));
        assert_eq!(
            err.to_string(),
            "row 2, column 5: 'x' is not a digit (1-9) or an empty cell ('.' or '0')"
        );
        let mut line = LINE.to_string();
        line.replace_range(0..1, "A");
        assert!(matches!(
            Board::from_line(&line),
            Err(ParseError::DigitTooLarge { digit: 10, .. })
        ));
    }

    #[test]
    fn the_byte_pass_refuses_what_the_character_path_refuses() {
        for byte in (0u8..128).filter(|&b| b != b'.' && !b.is_ascii_digit()) {
            let mut line = LINE.as_bytes().to_vec();
            line[40] = byte;
            let line = String::from_utf8(line).unwrap();
            let mut slow = Board::empty();
            let expected = parse_line_into(&line, SIZE, &mut slow.cells).map(|()| slow);
            assert!(expected.is_err(), "byte {byte}");
            assert_eq!(Board::from_line(&line), expected, "byte {byte}");
        }
    }

    #[test]
    fn the_quick_check_sees_each_unit_kind_alone() {
        use crate::engine::model::validate::UnitKind;
        for (kind, second) in [(ROW, 4), (COLUMN, 36), (BOX, 10)] {
            let mut cells = [b'.'; CELLS];
            cells[0] = b'7';
            cells[second] = b'7';
            let board = Board::from_line(std::str::from_utf8(&cells).unwrap()).unwrap();
            assert!(has_conflict(&board), "{kind:?}");
            let kinds: Vec<UnitKind> = classic_conflicts(&board)
                .iter()
                .map(|c| c.unit.kind)
                .collect();
            assert_eq!(kinds, vec![kind]);
        }
        assert!(!has_conflict(
            &Board::from_line(&LINE.replace('.', "0")).unwrap()
        ));
    }

    #[test]
    fn classic_cells_index_and_box() {
        let cell = Cell::new(4, 4).unwrap();
        assert_eq!(cell.index(), 40);
        assert_eq!(cell.box_index(), 4);
        assert_eq!(Cell::from_index(80), Cell::new(8, 8).unwrap());
        assert_eq!(Cell::all().count(), CELLS);
    }

    #[test]
    fn clashing_givens_are_refused_with_the_first_clash() {
        let mut line = ".".repeat(81);
        line.replace_range(0..1, "3");
        line.replace_range(9..10, "3");
        let board = Board::from_line(&line).unwrap();
        assert_eq!(classic_conflicts(&board).len(), 2);
        let clash = ClassicPuzzle::new(board).unwrap_err();
        assert_eq!(
            clash.to_string(),
            "digit 3 repeats in column 1: row 1, column 1 and row 2, column 1"
        );
        assert!(ClassicPuzzle::new(Board::from_line(LINE).unwrap()).is_ok());
    }
}
