//! The Sudoku engine. It knows nothing about HTTP or files: boards in, verdicts out.
//!
//! * [`board`]: the grid model and its two text forms.
//! * [`validate`]: rule checks that need no search, and [`Puzzle`], a board proven conflict-free.
//! * [`solver`]: the exact bitboard solver with a search budget.
//! * [`logic`]: human-style techniques, explained steps, grading and hints.
//! * [`generate`](mod@generate): seeded puzzle generation at a requested difficulty.
//! * [`variant`]: other sizes (4x4 to 25x25) and Killer cages, on a general solver.

pub mod board;
pub mod generate;
pub mod logic;
pub mod solver;
pub mod validate;
pub mod variant;

pub use board::{Board, Digit, ParseError, Pos};
pub use generate::{generate, generate_rated, GenerateError, Generated, Symmetry};
pub use logic::{
    candidates, grade, hint, hint_with_givens, next_step, Candidates, Difficulty, Grade, Hint,
    Rating, Rules, Step, Technique,
};
pub use solver::{Counted, GaveUp, Solution, Solver, Stats};
pub use validate::{conflicts, validate, Conflict, Puzzle, Report, Unit, UnitKind};
pub use variant::{
    random_killer, Cage, CageError, Cages, Grid, Killer, Shape, VariantCounted, VariantParseError,
    VariantPuzzle, VariantPuzzleError, VariantSolution, VariantSolver,
};
