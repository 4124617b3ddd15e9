//! [`GeneralSolver`]: an exact solver for every [`Shape`], with optional killer cages.
//!
//! # Why a second solver
//! The 9x9 band solver ([`Solver`](crate::engine::Solver)) is laid out for exactly 81 cells
//! and three bands; bending it to other sizes or extra constraints would slow the path the
//! service lives on. This engine is general instead: one `u32` candidate mask per cell (bit
//! `d - 1` is digit `d`), so it serves 4x4 to 25x25 with the same code.
//!
//! # How
//! Propagation to a fixed point, cheapest rules first:
//! 1. naked singles: a cell with one candidate is placed and its digit leaves every peer (row,
//!    column, box and cage-mates: cage digits are distinct); a peer left one candidate is
//!    placed at once, so one sweep of the cells finds them all;
//! 2. hidden singles: a digit with one place left in a row, column or box goes there, placed
//!    at once like a naked single (with what it leaves single), and the pass repeats until it
//!    places nothing, without sweeping the cells again;
//! 3. cage sums: with `m` empty cells and `r` left to make, only the `m`-digit sets summing to
//!    `r` that avoid digits already placed in the cage and use only digits some empty cell
//!    still allows can complete it. Their union bounds every empty cell; a digit in all of
//!    them must appear, so it is placed when one cell is left for it, and removed from the
//!    row, column or box that all its cells share. A set counts only if
//!    every empty cell can take one of its digits. The sets come from a table built once per
//!    solver and shape (`ComboTable` in `engine/sums.rs`).
//! 4. the "45 rule", applied as extra cages built once per puzzle: in each row, column and
//!    box, the cells outside the cages lying wholly inside it make up the rest of the unit's
//!    total (1 + ... + side). On 60 generated killers this cut guesses about sevenfold.
//! 5. the same rule on runs of whole rows or columns, where the leftover cells (at most 6)
//!    may repeat digits: each is bounded by the total minus the others' largest and smallest
//!    candidates. With the rule above and (3)'s pointing, guesses fell from 7463 to 379 on
//!    those 60 killers (worst puzzle 4733 to 136).
//! 6. relations between two cells (dots, thermometers, non-consecutive; see
//!    `constraints/`): every arc is kept consistent, each digit of one cell needing a digit
//!    of the other that its table allows, revising the arcs of every cell whose candidates
//!    changed (a queue of cells) until nothing changes. Cells' domains (odd, even, a
//!    thermometer's bounds) are applied once, to the root frame. Then the forks: a cell
//!    whose relations to two peers both allow one same digit there loses that digit (see
//!    [`revise_forks`]: the f-puzzles whispers example fell from 6,745 guesses to 155).
//! 7. propagators (arrows, sandwiches, little killers, ...; see `constraints/propagators.rs`):
//!    each narrows its own cells' candidates when any of them changed since it last looked,
//!    and decides a full assignment of its cells exactly, so a solution meets every one.
//! 8. locked candidates, once everything above is stuck: where a row or column meets a box
//!    or region, a digit one of the two houses holds only there leaves the other house (see
//!    [`lock_candidates`]; on the setter families' benchmark guesses fell by a fifth to a
//!    half and most p99s by a quarter to a half).
//!
//! Then it branches on the empty cell with the fewest candidates, weighed, once a propagator
//! has failed, by how often the propagators through it failed (see [`choose_cell`]: on the
//! setter families' benchmark this cut the units of little killers fourfold and their p99
//! about tenfold; BENCHMARKS.md), and among equals on the one with the most unplaced peers
//! (about half the guesses on classic rules). The guess stack is a flat
//! buffer of whole candidate frames (one per guessed cell on the current path, so at most
//! `cells + 1`), sized before the search starts: the search neither recurses nor allocates.
//!
//! # Work
//! Guesses are a poor measure of this engine's work: on a 25x25 board with large cages one
//! propagation can scan thousands of cage-sum sets per cage, while on a 4x4 it is a handful
//! of mask operations. So it counts what it does instead (cells visited, sets checked, layout
//! entries built), each kind weighed by its cost, and charges the [`Budget`] one unit per
//! [`OPS_PER_UNIT`] weighted operations, about a microsecond; the charges come after every
//! sweep and every cage, so a deadline or a cancellation stops it within about a millisecond
//! whatever the board.

use std::fmt;
use std::sync::Arc;

use crate::engine::budget::{Budget, Exhausted, Meter};
use crate::engine::model::constraints::propagators::{revise, Propagator};
use crate::engine::model::constraints::Houses;
use crate::engine::model::grid::{Cell, Grid, Shape};
use crate::engine::model::puzzle::{Counted, Puzzle, Solution};
use crate::engine::model::sums::{mask_sum, ComboTable};

/// Weighted operations per unit of work: about a microsecond of CPU. Each kind of operation
/// is weighed by what it costs ([`cost`]), in quarter nanoseconds.
pub const OPS_PER_UNIT: u64 = 4_000;

/// What one operation of each kind costs, in quarter nanoseconds: fitted by
/// `examples/work_units.rs` over open boards of every size and rule set, boards that hide
/// a contradiction, and Killers of 9x9 to 25x25 (BENCHMARKS.md), so that a unit stays near a
/// microsecond whatever mix of work a board makes. A placement's peer updates cost most; a
/// cage-sum set is tested in a few instructions.
mod cost {
    /// One entry of the cage-sum table, built once per solver and side.
    pub const TABLE: u64 = 9;
    /// One entry of the layout (houses, peers, 45-rule scans), rebuilt per puzzle: the scans
    /// over runs of lines dominate, with a division per cell.
    pub const LAYOUT: u64 = 12;
    /// One cell of a guess (the frame copied, the branch cell chosen).
    pub const GUESS: u64 = 4;
    /// One peer read to break a tie between cells to branch on (a load and a test, like a
    /// cell of a sweep).
    pub const TIE: u64 = 4;
    /// One peer of a placed cell.
    pub const PEER: u64 = 17;
    /// One cell of a naked-single sweep.
    pub const SWEEP: u64 = 4;
    /// One cell of a hidden-single pass over the houses.
    pub const HIDDEN: u64 = 9;
    /// One cell of a cage looked at.
    pub const CAGE: u64 = 6;
    /// One cell of a cage-sum set tested.
    pub const SET: u64 = 2;
    /// One step of finding where a digit every completion needs can go (and clearing it from
    /// the houses its places share, a cage-membership test per cell).
    pub const MUST: u64 = 9;
    /// One cell of a sum-only region bounded.
    pub const SUM: u64 = 6;
    /// One arc of a relation revised: one OR per candidate of the cell it reads.
    pub const ARC: u64 = 12;
    /// One cell of a piece read or cleared by the locked candidates.
    pub const LOCKED: u64 = 5;
    /// One operation a propagator counts (a cell's bounds read, an assignment tried).
    pub const PROPAGATOR: u64 = 8;
}

/// Largest leftover of a run of rows or columns kept as a sum region.
const BAND_REST_MAX: usize = 6;

/// Houses one cell can be in: a row, a column, a box or region, both diagonals (the centre
/// of an odd grid), a window and a disjoint group.
const MAX_HOUSES_PER_CELL: usize = 7;

/// Marks a cell whose digit has already been removed from its peers.
const PLACED: u32 = 1 << 31;

/// The most arcs a cell may have for its forks to be listed (at most 120 pairs a cell).
/// Relations stack without limit (a client may send the same 25-cell renban line a hundred
/// times: 2,400 arcs a cell, millions of pairs), and forks are only a strengthening, so a
/// cell beyond this has none; a 9x9 renban line gives 8 arcs a cell, a cell inside dots
/// and whispers on every side about a dozen.
const MAX_FORK_ARCS: usize = 16;

/// Where one propagation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Progress {
    Solved,
    Stuck,
    Contradiction,
}

