//! Seeded puzzle generation at a requested level or Sudoku Explainer rating range.
//!
//! # How
//! 1. A random full grid: a depth-first fill that picks the most constrained cell and tries its
//!    digits in shuffled order (on an empty grid this almost never backtracks).
//! 2. Clues are removed in a shuffled order (for [`Symmetry::Rotational`], a cell together with
//!    its 180-degree twin) while the puzzle keeps exactly one solution: where the clues left
//!    decide the emptied cells (naked or hidden singles), without a search; else for a single
//!    cell, one search for a solution without the removed digit
//!    ([`Solver::count_solutions_without`]: any second solution differs there), for twins a
//!    count to 2. This minimal puzzle is rated, the rating stopping as soon as a step above
//!    the requested maximum shows it is too hard; for a variant's `extreme`, also once the
//!    solve has filled [`HARD_PART_FILLED`] cells without a step of 9.0, since hard steps
//!    come early in a solve ([`enough_for`]). (Classic `extreme` puzzles are planted: below.)
//! 3. Too hard: removed clues go back one at a time, in shuffled order, until the rating is in
//!    range; a clue that would make it easier than the minimum is skipped.
//! 4. Too easy but within 2.0 of the minimum: a local search climbs: one clue moves to another
//!    cell (with more of the grid's clues put back, in shuffled order, until the puzzle has one
//!    solution again: all up to the first that rules out the other solution found, at once),
//!    the puzzle is made minimal again but for the moved clue, and the move
//!    is kept when the rating does not drop, until it is in range or the moves run out. From
//!    further below, a fresh minimal puzzle is cheaper.
//! 5. Still off target: another removal order, then a fresh grid, until the caller's work
//!    budget or [`MAX_RATINGS`] runs out.
//!
//! A classic range that starts above [`CARVING_REACH`] (what carving random grids reaches),
//! and the `extreme` level's, are sought with planted puzzles instead ([`planted`],
//! [`is_planted`]): a full grid drawn around a tridagon, carved so that the pattern stays (by
//! pairs of twins with symmetry), rated, and descended when too hard, each plant carved in
//! [`ORDERS_PER_PLANT`] removal orders.
//!
//! # Contract
//! A returned puzzle has exactly one solution and its rating is in the requested range (a
//! puzzle beyond every technique counts as in range only when the range has no upper bound,
//! as for `extreme`), and its whole grade takes at most [`GRADE_WORK`] units. When the work
//! budget or the cap of candidates ([`MAX_RATINGS`], [`MAX_PLANTED_RATINGS`]) runs out first,
//! [`GenerateError::NotFound`] is returned instead: never a puzzle outside the request. Every
//! count, rating and planted grid's fill is charged to the caller's [`Budget`]; its deadline or
//! cancellation stops the search too ([`GenerateError::Stopped`]). Deterministic: the same
//! request, seed and work budget give the same puzzle on every platform.

pub(crate) mod killer;
pub(crate) mod pattern;
pub(crate) mod planted;
pub(crate) mod variant;

use std::ops::RangeInclusive;

use crate::engine::budget::{Budget, Exhausted, Stop};
use crate::engine::logic::grade::{grade_marks, Enough, HardPart};
use crate::engine::logic::{
    Assumptions, Candidates, CellSet, Difficulty, Finish, Geometry, Grade, Rating, Stopped,
};
use crate::engine::model::board::{Board, ClassicPuzzle, CELLS};
use crate::engine::model::grid::{Cell, Grid, Shape};
use crate::engine::model::puzzle::{Counted, Puzzle, Solution};
use crate::engine::model::rules::Rules;
use crate::engine::random::SplitMix64;
use crate::engine::solve::band::Solver;

use planted::Plant;

/// The generators' version: bumped whenever a request and seed may give another puzzle than
/// before (a changed method, technique, rating or work meter), so that the entity tags of
/// cached generations change with it. A change that only leaves work out keeps it: every
/// puzzle found is the one found before, and a seed that ran out of work may now find one.
/// 2: work units calibrated against CPU time. 3: the general solver's locked candidates (its
/// first solutions and units may differ), and Jigsaw layouts that traded back to the boxes
/// traded on. 4: candidates for `extreme` given up past the hard part of their solve
/// ([`enough_for`]). 5: a grade's finders skip
/// what they already found barren, so a grade is charged less work and a candidate once
/// over [`GRADE_WORK`] may now be kept. 6: a puzzle beyond every technique is rated at least
/// 9.5, not 9.0, so a range without a maximum starting above 9.0 (up to 9.5) now takes it.
/// 7: a climbing move that leaves two solutions puts more clues back instead of being
/// dropped, a climb makes up to 64 moves, not 16, and keeps a moved pair of twins. 8: the
/// general solver's branching breaks ties by unplaced peers, so the full grids of X and
/// Hyper puzzles (its first solutions) and the cages of Killers (split where a second
/// solution differs) are others for the same seed. Classic ranges above what carving
/// reaches, once refused, are now planted ([`planted`]): that answers requests that had
/// none, and changes no puzzle given before, so the version stays. 9: a planted
/// candidate's grade gives up on it counted from its own givens ([`PLANTED_HARD_PART`]), so
/// a planted puzzle may be another for the same seed; planted puzzles with symmetry answer
/// ranges that were refused. Classic ranges without a maximum starting at 9.0 or 9.1 (the
/// `extreme` level's) are planted too ([`is_planted`]), so their puzzles are others for the
/// same seed; every other carved puzzle is the same. 10: a planted candidate for a closed
/// range (`9.2-9.9`) is given up past its hard part too, counted from the range's minimum
/// ([`HardPart`]), so such ranges' puzzles are others for the same seed.
pub const GENERATOR_VERSION: u32 = 10;

/// Which clue patterns are allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Symmetry {
    /// Clues anywhere.
    #[default]
    None,
    /// The clue pattern looks the same after a half turn (the classic newspaper look).
    Rotational,
}

impl Symmetry {
    /// The cell of a 9x9 grid that `cell` (reading order) turns into: itself without
    /// symmetry, its 180-degree twin with it. A clue pattern keeps a cell and its twin alike.
    pub(crate) const fn twin(self, cell: usize) -> usize {
        match self {
            Symmetry::None => cell,
            Symmetry::Rotational => CELLS - 1 - cell,
        }
    }
}

/// A generated puzzle of any rule set, with its solution, and its grade when it was made for
/// a rating range (an unrated generation is minimal, not graded): the one answer type of the
/// classic, variant and Killer generators, rated or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The givens and the rules they are played by (a Jigsaw's regions and a Killer's cages
    /// are drawn with it).
    pub puzzle: Puzzle,
    pub solution: Solution,
    pub grade: Option<Grade>,
    /// Removal orders tried, for measuring.
    pub attempts: u32,
    /// Puzzles rated, for measuring.
    pub ratings: u32,
}

impl Generated {
    /// The puzzle of `givens` taken from `solution`, under `rules`.
    ///
    /// Panics only on a generator bug: the givens are a subset of `solution`, a full grid that
    /// obeys `rules`, so no two of them clash and the rules fit the grid's shape, which is all
    /// [`Puzzle::new`] checks.
    pub(crate) fn from_solution(givens: Grid, rules: Rules, solution: Grid) -> Generated {
        let puzzle = Puzzle::new(givens, rules)
            .unwrap_or_else(|err| unreachable!("the givens of a valid grid clash: {err}"));
        Generated {
            puzzle,
            solution: Solution::new(solution),
            grade: None,
            attempts: 1,
            ratings: 0,
        }
    }

    /// The same puzzle with its grade and what the generation took to find it.
    pub(crate) fn graded(self, grade: Grade, attempts: u32, ratings: u32) -> Generated {
        Generated {
            grade: Some(grade),
            attempts,
            ratings,
            ..self
        }
    }
}

