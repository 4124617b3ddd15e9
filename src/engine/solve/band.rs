//! The exact solver: band bitboards, constraint propagation, and an explicit guess stack.
//!
//! # Representation
//! The grid is split into three horizontal *bands* of 3 rows (27 cells). For every digit and
//! band one `u32` holds the 27 cells where that digit is still possible (`cand[band * 9 +
//! digit]`, bit `row_in_band * 9 + column`). This is the idea behind JCZSolve: one digit in one
//! band is small enough that rows *and* boxes can be reasoned about with two table look-ups.
//!
//! # Propagation
//! * **Band update** (per digit and band, whenever its mask differs from what its last update
//!   left): inside a band a digit fills exactly one cell per row and one per box, so the rows
//!   map to boxes by a permutation. [`BAND_FILTER`] keeps only the cells of mini-rows (row x box
//!   segments) that belong to some permutation consistent with the mask. That single AND
//!   performs hidden singles in boxes, pointing and claiming inside the band. Then a stack
//!   (three columns of boxes) where the band has the digit in one column only takes that
//!   column from the other bands (`KEEP_IN_OTHER_BANDS`; a placed digit is the special
//!   case), and a row left with one cell is solved: the cell is taken from the other digits.
//!   These last steps run without branches, because the stores cost less than mispredictions.
//! * **Naked singles**: cells with one candidate left, found with bit-parallel counting; the
//!   same scan records the bivalue cells for branching.
//! * **Hidden singles in columns**: the one unit kind the band update cannot see, looked for
//!   whenever the two steps above stall. The scan counts all nine digits side by side in
//!   vector code; when it was scalar it only paid near the top of the search tree.
//!
//! # Search
//! When propagation stalls the solver branches on a bivalue cell when there is one ("cell = d"
//! is followed now, "cell = the other digit" is pushed on a stack), else on the emptiest of
//! the first unsolved cell of each band ("cell != d" is pushed). Among bivalue cells it takes
//! the one with the most unsolved cells in its row, column and box: either digit placed there
//! reaches the most cells, so propagation cuts the subtree most. On the hardest sets that
//! explores about a third fewer nodes than taking the first bivalue cell, which matters most
//! for counting to 2, where the whole tree is searched. (Counting the two digits' candidates
//! among the peers instead gave the same trees at several times the cost.) Until the first
//! dead end the first bivalue cell is taken, unscored: a puzzle that propagates straight
//! down to a solution (the easy ones, and those with many solutions) gains nothing from the
//! score and would pay for it at every guess.
//!
//! Each pending alternative belongs to a guess that placed a cell on the current path, so the
//! stack never holds more than 81 states; it is allocated once per [`Solver`] and reused, and
//! nothing allocates inside the search loop. The state being worked on lives in the stack too,
//! on top of the pending alternatives: a guess copies it once (one slot up) and edits the old
//! slot into the alternative, and backtracking just steps down, so no state is copied back and
//! forth.
//!
//! # Compiled twice on x86-64
//! The baseline x86-64 target has no popcount instruction (`count_ones` becomes a dozen
//! instructions) nor BMI or AVX2. The search is therefore compiled a second time for
//! x86-64-v3 (Haswell, Zen and later) with `#[target_feature]`, and [`Solver`] picks that
//! version once, at construction, when the CPU has the features; everything the search calls
//! is `#[inline(always)]` so that it is compiled into both. The release build itself needs no
//! `target-cpu` flag and runs on any x86-64; other architectures get the one portable version.

use std::fmt;

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::model::board::{Board, ClassicPuzzle, CELLS, ORDERS_OF_THREE};
use crate::engine::model::puzzle::{Counted, Stats};

/// Where the mask of `digit` in `band` lives in [`State::cand`].
#[inline(always)]
const fn at(digit: usize, band: usize) -> usize {
    band * 9 + digit
}

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// The nine bits of one row of a band.
const ROW: u32 = 0x1ff;
/// Multiplying a 9-bit column set by this copies it to all three rows of a band.
const COLUMN_SPREAD: u32 = 1 | 1 << 9 | 1 << 18;

/// `MINI_ROWS[row bits]`: bit `k` is set when box column `k` of that row has a candidate.
static MINI_ROWS: [u8; 512] = build_mini_rows();

/// `BAND_FILTER[pattern]`, for a 9-bit pattern whose bit `3 * box + row` says that mini-row is
/// non-empty (see [`mini_row_pattern`]): the 27-bit mask of the mini-rows that appear in some row-to-box permutation
/// using only non-empty mini-rows. Zero means the digit cannot be placed in this band.
static BAND_FILTER: [u32; 512] = build_band_filter();

