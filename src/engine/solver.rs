//! The exact solver: band bitboards, constraint propagation, and an explicit guess stack.
//!
//! # Representation
//! The grid is split into three horizontal *bands* of 3 rows (27 cells). For every digit and
//! band one `u32` holds the 27 cells where that digit is still possible (`cand[digit * 3 +
//! band]`, bit `row_in_band * 9 + column`). This is the idea behind JCZSolve: one digit in one
//! band is small enough that rows *and* boxes can be reasoned about with two table look-ups.
//!
//! # Propagation
//! * **Band update** (per digit and band, only when its mask changed): inside a band a digit
//!   fills exactly one cell per row and one per box, so the rows map to boxes by a permutation.
//!   [`BAND_FILTER`] keeps only the cells of mini-rows (row x box segments) that belong to some
//!   permutation consistent with the mask. That single AND performs hidden singles in boxes,
//!   pointing and claiming inside the band. A row left with one cell places the digit there:
//!   the cell is taken from the other digits and the column from the other bands.
//! * **Naked singles**: cells with one candidate left, found with bit-parallel counting.
//! * **Hidden singles in columns**: the one unit kind the band update cannot see.
//!
//! # Search
//! When propagation stalls the solver branches on a cell with the fewest candidates (a
//! bivalue cell when there is one): "cell = d" is followed now, "cell != d" is pushed on a stack.
//! Each pending alternative belongs to a guess that placed a cell on the current path, so the
//! stack never holds more than 81 states; it is allocated once per [`Solver`] and reused, and
//! nothing allocates inside the search loop.

use std::fmt;

use super::board::{Board, CELLS};
use super::validate::Puzzle;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// The nine bits of one row of a band.
const ROW: u32 = 0x1ff;
/// Multiplying a 9-bit column set by this copies it to all three rows of a band.
const COLUMN_SPREAD: u32 = 1 | 1 << 9 | 1 << 18;
/// The other two bands, for column eliminations.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// `MINI_ROWS[row bits]`: bit `k` is set when box column `k` of that row has a candidate.
static MINI_ROWS: [u8; 512] = build_mini_rows();

/// `BAND_FILTER[pattern]`, for a 9-bit pattern whose bit `3 * row + box` says that mini-row is
/// non-empty: the 27-bit mask of the mini-rows that appear in some row-to-box permutation
/// using only non-empty mini-rows. Zero means the digit cannot be placed in this band.
static BAND_FILTER: [u32; 512] = build_band_filter();

/// `ROWS[rows]`: the 27-bit mask of a 3-bit set of rows.
const ROWS: [u32; 8] = build_rows();

/// `BAND_PEERS[cell]`: the other cells of the same row and box inside the band.
const BAND_PEERS: [u32; 27] = build_band_peers();

const fn build_mini_rows() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut k = 0;
        while k < 3 {
            if (bits >> (3 * k)) & 7 != 0 {
                table[bits] |= 1 << k;
            }
            k += 1;
        }
        bits += 1;
    }
    table
}

const fn build_band_filter() -> [u32; 512] {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u32; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut p = 0;
        while p < 6 {
            let boxes = PERMUTATIONS[p];
            let mut usable = true;
            let mut row = 0;
            while row < 3 {
                usable &= pattern & (1 << (3 * row + boxes[row])) != 0;
                row += 1;
            }
            if usable {
                let mut row = 0;
                while row < 3 {
                    table[pattern] |= 7 << (9 * row + 3 * boxes[row]);
                    row += 1;
                }
            }
            p += 1;
        }
        pattern += 1;
    }
    table
}

const fn build_rows() -> [u32; 8] {
    let mut table = [0u32; 8];
    let mut rows = 0;
    while rows < 8 {
        let mut row = 0;
        while row < 3 {
            if rows & (1 << row) != 0 {
                table[rows] |= ROW << (9 * row);
            }
            row += 1;
        }
        rows += 1;
    }
    table
}

const fn build_band_peers() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        let (row, col) = (cell / 9, cell % 9);
        let mut peers = ROW << (9 * row);
        let mut r = 0;
        while r < 3 {
            peers |= 7 << (9 * r + 3 * (col / 3));
            r += 1;
        }
        table[cell] = peers & !(1 << cell);
        cell += 1;
    }
    table
}

/// True when `bits` has exactly one bit set.
#[inline(always)]
fn is_single(bits: u32) -> bool {
    bits != 0 && bits & (bits - 1) == 0
}

