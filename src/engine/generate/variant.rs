//! Seeded generation of the variants puzzle sites carry: Killer, Sudoku X, Hyper and Jigsaw,
//! each a 9x9 puzzle with exactly one solution under its rules.
//!
//! # How
//! * **Killer**: [`random_killer_within`]: no givens, cages split until the solution is
//!   unique.
//! * **X and Hyper**: a full grid that obeys the extra houses, found by the general solver
//!   from a few random givens (which makes grids vary with the seed; a draw whose search
//!   finds no solution within [`DRAW_WORK`] units is dropped and another tried: some draws
//!   have none, and proving it can take seconds), then givens are removed in a shuffled
//!   order while exactly one solution remains (the puzzle is then minimal).
//! * **Jigsaw**: a random classic grid, and regions grown from the boxes by random trades:
//!   a cell of region A on B's border and the cell of B holding the same digit change places
//!   when both regions stay connected. Every region still holds each digit once, so the grid
//!   solves the new layout; then givens are removed as above.
//!
//! With [`Symmetry::Rotational`] givens are removed in pairs (a cell and its 180-degree
//! twin). Every count is charged to the caller's [`Budget`]: running out is an error, never
//! a puzzle with several solutions. Deterministic: the same variant, seed and symmetry give
//! the same puzzle on every platform.

use std::ops::RangeInclusive;

use crate::engine::budget::{Budget, Exhausted};
use crate::engine::generate::killer::{generate_killer, random_full_grid, random_killer_within};
use crate::engine::generate::{generate_for, minimal, GenerateError, Generated, Symmetry, Target};
use crate::engine::logic::{Geometry, Rating};
use crate::engine::model::board::{Board, CELLS, SIZE};
use crate::engine::model::grid::{Grid, Shape};
use crate::engine::model::puzzle::{Counted, Puzzle};
use crate::engine::model::rules::{RuleSpec, Rules};
use crate::engine::random::SplitMix64;
use crate::engine::solve::general::GeneralSolver;

/// The rule sets [`generate_variant`] makes puzzles for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Killer,
    /// Sudoku X: both main diagonals are houses.
    X,
    /// Hyper (Windoku): four extra 3x3 windows.
    Hyper,
    /// Irregular regions in place of the boxes.
    Jigsaw,
}

impl Variant {
    pub const ALL: [Variant; 4] = [Variant::Killer, Variant::X, Variant::Hyper, Variant::Jigsaw];

    /// The name used on the wire: `killer`, `x`, `hyper`, `jigsaw`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Killer => "killer",
            Variant::X => "x",
            Variant::Hyper => "hyper",
            Variant::Jigsaw => "jigsaw",
        }
    }
}

/// Random givens tried before solving for an X or Hyper grid: few enough that almost every
/// draw has a solution, enough that the grids differ from seed to seed.
const SEED_GIVENS: usize = 9;
/// Work one draw of random givens may take to reach a full X or Hyper grid (a few
/// milliseconds); a luckier draw is cheaper than a long search.
const DRAW_WORK: u64 = 5_000;
/// Successful region trades for a Jigsaw layout: enough that few boxes survive intact.
const JIGSAW_TRADES: usize = 60;

