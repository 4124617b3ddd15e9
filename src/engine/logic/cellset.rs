//! A set of cells as one 128-bit word (bit `i` for cell `i`, 81 bits used).
//!
//! Chains, fish and wings ask "which cells see all of these" or "where can this digit still go
//! in this unit" millions of times per grade; as a bitset each question is a few word
//! operations and never allocates.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

use crate::engine::model::grid::{Cell, Digit};

/// Cells 0-80 of the grid.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct CellSet(u128);

/// The 81 cells.
const ALL_BITS: u128 = (1u128 << 81) - 1;

impl CellSet {
    pub(crate) const EMPTY: CellSet = CellSet(0);
    pub(crate) const ALL: CellSet = CellSet(ALL_BITS);

    pub(crate) const fn single(cell: usize) -> CellSet {
        CellSet(1u128 << cell)
    }

    pub(crate) const fn contains(self, cell: usize) -> bool {
        self.0 >> cell & 1 != 0
    }

    pub(crate) fn insert(&mut self, cell: usize) {
        self.0 |= 1u128 << cell;
    }

    pub(crate) fn remove(&mut self, cell: usize) {
        self.0 &= !(1u128 << cell);
    }

    pub(crate) const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest cell, if any.
    pub(crate) const fn first(self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as usize)
        }
    }

    /// True when every cell of `self` is in `other`.
    pub(crate) const fn is_subset(self, other: CellSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// One pencil mark of `digit` in each cell, in reading order: how a pattern's eliminations
    /// of a single digit are listed.
    pub(crate) fn marks_of(self, digit: Digit) -> Vec<(Cell, Digit)> {
        self.iter().map(|c| (Cell::from_index(c), digit)).collect()
    }

    /// The cells in ascending order.
    pub(crate) fn iter(self) -> CellIter {
        CellIter(self.0)
    }
}

/// Ascending iterator over a [`CellSet`].
pub(crate) struct CellIter(u128);

impl Iterator for CellIter {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(cell)
    }
}

impl BitAnd for CellSet {
    type Output = CellSet;
    fn bitand(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 & rhs.0)
    }
}

impl BitOr for CellSet {
    type Output = CellSet;
    fn bitor(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 | rhs.0)
    }
}

impl Sub for CellSet {
    type Output = CellSet;
    fn sub(self, rhs: CellSet) -> CellSet {
        CellSet(self.0 & !rhs.0)
    }
}

impl Not for CellSet {
    type Output = CellSet;
    fn not(self) -> CellSet {
        CellSet(!self.0 & ALL_BITS)
    }
}

impl BitAndAssign for CellSet {
    fn bitand_assign(&mut self, rhs: CellSet) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for CellSet {
    fn bitor_assign(&mut self, rhs: CellSet) {
        self.0 |= rhs.0;
    }
}

impl FromIterator<usize> for CellSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> CellSet {
        let mut set = CellSet::EMPTY;
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|i| (i / 9 + 1, i % 9 + 1)))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_behave_like_sets() {
        let a: CellSet = [0, 40, 80].into_iter().collect();
        let b: CellSet = [40, 41].into_iter().collect();
        assert_eq!((a & b).iter().collect::<Vec<_>>(), vec![40]);
        assert_eq!((a | b).len(), 4);
        assert_eq!((a - b).iter().collect::<Vec<_>>(), vec![0, 80]);
        assert_eq!((!a).len(), 78);
        assert_eq!(a.first(), Some(0));
        assert!(CellSet::single(40).is_subset(a));
        assert!(!b.is_subset(a));
        assert!(CellSet::EMPTY.first().is_none());
    }
}