/// Why no puzzle was returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The range asks for nothing: its minimum is above its maximum, or its maximum below
    /// the lowest rating a puzzle can have.
    #[error("no puzzle is rated {min} to {max}: a puzzle's rating is {LOWEST} or more")]
    EmptyRange { min: Rating, max: Rating },
    /// The generator's limit (its work budget, its deadline, or [`MAX_RATINGS`] candidates,
    /// [`MAX_PLANTED_RATINGS`] planted ones) was reached before a puzzle in range was found;
    /// another seed may succeed.
    #[error(
        "no puzzle rated {} found within the generator's {limit} ({ratings} puzzles rated, \
         {work} units of work)",
        range_text(*.min, *.max)
    )]
    NotFound {
        min: Rating,
        max: Rating,
        ratings: u32,
        work: u64,
        limit: Limit,
    },
    /// The range starts above the highest rating this generator has ever produced: refused
    /// at once rather than searched for until the budget runs out.
    #[error(
        "{kind} puzzles are generated up to rating {highest}; no generator here reaches {}",
        range_text(*.min, *.max)
    )]
    Unreachable {
        kind: &'static str,
        min: Rating,
        max: Rating,
        highest: Rating,
    },
    /// The caller's cancellation stopped the search.
    #[error(transparent)]
    Stopped(#[from] Exhausted),
}

/// "6.5 to 7.5", or "9.0 or more" for a range without a maximum.
pub fn range_text(min: Rating, max: Rating) -> String {
    if max.tenths() == u16::MAX {
        format!("{min} or more")
    } else {
        format!("{min} to {max}")
    }
}

/// Which of the generator's limits ended a search that found nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The work budget.
    Work,
    /// The deadline: a generation has one ahead of its request's time limit, so a search
    /// that runs long ends with an answer that says how far it got, rather than being cut
    /// off. Unlike the others it says nothing of the seed: with more time it may succeed.
    Time,
    /// [`MAX_RATINGS`] candidates rated ([`MAX_PLANTED_RATINGS`] planted ones).
    Ratings,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Work => "work budget",
            Limit::Time => "time limit",
            Limit::Ratings => "limit of candidates",
        })
    }
}

/// Puzzles rated per call at most: bounds a call whatever its budget (the service's
/// generation budget usually ends a hopeless search first). Rotational `extreme` puzzles,
/// when they were carved, took up to about 10,000 ratings, most of them cut short
/// ([`HARD_PART_FILLED`]).
const MAX_RATINGS: u32 = 30_000;
/// [`MAX_RATINGS`] for planted puzzles ([`planted`]): most of their candidates stop grading
/// within a few placements ([`enough_for`]), about 60 units each, so 30,000 of them would end
/// a search at about 1.8 of the default 5 million units; at this many the budget ends it.
const MAX_PLANTED_RATINGS: u32 = 200_000;
/// The highest rating carving random grids reaches (measured by `examples/generate_reach.rs`
/// while classic `extreme` puzzles were carved; BENCHMARKS.md): a classic range starting
/// above it is sought with planted puzzles ([`planted`]) instead.
pub(crate) const CARVING_REACH: Rating = Rating::from_tenths(91);
/// The highest rating (or bound, for a puzzle beyond the techniques) planted puzzles without
/// symmetry have reached within the default generation budget, over 30 seeds
/// (`examples/generate_reach.rs`, BENCHMARKS.md: 17 of 30 seeds found one of 9.9 or more,
/// among them a 10.0 and bounds of 10.0).
pub(crate) const PLANTED_REACH: Rating = Rating::from_tenths(100);
/// [`PLANTED_REACH`] with rotational symmetry, whose puzzles keep more givens (BENCHMARKS.md:
/// one of 30 seeds found a bound of 9.9, four 9.7 or more, six 9.5 or more, 22 9.2 or more).
pub(crate) const PLANTED_REACH_ROTATIONAL: Rating = Rating::from_tenths(99);
/// Cells filled beyond its givens after which a planted candidate's grade for an extreme
/// range gives up when no step has reached the range ([`Enough::hard_part`]): its hard part is
/// its pattern, met within the first few placements. The carved candidates' fixed
/// [`HARD_PART_FILLED`] gave up at once on most of the rotational ones, which keep 30-43
/// givens (every one of 20 seeds missed 9.2 or more). `generate_reach 20 9.2 rotational`,
/// seeds found with 7, 10, 13 and 17: 6, 16, 15 and 6; without symmetry at 9.5 or more, 10
/// found 15 of 20 seeds (p50 1.6 s) where the fixed 36 found 14 (p50 3.6 s).
const PLANTED_HARD_PART: usize = 10;
/// The lowest rating a puzzle can have: a full house.
const LOWEST: Rating = Rating::from_tenths(10);
/// Removal orders tried on one full grid before drawing a new one.
const ORDERS_PER_GRID: u32 = 2;
/// Removal orders tried on one planted grid before drawing a new one.
const ORDERS_PER_PLANT: u32 = 4;
/// Clue moves tried when climbing from a too-easy puzzle. Every move now ends in a new
/// puzzle, minimal but for the moved clue. Over 200 seeds of `extreme`, work per puzzle
/// found against the 16 moves of before, without symmetry and rotational: 16 moves 0.94
/// and 0.87; 32: 0.83 and 0.87; 64: 0.81 and 0.69; 128: 0.71 and 0.76 with a rotational seed
/// missed (BENCHMARKS.md). 64 is the cheapest with rotational symmetry and finds every seed.
const CLIMB_MOVES: u32 = 64;
/// Climbing only pays off from puzzles this close (in tenths) below the minimum; from further
/// down a fresh minimal puzzle is the cheaper bet.
const CLIMB_REACH: u16 = 20;

/// A puzzle of `difficulty` (its SE rating in the level's band), determined by `seed` and
/// `symmetry`. See the module docs for the method and the contract. The engine asks by
/// rating range ([`generate_rated`]); the tests by level.
#[cfg(test)]
pub fn generate(
    difficulty: Difficulty,
    seed: u64,
    symmetry: Symmetry,
    solver: &mut Solver,
    budget: &Budget,
) -> Result<Generated, GenerateError> {
    generate_rated(difficulty.ratings(), seed, symmetry, solver, budget)
}

/// A puzzle whose SE rating is in `range` (both ends included), determined by `seed` and
/// `symmetry`.
pub fn generate_rated(
    range: RangeInclusive<Rating>,
    seed: u64,
    symmetry: Symmetry,
    solver: &mut Solver,
    budget: &Budget,
) -> Result<Generated, GenerateError> {
    generate_for(&mut ClassicTarget { solver }, range, seed, symmetry, budget)
}

