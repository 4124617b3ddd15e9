//! The arithmetic of cages, written once for every engine: the sum of a set of digits
//! ([`mask_sum`]), the digits that can make a sum ([`digits_of_sums`], for pencil marks), and
//! sets of distinct digits by (size, sum) ([`ComboTable`], for the general solver's pruning).
//!
//! A cage with `m` empty cells and remaining sum `r` can be completed only by an `m`-digit set
//! summing to `r`. The table lists those sets (as masks) once per shape, so pruning during the
//! search is a scan of a short precomputed slice (at most 12 sets for any 9x9 cage) with mask
//! operations, never an enumeration. Sizes whose sets would make the table too large (only
//! 25x25 cages of 8 or more cells) are left out; the solver uses sum bounds for those.

/// Table entries above which larger set sizes are left out (4 MiB of masks).
const MAX_ENTRIES: u64 = 1 << 20;

/// Every `m`-subset of 1..=side, grouped by (m, sum), for m up to `max_size`.
#[derive(Clone, Debug, Default)]
pub(crate) struct ComboTable {
    side: usize,
    /// Largest set size present.
    max_size: usize,
    /// Larger sizes were wanted but left out because of [`MAX_ENTRIES`].
    capped: bool,
    /// `start[m * (total + 2) + sum]..start[m * (total + 2) + sum + 1]` indexes `sets`.
    start: Vec<u32>,
    sets: Vec<u32>,
}

/// Number of `k`-subsets of an `n`-set, saturating.
fn binomial(n: u64, k: u64) -> u64 {
    let mut acc: u64 = 1;
    for i in 0..k {
        acc = acc.saturating_mul(n - i) / (i + 1);
    }
    acc
}

/// Sum of the digits in `mask` (bit `d - 1` = digit `d`). A `const fn`, so the logic engine
/// builds its table of 9x9 sums at compile time.
pub(crate) const fn mask_sum(mut mask: u32) -> u32 {
    let mut sum = 0;
    while mask != 0 {
        sum += mask.trailing_zeros() + 1;
        mask &= mask - 1;
    }
    sum
}

/// The digits of `available` that belong to some set of `count` distinct digits from
/// `available` adding up to `sum`. Walks every subset of `available` (the usual
/// `(s - 1) & available` walk): callers bound the side (pencil marks prune by sums up to
/// 16x16).
pub(crate) fn digits_of_sums(available: u32, count: u32, sum: u32) -> u32 {
    let mut union = 0;
    let mut subset = available;
    loop {
        if subset.count_ones() == count && mask_sum(subset) == sum {
            union |= subset;
        }
        if subset == 0 {
            break;
        }
        subset = (subset - 1) & available;
    }
    union
}

/// Calls `f(m, set)` for every `m`-digit set of 1..=`side`, m = 1..=`max_size`, using
/// Gosper's hack (next larger integer with the same number of bits).
fn for_each_set(side: usize, max_size: usize, mut f: impl FnMut(usize, u32)) {
    for m in 1..=max_size {
        let mut mask: u64 = (1 << m) - 1;
        while mask < (1 << side) {
            f(m, mask as u32);
            let low = mask & mask.wrapping_neg();
            let ripple = mask + low;
            mask = (((ripple ^ mask) >> 2) / low) | ripple;
        }
    }
}

impl ComboTable {
    /// How many sets the table for (`side`, `wanted`) holds, the largest set size kept, and
    /// whether larger sizes were left out.
    fn extent(side: usize, wanted: usize) -> (u64, usize, bool) {
        let n = side as u64;
        let mut max_size = 0;
        let mut entries = 0;
        for m in 1..=wanted.min(side) {
            let more = binomial(n, m as u64);
            if entries + more > MAX_ENTRIES {
                return (entries, max_size, true);
            }
            entries += more;
            max_size = m;
        }
        (entries, max_size, false)
    }

