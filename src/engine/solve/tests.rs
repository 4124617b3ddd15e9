//! Cross-module tests of the variant engine: known puzzles per size, killers, agreement with
//! the band solver. Solutions are checked with [`conflicts`] and plain cage arithmetic, which
//! share no code with the search.

use crate::engine::budget::{Budget, Stop};
use crate::engine::generate::killer::random_killer;
use crate::engine::model::board::{Board, ClassicPuzzle};
use crate::engine::model::constraints::boxes::BOX;
use crate::engine::model::constraints::diagonals::DIAGONAL;
use crate::engine::model::constraints::regions::REGION;
use crate::engine::model::constraints::windows::WindowsNeedNine;
use crate::engine::model::grid::{Cell, Digit, Grid, Shape};
use crate::engine::model::puzzle::{Counted, Puzzle};
use crate::engine::model::rules::{Cage, Cages, RuleSpec, Rules, RulesError};
use crate::engine::model::validate::conflicts;
use crate::engine::model::validate::UnitKind;
use crate::engine::random::SplitMix64;
use crate::engine::solve::band::Solver;
use crate::engine::solve::general::GeneralSolver;

fn cell(row: usize, col: usize) -> Cell {
    Cell::new(row, col).unwrap()
}

fn killer(grid: Grid, cages: Cages) -> Puzzle {
    Puzzle::new(grid, Rules::killer(cages)).unwrap()
}

fn count(puzzle: &Puzzle, limit: u32) -> Counted {
    GeneralSolver::new()
        .count_solutions(puzzle, limit, &Budget::unlimited())
        .unwrap()
}

/// A valid full grid of `shape`: the shifted-rows pattern, digits relabelled by `seed`.
fn full_grid(shape: Shape, seed: u64) -> Grid {
    let n = shape.side();
    let mut relabel: Vec<u8> = (1..=n as u8).collect();
    SplitMix64::new(seed).shuffle(&mut relabel);
    let (br, bc) = (shape.box_rows(), shape.box_cols());
    let mut grid = Grid::empty(shape);
    for r in 0..n {
        for c in 0..n {
            let v = (bc * (r % br) + r / br + c) % n;
            grid.set(cell(r, c), Digit::new(relabel[v])).unwrap();
        }
    }
    assert!(
        conflicts(&grid, &Rules::classic(shape)).is_empty(),
        "{shape}"
    );
    grid
}

/// Empties cells of `full` in a seeded order, keeping each removal only while the puzzle
/// stays unique; stops after `tries` cells were tried.
fn empty_uniquely(full: &Grid, seed: u64, tries: usize) -> Grid {
    let n = full.shape().side();
    let mut order: Vec<usize> = (0..n * n).collect();
    SplitMix64::new(seed).shuffle(&mut order);
    let mut solver = GeneralSolver::new();
    let mut grid = full.clone();
    for &i in order.iter().take(tries) {
        let at = cell(i / n, i % n);
        let keep = grid.get(at);
        grid.set(at, None).unwrap();
        let puzzle = Puzzle::classic(grid.clone()).unwrap();
        if solver
            .count_solutions(&puzzle, 2, &Budget::unlimited())
            .unwrap()
            .count
            != 1
        {
            grid.set(at, keep).unwrap();
        }
    }
    grid
}

/// `solution` is full, breaks no rule, keeps the givens of `puzzle` and meets every cage.
fn assert_solves(puzzle: &Puzzle, solution: &Grid) {
    assert!(solution.is_full());
    // Every house of the puzzle's rules (diagonals, windows, regions, cages included).
    assert!(conflicts(solution, puzzle.rules()).is_empty());
    for (at, d) in puzzle.grid().givens() {
        assert_eq!(solution.get(at), Some(d), "given at {at}");
    }
    for (k, cage) in puzzle.rules().cages().cages().iter().enumerate() {
        let digits: Vec<u8> = cage
            .cells()
            .iter()
            .map(|&at| solution.get(at).unwrap().get())
            .collect();
        let sum: u32 = digits.iter().map(|&d| u32::from(d)).sum();
        assert_eq!(Some(sum), cage.sum(), "cage {}", k + 1);
        let mut seen = digits.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), digits.len(), "cage {} repeats a digit", k + 1);
    }
}

fn check_unique_puzzle(shape: Shape, seed: u64, tries: usize, min_empty: usize) {
    let full = full_grid(shape, seed);
    let grid = empty_uniquely(&full, seed, tries);
    let empty = shape.cells() - grid.given_count();
    assert!(empty >= min_empty, "{shape}: only {empty} cells emptied");
    let puzzle = Puzzle::classic(grid).unwrap();
    let counted = count(&puzzle, 2);
    assert_eq!(counted.count, 1);
    let first = counted.first.unwrap();
    assert_eq!(first.grid(), &full);
    assert_solves(&puzzle, first.grid());
}

