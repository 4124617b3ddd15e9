//! Propagators: what a family says about several cells at once that no house, forbidden
//! pair, domain or relation can (an arrow's sum, the digits between a sandwich's crusts, how
//! many skyscrapers a clue sees). A family declares them through
//! [`Family::propagators`](super::Family::propagators); every engine then reads them the same
//! way: the general solver narrows its candidates with them between its own rules, pencil
//! marks apply them, and validation reports an instance that no digits of its empty cells
//! could mend as broken.
//!
//! A propagator sees only candidate masks (bit `d - 1` for digit `d`), one per cell of its
//! own, so it knows nothing of a solver's frames or a board's types. Engines call it through
//! [`revise`], which decides a full assignment with [`Propagator::holds`]: so a propagator's
//! [`Propagator::narrow`] needs only be sound (never remove a digit some assignment meeting
//! it uses), and the search stays exact however weak the narrowing is.
//!
//! Two narrowings serve several families: [`Linear`] (a weighted sum, by bounds: arrows,
//! little killers, region-sum lines) and [`narrow_by_enumeration`] (every assignment of a few
//! cells tried, when few remain: the exact step near the end of a search that a rule of
//! bounds cannot make).

use std::fmt;

use crate::engine::model::grid::Cell;
use crate::engine::model::validate::Unit;

/// A constraint on several cells, as the engines read it (see the module docs).
pub(crate) trait Propagator: fmt::Debug + Send + Sync {
    /// The unit a broken instance is reported as.
    fn unit(&self) -> Unit;

    /// The cells it reads and narrows, in its own order (the masks' order).
    fn cells(&self) -> &[Cell];

    /// Whether `digits` (one per cell, in [`Propagator::cells`] order, from 1) meet it.
    fn holds(&self, digits: &[u8]) -> bool;

    /// Narrows `masks` (one per cell, none empty, not all single digits) to digits some
    /// assignment meeting this constraint may use; false when no assignment can. Adds the
    /// operations it made to `work`, for the caller's meter.
    fn narrow(&self, masks: &mut [u32], work: &mut u64) -> bool;

    /// Whether validation reports it when broken: false for one that only strengthens
    /// what its family's houses and relations already say (and report), so a broken
    /// instance is named once.
    fn reported(&self) -> bool {
        true
    }
}

/// Narrows `masks` (one per cell of `propagator`) by it: false when no assignment of the
/// masks meets it. A full assignment is decided by [`Propagator::holds`], so this is exact
/// on full grids whatever the propagator's narrowing leaves.
pub(crate) fn revise(propagator: &dyn Propagator, masks: &mut [u32], work: &mut u64) -> bool {
    *work += masks.len() as u64;
    if masks.contains(&0) {
        return false;
    }
    if masks.iter().all(|&m| m & (m - 1) == 0) {
        let digit = |m: &u32| (m.trailing_zeros() + 1) as u8;
        let mut buffer = [0u8; 64];
        return if masks.len() <= buffer.len() {
            for (slot, m) in buffer.iter_mut().zip(masks.iter()) {
                *slot = digit(m);
            }
            propagator.holds(&buffer[..masks.len()])
        } else {
            propagator.holds(&masks.iter().map(digit).collect::<Vec<u8>>())
        };
    }
    if !propagator.narrow(masks, work) || masks.contains(&0) {
        return false;
    }
    // A narrowing that left one digit a cell made a full assignment: decided by `holds` like
    // any other, so a caller may trust masks this returned without asking again.
    masks.iter().any(|&m| m & (m - 1) != 0) || revise(propagator, masks, work)
}

/// The digits of `mask`, smallest first.
pub(crate) fn digits_of(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let digit = mask.trailing_zeros() + 1;
            mask &= mask - 1;
            digit
        })
    })
}

/// The smallest and largest digit of a non-empty `mask`.
pub(crate) fn low_high(mask: u32) -> (i64, i64) {
    (
        i64::from(mask.trailing_zeros() + 1),
        i64::from(32 - mask.leading_zeros()),
    )
}

