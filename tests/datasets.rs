//! The solver against slices of the public puzzle sets in `../shared/data` (skipped, with a
//! message, when that folder is absent so the crate still tests on its own).

use std::path::{Path, PathBuf};

use sudoku_service::engine::{validate, Board, Puzzle, Solver};

fn data_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("../shared/data not found: dataset tests skipped");
        None
    }
}

/// Every `step`-th puzzle of `file`, at most `take` of them.
fn slice(file: &str, step: usize, take: usize) -> Vec<Puzzle> {
    let Some(dir) = data_dir() else {
        return Vec::new();
    };
    let text = std::fs::read_to_string(dir.join(file)).expect("readable data file");
    text.lines()
        .step_by(step)
        .take(take)
        .map(|l| Puzzle::new(Board::from_line(l).expect("well-formed line")).expect("no clash"))
        .collect()
}

/// Solves each puzzle, counting to 2, and checks the answer independently of the solver.
fn check(file: &str, step: usize, take: usize, expected_count: u32) {
    let mut solver = Solver::new();
    let puzzles = slice(file, step, take);
    for p in &puzzles {
        let counted = solver.count_solutions(p, 2).expect("no budget set");
        assert_eq!(counted.count, expected_count, "{file}: {}", p.board());
        let solution = counted.first.expect("a solvable puzzle");
        assert!(
            validate(solution.board()).solved,
            "{file}: bad grid {solution}"
        );
        for (pos, digit) in p.board().givens() {
            assert_eq!(solution.board().get(pos), Some(digit), "{file}: given lost");
        }
        let one = solver.solve(p).expect("no budget set");
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
    check("magictour_top1465.txt", 3, 500, 1);
}

#[test]
fn unbiased_are_unique() {
    check("unbiased_first1000.txt", 2, 500, 1);
}

#[test]
fn serg_benchmark_puzzles_have_several_solutions() {
    check("serg_benchmark.txt", 20, 500, 2);
}
