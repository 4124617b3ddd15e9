//! Static chains from one assumption (SE's "Forcing Chains & Cycles"), rated 6.5 to ~7.5.
//!
//! For each candidate, SE follows the links breadth first from "on" (and from "off"), without
//! changing the grid, once with unit links only (X), once with cell links only (Y, from bivalue
//! cells), once with both (XY):
//! * a *cycle* comes back to the starting node through at least four links; every weak link
//!   of it is also strong, so a candidate that sees an on node and an off node of the same
//!   digit in the cycle (and is not in it) goes: X- and Y-cycles 6.5, mixed 7.0;
//! * a *forcing chain* reaches the negation of its start, which proves the start false (from
//!   on) or true (from off): X-chains 6.6, mixed 7.0.
//!
//! The rating adds the length steps of the chain's node count; SE takes the lowest rating,
//! then the shortest chain, then X before Y before mixed, then the first found (cell by cell,
//! digit by digit, cycles before chains). Because the breadth-first tree is the same with or
//! without SE's duplicate "off" entries, one tree per start gives SE's chains exactly, and the
//! search stops as soon as a deeper chain could not win any more.

use std::cmp::Ordering;

use crate::engine::model::grid::Cell;

use super::super::barren;
use super::super::candidates::{digit, indices_of, Candidates};
use super::super::cellset::CellSet;
use super::super::rating::{length_steps, ExactRating};
use super::super::{Step, Technique};
use super::reach::{any_reached, Reach};
use super::{
    cell_of, conclusion, digit_of, is_on, negation, node, off_to_on, on_to_off, Grid, Mode, Node,
    NodeSet, NODES,
};

const X: Mode = Mode {
    cell_links: false,
    unit_links: true,
};
const Y: Mode = Mode {
    cell_links: true,
    unit_links: false,
};
const XY: Mode = Mode {
    cell_links: true,
    unit_links: true,
};

/// The kind of a unary hint, which fixes its base rating and SE's tie-break key.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Cycle,
    Chain,
}

fn base(kind: Kind, mode: Mode) -> u16 {
    match (kind, mode == XY) {
        (_, true) => 70,
        (Kind::Cycle, false) => 65,
        (Kind::Chain, false) => 66,
    }
}

fn sort_key(mode: Mode) -> u8 {
    if mode == XY {
        4
    } else if mode == Y {
        3
    } else {
        2
    }
}

/// A found hint, comparable in SE's order.
struct Found {
    exact: ExactRating,
    complexity: usize,
    key: u8,
    kind: Kind,
    mode: Mode,
    /// The chain's nodes from the end back to the start (the start last).
    path: Vec<Node>,
    removed: Vec<(usize, usize)>,
}

fn order(a: (ExactRating, usize, u8), b: (ExactRating, usize, u8)) -> Ordering {
    a.0.partial_cmp(&b.0)
        .unwrap_or(Ordering::Equal)
        .then(a.1.cmp(&b.1))
        .then(a.2.cmp(&b.2))
}

/// The largest complexity of a hint of this kind that would still come before `best`.
fn complexity_bound(best: Option<&Found>, kind: Kind, mode: Mode) -> usize {
    const MAX: usize = 2 * NODES;
    let Some(best) = best else {
        return MAX;
    };
    let mut c = 0;
    while c < MAX {
        let next = c + 1;
        let candidate = (
            ExactRating::new(base(kind, mode), length_steps(next)),
            next,
            sort_key(mode),
        );
        if order(candidate, (best.exact, best.complexity, best.key)) != Ordering::Less {
            break;
        }
        c = next;
    }
    c
}

/// Breadth-first tree of one start node: each node's first parent and depth.
struct Tree {
    parent: Vec<Node>,
    depth: Vec<u16>,
    seen: NodeSet,
    queue: Vec<Node>,
    /// The nodes one expansion yields, reused between expansions.
    scratch: Vec<Node>,
}

impl Tree {
    fn new() -> Tree {
        Tree {
            parent: vec![Node::MAX; NODES],
            depth: vec![0; NODES],
            seen: NodeSet::EMPTY,
            queue: Vec::with_capacity(NODES),
            scratch: Vec::with_capacity(32),
        }
    }

    /// The path from `n` back to the start, `n` first.
    fn path(&self, mut n: Node) -> Vec<Node> {
        let mut out = vec![n];
        while self.parent[n as usize] != Node::MAX {
            n = self.parent[n as usize];
            out.push(n);
        }
        out
    }

