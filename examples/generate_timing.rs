//! Generation latency per level and per variant: p50 / p99 / max over a range of seeds, with
//! the hit rate (a miss is an error after the service's default generation work budget), the
//! average number of puzzles rated per hit, the givens, the p99 of work units charged, and the
//! work of all seeds per hit (misses included): what a puzzle costs, the same on every machine.
//!
//! ```text
//! cargo run --release --example generate_timing -- [seeds=50] [target ...]
//! ```
//! A target is a level (`extreme`: classic), a variant (`jigsaw`: minimal, not graded) or
//! both (`killer:hard`). By default every classic level, then every variant at every level.

use std::time::{Duration, Instant};

use sudoku_service::engine::{Budget, Difficulty, Engine, Symmetry, Variant};
use sudoku_service::http::config::DEFAULT_GENERATE_WORK_BUDGET;

/// The service's allocator (see `src/main.rs`): `/v1/generate` and the bank CLI run on it,
/// and a grade allocates often enough for the allocator to show in its time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What one row measures: a variant (or classic) at a level (or unrated).
#[derive(Clone, Copy)]
struct Target {
    variant: Option<Variant>,
    level: Option<Difficulty>,
}

impl Target {
    fn parse(name: &str) -> Option<Target> {
        let variant_named = |n: &str| Variant::ALL.into_iter().find(|v| v.name() == n);
        match name.split_once(':') {
            Some((v, l)) => Some(Target {
                variant: Some(variant_named(v)?),
                level: Some(Difficulty::from_name(l)?),
            }),
            None => match Difficulty::from_name(name) {
                Some(level) => Some(Target {
                    variant: None,
                    level: Some(level),
                }),
                None => Some(Target {
                    variant: Some(variant_named(name)?),
                    level: None,
                }),
            },
        }
    }

    fn name(self) -> String {
        match (self.variant, self.level) {
            (None, Some(level)) => level.name().to_string(),
            (Some(v), None) => v.name().to_string(),
            (Some(v), Some(level)) => format!("{}:{}", v.name(), level.name()),
            (None, None) => "classic".to_string(),
        }
    }

    /// One generation: whether it hit, puzzles rated, givens.
    fn run(
        self,
        engine: &mut Engine,
        seed: u64,
        symmetry: Symmetry,
        budget: &Budget,
    ) -> Option<(u32, usize)> {
        match (self.variant, self.level) {
            (Some(variant), None) => engine
                .generate_variant(variant, seed, symmetry, budget)
                .ok()
                .map(|g| (0, g.puzzle.grid().given_count())),
            (variant, level) => engine
                .generate(
                    variant,
                    level.unwrap_or(Difficulty::Easy).ratings(),
                    seed,
                    symmetry,
                    budget,
                )
                .ok()
                .map(|g| (g.ratings, g.puzzle.grid().given_count())),
        }
    }
}

fn main() {
    let seeds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let named: Vec<Target> = std::env::args()
        .skip(2)
        .filter_map(|n| Target::parse(&n))
        .collect();
    let targets: Vec<Target> = if named.is_empty() {
        [None]
            .into_iter()
            .chain(Variant::ALL.map(Some))
            .flat_map(|variant| {
                Difficulty::ALL.map(|level| Target {
                    variant,
                    level: Some(level),
                })
            })
            .collect()
    } else {
        named
    };
    println!(
        "{:<16} {:<10} {:>9} {:>9} {:>9} {:>6} {:>9} {:>7} {:>10} {:>10}",
        "target",
        "symmetry",
        "p50 ms",
        "p99 ms",
        "max ms",
        "hit",
        "ratings",
        "clues",
        "p99 work",
        "work/hit"
    );
    for symmetry in [Symmetry::None, Symmetry::Rotational] {
        for &target in &targets {
            if symmetry == Symmetry::Rotational && target.variant == Some(Variant::Killer) {
                continue; // no givens
            }
            let mut engine = Engine::new();
            let mut times = Vec::new();
            let mut work = Vec::new();
            let (mut hits, mut attempts, mut clues) = (0, 0, 0);
            for seed in 0..seeds {
                let start = Instant::now();
                let budget = Budget::work(DEFAULT_GENERATE_WORK_BUDGET);
                let result = target.run(&mut engine, seed, symmetry, &budget);
                times.push(start.elapsed());
                work.push(budget.used());
                if let Some((ratings, givens)) = result {
                    hits += 1;
                    attempts += u64::from(ratings);
                    clues += givens as u64;
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
                "{:<16} {:<10} {:>9.2} {:>9.2} {:>9.2} {:>3}/{:<2} {:>9.1} {:>7.1} {:>10} {:>10}",
                target.name(),
                format!("{symmetry:?}"),
                ms(pct(0.5)),
                ms(pct(0.99)),
                ms(times[times.len() - 1]),
                hits,
                seeds,
                attempts as f64 / hits.max(1) as f64,
                clues as f64 / hits.max(1) as f64,
                work[((work.len() - 1) as f64 * 0.99).round() as usize],
                work.iter().sum::<u64>() / hits.max(1),
            );
        }
    }
}