/// What the generator needs of a rule set: full grids to carve, a uniqueness check and a
/// grade. Classic Sudoku is one [`Target`]; each 9x9 variant with givens is another (see
/// `variant::generate`), so every rule set is generated the same way.
pub(crate) trait Target {
    /// A full grid obeying the rules, drawn from `rng`; a target may draw new rules with it
    /// (a Jigsaw target draws new regions), which then hold until the next draw.
    fn new_grid(&mut self, rng: &mut SplitMix64, budget: &Budget) -> Result<Board, Exhausted>;
    /// The solutions of `givens` under the rules, counted up to `limit`; with `without`,
    /// `Some((index, digit))`, only those without `digit` (1-9) in the cell at `index`.
    /// Givens that clash have none.
    fn count(
        &mut self,
        givens: &Board,
        without: Option<(usize, u8)>,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted<Board>, Exhausted>;
    /// Whether `givens` have exactly one solution under the rules.
    fn is_unique(&mut self, givens: &Board, budget: &Budget) -> Result<bool, Exhausted> {
        Ok(self.count(givens, None, 2, budget)?.count == 1)
    }
    /// A solution of `givens` other than `grid`; `None` when `grid` is their only one.
    /// `givens` must be a part of `grid`, a full grid obeying the rules (so they have at
    /// least that solution).
    fn other_solution(
        &mut self,
        givens: &Board,
        grid: &Board,
        budget: &Budget,
    ) -> Result<Option<Board>, Exhausted> {
        let counted = self.count(givens, None, 2, budget)?;
        debug_assert!(counted.count >= 1, "{givens} is a part of {grid}");
        Ok([counted.first, counted.second]
            .into_iter()
            .flatten()
            .find(|solution| solution != grid))
    }
    /// Whether `givens` still have one solution, where they are a puzzle whose one solution
    /// is `solution`, with the clues of `removed` taken out.
    ///
    /// Where the clues left decide every emptied cell ([`forced_by_clues`]), they do,
    /// without a search. Else: another solution of the smaller puzzle would differ from
    /// `solution` in a removed cell: else it would solve the puzzle before the removal, which
    /// had only `solution`.
    /// So for one cell, one search for a solution without its digit answers the question,
    /// and leaves out `solution`'s branch, which a count to 2 searches too. A pair of twins
    /// would take two such searches (without the first cell's digit, then with it and
    /// without the second's), and those cost more than the one count: a search of these
    /// small trees is mostly its setup (`generate_timing`'s units, classic rotational: easy
    /// +22%, medium +7%, master +4%).
    fn stays_unique(
        &mut self,
        givens: &Board,
        (a, b): (usize, usize),
        solution: &Board,
        budget: &Budget,
    ) -> Result<bool, Exhausted> {
        debug_assert!(
            (0..CELLS).all(|i| givens.raw()[i] == 0 || givens.raw()[i] == solution.raw()[i]),
            "{givens} is a part of {solution}"
        );
        let geometry = self.geometry();
        let forced = |cell: usize| forced_by_clues(geometry, givens, cell, solution.raw()[cell]);
        if forced(a) && (a == b || forced(b)) {
            return Ok(true);
        }
        if a != b {
            return self.is_unique(givens, budget);
        }
        Ok(self
            .count(givens, Some((a, solution.raw()[a])), 1, budget)?
            .count
            == 0)
    }
    /// Whether puzzles can be planted ([`planted`]) under these rules: classic rules only,
    /// whose full grids the generator fills itself.
    fn can_plant(&self) -> bool {
        false
    }
    /// The houses of the last grid drawn, for grading.
    fn geometry(&self) -> &Geometry;
    /// The rules of the last grid drawn.
    fn rules(&self) -> Rules;

    /// The grade of `givens` (known to be unique), as far as `enough` asks.
    fn grade(&self, givens: &Board, enough: Enough, budget: &Budget) -> Result<Grade, Exhausted> {
        let marks = Candidates::with_geometry(givens, self.geometry());
        grade_marks(marks, &Assumptions::unique(), enough, budget)
    }
}

/// Whether the empty cell `cell` of `givens` can hold `digit` only, by the clues alone: its
/// peers' clues leave no other digit (a naked single), or in one of its houses every other
/// cell holds a clue or sees a clue of `digit` (a hidden single). Such a cell's digit is the
/// same in every solution, so taking its clue out changes no solution: carving a full grid
/// keeps about half of its removals this way, and a search costs far more than these looks
/// at a few dozen cells.
fn forced_by_clues(geometry: &Geometry, givens: &Board, cell: usize, digit: u8) -> bool {
    debug_assert!((1..=9).contains(&digit), "the solution's digit");
    let raw = givens.raw();
    let seen = geometry
        .peers(cell)
        .iter()
        .fold(0u16, |seen, p| seen | (1u16 << raw[p] >> 1));
    if seen == 0x1FF & !(1 << (digit - 1)) {
        return true;
    }
    let holding: CellSet = (0..CELLS).filter(|&i| raw[i] == digit).collect();
    geometry.houses_of(cell).any(|k| {
        geometry.cells_of(k).iter().all(|&other| {
            let other = usize::from(other);
            other == cell || raw[other] != 0 || !(geometry.peers(other) & holding).is_empty()
        })
    })
}

/// Classic Sudoku: random grids, the band solver, SE's techniques.
struct ClassicTarget<'a> {
    solver: &'a mut Solver,
}

impl Target for ClassicTarget<'_> {
    fn new_grid(&mut self, rng: &mut SplitMix64, _: &Budget) -> Result<Board, Exhausted> {
        Ok(random_grid(rng))
    }

    fn count(
        &mut self,
        givens: &Board,
        without: Option<(usize, u8)>,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted<Board>, Exhausted> {
        let Ok(puzzle) = ClassicPuzzle::new(*givens) else {
            return Ok(Counted::none());
        };
        self.solver
            .count_solutions_without(&puzzle, without, limit, budget)
    }

    fn geometry(&self) -> &Geometry {
        Geometry::classic()
    }

    fn rules(&self) -> Rules {
        Rules::classic(Shape::NINE)
    }

    fn can_plant(&self) -> bool {
        true
    }
}

/// Whether a classic `range` is sought with planted puzzles: one starting above what
/// carving reaches, and one without a maximum starting at 9.0 or 9.1 (the `extreme`
/// level's, 9.0 and up). For the level,
/// planted puzzles cost less and spread further above its floor than carved ones: over 200
/// seeds, work per puzzle 0.30 of carving's without symmetry and 0.59 with it, p99 time 0.27
/// and 0.74; over 60 seeds, 28 and 23 rated above 9.0, where carving gave 5 and 7
/// (BENCHMARKS.md). A closed range starting at 9.0 or 9.1 stays carved, as it was measured:
/// carving reaches it, and planted candidates, which often rate above 9.1, have not been
/// measured against it since closed ranges give them up past their hard part ([`HardPart`]).
fn is_planted(range: &RangeInclusive<Rating>) -> bool {
    let (min, max) = (*range.start(), *range.end());
    min > CARVING_REACH
        || (max.tenths() == u16::MAX && min >= *Difficulty::Extreme.ratings().start())
}

/// [`generate_rated`] for any target: the method of the module docs.
pub(crate) fn generate_for(
    target: &mut impl Target,
    range: RangeInclusive<Rating>,
    seed: u64,
    symmetry: Symmetry,
    budget: &Budget,
) -> Result<Generated, GenerateError> {
    let (min, max) = (*range.start(), *range.end());
    let range = checked_range(range)?;
    let planted = target.can_plant() && is_planted(&range);
    let max_ratings = if planted {
        MAX_PLANTED_RATINGS
    } else {
        MAX_RATINGS
    };
    let mut search = Search {
        rng: SplitMix64::new(seed),
        target,
        budget,
        range,
        ratings: 0,
        max_ratings,
        planted,
        symmetry,
    };
    let mut grid = None;
    let mut plant = None;
    run_attempts(min..=max, max_ratings, budget, |attempt| {
        let found = (|| {
            let found = if planted {
                search.planted_attempt(&mut plant, attempt - 1)?
            } else {
                let grid = search.next_grid(&mut grid, attempt - 1)?;
                search
                    .attempt(&grid)?
                    .map(|(puzzle, grade)| (puzzle, grid, grade))
            };
            let Some((puzzle, grid, mut grade)) = found else {
                return Ok(None);
            };
            if max.tenths() == u16::MAX {
                // The search stopped at the first step reaching the minimum: finish the grade.
                let target = &search.target;
                match whole_grade(budget, |trial| target.grade(&puzzle, Enough::ALL, trial))? {
                    Some(whole) => grade = whole,
                    None => return Ok(None),
                }
            }
            Ok(Some(
                Generated::from_solution(puzzle.to_grid(), search.target.rules(), grid.to_grid())
                    .graded(grade, attempt, search.ratings),
            ))
        })();
        (found, search.ratings)
    })
}

/// Work a generated puzzle's whole grade may take. A puzzle whose grade needs more (the
/// longest dynamic forcing chains) is dropped and the search goes on, so that `/grade`
/// re-grades every generated puzzle within the service's default work budget (250,000).
pub(crate) const GRADE_WORK: u64 = 200_000;

/// The whole grade `grade` works out under a trial of [`GRADE_WORK`] units of `budget`;
/// `None` when that is not enough. A deadline or cancellation is an error.
pub(crate) fn whole_grade(
    budget: &Budget,
    grade: impl FnOnce(&Budget) -> Result<Grade, Exhausted>,
) -> Result<Option<Grade>, Exhausted> {
    let trial = budget.trial(GRADE_WORK);
    let graded = grade(&trial);
    budget.absorb(&trial)?;
    match graded {
        Ok(grade) => Ok(Some(grade)),
        Err(exhausted) if exhausted.stop == Stop::Work => Ok(None),
        Err(exhausted) => Err(exhausted),
    }
}