#[test]
fn four_by_four_unique_puzzle() {
    check_unique_puzzle(Shape::FOUR, 1, 16, 8);
    let puzzle =
        Puzzle::classic(Grid::from_rows(&["1...", "..2.", ".3..", "...4"]).unwrap()).unwrap();
    let counted = count(&puzzle, 5);
    assert!(counted.count >= 1);
    assert_solves(&puzzle, counted.first.unwrap().grid());
}

#[test]
fn six_by_six_unique_puzzle() {
    check_unique_puzzle(Shape::SIX, 2, 36, 18);
}

#[test]
fn nine_by_nine_unique_puzzle() {
    check_unique_puzzle(Shape::NINE, 3, 81, 45);
}

#[test]
fn sixteen_by_sixteen_unique_puzzle() {
    check_unique_puzzle(Shape::SIXTEEN, 4, 160, 100);
}

#[test]
fn twenty_five_by_twenty_five_lightly_emptied_solves() {
    let full = full_grid(Shape::TWENTY_FIVE, 5);
    let mut grid = full.clone();
    let mut order: Vec<usize> = (0..625).collect();
    SplitMix64::new(5).shuffle(&mut order);
    for &i in &order[..250] {
        grid.set(cell(i / 25, i % 25), None).unwrap();
    }
    let puzzle = Puzzle::classic(grid).unwrap();
    let counted = GeneralSolver::new()
        .solve(&puzzle, &Budget::work(100_000))
        .unwrap();
    assert_eq!(counted.count, 1);
    assert_solves(&puzzle, counted.first.unwrap().grid());
}

#[test]
fn empty_four_by_four_has_288_grids_and_reaches_any_lower_limit() {
    let puzzle = Puzzle::classic(Grid::empty(Shape::FOUR)).unwrap();
    let two = count(&puzzle, 2);
    assert_eq!(two.count, 2);
    let (first, second) = (two.first.unwrap(), two.second.unwrap());
    assert_ne!(first, second);
    assert_solves(&puzzle, second.grid());
    assert_eq!(count(&puzzle, 10).count, 10);
    assert_eq!(count(&puzzle, 1000).count, 288);
    assert_eq!(count(&puzzle, 0).count, 1);
}

#[test]
fn the_budget_stops_the_search() {
    let puzzle = Puzzle::classic(Grid::empty(Shape::SIXTEEN)).unwrap();
    let mut solver = GeneralSolver::new();
    let tiny = Budget::work(3);
    let stopped = solver
        .count_solutions(&puzzle, 1_000_000, &tiny)
        .unwrap_err();
    assert_eq!(stopped.stop, Stop::Work);
    assert_eq!(tiny.stopped(), Some(Stop::Work));
    // The same solver with more budget finds a first solution.
    let counted = solver.solve(&puzzle, &Budget::work(100_000)).unwrap();
    assert_solves(&puzzle, counted.first.unwrap().grid());
}

#[test]
fn contradictory_puzzles_have_no_solution() {
    // Row 1 needs a 4 at column 4, column 4 already has one.
    let grid = Grid::from_rows(&["123.", "....", "....", "...4"]).unwrap();
    let counted = count(&Puzzle::classic(grid).unwrap(), 2);
    assert_eq!(counted.count, 0);
    assert!(counted.first.is_none());
}

/// Cages of `full`: the grid cut into horizontal runs of `len` cells (row-contiguous).
fn row_run_cages(full: &Grid, len: usize) -> Cages {
    let n = full.shape().side();
    let mut list = Vec::new();
    for r in 0..n {
        let mut c = 0;
        while c < n {
            let end = (c + len).min(n);
            let cells: Vec<(usize, usize)> = (c..end).map(|c| (r, c)).collect();
            let sum = cells
                .iter()
                .map(|&(r, c)| u32::from(full.get(cell(r, c)).unwrap().get()))
                .sum();
            list.push(Cage {
                sum: Some(sum),
                cells,
            });
            c = end;
        }
    }
    Cages::new(full.shape(), list).unwrap()
}