/// The puzzle's constraint graph as flat index lists, rebuilt per call into reused buffers.
#[derive(Clone, Debug, Default)]
struct Layout {
    side: usize,
    cells: usize,
    all: u32,
    /// `peers[peer_start[i]..peer_start[i + 1]]`: every cell that must differ from cell `i`.
    peer_start: Vec<u32>,
    peers: Vec<u16>,
    /// The houses, `side` cells each: rows, columns, boxes or regions, then any diagonals
    /// and windows.
    units: Vec<u16>,
    /// `cell_units[cell_unit_start[i]..cell_unit_start[i + 1]]`: the houses of cell `i`.
    cell_unit_start: Vec<u32>,
    cell_units: Vec<u16>,
    /// `cage_cells[cage_start[k]..cage_start[k + 1]]` with sum `cage_sums[k]`.
    cage_start: Vec<u32>,
    cage_cells: Vec<u16>,
    cage_sums: Vec<u32>,
    /// The cages contradict each other before any search (see [`Layout::add_innies`]).
    impossible: bool,
    /// Sum-only regions (digits may repeat): `sum_cells[sum_start[k]..sum_start[k + 1]]`
    /// add up to `sum_totals[k]`. See [`Layout::add_band_innies`].
    sum_start: Vec<u32>,
    sum_cells: Vec<u16>,
    sum_totals: Vec<u32>,
    /// The digits each cell may hold at all (`all` but where a domain says less).
    domains: Vec<u32>,
    /// `arcs[arc_start[i]..arc_start[i + 1]]`: the relations cell `i` is in, each as the
    /// other cell and the offset of the table read from cell `i` in `tables`.
    arc_start: Vec<u32>,
    arcs: Vec<(u16, u32)>,
    /// `side` masks per arc: `tables[offset + d - 1]` the other cell's digits that cell
    /// `i` holding `d` allows.
    tables: Vec<u32>,
    /// The propagators, and `prop_cells[prop_start[k]..prop_start[k + 1]]` the cells of the
    /// `k`-th in its own order.
    propagators: Vec<Arc<dyn Propagator>>,
    prop_start: Vec<u32>,
    prop_cells: Vec<u16>,
    /// Two relations from one cell to two cells that must differ (see [`revise_forks`]):
    /// the middle cell and each arc from it, as in `arcs`.
    forks: Vec<(u16, [(u16, u32); 2])>,
    /// Where a row or a column meets a box or region (see [`lock_candidates`]): the
    /// pieces' cells, `piece_cells[piece_start[p]..piece_start[p + 1]]`, and the houses each
    /// piece splits, as groups of pieces: each line split by the regions it crosses, each
    /// region by the rows it crosses and again by the columns,
    /// `group_pieces[group_start[g]..group_start[g + 1]]`. A piece is in two groups, its
    /// line's and its region's (`piece_groups`). None when the box-like houses do not cover
    /// the grid once.
    piece_start: Vec<u32>,
    piece_cells: Vec<u16>,
    group_start: Vec<u32>,
    group_pieces: Vec<u16>,
    piece_groups: Vec<[u16; 2]>,
}

impl Layout {
    /// Rebuilds the layout for `puzzle`; returns the operations it took (for the meter).
    fn rebuild(&mut self, puzzle: &Puzzle) -> u64 {
        let shape = puzzle.shape();
        let side = shape.side();
        let cells = shape.cells();
        self.side = side;
        self.cells = cells;
        self.all = shape.all_digits();
        let table = puzzle.rules().house_table();
        self.units.clear();
        for house in table.complete() {
            debug_assert_eq!(house.cells.len(), side);
            self.units.extend(
                house
                    .cells
                    .iter()
                    .map(|c| (c.row() * side + c.col()) as u16),
            );
        }
        // Each cell's houses: counted, then filled in house order.
        self.cell_unit_start.clear();
        self.cell_unit_start.resize(cells + 1, 0);
        for &i in &self.units {
            self.cell_unit_start[usize::from(i) + 1] += 1;
        }
        for i in 0..cells {
            self.cell_unit_start[i + 1] += self.cell_unit_start[i];
        }
        self.cell_units.clear();
        self.cell_units.resize(self.units.len(), 0);
        let mut next: Vec<u32> = self.cell_unit_start[..cells].to_vec();
        for (u, house) in self.units.chunks_exact(side).enumerate() {
            for &i in house {
                let slot = &mut next[usize::from(i)];
                self.cell_units[*slot as usize] = u as u16;
                *slot += 1;
            }
        }

        self.cage_start.clear();
        self.cage_cells.clear();
        self.cage_sums.clear();
        self.cage_start.push(0);
        let mut cage_of = vec![usize::MAX; cells];
        // The houses with a total (cages with a sum); one without is only distinct digits,
        // peers like an extra region's below.
        for (k, summed) in table.distinct_sums().iter().enumerate() {
            for at in &summed.cells {
                let i = at.row() * side + at.col();
                cage_of[i] = k;
                self.cage_cells.push(i as u16);
            }
            self.cage_start.push(self.cage_cells.len() as u32);
            self.cage_sums.push(summed.total);
        }
        let summed = self.cage_sums.len();
        self.impossible = false;
        self.add_innies(summed, &cage_of, shape.digit_total());
        self.add_band_innies(summed, &cage_of, shape.digit_total());

        // Pairs of cells that must differ outside the houses (anti-king), both ways round,
        // and the cells of every house of distinct digits without a total (extra regions,
        // renban lines, cages without a sum): peers too, though no house of `units`.
        let pairs = table.forbidden_pairs();
        let distinct: Vec<&[Cell]> = (table.distinct_without_total())
            .map(|house| house.cells.as_slice())
            .collect();
        let mut paired: Vec<Vec<u16>> = vec![
            Vec::new();
            if pairs.is_empty() && distinct.is_empty() {
                0
            } else {
                cells
            }
        ];
        for pair in pairs {
            let [a, b] = pair.cells.map(|c| (c.row() * side + c.col()) as u16);
            paired[usize::from(a)].push(b);
            paired[usize::from(b)].push(a);
        }
        let mut distinct_cells = 0u64;
        for house in &distinct {
            distinct_cells += (house.len() * house.len()) as u64;
            for &a in *house {
                let i = a.row() * side + a.col();
                paired[i].extend(house.iter().map(|b| (b.row() * side + b.col()) as u16));
            }
        }

        // Domains and relations (both directions of each).
        self.domains.clear();
        self.domains.resize(cells, self.all);
        for domain in table.domains() {
            self.domains[domain.cell.row() * side + domain.cell.col()] &= domain.allowed;
        }
        let relations = table.relations();
        self.arc_start.clear();
        self.arc_start.resize(cells + 1, 0);
        self.arcs.clear();
        self.tables.clear();
        if !relations.is_empty() {
            for relation in relations {
                for cell in relation.cells {
                    self.arc_start[cell.row() * side + cell.col() + 1] += 1;
                }
            }
            for i in 0..cells {
                self.arc_start[i + 1] += self.arc_start[i];
            }
            self.arcs.resize(2 * relations.len(), (0, 0));
            let mut next: Vec<u32> = self.arc_start[..cells].to_vec();
            for relation in relations {
                let [a, b] = relation.cells.map(|c| c.row() * side + c.col());
                let forward = self.tables.len() as u32;
                self.tables.extend_from_slice(&relation.table);
                let backward = self.tables.len() as u32;
                self.tables.extend(relation.reversed());
                for (from, to, offset) in [(a, b, forward), (b, a, backward)] {
                    self.arcs[next[from] as usize] = (to as u16, offset);
                    next[from] += 1;
                }
            }
        }

        self.propagators.clear();
        self.prop_start.clear();
        self.prop_cells.clear();
        self.prop_start.push(0);
        for propagator in table.propagators() {
            self.propagators.push(Arc::clone(propagator));
            self.prop_cells
                .extend((propagator.cells().iter()).map(|c| (c.row() * side + c.col()) as u16));
            self.prop_start.push(self.prop_cells.len() as u32);
        }

        self.peer_start.clear();
        self.peers.clear();
        self.peer_start.push(0);
        let mut seen = vec![false; cells];
        for i in 0..cells {
            let mut add = |j: u16, peers: &mut Vec<u16>| {
                let j_usize = usize::from(j);
                if j_usize != i && !seen[j_usize] {
                    seen[j_usize] = true;
                    peers.push(j);
                }
            };
            let first = self.peers.len();
            let houses = self.cell_unit_start[i] as usize..self.cell_unit_start[i + 1] as usize;
            for &unit in &self.cell_units[houses] {
                let unit = usize::from(unit);
                for k in 0..side {
                    add(self.units[unit * side + k], &mut self.peers);
                }
            }
            if let Some(&k) = cage_of.get(i).filter(|&&k| k != usize::MAX) {
                let (lo, hi) = (self.cage_start[k] as usize, self.cage_start[k + 1] as usize);
                for idx in lo..hi {
                    add(self.cage_cells[idx], &mut self.peers);
                }
            }
            for &j in paired.get(i).into_iter().flatten() {
                add(j, &mut self.peers);
            }
            for &j in &self.peers[first..] {
                seen[usize::from(j)] = false;
            }
            self.peer_start.push(self.peers.len() as u32);
        }
        let forks = self.find_forks();
        let pieces = self.find_pieces(table);
        // Houses and peers (each cell's houses in full), the cage lists, and the innie scans:
        // each run of lines looks at every cage cell and every cell once.
        let cage_cells = self.cage_cells.len() as u64;
        let runs = (side * side) as u64;
        (self.units.len() as u64) * (side as u64 + 1)
            + runs * (cage_cells + cells as u64)
            + 2 * pairs.len() as u64
            + distinct_cells
            + (table.domains().len() + 2 * relations.len() * (side + 1)) as u64
            + self.prop_cells.len() as u64
            + forks
            + pieces
    }