/// Calls `attempt` with attempt numbers 1, 2, ... until one yields a puzzle (returned, with
/// the attempts and ratings counted) or `max_ratings` puzzles were rated (the second value
/// `attempt` returns) or the work budget or its deadline ran out: then
/// [`GenerateError::NotFound`] for `asked`, saying which limit and what was done. A
/// cancellation is the caller's, and is returned as it is.
pub(crate) fn run_attempts(
    asked: RangeInclusive<Rating>,
    max_ratings: u32,
    budget: &Budget,
    mut attempt: impl FnMut(u32) -> (Result<Option<Generated>, Exhausted>, u32),
) -> Result<Generated, GenerateError> {
    let (mut attempts, mut ratings) = (0, 0);
    let mut limit = Limit::Ratings;
    while ratings < max_ratings {
        attempts += 1;
        let (found, rated) = attempt(attempts);
        ratings = rated;
        match found {
            Ok(Some(mut generated)) => {
                generated.attempts = attempts;
                generated.ratings = ratings;
                return Ok(generated);
            }
            Ok(None) => {}
            // Out of work or time is the generator's limit like `max_ratings`;
            // cancellation is the caller's.
            Err(exhausted) if exhausted.stop == Stop::Work => {
                limit = Limit::Work;
                break;
            }
            Err(exhausted) if exhausted.stop == Stop::Deadline => {
                limit = Limit::Time;
                break;
            }
            Err(exhausted) => return Err(exhausted.into()),
        }
    }
    Err(GenerateError::NotFound {
        min: *asked.start(),
        max: *asked.end(),
        ratings,
        work: budget.used(),
        limit,
    })
}

/// `range` with its minimum raised to the lowest rating a puzzle can have (a full grid has
/// rating 0 but is no puzzle); an error when nothing is left.
pub(crate) fn checked_range(
    range: RangeInclusive<Rating>,
) -> Result<RangeInclusive<Rating>, GenerateError> {
    let (min, max) = (*range.start(), *range.end());
    if min > max || max < LOWEST {
        return Err(GenerateError::EmptyRange { min, max });
    }
    Ok(min.max(LOWEST)..=max)
}

/// Where a grade falls against the requested range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    TooEasy,
    InRange,
    TooHard,
}

/// Where a grade rated with [`stop_for`] falls against `range`. A grade that stopped before
/// the end knows only a bound: it fits a range without a maximum when the bound reaches the
/// minimum, or when no technique applies and the range starts within the extreme level
/// (whose definition is "9.0 and up, or beyond every technique"); otherwise it counts as too
/// hard, never as in range.
pub(crate) fn fit(grade: &Grade, range: &RangeInclusive<Rating>) -> Fit {
    let (min, max) = (*range.start(), *range.end());
    let open = max.tenths() == u16::MAX;
    match grade.finish {
        Finish::Rated(rating) if rating > max => Fit::TooHard,
        Finish::Rated(rating) if rating < min => Fit::TooEasy,
        Finish::Rated(_) => Fit::InRange,
        Finish::Stopped { at_least, .. } if open && at_least >= min => Fit::InRange,
        Finish::Stopped {
            why: Stopped::NoTechnique,
            ..
        } if open && min <= *Difficulty::Extreme.ratings().start() => Fit::InRange,
        // No step reached the minimum while it could (see [`enough_for`]).
        Finish::Stopped {
            why: Stopped::PastTheHardPart,
            ..
        } => Fit::TooEasy,
        Finish::Stopped { .. } => Fit::TooHard,
    }
}

/// Where a rating for `range` may stop: at the first step above its maximum; without a
/// maximum, at the first step reaching its minimum (the caller grades an accepted puzzle in
/// full).
pub(crate) fn stop_for(range: &RangeInclusive<Rating>) -> Rating {
    if range.end().tenths() == u16::MAX {
        Rating::from_tenths(range.start().tenths().saturating_sub(1))
    } else {
        *range.end()
    }
}

/// Filled cells after which the search for a carved extreme puzzle (classic ones were, a
/// variant's are) gives up on a candidate whose solve has not yet needed a step of the
/// minimum; planted candidates count from their givens ([`PLANTED_HARD_PART`]). On the 34
/// extreme puzzles of
/// `generate_timing 20 extreme` (both symmetries) the first step of 9.0 or more came with
/// 26-39 cells filled, 32 of them with 35 or fewer; the rejected candidates' steps with 35
/// or more cells filled took 69% of their grading time. Over 100 seeds a puzzle then
/// costs 0.65 of the work it did (rotational 0.47, with 99 hits of 100 instead of 80);
/// 32 and 40 did worse, the first missing too many extreme puzzles, the second saving too
/// little (BENCHMARKS.md).
const HARD_PART_FILLED: usize = 36;

/// How much of a grade a carved candidate for `range` needs: up to [`stop_for`]; for a
/// range without a maximum starting in the extreme level, also no further than
/// [`HARD_PART_FILLED`] cells without a step reaching the minimum (a missed puzzle then
/// costs a little yield, never a wrong answer: an accepted puzzle is graded in full). Only
/// for the carved candidates, minimal or nearly, with 22-30 givens: a candidate with more
/// givens than that (a given-cell pattern's) would be given up before its hard part. A
/// planted candidate's count starts from its own givens instead ([`PLANTED_HARD_PART`]).
pub(crate) fn enough_for(range: &RangeInclusive<Rating>) -> Enough {
    let extreme =
        range.end().tenths() == u16::MAX && range.start() >= Difficulty::Extreme.ratings().start();
    Enough {
        above: Some(stop_for(range)),
        hard_part: extreme.then_some(HardPart {
            cells: HARD_PART_FILLED,
            reaching: *range.start(),
        }),
    }
}

/// `grid` made minimal: its units removed in a shuffled order (pairs of twins with
/// rotational symmetry) while the puzzle stays unique. Returns it and the units removed.
pub(crate) fn minimal(
    grid: &Board,
    symmetry: Symmetry,
    rng: &mut SplitMix64,
    target: &mut impl Target,
    budget: &Budget,
) -> Result<(Board, Vec<(usize, usize)>), Exhausted> {
    let mut order = removal_units(symmetry);
    rng.shuffle(&mut order);
    carve(*grid, grid, &order, target, budget)
}

/// One call's state: randomness, the target, the budget, the range and the work done.
struct Search<'a, T: Target> {
    rng: SplitMix64,
    target: &'a mut T,
    budget: &'a Budget,
    range: RangeInclusive<Rating>,
    ratings: u32,
    /// Candidates rated at most: [`MAX_RATINGS`], or [`MAX_PLANTED_RATINGS`].
    max_ratings: u32,
    /// Whether the candidates are planted ([`planted`]), not carved.
    planted: bool,
    symmetry: Symmetry,
}

