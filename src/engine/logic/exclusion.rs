//! Aligned exclusion: for two (6.2) or three (7.5) cells, try every combination of their
//! candidates. A combination is impossible when two of the cells that see each other would
//! hold the same digit, or when it would take every candidate of a small cell that all of them
//! see. A candidate that appears in no possible combination is removed.
//!
//! As in SE, base cells are cells with at least two candidates that see at least one small
//! cell (bivalue for pairs, two or three candidates for triples), and a set needs at least two
//! small cells seen by all its cells.

use crate::engine::model::grid::Cell;

use super::barren;
use super::candidates::{digit, indices_of, Candidates};
use super::cellset::CellSet;
use super::rating::Rating;
use super::text::{capitalize, list};
use super::{Step, Technique};

/// The base cells and, for each, the small cells it sees.
fn base_cells(marks: &Candidates, largest_excluder: u32) -> Vec<(usize, CellSet)> {
    let g = marks.geometry();
    let count = |c: usize| marks.mask(c).count_ones();
    let singles: CellSet = (0..81).filter(|&c| count(c) == 1).collect();
    let small: CellSet = (0..81)
        .filter(|&c| (2..=largest_excluder).contains(&count(c)))
        .collect();
    let mut out = Vec::new();
    for c in (0..81).filter(|&c| count(c) >= 2) {
        let peers = g.peers(c);
        let excluders = peers & small;
        if (peers & singles).is_empty() && !excluders.is_empty() {
            out.push((c, excluders));
        }
    }
    out
}

/// Pairs of indices below `n` in SE's order: (0,1), (0,2), (1,2), (0,3), ...
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (1..n).flat_map(|b| (0..b).map(move |a| (a, b)))
}

/// The eliminations aligned exclusion gives on `cells` with the small cells `excluders`;
/// inside a grade, none without a look when they read the same marks as when they last gave
/// none.
fn exclude(marks: &Candidates, cells: &[usize], excluders: CellSet) -> Vec<(usize, usize)> {
    let look = barren::ExclusionLook::of(marks, cells, excluders);
    if look.as_ref().is_some_and(|l| l.known_barren()) {
        return Vec::new();
    }
    let removed = exclude_now(marks, cells, excluders);
    if let (true, Some(look)) = (removed.is_empty(), look) {
        look.found_nothing();
    }
    removed
}

/// [`exclude`], looking.
fn exclude_now(marks: &Candidates, cells: &[usize], excluders: CellSet) -> Vec<(usize, usize)> {
    let g = marks.geometry();
    let n = cells.len();
    let mut mask_store = [0u16; 3];
    for (m, &c) in mask_store.iter_mut().zip(cells) {
        *m = marks.mask(c);
    }
    let masks = &mask_store[..n];
    let union = masks.iter().fold(0u16, |acc, &m| acc | m);
    // Only a small cell whose candidates the base cells could all take rules anything out; a
    // repeated digit alone never empties a candidate of cells with two or more each.
    let mut small_store = [0u16; 20];
    let mut small_len = 0;
    for m in excluders
        .iter()
        .map(|c| marks.mask(c))
        .filter(|&m| m & !union == 0)
    {
        small_store[small_len] = m;
        small_len += 1;
    }
    let small = &small_store[..small_len];
    if small.is_empty() {
        return Vec::new();
    }
    let possible = |choice: &[usize]| {
        super::work::count(n as u64);
        let taken = choice.iter().fold(0u16, |acc, &d| acc | 1 << d);
        for i in 0..n {
            for j in i + 1..n {
                if choice[i] == choice[j] && g.sees(cells[i], cells[j]) {
                    return false;
                }
            }
        }
        !small.iter().any(|&m| m & !taken == 0)
    };
    // For each candidate not yet seen in a possible combination, look for one with it; each
    // combination found also covers the other cells' digits it uses, so most candidates need
    // no search of their own.
    let mut allowed = [0u16; 3];
    let mut choice = [0usize; 3];
    for i in 0..n {
        for d in indices_of(masks[i] & !allowed[i]) {
            let mut fixed = [0u16; 3];
            fixed[..n].copy_from_slice(masks);
            fixed[i] = 1 << d;
            if combine(&fixed[..n], 0, &mut choice[..n], &mut |c| possible(c)) {
                for (a, &x) in allowed.iter_mut().zip(&choice[..n]) {
                    *a |= 1 << x;
                }
            }
        }
    }
    cells
        .iter()
        .enumerate()
        .flat_map(|(i, &c)| indices_of(masks[i] & !allowed[i]).map(move |d| (c, d)))
        .collect()
}