/// The digits `low..=high` (clamped to 1..=32) as a mask.
pub(crate) fn range_mask(low: i64, high: i64) -> u32 {
    let (low, high) = (low.max(1), high.min(32));
    if low > high {
        return 0;
    }
    let top = if high == 32 {
        u32::MAX
    } else {
        (1u32 << high) - 1
    };
    top & !((1u32 << (low - 1)) - 1)
}

/// The smallest and largest sums of `count` distinct digits of `mask`; `None` when it has
/// fewer digits. Cells of one row or column hold distinct digits, so a sum along a part of
/// one is bounded by these as well as by each cell's own smallest and largest digit.
pub(crate) fn distinct_sum_bounds(mask: u32, count: usize) -> Option<(i64, i64)> {
    distinct_sum_bounds_and_fewer(mask, count).map(|[all, _]| all)
}

/// [`distinct_sum_bounds`] for `count` digits and, in the same pass, for `count - 1` (the
/// last digit each side took left out); `count` is at least 1.
fn distinct_sum_bounds_and_fewer(mask: u32, count: usize) -> Option<[(i64, i64); 2]> {
    if (mask.count_ones() as usize) < count {
        return None;
    }
    let (mut all, mut last) = ((0i64, 0i64), (0i64, 0i64));
    let (mut small, mut large) = (mask, mask);
    for _ in 0..count {
        last.0 = i64::from(small.trailing_zeros() + 1);
        small &= small - 1;
        let top = 31 - large.leading_zeros();
        last.1 = i64::from(top + 1);
        large &= !(1 << top);
        all = (all.0 + last.0, all.1 + last.1);
    }
    Some([all, (all.0 - last.0, all.1 - last.1)])
}

/// How many groups' bounds [`Linear::narrow`] keeps on the stack between its two loops (a
/// little killer's diagonal crosses at most five boxes of a 9x9; the rest are recomputed).
const KEPT_GROUPS: usize = 8;

/// The most terms [`Linear`] reads reachable sums for (a 16x16 little killer has 16).
const REACHABLE_TERMS: usize = 24;
/// The most open terms the reachable sums are read for where the bounds leave every term
/// room on both sides: with few open cells the holes decide, with many the walk seldom
/// finds anything (six or any number: the little killers' p99 rose, see BENCHMARKS).
const OPEN_LIMIT: usize = 4;

/// A weighted sum of cells equals a total: `sum(weights[i] * digit(cells[i])) == total`.
/// An arrow is its shaft's cells at weight 1 less its circle's at weight -1 (or -10 and -1
/// for a two-cell pill read as a number) equal to 0; a little killer its diagonal at weight
/// 1 equal to its clue. Terms of one weight whose cells share a house hold distinct digits
/// ([`Linear::distinct_by`]), which bounds their sum more tightly than each cell's own
/// digits do (three cells of one box add up to at least 6, not 3). Narrowed by bounds:
/// each term keeps the digits that the others' smallest and largest sums leave room for,
/// to a fixed point.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Linear {
    pub unit: Unit,
    /// Each cell once.
    pub cells: Vec<Cell>,
    /// Never 0.
    pub weights: Vec<i64>,
    pub total: i64,
    /// A partition of the terms into groups of one weight whose digits are distinct (each
    /// term alone unless [`Linear::distinct_by`] grouped it).
    groups: Vec<Vec<usize>>,
    /// Every weight 1 or -1 (see [`Linear::narrow_by_reachable_sums`]).
    unit_weights: bool,
}

