//! Generation latency per difficulty: p50 / p99 / max over a range of seeds, with the hit rate
//! and the average number of removal orders tried.
//!
//! ```text
//! cargo run --release --example generate_timing -- [seeds=50]
//! ```

use std::time::{Duration, Instant};

use sudoku_service::engine::{Budget, Difficulty, Engine, Symmetry};

fn main() {
    let seeds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    println!(
        "{:<8} {:<10} {:>9} {:>9} {:>9} {:>6} {:>9} {:>7}",
        "target", "symmetry", "p50 ms", "p99 ms", "max ms", "hit", "attempts", "clues"
    );
    let mut engine = Engine::new();
    for symmetry in [Symmetry::None, Symmetry::Rotational] {
        for difficulty in Difficulty::ALL {
            let mut times = Vec::new();
            let (mut hits, mut attempts, mut clues) = (0, 0, 0);
            for seed in 0..seeds {
                let start = Instant::now();
                let g = engine
                    .generate(difficulty, seed, symmetry, &Budget::unlimited())
                    .expect("no limit");
                times.push(start.elapsed());
                hits += u64::from(g.on_target);
                attempts += u64::from(g.attempts);
                clues += g.puzzle.given_count() as u64;
            }
            times.sort();
            let pct = |p: f64| -> Duration {
                let i = ((times.len() as f64 - 1.0) * p).round() as usize;
                times[i]
            };
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            println!(
                "{:<8} {:<10} {:>9.2} {:>9.2} {:>9.2} {:>3}/{:<2} {:>9.1} {:>7.1}",
                difficulty.name(),
                format!("{symmetry:?}"),
                ms(pct(0.5)),
                ms(pct(0.99)),
                ms(times[times.len() - 1]),
                hits,
                seeds,
                attempts as f64 / seeds as f64,
                clues as f64 / seeds as f64,
            );
        }
    }
}