#[test]
fn killer_cages_on_other_sizes_solve() {
    for (shape, len, seed) in [
        (Shape::FOUR, 2, 1),
        (Shape::SIX, 3, 2),
        (Shape::SIXTEEN, 4, 3),
    ] {
        let full = full_grid(shape, seed);
        let cages = row_run_cages(&full, len);
        let puzzle = killer(Grid::empty(shape), cages);
        let budget = Budget::unlimited();
        let counted = GeneralSolver::new().solve(&puzzle, &budget).unwrap();
        assert_eq!(counted.count, 1, "{shape}");
        assert_solves(&puzzle, counted.first.unwrap().grid());
    }
}

#[test]
fn large_cages_beyond_the_table_use_bounds() {
    // 25x25 cages of 10 cells (the table stops at 7) on a lightly emptied grid.
    let full = full_grid(Shape::TWENTY_FIVE, 9);
    let cages = row_run_cages(&full, 10);
    assert_eq!(cages.max_size(), 10);
    let mut grid = full.clone();
    let mut order: Vec<usize> = (0..625).collect();
    SplitMix64::new(9).shuffle(&mut order);
    for &i in &order[..200] {
        grid.set(cell(i / 25, i % 25), None).unwrap();
    }
    let puzzle = killer(grid, cages);
    let counted = GeneralSolver::new()
        .solve(&puzzle, &Budget::work(1_000_000))
        .unwrap();
    assert_eq!(counted.count, 1);
    assert_solves(&puzzle, counted.first.unwrap().grid());
}

#[test]
fn killers_without_givens_have_one_solution_that_meets_every_cage() {
    for seed in 1..=3 {
        let made = random_killer(seed);
        let puzzle = made.puzzle();
        assert_eq!(puzzle.grid().given_count(), 0);
        let cages = puzzle.rules().cages();
        assert!(cages.cages().iter().all(|c| c.cells().len() <= 5));
        let cells: usize = cages.cages().iter().map(|c| c.cells().len()).sum();
        assert_eq!(cells, 81, "cages cover the grid");
        let counted = count(&puzzle, 2);
        assert_eq!(counted.count, 1, "seed {seed}");
        let first = counted.first.unwrap();
        assert_eq!(first.grid(), &made.solution);
        assert_solves(&puzzle, first.grid());
    }
    assert_eq!(random_killer(7), random_killer(7));
}

#[test]
fn a_wrong_cage_sum_makes_a_killer_unsolvable() {
    let full = full_grid(Shape::FOUR, 11);
    let mut list: Vec<Cage> = row_run_cages(&full, 2)
        .cages()
        .iter()
        .map(|c| Cage {
            sum: c.sum(),
            cells: c.cells().iter().map(|at| (at.row(), at.col())).collect(),
        })
        .collect();
    // Swap in a different but achievable sum for one pair: no grid can meet every cage.
    list[0].sum = list[0].sum.map(|sum| if sum == 3 { 4 } else { sum - 1 });
    let puzzle = killer(
        Grid::empty(Shape::FOUR),
        Cages::new(Shape::FOUR, list).unwrap(),
    );
    assert_eq!(count(&puzzle, 2).count, 0);
}

#[test]
fn classic_nine_by_nine_agrees_with_the_band_solver() {
    let what = "the general solver's agreement with the band solver on 50 puzzles";
    let Some(path) = crate::test_data::shared_data("unbiased_first1000.txt", what) else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("readable data file");
    let mut fast = Solver::new();
    let mut checked = 0;
    for line in text.lines().take(50) {
        let board = Board::from_line(line).unwrap();
        let expected = fast
            .count_solutions(&ClassicPuzzle::new(board).unwrap(), 2, &Budget::unlimited())
            .unwrap();
        let puzzle = Puzzle::classic(board.to_grid()).unwrap();
        let got = count(&puzzle, 2);
        assert_eq!(got.count, expected.count, "{line}");
        let want = expected.first.map(|s| s.to_rows());
        assert_eq!(got.first.map(|s| s.to_rows()), want, "{line}");
        checked += 1;
    }
    assert_eq!(checked, 50);
}

#[test]
fn cages_that_break_a_unit_total_make_the_puzzle_impossible() {
    let pair = |sum, cells: &[(usize, usize)]| Cage {
        sum: Some(sum),
        cells: cells.to_vec(),
    };
    // Row 1 of a 4x4 filled by two cages making 14, not 1 + 2 + 3 + 4 = 10.
    let over = vec![pair(7, &[(0, 0), (0, 1)]), pair(7, &[(0, 2), (0, 3)])];
    // Row 1 with cages making 11 on three cells: the fourth cell would need -1.
    let beyond = vec![pair(7, &[(0, 0), (0, 1)]), pair(4, &[(0, 2)])];
    for list in [over, beyond] {
        let cages = Cages::new(Shape::FOUR, list).unwrap();
        let counted = count(&killer(Grid::empty(Shape::FOUR), cages), 2);
        assert_eq!(counted.count, 0);
        assert_eq!(counted.stats.guesses, 0);
    }
}

