//! Classic puzzles whose givens sit exactly on a pattern the caller draws (a publisher's
//! house style, a heart for a holiday issue, the same look for a whole bank).
//!
//! # How
//! The carving generator of the parent module decides where the givens go; here they are
//! fixed, so the search is over grids instead: a random full grid, masked by the pattern, is
//! kept when it has one solution and its rating is in range. How often a mask is unique
//! depends on the pattern alone (most random grids are for 30 givens spread evenly, few for
//! 22), so a sparse or lopsided pattern simply spends its work budget and finds nothing,
//! which is a [`GenerateError::NotFound`] like any other search. Fewer than 17 givens is
//! refused before any work: no 9x9 Sudoku with fewer has one solution.

use std::ops::RangeInclusive;

use super::{
    checked_range, fit, random_grid, run_attempts, stop_for, whole_grade, ClassicTarget, Fit,
    GenerateError, Generated, Target, MAX_RATINGS,
};
use crate::engine::budget::{Budget, Exhausted};
use crate::engine::logic::grade::Enough;
use crate::engine::logic::Rating;
use crate::engine::model::board::{Board, CELLS};
use crate::engine::model::grid::Cell;
use crate::engine::random::SplitMix64;
use crate::engine::solve::band::Solver;

/// The fewest givens a 9x9 puzzle with one solution has (McGuire, Tugemann and Civario, 2012).
pub const FEWEST_GIVENS: usize = 17;

/// Work units charged for each random grid drawn: its fill takes about as long as a few
/// dozen solver nodes (measured with `examples/generate_timing.rs --pattern`).
const GRID_WORK: u64 = 20;

/// The cells of a 9x9 grid that hold the givens, read from 81 characters: `x` (or `X`) a
/// given, `.` an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pattern(u128);

/// Why a text is not a [`Pattern`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    #[error("a pattern is 81 characters, x for a given and . for an empty cell; got {0}")]
    Length(usize),
    #[error("a pattern is x for a given and . for an empty cell; character {at} is {found:?}")]
    Character { at: usize, found: char },
    #[error(
        "a pattern of {0} givens has no puzzle with one solution: a 9x9 Sudoku needs at least \
         {FEWEST_GIVENS}"
    )]
    TooFew(usize),
    #[error("a pattern with every cell given leaves nothing to solve")]
    Full,
}

impl Pattern {
    /// The pattern `text` draws.
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        let count = text.chars().count();
        if count != CELLS {
            return Err(PatternError::Length(count));
        }
        let mut bits = 0u128;
        for (at, found) in text.chars().enumerate() {
            match found {
                'x' | 'X' => bits |= 1 << at,
                '.' => {}
                _ => {
                    return Err(PatternError::Character { at: at + 1, found });
                }
            }
        }
        let pattern = Pattern(bits);
        match pattern.givens() {
            n if n < FEWEST_GIVENS => Err(PatternError::TooFew(n)),
            CELLS => Err(PatternError::Full),
            _ => Ok(pattern),
        }
    }

    /// How many givens it has.
    pub fn givens(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether cell `i` (row-major) holds a given.
    pub fn has(&self, i: usize) -> bool {
        self.0 >> i & 1 == 1
    }

    /// The pattern as 81 characters of `x` and `.`, as it is read.
    pub fn text(&self) -> String {
        (0..CELLS)
            .map(|i| if self.has(i) { 'x' } else { '.' })
            .collect()
    }

    /// `grid`'s digits on the pattern's cells.
    fn mask(&self, grid: &Board) -> Board {
        let mut board = Board::default();
        for i in (0..CELLS).filter(|&i| self.has(i)) {
            let cell = Cell::from_index(i);
            board.set(cell, grid.get(cell));
        }
        board
    }
}