    fn on_path(&self, mut n: Node, target: Node) -> bool {
        while self.parent[n as usize] != Node::MAX {
            n = self.parent[n as usize];
            if n == target {
                return true;
            }
        }
        false
    }
}

/// The best static chain or cycle step, by SE's order, and the chain operations it took
/// (the nodes each start's tree reached, and the links of the reachability pass).
pub fn find(marks: &Candidates) -> (Option<Step>, u64) {
    let grid = Grid::of(marks);
    let mut tree = Tree::new();
    let mut best: Option<Found> = None;
    let mut work = 0u64;
    for mode in [X, Y, XY] {
        // A mode none of whose hints could come before the best so far is skipped whole (an
        // X-chain below 7.0 leaves nothing for mixed chains, which start at 7.0).
        let can_win = complexity_bound(best.as_ref(), Kind::Cycle, mode) >= 4
            || (mode.unit_links && complexity_bound(best.as_ref(), Kind::Chain, mode) >= 3);
        if !can_win {
            continue;
        }
        // Single-digit and bivalue-cell searches are small; only mixed links pay for the
        // reachability pass.
        let reach = (mode == XY).then(|| Reach::new(marks, &grid, mode));
        work += reach.as_ref().map_or(0, Reach::links);
        // X links stay on one digit: a digit whose places gave no X hint before gives none.
        let digits = if mode == X {
            barren::worth_a_look(barren::Search::XChains, marks)
        } else {
            [true; 9]
        };
        for cell in 0..81 {
            let mask = marks.mask(cell);
            if mask.count_ones() < 2 || (!mode.unit_links && mask.count_ones() > 2) {
                continue;
            }
            for d in indices_of(mask).filter(|&d| digits[d]) {
                work += search(
                    marks,
                    &grid,
                    &mut tree,
                    node(cell, d, true),
                    (mode, reach.as_ref()),
                    &mut best,
                );
                if mode.unit_links {
                    work += search(
                        marks,
                        &grid,
                        &mut tree,
                        node(cell, d, false),
                        (mode, reach.as_ref()),
                        &mut best,
                    );
                }
            }
        }
        // Only with no hint at all did every digit's search run to its full depth.
        if mode == X && best.is_none() {
            for d in (0..9).filter(|&d| digits[d]) {
                barren::found_nothing(barren::Search::XChains, marks, d);
            }
        }
    }
    (best.map(|f| to_step(marks, f)), work)
}