#[test]
fn the_unit_total_rule_places_the_last_cell_of_a_row() {
    // Row 1 of a 9x9: cages 1+2+3+4+5+6+7+8 = 36 over eight cells, so the ninth is 9.
    let cages = Cages::new(
        Shape::NINE,
        vec![Cage {
            sum: Some(36),
            cells: (0..8).map(|c| (0, c)).collect(),
        }],
    )
    .unwrap();
    let puzzle = killer(Grid::empty(Shape::NINE), cages);
    let counted = count(&puzzle, 1);
    let first = counted.first.unwrap();
    assert_eq!(first.grid().get(cell(0, 8)), Digit::new(9));
    assert_solves(&puzzle, first.grid());
}

#[test]
fn cages_that_break_a_run_of_rows_make_the_puzzle_impossible() {
    // 6x6, rows 1-3 cut into six vertical triples: no cage lies inside one row or box, so
    // only the rule on runs of rows sees that 6 x 12 = 72 is not 3 x 21 = 63.
    let list = (0..6)
        .map(|c| Cage {
            sum: Some(12),
            cells: vec![(0, c), (1, c), (2, c)],
        })
        .collect();
    let cages = Cages::new(Shape::SIX, list).unwrap();
    let counted = count(&killer(Grid::empty(Shape::SIX), cages), 2);
    assert_eq!(counted.count, 0);
    assert_eq!(counted.stats.guesses, 0);
}

/// The rules a spec describes for `shape` (valid by construction in these tests).
fn rules(shape: Shape, spec: RuleSpec) -> Rules {
    Rules::new(shape, spec).unwrap_or_else(|e| panic!("{e}"))
}

/// A 9x9 Jigsaw layout that [`JIGSAW9_SOLUTION`] fills: the boxes, with six pairs of cells
/// holding the same digit traded between neighbouring regions.
const JIGSAW9: [&str; 9] = [
    "111222333",
    "111222363",
    "111222363",
    "444455663",
    "444555663",
    "445555669",
    "777888969",
    "777888999",
    "777888999",
];

const JIGSAW9_SOLUTION: &str =
    "957348216134265879268197534729584163483612957615739428392456781871923645546871392";

fn jigsaw9() -> RuleSpec {
    RuleSpec {
        regions: Some(
            JIGSAW9
                .iter()
                .map(|r| r.chars().map(|c| Some(c.to_string())).collect())
                .collect(),
        ),
        ..RuleSpec::default()
    }
}

#[test]
fn each_variant_solves_an_empty_grid_within_its_houses() {
    let variants = [
        (
            "X",
            RuleSpec {
                diagonals: true,
                ..RuleSpec::default()
            },
        ),
        (
            "Hyper",
            RuleSpec {
                windows: true,
                ..RuleSpec::default()
            },
        ),
        (
            "X Hyper",
            RuleSpec {
                diagonals: true,
                windows: true,
                ..RuleSpec::default()
            },
        ),
    ];
    for (name, spec) in variants {
        let rules = rules(Shape::NINE, spec);
        assert!(!rules.is_classic(), "{name}");
        let puzzle = Puzzle::new(Grid::empty(Shape::NINE), rules).unwrap();
        let counted = count(&puzzle, 2);
        assert_eq!(counted.count, 2, "{name}");
        for solution in [&counted.first, &counted.second] {
            let solution = solution.as_ref().unwrap().grid();
            assert_solves(&puzzle, solution);
            // And the classic check alone would not have caught a broken variant house.
            let houses = puzzle.rules().houses().count();
            assert!(houses > 27 || puzzle.rules().regions().is_some(), "{name}");
        }
    }
}

#[test]
fn diagonals_work_on_every_size() {
    for shape in Shape::ALL.into_iter().filter(|s| s.side() <= 9) {
        let rules = rules(
            shape,
            RuleSpec {
                diagonals: true,
                ..RuleSpec::default()
            },
        );
        let puzzle = Puzzle::new(Grid::empty(shape), rules).unwrap();
        let counted = count(&puzzle, 1);
        assert_eq!(counted.count, 1, "{shape}");
        let solution = counted.first.unwrap();
        assert_solves(&puzzle, solution.grid());
        let side = shape.side();
        let anti: Vec<u8> = (0..side)
            .map(|i| solution.grid().get(cell(i, side - 1 - i)).unwrap().get())
            .collect();
        let mut sorted = anti.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            (1..=side as u8).collect::<Vec<_>>(),
            "{shape}: {anti:?}"
        );
    }
}

