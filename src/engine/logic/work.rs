//! What a pattern finder did, counted as it looks, so that a look is charged by its work and
//! not by a fixed price.
//!
//! Most finders cost about the same on every position, but some (fish, subsets, wings,
//! strong links, unique loops, aligned exclusions) scan combinations whose number depends on
//! the marks: the same finder can take a microsecond on one position and milliseconds on
//! another (`examples/work_units.rs` shows the spread). They count their inner iterations
//! here; [`search`](super::search) reads the count after each look and charges it.
//!
//! A thread-local counter rather than a parameter: the finders are shared with the chains'
//! nested techniques and the hints, and a counter threaded through every one of their
//! signatures would be noise for the callers that never charge. Only one look runs at a time
//! on a thread, and the count is taken (and reset) around each one.

use std::cell::Cell;

thread_local! {
    static OPS: Cell<u64> = const { Cell::new(0) };
}

/// Counts `ops` iterations of a finder's inner loop (each a few nanoseconds of work).
#[inline]
pub(crate) fn count(ops: u64) {
    OPS.with(|c| c.set(c.get().wrapping_add(ops)));
}

/// The iterations counted since the last call, and a fresh count.
pub(crate) fn take() -> u64 {
    OPS.with(|c| c.replace(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_and_take_starts_again() {
        take();
        count(3);
        count(4);
        assert_eq!(take(), 7);
        assert_eq!(take(), 0);
    }
}
