//! What a puzzle is, for every engine: the grid and its shape, the rule families as
//! constraints and the [`Rules`](rules::Rules) built from them, a puzzle (givens that obey
//! their rules) and its solutions, the checks of a board against its rules, the cage
//! arithmetic, and the compact 9x9 board of the classic fast path with its canonical form.
//! Nothing here searches: the solvers, the logic engine and the generators sit above it.

pub(crate) mod board;
pub(crate) mod canonical;
pub(crate) mod constraints;
pub(crate) mod grid;
pub(crate) mod puzzle;
pub(crate) mod rules;
pub(crate) mod sums;
pub(crate) mod validate;
pub(crate) mod variant_forms;