/// The 9-bit set of columns that have a bit in any row of a band mask.
#[inline(always)]
fn columns(band_mask: u32) -> u32 {
    (band_mask | band_mask >> 9 | band_mask >> 18) & ROW
}

/// Where propagation left a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Progress {
    Solved,
    Stuck,
    Contradiction,
}

/// A contradiction found while propagating: some cell, row, column or box cannot be filled.
struct Contradiction;

/// The whole search state; small and `Copy`, so a guess is one memcpy.
#[derive(Clone, Copy)]
struct State {
    /// `cand[digit * 3 + band]`: cells of the band where the digit is still possible.
    cand: [u32; 27],
    /// Bit `digit * 3 + band`: that mask changed since its band update last ran.
    dirty: u32,
    /// Per band, bit `digit * 3 + row`: the digit is placed in that row.
    placed: [u32; 3],
    /// Per band, the cells without a placed digit.
    unsolved: [u32; 3],
}

/// Calls `State::update_band::<D, B>` for a runtime index, so that each of the 27 updates is
/// compiled with its digit and band as constants (no bounds checks, constant shifts).
macro_rules! dispatch_update {
    ($state:expr, $index:expr; $(($i:literal, $d:literal, $b:literal)),* $(,)?) => {
        match $index {
            $($i => $state.update_band::<$d, $b>(),)*
            _ => unreachable!("digit-band index out of range"),
        }
    };
}

impl State {
    /// The state for `board`'s givens, or `None` if they contradict each other.
    fn new(board: &Board) -> Option<State> {
        let mut state = State {
            cand: [BAND; 27],
            dirty: 0,
            placed: [0; 3],
            unsolved: [BAND; 3],
        };
        for (index, &value) in board.raw().iter().enumerate() {
            if value == 0 {
                continue;
            }
            let (digit, band, cell) = (usize::from(value - 1), index / 27, index % 27);
            if state.cand[digit * 3 + band] & (1 << cell) == 0 {
                return None;
            }
            state.place(digit, band, cell);
        }
        Some(state)
    }

    /// Removes `cells` from mask `index`, marking it dirty if that changed anything.
    #[inline(always)]
    fn clear(&mut self, index: usize, cells: u32) {
        self.dirty |= u32::from(self.cand[index] & cells != 0) << index;
        self.cand[index] &= !cells;
    }

    /// Takes `digit`'s other candidates out of `cell`'s row, box and column. The band update
    /// then sees the row single and finishes the placement (other digits, `placed`, `unsolved`).
    #[inline(always)]
    fn place(&mut self, digit: usize, band: usize, cell: usize) {
        self.clear(digit * 3 + band, BAND_PEERS[cell]);
        // Even when no peer changed, the band update must run to record the placement.
        self.dirty |= 1 << (digit * 3 + band);
        let column = COLUMN_SPREAD << (cell % 9);
        for other in OTHER_BANDS[band] {
            self.clear(digit * 3 + other, column);
        }
    }

    /// Propagates until solved, stuck, or contradicted.
    fn propagate(&mut self) -> Progress {
        loop {
            if self.update_all().is_err() {
                return Progress::Contradiction;
            }
            if self.unsolved == [0; 3] {
                return Progress::Solved;
            }
            match self.naked_singles() {
                Err(Contradiction) => return Progress::Contradiction,
                Ok(true) => continue,
                Ok(false) => {}
            }
            match self.column_hidden_singles() {
                Err(Contradiction) => return Progress::Contradiction,
                Ok(true) => continue,
                Ok(false) => return Progress::Stuck,
            }
        }
    }

    /// Runs band updates until no digit-band mask is dirty.
    #[inline(always)]
    fn update_all(&mut self) -> Result<(), Contradiction> {
        while self.dirty != 0 {
            let index = self.dirty.trailing_zeros();
            self.dirty &= self.dirty - 1;
            dispatch_update!(self, index;
                (0, 0, 0), (1, 0, 1), (2, 0, 2), (3, 1, 0), (4, 1, 1), (5, 1, 2),
                (6, 2, 0), (7, 2, 1), (8, 2, 2), (9, 3, 0), (10, 3, 1), (11, 3, 2),
                (12, 4, 0), (13, 4, 1), (14, 4, 2), (15, 5, 0), (16, 5, 1), (17, 5, 2),
                (18, 6, 0), (19, 6, 1), (20, 6, 2), (21, 7, 0), (22, 7, 1), (23, 7, 2),
                (24, 8, 0), (25, 8, 1), (26, 8, 2),
            )?;
        }
        Ok(())
    }

