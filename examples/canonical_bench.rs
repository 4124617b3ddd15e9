//! Canonical forms per second on one core, for each shared puzzle file, and the work units
//! they charge (the budget's unit is meant to be about a microsecond: the `ns/unit` column
//! should lie within 500-2,000), with the inputs whose many symmetries make the search
//! longest (a full solution grid, the empty board, a puzzle symmetric under many rearrangements).
//! Also counts the distinct forms, a check that relabelled or rearranged copies in a file
//! are found.
//!
//! ```text
//! cargo run --release --example canonical_bench -- [PUZZLES=20000] [ROUNDS=3]
//! ```

use std::collections::HashSet;
use std::time::Instant;

use sudoku_service::engine::{Budget, Engine, Grid, Puzzle};

const FILES: [&str; 6] = [
    "puzzles_17_clue",
    "unbiased_first1000",
    "magictour_top1465",
    "forum_hardest_1905_11plus",
    "forum_hardest_1106",
    "serg_benchmark",
];

/// Boards whose symmetries make the search branch the most.
const WORST: [(&str, &str); 3] = [
    (
        "solution grid",
        "957348216134265879268197534729584163483612957615739428392456781871923645546871392",
    ),
    (
        "empty board",
        ".................................................................................",
    ),
    (
        "one given per band and stack",
        "1...................................5...................................9........",
    ),
];

fn main() {
    let mut args = std::env::args().skip(1);
    let limit: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(3);
    let engine = Engine::new();
    println!(
        "{:<32} {:>8} {:>10} {:>12} {:>9} {:>9}",
        "input", "puzzles", "distinct", "per second", "units", "ns/unit"
    );
    for name in FILES {
        let path = format!("../shared/data/{name}.txt");
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!("{name:<32} missing ({path})");
            continue;
        };
        let puzzles: Vec<Puzzle> = text
            .lines()
            .take(limit)
            .filter_map(|line| Puzzle::classic(Grid::from_line(line).ok()?).ok())
            .collect();
        row(name, &engine, &puzzles, rounds);
    }
    for (name, line) in WORST {
        let puzzle = Puzzle::classic(Grid::from_line(line).expect("a board")).expect("valid");
        row(name, &engine, &[puzzle], rounds);
    }
}

/// The best of `rounds` timed passes over `puzzles`.
fn row(name: &str, engine: &Engine, puzzles: &[Puzzle], rounds: usize) {
    let mut best = f64::INFINITY;
    let mut units = 0;
    let mut distinct = 0;
    for _ in 0..rounds.max(1) {
        let budget = Budget::unlimited();
        let started = Instant::now();
        let forms: HashSet<String> = puzzles
            .iter()
            .map(|p| {
                engine
                    .canonical(p, &budget)
                    .expect("classic and unlimited")
                    .grid()
                    .to_line()
            })
            .collect();
        best = best.min(started.elapsed().as_secs_f64());
        units = budget.used();
        distinct = forms.len();
    }
    println!(
        "{name:<32} {:>8} {distinct:>10} {:>12.0} {units:>9} {:>9.0}",
        puzzles.len(),
        puzzles.len() as f64 / best,
        best * 1e9 / units.max(1) as f64
    );
}
