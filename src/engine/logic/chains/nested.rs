//! Nesting level 1 ("dynamic forcing chains plus", 9.0): when a dynamic propagation has
//! nothing left to expand, locked candidates, hidden pairs, naked pairs and X-Wings run on its
//! reduced grid, in that order, and their eliminations continue it.
//!
//! As in SE, the first of these techniques with a pattern that depends on the assumption is
//! used, with all its patterns: each elimination becomes an "off" node whose parents are the
//! "off" nodes that made the pattern appear (its rule parents). Patterns that need none of
//! them exist without the assumption and are skipped.

use super::super::candidates::{indices_of, Candidates};
use super::super::cellset::CellSet;
use super::super::fish::fishes;
use super::super::intersections::locked_sets;
use super::super::subsets::{hidden_sets, naked_sets, Subset};
use super::derivation::Propagation;
use super::{node, Grid, Node};

/// An elimination with the nodes it rests on.
type Derived = (Node, Vec<Node>);

/// Runs the level-1 techniques on `work`; true when new "off" nodes were added to `out`.
pub(crate) fn extend(
    marks: &Candidates,
    source: &Grid,
    work: &Grid,
    out: &mut Propagation,
) -> bool {
    let now = marks.with_marks(&work.masks);
    // Candidates the assumption removed, as "off" nodes (the possible rule parents).
    let gone =
        |cell: usize, d: usize| source.masks[cell] >> d & 1 != 0 && work.masks[cell] >> d & 1 == 0;
    let rules: [&dyn Fn() -> Vec<Derived>; 4] = [
        &|| locking(&now, &gone),
        &|| subsets(&now, source, false),
        &|| subsets(&now, source, true),
        &|| x_wings(&now, &gone),
    ];
    for rule in rules {
        let derived = rule();
        if derived.is_empty() {
            continue;
        }
        let mut added = false;
        for (n, parents) in derived {
            if !out.contains(n) {
                out.add_nested(n, &parents);
                added = true;
            }
        }
        return added;
    }
    false
}

/// Eliminations of pointing and claiming on `now`, each resting on the removed places of the
/// digit in the first unit outside the second.
fn locking(now: &Candidates, gone: &dyn Fn(usize, usize) -> bool) -> Vec<Derived> {
    let g = now.geometry();
    let mut out = Vec::new();
    for (_, d, k1, k2, _) in locked_sets(now) {
        let removed = now.places_in(k2, d) - g.set_of(k1);
        let parents: Vec<Node> = (g.set_of(k1) - g.set_of(k2))
            .iter()
            .filter(|&c| gone(c, d))
            .map(|c| node(c, d, false))
            .collect();
        push(&mut out, removed.iter().map(|c| (c, d)), &parents);
    }
    out
}

/// Eliminations of naked or hidden pairs on `now`. A naked pair rests on the removed other
/// digits of its cells; a hidden pair on its digits removed from the unit's other cells.
fn subsets(now: &Candidates, source: &Grid, naked: bool) -> Vec<Derived> {
    let g = now.geometry();
    let mut out = Vec::new();
    let mut visit = |set: Subset| {
        let removed = set.removed(now);
        if removed.is_empty() {
            return false;
        }
        let parents: Vec<Node> = if naked {
            set.cells
                .iter()
                .flat_map(|c| {
                    indices_of(source.masks[c] & !set.digits).map(move |d| node(c, d, false))
                })
                .collect()
        } else {
            let places = indices_of(set.digits)
                .fold(CellSet::EMPTY, |acc, d| acc | now.places_in(set.unit, d));
            let others: Vec<u8> = g
                .cells_of(set.unit)
                .iter()
                .copied()
                .filter(|&c| !places.contains(c as usize))
                .collect();
            others
                .into_iter()
                .flat_map(|c| {
                    let c = c as usize;
                    indices_of(source.masks[c] & set.digits).map(move |d| node(c, d, false))
                })
                .collect()
        };
        push(&mut out, removed.into_iter(), &parents);
        false
    };
    if naked {
        naked_sets(now, 2, &mut visit);
    } else {
        hidden_sets(now, 2, &mut visit);
    }
    out
}

/// Eliminations of X-Wings on `now`, each resting on the removed places of the digit in its
/// base lines outside the cover lines.
fn x_wings(now: &Candidates, gone: &dyn Fn(usize, usize) -> bool) -> Vec<Derived> {
    let mut out = Vec::new();
    fishes(now, 2, |fish| {
        let removed = fish.removed(now);
        if !removed.is_empty() {
            let parents: Vec<Node> = (fish.base_cells - fish.cover_cells)
                .iter()
                .filter(|&c| gone(c, fish.digit))
                .map(|c| node(c, fish.digit, false))
                .collect();
            push(&mut out, removed.iter().map(|c| (c, fish.digit)), &parents);
        }
        false
    });
    out
}

/// Adds the eliminations of one pattern, unless it rests on nothing the assumption did.
fn push(out: &mut Vec<Derived>, removed: impl Iterator<Item = (usize, usize)>, parents: &[Node]) {
    if parents.is_empty() {
        return;
    }
    out.extend(removed.map(|(c, d)| (node(c, d, false), parents.to_vec())));
}