    /// Fills the pieces and groups [`lock_candidates`] reads. A cell's region is the first
    /// box-like house it is in (its box or Jigsaw region; windows come after); lines are the
    /// rows and columns. Returns the operations it took.
    fn find_pieces(&mut self, table: &Houses) -> u64 {
        let (side, cells) = (self.side, self.cells);
        self.piece_start.clear();
        self.piece_cells.clear();
        self.group_start.clear();
        self.group_pieces.clear();
        self.piece_groups.clear();
        let mut region_of = vec![u16::MAX; cells];
        let mut regions = 0usize;
        for house in table.complete().filter(|h| h.unit.kind.is_box_like()) {
            let index = |c: &Cell| c.row() * side + c.col();
            if house.cells.iter().all(|c| region_of[index(c)] == u16::MAX) {
                for c in &house.cells {
                    region_of[index(c)] = regions as u16;
                }
                regions += 1;
            }
        }
        let mut ops = (cells + self.units.len()) as u64;
        if region_of.contains(&u16::MAX) {
            return ops;
        }
        // Pieces line by line (rows, then columns), each line's a group.
        self.piece_start.push(0);
        self.group_start.push(0);
        // For each family and region, its pieces in line order.
        let mut by_region: Vec<Vec<u16>> = vec![Vec::new(); 2 * regions];
        for family in 0..2 {
            for line in 0..side {
                let at = |k: usize| {
                    if family == 0 {
                        line * side + k
                    } else {
                        k * side + line
                    }
                };
                let mut seen: Vec<u16> = Vec::new();
                for k in 0..side {
                    let region = region_of[at(k)];
                    if seen.contains(&region) {
                        continue;
                    }
                    seen.push(region);
                    let piece = self.piece_groups.len() as u16;
                    self.piece_cells.extend(
                        (k..side)
                            .map(at)
                            .filter(|&i| region_of[i] == region)
                            .map(|i| i as u16),
                    );
                    self.piece_start.push(self.piece_cells.len() as u32);
                    let line_group = self.group_start.len() as u16 - 1;
                    self.piece_groups.push([line_group, 0]);
                    self.group_pieces.push(piece);
                    by_region[family * regions + usize::from(region)].push(piece);
                    ops += side as u64;
                }
                self.group_start.push(self.group_pieces.len() as u32);
            }
        }
        for pieces in &by_region {
            let region_group = self.group_start.len() as u16 - 1;
            for &piece in pieces {
                self.piece_groups[usize::from(piece)][1] = region_group;
            }
            self.group_pieces.extend_from_slice(pieces);
            self.group_start.push(self.group_pieces.len() as u32);
        }
        ops + self.group_pieces.len() as u64
    }

    /// Fills `forks`: every two arcs of a cell whose other cells are peers, for cells of at
    /// most [`MAX_FORK_ARCS`] arcs. Returns the operations it took (each pair of a cell's
    /// arcs, and a peer list read per pair).
    fn find_forks(&mut self) -> u64 {
        let mut forks = std::mem::take(&mut self.forks);
        forks.clear();
        let mut ops = self.cells as u64;
        for i in 0..self.cells {
            let arcs = self.arcs_of(i);
            if arcs.len() > MAX_FORK_ARCS {
                continue;
            }
            for (a, &left) in arcs.iter().enumerate() {
                for &right in &arcs[a + 1..] {
                    let peers = self.peers_of(usize::from(left.0));
                    ops += 1 + peers.len() as u64;
                    if peers.contains(&right.0) {
                        forks.push((i as u16, [left, right]));
                    }
                }
            }
        }
        self.forks = forks;
        ops
    }

    /// The "45 rule": in every house, the cells not covered by cages lying wholly inside it
    /// must make up the rest of the unit's total. They are distinct (one unit), so they are
    /// one more cage for the pruning, one that no caller wrote. Found once per puzzle; a unit
    /// whose inner cages already exceed the total (or fill it with the wrong total) makes
    /// the puzzle impossible.
    fn add_innies(&mut self, real: usize, cage_of: &[usize], total: u32) {
        if real == 0 {
            return;
        }
        let side = self.side;
        let mut in_unit = vec![false; self.cells];
        let mut inside = vec![false; real];
        for u in 0..self.units.len() / side {
            let unit = &self.units[u * side..(u + 1) * side];
            for &i in unit {
                in_unit[usize::from(i)] = true;
            }
            let mut covered = 0u32;
            for (k, flag) in inside.iter_mut().enumerate() {
                let (lo, hi) = (self.cage_start[k] as usize, self.cage_start[k + 1] as usize);
                *flag = self.cage_cells[lo..hi]
                    .iter()
                    .all(|&i| in_unit[usize::from(i)]);
                if *flag {
                    covered += self.cage_sums[k];
                }
            }
            let before = self.cage_cells.len();
            for &i in unit {
                let k = cage_of[usize::from(i)];
                if k == usize::MAX || !inside[k] {
                    self.cage_cells.push(i);
                }
            }
            let rest = self.cage_cells.len() - before;
            match total.checked_sub(covered) {
                Some(0) if rest == 0 => {}
                Some(left) if rest > 0 && rest < side && left > 0 => {
                    self.cage_start.push(self.cage_cells.len() as u32);
                    self.cage_sums.push(left);
                }
                // No cage wholly inside: nothing learnt.
                Some(_) if rest == side => self.cage_cells.truncate(before),
                _ => {
                    self.cage_cells.truncate(before);
                    self.impossible = true;
                }
            }
            for &i in unit {
                in_unit[usize::from(i)] = false;
            }
        }
    }

    /// The 45 rule on runs of 2 or more whole rows (or columns): the cells outside the cages
    /// lying wholly inside the run add up to the rest of the run's total. Digits there may
    /// repeat, so these regions only bound each cell's digit by the others' smallest and
    /// largest candidates. Kept only when at most [`BAND_REST_MAX`] cells remain, where the
    /// bounds bite.
    fn add_band_innies(&mut self, real: usize, cage_of: &[usize], total: u32) {
        self.sum_start.clear();
        self.sum_cells.clear();
        self.sum_totals.clear();
        self.sum_start.push(0);
        if real == 0 {
            return;
        }
        let side = self.side;
        let mut inside = vec![false; real];
        for along_rows in [true, false] {
            let line = |i: usize| if along_rows { i / side } else { i % side };
            for first in 0..side {
                // Runs of 2 to side - 1 lines (the whole grid says nothing).
                for last in (first + 1..side).filter(|&l| l - first + 1 < side) {
                    let within = |i: u16| (first..=last).contains(&line(usize::from(i)));
                    let mut covered = 0u32;
                    for (k, flag) in inside.iter_mut().enumerate() {
                        let (lo, hi) =
                            (self.cage_start[k] as usize, self.cage_start[k + 1] as usize);
                        *flag = self.cage_cells[lo..hi].iter().all(|&i| within(i));
                        if *flag {
                            covered += self.cage_sums[k];
                        }
                    }
                    let before = self.sum_cells.len();
                    for (i, &k) in cage_of.iter().enumerate() {
                        if within(i as u16) && (k == usize::MAX || !inside[k]) {
                            self.sum_cells.push(i as u16);
                        }
                    }
                    let rest = self.sum_cells.len() - before;
                    let run_total = total * (last - first + 1) as u32;
                    match run_total.checked_sub(covered) {
                        Some(0) if rest == 0 => {}
                        Some(left) if (1..=BAND_REST_MAX).contains(&rest) && left > 0 => {
                            self.sum_start.push(self.sum_cells.len() as u32);
                            self.sum_totals.push(left);
                        }
                        Some(_) if rest > BAND_REST_MAX => self.sum_cells.truncate(before),
                        _ => {
                            self.sum_cells.truncate(before);
                            self.impossible = true;
                        }
                    }
                }
            }
        }
    }

