//! Pencil marks: which digits are still possible in each empty cell.
//!
//! A mark is one bit of a `u16` (bit `d - 1` for digit `d`). The geometry tables (units, peers)
//! are computed at compile time so that the techniques can scan by index without allocating.

use std::fmt;

#[cfg(test)]
use crate::engine::board::classic_digits;
use crate::engine::board::{Board, CELLS, SIZE};
#[cfg(test)]
use crate::engine::grid::Shape;
use crate::engine::grid::{Cell, Digit};
use crate::engine::validate::{Unit, UnitKind};

use super::Step;

/// All nine digits as a mask.
pub(crate) const ALL_DIGITS: u16 = 0x1FF;

/// The mask bit of `digit`.
pub(crate) const fn bit(digit: Digit) -> u16 {
    1 << (digit.get() - 1)
}

/// The digits of a mask, smallest first.
pub(crate) fn digits_of(mask: u16) -> impl Iterator<Item = Digit> {
    (0..9u8)
        .filter(move |i| mask & (1 << i) != 0)
        .filter_map(|i| Digit::new(i + 1))
}

/// The subsets of the 9-bit set `of` with exactly `size` members, in ascending numeric order.
pub(crate) fn subsets(of: u16, size: u32) -> impl Iterator<Item = u16> {
    (1..=ALL_DIGITS).filter(move |s| s & !of == 0 && s.count_ones() == size)
}

/// `UNIT_CELLS[k]`: the cell indices of unit `k`, in the order of [`Unit::all`] (rows, columns,
/// boxes), each unit in the order of [`Unit::cells`].
pub(crate) const UNIT_CELLS: [[u8; SIZE]; 27] = unit_cells();

/// `PEERS[i]`: the 20 other cells that share a row, column or box with cell `i`.
pub(crate) const PEERS: [[u8; 20]; CELLS] = peers();

const fn unit_cells() -> [[u8; SIZE]; 27] {
    let mut units = [[0u8; SIZE]; 27];
    let mut k = 0;
    while k < SIZE {
        let mut i = 0;
        while i < SIZE {
            units[k][i] = (k * SIZE + i) as u8;
            units[SIZE + k][i] = (i * SIZE + k) as u8;
            let row = (k / 3) * 3 + i / 3;
            let col = (k % 3) * 3 + i % 3;
            units[2 * SIZE + k][i] = (row * SIZE + col) as u8;
            i += 1;
        }
        k += 1;
    }
    units
}

const fn sees_index(a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / SIZE, a % SIZE, b / SIZE, b % SIZE);
    a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
}

const fn peers() -> [[u8; 20]; CELLS] {
    let mut peers = [[0u8; 20]; CELLS];
    let mut a = 0;
    while a < CELLS {
        let mut n = 0;
        let mut b = 0;
        while b < CELLS {
            if sees_index(a, b) {
                peers[a][n] = b as u8;
                n += 1;
            }
            b += 1;
        }
        a += 1;
    }
    peers
}

/// True when two different cells share a row, column or box.
pub(crate) fn sees(a: Cell, b: Cell) -> bool {
    sees_index(a.index(), b.index())
}

/// The unit with table index `k` (0-26, the order of [`UNIT_CELLS`]).
pub(crate) fn unit(k: usize) -> Unit {
    let kind = match k / SIZE {
        0 => UnitKind::Row,
        1 => UnitKind::Column,
        _ => UnitKind::Box,
    };
    Unit {
        kind,
        index: k % SIZE,
    }
}

/// The table index of `unit` (inverse of [`unit`]).
pub(crate) fn unit_index(unit: Unit) -> usize {
    let base = match unit.kind {
        UnitKind::Row => 0,
        UnitKind::Column => SIZE,
        UnitKind::Box => 2 * SIZE,
        // The classic tables hold rows, columns and boxes; units come from `unit(k)`.
        _ => unreachable!("the classic unit tables hold rows, columns and boxes only"),
    };
    base + unit.index % SIZE
}

/// The grid's filled cells plus the pencil marks of its empty cells.
///
/// Invariant (kept by every method): a filled cell has no marks, so "has candidate d" never
/// needs a separate "and is empty" check. An empty cell with no marks is a contradiction, which
/// [`Candidates::has_contradiction`] reports; nothing here panics on one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Candidates {
    board: Board,
    marks: [u16; CELLS],
}

