//! Uniqueness techniques: patterns that would let the puzzle have two solutions, so in a puzzle
//! known to have exactly one they cannot all stay. Only sound when uniqueness is given (see
//! [`Assumptions`](super::Assumptions)); classic geometry only.
//!
//! * `loops`: unique rectangles and loops (types 1-4), 4.5 and up.
//! * `bug`: the bivalue universal grave (types 1-4), 5.6 and up.

mod bug;
mod loops;

pub use bug::find as bug;
pub use loops::find as unique_loops;
