//! The exact solvers, side by side: the band-bitboard solver ([`band`]), specialised for
//! classic 9x9 and fast, and the general solver ([`general`]) for every size from 4x4 to
//! 25x25 and every rule set, which pays for its generality only on the puzzles that need it.
//! Both count solutions up to a limit under a [`Budget`](crate::engine::Budget) and answer a
//! [`Counted`](crate::engine::Counted); the facade ([`Engine`](crate::engine::Engine)) picks
//! between them, callers never do.

pub(crate) mod band;
pub(crate) mod general;

#[cfg(test)]
mod tests;