    /// Row/box reasoning for digit `D` in band `B` (see the module docs).
    #[inline(always)]
    fn update_band<const D: usize, const B: usize>(&mut self) -> Result<(), Contradiction> {
        let i = D * 3 + B;
        let mut mask = self.cand[i];
        let pattern = usize::from(MINI_ROWS[(mask & ROW) as usize])
            | usize::from(MINI_ROWS[((mask >> 9) & ROW) as usize]) << 3
            | usize::from(MINI_ROWS[((mask >> 18) & ROW) as usize]) << 6;
        mask &= BAND_FILTER[pattern];
        if mask == 0 {
            return Err(Contradiction);
        }
        self.cand[i] = mask;

        let single_rows = u32::from(is_single(mask & ROW))
            | u32::from(is_single((mask >> 9) & ROW)) << 1
            | u32::from(is_single(mask >> 18)) << 2;
        let new_rows = single_rows & !(self.placed[B] >> (D * 3)) & 7;
        if new_rows != 0 {
            self.placed[B] |= new_rows << (D * 3);
            let cells = mask & ROWS[new_rows as usize];
            self.unsolved[B] &= !cells;
            for other in 0..9 {
                if other != D {
                    self.clear(other * 3 + B, cells);
                }
            }
            let column = columns(cells) * COLUMN_SPREAD;
            self.clear(D * 3 + (B + 1) % 3, column);
            self.clear(D * 3 + (B + 2) % 3, column);
        }
        Ok(())
    }

    /// Places every cell that has exactly one candidate. `Ok(true)` when any was placed.
    fn naked_singles(&mut self) -> Result<bool, Contradiction> {
        let mut found = false;
        for band in 0..3 {
            let unsolved = self.unsolved[band];
            if unsolved == 0 {
                continue;
            }
            let (mut once, mut twice) = (0u32, 0u32);
            for digit in 0..9 {
                let c = self.cand[digit * 3 + band];
                twice |= once & c;
                once |= c;
            }
            if unsolved & !once != 0 {
                return Err(Contradiction);
            }
            let singles = unsolved & !twice;
            if singles == 0 {
                continue;
            }
            found = true;
            for digit in 0..9 {
                let mut cells = singles & self.cand[digit * 3 + band];
                while cells != 0 {
                    self.place(digit, band, cells.trailing_zeros() as usize);
                    cells &= cells - 1;
                }
            }
        }
        Ok(found)
    }

    /// Places every digit that has one cell left in some column. `Ok(true)` when any was placed.
    fn column_hidden_singles(&mut self) -> Result<bool, Contradiction> {
        let mut found = false;
        for digit in 0..9 {
            let bands = [
                self.cand[digit * 3],
                self.cand[digit * 3 + 1],
                self.cand[digit * 3 + 2],
            ];
            let cols = bands.map(columns);
            if cols[0] | cols[1] | cols[2] != ROW {
                return Err(Contradiction);
            }
            // Columns where exactly one band still has the digit.
            let one_band = (cols[0] ^ cols[1] ^ cols[2]) & !(cols[0] & cols[1] & cols[2]);
            if one_band == 0 {
                continue;
            }
            for (band, &mask) in bands.iter().enumerate() {
                let (r0, r1, r2) = (mask & ROW, (mask >> 9) & ROW, mask >> 18);
                let one_row = (r0 ^ r1 ^ r2) & !(r0 & r1 & r2);
                let mut cells = mask & ((one_band & one_row) * COLUMN_SPREAD) & self.unsolved[band];
                if cells == 0 {
                    continue;
                }
                found = true;
                while cells != 0 {
                    self.place(digit, band, cells.trailing_zeros() as usize);
                    cells &= cells - 1;
                }
            }
        }
        Ok(found)
    }