impl<T: Target> Search<'_, T> {
    /// The grid for attempt number `attempts`: a new one every [`ORDERS_PER_GRID`] attempts.
    fn next_grid(&mut self, grid: &mut Option<Board>, attempts: u32) -> Result<Board, Exhausted> {
        match grid {
            Some(current) if attempts % ORDERS_PER_GRID != 0 => Ok(*current),
            _ => {
                let drawn = self.target.new_grid(&mut self.rng, self.budget)?;
                *grid = Some(drawn);
                Ok(drawn)
            }
        }
    }

    /// Rates `puzzle`, stopping early once a step shows it is above the range.
    fn rate(&mut self, puzzle: &Board) -> Result<(Grade, Fit), Exhausted> {
        self.ratings += 1;
        let mut enough = enough_for(&self.range);
        if self.planted {
            // Counted from the candidate's own givens (see [`PLANTED_HARD_PART`]), for a
            // closed range too: every planted range is extreme, and a candidate graded to
            // the end only to be too easy cost 8.5 times the work (`9.2-9.9` with symmetry:
            // 495 units a candidate against 58 for `9.2-`, and 0 of 10 seeds found one).
            let givens = puzzle.raw().iter().filter(|&&d| d != 0).count();
            enough.hard_part = Some(HardPart {
                cells: givens + PLANTED_HARD_PART,
                reaching: *self.range.start(),
            });
        }
        let grade = self.target.grade(puzzle, enough, self.budget)?;
        let fit = fit(&grade, &self.range);
        Ok((grade, fit))
    }

    /// One removal order on `grid`: carve, then descend or climb towards the range.
    fn attempt(&mut self, grid: &Board) -> Result<Option<(Board, Grade)>, Exhausted> {
        let (puzzle, mut removed) =
            minimal(grid, self.symmetry, &mut self.rng, self.target, self.budget)?;
        let (grade, fit) = self.rate(&puzzle)?;
        match fit {
            Fit::InRange => Ok(Some((puzzle, grade))),
            Fit::TooHard => {
                self.rng.shuffle(&mut removed);
                self.descend(grid, puzzle, &removed)
            }
            Fit::TooEasy
                if grade.lower_bound().tenths() + CLIMB_REACH >= self.range.start().tenths() =>
            {
                self.climb(grid, puzzle, grade)
            }
            Fit::TooEasy => Ok(None),
        }
    }

    /// A new plant, its full grid, and that grid without the pattern's cells, where each of
    /// its carvings starts; `None` when the fill gave up or the start has another solution.
    fn draw_plant(&mut self) -> Result<Option<(Plant, Board, Board)>, Exhausted> {
        let Some((plant, grid)) = Plant::draw(&mut self.rng, self.symmetry, self.budget)? else {
            return Ok(None);
        };
        let start = plant.start(&grid, self.symmetry);
        if !self.target.is_unique(&start, self.budget)? {
            return Ok(None);
        }
        Ok(Some((plant, grid, start)))
    }

    /// One planted puzzle ([`planted`]): a drawn plant's grid carved without the pattern's
    /// cells, the clues of the pattern's digits offered first, each removal kept only while the
    /// pattern holds; then rated, and descended like a carved puzzle when too hard (clues
    /// put back keep the pattern). Returns the puzzle, its grid and its grade when in range.
    fn planted_attempt(
        &mut self,
        drawn: &mut Option<(Plant, Board, Board)>,
        attempts: u32,
    ) -> Result<Option<(Board, Board, Grade)>, Exhausted> {
        if drawn.is_none() || attempts % ORDERS_PER_PLANT == 0 {
            *drawn = self.draw_plant()?;
        }
        let Some((plant, grid, start)) = drawn.as_ref() else {
            return Ok(None);
        };
        let (grid, raw) = (*grid, grid.raw());
        let digits = plant.digits();
        let given = |i: usize| start.get(Cell::from_index(i)).is_some();
        let mut order: Vec<(usize, usize)> = removal_units(self.symmetry)
            .into_iter()
            .filter(|&(a, b)| given(a) && given(b))
            .collect();
        self.rng.shuffle(&mut order);
        // Stable: each part stays shuffled.
        let of_pattern = |i: usize| digits & 1 << (raw[i] - 1) != 0;
        order.sort_by_key(|&(a, b)| !(of_pattern(a) || of_pattern(b)));
        // Plants are for classic rules ([`Target::can_plant`]).
        let geometry = Geometry::classic();
        let keeps = |board: &Board, unit| plant.keeps_after_unit(geometry, board, unit, &grid);
        let (puzzle, mut removed) =
            carve_keeping(*start, &grid, &order, self.target, self.budget, keeps)?;
        debug_assert!(plant.holds(geometry, &puzzle));
        let (grade, fit) = self.rate(&puzzle)?;
        let found = match fit {
            Fit::InRange => Some((puzzle, grade)),
            Fit::TooHard => {
                self.rng.shuffle(&mut removed);
                self.descend(&grid, puzzle, &removed)?
            }
            Fit::TooEasy => None,
        };
        Ok(found.map(|(puzzle, grade)| (puzzle, grid, grade)))
    }

    /// Puts removed units back one at a time until the rating is in range; a unit whose
    /// return makes the puzzle too easy is left out again.
    fn descend(
        &mut self,
        grid: &Board,
        mut board: Board,
        removed: &[(usize, usize)],
    ) -> Result<Option<(Board, Grade)>, Exhausted> {
        for &unit in removed {
            if self.ratings >= self.max_ratings {
                return Ok(None);
            }
            let mut candidate = board;
            restore(&mut candidate, grid, unit);
            match self.rate(&candidate)? {
                (grade, Fit::InRange) => return Ok(Some((candidate, grade))),
                (_, Fit::TooHard) => board = candidate,
                (_, Fit::TooEasy) => {}
            }
        }
        Ok(None)
    }

    /// Local search from a too-easy minimal puzzle: move one clue unit to an empty unit (with
    /// more of the grid's units if that is needed to keep one solution), make the result
    /// minimal again without taking the moved unit out, and keep the move when the rating
    /// does not drop.
    fn climb(
        &mut self,
        grid: &Board,
        mut puzzle: Board,
        mut grade: Grade,
    ) -> Result<Option<(Board, Grade)>, Exhausted> {
        'moves: for _ in 0..CLIMB_MOVES {
            if self.ratings >= self.max_ratings {
                return Ok(None);
            }
            let units = removal_units(self.symmetry);
            let filled: Vec<(usize, usize)> = units
                .iter()
                .copied()
                .filter(|&(a, _)| puzzle.get(Cell::from_index(a)).is_some())
                .collect();
            let empty: Vec<(usize, usize)> = units
                .iter()
                .copied()
                .filter(|&(a, _)| puzzle.get(Cell::from_index(a)).is_none())
                .collect();
            if filled.is_empty() || empty.is_empty() {
                return Ok(None);
            }
            let out = filled[self.rng.below(filled.len())];
            let into = empty[self.rng.below(empty.len())];
            let mut board = puzzle;
            for i in [out.0, out.1] {
                board.set(Cell::from_index(i), None);
            }
            restore(&mut board, grid, into);
            // A move that leaves two solutions gets more of the grid's clues back, in a
            // random order, until it has one (the grid less `out` has one): thrown away
            // instead, nine moves in ten were lost on `extreme` and a climb rarely got
            // anywhere (BENCHMARKS.md).
            let mut spare: Vec<(usize, usize)> =
                empty.into_iter().filter(|&unit| unit != into).collect();
            self.rng.shuffle(&mut spare);
            // Never `None`: with every spare unit back the board is the grid less `out`,
            // which has one solution (another would change the digit of an empty cell, and
            // then one more in its row and one more in its column: the other empty cell
            // cannot be both). Were it `None`, `carve` must not get two solutions.
            let Some(board) = put_back_until_unique(self.target, board, grid, &spare, self.budget)?
            else {
                continue 'moves;
            };
            let mut order: Vec<(usize, usize)> = units
                .into_iter()
                .filter(|&unit| board.get(Cell::from_index(unit.0)).is_some() && unit != into)
                .collect();
            self.rng.shuffle(&mut order);
            let (minimal, _) = carve(board, grid, &order, self.target, self.budget)?;
            let (next, fit) = self.rate(&minimal)?;
            match fit {
                Fit::InRange => return Ok(Some((minimal, next))),
                Fit::TooEasy if next.lower_bound() >= grade.lower_bound() => {
                    puzzle = minimal;
                    grade = next;
                }
                _ => {}
            }
        }
        Ok(None)
    }
}

/// `board`, a part of `grid`, with the shortest start of `spare` put back that leaves it one
/// solution; `None` when even all of `spare` leaves another.
///
/// A unit whose cells agree with another solution leaves that solution standing, so every
/// unit up to the first that rules it out goes back at once: the board that a search after
/// each unit would reach, for one search per solution ruled out rather than one per unit.
fn put_back_until_unique(
    target: &mut impl Target,
    mut board: Board,
    grid: &Board,
    mut spare: &[(usize, usize)],
    budget: &Budget,
) -> Result<Option<Board>, Exhausted> {
    while let Some(other) = target.other_solution(&board, grid, budget)? {
        let Some(ruling_out) = spare
            .iter()
            .position(|&(a, b)| differs(&other, grid, a) || differs(&other, grid, b))
        else {
            return Ok(None);
        };
        for &unit in &spare[..=ruling_out] {
            restore(&mut board, grid, unit);
        }
        spare = &spare[ruling_out + 1..];
    }
    Ok(Some(board))
}

/// Whether two boards hold different digits at `index`.
fn differs(one: &Board, other: &Board, index: usize) -> bool {
    one.raw()[index] != other.raw()[index]
}

/// Gives the cells of `unit` their digits from `grid`.
fn restore(board: &mut Board, grid: &Board, (a, b): (usize, usize)) {
    for i in [a, b] {
        board.set(Cell::from_index(i), grid.get(Cell::from_index(i)));
    }
}

/// Removes the units of `order` from `puzzle` one by one, keeping each removal that leaves a
/// unique puzzle. `puzzle` must have one solution, `solution`. Returns the puzzle and the
/// units removed, in order.
fn carve(
    puzzle: Board,
    solution: &Board,
    order: &[(usize, usize)],
    target: &mut impl Target,
    budget: &Budget,
) -> Result<(Board, Vec<(usize, usize)>), Exhausted> {
    carve_keeping(puzzle, solution, order, target, budget, |_, _| true)
}