    /// The arcs from cell `i`: the other cell and its table's offset.
    fn arcs_of(&self, i: usize) -> &[(u16, u32)] {
        &self.arcs[self.arc_start[i] as usize..self.arc_start[i + 1] as usize]
    }

    fn peers_of(&self, i: usize) -> &[u16] {
        &self.peers[self.peer_start[i] as usize..self.peer_start[i + 1] as usize]
    }

    /// The cells of propagator `k`.
    fn prop_cells_of(&self, k: usize) -> &[u16] {
        &self.prop_cells[self.prop_start[k] as usize..self.prop_start[k + 1] as usize]
    }

    /// The houses (indices into `units`) of cell `i`.
    fn houses_of(&self, i: usize) -> &[u16] {
        &self.cell_units[self.cell_unit_start[i] as usize..self.cell_unit_start[i + 1] as usize]
    }
}

/// A reusable exact solver for every shape, with or without cages. Keep one per thread: it
/// owns the guess stack and the sum table, so reusing it means the search never allocates.
#[derive(Clone, Default)]
pub struct GeneralSolver {
    layout: Layout,
    table: ComboTable,
    /// Candidate frames, `layout.cells` masks each; frame `d` is the state at guess depth `d`.
    frames: Vec<u32>,
    /// Scratch for [`propagate`], one entry per cage (the 45-rule ones included).
    cage_seen: Vec<u32>,
    /// Scratch for the relations: the cells whose arcs are due (queue and membership).
    arc_queue: Vec<u16>,
    arc_queued: Vec<bool>,
    /// Scratch for the naked singles: cells left one candidate, to place.
    placing: Vec<u16>,
    /// Scratch for the locked candidates: each piece's open digits.
    piece_masks: Vec<u32>,
    /// Scratch for the relations: each cell's candidates when its arcs were last revised.
    arc_seen: Vec<u32>,
    /// Scratch for the propagators: their cells' candidates when each last looked (the
    /// layout's `prop_cells` order), whether each has looked in this search, and their masks.
    prop_seen: Vec<u32>,
    prop_looked: Vec<bool>,
    prop_masks: Vec<u32>,
    /// Each cell's share of the propagators' failures in this search (see [`choose_cell`]).
    failures: Vec<u32>,
}

impl fmt::Debug for GeneralSolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GeneralSolver").finish_non_exhaustive()
    }
}

impl GeneralSolver {
    pub fn new() -> GeneralSolver {
        GeneralSolver::default()
    }

    /// Finds one solution (`count` 0 or 1).
    pub fn solve(&mut self, puzzle: &Puzzle, budget: &Budget) -> Result<Counted, Exhausted> {
        self.count_solutions(puzzle, 1, budget)
    }

