//! Prints guesses and dead ends per puzzle per file, modes `one` and `unique`: the search-tree
//! size behind the timings of `examples/throughput.rs`, machine-independent.
//!
//! usage: cargo run --release --example solver_stats -- FILE...

use sudoku_service::engine::classic::{Board, ClassicPuzzle, Solver};
use sudoku_service::engine::Budget;

fn main() {
    println!("| file | puzzles | one: guesses/puzzle | one: dead ends/puzzle | unique: guesses/puzzle | unique: dead ends/puzzle |");
    println!("|---|---:|---:|---:|---:|---:|");
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
        let puzzles: Vec<ClassicPuzzle> = text
            .lines()
            .filter_map(|l| Board::from_line(l).ok())
            .filter_map(|b| ClassicPuzzle::new(b).ok())
            .collect();
        let mut solver = Solver::new();
        let mut row = Vec::new();
        for limit in [1, 2] {
            let (mut guesses, mut dead_ends) = (0u64, 0u64);
            for p in &puzzles {
                let stats = solver
                    .count_solutions(p, limit, &Budget::unlimited())
                    .expect("no budget")
                    .stats;
                guesses += stats.guesses;
                dead_ends += stats.dead_ends;
            }
            let n = puzzles.len() as f64;
            row.push(format!(
                "{:.2} | {:.2}",
                guesses as f64 / n,
                dead_ends as f64 / n
            ));
        }
        let name = path.rsplit('/').next().unwrap_or(&path);
        println!("| {name} | {} | {} | {} |", puzzles.len(), row[0], row[1]);
    }
}
