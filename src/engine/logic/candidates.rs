//! Pencil marks: which digits are still possible in each empty cell.
//!
//! A mark is one bit of a `u16` (bit `d - 1` for digit `d`). The same marks are also kept the
//! other way round, as the set of cells where each digit can still go, because most
//! techniques ask about one digit across many cells; both views are updated together.

use std::fmt;

use crate::engine::model::board::{Board, CELLS, SIZE};
use crate::engine::model::grid::{Cell, Digit};

use super::cellset::CellSet;
use super::geometry::Geometry;
use super::Step;

/// All nine digits as a mask.
pub(crate) const ALL_DIGITS: u16 = 0x1FF;

/// The mask bit of `digit`.
pub(crate) const fn bit(digit: Digit) -> u16 {
    1 << (digit.get() - 1)
}

/// The digit with 0-based index `d` (0-8).
pub(crate) fn digit(d: usize) -> Digit {
    Digit::new(d as u8 + 1).expect("digit index below 9")
}

/// The digits of a mask, smallest first.
pub(crate) fn digits_of(mask: u16) -> impl Iterator<Item = Digit> {
    (0..9u8)
        .filter(move |i| mask & (1 << i) != 0)
        .filter_map(|i| Digit::new(i + 1))
}

/// The 0-based digit indices of a mask, smallest first.
pub(crate) fn indices_of(mask: u16) -> impl Iterator<Item = usize> {
    (0..9).filter(move |i| mask >> i & 1 != 0)
}

/// The subsets of the 9-bit set `of` with exactly `size` members, in ascending numeric order
/// (the order SE enumerates digit and cell sets in).
pub(crate) fn subsets(of: u16, size: u32) -> impl Iterator<Item = u16> {
    let bits: Vec<u16> = (0..9)
        .filter(|i| of >> i & 1 != 0)
        .map(|i| 1 << i)
        .collect();
    let n = bits.len() as u32;
    // Gosper's hack over the positions of `of`'s bits, which keeps the numeric order.
    let mut next = (size <= n && size > 0).then(|| (1u32 << size) - 1);
    std::iter::from_fn(move || {
        let current = next?;
        let smallest = current & current.wrapping_neg();
        let ripple = current + smallest;
        let following = (((current ^ ripple) >> 2) / smallest) | ripple;
        next = (following < 1 << n).then_some(following);
        Some(
            (0..n)
                .filter(|i| current >> i & 1 != 0)
                .fold(0u16, |acc, i| acc | bits[i as usize]),
        )
    })
}

/// The grid's filled cells plus the pencil marks of its empty cells.
///
/// Invariant (kept by every method): a filled cell has no marks, so "has candidate d" never
/// needs a separate "and is empty" check. An empty cell with no marks is a contradiction, which
/// [`Candidates::has_contradiction`] reports; nothing here panics on one.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Candidates<'g> {
    board: Board,
    marks: [u16; CELLS],
    /// `cells_with[d]`: the empty cells that still have digit `d + 1`.
    cells_with: [CellSet; SIZE],
    geometry: &'g Geometry,
}

impl Candidates<'static> {
    /// The marks of a classic board left after the basic eliminations: every filled cell
    /// removes its digit from its row, column and box. A board that breaks the rules is
    /// accepted; its clashing cells simply leave some peers without marks.
    pub fn new(board: &Board) -> Candidates<'static> {
        Candidates::with_geometry(board, Geometry::classic())
    }
}

