//! Killer solving latency: 20 (or N) seeded 9x9 killers with no givens, each solved for a
//! first solution and counted to 2 (the uniqueness check). Every puzzle is generated first
//! (not timed); each measurement is the best of `reps` runs on a reused solver, so one-off
//! costs (the sum table, buffer growth) are paid before timing. The last columns are the work
//! units the budget was charged and the time per unit, the calibration of the general
//! solver's meter (a unit is meant to be about a microsecond).
//!
//! ```text
//! cargo run --release --example killer_bench -- [puzzles=20] [reps=5]
//! ```

use std::time::{Duration, Instant};

use sudoku_service::engine::{random_killer, Budget, Engine};

fn main() {
    let mut args = std::env::args().skip(1);
    let puzzles: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let reps: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);

    let gen_start = Instant::now();
    let killers: Vec<_> = (1..=puzzles).map(random_killer).collect();
    let gen_total = gen_start.elapsed();
    let cages: usize = killers.iter().map(|k| k.cages.len()).sum();
    let splits: u32 = killers.iter().map(|k| k.splits).sum();
    println!(
        "{} killers, no givens: {:.1} cages and {:.1} splits on average, generated in {:.1} ms each",
        killers.len(),
        cages as f64 / killers.len() as f64,
        f64::from(splits) / killers.len() as f64,
        gen_total.as_secs_f64() * 1000.0 / killers.len() as f64
    );

    let mut engine = Engine::new();
    println!(
        "{:<8} {:>9} {:>9} {:>9} {:>9} {:>12} {:>10} {:>8}",
        "mode", "p50 ms", "p99 ms", "max ms", "mean ms", "guesses avg", "work avg", "us/unit"
    );
    for (mode, limit) in [("first", 1), ("count2", 2)] {
        let mut times = Vec::new();
        let mut guesses = 0;
        let mut work = 0;
        for killer in &killers {
            let puzzle = killer.puzzle();
            let mut best = Duration::MAX;
            for _ in 0..reps {
                let budget = Budget::unlimited();
                let start = Instant::now();
                let counted = engine.count(&puzzle, limit, &budget).expect("no limit set");
                best = best.min(start.elapsed());
                work += budget.used();
                assert_eq!(counted.count, 1, "generated killers are unique");
                assert_eq!(
                    counted.first.as_ref().map(|s| s.grid()),
                    Some(&killer.solution)
                );
                guesses += counted.stats.guesses;
            }
            times.push(best);
        }
        times.sort();
        let pct = |p: f64| -> Duration {
            let i = ((times.len() as f64 - 1.0) * p).round() as usize;
            times[i]
        };
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let mean = times.iter().map(|&d| ms(d)).sum::<f64>() / times.len() as f64;
        let runs = times.len() as f64 * f64::from(reps);
        println!(
            "{:<8} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>12.1} {:>10.1} {:>8.3}",
            mode,
            ms(pct(0.5)),
            ms(pct(0.99)),
            ms(times[times.len() - 1]),
            mean,
            guesses as f64 / runs,
            work as f64 / runs,
            mean * 1000.0 / (work as f64 / runs)
        );
    }
}
