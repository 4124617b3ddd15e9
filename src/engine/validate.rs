//! Rule checking that does not need the solver: which givens clash, and whether the grid is full.
//!
//! Kept apart from the solver on purpose: a verdict about a player's board must be right even if
//! the search has a bug, and the tests use it to check the solver's answers independently.

use std::fmt;

use super::board::{Board, Digit, Pos, SIZE};

/// The three kinds of unit a digit must not repeat in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UnitKind {
    Row,
    Column,
    Box,
}

impl UnitKind {
    /// Lower-case name, as used in messages and in the JSON API.
    pub const fn name(self) -> &'static str {
        match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        }
    }
}

/// One row, column or box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Unit {
    pub kind: UnitKind,
    /// 0-based; boxes are numbered in reading order.
    pub index: usize,
}

impl Unit {
    /// The nine cells of this unit.
    pub fn cells(self) -> impl Iterator<Item = Pos> {
        let Unit { kind, index } = self;
        (0..SIZE).map(move |i| {
            let (row, col) = match kind {
                UnitKind::Row => (index, i),
                UnitKind::Column => (i, index),
                UnitKind::Box => ((index / 3) * 3 + i / 3, (index % 3) * 3 + i % 3),
            };
            Pos::from_index(row * SIZE + col)
        })
    }

    /// All 27 units: rows, then columns, then boxes.
    pub fn all() -> impl Iterator<Item = Unit> {
        [UnitKind::Row, UnitKind::Column, UnitKind::Box]
            .into_iter()
            .flat_map(|kind| (0..SIZE).map(move |index| Unit { kind, index }))
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.index + 1)
    }
}

/// A digit that appears more than once in one unit, with every cell that holds it there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub unit: Unit,
    pub digit: Digit,
    /// Two or more cells, in reading order.
    pub cells: Vec<Pos>,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_conflict(f, self.digit, self.unit, &self.cells)
    }
}

/// "digit 5 repeats in row 1: row 1, column 2 and row 1, column 7": the one wording of a
/// conflict, shared by the 9x9 [`Conflict`] and the other sizes' conflicts.
pub(crate) fn write_conflict<D: fmt::Display, C: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    digit: D,
    unit: Unit,
    cells: &[C],
) -> fmt::Result {
    write!(f, "digit {digit} repeats in {unit}: ")?;
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            f.write_str(" and ")?;
        }
        write!(f, "{cell}")?;
    }
    Ok(())
}

impl std::error::Error for Conflict {}

/// What the rules say about a board, without solving it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Every repeated digit, by unit (rows, then columns, then boxes).
    pub conflicts: Vec<Conflict>,
    /// No empty cell.
    pub complete: bool,
    /// Complete and without conflicts: a finished, correct grid.
    pub solved: bool,
}

/// Checks every unit of `board` for repeated digits.
pub fn validate(board: &Board) -> Report {
    let conflicts = conflicts(board);
    let complete = board.is_full();
    Report {
        solved: complete && conflicts.is_empty(),
        complete,
        conflicts,
    }
}

/// Every repeated digit in every unit.
pub fn conflicts(board: &Board) -> Vec<Conflict> {
    if !has_conflict(board) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for unit in Unit::all() {
        for digit in Digit::all() {
            let cells: Vec<Pos> = unit
                .cells()
                .filter(|&p| board.get(p) == Some(digit))
                .collect();
            if cells.len() > 1 {
                found.push(Conflict { unit, digit, cells });
            }
        }
    }
    found
}