    /// Counts solutions, stopping at `limit`: 0, 1, ... or `limit`. A limit of 0 is treated
    /// as 1. `Err` when `budget` stopped it before the answer was known (see the module
    /// docs for what the work counts). With a count of 2 or more, `second` is the last
    /// solution found.
    pub fn count_solutions(
        &mut self,
        puzzle: &Puzzle,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted, Exhausted> {
        self.count_solutions_without(puzzle, None, limit, budget)
    }

    /// [`GeneralSolver::count_solutions`] of the solutions without `digit` (1-based) in the
    /// cell at `index` (row-major), when `without` is `Some((index, digit))`. A generator's
    /// test of a clue taken out of a unique puzzle: any second solution differs from the
    /// first there, so with limit 1 this search leaves the first solution's branch out from
    /// the root and stops at the first solution it finds, where a count to 2 would search
    /// both.
    pub fn count_solutions_without(
        &mut self,
        puzzle: &Puzzle,
        without: Option<(usize, u8)>,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted, Exhausted> {
        let limit = limit.max(1);
        let shape = puzzle.shape();
        let side = shape.side();
        let cells = shape.cells();
        let mut meter = Meter::new(budget, OPS_PER_UNIT);
        let summed = !puzzle.rules().house_table().distinct_sums().is_empty();
        if summed && !self.table.covers(side, side) {
            // Every size, as far as the table's cap allows: the 45-rule cages the layout adds
            // can be up to `side - 1` cells whatever the caller's cages are. Built once per
            // solver and side, paid for by the search that needs it first.
            meter.add(ComboTable::build_cost(side, side) * cost::TABLE)?;
            self.table = ComboTable::build(side, side);
        }
        meter.add(self.layout.rebuild(puzzle) * cost::LAYOUT)?;
        // One frame per guessed cell on the path, plus the root.
        let needed = (cells + 1) * cells;
        if self.frames.len() < needed {
            self.frames.resize(needed, 0);
        }
        self.cage_seen.clear();
        self.cage_seen.resize(self.layout.cage_sums.len(), u32::MAX);
        let all = shape.all_digits();
        let domains = &self.layout.domains;
        for ((slot, &given), &domain) in self.frames[..cells]
            .iter_mut()
            .zip(puzzle.grid().raw())
            .zip(domains)
        {
            // A given outside its domain leaves the cell empty: a contradiction at once.
            *slot = domain & if given == 0 { all } else { 1 << (given - 1) };
        }
        if let Some((index, digit)) = without {
            debug_assert!(digit >= 1);
            self.frames[index] &= !(1 << (digit - 1));
        }

        let mut counted = Counted::none();
        if self.layout.impossible {
            return Ok(counted);
        }
        let mut depth = 0;
        let Self {
            layout,
            table,
            frames,
            cage_seen,
            arc_queue,
            arc_queued,
            placing,
            piece_masks,
            arc_seen,
            prop_seen,
            prop_looked,
            prop_masks,
            failures,
        } = self;
        failures.clear();
        failures.resize(cells, 0);
        arc_queued.clear();
        arc_queued.resize(cells, false);
        arc_seen.resize(cells, 0);
        prop_seen.resize(layout.prop_cells.len(), 0);
        prop_looked.clear();
        prop_looked.resize(layout.propagators.len(), false);
        let mut scratch = Scratch {
            cage_seen,
            arc_queue,
            arc_queued,
            placing,
            piece_masks,
            arc_seen,
            prop_seen,
            prop_looked,
            prop_masks,
            failures,
        };
        loop {
            let (lo, hi) = (depth * cells, (depth + 1) * cells);
            match propagate(&mut frames[lo..hi], layout, table, &mut scratch, &mut meter)? {
                Progress::Solved => {
                    counted.count += 1;
                    let solution = Some(solution_of(shape, &frames[lo..hi]));
                    if counted.first.is_none() {
                        counted.first = solution;
                    } else {
                        counted.second = solution;
                    }
                    if counted.count >= limit {
                        break;
                    }
                }
                Progress::Contradiction => counted.stats.dead_ends += 1,
                Progress::Stuck => {
                    counted.stats.guesses += 1;
                    let (cell, peers_read) = choose_cell(&frames[lo..hi], scratch.failures, layout);
                    meter.add(cells as u64 * cost::GUESS + peers_read * cost::TIE)?;
                    let mask = frames[lo + cell];
                    let bit = mask & mask.wrapping_neg();
                    // Frame `depth` becomes the alternative (cell without the digit), the
                    // copy above it the guess (cell = digit).
                    debug_assert!(hi + cells <= frames.len());
                    frames.copy_within(lo..hi, hi);
                    frames[lo + cell] = mask & !bit;
                    frames[hi + cell] = bit;
                    depth += 1;
                    continue;
                }
            }
            if depth == 0 {
                break;
            }
            depth -= 1;
        }
        Ok(counted)
    }
}

/// The unplaced cell to branch on: the fewest candidates per failure its propagators have
/// seen, plus one (dom/wdeg, weighted degree, from constraint programming; before any
/// failure, simply the fewest candidates). A sum along a diagonal or a sandwich fails where
/// its cells' digits interact; branching there first meets those contradictions near the
/// root rather than deep in the tree. Among equals, the cell with the most unplaced peers
/// (the band solver's choice once its search has met a dead end; here from the first
/// guess): either digit placed there reaches the most cells, so propagation cuts the
/// subtree most. Taking the first of the equals instead searched about twice the guesses on
/// classic rules (the hardest puzzles through this solver: 286 against 138 a puzzle) and
/// 2-45% more work on the setter families (BENCHMARKS.md). Returns the cell and the peers
/// read, for the meter.
fn choose_cell(frame: &[u32], failures: &[u32], layout: &Layout) -> (usize, u64) {
    let mut peers_read = 0u64;
    let mut unplaced_peers = |i: usize| {
        let peers = layout.peers_of(i);
        peers_read += peers.len() as u64;
        peers
            .iter()
            .filter(|&&p| frame[usize::from(p)] & PLACED == 0)
            .count()
    };
    let mut best = 0;
    // Above any cell's count (at most 32 candidates), so the first unplaced cell is taken;
    // the products below stay under 2^38. The best cell's peers are counted only once
    // another cell ties with it: most cells that lead for a while are never tied.
    let (mut best_count, mut best_weight) = (u64::from(u32::BITS) + 1, 1u64);
    let mut best_reach = None;
    for (i, (&c, &failed)) in frame.iter().zip(failures).enumerate() {
        if c & PLACED != 0 {
            continue;
        }
        let (n, weight) = (u64::from(c.count_ones()), 1 + u64::from(failed));
        // n / weight against best_count / best_weight, without division.
        let (this, that) = (n * best_weight, best_count * weight);
        if this < that {
            best = i;
            (best_count, best_weight, best_reach) = (n, weight, None);
        } else if this == that {
            let leader = *best_reach.get_or_insert_with(|| unplaced_peers(best));
            let reach = unplaced_peers(i);
            if reach > leader {
                best = i;
                (best_count, best_weight, best_reach) = (n, weight, Some(reach));
            }
        }
    }
    debug_assert!(
        frame[best] & PLACED == 0,
        "a search stuck has an unplaced cell"
    );
    (best, peers_read)
}

fn solution_of(shape: Shape, frame: &[u32]) -> Solution {
    let cells = frame
        .iter()
        .map(|&c| ((c & !PLACED).trailing_zeros() + 1) as u8)
        .collect();
    Solution::new(Grid::from_raw(shape, cells))
}

/// The buffers [`propagate`] reuses.
struct Scratch<'a> {
    /// One entry per cage: what the cage looked like when last pruned.
    cage_seen: &'a mut [u32],
    /// Cells whose relations are due, and whether each is in the queue.
    arc_queue: &'a mut Vec<u16>,
    arc_queued: &'a mut [bool],
    /// Cells left one candidate by a placement, to place in turn.
    placing: &'a mut Vec<u16>,
    /// Each piece's open digits (see [`lock_candidates`]).
    piece_masks: &'a mut Vec<u32>,
    /// Each cell's candidates when the relations last looked at it.
    arc_seen: &'a mut [u32],
    /// The propagators' cells' candidates when each last looked (what its revision left),
    /// and whether it has looked in this search; a buffer for one propagator's masks. Kept
    /// across frames: a revision depends on its masks alone, so the same masks, in whatever
    /// frame they were last seen, need no second look.
    prop_seen: &'a mut [u32],
    prop_looked: &'a mut [bool],
    prop_masks: &'a mut Vec<u32>,
    /// Each cell's count of propagator failures.
    failures: &'a mut [u32],
}

/// Runs the rules of the module docs to a fixed point on one frame.
fn propagate(
    frame: &mut [u32],
    layout: &Layout,
    table: &ComboTable,
    scratch: &mut Scratch,
    meter: &mut Meter,
) -> Result<Progress, Exhausted> {
    // Cages are remembered by a signature that only tells masks apart within one frame
    // (where they only shrink); propagators by their masks themselves, so they keep theirs.
    scratch.cage_seen.fill(u32::MAX);
    // Every relation is revised once per frame, then again for each cell that changes.
    let relations = !layout.arcs.is_empty();
    if relations {
        scratch.arc_queue.clear();
        for i in 0..layout.cells {
            if !layout.arcs_of(i).is_empty() {
                scratch.arc_queue.push(i as u16);
                scratch.arc_queued[i] = true;
            }
        }
    }
    if relations {
        scratch.arc_seen[..layout.cells].copy_from_slice(frame);
    }
    let side = layout.side;
    let all = layout.all;
    loop {
        // 1. Naked singles in one sweep: a placement that leaves a peer one candidate
        // places that peer at once (a stack), so the sweep ends with none left, and counts
        // the unplaced cells exactly. Sweeping again until a sweep placed nothing took six
        // sweeps a frame on the little-killer bench.
        let mut unplaced = 0usize;
        let placing = &mut *scratch.placing;
        for i in 0..layout.cells {
            let c = frame[i];
            if c & PLACED != 0 {
                continue;
            }
            if c == 0 {
                return Ok(Progress::Contradiction);
            }
            if c & (c - 1) != 0 {
                unplaced += 1;
                continue;
            }
            // A cell before this one in the sweep was counted unplaced.
            let placed = place(frame, layout, placing, i, meter, &mut |p| {
                if p < i {
                    unplaced -= 1;
                }
            })?;
            if !placed {
                return Ok(Progress::Contradiction);
            }
        }
        meter.add(layout.cells as u64 * cost::SWEEP)?;

        // 2. Hidden singles per unit (also: a digit with no place at all is a contradiction),
        // each placed at once with what it leaves single, so the pass repeats without a
        // sweep until it places nothing.
        let mut again = unplaced > 0;
        while again {
            again = false;
            for unit in layout.units.chunks_exact(side) {
                let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
                for &i in unit {
                    // Without a branch: a placed cell adds to `placed`, an open one to the
                    // counts (which cells are placed follows no pattern a branch predictor
                    // could learn; 3.4% fewer instructions on the little-killer bench).
                    let c = frame[usize::from(i)];
                    let open = if c & PLACED != 0 { 0 } else { c };
                    placed |= c ^ open;
                    twice |= once & open;
                    once |= open;
                }
                placed &= all;
                if (once | placed) != all {
                    return Ok(Progress::Contradiction);
                }
                let mut hidden = once & !twice & !placed;
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden ^= bit;
                    let Some(&i) = unit.iter().find(|&&i| {
                        let c = frame[usize::from(i)];
                        c & bit != 0 && c & PLACED == 0
                    }) else {
                        // Placed meanwhile, or gone: the next pass tells.
                        continue;
                    };
                    frame[usize::from(i)] = bit;
                    unplaced -= 1;
                    let placed = place(
                        frame,
                        layout,
                        scratch.placing,
                        usize::from(i),
                        meter,
                        &mut |_| {
                            unplaced -= 1;
                        },
                    )?;
                    if !placed {
                        return Ok(Progress::Contradiction);
                    }
                    again = true;
                }
            }
            meter.add(layout.units.len() as u64 * cost::HIDDEN)?;
            again &= unplaced > 0;
        }

        let mut changed = false;
        // 3. Cage sums.
        for (k, &sum) in layout.cage_sums.iter().enumerate() {
            let cage = &layout.cage_cells
                [layout.cage_start[k] as usize..layout.cage_start[k + 1] as usize];
            let (mut placed, mut placed_sum, mut open, mut empty) = (0u32, 0u32, 0u32, 0usize);
            let mut candidates = 0u32;
            for &i in cage {
                let c = frame[usize::from(i)];
                candidates += (c & all).count_ones();
                if c & PLACED != 0 {
                    let bit = c & all;
                    placed |= bit;
                    placed_sum += bit.trailing_zeros() + 1;
                } else {
                    open |= c;
                    empty += 1;
                }
            }
            // Within one call masks only shrink and cells only get placed, so this changes
            // whenever the cage's cells do (removals move it by 64, placements by at most
            // 25). Unchanged: the last look at this cage already did all it can.
            meter.add(cage.len() as u64 * cost::CAGE)?;
            let signature = candidates * 64 + (cage.len() - empty) as u32;
            if scratch.cage_seen[k] == signature {
                continue;
            }
            scratch.cage_seen[k] = signature;
            if empty == 0 {
                if placed_sum != sum {
                    return Ok(Progress::Contradiction);
                }
                continue;
            }
            if placed_sum >= sum {
                return Ok(Progress::Contradiction);
            }
            let rest = sum - placed_sum;
            let allowed = open & !placed;
            let (keep, must) = match table.sets(empty, rest) {
                Some(sets) => {
                    meter.add((sets.len() * cage.len()) as u64 * cost::SET)?;
                    let (mut keep, mut must) = (0u32, all);
                    for &set in sets {
                        // Usable: no digit outside what the empty cells allow, and every
                        // empty cell can take one of its digits.
                        if set & !allowed == 0
                            && cage.iter().all(|&i| {
                                let c = frame[usize::from(i)];
                                c & PLACED != 0 || c & set != 0
                            })
                        {
                            keep |= set;
                            must &= set;
                        }
                    }
                    (keep, must)
                }
                None => (bounded_digits(allowed, empty, rest), 0),
            };
            if keep == 0 {
                return Ok(Progress::Contradiction);
            }
            for &i in cage {
                let c = frame[usize::from(i)];
                if c & PLACED == 0 && c & !keep != 0 {
                    if c & keep == 0 {
                        return Ok(Progress::Contradiction);
                    }
                    frame[usize::from(i)] = c & keep;
                    changed = true;
                }
            }
            // Digits every completion uses: place one that has a single cell left; when its
            // cells share a house, no other cell of that house can hold it.
            let mut must = must & keep;
            while must != 0 {
                let bit = must & must.wrapping_neg();
                must ^= bit;
                let mut spot = usize::MAX;
                let mut spots = 0;
                // Houses shared by every cell that can hold the digit: the first such cell's
                // houses, less those a later one is not in.
                let mut shared = [usize::MAX; MAX_HOUSES_PER_CELL];
                for &i in cage {
                    let i = usize::from(i);
                    let c = frame[i];
                    if c & PLACED == 0 && c & bit != 0 {
                        let houses = layout.houses_of(i);
                        for (k, have) in shared.iter_mut().enumerate() {
                            if spots == 0 {
                                *have = houses.get(k).map_or(usize::MAX, |&u| usize::from(u));
                            } else if *have != usize::MAX
                                && !houses.iter().any(|&u| usize::from(u) == *have)
                            {
                                *have = usize::MAX;
                            }
                        }
                        spots += 1;
                        spot = i;
                    }
                }
                meter.add((cage.len() * MAX_HOUSES_PER_CELL + 3 * side) as u64 * cost::MUST)?;
                match spots {
                    0 => return Ok(Progress::Contradiction),
                    1 => {
                        if frame[spot] != bit {
                            frame[spot] = bit;
                            changed = true;
                        }
                    }
                    _ => {
                        for unit in shared.into_iter().filter(|&u| u != usize::MAX) {
                            for &j in &layout.units[unit * side..(unit + 1) * side] {
                                let c = frame[usize::from(j)];
                                if c & bit != 0 && c & PLACED == 0 && !cage.contains(&j) {
                                    if c == bit {
                                        return Ok(Progress::Contradiction);
                                    }
                                    frame[usize::from(j)] = c & !bit;
                                    changed = true;
                                }
                            }
                        }
                    }
                }
            }
        }
        // 4. Sum-only regions: each cell lies between the total minus the others' largest
        // and the total minus the others' smallest digits.
        for (k, &total) in layout.sum_totals.iter().enumerate() {
            let region =
                &layout.sum_cells[layout.sum_start[k] as usize..layout.sum_start[k + 1] as usize];
            let (mut low, mut high) = (0i64, 0i64);
            for &i in region {
                let c = frame[usize::from(i)] & all;
                low += i64::from(c.trailing_zeros() + 1);
                high += i64::from(32 - c.leading_zeros());
            }
            meter.add(2 * region.len() as u64 * cost::SUM)?;
            let total = i64::from(total);
            if total < low || total > high {
                return Ok(Progress::Contradiction);
            }
            for &i in region {
                let c = frame[usize::from(i)];
                if c & PLACED != 0 {
                    continue;
                }
                let lo = i64::from(c.trailing_zeros() + 1);
                let hi = i64::from(32 - c.leading_zeros());
                let from = (total - (high - hi)).max(1);
                let to = (total - (low - lo)).min(side as i64);
                let range = if from > to {
                    0
                } else {
                    (all >> (side as i64 - to)) & !((1u32 << (from - 1)) - 1)
                };
                if c & !range != 0 {
                    if c & range == 0 {
                        return Ok(Progress::Contradiction);
                    }
                    frame[usize::from(i)] = c & range;
                    changed = true;
                }
            }
        }
        if changed {
            continue;
        }
        // 6. Relations: arc consistency over the cells that changed since the last look.
        if relations {
            for (i, (&now, &before)) in frame.iter().zip(scratch.arc_seen.iter()).enumerate() {
                if now & !PLACED != before & !PLACED && !scratch.arc_queued[i] {
                    scratch.arc_queued[i] = true;
                    scratch.arc_queue.push(i as u16);
                }
            }
            meter.add(layout.cells as u64 * cost::SWEEP)?;
            match revise_arcs(frame, layout, scratch, meter)? {
                Some(false) => return Ok(Progress::Contradiction),
                Some(true) => changed = true,
                None => changed = revise_forks(frame, layout, scratch, meter)?,
            }
            scratch.arc_seen[..layout.cells].copy_from_slice(frame);
            if changed {
                continue;
            }
        }
        // 7. Propagators whose cells changed since they last looked.
        match run_propagators(frame, layout, scratch, meter)? {
            Some(false) => return Ok(Progress::Contradiction),
            Some(true) => continue,
            None => {}
        }
        // 8. Locked candidates, last: every rule above is stuck.
        if unplaced > 0 {
            match lock_candidates(frame, layout, scratch.piece_masks, meter)? {
                Some(false) => return Ok(Progress::Contradiction),
                Some(true) => continue,
                None => {}
            }
        }
        return Ok(if unplaced == 0 {
            Progress::Solved
        } else {
            Progress::Stuck
        });
    }
}

