//! The WXYZ-Wing family (Sukaku Explainer): an almost locked set (ALS) of `n` cells in one
//! unit holding `n + 1` digits, and a bivalue cell `{x, z}` outside it.
//!
//! If every cell of the set that can be `x` sees the bivalue cell, then `x` can be in only one
//! of them (the bivalue cell or the set): the set then holds `z` or the bivalue cell is `z`, so
//! `z` leaves every cell that sees the bivalue cell and all the set's `z` cells. When `z` is
//! linked the same way too ("doubly linked"), the set becomes locked: each of its other digits
//! leaves every cell that sees all the set's cells with it, and `x` leaves the cells that see
//! all the `x` cells as well.
//!
//! Ratings by set size: WXYZ (3 cells) 5.5-5.6, VWXYZ (4) 6.2-6.4, UVWXYZ (5) 6.6, TUVWXYZ (6)
//! 7.5. For the first two, sets whose largest cell has a middling number of candidates are
//! rated 0.1 or 0.2 higher than sets of very small or very large cells.

use std::cmp::Ordering;

use crate::engine::model::grid::{Cell, Digit};

use super::candidates::{digit, digits_of, indices_of, Candidates};
use super::cellset::CellSet;
use super::rating::ExactRating;
use super::text::{capitalize, list};
use super::{Step, Technique};

/// A found wing, before it becomes a [`Step`].
struct Wing {
    cells: CellSet,
    union: u16,
    bivalue: usize,
    /// The restricted common digit and the other digit of the bivalue cell.
    x: usize,
    z: usize,
    doubly: bool,
    removed: Vec<(usize, usize)>,
    largest: u32,
    total_candidates: u32,
}

impl Wing {
    /// SE's order among wings: easiest, then most eliminations, then doubly linked, larger
    /// cells and more candidates first.
    fn rank(&self, other: &Wing, size: usize) -> Ordering {
        rating(size, self.largest)
            .partial_cmp(&rating(size, other.largest))
            .unwrap_or(Ordering::Equal)
            .then(other.removed.len().cmp(&self.removed.len()))
            .then((other.doubly, other.largest, other.total_candidates).cmp(&(
                self.doubly,
                self.largest,
                self.total_candidates,
            )))
    }
}

/// The rating of a wing with a set of `size` cells whose largest cell has `largest` digits.
fn rating(size: usize, largest: u32) -> ExactRating {
    let middle_bonus = |max: i32| {
        let middle = (max + 2) / 2;
        ((max - middle) - (middle - largest as i32).abs()) as u32
    };
    match size {
        3 => ExactRating::new(55, middle_bonus(4)),
        4 => ExactRating::new(62, middle_bonus(5)),
        5 => ExactRating::new(66, 0),
        _ => ExactRating::new(75, 0),
    }
}

/// The best wing with a set of `size` cells (3-6), by SE's order.
pub fn find(marks: &Candidates, size: usize) -> Option<Step> {
    let g = marks.geometry();
    let mut best: Option<Wing> = None;
    for k in 0..g.unit_count() {
        let pool: Vec<usize> = g
            .cells_of(k)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| (2..=size as u32 + 1).contains(&marks.mask(c).count_ones()))
            .collect();
        if pool.len() < size {
            continue;
        }
        let masks: Vec<u16> = pool.iter().map(|&c| marks.mask(c)).collect();
        for_each_almost_locked(&masks, size, &mut |chosen, union| {
            let cells: CellSet = chosen.iter().map(|&i| pool[i]).collect();
            // A set of cells sharing two units is found from the first one only.
            if g.shared_unit(cells) != Some(k) || union.count_ones() as usize != size + 1 {
                return;
            }
            for wing in wings_of(marks, cells, union) {
                if best
                    .as_ref()
                    .is_none_or(|b| wing.rank(b, size) == Ordering::Less)
                {
                    best = Some(wing);
                }
            }
        });
    }
    best.map(|wing| wing_step(size, &wing))
}

/// Calls `visit` with every ascending choice of `size` cells (indices into `masks`) whose
/// digits number at most `size + 1`, with their digits: a choice is cut off as soon as its
/// first cells hold too many digits, so the many sets that could never be almost locked are
/// not listed one by one. The order is that of all choices, so SE's tie-breaks hold.
fn for_each_almost_locked(masks: &[u16], size: usize, visit: &mut impl FnMut(&[usize], u16)) {
    fn go(
        start: usize,
        union: u16,
        masks: &[u16],
        size: usize,
        chosen: &mut Vec<usize>,
        visit: &mut impl FnMut(&[usize], u16),
    ) {
        super::work::count(1);
        if chosen.len() == size {
            visit(chosen, union);
            return;
        }
        for i in start..masks.len() {
            if masks.len() - i < size - chosen.len() {
                break;
            }
            let with = union | masks[i];
            if with.count_ones() as usize > size + 1 {
                continue;
            }
            chosen.push(i);
            go(i + 1, with, masks, size, chosen, visit);
            chosen.pop();
        }
    }
    go(0, 0, masks, size, &mut Vec::with_capacity(size), visit);
}