/// One start: grows its tree as deep as a winning hint could be, collecting the cycles (from
/// an on start) and the forcing chain that reach it. Returns the nodes the tree reached.
fn search(
    marks: &Candidates,
    grid: &Grid,
    tree: &mut Tree,
    start: Node,
    (mode, reach): (Mode, Option<&Reach>),
    best: &mut Option<Found>,
) -> u64 {
    let cycle_bound = if is_on(start) {
        complexity_bound(best.as_ref(), Kind::Cycle, mode)
    } else {
        0
    };
    let chain_bound = if mode.unit_links {
        complexity_bound(best.as_ref(), Kind::Chain, mode)
    } else {
        0
    };
    // A node at depth k can close a cycle of k + 2 nodes or a chain of k + 2 nodes.
    let max_depth = cycle_bound.max(chain_bound).saturating_sub(2);
    if max_depth < 1 {
        return 1;
    }
    for &n in &tree.queue {
        tree.parent[n as usize] = Node::MAX;
    }
    tree.queue.clear();
    tree.seen = NodeSet::EMPTY;
    tree.seen.insert(start);
    tree.queue.push(start);
    tree.depth[start as usize] = 0;
    let goal = negation(start);
    // The closing nodes of cycles: the off nodes that turn the start back on.
    let mut closers: Vec<Node> = Vec::new();
    if is_on(start) {
        for_each_conjugate(marks, grid, start, mode, |q| closers.push(q));
    }
    if let Some(reach) = reach {
        let chain_possible = mode.unit_links && reach.reaches(start, goal);
        if !chain_possible && !any_reached(reach, start, &closers) {
            return 1 + closers.len() as u64;
        }
    }
    // SE lists a start's cycles before its chain, so the chain is considered last.
    let mut chain: Option<Found> = None;
    let mut cycles: Vec<(Node, Node)> = Vec::new();
    let mut head = 0;
    while head < tree.queue.len() {
        let p = tree.queue[head];
        head += 1;
        let depth = tree.depth[p as usize];
        if usize::from(depth) > max_depth {
            break;
        }
        let mut next = std::mem::take(&mut tree.scratch);
        next.clear();
        // The reachability pass already listed every node's links for this grid and mode.
        let links: &[Node] = match reach {
            Some(reach) => reach.links_from(p),
            None => {
                if is_on(p) {
                    on_to_off(marks, grid, p, mode.cell_links, |q| next.push(q));
                } else {
                    off_to_on(marks, grid, p, mode, |q| next.push(q));
                }
                &next
            }
        };
        for &q in links {
            if is_on(p) && p != start && closers.contains(&q) && !tree.on_path(p, q) {
                cycles.push((p, q));
            }
            if q == goal && chain.is_none() && mode.unit_links {
                let complexity = usize::from(depth) + 2;
                if complexity <= chain_bound {
                    let mut path = tree.path(p);
                    path.insert(0, q);
                    chain = Some(Found {
                        exact: ExactRating::new(base(Kind::Chain, mode), length_steps(complexity)),
                        complexity,
                        key: sort_key(mode),
                        kind: Kind::Chain,
                        mode,
                        path,
                        removed: Vec::new(),
                    });
                }
            }
            if tree.seen.insert(q) {
                tree.parent[q as usize] = p;
                tree.depth[q as usize] = depth + 1;
                tree.queue.push(q);
            }
        }
        tree.scratch = next;
    }
    for (p, q) in cycles {
        let complexity = usize::from(tree.depth[p as usize]) + 2;
        if complexity > cycle_bound || complexity < 4 {
            continue;
        }
        let mut path = tree.path(p);
        path.insert(0, q);
        path.insert(0, start);
        path.pop(); // the start closes the loop: keep it once, at the front
        let removed = cycle_eliminations(marks, grid, &path);
        if removed.is_empty() {
            continue;
        }
        consider(
            best,
            Found {
                exact: ExactRating::new(base(Kind::Cycle, mode), length_steps(complexity)),
                complexity,
                key: sort_key(mode),
                kind: Kind::Cycle,
                mode,
                path,
                removed,
            },
        );
    }
    if let Some(found) = chain {
        consider(best, found);
    }
    tree.queue.len() as u64
}

/// The off nodes whose consequences include `start` (on): the cell's other digit when it is
/// bivalue, and the digit's other place in each unit where it has two.
fn for_each_conjugate(
    marks: &Candidates,
    grid: &Grid,
    start: Node,
    mode: Mode,
    mut visit: impl FnMut(Node),
) {
    let (cell, d) = (cell_of(start), digit_of(start));
    if mode.cell_links && grid.masks[cell].count_ones() == 2 {
        for other in indices_of(grid.masks[cell] & !(1 << d)) {
            visit(node(cell, other, false));
        }
    }
    if mode.unit_links {
        let g = marks.geometry();
        for unit in g.houses_of(cell) {
            let others = grid.cells_with[d] & (g.set_of(unit) - CellSet::single(cell));
            if let (1, Some(other)) = (others.len(), others.first()) {
                visit(node(other, d, false));
            }
        }
    }
}

/// Keeps `found` when it comes before the current best (ties keep the earlier one).
fn consider(best: &mut Option<Found>, found: Found) {
    let better = best.as_ref().is_none_or(|b| {
        order(
            (found.exact, found.complexity, found.key),
            (b.exact, b.complexity, b.key),
        ) == Ordering::Less
    });
    if better {
        *best = Some(found);
    }
}

/// Candidates outside the cycle that see an on node and an off node of their digit in it.
fn cycle_eliminations(marks: &Candidates, grid: &Grid, path: &[Node]) -> Vec<(usize, usize)> {
    let g = marks.geometry();
    let cells: CellSet = path.iter().map(|&n| cell_of(n)).collect();
    let mut forward = [CellSet::EMPTY; 9];
    let mut backward = [CellSet::EMPTY; 9];
    for &n in path {
        let d = digit_of(n);
        let seen = g.peers(cell_of(n)) & (grid.cells_with[d] - cells);
        if is_on(n) {
            forward[d] |= seen;
        } else {
            backward[d] |= seen;
        }
    }
    let mut removed = Vec::new();
    for d in 0..9 {
        removed.extend((forward[d] & backward[d]).iter().map(|c| (c, d)));
    }
    removed
}