#[test]
fn a_variant_house_makes_givens_clash_and_changes_the_count() {
    // Two 5s on the main diagonal: fine in a classic grid, a clash in Sudoku X.
    let mut grid = Grid::empty(Shape::NINE);
    grid.set(cell(0, 0), Digit::new(5)).unwrap();
    grid.set(cell(4, 4), Digit::new(5)).unwrap();
    assert!(Puzzle::classic(grid.clone()).is_ok());
    let x = rules(
        Shape::NINE,
        RuleSpec {
            diagonals: true,
            ..RuleSpec::default()
        },
    );
    let found = conflicts(&grid, &x);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].unit.kind, DIAGONAL);
    assert_eq!(
        found[0].to_string(),
        "digit 5 repeats in diagonal 1: row 1, column 1 and row 5, column 5"
    );
    // Two 7s in one window, in different boxes, rows and columns.
    let mut grid = Grid::empty(Shape::NINE);
    grid.set(cell(1, 1), Digit::new(7)).unwrap();
    grid.set(cell(3, 3), Digit::new(7)).unwrap();
    let hyper = rules(
        Shape::NINE,
        RuleSpec {
            windows: true,
            ..RuleSpec::default()
        },
    );
    let found = conflicts(&grid, &hyper);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].unit.to_string(), "window 1");
}

#[test]
fn jigsaw_regions_replace_the_boxes() {
    let jigsaw = rules(Shape::NINE, jigsaw9());
    let kinds: Vec<UnitKind> = jigsaw.houses().map(|u| u.kind).collect();
    assert_eq!(kinds.len(), 27);
    assert!(kinds.contains(&REGION) && !kinds.contains(&BOX));
    // Rows 4 and 6, columns 4 and 1: boxes 5 and 4 classically, one region here (the fifth
    // region in reading order of first cells).
    let mut grid = Grid::empty(Shape::NINE);
    grid.set(cell(3, 3), Digit::new(4)).unwrap();
    grid.set(cell(5, 0), Digit::new(4)).unwrap();
    assert!(Puzzle::classic(grid.clone()).is_ok());
    let found = conflicts(&grid, &jigsaw);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].unit.to_string(), "region 5");
    // The layout's solution keeps every region; with half its cells emptied, the solver
    // finds a grid that keeps them too, which a classic grid does not.
    let solution = Grid::from_line(JIGSAW9_SOLUTION).unwrap();
    assert!(conflicts(&solution, &jigsaw).is_empty());
    let mut givens = solution.clone();
    let mut order: Vec<usize> = (0..81).collect();
    SplitMix64::new(9).shuffle(&mut order);
    for &i in &order[..45] {
        givens.set(cell(i / 9, i % 9), None).unwrap();
    }
    let puzzle = Puzzle::new(givens, jigsaw.clone()).unwrap();
    let found = count(&puzzle, 2);
    assert!(found.count >= 1);
    assert_solves(&puzzle, found.first.unwrap().grid());
    assert!(!conflicts(&full_grid(Shape::NINE, 3), &jigsaw).is_empty());
}

#[test]
fn windows_exist_only_on_nine_by_nine() {
    let spec = RuleSpec {
        windows: true,
        ..RuleSpec::default()
    };
    assert_eq!(
        Rules::new(Shape::SIXTEEN, spec).unwrap_err(),
        RulesError::WindowsNeedNine(WindowsNeedNine { side: 16 })
    );
}

#[test]
fn variant_killers_meet_cages_and_houses() {
    // A Killer X: the cages of a generated killer, with the diagonals added. Its solution
    // must satisfy both, so it differs from the plain killer's when that breaks a diagonal.
    let killer = random_killer(11);
    let spec = RuleSpec {
        diagonals: true,
        cages: killer
            .rules
            .cages()
            .cages()
            .iter()
            .map(|c| Cage {
                sum: c.sum(),
                cells: c.cells().iter().map(|at| (at.row(), at.col())).collect(),
            })
            .collect(),
        ..RuleSpec::default()
    };
    let puzzle = Puzzle::new(Grid::empty(Shape::NINE), rules(Shape::NINE, spec)).unwrap();
    let counted = count(&puzzle, 2);
    match counted.first {
        Some(solution) => assert_solves(&puzzle, solution.grid()),
        None => assert!(!conflicts(&killer.solution, puzzle.rules()).is_empty()),
    }
}
