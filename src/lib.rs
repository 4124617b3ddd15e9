//! sudoku-service: an exact Sudoku solver and validator, as a library, a batch CLI and an HTTP
//! JSON service.
//!
//! Module map:
//! * [`engine`]: boards, validation and the solver. No I/O, no HTTP.
//! * [`cli`]: the batch `solve` command (files or stdin in, one line per puzzle out).
//! * [`http`]: the axum service (`/solve`, `/validate`, health, metrics), built on the engine.

pub mod cli;
pub mod engine;
pub mod http;

/// `../shared/data` for the unit tests: the black-box tests' helper, one file for both.
#[cfg(test)]
#[path = "../tests/common/data.rs"]
pub(crate) mod test_data;
