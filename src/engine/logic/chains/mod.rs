//! Chains of implications between candidates, the top of the SE scale (6.5 and up).
//!
//! A *node* is a candidate (cell, digit) that is assumed on (the cell holds the digit) or off.
//! Two kinds of links connect nodes:
//! * from on: every other candidate of the cell goes off (a "cell" or Y link), and the digit
//!   goes off in every peer (a "unit" or X link);
//! * from off: when the cell has one other candidate it goes on (Y), and when a unit of the
//!   cell has one other place for the digit that place goes on (X).
//!
//! SE searches, in order of rating:
//! * `unary`: static chains from one assumption: X- and Y-cycles (6.5), forcing X-chains
//!   (6.6), bidirectional cycles and forcing chains mixing both link kinds (7.0);
//! * `multiple`: all consequences of an assumption at once (`propagate`), for Nishio forcing
//!   chains (7.5, one digit, contradiction), cell and region forcing chains (8.0), dynamic
//!   forcing chains that follow the grid as it changes (8.5), and dynamic chains that also
//!   use pattern techniques on the way (9.0, `nested`).
//!
//! A chain's rating adds to its base 0.1 per step of [`length_steps`](super::rating) of its
//! *complexity*: the number of distinct nodes it uses (for several branches, their sum).

mod derivation;
mod multiple;
mod nested;
mod propagate;
mod reach;
mod unary;

use crate::engine::model::board::{CELLS, SIZE};
use crate::engine::model::grid::{Cell, Digit};

use super::candidates::{digit, indices_of, Candidates};
use super::cellset::CellSet;
use super::Step;

/// How far a chain search may go, in SE's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// Forcing chains and cycles from one assumption, without following grid changes.
    Static,
    /// Nishio: one digit, following grid changes, looking for a contradiction.
    Nishio,
    /// Cell and region forcing chains without following grid changes.
    Multiple,
    /// Dynamic forcing chains.
    Dynamic,
    /// Dynamic forcing chains that also use locked candidates, pairs and X-Wings.
    DynamicPlus,
}

/// The best chain step at `level`, or `None`. The search counts what it did (nodes derived
/// or reached, links built) in the finders' work tally: on a wide-open grid one look can cost
/// a hundred times what it costs on a typical one, so it is charged as counted.
pub(crate) fn find(marks: &Candidates, level: Level) -> Option<Step> {
    let (step, ops) = match level {
        Level::Static => unary::find(marks),
        _ => multiple::find(marks, level),
    };
    super::work::count(ops);
    step
}

/// A node: a candidate and whether it is assumed on (`2 * cand + 1`) or off (`2 * cand`).
pub(crate) type Node = u16;

/// Number of candidates and of nodes.
pub(crate) const CANDS: usize = CELLS * SIZE;
pub(crate) const NODES: usize = 2 * CANDS;

pub(crate) const fn node(cell: usize, d: usize, on: bool) -> Node {
    ((cell * SIZE + d) * 2 + on as usize) as Node
}

pub(crate) const fn cell_of(n: Node) -> usize {
    n as usize / 2 / SIZE
}

pub(crate) const fn digit_of(n: Node) -> usize {
    n as usize / 2 % SIZE
}

pub(crate) const fn is_on(n: Node) -> bool {
    n & 1 == 1
}

/// The same candidate with the other state.
pub(crate) const fn negation(n: Node) -> Node {
    n ^ 1
}

/// A set of nodes, as bits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct NodeSet([u64; NODES.div_ceil(64)]);

impl NodeSet {
    pub(crate) const EMPTY: NodeSet = NodeSet([0; NODES.div_ceil(64)]);

    /// Adds `n`; true when it was not there.
    pub(crate) fn insert(&mut self, n: Node) -> bool {
        let word = &mut self.0[n as usize / 64];
        let bit = 1u64 << (n % 64);
        let new = *word & bit == 0;
        *word |= bit;
        new
    }
}

/// The marks a chain reasons on: per-cell masks and per-digit cell sets, cheap to copy so
/// that a dynamic chain can change its own copy as its assumptions remove candidates.
#[derive(Clone, Copy)]
pub(crate) struct Grid {
    pub(crate) masks: [u16; CELLS],
    pub(crate) cells_with: [CellSet; SIZE],
}

impl Grid {
    pub(crate) fn of(marks: &Candidates) -> Grid {
        Grid {
            masks: std::array::from_fn(|c| marks.mask(c)),
            cells_with: std::array::from_fn(|d| marks.cells_with(d)),
        }
    }

    pub(crate) fn remove(&mut self, cell: usize, d: usize) {
        self.masks[cell] &= !(1 << d);
        self.cells_with[d].remove(cell);
    }
}

/// Which links a search follows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mode {
    pub(crate) cell_links: bool,
    pub(crate) unit_links: bool,
}