/// `ROWS[rows]`: the 27-bit mask of a 3-bit set of rows.
const ROWS: [u32; 8] = build_rows();

/// `BOXES[stacks]`: the 27-bit mask of a 3-bit set of boxes of a band.
const BOXES: [u32; 8] = build_boxes();

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
    let mut table = [0u32; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut p = 0;
        while p < 6 {
            let boxes = ORDERS_OF_THREE[p];
            let mut usable = true;
            let mut row = 0;
            while row < 3 {
                usable &= pattern & (1 << (3 * boxes[row] + row)) != 0;
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

const fn build_boxes() -> [u32; 8] {
    let mut table = [0u32; 8];
    let mut stacks = 0;
    while stacks < 8 {
        let mut stack = 0;
        while stack < 3 {
            if stacks & (1 << stack) != 0 {
                table[stacks] |= (7 << (3 * stack)) * COLUMN_SPREAD;
            }
            stack += 1;
        }
        stacks += 1;
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

/// `KEEP_IN_OTHER_BANDS[columns]`, for the 9-bit set of columns where a digit can still be in
/// one band: the cells the other two bands may keep. A box holds the digit once, so when a
/// band has the digit in a single column of some stack (three columns of boxes), that column
/// is taken in this band and the other bands lose it. A placed digit is the special case
/// where the stack's box is solved.
static KEEP_IN_OTHER_BANDS: [u32; 512] = build_keep_in_other_bands();

const fn build_keep_in_other_bands() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut columns = 0;
    while columns < 512 {
        let mut locked = 0u32;
        let mut stack = 0;
        while stack < 3 {
            let in_stack = (columns >> (3 * stack)) & 7;
            if in_stack == 1 || in_stack == 2 || in_stack == 4 {
                locked |= (in_stack as u32) << (3 * stack);
            }
            stack += 1;
        }
        table[columns] = BAND & !(locked * COLUMN_SPREAD);
        columns += 1;
    }
    table
}

/// The rows and boxes of a band holding any of `cells`, minus `cells` themselves: what placing
/// the digit in all of them takes from the digit. Two cells that share a row or box keep each
/// other; that contradiction surfaces later, when the unit has nowhere left for the digit.
#[inline(always)]
fn peers_of(cells: u32) -> u32 {
    let rows = usize::from(cells & ROW != 0)
        | usize::from((cells >> 9) & ROW != 0) << 1
        | usize::from(cells >> 18 != 0) << 2;
    let stacks = MINI_ROWS[columns(cells) as usize];
    (ROWS[rows] | BOXES[usize::from(stacks)]) & !cells
}

/// The 9-bit index of [`BAND_FILTER`] for a band mask: bit `3 * box + row` is set when that
/// mini-row has a cell. Bit tricks rather than table look-ups, which would lengthen the chain
/// of dependent loads in the band update: after the two ORs, bit `9 * row + 3 * box` stands for
/// the mini-row, and the three shifts move the rows to interleaved positions.
#[inline(always)]
fn mini_row_pattern(mask: u32) -> usize {
    let any = mask | mask >> 1 | mask >> 2;
    ((any & 0o111) | ((any >> 8) & 0o222) | ((any >> 16) & 0o444)) as usize
}

/// True when `row` (non-zero) has exactly one bit set.
#[inline(always)]
fn one_bit(row: u32) -> bool {
    row & row.wrapping_sub(1) == 0
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
    /// `cand[at(digit, band)]`: cells of the band where the digit is still possible. A placed
    /// digit keeps its cell, so a solved band has three bits per digit. Band-major, so that
    /// the nine digits of a band, and one digit's masks across the bands, are each a
    /// contiguous run of the same stride: loops over digits compile to vector code.
    cand: [u32; 27],
    /// `cand` as the last band update of each mask left it. A mask that differs needs another
    /// update; comparing is cheaper than keeping dirty bits at every elimination, which lets
    /// the band update clear the other digits' cells without any bookkeeping.
    seen: [u32; 27],
    /// Per band, the cells without a placed digit.
    unsolved: [u32; 3],
    /// Per band, the unsolved cells with exactly two candidates, as the last naked single
    /// scan found them; the branching cells.
    pairs: [u32; 3],
}

/// Runs `State::update_band::<D, B>` for every mask that changed, in a fixed order, so that
/// each of the 27 updates is compiled with its digit and band as constants and the control
/// flow is a row of conditional branches rather than one hard-to-predict indirect jump.
macro_rules! update_changed {
    ($state:expr, $changed:ident; $(($d:literal, $b:literal)),* $(,)?) => {
        $(
            if $state.cand[at($d, $b)] != $state.seen[at($d, $b)] {
                $changed = true;
                $state.update_band::<$d, $b>()?;
            }
        )*
    };
}

impl State {
    /// A placeholder for the stack's unused slots.
    const EMPTY: State = State {
        cand: [0; 27],
        seen: [0; 27],
        unsolved: [0; 3],
        pairs: [0; 3],
    };

    /// The state for `board`'s givens, or `None` if they contradict each other. Built in bulk
    /// per digit, without a branch per cell: the givens of a digit take their rows, boxes and
    /// columns from it at once, and all givens take their cells from the other digits.
    #[inline(always)]
    fn new(board: &Board) -> Option<State> {
        // `given[value * 3 + band]`; value 0 (an empty cell) lands in a slot that is ignored.
        let mut given = [0u32; 30];
        for (band, cells) in board.raw().chunks_exact(27).enumerate() {
            for (cell, &value) in cells.iter().enumerate() {
                given[usize::from(value) * 3 + band] |= 1 << cell;
            }
        }
        let given = &given[3..];
        let mut all = [0u32; 3];
        for digit in 0..9 {
            for (band, all) in all.iter_mut().enumerate() {
                *all |= given[digit * 3 + band];
            }
        }
        let mut state = State {
            cand: [BAND; 27],
            seen: [0; 27],
            unsolved: [BAND & !all[0], BAND & !all[1], BAND & !all[2]],
            pairs: [0; 3],
        };
        let mut conflict = 0;
        for digit in 0..9 {
            let g = [given[digit * 3], given[digit * 3 + 1], given[digit * 3 + 2]];
            for band in 0..3 {
                let others = g[(band + 1) % 3] | g[(band + 2) % 3];
                let taken =
                    peers_of(g[band]) | (columns(others) * COLUMN_SPREAD) | (all[band] & !g[band]);
                let cand = BAND & !taken;
                conflict |= g[band] & !cand;
                state.cand[at(digit, band)] = cand;
            }
        }
        // A `Puzzle`'s givens never conflict; this still catches clashes within a column.
        (conflict == 0).then_some(state)
    }

    /// Puts `digit` in `cell`: takes the digit out of the rest of the cell's row and box. The
    /// next band update sees the row single and does the rest (the cell's other digits, the
    /// column in the other bands, `unsolved`).
    #[inline(always)]
    fn place(&mut self, digit: usize, band: usize, cell: usize) {
        self.cand[at(digit, band)] &= !BAND_PEERS[cell];
    }

    /// Propagates until solved, stuck, or contradicted.
    #[inline(always)]
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

    /// Runs band updates until no mask changes any more.
    #[inline(always)]
    fn update_all(&mut self) -> Result<(), Contradiction> {
        loop {
            let mut changed = false;
            update_changed!(self, changed;
                (0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2),
                (3, 0), (3, 1), (3, 2), (4, 0), (4, 1), (4, 2), (5, 0), (5, 1), (5, 2),
                (6, 0), (6, 1), (6, 2), (7, 0), (7, 1), (7, 2), (8, 0), (8, 1), (8, 2),
            );
            if !changed {
                return Ok(());
            }
        }
    }

    /// Row/box reasoning for digit `D` in band `B` (see the module docs), then the column
    /// consequences for the other bands and the cells it solves. Everything after the filter
    /// runs unconditionally: the stores are cheaper than a branch that would often mispredict.
    #[inline(always)]
    fn update_band<const D: usize, const B: usize>(&mut self) -> Result<(), Contradiction> {
        let i = at(D, B);
        let mut mask = self.cand[i];
        mask &= BAND_FILTER[mini_row_pattern(mask)];
        if mask == 0 {
            return Err(Contradiction);
        }
        self.cand[i] = mask;
        self.seen[i] = mask;

        let keep = KEEP_IN_OTHER_BANDS[columns(mask) as usize];
        self.cand[at(D, (B + 1) % 3)] &= keep;
        self.cand[at(D, (B + 2) % 3)] &= keep;

        // The filter leaves every row non-empty, so one bit means the row is solved.
        // Each row's test becomes all ones or zero, kept to the row's bits: no table load.
        let single_rows = (u32::from(one_bit(mask & ROW)).wrapping_neg() & ROW)
            | (u32::from(one_bit((mask >> 9) & ROW)).wrapping_neg() & (ROW << 9))
            | (u32::from(one_bit(mask >> 18)).wrapping_neg() & (ROW << 18));
        let solved = mask & single_rows;
        self.unsolved[B] &= !solved;
        for other in 0..9 {
            if other != D {
                self.cand[at(other, B)] &= !solved;
            }
        }
        Ok(())
    }

    /// Places every cell that has exactly one candidate and records the bivalue cells.
    /// `Ok(true)` when any was placed.
    #[inline(always)]
    fn naked_singles(&mut self) -> Result<bool, Contradiction> {
        let mut found = false;
        for band in 0..3 {
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for digit in 0..9 {
                let c = self.cand[at(digit, band)];
                thrice |= twice & c;
                twice |= once & c;
                once |= c;
            }
            // Placed cells keep their digit, so every cell of the band needs a bit.
            if once != BAND {
                return Err(Contradiction);
            }
            self.pairs[band] = twice & !thrice;
            let singles = self.unsolved[band] & !twice;
            if singles == 0 {
                continue;
            }
            found = true;
            for digit in 0..9 {
                let mut cells = singles & self.cand[at(digit, band)];
                while cells != 0 {
                    self.place(digit, band, cells.trailing_zeros() as usize);
                    cells &= cells - 1;
                }
            }
        }
        Ok(found)
    }

    /// Places every digit that has one cell left in some column. `Ok(true)` when any was placed.
    /// The counting runs for all nine digits side by side without a branch, which the compiler
    /// turns into vector code; only digits with a find take the scalar path.
    #[inline(always)]
    fn column_hidden_singles(&mut self) -> Result<bool, Contradiction> {
        let mut singles = [[0u32; 9]; 3];
        let mut missing = 0;
        // One index for the digit's three masks and its three results: the shape the
        // vectorizer needs (an iterator over one of the arrays would hide the others' stride).
        #[allow(clippy::needless_range_loop)]
        for digit in 0..9 {
            let m = [
                self.cand[digit],
                self.cand[9 + digit],
                self.cand[18 + digit],
            ];
            // Count the digit per column over the nine rows, saturating at two.
            let (mut once, mut twice) = (0u32, 0u32);
            for row in [
                m[0],
                m[0] >> 9,
                m[0] >> 18,
                m[1],
                m[1] >> 9,
                m[1] >> 18,
                m[2],
                m[2] >> 9,
                m[2] >> 18,
            ] {
                twice |= once & row;
                once |= row;
            }
            missing |= !once & ROW;
            // Columns where the digit has one cell; those already placed drop out.
            let spread = (once & !twice & ROW) * COLUMN_SPREAD;
            for band in 0..3 {
                singles[band][digit] = m[band] & spread & self.unsolved[band];
            }
        }
        if missing != 0 {
            return Err(Contradiction);
        }
        let mut found = false;
        for (band, singles) in singles.iter().enumerate() {
            for (digit, &cells) in singles.iter().enumerate() {
                if cells != 0 {
                    found = true;
                    self.cand[at(digit, band)] &= !peers_of(cells);
                }
            }
        }
        Ok(found)
    }

    /// The branching cell: the bivalue cell with the most unsolved peers if any (the first
    /// bivalue cell unless `score`), else the emptiest of the first unsolved cell of each
    /// band. Returns (band, cell in band).
    #[inline(always)]
    fn choose_branch(&self, score: bool) -> (usize, usize) {
        if !score {
            for band in 0..3 {
                if self.pairs[band] != 0 {
                    return (band, self.pairs[band].trailing_zeros() as usize);
                }
            }
        }
        if self.pairs != [0; 3] {
            let mut best = (0, 0, 0);
            for band in 0..3 {
                let mut cells = self.pairs[band];
                while cells != 0 {
                    let cell = cells.trailing_zeros() as usize;
                    cells &= cells - 1;
                    let score = self.unsolved_peers(band, cell);
                    if score > best.0 {
                        best = (score, band, cell);
                    }
                }
            }
            return (best.1, best.2);
        }
        let mut best = (10, 0, 0);
        for band in 0..3 {
            let mut cells = self.unsolved[band] & self.unsolved[band].wrapping_neg();
            while cells != 0 {
                let cell = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let count = (0..9)
                    .filter(|&d| self.cand[at(d, band)] & (1 << cell) != 0)
                    .count();
                if count < best.0 {
                    best = (count, band, cell);
                }
            }
        }
        (best.1, best.2)
    }

    /// How many cells of the row, column and box of `cell` are unsolved.
    #[inline(always)]
    fn unsolved_peers(&self, band: usize, cell: usize) -> u32 {
        let column = COLUMN_SPREAD << (cell % 9);
        let in_band = self.unsolved[band] & BAND_PEERS[cell];
        // The other bands' column cells, the second shifted off the first: one popcount.
        let in_column = (self.unsolved[(band + 1) % 3] & column)
            | (self.unsolved[(band + 2) % 3] & column) << 1;
        (u64::from(in_band) | u64::from(in_column) << 32).count_ones()
    }

    /// The candidates of `cell` as a 9-bit digit set.
    #[inline(always)]
    fn digits(&self, band: usize, cell: usize) -> u32 {
        let mut digits = 0;
        for digit in 0..9 {
            digits |= ((self.cand[at(digit, band)] >> cell) & 1) << digit;
        }
        digits
    }

    /// The filled grid of a solved state.
    fn grid(&self) -> Board {
        let mut cells = [0u8; CELLS];
        for digit in 0..9 {
            for band in 0..3 {
                let mut mask = self.cand[at(digit, band)];
                while mask != 0 {
                    cells[band * 27 + mask.trailing_zeros() as usize] = digit as u8 + 1;
                    mask &= mask - 1;
                }
            }
        }
        Board::from_raw(cells)
    }
}

/// Whether the CPU (and the OS) can run [`Solver::search_x86_64_v3`]: AVX2 with the YMM
/// registers saved by the OS, BMI1, BMI2 and POPCNT. Three CPUID queries, where std's
/// `is_x86_feature_detected!` asks about every feature it knows: under a hypervisor each
/// CPUID traps, and that cost about 60 us per process, 2% of the `solve` command on a file
/// of a thousand easy puzzles.
#[cfg(target_arch = "x86_64")]
fn has_x86_64_v3() -> bool {
    use std::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
    const POPCNT: u32 = 1 << 23;
    const OSXSAVE: u32 = 1 << 27;
    const AVX: u32 = 1 << 28;
    const BMI1: u32 = 1 << 3;
    const AVX2: u32 = 1 << 5;
    const BMI2: u32 = 1 << 8;
    if __cpuid(0).eax < 7 {
        return false;
    }
    let leaf1 = __cpuid(1).ecx;
    if leaf1 & (POPCNT | OSXSAVE | AVX) != POPCNT | OSXSAVE | AVX {
        return false;
    }
    // SAFETY: CPUID reported OSXSAVE: the OS has enabled XGETBV. Measured reason for not
    // using std's detection: see above.
    let enabled_state = unsafe { _xgetbv(0) };
    // XMM (bit 1) and YMM (bit 2) state must both be saved for AVX2 code.
    if enabled_state & 0b110 != 0b110 {
        return false;
    }
    __cpuid_count(7, 0).ebx & (BMI1 | AVX2 | BMI2) == BMI1 | AVX2 | BMI2
}

/// Work of a search's setup (the root state built from the givens), in thousandths of a unit.
/// With [`NODE_MILLI`], calibrated by `examples/work_units.rs` to about a microsecond of CPU
/// per unit over the shared puzzle files (BENCHMARKS.md).
pub const START_MILLI: u64 = 1_500;

/// Work of one propagation (the root, after a guess, or after a backtrack), in thousandths of
/// a unit: half a microsecond on hard puzzles, where the budget matters.
pub const NODE_MILLI: u64 = 500;

/// A digit taken out of one cell before the search starts: [`Solver::count_solutions_without`].
#[derive(Clone, Copy)]
struct Excluded {
    band: usize,
    /// The cell within its band.
    cell: usize,
    /// 0-8.
    digit: usize,
}

/// A reusable solver. Keep one per thread: it owns the guess stack, so reusing it means the
/// search never allocates.
#[derive(Clone)]
pub struct Solver {
    stack: Vec<State>,
    /// The CPU has what [`Solver::search_x86_64_v3`] is compiled for.
    #[cfg(target_arch = "x86_64")]
    x86_64_v3: bool,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver").finish_non_exhaustive()
    }
}

impl Solver {
    pub fn new() -> Solver {
        Solver {
            stack: vec![State::EMPTY; CELLS + 1],
            #[cfg(target_arch = "x86_64")]
            x86_64_v3: has_x86_64_v3(),
        }
    }

    /// Finds one solution (`count` 0 or 1).
    pub fn solve(
        &mut self,
        puzzle: &ClassicPuzzle,
        budget: &Budget,
    ) -> Result<Counted<Board>, Exhausted> {
        self.count_solutions(puzzle, 1, budget)
    }

    /// Counts solutions, stopping at `limit`: 0, 1, ... or `limit`. `limit` 2 answers "is it
    /// unique?" at the cost of finding at most two solutions. A limit of 0 is treated as 1.
    ///
    /// Work is charged per propagation ([`NODE_MILLI`], the root's included) plus the setup
    /// ([`START_MILLI`]): a propagation is bounded (a fraction of a microsecond to a few), so
    /// the search stops within a node of the budget running out, and within
    /// [`CHECK_EVERY`](crate::engine::budget::CHECK_EVERY) units of its deadline or
    /// cancellation.
    pub fn count_solutions(
        &mut self,
        puzzle: &ClassicPuzzle,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted<Board>, Exhausted> {
        self.count_solutions_without(puzzle, None, limit, budget)
    }

    /// [`Solver::count_solutions`] of the solutions without `digit` (1-9) in the cell at
    /// `index` (row-major, 0-80), when `without` is `Some((index, digit))`.
    ///
    /// The cheap question a generator asks when it takes a clue out of a unique puzzle: any
    /// second solution of the smaller puzzle must differ from the first in that cell (else
    /// it would solve the larger puzzle too). Counting to 2 would search the whole tree,
    /// the first solution's branch included; with limit 1, this search leaves that branch
    /// out from the root and stops at the first solution it finds.
    pub fn count_solutions_without(
        &mut self,
        puzzle: &ClassicPuzzle,
        without: Option<(usize, u8)>,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted<Board>, Exhausted> {
        let excluded = without.map(|(index, digit)| {
            debug_assert!(index < CELLS && (1..=9).contains(&digit));
            Excluded {
                band: index / 27,
                cell: index % 27,
                digit: usize::from(digit) - 1,
            }
        });
        #[cfg(target_arch = "x86_64")]
        if self.x86_64_v3 {
            // SAFETY: `x86_64_v3` is only set when the CPU reported every feature that
            // `search_x86_64_v3` is compiled for.
            return unsafe { self.search_x86_64_v3(puzzle, excluded, limit, budget) };
        }
        self.search(puzzle, excluded, limit, budget)
    }

    /// [`Solver::search`] compiled for x86-64-v3 CPUs (Haswell, Zen and later): hardware
    /// popcount, BMI shifts and bit tricks, AVX2 for the state copies and scans.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    fn search_x86_64_v3(
        &mut self,
        puzzle: &ClassicPuzzle,
        excluded: Option<Excluded>,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted<Board>, Exhausted> {
        self.search(puzzle, excluded, limit, budget)
    }

    /// The search itself; inlined into each compiled version with all it calls.
    #[inline(always)]
    fn search(
        &mut self,
        puzzle: &ClassicPuzzle,
        excluded: Option<Excluded>,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted<Board>, Exhausted> {
        let limit = limit.max(1);
        let mut stats = Stats::default();
        let mut count = 0;
        let mut first = None;
        let mut second = None;
        let Some(mut root) = State::new(puzzle.board()) else {
            return Ok(Counted {
                count,
                first,
                second,
                stats,
            });
        };
        if let Some(Excluded { band, cell, digit }) = excluded {
            // The first band update sees the mask changed (a new state has seen nothing).
            root.cand[at(digit, band)] &= !(1 << cell);
        }
        // `stack[top]` is the state being worked on; below it, the pending alternatives of the
        // guesses on the current path. A guess copies the top state once, upwards, and turns
        // the old slot into the alternative; backtracking only moves `top` down.
        let stack = &mut self.stack[..];
        stack[0] = root;
        let mut top = 0;
        budget.charge_milli(START_MILLI)?;
        loop {
            budget.charge_milli(NODE_MILLI)?;
            let state = &mut stack[top];
            match state.propagate() {
                Progress::Solved => {
                    count += 1;
                    match count {
                        1 => first = Some(state.grid()),
                        2 => second = Some(state.grid()),
                        _ => {}
                    }
                    if count >= limit {
                        break;
                    }
                }
                Progress::Contradiction => stats.dead_ends += 1,
                Progress::Stuck => {
                    stats.guesses += 1;
                    let (band, cell) = state.choose_branch(stats.dead_ends > 0);
                    let digits = state.digits(band, cell);
                    let digit = digits.trailing_zeros() as usize;
                    let rest = digits & (digits - 1);
                    // Every state on the path placed one more cell than the one below it, so
                    // the path never holds more than 81 guesses.
                    debug_assert!(top < CELLS);
                    let (lower, upper) = stack.split_at_mut(top + 1);
                    let alternative = &mut lower[top];
                    let next = &mut upper[0];
                    *next = *alternative;
                    next.place(digit, band, cell);
                    if rest != 0 && one_bit(rest) {
                        // A bivalue cell: the alternative is the other digit.
                        alternative.place(rest.trailing_zeros() as usize, band, cell);
                    } else {
                        alternative.cand[at(digit, band)] &= !(1 << cell);
                    }
                    top += 1;
                    continue;
                }
            }
            if top == 0 {
                break;
            }
            top -= 1;
        }
        Ok(Counted {
            count,
            first,
            second,
            stats,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::grid::Cell;
    use crate::engine::model::rules::Rules;
    use crate::engine::model::validate::validate;

    fn puzzle(line: &str) -> ClassicPuzzle {
        ClassicPuzzle::new(Board::from_line(line).unwrap()).unwrap()
    }

    fn count(p: &ClassicPuzzle, limit: u32) -> Counted<Board> {
        Solver::new()
            .count_solutions(p, limit, &Budget::unlimited())
            .unwrap()
    }

    /// The solution is a valid full grid that keeps every given.
    fn assert_solves(p: &ClassicPuzzle, solution: &Board) {
        let grid = solution.to_grid();
        let report = validate(&grid, &Rules::classic(grid.shape()));
        assert!(report.solved, "not a valid grid: {solution}");
        for (pos, digit) in p.board().givens() {
            assert_eq!(solution.get(pos), Some(digit), "given lost at {pos}");
        }
    }

    #[test]
    fn band_filter_keeps_a_full_band_and_rejects_an_empty_row() {
        assert_eq!(BAND_FILTER[0x1ff], BAND);
        // Rows 0 and 1 can only use box 0: no permutation.
        assert_eq!(BAND_FILTER[mini_row_pattern(7 | 7 << 9 | 0o777 << 18)], 0);
        // Row 0 only box 0 -> rows 1 and 2 lose box 0.
        let kept = BAND_FILTER[mini_row_pattern(7 | 0o777 << 9 | 0o777 << 18)];
        assert_eq!(kept & (7 << 9), 0);
        assert_eq!(kept & 7, 7);
    }

    #[test]
    fn mini_row_pattern_has_one_bit_per_non_empty_mini_row() {
        for row in 0..3 {
            for bx in 0..3 {
                for bits in 1..8u32 {
                    let mask = bits << (9 * row + 3 * bx);
                    assert_eq!(mini_row_pattern(mask), 1 << (3 * bx + row));
                }
            }
        }
    }

    #[test]
    fn band_peers_are_row_and_box() {
        // Cell 0: the rest of row 0 (8 cells) plus 6 more box cells in rows 1-2.
        assert_eq!(BAND_PEERS[0].count_ones(), 14);
        assert_eq!(BAND_PEERS[0] & 1, 0);
    }

    #[test]
    fn unsolved_peers_counts_the_empty_cells_of_row_column_and_box() {
        let board = Board::from_line(
            "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1",
        )
        .unwrap();
        let state = State::new(&board).unwrap();
        for index in 0..CELLS {
            let pos = Cell::from_index(index);
            let naive = (0..CELLS)
                .map(Cell::from_index)
                .filter(|&p| p != pos && board.get(p).is_none())
                .filter(|p| {
                    p.row() == pos.row() || p.col() == pos.col() || p.box_index() == pos.box_index()
                })
                .count();
            assert_eq!(
                state.unsolved_peers(index / 27, index % 27) as usize,
                naive,
                "cell {pos}"
            );
        }
    }

    #[test]
    fn solves_the_seed_example() {
        let p = puzzle(
            "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1",
        );
        // Every test that knows the answer checks it independently.
        let counted = count(&p, 2);
        assert_eq!(counted.count, 1);
        assert_eq!(counted.second, None);
        let solution = counted.first.unwrap();
        assert_solves(&p, &solution);
        assert_eq!(
            solution.to_line(),
            "957214386123689457468357129271563894539841672684972513315726948746198235892435761"
        );
    }

    /// A solution without a digit in a cell exists exactly where counting says so: none
    /// without the solution's own digit in a unique puzzle, one without any other, and for
    /// the puzzle less one clue, one exactly when that puzzle has two solutions.
    #[test]
    fn a_solution_without_a_digit_in_a_cell_exists_where_counting_finds_one() {
        let p = puzzle(
            "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1",
        );
        let solution = count(&p, 2).first.unwrap();
        let mut solver = Solver::new();
        let mut found_without = |p: &ClassicPuzzle, index: usize, digit: u8| {
            let without = Some((index, digit));
            solver
                .count_solutions_without(p, without, 1, &Budget::unlimited())
                .unwrap()
                .count
                > 0
        };
        let (mut unique, mut not) = (0, 0);
        for index in 0..CELLS {
            let own = solution.raw()[index];
            assert!(!found_without(&p, index, own));
            // A given keeps its digit: without another digit there, the solution remains.
            assert!(found_without(&p, index, own % 9 + 1));
            if p.board().raw()[index] != 0 {
                let mut smaller = *p.board();
                smaller.set(Cell::from_index(index), None);
                let smaller = ClassicPuzzle::new(smaller).unwrap();
                let two = count(&smaller, 2).count == 2;
                assert_eq!(found_without(&smaller, index, own), two, "clue {index}");
                if two {
                    not += 1;
                } else {
                    unique += 1;
                }
            }
        }
        assert!(not > 0, "some clue is needed ({unique} are not)");
    }

    #[test]
    fn empty_board_has_many_solutions() {
        let p = ClassicPuzzle::new(Board::empty()).unwrap();
        let counted = count(&p, 2);
        assert_eq!(counted.count, 2);
        let (first, second) = (counted.first.unwrap(), counted.second.unwrap());
        assert_solves(&p, &first);
        assert_solves(&p, &second);
        assert_ne!(first, second);
        assert_eq!(count(&p, 5).count, 5);
    }

    #[test]
    fn a_full_valid_grid_is_its_own_unique_solution() {
        let line =
            "957348216134265879268197534729584163483612957615739428392456781871923645546871392";
        let counted = count(&puzzle(line), 2);
        assert_eq!(counted.count, 1);
        assert_eq!(counted.first.unwrap().to_line(), line);
        assert_eq!(counted.stats.guesses, 0);
    }

    #[test]
    fn conflict_free_but_unsolvable_board_has_no_solution() {
        // Row 1 holds 1-8 and column 9 holds a 9 lower down: cell (1,9) has no candidate.
        let line = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
        let counted = count(&puzzle(&line), 2);
        assert_eq!(counted.count, 0);
        assert!(counted.first.is_none());
    }

    /// Both compiled versions of the search give the same answers and the same trees.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_portable_search_agrees_with_the_x86_64_v3_one() {
        if !has_x86_64_v3() {
            // Nothing to compare with: say so (past the harness's capture) rather than pass
            // by comparing the portable search with itself.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: the portable search against the x86-64-v3 one: this CPU lacks \
                 AVX2, BMI1, BMI2 or POPCNT"
            );
            return;
        }
        let lines = [
            "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1",
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        ];
        let mut fast = Solver::new();
        assert!(
            fast.x86_64_v3,
            "a new solver picks the x86-64-v3 search on this CPU"
        );
        let mut portable = Solver::new();
        portable.x86_64_v3 = false;
        for line in lines {
            let p = puzzle(line);
            assert_eq!(
                fast.count_solutions(&p, 2, &Budget::unlimited()).unwrap(),
                portable
                    .count_solutions(&p, 2, &Budget::unlimited())
                    .unwrap()
            );
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_short_cpu_check_agrees_with_std() {
        assert_eq!(
            has_x86_64_v3(),
            is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("popcnt")
        );
    }

    #[test]
    fn a_tiny_budget_gives_up_instead_of_searching() {
        let p = ClassicPuzzle::new(Board::empty()).unwrap();
        let budget = Budget::work(3);
        let err = Solver::new()
            .count_solutions(&p, 1_000, &budget)
            .unwrap_err();
        assert_eq!(
            err,
            Exhausted {
                stop: crate::engine::budget::Stop::Work,
                work: 4
            }
        );
    }

    #[test]
    fn a_cancelled_search_stops() {
        let cancel = crate::engine::budget::Cancel::new();
        cancel.cancel();
        let budget = Budget::unlimited().with_cancel(cancel);
        let p = ClassicPuzzle::new(Board::empty()).unwrap();
        let err = Solver::new()
            .count_solutions(&p, u32::MAX, &budget)
            .unwrap_err();
        assert_eq!(err.stop, crate::engine::budget::Stop::Cancelled);
        assert!(err.work <= crate::engine::budget::CHECK_EVERY);
    }
}