impl Candidates {
    /// The marks left after the basic eliminations: every filled cell removes its digit from
    /// its row, column and box. A board that breaks the rules is accepted; its clashing cells
    /// simply leave some peers without marks.
    pub fn new(board: &Board) -> Candidates {
        let mut marks = [ALL_DIGITS; CELLS];
        for (pos, _) in board.givens() {
            marks[pos.index()] = 0;
        }
        for (pos, digit) in board.givens() {
            for &peer in &PEERS[pos.index()] {
                marks[peer as usize] &= !bit(digit);
            }
        }
        Candidates {
            board: *board,
            marks,
        }
    }

    /// The filled cells.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The digit in `pos`, if the cell is filled.
    pub fn value(&self, pos: Cell) -> Option<Digit> {
        self.board.get(pos)
    }

    /// True when `pos` holds a digit.
    pub fn is_filled(&self, pos: Cell) -> bool {
        self.board.get(pos).is_some()
    }

    /// The candidates of `pos`, smallest first; empty for a filled cell.
    pub fn digits(&self, pos: Cell) -> Vec<Digit> {
        digits_of(self.marks[pos.index()]).collect()
    }

    /// True when `digit` is still a candidate of `pos` (never for a filled cell).
    pub fn contains(&self, pos: Cell, digit: Digit) -> bool {
        self.marks[pos.index()] & bit(digit) != 0
    }

    /// How many candidates `pos` has (0 for a filled cell).
    pub fn count(&self, pos: Cell) -> u32 {
        self.marks[pos.index()].count_ones()
    }

    /// True when every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.board.is_full()
    }

    /// True when the position cannot be completed: an empty cell has no candidate, a digit
    /// is placed twice in a unit, or a digit missing from a unit has no cell left there.
    /// Sound techniques never cause this on a solvable grid, so it means the grid was already
    /// wrong.
    pub fn has_contradiction(&self) -> bool {
        let empty_without_marks = Cell::all().any(|p| !self.is_filled(p) && self.count(p) == 0);
        empty_without_marks
            || (0..27).any(|k| {
                let (mut seen, mut placed, mut repeated) = (0u16, 0u16, 0u16);
                for &i in &UNIT_CELLS[k] {
                    let i = i as usize;
                    let digit = self.board.get(Cell::from_index(i)).map_or(0, bit);
                    repeated |= placed & digit;
                    placed |= digit;
                    seen |= self.marks[i] | digit;
                }
                repeated != 0 || seen != ALL_DIGITS
            })
    }

    /// Applies a step: places its digits (taking each from its peers' marks) and removes its
    /// eliminations. Any step is accepted: placing into a filled cell or removing a mark that
    /// is not there changes nothing, so a stale step cannot corrupt the invariant.
    pub fn apply(&mut self, step: &Step) {
        for &(pos, digit) in &step.placements {
            self.place(pos, digit);
        }
        for &(pos, digit) in &step.eliminations {
            self.eliminate(pos, digit);
        }
    }

    /// Fills an empty cell and removes `digit` from its peers.
    pub fn place(&mut self, pos: Cell, digit: Digit) {
        if self.is_filled(pos) {
            return;
        }
        self.board.set(pos, Some(digit));
        self.marks[pos.index()] = 0;
        for &peer in &PEERS[pos.index()] {
            self.marks[peer as usize] &= !bit(digit);
        }
    }

    /// Removes one pencil mark.
    pub fn eliminate(&mut self, pos: Cell, digit: Digit) {
        self.marks[pos.index()] &= !bit(digit);
    }

    /// The raw mark mask of cell `i` (bit `d - 1` for digit `d`).
    pub(crate) fn mask(&self, i: usize) -> u16 {
        self.marks[i]
    }

    /// Bit `j` set when the `j`-th cell of unit `k` has `digit` as a candidate.
    pub(crate) fn places(&self, k: usize, digit: Digit) -> u16 {
        let b = bit(digit);
        let mut places = 0u16;
        for (j, &i) in UNIT_CELLS[k].iter().enumerate() {
            if self.marks[i as usize] & b != 0 {
                places |= 1 << j;
            }
        }
        places
    }

    /// The digits already placed in unit `k`.
    pub(crate) fn placed_in(&self, k: usize) -> u16 {
        UNIT_CELLS[k]
            .iter()
            .filter_map(|&i| self.board.get(Cell::from_index(i as usize)))
            .fold(0, |acc, d| acc | bit(d))
    }

    /// Sets the marks of an empty cell to exactly `digits`; for building test positions.
    #[cfg(test)]
    pub(crate) fn restrict(&mut self, pos: Cell, digits: &[u8]) {
        if !self.is_filled(pos) {
            self.marks[pos.index()] = digits
                .iter()
                .filter_map(|&d| Digit::new(d))
                .fold(0, |acc, d| acc | bit(d));
        }
    }
}

