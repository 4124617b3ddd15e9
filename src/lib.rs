//! sudoku-service: an exact Sudoku solver and validator, as a library, a batch CLI and an HTTP
//! JSON service.
//!
//! Module map:
//! * [`engine`]: boards, validation and the solver. No I/O, no HTTP.
//! * [`shapes`]: the JSON shapes of a generated puzzle that both front ends write.
//! * [`bank`]: batches of generated puzzles (plan, seeds, cursors, skips), for
//!   `/v1/generate/batch` and the `generate` command alike.
//! * [`cli`]: the batch `solve` command (files or stdin in, one line per puzzle out), and the
//!   bank commands `generate` and `merge`.
//! * [`render`]: pictures of puzzles (SVG, and PNG through resvg), read from the engine's model.
//! * [`http`]: the axum service (`/solve`, `/validate`, health, metrics), built on the engine.

pub mod bank;
pub mod cli;
pub mod engine;
pub mod http;
pub mod render;
pub mod shapes;

/// `../shared/data` for the unit tests: the black-box tests' helper, one file for both.
#[cfg(test)]
#[path = "../tests/common/data.rs"]
pub(crate) mod test_data;
