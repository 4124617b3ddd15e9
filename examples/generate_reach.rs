//! How far each generator reaches: the highest rating (or, for a puzzle beyond the
//! techniques, the highest bound) its `extreme` puzzles get over SEEDS seeds within the
//! default generation budget, beside the limit the service refuses ranges above at once
//! (`Engine::highest_reachable`). These are the figures behind that limit.
//!
//! ```text
//! cargo run --release --example generate_reach -- [SEEDS=30]
//! ```

use sudoku_service::engine::{Budget, Difficulty, Engine, Rating, Symmetry, Variant};
use sudoku_service::http::config::DEFAULT_GENERATE_WORK_BUDGET as GENERATION_BUDGET;

fn main() {
    let mut args = std::env::args().skip(1);
    let seeds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(30);
    let mut engine = Engine::new();
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
        let limit = Engine::highest_reachable(variant);
        println!("{name:<8} {made:>9} {failed:>9} {highest:>8} {limit:>9}");
    }
}