impl Linear {
    /// `sum(weight * cell) == total` over `terms`, the weights of a cell listed twice added.
    pub fn new(unit: Unit, terms: impl IntoIterator<Item = (Cell, i64)>, total: i64) -> Linear {
        let mut cells: Vec<Cell> = Vec::new();
        let mut weights: Vec<i64> = Vec::new();
        for (cell, weight) in terms {
            match cells.iter().position(|&c| c == cell) {
                Some(k) => weights[k] += weight,
                None => {
                    cells.push(cell);
                    weights.push(weight);
                }
            }
        }
        // A cell whose weights cancel out is in no term.
        let mut k = 0;
        while k < cells.len() {
            if weights[k] == 0 {
                cells.remove(k);
                weights.remove(k);
            } else {
                k += 1;
            }
        }
        let groups = (0..cells.len()).map(|k| vec![k]).collect();
        let unit_weights = weights.iter().all(|w| w.abs() == 1);
        Linear {
            unit,
            cells,
            weights,
            total,
            groups,
            unit_weights,
        }
    }

    /// The same sum, its terms of one weight in one house (`house_of` a cell: its box or
    /// Jigsaw region, a house every puzzle has) grouped as distinct digits.
    pub fn distinct_by(mut self, house_of: impl Fn(Cell) -> usize) -> Linear {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for k in 0..self.cells.len() {
            let key = (house_of(self.cells[k]), self.weights[k]);
            let same =
                |g: &&mut Vec<usize>| (house_of(self.cells[g[0]]), self.weights[g[0]]) == key;
            match groups.iter_mut().find(same) {
                Some(group) => group.push(k),
                None => groups.push(vec![k]),
            }
        }
        self.groups = groups;
        self
    }

    /// Of `group`'s digits: the sums of its cells' smallest and largest digits, and the
    /// smallest and largest sums of distinct digits of their union, for all of its cells
    /// and for one fewer; `None` when its cells cannot hold distinct digits.
    fn group_bounds(group: &[usize], masks: &[u32]) -> Option<[(i64, i64); 3]> {
        let (mut low, mut high, mut union) = (0i64, 0i64, 0u32);
        for &k in group {
            let (lo, hi) = low_high(masks[k]);
            low += lo;
            high += hi;
            union |= masks[k];
        }
        let [all, fewer] = distinct_sum_bounds_and_fewer(union, group.len())?;
        Some([(low, high), all, fewer])
    }

    /// Narrows a sum of weights 1 and -1 to the digits with which the other terms can still
    /// reach the total, each term's digits taken alone (distinct digits within a group are
    /// the bounds' part): the sums after each prefix of the terms, and the partial sums
    /// each suffix can complete, as bit sets. A term of weight -1 counts its digit `d` as
    /// `33 - d` (so every value is positive), the total raised by 33 for it. Not read (as if
    /// nothing went) where that does not fit 128 bits (long sums, weights beyond one), with
    /// more than [`REACHABLE_TERMS`] terms or more than `open_limit` open ones. `Some(true)`
    /// when a digit went, `None` when none did, `Some(false)` on a contradiction.
    fn narrow_by_reachable_sums(
        &self,
        masks: &mut [u32],
        open_limit: usize,
        work: &mut u64,
    ) -> Option<bool> {
        let n = masks.len();
        if n > REACHABLE_TERMS || !self.unit_weights {
            return None;
        }
        // Where every term's digits are a run, the sums each reaches are runs too, and the
        // bounds have said all there is.
        let run = |m: u32| {
            let shifted = m >> m.trailing_zeros();
            shifted & (shifted + 1) == 0
        };
        if masks.iter().all(|&m| run(m)) {
            return None;
        }
        // Single digits only move the target: the open terms are the walk's.
        let mut open = [0u8; REACHABLE_TERMS];
        let mut values = [0u32; REACHABLE_TERMS];
        let (mut target, mut most, mut m) = (self.total, 0i64, 0usize);
        for (k, (&mask, &w)) in masks.iter().zip(&self.weights).enumerate() {
            // Bit `v - 1` for value `v`.
            let value = if w > 0 { mask } else { mask.reverse_bits() };
            target += if w > 0 { 0 } else { 33 };
            if value & (value - 1) == 0 {
                target -= i64::from(value.trailing_zeros() + 1);
            } else {
                (open[m], values[m]) = (k as u8, value);
                m += 1;
                most += i64::from(32 - value.leading_zeros());
            }
        }
        if most >= 128 || m > open_limit {
            return None;
        }
        if target < 0 || target > most {
            return Some(false);
        }
        let values = &mut values[..m];
        *work += 2 * values
            .iter()
            .map(|v| u64::from(v.count_ones()))
            .sum::<u64>();
        // Most sums fit 64 bits, whose shifts are single instructions.
        let fits = if most < 64 {
            keep_reaching::<u64>(values, target as u32)
        } else {
            keep_reaching::<u128>(values, target as u32)
        };
        if !fits {
            return Some(false);
        }
        let mut changed = false;
        for (&term, &kept) in open.iter().zip(values.iter()) {
            let term = usize::from(term);
            let kept = if self.weights[term] > 0 {
                kept
            } else {
                kept.reverse_bits()
            };
            if kept != masks[term] {
                masks[term] = kept;
                changed = true;
            }
        }
        changed.then_some(true)
    }