/// Places cell `start` (one candidate, not yet placed) and every peer that is left one
/// candidate in turn, calling `placed` with each cell placed after `start`. `false` on a
/// contradiction (a peer left without candidates, or two peers left the same digit).
fn place(
    frame: &mut [u32],
    layout: &Layout,
    placing: &mut Vec<u16>,
    start: usize,
    meter: &mut Meter,
    placed: &mut dyn FnMut(usize),
) -> Result<bool, Exhausted> {
    placing.clear();
    placing.push(start as u16);
    while let Some(j) = placing.pop() {
        let j = usize::from(j);
        let c = frame[j];
        frame[j] = c | PLACED;
        let peers = layout.peers_of(j);
        meter.add(peers.len() as u64 * cost::PEER)?;
        for &p in peers {
            let q = frame[usize::from(p)];
            if q & c != 0 {
                if q & PLACED != 0 || q == c {
                    return Ok(false);
                }
                let rest = q & !c;
                frame[usize::from(p)] = rest;
                if rest & (rest - 1) == 0 {
                    // One left (each cell is stacked once: it holds one digit from here
                    // on, and losing it is a contradiction above).
                    placing.push(p);
                    placed(usize::from(p));
                }
            }
        }
    }
    Ok(true)
}

/// Locked candidates: where a row or column meets a box or region (a piece), a digit that
/// one of the two houses holds only in the piece leaves the other house's other cells. Each
/// house is split into pieces once per layout (a group), so a pass reads every cell twice
/// (its row's piece, its column's) and compares masks of pieces, not of cells: about what a
/// hidden-single pass costs. `Some(true)` when a candidate went, `None` when none did,
/// `Some(false)` on a contradiction.
fn lock_candidates(
    frame: &mut [u32],
    layout: &Layout,
    masks: &mut Vec<u32>,
    meter: &mut Meter,
) -> Result<Option<bool>, Exhausted> {
    let pieces = layout.piece_groups.len();
    if pieces == 0 {
        return Ok(None);
    }
    meter.add(layout.piece_cells.len() as u64 * cost::LOCKED)?;
    masks.clear();
    masks.extend((0..pieces).map(|p| {
        let cells =
            &layout.piece_cells[layout.piece_start[p] as usize..layout.piece_start[p + 1] as usize];
        cells.iter().fold(0, |acc, &i| {
            let c = frame[usize::from(i)];
            acc | if c & PLACED != 0 { 0 } else { c }
        })
    }));
    let mut changed = false;
    for g in 0..layout.group_start.len() - 1 {
        let group = &layout.group_pieces
            [layout.group_start[g] as usize..layout.group_start[g + 1] as usize];
        let (mut once, mut twice) = (0u32, 0u32);
        for &p in group {
            let m = masks[usize::from(p)];
            twice |= once & m;
            once |= m;
        }
        let alone = once & !twice;
        if alone == 0 {
            continue;
        }
        for &p in group {
            let locked = masks[usize::from(p)] & alone;
            if locked == 0 {
                continue;
            }
            // The piece's other house: its other pieces lose the locked digits.
            let [a, b] = layout.piece_groups[usize::from(p)];
            let other = if usize::from(a) == g { b } else { a };
            let other = usize::from(other);
            let others = &layout.group_pieces
                [layout.group_start[other] as usize..layout.group_start[other + 1] as usize];
            for &q in others {
                let q = usize::from(q);
                if q == usize::from(p) || masks[q] & locked == 0 {
                    continue;
                }
                masks[q] &= !locked;
                let cells = &layout.piece_cells
                    [layout.piece_start[q] as usize..layout.piece_start[q + 1] as usize];
                meter.add(cells.len() as u64 * cost::LOCKED)?;
                for &i in cells {
                    let c = frame[usize::from(i)];
                    if c & PLACED == 0 && c & locked != 0 {
                        if c & !locked == 0 {
                            return Ok(Some(false));
                        }
                        frame[usize::from(i)] = c & !locked;
                        changed = true;
                    }
                }
            }
        }
    }
    Ok(changed.then_some(true))
}