fn to_step(marks: &Candidates, found: Found) -> Step {
    let nodes = found.path.len();
    let cells: Vec<Cell> = found
        .path
        .iter()
        .map(|&n| Cell::from_index(cell_of(n)))
        .collect();
    let digits: Vec<_> = found.path.iter().map(|&n| digit(digit_of(n))).collect();
    let rating = found.exact.rating();
    match found.kind {
        Kind::Cycle => {
            let technique = match (found.mode == XY, found.mode == Y) {
                (true, _) => Technique::BidirectionalCycle,
                (false, true) => Technique::YCycle,
                _ => Technique::XCycle,
            };
            Step::eliminating(
                technique,
                rating,
                found
                    .removed
                    .iter()
                    .map(|&(c, d)| (Cell::from_index(c), digit(d)))
                    .collect(),
                cells,
                digits,
                Vec::new(),
                format!(
                    "The {nodes} candidates of a loop starting at {} alternate on and off either \
                     way round, so candidates seeing an on and an off one of their digit are \
                     removed.",
                    Cell::from_index(cell_of(found.path[0]))
                ),
            )
        }
        Kind::Chain => {
            let technique = if found.mode == XY {
                Technique::ForcingChain
            } else {
                Technique::XChain
            };
            let target = found.path[0];
            let (placements, eliminations) = conclusion(marks, target);
            let pos = Cell::from_index(cell_of(target));
            let d = digit(digit_of(target));
            let explanation = if is_on(target) {
                format!(
                    "If {pos} were not {d}, a chain of {nodes} candidates would force it to be \
                     {d}, so it is {d}."
                )
            } else {
                format!(
                    "If {pos} were {d}, a chain of {nodes} candidates would force it not to be \
                     {d}, so {d} is removed from it."
                )
            };
            let mut step = Step::eliminating(
                technique,
                rating,
                eliminations,
                cells,
                digits,
                Vec::new(),
                explanation,
            );
            step.placements = placements;
            step
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::board::Board;
    use crate::engine::model::grid::Digit;

    fn open_grid_with_5_only_at(units: &[(usize, &[usize])]) -> Candidates<'static> {
        let mut marks = Candidates::new(&Board::empty());
        let five = Digit::new(5).unwrap();
        for &(unit, keep) in units {
            for cell in marks.geometry().cells_of(unit).to_vec() {
                let cell = cell as usize;
                if !keep.contains(&cell) {
                    marks.eliminate(Cell::from_index(cell), five);
                }
            }
        }
        marks
    }

    #[test]
    fn an_x_chain_removes_its_start() {
        // Rows 2 and 4 each have 5 in two places only: r2c2/r2c5 and r4c1/r4c5. If r1c1 were 5,
        // r4c1 is not, so r4c5 is, so r2c5 is not, so r2c2 is, which sees r1c1.
        let marks = open_grid_with_5_only_at(&[(1, &[10, 13]), (3, &[27, 31])]);
        let step = find(&marks).0.unwrap();
        assert_eq!(step.technique, Technique::XChain);
        assert_eq!(step.rating.to_string(), "6.6");
        assert_eq!(
            step.eliminations,
            vec![(Cell::new(0, 0).unwrap(), Digit::new(5).unwrap())]
        );
        assert_eq!(
            step.explanation,
            "If row 1, column 1 were 5, a chain of 6 candidates would force it not to be 5, so \
             5 is removed from it."
        );
    }

    #[test]
    fn an_x_cycle_removes_what_sees_both_colours() {
        // Columns 4 and 7 have 5 only in rows 1 and 5: the loop r1c4-r5c4-r5c7-r1c7 alternates
        // either way, so the other 5s of rows 1 and 5 go.
        let marks = open_grid_with_5_only_at(&[(12, &[3, 39]), (15, &[6, 42])]);
        let step = find(&marks).0.unwrap();
        assert_eq!(step.technique, Technique::XCycle);
        assert_eq!(step.rating.to_string(), "6.5");
        let removed: Vec<usize> = step.eliminations.iter().map(|(p, _)| p.index()).collect();
        let expected: Vec<usize> = (0..9)
            .filter(|c| ![3, 6].contains(c))
            .chain((36..45).filter(|c| ![39, 42].contains(c)))
            .collect();
        assert_eq!(removed, expected);
    }
}
