//! The Sudoku engine. It knows nothing about HTTP or files: boards in, verdicts out.
//!
//! # Layout, by concept, each layer importing only the ones below it
//! * [`model`]: what a puzzle is. The grid ([`Shape`], [`Cell`], [`Digit`], [`Grid`], the one
//!   [`ParseError`]); the rule families as constraints, one file each, and the [`Rules`] built
//!   from a [`RuleSpec`]; a [`Puzzle`] (givens that obey their rules), its [`Solution`]s and
//!   [`Counted`]; the checks without a search ([`Unit`], [`Conflict`], [`Report`]); the cage
//!   arithmetic; the compact 9x9 board of the fast path and its canonical form.
//! * [`solve`]: the exact solvers side by side, the band solver for classic 9x9 and the
//!   general one for every size and rule set, both answering [`Counted`].
//! * [`logic`]: human techniques (steps, grades on the Sudoku Explainer scale, hints) and the
//!   pencil marks ([`Marks`]).
//! * [`generate`](mod@generate): seeded puzzles with one solution, at a rating or minimal:
//!   classic, X, Hyper, Jigsaw and Killer.
//! * Beside them: the one limit on work, time and cancellation every search obeys
//!   ([`Budget`]), and the seeded random numbers.
//!
//! # The facade
//! Callers use one family of types for every size and rule set, and one entry point,
//! [`Engine`], which owns the solvers (keep one per thread) and answers `count`, `grade`,
//! `hint`, `candidates` and `generate`, choosing the engine itself: classic 9x9 puzzles
//! without other rules take the band solver, everything else the general one. `play` is a
//! player's board against its givens: moves, mistakes, who made each clash. Every module is
//! private to the crate; [`classic`] is the one opening, for the batch CLI, the benchmarks and
//! the fuzz targets, and [`calibration`] what the work-unit benchmark measures from inside.

pub(crate) mod budget;
pub mod calibration;
pub(crate) mod dispatch;
pub(crate) mod generate;
pub(crate) mod logic;
pub(crate) mod model;
pub(crate) mod play;
pub(crate) mod random;
pub(crate) mod solve;

/// The classic 9x9 fast path itself, for the batch CLI, the benchmarks and the solver's
/// property tests: the compact board and puzzle and the band solver, which the facade
/// otherwise keeps to itself (every other engine module is private to the crate).
pub mod classic {
    pub use super::model::board::{Board, ClassicPuzzle, CELLS};
    pub use super::solve::band::Solver;
}

pub use budget::{Budget, Cancel, Exhausted, Stop};
pub use dispatch::{Engine, EngineError};
pub use generate::killer::{random_killer, Killer};
pub use generate::pattern::{Pattern, PatternError};
pub use generate::variant::Variant;
pub use generate::{GenerateError, Generated, Symmetry, GENERATOR_VERSION};
pub use logic::marks::Marks;
pub use logic::{
    Assumptions, Candidates, Difficulty, Finish, Grade, Hint, Rating, Step, Stopped, Technique,
};
pub use model::constraints::regions::{RegionError, Regions};
pub use model::constraints::whispers::default_difference;
pub use model::grid::{Cell, Digit, Grid, GridError, ParseError, Shape};
pub use model::puzzle::{puzzle_id, stable_hash, Counted, Puzzle, PuzzleError, Solution, Stats};
pub use model::rules::{
    Arrow, Cage, CageError, Cages, ClonePair, ConstraintError, Direction, Dot, DotKind,
    LittleKiller, Negative, OneDiagonal, Outside, Quadruple, RuleSpec, Rules, RulesError,
    SandwichClue, Side, SkyscraperClue, Thermometer, Whisper, XSumClue,
};
pub use model::validate::{conflicts, validate, Conflict, Report, Unit, UnitKind};
pub use model::variant_forms::NoForm;
pub use play::{apply_move, check_givens, ConflictCell, Mistake, PlayError, Verdict};