impl<'g> Candidates<'g> {
    /// The marks of `board` under the houses and cages of `geometry` after the basic
    /// eliminations (every filled cell removes its digit from its peers). Cage sums are not
    /// applied here: they are the cage techniques' steps, so a hint can explain them.
    pub fn with_geometry(board: &Board, geometry: &'g Geometry) -> Candidates<'g> {
        let mut marks = [ALL_DIGITS; CELLS];
        for (pos, _) in board.givens() {
            marks[pos.index()] = 0;
        }
        for (pos, digit) in board.givens() {
            for peer in geometry.peers(pos.index()).iter() {
                marks[peer] &= !bit(digit);
            }
        }
        let mut cells_with = [CellSet::EMPTY; SIZE];
        for (i, &mask) in marks.iter().enumerate() {
            for d in indices_of(mask) {
                cells_with[d].insert(i);
            }
        }
        Candidates {
            board: *board,
            marks,
            cells_with,
            geometry,
        }
    }

    /// The same filled cells with other pencil marks (for reasoning on a changed copy).
    pub(crate) fn with_marks(&self, marks: &[u16; CELLS]) -> Candidates<'g> {
        let mut cells_with = [CellSet::EMPTY; SIZE];
        for (i, &mask) in marks.iter().enumerate() {
            for d in indices_of(mask) {
                cells_with[d].insert(i);
            }
        }
        Candidates {
            board: self.board,
            marks: *marks,
            cells_with,
            geometry: self.geometry,
        }
    }