/// Calls `visit` with every ascending choice of `k` indices below `n`.
pub(crate) fn for_each_combination(n: usize, k: usize, visit: &mut impl FnMut(&[usize])) {
    fn go(
        start: usize,
        n: usize,
        k: usize,
        chosen: &mut Vec<usize>,
        visit: &mut impl FnMut(&[usize]),
    ) {
        if chosen.len() == k {
            visit(chosen);
            return;
        }
        for i in start..n {
            if n - i < k - chosen.len() {
                break;
            }
            chosen.push(i);
            go(i + 1, n, k, chosen, visit);
            chosen.pop();
        }
    }
    go(0, n, k, &mut Vec::with_capacity(k), visit);
}

/// The wings an almost locked set `cells` (digits `union`) makes with bivalue cells.
fn wings_of(marks: &Candidates, cells: CellSet, union: u16) -> Vec<Wing> {
    let g = marks.geometry();
    let reach = cells.iter().fold(CellSet::EMPTY, |acc, c| acc | g.peers(c)) - cells;
    let with = |d: usize| cells & marks.cells_with(d);
    let mut found = Vec::new();
    for yz in reach.iter() {
        super::work::count(1);
        let ym = marks.mask(yz);
        if ym.count_ones() != 2 || ym & !union != 0 {
            continue;
        }
        let mut pair = indices_of(ym);
        let (Some(low), Some(high)) = (pair.next(), pair.next()) else {
            continue;
        };
        let linked = |d: usize| with(d).is_subset(g.peers(yz));
        let (x, z, doubly) = match (linked(low), linked(high)) {
            (true, both) => (low, high, both),
            (false, true) => (high, low, false),
            (false, false) => continue,
        };
        let seeing_all = |d: usize, extra: CellSet| {
            g.common_peers(with(d) | extra) & (marks.cells_with(d) - cells - CellSet::single(yz))
        };
        let mut removed: Vec<(usize, usize)> = Vec::new();
        if doubly {
            for w in indices_of(union & !ym) {
                removed.extend(seeing_all(w, CellSet::EMPTY).iter().map(|c| (c, w)));
            }
            removed.extend(seeing_all(x, CellSet::single(yz)).iter().map(|c| (c, x)));
        }
        removed.extend(seeing_all(z, CellSet::single(yz)).iter().map(|c| (c, z)));
        if removed.is_empty() {
            continue;
        }
        found.push(Wing {
            cells,
            union,
            bivalue: yz,
            x,
            z,
            doubly,
            removed,
            largest: cells
                .iter()
                .map(|c| marks.mask(c).count_ones())
                .max()
                .unwrap_or(0),
            total_candidates: cells.iter().map(|c| marks.mask(c).count_ones()).sum(),
        });
    }
    found
}

fn wing_step(size: usize, wing: &Wing) -> Step {
    let technique = match size {
        3 => Technique::WxyzWing,
        4 => Technique::VwxyzWing,
        5 => Technique::UvwxyzWing,
        _ => Technique::TuvwxyzWing,
    };
    let set: Vec<Cell> = wing.cells.iter().map(Cell::from_index).collect();
    let digits: Vec<Digit> = digits_of(wing.union).collect();
    let bivalue = Cell::from_index(wing.bivalue);
    let (x, z) = (digit(wing.x), digit(wing.z));
    let conclusion = if wing.doubly {
        format!(
            "the {x}s and the {z}s both link them, so together they hold all of {} and those \
             digits are removed from every cell that sees all of their places",
            list(&digits)
        )
    } else {
        format!(
            "the {x}s of both see each other, so one of them is {z} and {z} is removed from \
             every cell that sees all of them"
        )
    };
    let mut cells = set.clone();
    cells.push(bivalue);
    Step::eliminating(
        technique,
        rating(size, wing.largest).rating(),
        wing.removed
            .iter()
            .map(|&(c, d)| (Cell::from_index(c), digit(d)))
            .collect(),
        cells,
        digits.clone(),
        Vec::new(),
        format!(
            "{} hold only {} and {bivalue} is {x} or {z}; {conclusion}.",
            capitalize(&list(&set)),
            list(&digits),
        ),
    )
}