    /// Operations [`build`](Self::build) takes for these arguments (two passes over every
    /// set, a digit sum each), so a search can pay for the table before building it.
    pub(crate) fn build_cost(side: usize, wanted: usize) -> u64 {
        let (entries, _, _) = ComboTable::extent(side, wanted);
        entries * 2 * side as u64
    }

    /// The table for digits 1..=`side`, set sizes up to `wanted` (fewer if too large).
    pub(crate) fn build(side: usize, wanted: usize) -> ComboTable {
        let (entries, max_size, capped) = ComboTable::extent(side, wanted);
        let stride = side * (side + 1) / 2 + 2;
        // Counting sort in two passes over the same enumeration: counts, then placement.
        let mut start = vec![0u32; (max_size + 1) * stride + 1];
        for_each_set(side, max_size, |m, set| {
            start[m * stride + mask_sum(set) as usize + 1] += 1;
        });
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut next = start.clone();
        let mut sets = vec![0u32; entries as usize];
        for_each_set(side, max_size, |m, set| {
            let slot = &mut next[m * stride + mask_sum(set) as usize];
            sets[*slot as usize] = set;
            *slot += 1;
        });
        ComboTable {
            side,
            max_size,
            capped,
            start,
            sets,
        }
    }

    /// True when this table serves `side` with sets up to `size` digits, or with as many as
    /// the size cap allows (asking again would build the same table).
    pub(crate) fn covers(&self, side: usize, size: usize) -> bool {
        self.side == side && (size <= self.max_size || self.capped)
    }

    /// The `size`-digit sets summing to `sum`; `None` when `size` is not in the table.
    pub(crate) fn sets(&self, size: usize, sum: u32) -> Option<&[u32]> {
        if size == 0 || size > self.max_size {
            return None;
        }
        let stride = self.side * (self.side + 1) / 2 + 2;
        let sum = sum as usize;
        if sum >= stride {
            return Some(&[]);
        }
        let i = size * stride + sum;
        Some(&self.sets[self.start[i] as usize..self.start[i + 1] as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_by_nine_pairs_and_quads() {
        let t = ComboTable::build(9, 9);
        assert_eq!(t.sets(2, 3), Some(&[0b11][..]));
        assert_eq!(t.sets(2, 17), Some(&[0b1_1000_0000][..]));
        assert_eq!(t.sets(2, 18), Some(&[][..]));
        assert_eq!(t.sets(2, 200), Some(&[][..]));
        assert_eq!(t.sets(9, 45).map(<[u32]>::len), Some(1));
        // The largest group of any 9x9 size/sum.
        let largest = (1..=9)
            .flat_map(|m| (0..=45).map(move |s| (m, s)))
            .map(|(m, s)| t.sets(m, s).unwrap().len())
            .max();
        assert_eq!(largest, Some(12));
        let total: usize = (1..=9)
            .flat_map(|m| (0..=45).map(move |s| (m, s)))
            .map(|(m, s)| t.sets(m, s).unwrap().len())
            .sum();
        assert_eq!(total, 511);
    }

    #[test]
    fn twenty_five_leaves_out_the_huge_sizes() {
        let t = ComboTable::build(25, 25);
        assert!(t.sets(7, 100).is_some());
        assert!(t.sets(8, 100).is_none());
        assert!(t.covers(25, 25));
        assert!(!t.covers(16, 3));
        assert!(!ComboTable::build(9, 3).covers(9, 4));
        assert!(ComboTable::build(9, 3).covers(9, 3));
        assert_eq!(mask_sum(0b1_0000_0001), 10);
    }

    #[test]
    fn sums_of_distinct_digits() {
        assert_eq!(digits_of_sums(0x1FF, 2, 3), 0b11);
        assert_eq!(digits_of_sums(0x1FF, 3, 24), 0b1_1100_0000);
        assert_eq!(digits_of_sums(0x1FF, 2, 18), 0, "9 + 9 repeats a digit");
        assert_eq!(
            digits_of_sums(0b1_0000_0110, 2, 11),
            0b1_0000_0010,
            "2 + 9 only"
        );
    }
}
