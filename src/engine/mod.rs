//! The Sudoku engine. It knows nothing about HTTP or files: boards in, verdicts out.
//!
//! # The facade
//! Callers use one family of types for every size and rule set, and one entry point:
//! * [`grid`]: [`Shape`], [`Cell`], [`Digit`], [`Grid`] (any board, both text forms) and the one
//!   [`ParseError`];
//! * [`rules`]: [`Rules`], rules as data (rows and columns; boxes or Jigsaw [`Regions`];
//!   optional diagonals, Hyper windows and Killer [`Cages`]), built from a [`RuleSpec`];
//! * [`validate`]: [`Unit`], [`Conflict`], [`Report`]: rule checks without a search;
//! * [`puzzle`]: [`Puzzle`] (a grid whose givens obey its rules), [`Solution`], [`Counted`],
//!   [`Stats`], [`PuzzleError`];
//! * [`budget`]: [`Budget`], the one limit on work, time and cancellation every search obeys;
//! * [`dispatch`]: [`Engine`], which owns the solvers (keep one per thread) and answers
//!   `count`, `grade`, `hint`, `candidates` and `generate`, choosing the engine itself;
//! * [`play`]: a player's board against its givens: moves, mistakes, who made each clash.
//!
//! # Behind it
//! * The classic 9x9 fast path: [`board`] (a compact `Board` and `ClassicPuzzle`), [`solver`]
//!   (the band-bitboard solver), [`logic`] (human techniques: steps, grades, hints),
//!   [`generate`](mod@generate) (seeded puzzles at a difficulty).
//! * [`variant`]: the general solver for every size and for cages, and a Killer generator.
//!
//! Which engine runs is an engine rule, not a caller's choice: classic 9x9 puzzles without
//! cages take the band solver, everything else the general one; the logic and the
//! generator cover classic puzzles and say so ([`EngineError::Unsupported`]) for others.

pub(crate) mod board;
pub(crate) mod budget;
pub mod calibration;
pub(crate) mod canonical;
pub(crate) mod constraints;
pub(crate) mod dispatch;
pub(crate) mod generate;
pub(crate) mod grid;
pub(crate) mod logic;
pub(crate) mod marks;
pub(crate) mod play;
pub(crate) mod puzzle;
pub(crate) mod random;
pub(crate) use constraints::regions;
pub(crate) mod rules;
pub(crate) mod solver;
pub(crate) mod sums;
pub(crate) mod validate;
pub(crate) mod variant;

/// The classic 9x9 fast path itself, for the batch CLI, the benchmarks and the solver's
/// property tests: the compact board and puzzle and the band solver, which the facade
/// otherwise keeps to itself (every other engine module is private to the crate).
pub mod classic {
    pub use super::board::{Board, ClassicPuzzle, CELLS};
    pub use super::solver::{Found, Solver};
}

pub use budget::{Budget, Cancel, Exhausted, Stop};
pub use dispatch::{Engine, EngineError};
pub use generate::{GenerateError, Generated, Symmetry, GENERATOR_VERSION};
pub use grid::{Cell, Digit, Grid, GridError, ParseError, Shape};
pub use logic::{
    Assumptions, Candidates, Difficulty, Finish, Grade, Hint, Rating, Step, Stopped, Technique,
};
pub use marks::Marks;
pub use play::{apply_move, check_givens, ConflictCell, Mistake, PlayError, Verdict};
pub use puzzle::{puzzle_id, stable_hash, Counted, Puzzle, PuzzleError, Solution, Stats};
pub use regions::{RegionError, Regions};
pub use rules::{
    Cage, CageError, Cages, ConstraintError, Dot, DotKind, Negative, RuleSpec, Rules, RulesError,
    Thermometer,
};
pub use validate::{conflicts, validate, Conflict, Report, Unit, UnitKind};
pub use variant::{random_killer, Killer, Variant, VariantPuzzle};
