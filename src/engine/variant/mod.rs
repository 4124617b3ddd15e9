//! Sudoku beyond the classic 9x9: other sizes (4x4 to 25x25) and Killer cages.
//!
//! Kept beside the 9x9 engine rather than inside it: the band solver
//! ([`Solver`](crate::engine::Solver)) stays specialised and fast, and this general engine
//! pays for its generality only on the puzzles that need it.
//!
//! * [`shape`]: [`Shape`], the supported sizes and their boxes.
//! * [`grid`]: [`Grid`] (any size), its text form, [`conflicts`].
//! * [`cage`]: [`Cage`] as given, [`Cages`] validated.
//! * [`solver`]: [`VariantPuzzle`] and the exact [`VariantSolver`].
//! * [`killer`]: a seeded generator of killer puzzles without givens (tests, benchmarks).

pub mod cage;
mod combos;
pub mod grid;
pub mod killer;
pub mod shape;
pub mod solver;

pub use cage::{Cage, CageError, Cages, ValidCage};
pub use grid::{conflicts, Coord, Grid, GridError, VariantConflict, VariantParseError};
pub use killer::{random_killer, Killer};
pub use shape::Shape;
pub use solver::{
    VariantCounted, VariantPuzzle, VariantPuzzleError, VariantSolution, VariantSolver,
};

#[cfg(test)]
mod tests;