/// Calls `visit` with the nodes that go on when `n` (off) holds in `grid`, without repeats:
/// the cell's last other digit (cell links), then the digit's last other place in the box,
/// row and column (unit links).
pub(crate) fn off_to_on(
    marks: &Candidates,
    grid: &Grid,
    n: Node,
    mode: Mode,
    mut visit: impl FnMut(Node),
) {
    let (cell, d) = (cell_of(n), digit_of(n));
    if mode.cell_links && grid.masks[cell].count_ones() == 2 {
        if let Some(other) = indices_of(grid.masks[cell] & !(1 << d)).next() {
            visit(node(cell, other, true));
        }
    }
    if mode.unit_links {
        let g = marks.geometry();
        let mut seen = CellSet::EMPTY;
        for unit in g.houses_of(cell) {
            let others = grid.cells_with[d] & (g.set_of(unit) - CellSet::single(cell));
            if others.len() == 1 {
                let other = others.first().unwrap_or(cell);
                if !seen.contains(other) {
                    seen.insert(other);
                    visit(node(other, d, true));
                }
            }
        }
    }
}

/// Calls `visit` with the nodes that go off when `n` (on) holds, in SE's order: with cell
/// links, the cell's other digits ascending; then the digit's other places in the box, row and
/// column, a variant's diagonals and windows, then its cage (each cell once).
pub(crate) fn on_to_off(
    marks: &Candidates,
    grid: &Grid,
    n: Node,
    cell_links: bool,
    mut visit: impl FnMut(Node),
) {
    let (cell, d) = (cell_of(n), digit_of(n));
    if cell_links {
        let others = grid.masks[cell] & !(1 << d);
        for other in super::candidates::indices_of(others) {
            visit(node(cell, other, false));
        }
    }
    let g = marks.geometry();
    let mut seen = CellSet::single(cell);
    for unit in g.houses_of(cell) {
        let places = grid.cells_with[d] & (g.set_of(unit) - seen);
        for c in g.cells_of(unit).iter().map(|&c| c as usize) {
            if places.contains(c) {
                visit(node(c, d, false));
            }
        }
        seen |= places;
    }
    // A Killer cage's cells see each other too: the rest of the cell's peers.
    for c in (grid.cells_with[d] & (g.peers(cell) - seen)).iter() {
        visit(node(c, d, false));
    }
}

/// Candidates' "on" links in one grid, as [`on_to_off`] lists them, each worked out once
/// (when first asked for) for the many propagations of one search over that grid. A
/// dynamic propagation's grid only loses candidates, and a node's links in it are its links
/// here that are still present, in the same order (each cell is listed under the first
/// house, in order, that holds it either way).
pub(crate) struct OnLinks {
    cell_links: bool,
    /// Candidate `c`'s links are `targets[span[c].0..][..span[c].1]`; `NOT_YET` before.
    span: Vec<(u32, u32)>,
    targets: Vec<Node>,
}

const NOT_YET: u32 = u32::MAX;

impl OnLinks {
    pub(crate) fn new(cell_links: bool) -> OnLinks {
        OnLinks {
            cell_links,
            span: vec![(0, NOT_YET); CANDS],
            targets: Vec::new(),
        }
    }

    /// What [`on_to_off`] lists for on node `n` in `work`, a grid reduced from `grid` (the
    /// one these links are for), in its order.
    pub(crate) fn visit(
        &mut self,
        marks: &Candidates,
        (grid, work): (&Grid, &Grid),
        n: Node,
        mut visit: impl FnMut(Node),
    ) {
        let cand = usize::from(n / 2);
        if self.span[cand].1 == NOT_YET {
            let from = self.targets.len();
            let targets = &mut self.targets;
            on_to_off(marks, grid, n, self.cell_links, |q| targets.push(q));
            self.span[cand] = (from as u32, (self.targets.len() - from) as u32);
        }
        let (from, len) = self.span[cand];
        for &q in &self.targets[from as usize..][..len as usize] {
            if work.masks[cell_of(q)] >> digit_of(q) & 1 != 0 {
                visit(q);
            }
        }
    }
}

/// Placements and eliminations of a step.
pub(crate) type Changes = (Vec<(Cell, Digit)>, Vec<(Cell, Digit)>);

/// The step placing or removing the chain's target, as SE applies a chain conclusion: an on
/// target fills its cell (removing its other candidates), an off target removes one candidate.
pub(crate) fn conclusion(marks: &Candidates, target: Node) -> Changes {
    let (cell, d) = (cell_of(target), digit_of(target));
    let pos = Cell::from_index(cell);
    if is_on(target) {
        let removed = super::candidates::indices_of(marks.mask(cell) & !(1 << d))
            .map(|x| (pos, digit(x)))
            .collect();
        (vec![(pos, digit(d))], removed)
    } else {
        (Vec::new(), vec![(pos, digit(d))])
    }
}

/// "row 2, column 3 is 5" / "row 2, column 3 is not 5".
pub(crate) fn describe(n: Node) -> String {
    let pos = Cell::from_index(cell_of(n));
    let d = digit(digit_of(n));
    if is_on(n) {
        format!("{pos} is {d}")
    } else {
        format!("{pos} is not {d}")
    }
}