    /// The branching cell: a bivalue cell if any, else one with the fewest candidates.
    /// Returns (digit to try first, band, cell in band).
    fn choose_branch(&self) -> (usize, usize, usize) {
        for band in 0..3 {
            let unsolved = self.unsolved[band];
            if unsolved == 0 {
                continue;
            }
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for digit in 0..9 {
                let c = self.cand[digit * 3 + band];
                thrice |= twice & c;
                twice |= once & c;
                once |= c;
            }
            let bivalue = unsolved & twice & !thrice;
            if bivalue != 0 {
                let cell = bivalue.trailing_zeros() as usize;
                return (self.first_digit(band, cell), band, cell);
            }
        }
        let mut best = (10, 0, 0);
        for band in 0..3 {
            let mut cells = self.unsolved[band];
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let count = (0..9)
                    .filter(|&d| self.cand[d * 3 + band] & (1 << cell) != 0)
                    .count();
                if count < best.0 {
                    best = (count, band, cell);
                }
            }
        }
        let (_, band, cell) = best;
        (self.first_digit(band, cell), band, cell)
    }

    fn first_digit(&self, band: usize, cell: usize) -> usize {
        (0..9)
            .find(|&d| self.cand[d * 3 + band] & (1 << cell) != 0)
            .unwrap_or(0)
    }

    /// The filled grid of a solved state.
    fn grid(&self) -> Board {
        let mut cells = [0u8; CELLS];
        for digit in 0..9 {
            for band in 0..3 {
                let mut mask = self.cand[digit * 3 + band];
                while mask != 0 {
                    cells[band * 27 + mask.trailing_zeros() as usize] = digit as u8 + 1;
                    mask &= mask - 1;
                }
            }
        }
        Board::from_raw(cells)
    }
}

/// A complete grid that obeys every rule and keeps the puzzle's givens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solution(Board);

impl Solution {
    /// The filled grid.
    pub fn board(&self) -> &Board {
        &self.0
    }

    /// The 81 digits in reading order.
    pub fn to_line(&self) -> String {
        self.0.to_line()
    }

    /// Nine strings of nine digits.
    pub fn to_rows(&self) -> Vec<String> {
        self.0.to_rows()
    }

    /// Wraps a grid the engine built itself and knows to be complete and rule-abiding (the
    /// generator's random full grid), like [`Board::from_raw`] does for cell values.
    pub(crate) fn from_full_grid(board: Board) -> Solution {
        debug_assert!(crate::engine::validate::validate(&board).solved);
        Solution(board)
    }
}

impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// How much searching one call did; for logs and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Branch points: cells where propagation stalled and a digit was tried.
    pub guesses: u64,
    /// Branches that ended in a contradiction.
    pub dead_ends: u64,
}

/// The search stopped because it used up its budget, before it knew the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("gave up after {} guesses: the search budget is exhausted", .stats.guesses)]
pub struct GaveUp {
    pub stats: Stats,
}

/// The answer of a counting search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    /// Solutions found, at most the limit asked for: with limit 2, 2 means "more than one".
    pub count: u32,
    /// The first solution found, if any.
    pub first: Option<Solution>,
    pub stats: Stats,
}

impl Counted {
    /// Exactly one solution (meaningful when the limit was at least 2).
    pub fn is_unique(&self) -> bool {
        self.count == 1
    }
}

/// A reusable solver. Keep one per thread: it owns the guess stack, so reusing it means the
/// search never allocates.
#[derive(Clone)]
pub struct Solver {
    stack: Vec<State>,
    budget: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("budget", &self.budget)
            .finish()
    }
}

impl Solver {
    /// A solver without a budget: it searches until it knows the answer.
    pub fn new() -> Solver {
        Solver::with_budget(u64::MAX)
    }

    /// A solver that gives up after `guesses` branch points in one call.
    pub fn with_budget(guesses: u64) -> Solver {
        Solver {
            stack: Vec::with_capacity(CELLS + 1),
            budget: guesses,
        }
    }

    /// The guess budget per call.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Changes the guess budget for the following calls.
    pub fn set_budget(&mut self, guesses: u64) {
        self.budget = guesses;
    }

    /// Finds one solution (`count` 0 or 1).
    pub fn solve(&mut self, puzzle: &Puzzle) -> Result<Counted, GaveUp> {
        self.count_solutions(puzzle, 1)
    }