    /// `(low, high)` digit bounds as weighted bounds for weight `w`.
    fn weighted(w: i64, (low, high): (i64, i64)) -> (i64, i64) {
        if w > 0 {
            (w * low, w * high)
        } else {
            (w * high, w * low)
        }
    }
}

impl Propagator for Linear {
    fn unit(&self) -> Unit {
        self.unit
    }

    fn cells(&self) -> &[Cell] {
        &self.cells
    }

    fn holds(&self, digits: &[u8]) -> bool {
        let sum: i64 = digits
            .iter()
            .zip(&self.weights)
            .map(|(&d, &w)| w * i64::from(d))
            .sum();
        sum == self.total
    }

    fn narrow(&self, masks: &mut [u32], work: &mut u64) -> bool {
        // Each group's bounds, read once a pass: a group's masks change only while it is
        // narrowed, and then the pass ends.
        let mut kept = [[(0i64, 0i64); 3]; KEPT_GROUPS];
        loop {
            // Each group's digit sum lies within its cells' own bounds and distinct digits'.
            let (mut low, mut high) = (0i64, 0i64);
            // How far a term's bounds can reach (see the room below): a lone cell's spread,
            // a group's largest digit less one, times the weight.
            let mut reach = 0i64;
            for (g, group) in self.groups.iter().enumerate() {
                let Some(bounds) = Linear::group_bounds(group, masks) else {
                    return false;
                };
                let spread = match group[..] {
                    [_] => bounds[0].1 - bounds[0].0,
                    _ => {
                        let union = group.iter().fold(0, |union, &k| union | masks[k]);
                        i64::from(31 - union.leading_zeros())
                    }
                };
                reach = reach.max(self.weights[group[0]].abs() * spread);
                if let Some(slot) = kept.get_mut(g) {
                    *slot = bounds;
                }
                let [own, all, _] = bounds;
                let whole = (own.0.max(all.0), own.1.min(all.1));
                if whole.0 > whole.1 {
                    return false;
                }
                let (lo, hi) = Linear::weighted(self.weights[group[0]], whole);
                low += lo;
                high += hi;
            }
            *work += 3 * masks.len() as u64;
            if self.total < low || self.total > high {
                return false;
            }
            // A term's digits are cut only where the others' bounds leave it less room
            // than `reach` on a side: the others' share of the distance from `low` to the
            // total is at least that total less the term's own smallest digit (one at
            // least, in a group), and so from above. With that much room on both sides no
            // digit goes (the common case while most cells are open: a nine-cell diagonal
            // of 30 has room either way), so the per-term pass is skipped.
            let roomy = self.total - low >= reach && high - self.total >= reach;
            let groups = if roomy { &[][..] } else { &self.groups[..] };
            let mut changed = false;
            for (g, group) in groups.iter().enumerate() {
                let w = self.weights[group[0]];
                let bounds = match kept.get(g) {
                    Some(&bounds) => Some(bounds),
                    None => Linear::group_bounds(group, masks),
                };
                let Some([own, all, fewer]) = bounds else {
                    return false;
                };
                let whole = (own.0.max(all.0), own.1.min(all.1));
                let (group_lo, group_hi) = Linear::weighted(w, whole);
                for &k in group {
                    // The rest of this group: its cells' own bounds and distinct digits'
                    // one fewer.
                    let (lo, hi) = low_high(masks[k]);
                    let rest = ((own.0 - lo).max(fewer.0), (own.1 - hi).min(fewer.1));
                    if rest.0 > rest.1 {
                        return false;
                    }
                    let (rest_lo, rest_hi) = Linear::weighted(w, rest);
                    // This term lies between the total less the others' largest and the
                    // total less the others' smallest.
                    let others_lo = low - group_lo + rest_lo;
                    let others_hi = high - group_hi + rest_hi;
                    let (from, to) = (self.total - others_hi, self.total - others_lo);
                    let (first, last) = match w {
                        // Sums of digits (little killers, shafts): no division.
                        1 => (from, to),
                        -1 => (-to, -from),
                        w if w > 0 => (div_ceil(from, w), div_floor(to, w)),
                        w => (div_ceil(to, w), div_floor(from, w)),
                    };
                    let kept = masks[k] & range_mask(first, last);
                    if kept != masks[k] {
                        if kept == 0 {
                            return false;
                        }
                        masks[k] = kept;
                        changed = true;
                    }
                }
                if changed {
                    // Bounds moved: every sum is read afresh.
                    break;
                }
            }
            if changed {
                continue;
            }
            // Bounds leave holes: two cells adding to 7 from {1, 3, 5} and {2, 6} keep every
            // digit by bounds, but 3 reaches 7 with neither 2 nor 6. Sums of unit weights
            // read the sums each term can reach (exact for independent cells); where the
            // bounds left every term room, only with few open terms.
            let open_limit = if roomy { OPEN_LIMIT } else { REACHABLE_TERMS };
            match self.narrow_by_reachable_sums(masks, open_limit, work) {
                Some(true) => continue,
                None => return true,
                Some(false) => return false,
            }
        }
    }
}