/// [`carve`], a removal kept only when `keeps` accepts the board without the unit too
/// (asked before the uniqueness, which costs more).
fn carve_keeping(
    mut puzzle: Board,
    solution: &Board,
    order: &[(usize, usize)],
    target: &mut impl Target,
    budget: &Budget,
    keeps: impl Fn(&Board, (usize, usize)) -> bool,
) -> Result<(Board, Vec<(usize, usize)>), Exhausted> {
    let mut removed = Vec::new();
    for &(a, b) in order {
        let mut board = puzzle;
        board.set(Cell::from_index(a), None);
        board.set(Cell::from_index(b), None);
        if board == puzzle
            || !keeps(&board, (a, b))
            || !target.stays_unique(&board, (a, b), solution, budget)?
        {
            continue;
        }
        puzzle = board;
        removed.push((a, b));
    }
    Ok((puzzle, removed))
}

/// Cells removed together: single cells, or a cell and its 180-degree twin (the centre twice).
fn removal_units(symmetry: Symmetry) -> Vec<(usize, usize)> {
    (0..CELLS)
        .map(|i| (i, symmetry.twin(i)))
        .filter(|&(a, b)| a <= b)
        .collect()
}

/// A random full grid. Falls back to a fixed valid pattern if the fill ever ran out of its node
/// budget (it does not on an empty grid; the budget only bounds the work).
fn random_grid(rng: &mut SplitMix64) -> Board {
    let mut cells = [0u8; CELLS];
    let mut used = [0u16; 27];
    let mut budget = 100_000u32;
    if fill(&mut cells, &mut used, rng, &mut budget) {
        Board::from_raw(cells)
    } else {
        pattern_grid()
    }
}

/// The row, column and box of each cell, as indices into `fill`'s used-digit masks
/// (rows 0-8, columns 9-17, boxes 18-26): looked up, since the fill reads them for every
/// empty cell at every node.
const SLOTS: [[u8; 3]; CELLS] = {
    let mut out = [[0u8; 3]; CELLS];
    let mut i = 0;
    while i < CELLS {
        let (r, c) = (i / 9, i % 9);
        out[i] = [r as u8, (9 + c) as u8, (18 + (r / 3) * 3 + c / 3) as u8];
        i += 1;
    }
    out
};

/// Digits still free in cell `i`, as a 9-bit mask.
fn free_digits(used: &[u16; 27], i: usize) -> u16 {
    let [a, b, c] = SLOTS[i];
    !(used[usize::from(a)] | used[usize::from(b)] | used[usize::from(c)]) & 0x1FF
}

/// Marks `bit` used (or free again) in the row, column and box of cell `i`.
fn mark(used: &mut [u16; 27], i: usize, bit: u16, on: bool) {
    for s in SLOTS[i] {
        let slot = &mut used[usize::from(s)];
        *slot = if on { *slot | bit } else { *slot & !bit };
    }
}

fn fill(
    cells: &mut [u8; CELLS],
    used: &mut [u16; 27],
    rng: &mut SplitMix64,
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    // The first empty cell with the fewest free digits (any with one or none ends the look).
    let mut best: Option<(usize, u16)> = None;
    for i in (0..CELLS).filter(|&i| cells[i] == 0) {
        let free = free_digits(used, i);
        if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
            best = Some((i, free));
            if free.count_ones() <= 1 {
                break;
            }
        }
    }
    let Some((i, free)) = best else {
        return true;
    };
    let mut digits = [0u8; 9];
    let mut count = 0;
    for d in (1..=9u8).filter(|d| free & (1 << (d - 1)) != 0) {
        digits[count] = d;
        count += 1;
    }
    let digits = &mut digits[..count];
    rng.shuffle(digits);
    for &d in digits.iter() {
        let bit = 1u16 << (d - 1);
        cells[i] = d;
        mark(used, i, bit, true);
        if fill(cells, used, rng, budget) {
            return true;
        }
        cells[i] = 0;
        mark(used, i, bit, false);
    }
    false
}

/// A valid full grid by formula: row `r` is the base row shifted by `3 * (r % 3) + r / 3`.
fn pattern_grid() -> Board {
    let mut cells = [0u8; CELLS];
    for (i, cell) in cells.iter_mut().enumerate() {
        let (r, c) = (i / 9, i % 9);
        *cell = ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8;
    }
    Board::from_raw(cells)
}

/// For tests of a [`Target`]'s `stays_unique`: on a unique puzzle three clues short of
/// minimal (carved down a random removal order of `grid`, the last three removals left
/// out: those can still go, most others cannot), taking out each clue in turn is judged as
/// counting to 2 judges it, and both answers occur.
#[cfg(test)]
pub(crate) fn assert_removals_judged_as_counted(target: &mut impl Target, grid: &Board, seed: u64) {
    let budget = Budget::unlimited();
    let mut rng = SplitMix64::new(seed);
    let mut order = removal_units(Symmetry::None);
    rng.shuffle(&mut order);
    let (_, removed) = carve(*grid, grid, &order, target, &budget).unwrap();
    let mut puzzle = *grid;
    for &unit in &removed[..removed.len() - 3] {
        puzzle.set(Cell::from_index(unit.0), None);
    }
    assert!(target.is_unique(&puzzle, &budget).unwrap());
    let (mut stays, mut goes) = (0, 0);
    for index in (0..CELLS).filter(|&i| puzzle.raw()[i] != 0) {
        let mut smaller = puzzle;
        smaller.set(Cell::from_index(index), None);
        let judged = target
            .stays_unique(&smaller, (index, index), grid, &budget)
            .unwrap();
        let counted = target.is_unique(&smaller, &budget).unwrap();
        assert_eq!(judged, counted, "removing clue {index} of {puzzle}");
        if judged {
            stays += 1;
        } else {
            goes += 1;
        }
    }
    assert!(stays > 0 && goes > 0, "both answers: {stays} / {goes}");
}

/// A target that counts the searches of the one it wraps (every default method searches
/// through `count`).
#[cfg(test)]
pub(crate) struct Searches<'t, T: Target> {
    pub(crate) inner: &'t mut T,
    pub(crate) made: u32,
}

#[cfg(test)]
impl<T: Target> Target for Searches<'_, T> {
    fn new_grid(&mut self, rng: &mut SplitMix64, budget: &Budget) -> Result<Board, Exhausted> {
        self.inner.new_grid(rng, budget)
    }

    fn count(
        &mut self,
        givens: &Board,
        without: Option<(usize, u8)>,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted<Board>, Exhausted> {
        self.made += 1;
        self.inner.count(givens, without, limit, budget)
    }

    fn geometry(&self) -> &Geometry {
        self.inner.geometry()
    }

    fn rules(&self) -> Rules {
        self.inner.rules()
    }

    fn can_plant(&self) -> bool {
        self.inner.can_plant()
    }
}

