//! The general engine: an exact solver for every supported size (4x4 to 25x25), with or
//! without Killer cages, Jigsaw regions, diagonals or windows, and seeded generators.
//!
//! Kept beside the classic 9x9 engine rather than inside it: the band solver
//! ([`Solver`](crate::engine::solver::Solver)) stays specialised and fast, and this general
//! engine pays for its generality only on the puzzles that need it. The facade
//! ([`Engine`](crate::engine::Engine)) picks between them; callers never do.
//!
//! * [`solver`]: the exact [`VariantSolver`] (mask propagation, cage-sum table, 45 rule),
//!   metered in work units.
//! * [`killer`]: a seeded generator of killer puzzles without givens.
//! * [`generate`]: seeded Killer, X, Hyper and Jigsaw puzzles with one solution.
//! * [`hint`]: hints (conflicts, mistakes, singles over the rules' marks, reveals) for every
//!   puzzle the logic engine does not cover.

pub mod generate;
pub mod hint;
pub mod killer;
pub mod solver;

pub use generate::{generate_variant, generate_variant_rated, Variant, VariantPuzzle};
pub use killer::{random_killer, Killer};
pub use solver::VariantSolver;

#[cfg(test)]
mod tests;