/// A fast yes/no; the slow, descriptive path runs only after a yes. Per unit it adds up the
/// digits' bits and ORs them: the two differ exactly when some digit repeats. Nothing in the
/// loop depends on an earlier check, so it runs without branches.
fn has_conflict(board: &Board) -> bool {
    let (mut row_sum, mut row_any) = ([0u16; SIZE], [0u16; SIZE]);
    let (mut col_sum, mut col_any) = ([0u16; SIZE], [0u16; SIZE]);
    let (mut box_sum, mut box_any) = ([0u16; SIZE], [0u16; SIZE]);
    for (r, row) in board.raw().chunks_exact(SIZE).enumerate() {
        for (c, &value) in row.iter().enumerate() {
            // Bit 0 stands for an empty cell and never counts.
            let bit = (1u16 << value) & !1;
            let b = r / 3 * 3 + c / 3;
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

/// A board whose givens do not repeat in any unit: the only thing the solver accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle(Board);

impl Puzzle {
    /// Accepts `board` unless two givens clash; the error is the first clash found.
    pub fn new(board: Board) -> Result<Puzzle, Conflict> {
        match conflicts(&board).into_iter().next() {
            Some(conflict) => Err(conflict),
            None => Ok(Puzzle(board)),
        }
    }

    /// The board this puzzle was made from.
    pub fn board(&self) -> &Board {
        &self.0
    }
}

impl TryFrom<Board> for Puzzle {
    type Error = Conflict;

    fn try_from(board: Board) -> Result<Puzzle, Conflict> {
        Puzzle::new(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLVED: &str =
        "957348216134265879268197534729584163483612957615739428392456781871923645546871392";

    fn board(line: &str) -> Board {
        Board::from_line(line).unwrap()
    }

    #[test]
    fn empty_board_is_valid_and_incomplete() {
        let report = validate(&Board::empty());
        assert!(report.conflicts.is_empty());
        assert!(!report.complete && !report.solved);
    }

    #[test]
    fn row_conflict_names_both_cells() {
        let mut line = ".".repeat(81);
        line.replace_range(1..2, "5");
        line.replace_range(6..7, "5");
        let report = validate(&board(&line));
        assert_eq!(report.conflicts.len(), 1);
        let conflict = &report.conflicts[0];
        assert_eq!(conflict.unit.kind, UnitKind::Row);
        assert_eq!(
            conflict.to_string(),
            "digit 5 repeats in row 1: row 1, column 2 and row 1, column 7"
        );
    }

    #[test]
    fn one_pair_can_break_a_column_and_a_box() {
        let mut line = ".".repeat(81);
        line.replace_range(0..1, "3");
        line.replace_range(9..10, "3");
        let report = validate(&board(&line));
        let kinds: Vec<UnitKind> = report.conflicts.iter().map(|c| c.unit.kind).collect();
        assert_eq!(kinds, vec![UnitKind::Column, UnitKind::Box]);
        assert!(Puzzle::new(board(&line)).is_err());
    }

    #[test]
    fn the_quick_check_sees_each_unit_kind_alone() {
        for (kind, second) in [
            (UnitKind::Row, 4),
            (UnitKind::Column, 36),
            (UnitKind::Box, 10),
        ] {
            let mut cells = [b'.'; 81];
            cells[0] = b'7';
            cells[second] = b'7';
            let line = String::from_utf8(cells.to_vec()).unwrap();
            assert!(has_conflict(&board(&line)), "{kind:?}");
            let report = validate(&board(&line));
            let kinds: Vec<UnitKind> = report.conflicts.iter().map(|c| c.unit.kind).collect();
            assert_eq!(kinds, vec![kind]);
        }
        assert!(!has_conflict(&board(SOLVED)));
    }

    #[test]
    fn a_triple_lists_all_three_cells() {
        let mut line = ".".repeat(81);
        for i in [0, 4, 8] {
            line.replace_range(i..i + 1, "7");
        }
        let report = validate(&board(&line));
        assert_eq!(report.conflicts[0].cells.len(), 3);
    }

    #[test]
    fn a_correct_full_grid_is_solved() {
        let report = validate(&board(SOLVED));
        assert!(report.complete && report.solved && report.conflicts.is_empty());
    }

    #[test]
    fn a_full_grid_with_a_swap_is_complete_but_not_solved() {
        let mut line = SOLVED.to_string();
        line.replace_range(0..2, "59");
        let report = validate(&board(&line));
        assert!(report.complete && !report.solved);
        assert!(!report.conflicts.is_empty());
    }

    #[test]
    fn units_cover_each_cell_three_times() {
        let mut seen = [0; 81];
        for unit in Unit::all() {
            for pos in unit.cells() {
                seen[pos.index()] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 3));
    }
}
