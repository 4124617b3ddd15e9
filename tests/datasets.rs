//! The solver against slices of the public puzzle sets in `../shared/data` (skipped, with a
//! line on stderr, when that folder is absent so the crate still tests on its own; a failure
//! instead with `SUDOKU_REQUIRE_DATA=1`, as in CI: see `common::data`).

mod common;

use sudoku_service::engine::{validate, Budget, Engine, Grid, Puzzle};

/// Every `step`-th puzzle of `file`, exactly `take` of them (the file must hold that many);
/// `None` when the data is not there.
fn slice(file: &str, step: usize, take: usize) -> Option<Vec<Puzzle>> {
    let what = format!("datasets: {take} puzzles of {file}");
    let path = common::data::shared_data(file, &what)?;
    let text = std::fs::read_to_string(path).expect("readable data file");
    let puzzles: Vec<Puzzle> = text
        .lines()
        .step_by(step)
        .take(take)
        .map(|l| Puzzle::classic(Grid::from_line(l).expect("well-formed line")).expect("no clash"))
        .collect();
    assert_eq!(puzzles.len(), take, "{file}: too few puzzles");
    Some(puzzles)
}

/// Solves each puzzle, counting to 2, and checks the answer independently of the solver.
fn check(file: &str, step: usize, take: usize, expected_count: u32) {
    let mut engine = Engine::new();
    let unlimited = Budget::unlimited();
    let Some(puzzles) = slice(file, step, take) else {
        return;
    };
    for p in &puzzles {
        let counted = engine.count(p, 2, &unlimited).expect("no limit");
        assert_eq!(counted.count, expected_count, "{file}: {}", p.grid());
        let solution = counted.first.expect("a solvable puzzle");
        assert!(
            validate(solution.grid(), p.rules()).solved,
            "{file}: bad grid {solution}"
        );
        for (cell, digit) in p.grid().givens() {
            assert_eq!(solution.grid().get(cell), Some(digit), "{file}: given lost");
        }
        if expected_count > 1 {
            let second = counted.second.expect("a second solution");
            assert!(validate(second.grid(), p.rules()).solved);
            assert!(!solution.differences(&second).is_empty());
        }
        let one = engine.count(p, 1, &unlimited).expect("no limit");
        assert_eq!(one.count, 1);
    }
}

#[test]
fn seventeen_clue_puzzles_are_unique() {
    check("puzzles_17_clue.txt", 97, 500, 1);
}

#[test]
fn forum_hardest_1905_are_unique() {
    check("forum_hardest_1905_11plus.txt", 97, 500, 1);
}

#[test]
fn forum_hardest_1106_are_unique() {
    check("forum_hardest_1106.txt", 1, 375, 1);
}

#[test]
fn magictour_top1465_are_unique() {
    check("magictour_top1465.txt", 3, 489, 1);
}

#[test]
fn unbiased_are_unique() {
    check("unbiased_first1000.txt", 2, 500, 1);
}

#[test]
fn serg_benchmark_puzzles_have_several_solutions() {
    check("serg_benchmark.txt", 20, 500, 2);
}
