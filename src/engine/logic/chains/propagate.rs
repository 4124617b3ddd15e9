//! Everything that follows from one assumption, as SE's forcing-chain engine derives it.
//!
//! From the assumed node, "on" nodes are expanded before "off" nodes (two queues, on first),
//! each node is kept with the parents it was first derived from, and the search stops at the
//! first node whose negation is already derived (a contradiction). In *dynamic* mode an "off"
//! node removes its candidate from a private copy of the grid once expanded, so later links
//! see the reduced grid; a node derived that way also records as parents the earlier "off"
//! nodes that emptied its cell or unit ("hidden" parents), which is why dynamic chains count
//! more nodes. With nesting (level 1), when nothing is left to expand, pattern techniques run
//! on the reduced grid and their eliminations continue the propagation.
//!
//! The order of expansion decides which parents a node gets, hence the chain lengths and the
//! ratings; it follows SE's exactly.

use super::super::candidates::{indices_of, Candidates};
use super::super::cellset::CellSet;
use super::derivation::{Fresh, Propagation, Side};
use super::nested;
use super::{cell_of, digit_of, negation, node, Grid, Mode, Node, OnLinks};

/// How a propagation links nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Follow the grid as assumptions remove candidates.
    pub(crate) dynamic: bool,
    /// Use cell links (false for Nishio, which follows one digit).
    pub(crate) cell_links: bool,
    /// When nothing is left to expand, let pattern techniques continue (SE's level 1).
    pub(crate) plus: bool,
}

/// Derives the consequences of `start` in `grid` into `out`; `links` are the on links of
/// `grid` under `settings.cell_links`.
pub(crate) fn propagate(
    marks: &Candidates,
    (grid, links): (&Grid, &mut OnLinks),
    start: Node,
    settings: Settings,
    out: &mut Propagation,
) {
    expand(marks, (grid, links), start, settings, out);
    out.work = (out.ons.len() + out.offs.len()) as u64;
}

fn expand(
    marks: &Candidates,
    (grid, links): (&Grid, &mut OnLinks),
    start: Node,
    settings: Settings,
    out: &mut Propagation,
) {
    out.clear();
    let mut work = *grid;
    out.add(start, &[]);
    let (mut on_head, mut off_head) = (0, 0);
    let mut buffer: Vec<Node> = Vec::with_capacity(32);
    let mut derived: Vec<(Node, Vec<Node>)> = Vec::with_capacity(4);
    loop {
        if on_head < out.ons.len() {
            let p = out.ons[on_head];
            on_head += 1;
            buffer.clear();
            links.visit(marks, (grid, &work), p, |q| buffer.push(q));
            for &q in &buffer {
                if out.contains(negation(q)) {
                    out.contradiction = Some((
                        Side::Stored(negation(q)),
                        Side::Fresh(Fresh {
                            node: q,
                            parents: vec![p],
                        }),
                    ));
                    return;
                }
                if !out.contains(q) {
                    out.add(q, &[p]);
                }
            }
            continue;
        }
        if off_head < out.offs.len() {
            let p = out.offs[off_head];
            off_head += 1;
            derived.clear();
            off_to_on_with_parents(marks, grid, &work, p, settings, &mut derived);
            if settings.dynamic {
                work.remove(cell_of(p), digit_of(p));
            }
            for (q, parents) in derived.drain(..) {
                if out.contains(negation(q)) {
                    out.contradiction = Some((
                        Side::Fresh(Fresh { node: q, parents }),
                        Side::Stored(negation(q)),
                    ));
                    return;
                }
                if !out.contains(q) {
                    out.add(q, &parents);
                }
            }
            continue;
        }
        if settings.plus && nested::extend(marks, grid, &work, out) {
            continue;
        }
        break;
    }
}

/// The "on" nodes that follow from `p` (off) in `work`, each with its parents: `p` first, then
/// (in dynamic mode) the expanded "off" nodes that emptied the cell or unit since the start.
fn off_to_on_with_parents(
    marks: &Candidates,
    source: &Grid,
    work: &Grid,
    p: Node,
    settings: Settings,
    out: &mut Vec<(Node, Vec<Node>)>,
) {
    let (cell, d) = (cell_of(p), digit_of(p));
    let mode = Mode {
        cell_links: settings.cell_links,
        unit_links: true,
    };
    let g = marks.geometry();
    if mode.cell_links && work.masks[cell].count_ones() == 2 {
        if let Some(other) = indices_of(work.masks[cell] & !(1 << d)).next() {
            let mut parents = vec![p];
            for gone in indices_of(source.masks[cell] & !work.masks[cell]) {
                parents.push(node(cell, gone, false));
            }
            out.push((node(cell, other, true), parents));
        }
    }
    for unit in g.houses_of(cell) {
        let here = g.set_of(unit);
        let others = work.cells_with[d] & (here - CellSet::single(cell));
        if others.len() != 1 {
            continue;
        }
        let other = others.first().unwrap_or(cell);
        let q = node(other, d, true);
        if out.iter().any(|(n, _)| *n == q) {
            continue;
        }
        let mut parents = vec![p];
        let gone = source.cells_with[d] & (here - work.cells_with[d]);
        for c in g.cells_of(unit).iter().map(|&c| c as usize) {
            if gone.contains(c) {
                parents.push(node(c, d, false));
            }
        }
        out.push((q, parents));
    }
}