/// Arc consistency from the queued cells: each arc from a queued cell keeps in the other cell
/// only the digits some candidate of the queued one allows, and queues the other cell when it
/// lost one. `Some(true)` when a candidate went, `None` when none did, `Some(false)` on a
/// contradiction (a cell left without candidates).
fn revise_arcs(
    frame: &mut [u32],
    layout: &Layout,
    scratch: &mut Scratch,
    meter: &mut Meter,
) -> Result<Option<bool>, Exhausted> {
    let all = layout.all;
    let side = layout.side;
    let mut changed = false;
    while let Some(i) = scratch.arc_queue.pop() {
        let i = usize::from(i);
        scratch.arc_queued[i] = false;
        let arcs = layout.arcs_of(i);
        meter.add(arcs.len() as u64 * cost::ARC)?;
        let mine = frame[i] & all;
        for &(j, offset) in arcs {
            let j = usize::from(j);
            let table = &layout.tables[offset as usize..offset as usize + side];
            let mut support = 0;
            let mut digits = mine;
            while digits != 0 {
                support |= table[digits.trailing_zeros() as usize];
                digits &= digits - 1;
            }
            let theirs = frame[j];
            if theirs & all & !support != 0 {
                let kept = theirs & support;
                if kept & all == 0 {
                    return Ok(Some(false));
                }
                // A placed cell keeps its mark: its one digit is supported or it failed above.
                frame[j] = kept;
                changed = true;
                if !scratch.arc_queued[j] {
                    scratch.arc_queued[j] = true;
                    scratch.arc_queue.push(j as u16);
                }
            }
        }
    }
    Ok(changed.then_some(true))
}

/// Path consistency where arc consistency is blind: a digit of a cell whose relations to
/// two cells that must differ both allow only the same one digit there goes. A whisper's
/// 4 between two cells of one box needs a 9 on each side, and a Kropki black dot's 1 beside
/// two such cells a 2 on each: neither pair of arcs alone rules it out. The cells that lost
/// a digit are queued for their arcs; whether any did.
fn revise_forks(
    frame: &mut [u32],
    layout: &Layout,
    scratch: &mut Scratch,
    meter: &mut Meter,
) -> Result<bool, Exhausted> {
    let (all, side) = (layout.all, layout.side);
    let mut changed = false;
    for &(i, arcs) in &layout.forks {
        let i = usize::from(i);
        let mine = frame[i];
        if mine & PLACED != 0 {
            continue;
        }
        let [(left, left_table), (right, right_table)] = arcs;
        let (left, right) = (
            frame[usize::from(left)] & all,
            frame[usize::from(right)] & all,
        );
        let mut kept = mine;
        let mut digits = mine;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let there = layout.tables[left_table as usize + d] & left;
            if there.count_ones() == 1 && there == layout.tables[right_table as usize + d] & right {
                kept &= !(1 << d);
            }
        }
        if kept != mine {
            // An empty cell is the next naked-singles sweep's contradiction.
            frame[i] = kept;
            changed = true;
            if !scratch.arc_queued[i] {
                scratch.arc_queued[i] = true;
                scratch.arc_queue.push(i as u16);
            }
        }
    }
    meter.add(layout.forks.len() as u64 * side as u64 * cost::SWEEP)?;
    Ok(changed)
}

/// Runs every propagator that has not looked in this search or whose cells' masks differ from
/// what its last look left (in any frame), writing back what it narrows. `Some(true)` when a
/// candidate went, `None` when none did, `Some(false)` on a contradiction.
fn run_propagators(
    frame: &mut [u32],
    layout: &Layout,
    scratch: &mut Scratch,
    meter: &mut Meter,
) -> Result<Option<bool>, Exhausted> {
    let all = layout.all;
    let mut changed = false;
    for (k, propagator) in layout.propagators.iter().enumerate() {
        let cells = layout.prop_cells_of(k);
        let start = layout.prop_start[k] as usize;
        let seen = &mut scratch.prop_seen[start..start + cells.len()];
        let masks = &mut *scratch.prop_masks;
        masks.clear();
        masks.extend(cells.iter().map(|&i| frame[usize::from(i)] & all));
        if scratch.prop_looked[k] && seen[..] == masks[..] {
            continue;
        }
        let mut work = 0u64;
        let fits = revise(propagator.as_ref(), masks, &mut work);
        meter.add(work * cost::PROPAGATOR)?;
        if !fits {
            for &i in cells {
                let failed = &mut scratch.failures[usize::from(i)];
                *failed = failed.saturating_add(1);
            }
            return Ok(Some(false));
        }
        for (&i, &kept) in cells.iter().zip(masks.iter()) {
            let c = frame[usize::from(i)];
            if c & all & !kept != 0 {
                // A placed cell's one digit was kept or the revision failed above.
                frame[usize::from(i)] = c & (kept | PLACED);
                changed = true;
            }
        }
        seen.copy_from_slice(masks);
        scratch.prop_looked[k] = true;
    }
    Ok(changed.then_some(true))
}

/// Digits of `allowed` that can be one of `count` distinct digits of `allowed` summing to
/// `rest`, judged by bounds only (the smallest and largest sums of the other `count - 1`).
/// Sound but weaker than the table; used only for cage sizes the table leaves out.
fn bounded_digits(allowed: u32, count: usize, rest: u32) -> u32 {
    if (allowed.count_ones() as usize) < count || count == 0 {
        return 0;
    }
    let others = count - 1;
    let mut keep = 0;
    let mut digits = allowed;
    while digits != 0 {
        let bit = digits & digits.wrapping_neg();
        digits ^= bit;
        let digit = bit.trailing_zeros() + 1;
        if digit > rest {
            continue;
        }
        let pool = allowed & !bit;
        let low = mask_sum(lowest_bits(pool, others));
        let high = mask_sum(lowest_bits(pool.reverse_bits(), others).reverse_bits());
        if (low..=high).contains(&(rest - digit)) {
            keep |= bit;
        }
    }
    keep
}

