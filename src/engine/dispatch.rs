//! [`Engine`]: the one entry point. It owns a solver of each kind and decides which one a
//! puzzle needs; callers (the HTTP pool, the tests) only say what they want done.
//!
//! Keep one `Engine` per thread and reuse it: both solvers keep their scratch space (guess
//! stacks, the cage-sum table) between calls, so a warm engine allocates nothing per search
//! but the answer.

use std::fmt;
use std::ops::RangeInclusive;

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::generate::pattern::{generate_in_pattern, Pattern};
use crate::engine::generate::variant::{generate_variant, generate_variant_rated, Variant};
use crate::engine::generate::{self, GenerateError, Generated, Symmetry};
use crate::engine::logic::marks::Marks;
use crate::engine::logic::{self, Assumptions, Candidates, Geometry, Grade, Hint, Rating};
use crate::engine::model::board::{Board, CELLS};
use crate::engine::model::canonical::canonical_form;
use crate::engine::model::grid::{Cell, Grid, Shape};
use crate::engine::model::puzzle::{Counted, Puzzle, Solution};
use crate::engine::model::rules::Rules;
use crate::engine::model::validate::Unit;
use crate::engine::model::variant_forms::{NoForm, RuleGroup};
use crate::engine::solve::band::Solver;
use crate::engine::solve::general::GeneralSolver;

/// Why the engine could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The budget stopped it (work, deadline or cancellation).
    #[error(transparent)]
    Exhausted(#[from] Exhausted),
    /// This operation does not cover this kind of puzzle (yet).
    #[error(
        "{operation} covers 9x9 puzzles of houses and sums (rows, columns, boxes or Jigsaw regions, \
         diagonals, windows, disjoint groups, Killer cages with sums); this one is {found}"
    )]
    Unsupported {
        operation: &'static str,
        found: String,
        /// A rule the operation does not take, when the rules (not the size) are the reason:
        /// what a refusal points at.
        rule: Option<Unit>,
    },
    /// No puzzle in the requested rating range was found within the generator's limit or its
    /// work budget (or the range is empty). A deadline or cancellation is `Exhausted`.
    #[error(transparent)]
    NotGenerated(GenerateError),
    /// The puzzle's rules have no canonical form here, for the reason given.
    #[error(
        "this {found} puzzle has no canonical form: {why}. Forms cover classic 9x9 puzzles and \
         9x9 puzzles with the boxes whose rules name no digit (X, Hyper, disjoint groups, extra \
         regions, anti-king, anti-knight, cages without sums and mixes of them)"
    )]
    NoCanonicalForm { found: String, why: NoForm },
    /// The player's board and the original puzzle are not the same size.
    #[error("the board is {board}x{board} but the givens are {givens}x{givens}")]
    SizeMismatch { board: usize, givens: usize },
}

impl EngineError {
    /// Whether the clock (a deadline or a cancellation), not the work budget or the request,
    /// stopped the job: the same job on another run, with more time, could answer otherwise.
    /// A generation that met its deadline says so as `NotFound` with `Limit::Time`.
    pub fn stopped_by_clock(&self) -> bool {
        match self {
            EngineError::Exhausted(out) => out.stop != crate::engine::budget::Stop::Work,
            EngineError::NotGenerated(GenerateError::NotFound { limit, .. }) => {
                *limit == generate::Limit::Time
            }
            _ => false,
        }
    }
}

impl From<GenerateError> for EngineError {
    fn from(error: GenerateError) -> EngineError {
        match error {
            GenerateError::Stopped(exhausted) => EngineError::Exhausted(exhausted),
            other => EngineError::NotGenerated(other),
        }
    }
}

/// See the module docs.
#[derive(Default)]
pub struct Engine {
    classic: Solver,
    general: GeneralSolver,
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine").finish_non_exhaustive()
    }
}

impl Engine {
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Whether the puzzles generated for `variant` (classic: `None`) have canonical forms.
    pub fn has_canonical_form(variant: Option<Variant>) -> bool {
        !matches!(variant, Some(Variant::Killer))
    }