/// For tests of a [`Target`]'s `stays_unique`: carving all of `grid` (the target's last
/// grid) down a random order of `symmetry`'s units, every removal is judged as counting to 2
/// judges it, and a removal whose emptied cells the clues decide makes no search. Returns
/// the removals judged by the clues and those searched.
#[cfg(test)]
pub(crate) fn assert_carving_judged_as_counted(
    target: &mut impl Target,
    grid: &Board,
    seed: u64,
    symmetry: Symmetry,
) -> (u32, u32) {
    let budget = Budget::unlimited();
    let mut target = Searches {
        inner: target,
        made: 0,
    };
    let mut rng = SplitMix64::new(seed);
    let mut order = removal_units(symmetry);
    rng.shuffle(&mut order);
    let mut puzzle = *grid;
    let (mut by_clues, mut by_search) = (0, 0);
    for &(a, b) in &order {
        let mut smaller = puzzle;
        restore(&mut smaller, &Board::empty(), (a, b));
        let forced = [a, b]
            .into_iter()
            .all(|cell| forced_by_clues(target.geometry(), &smaller, cell, grid.raw()[cell]));
        let before = target.made;
        let judged = target
            .stays_unique(&smaller, (a, b), grid, &budget)
            .unwrap();
        let searched = target.made > before;
        let counted = target.is_unique(&smaller, &budget).unwrap();
        assert_eq!(judged, counted, "removing {a} and {b} from {puzzle}");
        assert_eq!(searched, !forced, "removing {a} and {b} from {puzzle}");
        if forced {
            by_clues += 1;
        } else {
            by_search += 1;
        }
        if judged {
            puzzle = smaller;
        }
    }
    (by_clues, by_search)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::logic::grade;
    use crate::engine::model::grid::Shape;
    use crate::engine::model::rules::Rules;
    use crate::engine::model::validate::validate;

    /// The classic target's test of a removal (one search without the removed digit) says
    /// what counting to 2 says; twins are counted as before (a pair the clues decide is
    /// tested by `a_removal_forced_by_the_clues_needs_no_search_and_is_judged_rightly`).
    #[test]
    fn a_removal_is_judged_as_counting_to_two_judges_it() {
        let budget = Budget::unlimited();
        let mut solver = Solver::new();
        let mut target = ClassicTarget {
            solver: &mut solver,
        };
        let grid = random_grid(&mut SplitMix64::new(5));
        assert_removals_judged_as_counted(&mut target, &grid, 5);
        // A pair of twins (here forced by the clues; else counted).
        let twins = (10, CELLS - 11);
        let mut smaller = grid;
        restore(&mut smaller, &Board::empty(), twins);
        assert!(target
            .stays_unique(&smaller, twins, &grid, &budget)
            .unwrap());
    }

    /// Carving full grids, with and without symmetry: every removal judged by the clues
    /// alone (the first ones, without a search) or by a search is judged as counting to 2
    /// judges it, and both kinds occur.
    #[test]
    fn a_removal_forced_by_the_clues_needs_no_search_and_is_judged_rightly() {
        let mut solver = Solver::new();
        let mut target = ClassicTarget {
            solver: &mut solver,
        };
        for seed in 0..12 {
            let grid = random_grid(&mut SplitMix64::new(seed));
            for symmetry in [Symmetry::None, Symmetry::Rotational] {
                let (by_clues, by_search) =
                    assert_carving_judged_as_counted(&mut target, &grid, seed, symmetry);
                assert!(
                    by_clues >= 5 && by_search >= 5,
                    "seed {seed}, {symmetry:?}: {by_clues} by the clues, {by_search} searched"
                );
            }
        }
    }

    /// The climb's put-back ends on the board that putting the spare units back one at a
    /// time, with a count after each, ends on (with and without symmetry), never with more
    /// searches, and with fewer when several units go back.
    #[test]
    fn spare_units_go_back_as_one_count_after_each_would_put_them() {
        let budget = Budget::unlimited();
        let mut solver = Solver::new();
        let mut classic = ClassicTarget {
            solver: &mut solver,
        };
        let mut target = Searches {
            inner: &mut classic,
            made: 0,
        };
        let mut fewer = 0;
        for symmetry in [Symmetry::None, Symmetry::Rotational] {
            for seed in 0..30 {
                let mut rng = SplitMix64::new(seed);
                let grid = random_grid(&mut rng);
                let (puzzle, _) = minimal(&grid, symmetry, &mut rng, &mut target, &budget).unwrap();
                // A climbing move: one unit of clues out, one empty unit given its digits.
                let units = removal_units(symmetry);
                let (filled, empty): (Vec<_>, Vec<_>) =
                    units.into_iter().partition(|&(a, _)| puzzle.raw()[a] != 0);
                let (out, into) = (
                    filled[rng.below(filled.len())],
                    empty[rng.below(empty.len())],
                );
                let mut board = puzzle;
                restore(&mut board, &Board::empty(), out);
                restore(&mut board, &grid, into);
                let mut spare: Vec<(usize, usize)> =
                    empty.into_iter().filter(|&unit| unit != into).collect();
                rng.shuffle(&mut spare);

                let before = target.made;
                let mut one_at_a_time = board;
                let mut rest = spare.iter();
                let expected = loop {
                    if target.is_unique(&one_at_a_time, &budget).unwrap() {
                        break Some(one_at_a_time);
                    }
                    match rest.next() {
                        Some(&unit) => restore(&mut one_at_a_time, &grid, unit),
                        None => break None,
                    }
                };
                let counts_one_at_a_time = target.made - before;
                let before = target.made;
                let got =
                    put_back_until_unique(&mut target, board, &grid, &spare, &budget).unwrap();
                let counts = target.made - before;
                assert_eq!(got, expected, "seed {seed}, {symmetry:?}");
                assert!(counts <= counts_one_at_a_time, "seed {seed}, {symmetry:?}");
                if counts < counts_one_at_a_time {
                    fewer += 1;
                }
            }
        }
        assert!(fewer >= 5, "{fewer} moves made fewer counts");
    }

    fn rated(
        range: RangeInclusive<Rating>,
        seed: u64,
        symmetry: Symmetry,
    ) -> Result<Generated, GenerateError> {
        generate_rated(
            range,
            seed,
            symmetry,
            &mut Solver::new(),
            &Budget::unlimited(),
        )
    }

    fn make(difficulty: Difficulty, seed: u64, symmetry: Symmetry) -> Generated {
        rated(difficulty.ratings(), seed, symmetry).unwrap()
    }

    fn check(g: &Generated, range: &RangeInclusive<Rating>, symmetry: Symmetry) {
        let board = Board::from_grid(g.puzzle.grid()).unwrap();
        let puzzle = ClassicPuzzle::new(board).unwrap();
        let graded = g
            .grade
            .as_ref()
            .expect("a rated generation grades its puzzle");
        let mut solver = Solver::new();
        let counted = solver
            .count_solutions(&puzzle, 2, &Budget::unlimited())
            .unwrap();
        assert!(counted.is_unique(), "{}", g.puzzle.grid());
        assert_eq!(
            counted.first.map(|b| b.to_grid()).as_ref(),
            Some(g.solution.grid())
        );
        assert!(validate(g.solution.grid(), &Rules::classic(Shape::NINE)).solved);
        assert_eq!(
            &grade(&puzzle, &mut solver, &Budget::unlimited()).unwrap(),
            graded
        );
        assert!(
            fit(graded, range) == Fit::InRange,
            "{:?} not in {range:?}",
            graded.finish
        );
        if symmetry == Symmetry::Rotational {
            for i in 0..CELLS {
                let (a, b) = (Cell::from_index(i), Cell::from_index(CELLS - 1 - i));
                assert_eq!(board.get(a).is_some(), board.get(b).is_some());
            }
        }
    }

    #[test]
    fn the_lower_levels_are_hit_with_a_unique_solution() {
        for difficulty in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
            for seed in 0..2 {
                for symmetry in [Symmetry::None, Symmetry::Rotational] {
                    let g = make(difficulty, seed, symmetry);
                    check(&g, &difficulty.ratings(), symmetry);
                    assert_eq!(g.grade.unwrap().difficulty(), Some(difficulty));
                }
            }
        }
    }

    #[test]
    fn a_rating_range_is_hit() {
        let range = Rating::from_tenths(42)..=Rating::from_tenths(56);
        for seed in 0..2 {
            let g = rated(range.clone(), seed, Symmetry::None).unwrap();
            check(&g, &range, Symmetry::None);
        }
    }

    #[test]
    fn an_open_ended_range_returns_the_full_grade() {
        // Without a maximum the search stops rating at the first step reaching the minimum;
        // the returned grade is still the whole solve's.
        let range = Rating::from_tenths(40)..=Rating::from_tenths(u16::MAX);
        let g = rated(range.clone(), 5, Symmetry::None).unwrap();
        check(&g, &range, Symmetry::None);
    }

    #[test]
    fn only_a_search_for_extreme_puzzles_gives_up_past_the_hard_part() {
        let open = |tenths| Rating::from_tenths(tenths)..=Rating::from_tenths(u16::MAX);
        for range in [Difficulty::Extreme.ratings(), open(95)] {
            let enough = enough_for(&range);
            let hard_part = enough.hard_part.expect("a bet for extreme ranges");
            assert_eq!(hard_part.cells, HARD_PART_FILLED, "{range:?}");
            assert_eq!(hard_part.reaching, *range.start(), "{range:?}");
            assert_eq!(enough.above, Some(stop_for(&range)));
        }
        for range in [open(40), Difficulty::Master.ratings(), open(89)] {
            assert_eq!(enough_for(&range).hard_part, None, "{range:?}");
        }
        let gave_up = Grade {
            finish: Finish::Stopped {
                at_least: Rating::from_tenths(72),
                why: Stopped::PastTheHardPart,
            },
            hardest: None,
            counts: Default::default(),
            score: 0,
        };
        assert_eq!(fit(&gave_up, &Difficulty::Extreme.ratings()), Fit::TooEasy);
    }

    #[test]
    fn impossible_requests_fail_instead_of_missing() {
        let empty = Rating::from_tenths(50)..=Rating::from_tenths(40);
        assert!(matches!(
            rated(empty, 1, Symmetry::None),
            Err(GenerateError::EmptyRange { .. })
        ));
        // Nothing is rated between 1.0 and 1.2 other than full houses, which a minimal puzzle
        // rarely is; whatever comes back must be in range.
        let narrow = Rating::from_tenths(11)..=Rating::from_tenths(11);
        assert!(matches!(
            rated(narrow, 3, Symmetry::None),
            Err(GenerateError::NotFound { .. })
        ));
    }

    #[test]
    fn a_range_above_what_carving_reaches_is_met_by_a_planted_puzzle() {
        // Seed 2 finds its puzzle within about 500 candidates and 130,000 units (0.1 s in a
        // release build), seed 21 its symmetric one within about 200 and 80,000: a search
        // that no longer finds them fails here at once, not after minutes.
        let range = Rating::from_tenths(92)..=Rating::from_tenths(u16::MAX);
        let rated = |range: RangeInclusive<Rating>, seed, symmetry| {
            let budget = Budget::work(400_000);
            generate_rated(range, seed, symmetry, &mut Solver::new(), &budget)
                .unwrap_or_else(|e| panic!("seed {seed}, {symmetry:?}: {e}"))
        };
        for (seed, symmetry) in [(2, Symmetry::None), (21, Symmetry::Rotational)] {
            let g = rated(range.clone(), seed, symmetry);
            check(&g, &range, symmetry);
            let board = Board::from_grid(g.puzzle.grid()).unwrap();
            // Its pattern: four boxes whose twelve empty cells' candidates by the clues fall
            // within three digits, but for one cell that may hold a fourth.
            assert!(has_planted_pattern(&board), "{board}");
            assert_eq!(g, rated(range.clone(), seed, symmetry), "the same seed");
        }
        // A planted search that finds nothing ends with its budget, its fills included.
        let budget = Budget::work(20_000);
        let missed = generate_rated(
            range.clone(),
            2,
            Symmetry::None,
            &mut Solver::new(),
            &budget,
        );
        assert!(
            matches!(
                missed,
                Err(GenerateError::NotFound {
                    limit: Limit::Work,
                    ..
                })
            ),
            "{missed:?}"
        );
        assert!(budget.used() <= 20_000 + 1_000, "{}", budget.used());
        // The `extreme` level's puzzles are planted too; carved ones (`master`) have no such
        // pattern.
        for (seed, symmetry) in [(2, Symmetry::None), (21, Symmetry::Rotational)] {
            let extreme = rated(Difficulty::Extreme.ratings(), seed, symmetry);
            check(&extreme, &Difficulty::Extreme.ratings(), symmetry);
            let board = Board::from_grid(extreme.puzzle.grid()).unwrap();
            assert!(has_planted_pattern(&board), "{board}");
        }
        for seed in 0..3 {
            let carved = make(Difficulty::Master, seed, Symmetry::None);
            let board = Board::from_grid(carved.puzzle.grid()).unwrap();
            assert!(!has_planted_pattern(&board), "{board}");
        }
    }

    /// Whether some rectangle of four boxes holds three empty cells each, one per row and
    /// column of the box, whose candidates (digits no clue among their peers holds) stay
    /// within three digits but for one cell's one more: a plain search over the layouts.
    fn has_planted_pattern(board: &Board) -> bool {
        let raw = board.raw();
        let candidates = |cell: usize| {
            let geometry = Geometry::classic();
            let seen = geometry
                .peers(cell)
                .iter()
                .fold(0u16, |seen, p| seen | (1u16 << raw[p] >> 1));
            !seen & 0x1FF
        };
        let perms = crate::engine::model::board::ORDERS_OF_THREE;
        let pairs = [(0, 1), (0, 2), (1, 2)];
        for (b0, b1) in pairs {
            for (s0, s1) in pairs {
                for code in 0..6usize.pow(4) {
                    let cells: Vec<usize> = (0..12)
                        .map(|i| {
                            let (b, k) = (i / 3, i % 3);
                            let band = [b0, b1][b / 2];
                            let stack = [s0, s1][b % 2];
                            (band * 3 + k) * 9
                                + stack * 3
                                + perms[code / 6usize.pow(b as u32) % 6][k]
                        })
                        .collect();
                    if cells.iter().any(|&c| raw[c] != 0) {
                        continue;
                    }
                    let marks: Vec<u16> = cells.iter().map(|&c| candidates(c)).collect();
                    let three = (0..9u16).any(|a| {
                        (a + 1..9).any(|b| {
                            (b + 1..9).any(|c| {
                                let trio = 1 << a | 1 << b | 1 << c;
                                let outside: Vec<u16> = marks
                                    .iter()
                                    .map(|&m| m & !trio)
                                    .filter(|&m| m != 0)
                                    .collect();
                                outside.len() == 1 && outside[0].count_ones() == 1
                            })
                        })
                    });
                    if three {
                        return true;
                    }
                }
            }
        }
        false
    }

    #[test]
    fn same_seed_same_puzzle() {
        let a = make(Difficulty::Medium, 42, Symmetry::None);
        let b = make(Difficulty::Medium, 42, Symmetry::None);
        assert_eq!(a, b);
        let c = make(Difficulty::Medium, 43, Symmetry::None);
        assert_ne!(a.puzzle, c.puzzle);
    }

    #[test]
    fn ranges_below_every_puzzle_are_empty_and_a_full_grid_is_never_returned() {
        let mut solver = Solver::new();
        let budget = Budget::unlimited();
        let tenths = Rating::from_tenths;
        let err = generate_rated(
            tenths(0)..=tenths(9),
            1,
            Symmetry::None,
            &mut solver,
            &budget,
        )
        .unwrap_err();
        assert!(matches!(err, GenerateError::EmptyRange { .. }), "{err:?}");
        let easiest = generate_rated(
            tenths(0)..=tenths(12),
            1,
            Symmetry::None,
            &mut solver,
            &budget,
        )
        .unwrap();
        let graded = easiest.grade.unwrap();
        assert!(graded.lower_bound() >= tenths(10), "{graded:?}");
        assert!(!easiest.puzzle.grid().is_full());
    }

    #[test]
    fn a_grade_beyond_its_share_drops_the_puzzle_but_a_deadline_is_an_error() {
        use crate::engine::budget::Cancel;
        let budget = Budget::work(10 * GRADE_WORK);
        let graded = whole_grade(&budget, |trial| {
            ClassicTarget {
                solver: &mut Solver::new(),
            }
            .grade(&Board::from_line(SEED_LINE).unwrap(), Enough::ALL, trial)
        })
        .unwrap();
        assert_eq!(graded.unwrap().rating(), Some(Rating::from_tenths(20)));
        let before = budget.used();
        let dropped = whole_grade(&budget, |trial| {
            trial.charge(GRADE_WORK + 1)?;
            unreachable!("the trial stops at its share")
        })
        .unwrap();
        assert_eq!(dropped, None);
        assert!(
            budget.used() > before + GRADE_WORK,
            "the work tried is charged"
        );
        let cancel = Cancel::new();
        cancel.cancel();
        let stopped = Budget::unlimited().with_cancel(cancel);
        let err = whole_grade(&stopped, |trial| {
            trial.charge(1_000)?;
            unreachable!("cancelled")
        })
        .unwrap_err();
        assert_eq!(err.stop, Stop::Cancelled);
    }

    const SEED_LINE: &str =
        "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";

    #[test]
    fn the_budget_bounds_generation() {
        let budget = Budget::work(50);
        let err = generate(
            Difficulty::Hard,
            1,
            Symmetry::None,
            &mut Solver::new(),
            &budget,
        )
        .unwrap_err();
        assert!(matches!(err, GenerateError::NotFound { .. }), "{err:?}");
        assert_eq!(budget.stopped(), Some(Stop::Work));
    }

    #[test]
    fn random_grids_are_valid_and_varied() {
        let mut rng = SplitMix64::new(7);
        let rules = Rules::classic(Shape::NINE);
        let a = random_grid(&mut rng);
        let b = random_grid(&mut rng);
        assert!(validate(&a.to_grid(), &rules).solved && validate(&b.to_grid(), &rules).solved);
        assert_ne!(a, b);
        assert!(validate(&pattern_grid().to_grid(), &rules).solved);
    }
}