impl fmt::Debug for Candidates {
    /// One line per row, each cell as its digit or its marks in braces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..SIZE {
            for col in 0..SIZE {
                let pos = Cell::from_index(row * SIZE + col);
                match self.value(pos) {
                    Some(d) => write!(f, "{d:<10}")?,
                    None => {
                        let marks: String =
                            self.digits(pos).iter().map(|d| d.to_string()).collect();
                        write!(f, "{{{marks}}}{:pad$}", "", pad = 8 - marks.len().min(8))?;
                    }
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_units_and_peers() {
        for (k, cells) in UNIT_CELLS.iter().enumerate() {
            let expected: Vec<usize> = unit(k).cells_in(Shape::NINE).map(Cell::index).collect();
            let got: Vec<usize> = cells.iter().map(|&i| i as usize).collect();
            assert_eq!(got, expected);
            assert_eq!(unit_index(unit(k)), k);
        }
        for (a, peers) in PEERS.iter().enumerate() {
            assert!(peers.iter().all(|&b| sees_index(a, b as usize)));
            let count = (0..CELLS).filter(|&b| sees_index(a, b)).count();
            assert_eq!(count, 20);
        }
    }

    #[test]
    fn basic_eliminations_remove_peers_digits() {
        let mut line = ".".repeat(81);
        line.replace_range(0..1, "5");
        let c = Candidates::new(&Board::from_line(&line).unwrap());
        let five = Digit::new(5).unwrap();
        let p = |r, c| Cell::new(r, c).unwrap();
        assert!(c.is_filled(p(0, 0)));
        assert!(c.digits(p(0, 0)).is_empty());
        assert!(!c.contains(p(0, 8), five));
        assert!(!c.contains(p(8, 0), five));
        assert!(!c.contains(p(2, 2), five));
        assert!(c.contains(p(3, 3), five));
        assert_eq!(c.count(p(4, 4)), 9);
        assert!(!c.has_contradiction());
    }

    #[test]
    fn placing_updates_peers_and_ignores_filled_cells() {
        let mut c = Candidates::new(&Board::empty());
        let p = Cell::new(4, 4).unwrap();
        let d = Digit::new(3).unwrap();
        c.place(p, d);
        assert_eq!(c.value(p), Some(d));
        assert!(!c.contains(Cell::new(4, 0).unwrap(), d));
        c.place(p, Digit::new(4).unwrap());
        assert_eq!(c.value(p), Some(d));
    }

    #[test]
    fn clashing_board_is_a_contradiction_not_a_panic() {
        let mut line = ".".repeat(81);
        line.replace_range(0..2, "55");
        let c = Candidates::new(&Board::from_line(&line).unwrap());
        // Row 1 has two 5s, yet every unit still shows every digit somewhere and no empty
        // cell is out of marks: only the repeat itself gives the contradiction away.
        assert!(Cell::all().all(|p| c.is_filled(p) || c.count(p) > 0));
        assert!(c.has_contradiction());
        let text = format!("{c:?}");
        assert!(text.starts_with("5         5         {"), "{text}");
    }

    #[test]
    fn a_digit_with_no_place_left_in_a_unit_is_a_contradiction() {
        let mut c = Candidates::new(&Board::empty());
        assert!(!c.has_contradiction());
        let three = Digit::new(3).unwrap();
        for col in 0..SIZE {
            c.eliminate(Cell::new(4, col).unwrap(), three);
        }
        assert!(c.has_contradiction());
    }

    #[test]
    fn an_empty_cell_without_marks_is_a_contradiction() {
        let mut c = Candidates::new(&Board::empty());
        let pos = Cell::new(2, 7).unwrap();
        for digit in classic_digits() {
            c.eliminate(pos, digit);
        }
        assert_eq!(c.count(pos), 0);
        assert!(c.has_contradiction());
    }
}