/// Looks for a choice of one candidate per cell that `accept`s; true (with the choice left in
/// `choice`) when there is one.
fn combine(
    masks: &[u16],
    i: usize,
    choice: &mut [usize],
    accept: &mut impl FnMut(&[usize]) -> bool,
) -> bool {
    if i == masks.len() {
        return accept(choice);
    }
    for d in indices_of(masks[i]) {
        choice[i] = d;
        if combine(masks, i + 1, choice, accept) {
            return true;
        }
    }
    false
}

/// Aligned pair exclusion (6.2): the first pair of base cells that eliminates something.
pub fn aligned_pair(marks: &Candidates) -> Option<Step> {
    let bases = base_cells(marks, 2);
    for (a, b) in pairs(bases.len()) {
        super::work::count(1);
        let common = bases[a].1 & bases[b].1;
        if common.len() < 2 {
            continue;
        }
        let cells = [bases[a].0, bases[b].0];
        let removed = exclude(marks, &cells, common);
        if !removed.is_empty() {
            return Some(step(
                Technique::AlignedPairExclusion,
                62,
                &cells,
                common,
                removed,
            ));
        }
    }
    None
}

/// Aligned triple exclusion (7.5): base pairs as above, completed by a base cell among the
/// small cells either of them sees.
pub fn aligned_triple(marks: &Candidates) -> Option<Step> {
    let bases = base_cells(marks, 3);
    let base_set: CellSet = bases.iter().map(|&(c, _)| c).collect();
    let mut small_cells_of = [CellSet::EMPTY; 81];
    for &(c, small) in &bases {
        small_cells_of[c] = small;
    }
    for (a, b) in pairs(bases.len()) {
        super::work::count(1);
        // The third cell can only narrow the small cells the first two share.
        if (bases[a].1 & bases[b].1).len() < 2 {
            continue;
        }
        let (c0, c1) = (bases[a].0, bases[b].0);
        let twins =
            (bases[a].1 | bases[b].1) & (base_set - CellSet::single(c0) - CellSet::single(c1));
        // SE keeps the first cell's small cells in order, then the second's new ones.
        let ordered = (bases[a].1 & twins)
            .iter()
            .chain((bases[b].1 & (twins - bases[a].1)).iter());
        for c2 in ordered {
            super::work::count(1);
            let third = small_cells_of[c2];
            let common = bases[a].1 & bases[b].1 & third;
            if common.len() < 2 {
                continue;
            }
            let cells = [c0, c1, c2];
            let removed = exclude(marks, &cells, common);
            if !removed.is_empty() {
                return Some(step(
                    Technique::AlignedTripleExclusion,
                    75,
                    &cells,
                    common,
                    removed,
                ));
            }
        }
    }
    None
}

fn step(
    technique: Technique,
    tenths: u16,
    cells: &[usize],
    excluders: CellSet,
    removed: Vec<(usize, usize)>,
) -> Step {
    let named: Vec<Cell> = cells.iter().map(|&c| Cell::from_index(c)).collect();
    let small: Vec<Cell> = excluders.iter().map(Cell::from_index).collect();
    let mut shown = named.clone();
    shown.extend(&small);
    Step::eliminating(
        technique,
        Rating::from_tenths(tenths),
        removed
            .iter()
            .map(|&(c, d)| (Cell::from_index(c), digit(d)))
            .collect(),
        shown,
        Vec::new(),
        Vec::new(),
        format!(
            "{} cannot take candidates that would empty {} or repeat a digit, so the \
             candidates left in no possible combination are removed.",
            capitalize(&list(&named)),
            list(&small)
        ),
    )
}
