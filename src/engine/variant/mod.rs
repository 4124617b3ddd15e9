//! Sudoku beyond the classic 9x9: other sizes (4x4 to 25x25) and Killer cages.
//!
//! * [`shape`]: [`Shape`], the supported sizes and their boxes.
//! * [`grid`]: [`Grid`] (any size), its text form, [`conflicts`].
//! * [`cage`]: [`Cage`] as given, [`Cages`] validated.

pub mod cage;
#[allow(dead_code)]
mod combos;
pub mod grid;
pub mod shape;

pub use cage::{Cage, CageError, Cages, ValidCage};
pub use grid::{conflicts, Coord, Grid, GridError, VariantConflict, VariantParseError};
pub use shape::Shape;