    /// The canonical form of a classic puzzle, or of a 9x9 puzzle whose rules name no digit
    /// (Sudoku X, Hyper, anti-king...): the one representative of every puzzle that is the
    /// same up to the rule set's symmetries and a relabelling of the digits (see
    /// `canonical.rs` and `variant_forms.rs`), itself a puzzle under the same rules (its id
    /// is the canonical id). Other rule sets are [`EngineError::NoCanonicalForm`]; the
    /// search is charged to `budget`.
    pub fn canonical(&self, puzzle: &Puzzle, budget: &Budget) -> Result<Puzzle, EngineError> {
        if let Some(classic) = puzzle.as_classic() {
            return Ok(Puzzle::from_classic(canonical_form(classic, budget)?));
        }
        let no_form = |why| EngineError::NoCanonicalForm {
            found: puzzle.kind(),
            why,
        };
        let group = RuleGroup::of(puzzle.rules(), budget)?.map_err(no_form)?;
        let board = Board::from_grid(puzzle.grid()).ok_or_else(|| no_form(NoForm::NotNine))?;
        let regions: Option<[u8; CELLS]> = puzzle.rules().regions().map(|regions| {
            std::array::from_fn(|i| regions.region_of(Cell::at(i / 9, i % 9)) as u8)
        });
        let form = group.form(board.raw(), regions.as_ref(), budget)?;
        // The group's symmetries map each of the rule set's houses and forbidden pairs onto
        // one of its own (a Jigsaw's regions onto the form's) and relabel digits one to one,
        // so the form breaks a rule only if the puzzle does.
        let rules = match form.regions {
            Some(moved) => puzzle.rules().with_regions(&moved),
            None => puzzle.rules().clone(),
        };
        Ok(Puzzle::new(Board::from_raw(form.cells).to_grid(), rules)
            .unwrap_or_else(|_| unreachable!("a disguise of a valid puzzle is valid")))
    }