/// Keeps in `values` (each term's values as bits, bit `v - 1` for value `v`, the largest
/// sum below `T`'s width) the values with which the terms can add up to `target`; false when
/// none can. The sums the terms after each one can complete to the target, as bit sets,
/// then one pass forward with the sums the kept values before it reach.
fn keep_reaching<T>(values: &mut [u32], target: u32) -> bool
where
    T: Copy
        + From<u8>
        + PartialEq
        + std::ops::Shl<u32, Output = T>
        + std::ops::Shr<u32, Output = T>
        + std::ops::BitOr<Output = T>
        + std::ops::BitAnd<Output = T>,
{
    let zero = T::from(0);
    let mut needed = [zero; REACHABLE_TERMS + 1];
    let m = values.len();
    needed[m] = T::from(1) << target;
    for k in (0..m).rev() {
        let (mut sums, mut bits) = (zero, values[k]);
        while bits != 0 {
            sums = sums | needed[k + 1] >> (bits.trailing_zeros() + 1);
            bits &= bits - 1;
        }
        needed[k] = sums;
    }
    let mut reached = T::from(1);
    for (k, value) in values.iter_mut().enumerate() {
        let (mut kept, mut sums, mut bits) = (0u32, zero, *value);
        while bits != 0 {
            let bit = bits & bits.wrapping_neg();
            let shifted = reached << (bit.trailing_zeros() + 1);
            if shifted & needed[k + 1] != zero {
                kept |= bit;
                sums = sums | shifted;
            }
            bits ^= bit;
        }
        if kept == 0 {
            return false;
        }
        *value = kept;
        reached = sums;
    }
    true
}

