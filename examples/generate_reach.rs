//! How far each generator reaches: the highest rating (or, for a puzzle beyond the
//! techniques, the highest bound) its `extreme` puzzles get over SEEDS seeds within the
//! default generation budget, beside the limit the service refuses ranges above at once
//! (`Engine::highest_reachable`, without symmetry); then, for classic puzzles, ranges above
//! what carving reaches (planted puzzles): per range, the seeds that found a puzzle, the
//! ratings found, and the CPU time per seed. These are the figures behind those limits.
//!
//! ```text
//! cargo run --release --example generate_reach -- [SEEDS=30] [MIN...] [rotational]
//! ```
//!
//! With MINs (such as `9.2 9.5`), only the planted ranges starting there are run; with
//! `rotational`, the planted puzzles have 180-degree symmetry.

use std::time::Instant;

use sudoku_service::engine::{Budget, Difficulty, Engine, Rating, Symmetry, Variant};
use sudoku_service::http::config::DEFAULT_GENERATE_WORK_BUDGET as GENERATION_BUDGET;

fn main() {
    let mut args = std::env::args().skip(1);
    let seeds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(30);
    let rest: Vec<String> = args.collect();
    let symmetry = if rest.iter().any(|a| a == "rotational") {
        Symmetry::Rotational
    } else {
        Symmetry::None
    };
    let mins: Vec<u16> = rest
        .iter()
        .filter_map(|m| m.parse::<f64>().ok())
        .map(|m| (m * 10.0).round() as u16)
        .collect();
    let mut engine = Engine::new();
    if mins.is_empty() {
        by_level(&mut engine, seeds);
    }
    planted(
        &mut engine,
        seeds,
        symmetry,
        if mins.is_empty() { &[92, 95] } else { &mins },
    );
}

/// Each generator's `extreme` puzzles. Classic ones are planted now, not carved: what
/// carving reached (9.1, `CARVING_REACH`) was measured by this row while they were.
fn by_level(engine: &mut Engine, seeds: u64) {
    println!(
        "{:<8} {:>9} {:>9} {:>8} {:>9}",
        "variant", "extreme", "failed", "highest", "limit"
    );
    for variant in [
        None,
        Some(Variant::Killer),
        Some(Variant::X),
        Some(Variant::Hyper),
        Some(Variant::Jigsaw),
    ] {
        let name = variant.map_or("classic", Variant::name);
        let (mut highest, mut made, mut failed) = (Rating::from_tenths(0), 0, 0);
        for seed in 1..=seeds {
            let budget = Budget::work(GENERATION_BUDGET);
            match engine.generate(
                variant,
                Difficulty::Extreme.ratings(),
                seed,
                Symmetry::None,
                &budget,
            ) {
                Ok(generated) => {
                    made += 1;
                    let grade = generated
                        .grade
                        .expect("a rated generation grades its puzzle");
                    highest = highest.max(grade.lower_bound());
                }
                Err(_) => failed += 1,
            }
        }
        // Without symmetry; for classic puzzles, what planted ones reach (the table below).
        let limit = Engine::highest_reachable(variant, Symmetry::None);
        println!("{name:<8} {made:>9} {failed:>9} {highest:>8} {limit:>9}");
    }
}

/// Classic ranges without a maximum, starting at each of `mins` (tenths), with `symmetry`.
fn planted(engine: &mut Engine, seeds: u64, symmetry: Symmetry, mins: &[u16]) {
    println!(
        "\n{:<8} {:>6} {:>6} {:>9} {:>9} {:>9}  ratings found (a + after a bound)",
        "range", "found", "failed", "p50 s", "p90 s", "max s"
    );
    for &min in mins {
        let range = Rating::from_tenths(min)..=Rating::from_tenths(u16::MAX);
        let (mut found, mut failed) = (0, 0);
        let mut times = Vec::new();
        let mut ratings = Vec::new();
        for seed in 1..=seeds {
            let budget = Budget::work(GENERATION_BUDGET);
            let start = Instant::now();
            let made = engine.generate(None, range.clone(), seed, symmetry, &budget);
            times.push(start.elapsed().as_secs_f64());
            match made {
                Ok(generated) => {
                    found += 1;
                    let grade = generated
                        .grade
                        .expect("a rated generation grades its puzzle");
                    let bound = if grade.rating().is_some() { "" } else { "+" };
                    ratings.push(format!("{}{bound}", grade.lower_bound()));
                }
                Err(_) => failed += 1,
            }
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
        println!(
            "{:<8} {found:>6} {failed:>6} {:>9.2} {:>9.2} {:>9.2}  {}",
            format!("{}-", Rating::from_tenths(min)),
            at(0.5),
            at(0.9),
            at(1.0),
            ratings.join(" ")
        );
    }
}