    /// Counts `puzzle`'s solutions up to `limit` (0 counts as 1) under `budget`: the band
    /// solver for classic 9x9 puzzles, the general solver for every other size and rule set.
    pub fn count(
        &mut self,
        puzzle: &Puzzle,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted, Exhausted> {
        match puzzle.as_classic() {
            Some(classic) => {
                let counted = self.classic.count_solutions(classic, limit, budget)?;
                Ok(counted.map(|board| Solution::new(board.to_grid())))
            }
            None => self.general.count_solutions(puzzle, limit, budget),
        }
    }

    /// The puzzle's grade, with its solutions counted to 2 first (a puzzle without a
    /// solution gets no grade). 9x9 puzzles of every rule set; other sizes are
    /// [`EngineError::Unsupported`]. Running out of work during the count is an error; during
    /// the techniques, a grade with what is known (see [`Grade::rating`]).
    pub fn grade(
        &mut self,
        puzzle: &Puzzle,
        budget: &Budget,
    ) -> Result<(Counted, Option<Grade>), EngineError> {
        let classic = puzzle.as_classic();
        let variant = match classic {
            Some(_) => None,
            None => Some(Geometry::for_rules(puzzle.rules()).ok_or_else(|| {
                let rules = puzzle.rules();
                EngineError::Unsupported {
                    operation: "grading",
                    found: puzzle.kind(),
                    rule: (rules.shape() == Shape::NINE)
                        .then(|| rules.first_beyond_houses())
                        .flatten(),
                }
            })?),
        };
        let counted = self.count(puzzle, 2, budget)?;
        if counted.count == 0 {
            return Ok((counted, None));
        }
        // Uniqueness techniques are sound only with exactly one solution.
        let assume = Assumptions {
            uniqueness: counted.is_unique(),
        };
        let grade = match (classic, &variant) {
            (Some(classic), _) => logic::grade::grade_until_stopped(
                Candidates::new(classic.board()),
                &assume,
                logic::grade::Enough::ALL,
                budget,
            )?,
            (None, Some(geometry)) => {
                // `Geometry::build` declines every shape but 9x9, and a 9x9 grid holds 0-9
                // only: all that `Board::from_grid` asks.
                let board = Board::from_grid(puzzle.grid())
                    .unwrap_or_else(|| unreachable!("a geometry is built for 9x9 only"));
                logic::grade::grade_until_stopped(
                    Candidates::with_geometry(&board, geometry),
                    &assume,
                    logic::grade::Enough::ALL,
                    budget,
                )?
            }
            // `variant` is computed (or the call returned) exactly when `classic` is None.
            (None, None) => unreachable!("a non-classic puzzle has its geometry"),
        };
        Ok((counted, Some(grade)))
    }

    /// What to tell a player looking at `board`, a position of the puzzle `givens` (the
    /// board itself when the original is not known) under `rules`: the logic engine's
    /// techniques on 9x9 boards of every rule set (the band solver finds a classic one's
    /// solution, the general solver a variant's), singles over the rules' pencil marks on
    /// other sizes.
    pub fn hint(
        &mut self,
        board: &Grid,
        givens: &Grid,
        rules: &Rules,
        budget: &Budget,
    ) -> Result<Hint, EngineError> {
        if board.shape() != givens.shape() {
            return Err(EngineError::SizeMismatch {
                board: board.shape().side(),
                givens: givens.shape().side(),
            });
        }
        let Some((board, givens)) = classic_pair(board, givens, rules) else {
            return Ok(logic::general_hint::hint(
                board,
                givens,
                rules,
                &mut self.general,
                budget,
            )?);
        };
        Ok(logic::hint_with_givens(
            &givens,
            &board,
            &mut self.classic,
            budget,
        )?)
    }

    /// The pencil marks of `board` under `rules`. Without `with_techniques`, the basic marks
    /// of every house and cage (with cage sums); with it, on a 9x9 board of any rule set, the
    /// logic engine's marks after its elimination techniques (a Killer's cage techniques
    /// among them). Other sizes get the basic marks either way
    /// ([`Marks::techniques_applied`] tells which).
    pub fn candidates(
        &mut self,
        board: &Grid,
        rules: &Rules,
        with_techniques: bool,
        budget: &Budget,
    ) -> Result<Marks, Exhausted> {
        let Some(compact) = Board::from_grid(board) else {
            return Marks::basic(board, rules, budget);
        };
        if rules.is_classic() {
            let marks = logic::candidates(&compact, Geometry::classic(), with_techniques, budget)?;
            return Ok(Marks::of_candidates(&compact, &marks, with_techniques));
        }
        match Geometry::for_rules(rules).filter(|_| with_techniques) {
            Some(geometry) => {
                let marks = logic::candidates(&compact, &geometry, true, budget)?;
                Ok(Marks::of_candidates(&compact, &marks, true))
            }
            None => Marks::basic(board, rules, budget),
        }
    }

    /// A new puzzle with one solution whose rating is in `ratings` (a level's band:
    /// [`Difficulty::ratings`](crate::engine::logic::Difficulty::ratings)): classic when `variant`
    /// is `None`, else a 9x9 puzzle of that variant; determined by `seed` and `symmetry`
    /// (Killer puzzles have no givens, so no symmetry).
    pub fn generate(
        &mut self,
        variant: Option<Variant>,
        ratings: RangeInclusive<Rating>,
        seed: u64,
        symmetry: Symmetry,
        budget: &Budget,
    ) -> Result<Generated, EngineError> {
        Engine::check_reachable(variant, symmetry, &ratings)?;
        Ok(match variant {
            None => generate::generate_rated(ratings, seed, symmetry, &mut self.classic, budget)?,
            Some(variant) => {
                generate_variant_rated(variant, ratings, seed, symmetry, &mut self.general, budget)?
            }
        })
    }

    /// A classic puzzle rated in `ratings` whose givens are exactly `pattern`'s cells.
    pub fn generate_in_pattern(
        &mut self,
        pattern: Pattern,
        ratings: RangeInclusive<Rating>,
        seed: u64,
        budget: &Budget,
    ) -> Result<Generated, EngineError> {
        refuse_above("classic", Engine::highest_in_pattern(), &ratings)?;
        Ok(generate_in_pattern(
            pattern,
            ratings,
            seed,
            &mut self.classic,
            budget,
        )?)
    }

    /// Refuses, before any work, a range that starts above [`Engine::highest_reachable`]:
    /// callers check it as they read a request, so such a request never takes a solver thread.
    pub fn check_reachable(
        variant: Option<Variant>,
        symmetry: Symmetry,
        ratings: &RangeInclusive<Rating>,
    ) -> Result<(), EngineError> {
        // Said with the symmetry where that is what limits the range.
        let kind = match (variant, symmetry) {
            (None, Symmetry::Rotational) => "symmetric classic",
            _ => variant.map_or("classic", Variant::name),
        };
        refuse_above(kind, Engine::highest_reachable(variant, symmetry), ratings)
    }

    /// The highest rating (or bound, for a puzzle beyond the techniques) the generator of
    /// `variant` (classic: `None`) has produced with `symmetry` within the default generation
    /// budget, over 30 seeds (`examples/generate_reach.rs`, BENCHMARKS.md): a range that
    /// starts higher is refused at once, since searching for it would only spend the whole
    /// generation budget. Classic puzzles reach furthest: above what carving reaches they are
    /// planted ([`generate::planted`](crate::engine::generate)), those without symmetry a
    /// little further than those with. Raise it when a generator learns to reach further.
    pub fn highest_reachable(variant: Option<Variant>, symmetry: Symmetry) -> Rating {
        match (variant, symmetry) {
            (None, Symmetry::None) => generate::PLANTED_REACH,
            (None, Symmetry::Rotational) => generate::PLANTED_REACH_ROTATIONAL,
            _ => Engine::highest_carved(variant),
        }
    }

    /// The highest rating a classic puzzle with its givens on a pattern reaches: those are
    /// carved, never planted.
    pub fn highest_in_pattern() -> Rating {
        Engine::highest_carved(None)
    }

    /// The highest rating carving random grids reaches for `variant`, with or without
    /// symmetry, within the default generation budget.
    fn highest_carved(variant: Option<Variant>) -> Rating {
        match variant {
            None => generate::CARVING_REACH,
            Some(Variant::Hyper) => Rating::from_tenths(91),
            Some(Variant::Jigsaw) => Rating::from_tenths(94),
            Some(Variant::X) | Some(Variant::Killer) => Rating::from_tenths(101),
        }
    }

    /// A new puzzle of `variant` with one solution under its rules, minimal but not graded,
    /// determined by `seed` and `symmetry` (Killer puzzles have no givens, so no symmetry).
    pub fn generate_variant(
        &mut self,
        variant: Variant,
        seed: u64,
        symmetry: Symmetry,
        budget: &Budget,
    ) -> Result<Generated, EngineError> {
        Ok(generate_variant(
            variant,
            seed,
            symmetry,
            &mut self.general,
            budget,
        )?)
    }
}

/// Both boards as classic boards, when they are 9x9 under classic rules.
fn classic_pair(board: &Grid, givens: &Grid, rules: &Rules) -> Option<(Board, Board)> {
    match (Board::from_grid(board), Board::from_grid(givens)) {
        (Some(b), Some(g)) if rules.is_classic() => Some((b, g)),
        _ => None,
    }
}

/// [`GenerateError::Unreachable`] for a range starting above `highest`.
fn refuse_above(
    kind: &'static str,
    highest: Rating,
    ratings: &RangeInclusive<Rating>,
) -> Result<(), EngineError> {
    if *ratings.start() > highest {
        return Err(EngineError::NotGenerated(GenerateError::Unreachable {
            kind,
            min: *ratings.start(),
            max: *ratings.end(),
            highest,
        }));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::budget::{Cancel, Stop, CHECK_EVERY};
    use crate::engine::model::grid::Shape;
    use crate::engine::model::grid::{Cell, Digit};
    use crate::engine::model::rules::Cage;
    use std::time::Duration;

    const SEED: &str =
        "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";

    fn puzzle(line: &str) -> Puzzle {
        Puzzle::classic(Grid::from_line(line).unwrap()).unwrap()
    }

    #[test]
    fn classic_ranges_are_refused_only_above_what_planted_puzzles_reach() {
        let from = |tenths| Rating::from_tenths(tenths)..=Rating::from_tenths(u16::MAX);
        for (symmetry, highest) in [(Symmetry::None, 100), (Symmetry::Rotational, 99)] {
            assert!(Engine::check_reachable(None, symmetry, &from(highest)).is_ok());
            assert!(
                Engine::check_reachable(None, symmetry, &from(highest + 1)).is_err(),
                "{symmetry:?}"
            );
        }
    }

    #[test]
    fn classic_and_general_puzzles_get_the_same_kind_of_answer() {
        let mut engine = Engine::new();
        let classic = engine
            .count(&puzzle(SEED), 2, &Budget::unlimited())
            .unwrap();
        assert_eq!(classic.count, 1);
        assert_eq!(
            classic.first.unwrap().to_line(),
            "957214386123689457468357129271563894539841672684972513315726948746198235892435761"
        );
        let four = engine
            .count(&puzzle("1.....3..4.....2"), 2, &Budget::unlimited())
            .unwrap();
        assert_eq!(
            four.first.unwrap().to_rows(),
            ["1324", "4231", "2413", "3142"]
        );
        let open = engine
            .count(&puzzle(&".".repeat(81)), 2, &Budget::unlimited())
            .unwrap();
        let (a, b) = (open.first.unwrap(), open.second.unwrap());
        assert!(!a.differences(&b).is_empty());
    }

    #[test]
    fn nine_by_nine_only_operations_say_so_for_other_sizes() {
        let mut engine = Engine::new();
        let killer = Puzzle::with_cages(
            Grid::from_line(&".".repeat(16)).unwrap(),
            vec![Cage {
                sum: Some(3),
                cells: vec![(0, 0), (0, 1)],
            }],
        )
        .unwrap();
        let err = engine.grade(&killer, &Budget::unlimited()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "grading covers 9x9 puzzles of houses and sums (rows, columns, boxes or Jigsaw \
             regions, diagonals, windows, disjoint groups, Killer cages with sums); this one \
             is 4x4 Killer"
        );
        let four = Grid::from_line(&".".repeat(16)).unwrap();
        let marks = engine
            .candidates(
                &four,
                &Rules::classic(four.shape()),
                true,
                &Budget::unlimited(),
            )
            .unwrap();
        assert_eq!(
            marks.digits(Cell::at(0, 0)).len(),
            4,
            "basic marks on other sizes"
        );
        assert!(!marks.techniques_applied());
        let nine = Grid::from_line(SEED).unwrap();
        let x = Rules::new(
            Shape::NINE,
            crate::engine::RuleSpec {
                diagonals: true,
                ..Default::default()
            },
        )
        .unwrap();
        // An empty X board has many solutions: the general hint says so.
        let empty = Grid::empty(Shape::NINE);
        let hint = engine
            .hint(&empty, &empty, &x, &Budget::unlimited())
            .unwrap();
        assert_eq!(hint, Hint::MultipleSolutions);
        let err = engine
            .hint(
                &nine,
                &four,
                &Rules::classic(Shape::NINE),
                &Budget::unlimited(),
            )
            .unwrap_err();
        assert_eq!(
            err,
            EngineError::SizeMismatch {
                board: 9,
                givens: 4
            }
        );
    }

    /// One of the hardest known puzzles: beyond the dynamic forcing chains.
    const BEYOND: &str =
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
    /// Hard (SE 9.x), but rated by the dynamic chains after a long solve.
    const HARD_CLASSIC: &str =
        "1.......2....1..3...5..34....2..1..4....8.7..6..9.......1..5.4.8.....5..95..6....";

    /// A budget that covers counting `line`'s solutions and `more` units beyond.
    fn after_the_count(engine: &mut Engine, line: &str, more: u64) -> Budget {
        let counting = Budget::unlimited();
        engine.count(&puzzle(line), 2, &counting).unwrap();
        Budget::work(counting.used() + more)
    }

    #[test]
    fn an_unfinished_grade_gives_a_bound_not_a_rating() {
        use crate::engine::logic::{Difficulty, Stopped};
        let mut engine = Engine::new();
        // No technique finishes it: at least 9.5 (SE's nested forcing chains), whatever was
        // reached.
        let (_, grade) = engine.grade(&puzzle(BEYOND), &Budget::unlimited()).unwrap();
        let grade = grade.unwrap();
        assert_eq!(grade.stopped(), Some(Stopped::NoTechnique));
        assert_eq!(grade.rating(), None);
        assert_eq!(grade.lower_bound(), Rating::from_tenths(95), "{grade:?}");
        assert_eq!(grade.difficulty(), Some(Difficulty::Extreme));
        assert!(grade.needs_guessing());
        // Out of work after the count: what was reached, no rating and no level.
        let budget = after_the_count(&mut engine, HARD_CLASSIC, 2_000);
        let (counted, grade) = engine.grade(&puzzle(HARD_CLASSIC), &budget).unwrap();
        assert!(counted.is_unique());
        let grade = grade.unwrap();
        assert_eq!(grade.stopped(), Some(Stopped::Budget));
        assert_eq!(grade.rating(), None);
        assert_eq!(grade.difficulty(), None, "{grade:?}");
        assert!(!grade.needs_guessing(), "not known to need guessing");
        // With the work it needs, the same puzzle is rated.
        let (_, whole) = engine
            .grade(&puzzle(HARD_CLASSIC), &Budget::unlimited())
            .unwrap();
        let whole = whole.unwrap();
        assert!(whole.rating().is_some());
        assert!(whole.rating().unwrap() >= grade.lower_bound());
    }

    #[test]
    fn a_hint_out_of_work_reveals_a_cell_of_the_known_solution() {
        use crate::engine::logic::hint::RevealWhy;
        let mut engine = Engine::new();
        let grid = Grid::from_line(HARD_CLASSIC).unwrap();
        let classic = Rules::classic(Shape::NINE);
        let solution = engine
            .count(&puzzle(HARD_CLASSIC), 1, &Budget::unlimited())
            .unwrap()
            .first
            .unwrap();
        // Each hint may spend a little on logic after the count: the easy steps fit, and the
        // first hard one does not. The hint then gives a cell of the solution away.
        let mut board = grid.clone();
        for _ in 0..81 {
            let budget = after_the_count(&mut engine, HARD_CLASSIC, 2_000);
            match engine.hint(&board, &grid, &classic, &budget).unwrap() {
                Hint::Step { step, .. } => {
                    for (cell, digit) in step.placements {
                        board.set(cell, Some(digit)).unwrap();
                    }
                }
                Hint::Reveal {
                    pos, digit, why, ..
                } => {
                    assert_eq!(why, RevealWhy::Budget);
                    assert_eq!(solution.grid().get(pos), Some(digit));
                    assert!(board.get(pos).is_none());
                    return;
                }
                other => panic!("expected a step or a revealed cell, got {other:?}"),
            }
        }
        panic!("the hard part was never reached: {board:?}");
    }

    /// Every empty cell's marks keep the solution's digit: the marks of a position of a
    /// generated Killer at every level (its empty start, then with a third and two thirds of
    /// the solution filled in), with and without techniques, and a one-cell cage's digit.
    #[test]
    fn killer_pencil_marks_keep_every_digit_of_the_solution() {
        use crate::engine::logic::Difficulty;
        use crate::engine::random::SplitMix64;
        let mut engine = Engine::new();
        for (level, difficulty) in Difficulty::ALL.into_iter().enumerate() {
            let made = engine
                .generate(
                    Some(Variant::Killer),
                    difficulty.ratings(),
                    level as u64,
                    generate::Symmetry::None,
                    &Budget::unlimited(),
                )
                .unwrap();
            let solution = made.solution.grid();
            let mut rng = SplitMix64::new(level as u64);
            let mut board = made.puzzle.grid().clone();
            for filled in [0, 27, 54] {
                while board.given_count() < filled {
                    let cell = Cell::at(rng.below(9), rng.below(9));
                    board.set(cell, solution.get(cell)).unwrap();
                }
                for techniques in [false, true] {
                    let marks = engine
                        .candidates(
                            &board,
                            made.puzzle.rules(),
                            techniques,
                            &Budget::unlimited(),
                        )
                        .unwrap();
                    for cell in Shape::NINE.all_cells().filter(|&c| board.get(c).is_none()) {
                        let digit = solution.get(cell).unwrap();
                        assert!(
                            marks.digits(cell).contains(&digit),
                            "{difficulty:?}, {filled} filled, techniques {techniques}: {cell} \
                             lost {digit} (marks {:?})",
                            marks.digits(cell)
                        );
                    }
                }
            }
        }
        let one_cell = Rules::for_cages(
            Shape::NINE,
            vec![Cage {
                sum: Some(3),
                cells: vec![(1, 0)],
            }],
        )
        .unwrap();
        for techniques in [false, true] {
            let marks = engine
                .candidates(
                    &Grid::empty(Shape::NINE),
                    &one_cell,
                    techniques,
                    &Budget::unlimited(),
                )
                .unwrap();
            assert_eq!(marks.digits(Cell::at(1, 0)), vec![Digit::new(3).unwrap()]);
        }
    }

    /// A 25x25 board of forty 7-cell cages from the shifted-rows grid: cheap to describe,
    /// expensive to search (each propagation scans thousands of cage-sum sets).
    fn big_killer() -> Puzzle {
        let digit = |r: usize, c: usize| ((5 * (r % 5) + r / 5 + c) % 25 + 1) as u32;
        let cages = (0..40)
            .map(|k| {
                let (r, start) = (k / 3, (k % 3) * 7);
                let cells: Vec<(usize, usize)> = (start..start + 7).map(|c| (r, c)).collect();
                let sum = cells.iter().map(|&(r, c)| digit(r, c)).sum();
                Cage {
                    sum: Some(sum),
                    cells,
                }
            })
            .collect();
        Puzzle::with_cages(Grid::empty(Shape::TWENTY_FIVE), cages).unwrap()
    }

    #[test]
    fn a_worst_case_for_each_engine_stops_at_its_work_budget() {
        let mut engine = Engine::new();
        for (name, expensive) in [
            ("open 9x9", puzzle(&".".repeat(81))),
            ("25x25 Killer", big_killer()),
        ] {
            // Enough for the general solver's one-off cage-sum table (about 110,000 units for
            // 25x25, charged before it is built) and a good deal of search.
            let budget = Budget::work(250_000);
            let err = engine.count(&expensive, u32::MAX, &budget).unwrap_err();
            assert_eq!(err.stop, Stop::Work, "{name}");
            // A charge is checked once made, so the overshoot is one charge at most: a guess,
            // a propagation sweep, or the general solver's layout.
            assert!(budget.used() < 250_000 + 5_000, "{name}: {}", budget.used());
            // The engine is whole afterwards: the next search on it is right.
            let counted = engine
                .count(&puzzle(SEED), 2, &Budget::unlimited())
                .unwrap();
            assert_eq!(counted.count, 1);
        }
    }

    /// Cancellation is counted in work units, not milliseconds: a search whose flag is up
    /// stops at its next check, within [`CHECK_EVERY`] units and one charge (how long a unit
    /// takes is the benchmarks' business), and a flag raised while a search runs on another
    /// thread ends it. No bound here depends on how fast the build or the machine is.
    #[test]
    fn a_cancelled_search_stops_at_its_next_check_in_either_engine() {
        // Open boards that would take a very long time to count completely.
        for line in [".".repeat(81), ".".repeat(256)] {
            let open = puzzle(&line);
            let cancel = Cancel::new();
            cancel.cancel();
            // A work budget only as a backstop, far above what a stop at the next check
            // spends: a cancel that went unnoticed ends as `Stop::Work`, not as a hang.
            let budget = Budget::work(1_000_000).with_cancel(cancel);
            let err = Engine::new().count(&open, u32::MAX, &budget).unwrap_err();
            assert_eq!(err.stop, Stop::Cancelled);
            assert!(
                budget.used() <= CHECK_EVERY + 5_000,
                "{} units spent after the cancel",
                budget.used()
            );

            let cancel = Cancel::new();
            let (started, running) = std::sync::mpsc::channel();
            let (done, finished) = std::sync::mpsc::channel();
            let searcher = {
                let cancel = cancel.clone();
                std::thread::spawn(move || {
                    let budget = Budget::unlimited().with_cancel(cancel);
                    started.send(()).unwrap();
                    let stop = Engine::new().count(&open, u32::MAX, &budget).map(|_| ());
                    done.send(stop).unwrap();
                })
            };
            running.recv().unwrap();
            cancel.cancel();
            // A deadline instead of a hang if the flag were ignored (the search would go on
            // for hours): generous, it only has to be finite.
            let stop = finished
                .recv_timeout(Duration::from_secs(120))
                .expect("the search stops once cancelled");
            assert_eq!(stop.unwrap_err().stop, Stop::Cancelled);
            searcher.join().unwrap();
        }
    }
}