/// `sum` with its terms grouped by `houses` (the box or Jigsaw region of every cell, reading
/// order; none known: `sum` as it is).
pub(crate) fn in_houses(sum: Linear, houses: &[usize]) -> Linear {
    if houses.is_empty() {
        return sum;
    }
    let side = (houses.len() as f64).sqrt() as usize;
    sum.distinct_by(|cell| houses[cell.row() * side + cell.col()])
}

fn div_floor(a: i64, b: i64) -> i64 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn div_ceil(a: i64, b: i64) -> i64 {
    -div_floor(-a, b)
}

/// The most assignments [`narrow_by_enumeration`] tries: past it, a family's own rules of
/// bounds do the narrowing alone. 512 leaves of a few cells each are a few microseconds.
pub(crate) const ENUMERATION_CAP: u64 = 512;

/// Narrows `masks` to the digits used by some assignment that `fits` accepts, by trying
/// every assignment (distinct digits when `distinct`). `fits(prefix)` is asked of every
/// prefix, the full one included, so a family prunes as early as it can judge. `None` when
/// the masks allow more than [`ENUMERATION_CAP`] assignments (nothing is tried or changed);
/// `Some(false)` when none fits.
pub(crate) fn narrow_by_enumeration(
    masks: &mut [u32],
    distinct: bool,
    work: &mut u64,
    fits: &mut dyn FnMut(&[u8]) -> bool,
) -> Option<bool> {
    let mut product = 1u64;
    for &mask in masks.iter() {
        product = product.saturating_mul(u64::from(mask.count_ones()));
        if product > ENUMERATION_CAP {
            return None;
        }
    }
    let n = masks.len();
    let mut supported = vec![0u32; n];
    let mut digits = vec![0u8; n];
    let mut nodes = 0u64;
    walk(
        masks,
        distinct,
        0,
        0,
        &mut digits,
        &mut supported,
        &mut nodes,
        fits,
    );
    *work += nodes * n as u64;
    if supported.contains(&0) {
        return Some(false);
    }
    masks.copy_from_slice(&supported);
    Some(true)
}

