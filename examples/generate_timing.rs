//! Generation latency per level: p50 / p99 / max over a range of seeds, with the hit rate (a
//! miss is an error after the service's default generation work budget), the average number
//! of puzzles rated per hit and the p99 of work units charged.
//!
//! ```text
//! cargo run --release --example generate_timing -- [seeds=50] [level ...]
//! ```
//! With levels named (e.g. `extreme`), only those are measured.

use std::time::{Duration, Instant};

use sudoku_service::engine::{Budget, Difficulty, Engine, Symmetry};
use sudoku_service::http::config::DEFAULT_GENERATE_WORK_BUDGET;

fn main() {
    let seeds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let named: Vec<Difficulty> = std::env::args()
        .skip(2)
        .filter_map(|name| Difficulty::from_name(&name))
        .collect();
    let levels: Vec<Difficulty> = if named.is_empty() {
        Difficulty::ALL.to_vec()
    } else {
        named
    };
    println!(
        "{:<8} {:<10} {:>9} {:>9} {:>9} {:>6} {:>9} {:>7} {:>10}",
        "target", "symmetry", "p50 ms", "p99 ms", "max ms", "hit", "ratings", "clues", "p99 work"
    );
    for symmetry in [Symmetry::None, Symmetry::Rotational] {
        for &difficulty in &levels {
            let mut engine = Engine::new();
            let mut times = Vec::new();
            let mut work = Vec::new();
            let (mut hits, mut attempts, mut clues) = (0, 0, 0);
            for seed in 0..seeds {
                let start = Instant::now();
                let budget = Budget::work(DEFAULT_GENERATE_WORK_BUDGET);
                let result = engine.generate(difficulty.ratings(), seed, symmetry, &budget);
                times.push(start.elapsed());
                work.push(budget.used());
                if let Ok(g) = result {
                    hits += 1;
                    attempts += u64::from(g.ratings);
                    clues += g.puzzle.given_count() as u64;
                }
            }
            times.sort();
            work.sort();
            let pct = |p: f64| -> Duration {
                let i = ((times.len() as f64 - 1.0) * p).round() as usize;
                times[i]
            };
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            println!(
                "{:<8} {:<10} {:>9.2} {:>9.2} {:>9.2} {:>3}/{:<2} {:>9.1} {:>7.1} {:>10}",
                difficulty.name(),
                format!("{symmetry:?}"),
                ms(pct(0.5)),
                ms(pct(0.99)),
                ms(times[times.len() - 1]),
                hits,
                seeds,
                attempts as f64 / hits.max(1) as f64,
                clues as f64 / hits.max(1) as f64,
                work[((work.len() - 1) as f64 * 0.99).round() as usize],
            );
        }
    }
}