/// Each variant its own stream: the same seed does not give every variant the same grid.
fn stream(variant: Variant, seed: u64) -> u64 {
    seed ^ (variant as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A puzzle of `variant` for `seed`, minimal but not graded; see the module docs.
pub fn generate_variant(
    variant: Variant,
    seed: u64,
    symmetry: Symmetry,
    solver: &mut GeneralSolver,
    budget: &Budget,
) -> Result<Generated, Exhausted> {
    if variant == Variant::Killer {
        let killer = random_killer_within(seed, budget)?;
        // A Killer's givens are none: its cages say it all.
        return Ok(Generated::from_solution(
            Grid::empty(Shape::NINE),
            killer.rules,
            killer.solution,
        ));
    }
    let mut rng = SplitMix64::new(stream(variant, seed));
    let mut target = VariantTarget::new(variant, solver);
    let grid = target.new_grid(&mut rng, budget)?;
    let (givens, _) = minimal(&grid, symmetry, &mut rng, &mut target, budget)?;
    Ok(Generated::from_solution(
        givens.to_grid(),
        target.rules,
        grid.to_grid(),
    ))
}

/// A puzzle of `variant` whose rating is in `range`, determined by `seed` and `symmetry`:
/// X, Hyper and Jigsaw puzzles by the classic method (carve, then put givens back or move
/// them, see [`crate::engine::generate`]), Killer puzzles by their cages
/// ([`crate::engine::generate::killer::generate_killer`]). Never a puzzle outside the range.
pub fn generate_variant_rated(
    variant: Variant,
    range: RangeInclusive<Rating>,
    seed: u64,
    symmetry: Symmetry,
    solver: &mut GeneralSolver,
    budget: &Budget,
) -> Result<Generated, GenerateError> {
    match variant {
        Variant::Killer => generate_killer(range, seed, solver, budget),
        _ => generate_for(
            &mut VariantTarget::new(variant, solver),
            range,
            stream(variant, seed),
            symmetry,
            budget,
        ),
    }
}

/// X, Hyper or Jigsaw as a generation [`Target`]: the general solver counts, the logic
/// engine grades under the variant's houses.
struct VariantTarget<'a> {
    variant: Variant,
    solver: &'a mut GeneralSolver,
    rules: Rules,
    geometry: Geometry,
}

impl<'a> VariantTarget<'a> {
    fn new(variant: Variant, solver: &'a mut GeneralSolver) -> VariantTarget<'a> {
        let rules = Rules::new(
            Shape::NINE,
            RuleSpec {
                diagonals: variant == Variant::X,
                windows: variant == Variant::Hyper,
                ..RuleSpec::default()
            },
        )
        .unwrap_or_else(|_| unreachable!("diagonals and windows fit a 9x9 grid"));
        // Diagonals and windows are houses only, on 9x9: all `Geometry::for_rules` asks.
        let geometry = Geometry::for_rules(&rules).unwrap_or_else(|| unreachable!("9x9"));
        VariantTarget {
            variant,
            solver,
            rules,
            geometry,
        }
    }
}

impl Target for VariantTarget<'_> {
    fn new_grid(&mut self, rng: &mut SplitMix64, budget: &Budget) -> Result<Board, Exhausted> {
        let grid = match self.variant {
            Variant::Jigsaw => {
                let grid = random_full_grid(rng);
                self.rules = random_regions(&grid, rng);
                // 9x9 regions are houses only: all `Geometry::for_rules` asks.
                self.geometry =
                    Geometry::for_rules(&self.rules).unwrap_or_else(|| unreachable!("9x9"));
                grid
            }
            _ => full_grid(&self.rules, rng, self.solver, budget)?,
        };
        Ok(Board::from_grid(&grid).unwrap_or_else(|| unreachable!("a 9x9 grid")))
    }

    fn count(
        &mut self,
        givens: &Board,
        without: Option<(usize, u8)>,
        limit: u32,
        budget: &Budget,
    ) -> Result<Counted<Board>, Exhausted> {
        let Ok(puzzle) = Puzzle::new(givens.to_grid(), self.rules.clone()) else {
            return Ok(Counted::none());
        };
        let counted = self
            .solver
            .count_solutions_without(&puzzle, without, limit, budget)?;
        Ok(counted.map(|solution| {
            Board::from_grid(solution.grid()).unwrap_or_else(|| unreachable!("a 9x9 grid"))
        }))
    }

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    fn rules(&self) -> Rules {
        self.rules.clone()
    }
}

/// A full grid obeying `rules`, from a few random non-clashing givens.
fn full_grid(
    rules: &Rules,
    rng: &mut SplitMix64,
    solver: &mut GeneralSolver,
    budget: &Budget,
) -> Result<Grid, Exhausted> {
    loop {
        let mut grid = Grid::empty(Shape::NINE);
        let mut cells: Vec<usize> = (0..CELLS).collect();
        rng.shuffle(&mut cells);
        for &index in cells.iter().take(SEED_GIVENS) {
            let cell = Shape::NINE.cell_at(index);
            let digit = crate::engine::model::grid::Digit::new(rng.below(SIZE) as u8 + 1);
            let _ = grid.set(cell, digit);
            if !crate::engine::model::validate::conflicts(&grid, rules).is_empty() {
                let _ = grid.set(cell, None);
            }
        }
        let Ok(puzzle) = Puzzle::new(grid, rules.clone()) else {
            continue;
        };
        let draw = budget.trial(DRAW_WORK);
        let found = solver.solve(&puzzle, &draw);
        budget.absorb(&draw)?;
        if let Ok(Counted {
            first: Some(solution),
            ..
        }) = found
        {
            return Ok(solution.grid().clone());
        }
    }
}

/// Jigsaw rules of regions grown from the boxes by random trades of equal digits between
/// neighbouring regions (see the module docs), each trade kept only when the rules take the
/// regions (both stay connected).
fn random_regions(grid: &Grid, rng: &mut SplitMix64) -> Rules {
    let digits = grid.raw();
    let mut region: Vec<u8> = (0..CELLS)
        .map(|i| Shape::NINE.box_of(i / SIZE, i % SIZE) as u8)
        .collect();
    let regions_of = |region: &[u8]| {
        let rows: Vec<Vec<Option<String>>> = region
            .chunks(SIZE)
            .map(|row| row.iter().map(|r| Some(r.to_string())).collect())
            .collect();
        let spec = RuleSpec {
            regions: Some(rows),
            ..RuleSpec::default()
        };
        Rules::new(Shape::NINE, spec)
    };
    let mut trades = 0;
    // Bounded: a trade fails only on connectivity, which most draws keep. Trades can undo
    // each other back to the boxes (4 layouts in 500), which would be a classic puzzle
    // under a Jigsaw's name: then more trades follow.
    for _ in 0..JIGSAW_TRADES * 50 {
        if trades >= JIGSAW_TRADES && regions_of(&region).is_ok_and(|r| r.regions().is_some()) {
            break;
        }
        let a = rng.below(CELLS);
        let (row, col) = (a / SIZE, a % SIZE);
        let neighbours = [
            (row > 0).then(|| a - SIZE),
            (row + 1 < SIZE).then(|| a + SIZE),
            (col > 0).then(|| a - 1),
            (col + 1 < SIZE).then(|| a + 1),
        ];
        let others: Vec<usize> = neighbours
            .into_iter()
            .flatten()
            .filter(|&n| region[n] != region[a])
            .collect();
        if others.is_empty() {
            continue;
        }
        let (from, to) = (region[a], region[others[rng.below(others.len())]]);
        let Some(b) = (0..CELLS).find(|&i| region[i] == to && digits[i] == digits[a]) else {
            continue;
        };
        region[a] = to;
        region[b] = from;
        if regions_of(&region).is_ok() {
            trades += 1;
        } else {
            region[a] = from;
            region[b] = to;
        }
    }
    // The start (the boxes) is valid and every trade that left it invalid was undone.
    regions_of(&region).unwrap_or_else(|_| unreachable!("every kept trade was checked"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::grid::Cell;
    use crate::engine::model::validate::conflicts;

    fn make(variant: Variant, seed: u64, symmetry: Symmetry) -> Generated {
        generate_variant(
            variant,
            seed,
            symmetry,
            &mut GeneralSolver::new(),
            &Budget::unlimited(),
        )
        .unwrap()
    }

    /// Each variant's test of a removal (one search without the removed digit, in the
    /// general solver) says what counting to 2 says.
    #[test]
    fn a_removal_is_judged_as_counting_to_two_judges_it() {
        for variant in Variant::ALL {
            let mut solver = GeneralSolver::new();
            let mut target = VariantTarget::new(variant, &mut solver);
            let grid = target
                .new_grid(&mut SplitMix64::new(11), &Budget::unlimited())
                .unwrap();
            crate::engine::generate::assert_removals_judged_as_counted(&mut target, &grid, 11);
        }
    }

    /// Each variant's carving of a full grid, with and without symmetry: the removals its
    /// houses' clues decide need no search, and every verdict is what counting to 2 says.
    #[test]
    fn a_removal_forced_by_the_clues_is_judged_as_counting_to_two_judges_it() {
        for variant in Variant::ALL {
            let mut solver = GeneralSolver::new();
            let mut target = VariantTarget::new(variant, &mut solver);
            for seed in 0..3 {
                let grid = target
                    .new_grid(&mut SplitMix64::new(seed), &Budget::unlimited())
                    .unwrap();
                for symmetry in [Symmetry::None, Symmetry::Rotational] {
                    let (by_clues, by_search) =
                        crate::engine::generate::assert_carving_judged_as_counted(
                            &mut target,
                            &grid,
                            seed,
                            symmetry,
                        );
                    assert!(
                        by_clues >= 5 && by_search >= 5,
                        "{variant:?} seed {seed}, {symmetry:?}: \
                         {by_clues} by the clues, {by_search} searched"
                    );
                }
            }
        }
    }

    #[test]
    fn each_variant_gives_a_unique_puzzle_its_solution_obeys() {
        for variant in Variant::ALL {
            let made = make(variant, 3, Symmetry::None);
            let rules = made.puzzle.rules();
            let solution = made.solution.grid();
            assert!(conflicts(solution, rules).is_empty(), "{variant:?}");
            assert!(solution.is_full());
            for (cell, digit) in made.puzzle.grid().givens() {
                assert_eq!(solution.get(cell), Some(digit), "{variant:?}");
            }
            let counted = GeneralSolver::new()
                .count_solutions(&made.puzzle, 2, &Budget::unlimited())
                .unwrap();
            assert_eq!(counted.count, 1, "{variant:?}");
            assert_eq!(counted.first.as_ref(), Some(&made.solution));
            let kind = rules.kind();
            let expected = match variant {
                Variant::Killer => "9x9 Killer",
                Variant::X => "9x9 X",
                Variant::Hyper => "9x9 Hyper",
                Variant::Jigsaw => "9x9 Jigsaw",
            };
            assert_eq!(kind, expected);
        }
    }

    #[test]
    fn carving_leaves_a_minimal_puzzle() {
        let made = make(Variant::X, 8, Symmetry::None);
        let mut solver = GeneralSolver::new();
        for (cell, _) in made.puzzle.grid().givens() {
            let mut fewer = made.puzzle.grid().clone();
            fewer.set(cell, None).unwrap();
            let puzzle = Puzzle::new(fewer, made.puzzle.rules().clone()).unwrap();
            let count = solver
                .count_solutions(&puzzle, 2, &Budget::unlimited())
                .unwrap()
                .count;
            assert_eq!(count, 2, "the given at {cell} could go");
        }
    }

    #[test]
    fn same_seed_same_puzzle_and_seeds_differ() {
        for variant in [Variant::Hyper, Variant::Jigsaw] {
            let a = make(variant, 21, Symmetry::Rotational);
            assert_eq!(a, make(variant, 21, Symmetry::Rotational));
            assert_ne!(a.solution, make(variant, 22, Symmetry::Rotational).solution);
            let grid = a.puzzle.grid();
            for cell in Shape::NINE.all_cells() {
                let twin = Cell::at(8 - cell.row(), 8 - cell.col());
                assert_eq!(grid.get(cell).is_some(), grid.get(twin).is_some());
            }
        }
    }

    #[test]
    fn jigsaw_regions_are_not_just_the_boxes() {
        let made = make(Variant::Jigsaw, 5, Symmetry::None);
        let rules = made.puzzle.rules();
        let moved = Shape::NINE
            .all_cells()
            .filter(|&c| rules.region_of(c) != Shape::NINE.box_of(c.row(), c.col()))
            .count();
        assert!(moved >= 20, "only {moved} cells left their box");
        // Seeds whose trades once undid each other back to the boxes (a classic puzzle
        // named Jigsaw): they trade on now.
        for seed in [2224211100945866, 4649913895927089] {
            let made = make(Variant::Jigsaw, seed, Symmetry::None);
            assert!(made.puzzle.rules().regions().is_some(), "seed {seed}");
        }
    }

    #[test]
    fn the_budget_bounds_generation() {
        let budget = Budget::work(10);
        let err = generate_variant(
            Variant::Jigsaw,
            1,
            Symmetry::None,
            &mut GeneralSolver::new(),
            &budget,
        )
        .unwrap_err();
        assert_eq!(err.stop, crate::engine::budget::Stop::Work);
    }
}