/// Depth-first over the cells from `depth`, `used` the digits placed so far.
#[allow(clippy::too_many_arguments)]
fn walk(
    masks: &[u32],
    distinct: bool,
    depth: usize,
    used: u32,
    digits: &mut [u8],
    supported: &mut [u32],
    nodes: &mut u64,
    fits: &mut dyn FnMut(&[u8]) -> bool,
) {
    let free = if distinct { !used } else { u32::MAX };
    for digit in digits_of(masks[depth] & free) {
        *nodes += 1;
        digits[depth] = digit as u8;
        if !fits(&digits[..=depth]) {
            continue;
        }
        if depth + 1 == masks.len() {
            for (slot, &d) in supported.iter_mut().zip(digits.iter()) {
                *slot |= 1 << (d - 1);
            }
        } else {
            let bit = 1 << (digit - 1);
            walk(
                masks,
                distinct,
                depth + 1,
                used | bit,
                digits,
                supported,
                nodes,
                fits,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::constraints::cages::CAGE;

    fn unit() -> Unit {
        Unit {
            kind: CAGE,
            index: 0,
        }
    }

    fn mask(digits: &[u32]) -> u32 {
        digits.iter().fold(0, |m, d| m | 1 << (d - 1))
    }

    /// A careless narrowing: it leaves every cell its smallest digit, whatever the rule.
    #[derive(Debug)]
    struct Smallest {
        cells: Vec<Cell>,
    }

    impl Propagator for Smallest {
        fn unit(&self) -> Unit {
            unit()
        }
        fn cells(&self) -> &[Cell] {
            &self.cells
        }
        /// The digits add up to 5.
        fn holds(&self, digits: &[u8]) -> bool {
            digits.iter().map(|&d| u32::from(d)).sum::<u32>() == 5
        }
        fn narrow(&self, masks: &mut [u32], _: &mut u64) -> bool {
            for m in masks.iter_mut() {
                *m &= m.wrapping_neg();
            }
            true
        }
    }

    /// The general solver trusts masks `revise` returned (it skips a propagator whose masks
    /// are what its last look left), so a full assignment a narrowing made is decided here.
    #[test]
    fn a_full_assignment_a_narrowing_made_is_decided_by_holds() {
        let careless = Smallest {
            cells: vec![Cell::at(0, 0), Cell::at(0, 1)],
        };
        let mut work = 0;
        // 1 + 1 is not 5.
        let mut masks = [mask(&[1, 4]), mask(&[1, 2])];
        assert!(!revise(&careless, &mut masks, &mut work));
        // 2 + 3 is.
        let mut masks = [mask(&[2, 4]), mask(&[3, 4])];
        assert!(revise(&careless, &mut masks, &mut work));
        assert_eq!(masks, [mask(&[2]), mask(&[3])]);
    }

    #[test]
    fn a_linear_sum_keeps_what_the_bounds_leave() {
        // circle = a + b, circle in 1-9, a and b in 1-9, circle at most 4: a and b 1-3.
        let cells = [Cell::at(0, 0), Cell::at(0, 1), Cell::at(0, 2)];
        let arrow = Linear::new(unit(), [(cells[0], -1), (cells[1], 1), (cells[2], 1)], 0);
        let mut masks = [mask(&[1, 2, 3, 4]), 0x1ff, 0x1ff];
        let mut work = 0;
        assert!(revise(&arrow, &mut masks, &mut work));
        assert_eq!(
            masks,
            [mask(&[2, 3, 4]), mask(&[1, 2, 3]), mask(&[1, 2, 3])]
        );
        // A pill 10a + b equal to a sum of two cells (at most 18): a is 1.
        let pill = Linear::new(
            unit(),
            [
                (cells[0], -10),
                (cells[1], -1),
                (Cell::at(1, 0), 1),
                (Cell::at(1, 1), 1),
            ],
            0,
        );
        let mut masks = [0x1ff; 4];
        assert!(revise(&pill, &mut masks, &mut work));
        assert_eq!(masks[0], mask(&[1]));
        assert_eq!(masks[1], mask(&[1, 2, 3, 4, 5, 6, 7, 8]));
        // Full assignments are judged by holds.
        let mut masks = [mask(&[1]), mask(&[2]), mask(&[9]), mask(&[4])];
        assert!(!revise(&pill, &mut masks, &mut work));
        let mut masks = [mask(&[1]), mask(&[2]), mask(&[9]), mask(&[3])];
        let sum = Linear::new(unit(), (0..4).map(|k| (Cell::at(2, k), 1)), 15);
        assert!(revise(&sum, &mut masks, &mut work));
    }

    #[test]
    fn a_sum_of_unit_weights_keeps_only_the_digits_that_reach_the_total() {
        let cells = [Cell::at(0, 0), Cell::at(4, 4), Cell::at(8, 8)];
        // Two cells adding to 7 from {1, 3, 5} and {2, 6}: the bounds keep them all (each
        // cell's range is 7 less the other's), but 3 reaches 7 with neither 2 nor 6.
        let pair = Linear::new(unit(), [(cells[0], 1), (cells[1], 1)], 7);
        let mut masks = [mask(&[1, 3, 5]), mask(&[2, 6])];
        assert!(revise(&pair, &mut masks, &mut 0));
        assert_eq!(masks, [mask(&[1, 5]), mask(&[2, 6])]);
        // A circle (weight -1) of 4, 6 or 7 and a shaft of two cells of 1 or 5 each: the
        // shaft adds to 2, 6 or 10, so the circle is 6.
        let arrow = Linear::new(unit(), [(cells[0], -1), (cells[1], 1), (cells[2], 1)], 0);
        let mut masks = [mask(&[4, 6, 7]), mask(&[1, 5]), mask(&[1, 5])];
        assert!(revise(&arrow, &mut masks, &mut 0));
        assert_eq!(masks, [mask(&[6]), mask(&[1, 5]), mask(&[1, 5])]);
        // With the circle at 4 and 7 only, nothing adds up.
        let mut masks = [mask(&[4, 7]), mask(&[1, 5]), mask(&[1, 5])];
        assert!(!revise(&arrow, &mut masks, &mut 0));
        // A placed term only moves the total: 12 - 5 leaves the pair above.
        let mut masks = [mask(&[5]), mask(&[1, 3, 5]), mask(&[2, 6])];
        let triple = Linear::new(unit(), cells.map(|c| (c, 1)), 12);
        assert!(revise(&triple, &mut masks, &mut 0));
        assert_eq!(masks, [mask(&[5]), mask(&[1, 5]), mask(&[2, 6])]);
        // A placed circle of 6 (weight -1) and a shaft from {1, 5} and {1, 3, 5}: the 3 goes.
        let mut masks = [mask(&[6]), mask(&[1, 5]), mask(&[1, 3, 5])];
        assert!(revise(&arrow, &mut masks, &mut 0));
        assert_eq!(masks, [mask(&[6]), mask(&[1, 5]), mask(&[1, 5])]);
    }

    #[test]
    fn a_cell_listed_twice_counts_twice_and_cancelled_weights_vanish() {
        let a = Cell::at(0, 0);
        let b = Cell::at(0, 1);
        let linear = Linear::new(unit(), [(a, 1), (b, 1), (a, 1), (b, -1)], 6);
        assert_eq!(linear.cells, [a]);
        assert_eq!(linear.weights, [2]);
        let mut masks = [0x1ff];
        assert!(revise(&linear, &mut masks, &mut 0));
        assert_eq!(masks, [mask(&[3])]);
    }

    #[test]
    fn enumeration_keeps_the_digits_of_fitting_assignments_only() {
        // Three distinct digits of 1-4 adding to 6 with the first the largest: 3,1,2 / 3,2,1.
        let mut masks = [mask(&[1, 2, 3, 4]); 3];
        let mut fits = |d: &[u8]| {
            let sum: u8 = d.iter().sum();
            sum <= 6 && d.iter().all(|&x| x <= d[0]) && (d.len() < 3 || sum == 6)
        };
        assert_eq!(
            narrow_by_enumeration(&mut masks, true, &mut 0, &mut fits),
            Some(true)
        );
        assert_eq!(masks, [mask(&[3]), mask(&[1, 2]), mask(&[1, 2])]);
        let mut never = |_: &[u8]| false;
        assert_eq!(
            narrow_by_enumeration(&mut masks, true, &mut 0, &mut never),
            Some(false)
        );
        let mut wide = [0x1ff; 4];
        assert_eq!(
            narrow_by_enumeration(&mut wide, false, &mut 0, &mut fits),
            None
        );
        assert_eq!(wide, [0x1ff; 4]);
    }

    #[test]
    fn ranges_and_divisions_round_the_right_way() {
        assert_eq!(range_mask(2, 4), mask(&[2, 3, 4]));
        assert_eq!(range_mask(-3, 1), mask(&[1]));
        assert_eq!(range_mask(5, 4), 0);
        assert_eq!(range_mask(1, 40), u32::MAX);
        assert_eq!((div_floor(-7, 2), div_ceil(-7, 2)), (-4, -3));
        assert_eq!((div_floor(7, -2), div_ceil(7, -2)), (-4, -3));
        assert_eq!((div_floor(7, 2), div_ceil(7, 2)), (3, 4));
        assert_eq!(distinct_sum_bounds(mask(&[2, 3, 5, 9]), 2), Some((5, 14)));
        assert_eq!(distinct_sum_bounds(mask(&[2, 3]), 3), None);
        // One fewer: the two smallest less the second, the two largest less the second.
        let both = distinct_sum_bounds_and_fewer(mask(&[2, 3, 5, 9]), 2);
        assert_eq!(both, Some([(5, 14), (2, 9)]));
    }
}
