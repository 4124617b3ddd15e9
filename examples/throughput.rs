//! Prints puzzles/s per file, single thread, in the same table format as `shared/peer-bench`,
//! so that `scripts/bench/solver-vs-peer.sh` can put both side by side.
//!
//! usage: cargo run --release --example throughput -- [--min-secs S] FILE...

use std::hint::black_box;
use std::time::Instant;

use sudoku_service::engine::classic::{Board, ClassicPuzzle, Solver};
use sudoku_service::engine::Budget;

fn load(path: &str) -> Vec<ClassicPuzzle> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| Board::from_line(l).ok())
        .filter_map(|b| ClassicPuzzle::new(b).ok())
        .collect()
}

/// Loops over all puzzles until `min_secs` have passed; puzzles per second.
fn rate(puzzles: &[ClassicPuzzle], min_secs: f64, limit: u32) -> f64 {
    let mut solver = Solver::new();
    let unlimited = Budget::unlimited();
    let start = Instant::now();
    let mut done = 0usize;
    loop {
        for p in puzzles {
            black_box(
                solver
                    .count_solutions(black_box(p), limit, &unlimited)
                    .map(|c| c.count)
                    .ok(),
            );
        }
        done += puzzles.len();
        let secs = start.elapsed().as_secs_f64();
        if secs >= min_secs {
            return done as f64 / secs;
        }
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut min_secs = 2.0;
    if args.first().map(String::as_str) == Some("--min-secs") {
        min_secs = args[1].parse().expect("--min-secs S");
        args.drain(..2);
    }
    println!("| file | puzzles | one: puzzles/s | one: us/puzzle | unique: puzzles/s | unique: us/puzzle |");
    println!("|---|---:|---:|---:|---:|---:|");
    for path in &args {
        let puzzles = load(path);
        let one = rate(&puzzles, min_secs, 1);
        let unique = rate(&puzzles, min_secs, 2);
        let name = path.rsplit('/').next().unwrap_or(path);
        println!(
            "| {name} | {} | {one:.0} | {:.2} | {unique:.0} | {:.2} |",
            puzzles.len(),
            1e6 / one,
            1e6 / unique
        );
    }
}