    /// The units and peers these marks live in.
    pub fn geometry(&self) -> &'g Geometry {
        self.geometry
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
    /// is placed twice in a house or cage, a digit missing from a house has no cell left
    /// there, or a cage's digits exceed (or, filled, miss) its sum.
    /// Sound techniques never cause this on a solvable grid, so it means the grid was already
    /// wrong.
    pub fn has_contradiction(&self) -> bool {
        // The grader asks after every step, so this reads the raw cells: each cell's given
        // or placed digit as a bit (none for an empty cell), beside its marks.
        let raw = self.board.raw();
        let placed_bit = |i: usize| (1u16 << raw[i]) >> 1;
        let empty_without_marks = (0..CELLS).any(|i| raw[i] == 0 && self.marks[i] == 0);
        empty_without_marks
            || (0..self.geometry.unit_count()).any(|k| {
                let (mut seen, mut placed, mut repeated) = (0u16, 0u16, 0u16);
                for &i in self.geometry.cells_of(k) {
                    let i = i as usize;
                    let digit = placed_bit(i);
                    repeated |= placed & digit;
                    placed |= digit;
                    seen |= self.marks[i] | digit;
                }
                repeated != 0 || seen != ALL_DIGITS
            })
            || self.geometry.cages().iter().any(|cage| {
                let (mut placed, mut repeated, mut sum, mut filled) = (0u16, 0u16, 0, true);
                for i in cage.cells.iter() {
                    match self.board.get(Cell::from_index(i)) {
                        Some(digit) => {
                            repeated |= placed & bit(digit);
                            placed |= bit(digit);
                            sum += u32::from(digit.get());
                        }
                        None => filled = false,
                    }
                }
                repeated != 0 || sum > cage.sum || (filled && sum != cage.sum)
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
        let i = pos.index();
        self.board.set(pos, Some(digit));
        for d in indices_of(self.marks[i]) {
            self.cells_with[d].remove(i);
        }
        self.marks[i] = 0;
        let d = usize::from(digit.get() - 1);
        for peer in (self.geometry.peers(i) & self.cells_with[d]).iter() {
            self.marks[peer] &= !bit(digit);
        }
        self.cells_with[d] = self.cells_with[d] - self.geometry.peers(i);
    }

    /// Removes one pencil mark.
    pub fn eliminate(&mut self, pos: Cell, digit: Digit) {
        self.marks[pos.index()] &= !bit(digit);
        self.cells_with[usize::from(digit.get() - 1)].remove(pos.index());
    }

    /// The empty cells where the digit with 0-based index `d` can still go.
    pub(crate) fn cells_with(&self, d: usize) -> CellSet {
        self.cells_with[d]
    }

    /// The cells of unit `k` where digit index `d` can still go.
    pub(crate) fn places_in(&self, k: usize, d: usize) -> CellSet {
        self.cells_with[d] & self.geometry.set_of(k)
    }

    /// How many cells of unit `k` are still empty.
    pub(crate) fn empty_in(&self, k: usize) -> u32 {
        let raw = self.board.raw();
        self.geometry
            .cells_of(k)
            .iter()
            .filter(|&&i| raw[usize::from(i)] == 0)
            .count() as u32
    }

    /// The raw mark mask of cell `i` (bit `d - 1` for digit `d`).
    pub(crate) fn mask(&self, i: usize) -> u16 {
        self.marks[i]
    }

    /// Bit `j` set when the `j`-th cell of unit `k` has digit index `d` as a candidate.
    pub(crate) fn places(&self, k: usize, d: usize) -> u16 {
        let mut places = 0u16;
        for (j, &i) in self.geometry.cells_of(k).iter().enumerate() {
            if self.marks[i as usize] >> d & 1 != 0 {
                places |= 1 << j;
            }
        }
        places
    }

    /// How many times the digit with index `d` is placed on the grid.
    pub(crate) fn placed_count(&self, d: usize) -> u32 {
        self.board
            .givens()
            .filter(|(_, x)| usize::from(x.get() - 1) == d)
            .count() as u32
    }

    /// Sets the marks of an empty cell to exactly `digits`; for building test positions.
    #[cfg(test)]
    pub(crate) fn restrict(&mut self, pos: Cell, digits: &[u8]) {
        if !self.is_filled(pos) {
            let i = pos.index();
            for d in indices_of(self.marks[i]) {
                self.cells_with[d].remove(i);
            }
            self.marks[i] = digits
                .iter()
                .filter_map(|&d| Digit::new(d))
                .fold(0, |acc, d| acc | bit(d));
            for d in indices_of(self.marks[i]) {
                self.cells_with[d].insert(i);
            }
        }
    }
}

impl fmt::Debug for Candidates<'_> {
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
    fn basic_eliminations_remove_peers_digits() {
        let mut line = ".".repeat(81);
        line.replace_range(0..1, "5");
        let c = Candidates::new(&Board::from_line(&line).unwrap());
        let five = Digit::new(5).unwrap();
        let p = |r, c| Cell::new(r, c).unwrap();
        assert!(c.is_filled(p(0, 0)));
        assert!(c.digits(p(0, 0)).is_empty());
        let all_but_five: Vec<u8> = c.digits(p(0, 8)).iter().map(|d| d.get()).collect();
        assert_eq!(all_but_five, [1, 2, 3, 4, 6, 7, 8, 9]);
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
    fn subsets_are_every_set_of_that_size_in_numeric_order() {
        for of in [ALL_DIGITS, 0b1_0110_1010, 0b1_0000_0001, 0b10, 0] {
            let n = of.count_ones();
            for size in 1..=9 {
                let expected: Vec<u16> = (1..=ALL_DIGITS)
                    .filter(|s| s & !of == 0 && s.count_ones() == size)
                    .collect();
                let found: Vec<u16> = subsets(of, size).collect();
                assert_eq!(found, expected, "{of:#b} choose {size}");
                assert_eq!(found.is_empty(), size > n);
            }
            assert_eq!(subsets(of, 0).count(), 0, "no caller wants the empty set");
        }
    }

    #[test]
    fn mask_helpers_agree_with_the_digits() {
        let mask = 0b1_0010_0101;
        let digits: Vec<u8> = digits_of(mask).map(Digit::get).collect();
        assert_eq!(digits, [1, 3, 6, 9]);
        assert_eq!(indices_of(mask).collect::<Vec<_>>(), [0, 2, 5, 8]);
        for d in 0..9 {
            assert_eq!(bit(digit(d)), 1 << d);
        }
    }

    #[test]
    fn placed_count_counts_each_digit_on_the_grid() {
        // Three 5s and one 9 (no clash), nothing else.
        let mut line = ".".repeat(81);
        for (i, d) in [(0, "5"), (13, "5"), (26, "5"), (80, "9")] {
            line.replace_range(i..i + 1, d);
        }
        let c = Candidates::new(&Board::from_line(&line).unwrap());
        let counts: Vec<u32> = (0..9).map(|d| c.placed_count(d)).collect();
        assert_eq!(counts, [0, 0, 0, 0, 3, 0, 0, 0, 1]);
    }

    #[test]
    fn debug_shows_each_row_as_digits_and_marks() {
        let mut line = ".".repeat(81);
        line.replace_range(0..1, "5");
        line.replace_range(40..41, "7");
        let c = Candidates::new(&Board::from_line(&line).unwrap());
        let text = format!("{c:?}");
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows.len(), 9);
        for (r, row) in rows.iter().enumerate() {
            // A cell is a digit or marks in braces; nine marks leave no room for a space.
            let mut cells = Vec::new();
            let mut rest = row.trim_start();
            while !rest.is_empty() {
                let end = if rest.starts_with('{') {
                    rest.find('}').unwrap() + 1
                } else {
                    rest.find(' ').unwrap_or(rest.len())
                };
                cells.push(&rest[..end]);
                rest = rest[end..].trim_start();
            }
            assert_eq!(cells.len(), 9, "{row}");
            for (col, cell) in cells.iter().enumerate() {
                let pos = Cell::new(r, col).unwrap();
                let expected = match c.value(pos) {
                    Some(d) => d.to_string(),
                    None => {
                        let marks: String = (1..=9)
                            .filter_map(Digit::new)
                            .filter(|&d| c.contains(pos, d))
                            .map(|d| d.to_string())
                            .collect();
                        format!("{{{marks}}}")
                    }
                };
                assert_eq!(*cell, expected, "row {r}, column {col}");
            }
        }
        assert!(rows[0].starts_with("5 "), "{text}");
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
    fn a_cage_that_repeats_or_misses_its_sum_is_a_contradiction() {
        use crate::engine::model::grid::Shape;
        use crate::engine::model::rules::{Cage, Rules};
        let geometry = |cages: Vec<Cage>| {
            Geometry::for_rules(&Rules::for_cages(Shape::NINE, cages).unwrap()).unwrap()
        };
        let board = |digits: &[(usize, char)]| {
            let mut line = vec!['.'; 81];
            for &(i, d) in digits {
                line[i] = d;
            }
            Board::from_line(&line.iter().collect::<String>()).unwrap()
        };
        // An L of three cells: r1c3 and r2c4 share only the cage, so 5 in both repeats
        // nowhere else.
        let l_shape = geometry(vec![Cage {
            sum: Some(15),
            cells: vec![(0, 2), (0, 3), (1, 3)],
        }]);
        let twice = board(&[(2, '5'), (12, '5')]);
        assert!(
            !Candidates::new(&twice).has_contradiction(),
            "classic rules allow it"
        );
        assert!(Candidates::with_geometry(&twice, &l_shape).has_contradiction());
        // Above the sum with a cell still open: 9 + 8 in a cage of 15.
        let above = board(&[(2, '9'), (3, '8')]);
        assert!(Candidates::with_geometry(&above, &l_shape).has_contradiction());
        // Below the sum (still open) is fine; filled, it must be exact.
        let below = board(&[(2, '1'), (3, '2')]);
        assert!(!Candidates::with_geometry(&below, &l_shape).has_contradiction());
        let short = board(&[(2, '1'), (3, '2'), (12, '3')]);
        assert!(Candidates::with_geometry(&short, &l_shape).has_contradiction());
        let exact = board(&[(2, '1'), (3, '5'), (12, '9')]);
        assert!(!Candidates::with_geometry(&exact, &l_shape).has_contradiction());
    }

    #[test]
    fn an_empty_cell_without_marks_is_a_contradiction() {
        let mut c = Candidates::new(&Board::empty());
        let pos = Cell::new(2, 7).unwrap();
        for digit in (1..=9).filter_map(Digit::new) {
            c.eliminate(pos, digit);
        }
        assert_eq!(c.count(pos), 0);
        assert!(c.has_contradiction());
    }
}