    /// Counts solutions, stopping at `limit`: 0, 1, ... or `limit`. `limit` 2 answers "is it
    /// unique?" at the cost of finding at most two solutions. A limit of 0 is treated as 1.
    pub fn count_solutions(&mut self, puzzle: &Puzzle, limit: u32) -> Result<Counted, GaveUp> {
        let limit = limit.max(1);
        let mut stats = Stats::default();
        let mut count = 0;
        let mut first = None;
        let Some(mut state) = State::new(puzzle.board()) else {
            return Ok(Counted {
                count,
                first,
                stats,
            });
        };
        self.stack.clear();
        loop {
            match state.propagate() {
                Progress::Solved => {
                    count += 1;
                    if first.is_none() {
                        first = Some(Solution(state.grid()));
                    }
                    if count >= limit {
                        break;
                    }
                }
                Progress::Contradiction => stats.dead_ends += 1,
                Progress::Stuck => {
                    if stats.guesses >= self.budget {
                        return Err(GaveUp { stats });
                    }
                    stats.guesses += 1;
                    let (digit, band, cell) = state.choose_branch();
                    let mut alternative = state;
                    alternative.clear(digit * 3 + band, 1 << cell);
                    debug_assert!(self.stack.len() < CELLS);
                    self.stack.push(alternative);
                    state.place(digit, band, cell);
                    continue;
                }
            }
            match self.stack.pop() {
                Some(next) => state = next,
                None => break,
            }
        }
        Ok(Counted {
            count,
            first,
            stats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::validate::validate;

    fn puzzle(line: &str) -> Puzzle {
        Puzzle::new(Board::from_line(line).unwrap()).unwrap()
    }

    /// The solution is a valid full grid that keeps every given.
    fn assert_solves(p: &Puzzle, solution: &Solution) {
        let report = validate(solution.board());
        assert!(report.solved, "not a valid grid: {solution}");
        for (pos, digit) in p.board().givens() {
            assert_eq!(
                solution.board().get(pos),
                Some(digit),
                "given lost at {pos}"
            );
        }
    }

    #[test]
    fn band_filter_keeps_a_full_band_and_rejects_an_empty_row() {
        assert_eq!(BAND_FILTER[0x1ff], BAND);
        // Rows 0 and 1 can only use box 0: no permutation.
        assert_eq!(BAND_FILTER[0b111_001_001], 0);
        // Row 0 only box 0 -> rows 1 and 2 lose box 0.
        let kept = BAND_FILTER[0b111_111_001];
        assert_eq!(kept & (7 << 9), 0);
        assert_eq!(kept & 7, 7);
    }

    #[test]
    fn band_peers_are_row_and_box() {
        // Cell 0: the rest of row 0 (8 cells) plus 6 more box cells in rows 1-2.
        assert_eq!(BAND_PEERS[0].count_ones(), 14);
        assert_eq!(BAND_PEERS[0] & 1, 0);
    }

    #[test]
    fn solves_the_seed_example() {
        let p = puzzle(
            "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1",
        );
        // Every test that knows the answer checks it independently.
        let counted = Solver::new().count_solutions(&p, 2).unwrap();
        assert_eq!(counted.count, 1);
        let solution = counted.first.unwrap();
        assert_solves(&p, &solution);
        assert_eq!(
            solution.to_line(),
            "957214386123689457468357129271563894539841672684972513315726948746198235892435761"
        );
    }

    #[test]
    fn empty_board_has_many_solutions() {
        let p = Puzzle::new(Board::empty()).unwrap();
        let mut solver = Solver::new();
        let counted = solver.count_solutions(&p, 2).unwrap();
        assert_eq!(counted.count, 2);
        assert_solves(&p, &counted.first.unwrap());
        assert_eq!(solver.count_solutions(&p, 5).unwrap().count, 5);
    }

    #[test]
    fn a_full_valid_grid_is_its_own_unique_solution() {
        let line =
            "957348216134265879268197534729584163483612957615739428392456781871923645546871392";
        let counted = Solver::new().count_solutions(&puzzle(line), 2).unwrap();
        assert_eq!(counted.count, 1);
        assert_eq!(counted.first.unwrap().to_line(), line);
        assert_eq!(counted.stats.guesses, 0);
    }

    #[test]
    fn conflict_free_but_unsolvable_board_has_no_solution() {
        // Row 1 holds 1-8 and column 9 holds a 9 lower down: cell (1,9) has no candidate.
        let line = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
        let counted = Solver::new().count_solutions(&puzzle(&line), 2).unwrap();
        assert_eq!(counted.count, 0);
        assert!(counted.first.is_none());
    }

    #[test]
    fn a_tiny_budget_gives_up_instead_of_searching() {
        let p = Puzzle::new(Board::empty()).unwrap();
        let err = Solver::with_budget(3)
            .count_solutions(&p, 1_000)
            .unwrap_err();
        assert_eq!(err.stats.guesses, 3);
    }
}