/// The `n` lowest set bits of `mask`.
fn lowest_bits(mut mask: u32, n: usize) -> u32 {
    let mut out = 0;
    for _ in 0..n {
        if mask == 0 {
            break;
        }
        let bit = mask & mask.wrapping_neg();
        out |= bit;
        mask ^= bit;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{
        choose_cell, lock_candidates, revise_forks, Layout, Scratch, OPS_PER_UNIT, PLACED,
    };
    use crate::engine::budget::{Budget, Meter};
    use crate::engine::model::constraints::whispers::Whisper;
    use crate::engine::model::grid::{Grid, Shape};
    use crate::engine::model::puzzle::Puzzle;
    use crate::engine::model::rules::{RuleSpec, Rules};

    #[test]
    fn a_fork_of_relations_to_two_peers_drops_what_forces_them_equal() {
        // A whisper from r1c1 through r1c2 to r2c1: r1c2's neighbours share a box, so it is
        // neither 4 (two 9s) nor 6 (two 1s); each pair of cells alone allows both.
        let spec = RuleSpec {
            whispers: vec![Whisper {
                cells: vec![(0, 0), (0, 1), (1, 0)],
                difference: None,
            }],
            ..RuleSpec::default()
        };
        let rules = Rules::new(Shape::NINE, spec).unwrap();
        let puzzle = Puzzle::new(Grid::empty(Shape::NINE), rules).unwrap();
        let mut layout = Layout::default();
        layout.rebuild(&puzzle);
        assert_eq!(layout.forks.len(), 1);
        let mut frame = vec![layout.all; 81];
        let (mut queue, mut queued) = (Vec::new(), vec![false; 81]);
        let mut seen = vec![0; 81];
        let mut scratch = Scratch {
            cage_seen: &mut [],
            arc_queue: &mut queue,
            arc_queued: &mut queued,
            placing: &mut Vec::new(),
            piece_masks: &mut Vec::new(),
            arc_seen: &mut seen,
            prop_seen: &mut [],
            prop_looked: &mut [],
            prop_masks: &mut Vec::new(),
            failures: &mut [],
        };
        let budget = Budget::unlimited();
        let mut meter = Meter::new(&budget, OPS_PER_UNIT);
        assert!(revise_forks(&mut frame, &layout, &mut scratch, &mut meter).unwrap());
        assert_eq!(frame[1], layout.all & !(1 << 3 | 1 << 5));
        assert_eq!((frame[0], frame[9]), (layout.all, layout.all));
        assert_eq!(queue, [1]);
    }

    #[test]
    fn a_cell_of_too_many_arcs_lists_no_forks() {
        // One 9-cell renban line: 8 arcs a cell, every two ends peers (the line is a house).
        // The same line three times: 24 arcs a cell, past the cap, so none at all.
        let line: Vec<(usize, usize)> = (0..9).map(|c| (0, c)).collect();
        let forks = |copies: usize| {
            let spec = RuleSpec {
                renban: vec![line.clone(); copies],
                ..RuleSpec::default()
            };
            let rules = Rules::new(Shape::NINE, spec).unwrap();
            let mut layout = Layout::default();
            layout.rebuild(&Puzzle::new(Grid::empty(Shape::NINE), rules).unwrap());
            layout.forks.len()
        };
        assert_eq!(forks(1), 9 * 28);
        // Twice: 16 arcs, 120 pairs a cell less the 8 whose two arcs reach the same cell.
        assert_eq!(forks(2), 9 * 112);
        assert_eq!(forks(3), 0);
    }

    #[test]
    fn branching_weighs_candidates_by_failures_and_breaks_ties_by_unplaced_peers() {
        let mut layout = Layout::default();
        layout.rebuild(&Puzzle::classic(Grid::empty(Shape::FOUR)).unwrap());
        // A 4x4 with five cells open: 0 and 6 two candidates, 7 three, 10 and 14 four.
        // Cell 0's peers are all placed; cell 6 has three open (7, 10, 14), cell 7 one.
        let mut frame = [PLACED | 1; 16];
        for (i, mask) in [(0, 0b11), (6, 0b11), (7, 0b111), (10, 0b1111), (14, 0b1111)] {
            frame[i] = mask;
        }
        let failures = |pairs: &[(usize, u32)]| {
            let mut f = [0u32; 16];
            for &(i, n) in pairs {
                f[i] = n;
            }
            f
        };
        // No failure yet: the fewest candidates, and of cells 0 and 6 the one that reaches
        // more open cells, though it comes later.
        assert_eq!(choose_cell(&frame, &failures(&[]), &layout).0, 6);
        // The meter is charged for the peers read: the seven of each of the two that tied,
        // and none where no cell ties (6 leads alone at 2 / 2).
        assert_eq!(choose_cell(&frame, &failures(&[]), &layout).1, 14);
        assert_eq!(choose_cell(&frame, &failures(&[(6, 1)]), &layout), (6, 0));
        // Cell 14 in propagators that failed seven times: 4 / 8 beats 2 / 1.
        assert_eq!(choose_cell(&frame, &failures(&[(14, 7)]), &layout).0, 14);
        // A placed cell is never chosen, whatever its weight.
        assert_eq!(choose_cell(&frame, &failures(&[(5, 50)]), &layout).0, 6);
        // Equal ratios of other weights (2 / 2, 3 / 3, 4 / 4): the most open peers.
        let even = failures(&[(0, 1), (6, 1), (7, 2), (14, 3)]);
        assert_eq!(choose_cell(&frame, &even, &layout).0, 6);
        frame[10] = PLACED | 1;
        // Cell 6 now reaches 7 and 14, cell 14 only 6: still 6. Without the failures of 6
        // and 7 (7 would tie and come first), 0 and 14 tie (2 / 2 and 4 / 4) and 14 reaches
        // one open cell where 0 reaches none.
        assert_eq!(choose_cell(&frame, &even, &layout).0, 6);
        let tilted = failures(&[(0, 1), (14, 3)]);
        assert_eq!(choose_cell(&frame, &tilted, &layout).0, 14);
        // Equal reach keeps the first: 7 and 14 (3 / 3 and 4 / 4) each reach only 6.
        let level = failures(&[(7, 2), (14, 3)]);
        assert_eq!(choose_cell(&frame, &level, &layout).0, 7);
    }

    #[test]
    fn a_digit_locked_in_a_box_row_leaves_the_rest_of_both_houses() {
        let puzzle = Puzzle::classic(Grid::empty(Shape::NINE)).unwrap();
        let mut layout = Layout::default();
        layout.rebuild(&puzzle);
        // Rows and columns split by the boxes: 54 pieces of three cells.
        assert_eq!(layout.piece_groups.len(), 54);
        let budget = Budget::unlimited();
        let mut meter = Meter::new(&budget, OPS_PER_UNIT);
        let mut masks = Vec::new();
        let all = layout.all;
        let one = 1u32;

        // Claiming: row 1 holds 1 only in box 1 (r1c1-r1c3), so box 1's other rows lose it.
        let mut frame = vec![all; 81];
        (3..9).for_each(|c| frame[c] &= !one);
        assert_eq!(
            lock_candidates(&mut frame, &layout, &mut masks, &mut meter).unwrap(),
            Some(true)
        );
        for i in [9, 10, 11, 18, 19, 20] {
            assert_eq!(frame[i] & one, 0, "cell {i}");
        }
        assert_eq!(frame[12] & one, one, "box 2 keeps it");

        // Pointing: box 1 holds 2 only in column 1, so column 1's other boxes lose it.
        let two = 2u32;
        let mut frame = vec![all; 81];
        for i in [1, 2, 10, 11, 19, 20] {
            frame[i] &= !two;
        }
        assert_eq!(
            lock_candidates(&mut frame, &layout, &mut masks, &mut meter).unwrap(),
            Some(true)
        );
        for r in 3..9 {
            assert_eq!(frame[r * 9] & two, 0, "r{}c1", r + 1);
        }
        assert_eq!(frame[28] & two, two, "column 2 keeps it");

        // Nothing locked: nothing changes. A placed cell's digit counts for no piece.
        let mut frame = vec![all; 81];
        frame[0] = one | PLACED;
        assert_eq!(
            lock_candidates(&mut frame, &layout, &mut masks, &mut meter).unwrap(),
            None
        );
        // A cell left without candidates is a contradiction.
        let mut frame = vec![all; 81];
        (3..9).for_each(|c| frame[c] &= !one);
        frame[9] = one | two;
        frame[10] = one;
        frame[1] = two | 4;
        assert_eq!(
            lock_candidates(&mut frame, &layout, &mut masks, &mut meter).unwrap(),
            Some(false)
        );
    }
}