/// A classic puzzle with givens exactly on `pattern`, rated in `range`, determined by `seed`.
/// The contract of [`super::generate_rated`], with the pattern in place of a symmetry.
pub fn generate_in_pattern(
    pattern: Pattern,
    range: RangeInclusive<Rating>,
    seed: u64,
    solver: &mut Solver,
    budget: &Budget,
) -> Result<Generated, GenerateError> {
    let asked = range.clone();
    let range = checked_range(range)?;
    let open = range.end().tenths() == u16::MAX;
    let mut rng = SplitMix64::new(seed);
    let mut target = ClassicTarget { solver };
    let mut ratings = 0;
    run_attempts(asked, MAX_RATINGS, budget, |attempt| {
        let mut try_one = || -> Result<Option<Generated>, Exhausted> {
            budget.charge(GRID_WORK)?;
            let grid = random_grid(&mut rng);
            let givens = pattern.mask(&grid);
            if !target.is_unique(&givens, budget)? {
                return Ok(None);
            }
            ratings += 1;
            // The whole way to the cap: a pattern may hold more givens than the cells after
            // which a carved candidate for `extreme` is given up (`enough_for`).
            let mut grade = target.grade(&givens, Enough::above(stop_for(&range)), budget)?;
            if fit(&grade, &range) != Fit::InRange {
                return Ok(None);
            }
            if open {
                // The rating stopped at the first step reaching the minimum: finish it.
                match whole_grade(budget, |trial| target.grade(&givens, Enough::ALL, trial))? {
                    Some(whole) => grade = whole,
                    None => return Ok(None),
                }
            }
            Ok(Some(
                Generated::from_solution(givens.to_grid(), target.rules(), grid.to_grid())
                    .graded(grade, attempt, ratings),
            ))
        };
        let found = try_one();
        (found, ratings)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::logic::Difficulty;

    /// A 31-given pattern symmetric under a half turn, the look of many newspaper puzzles.
    const NEWSPAPER: &str = concat!(
        "x...x...x",
        "x..x.xxx.",
        ".....x.x.",
        "...x...xx",
        ".xx.x.xx.",
        "xx...x...",
        ".x.x.....",
        ".xxx.x..x",
        "x...x...x"
    );

    #[test]
    fn patterns_read_back_and_bad_ones_say_why() {
        let pattern = Pattern::parse(NEWSPAPER).unwrap();
        assert_eq!(pattern.text(), NEWSPAPER);
        assert_eq!(pattern.givens(), NEWSPAPER.matches('x').count());
        assert_eq!(Pattern::parse("x.x"), Err(PatternError::Length(3)));
        let bad = NEWSPAPER.replacen('.', "o", 1);
        assert!(matches!(
            Pattern::parse(&bad),
            Err(PatternError::Character { at: 2, found: 'o' })
        ));
        let sparse: String = (0..CELLS).map(|i| if i < 16 { 'x' } else { '.' }).collect();
        assert_eq!(Pattern::parse(&sparse), Err(PatternError::TooFew(16)));
        assert_eq!(Pattern::parse(&"x".repeat(CELLS)), Err(PatternError::Full));
    }

    /// The givens are exactly the pattern's cells, the puzzle has one solution and its
    /// rating is in the band asked for; the same seed gives the same puzzle.
    #[test]
    fn a_patterned_puzzle_has_its_givens_on_the_pattern_and_one_solution() {
        let pattern = Pattern::parse(NEWSPAPER).unwrap();
        let mut solver = Solver::new();
        let budget = Budget::work(50_000_000);
        let range = Difficulty::Easy.ratings();
        let made = generate_in_pattern(pattern, range.clone(), 7, &mut solver, &budget).unwrap();
        let line = made.puzzle.grid().to_line();
        let drawn: String = line
            .chars()
            .map(|c| if c == '.' { '.' } else { 'x' })
            .collect();
        assert_eq!(drawn, NEWSPAPER);
        let rating = made.grade.as_ref().and_then(|g| g.rating()).unwrap();
        assert!(range.contains(&rating), "{rating}");
        let counted = crate::engine::Engine::new()
            .count(&made.puzzle, 2, &Budget::unlimited())
            .unwrap();
        assert_eq!(counted.count, 1);
        let again = generate_in_pattern(pattern, range, 7, &mut solver, &budget).unwrap();
        assert_eq!(again.puzzle, made.puzzle);
    }
}
