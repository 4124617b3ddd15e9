//! The general solver against the band solver on classic puzzles: the same files, each
//! puzzle counted to 2 by both. A redundant rule (two cells of the first row as an extra
//! region, which differ anyway) sends a puzzle through the general solver without changing
//! its solutions. Prints, per solver, the time and guesses per puzzle and the time per
//! guess: how far the general solver, which carries every variant, is from the classic fast
//! path, in the size of its trees and in the cost of a node.
//!
//! ```text
//! cargo run --release --example general_on_classic -- FILE [puzzles=1000]
//! ```

use std::time::Instant;

use sudoku_service::engine::{Budget, Engine, Grid, Puzzle, RuleSpec, Rules, Shape};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: general_on_classic FILE [puzzles=1000]");
        std::process::exit(2);
    };
    let limit: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let text = std::fs::read_to_string(&path).expect("a readable puzzle file");
    let grids: Vec<Grid> = text
        .lines()
        .filter_map(|line| line.get(..81))
        .filter_map(|line| Grid::from_line(line).ok())
        .take(limit)
        .collect();
    let redundant = RuleSpec {
        extra_regions: vec![vec![(0, 0), (0, 1)]],
        ..RuleSpec::default()
    };
    let rules = Rules::new(Shape::NINE, redundant).expect("a valid region");
    let mut engine = Engine::new();
    // A line whose givens clash is no puzzle for either solver: left out of both.
    let grids: Vec<Grid> = grids
        .into_iter()
        .filter(|grid| Puzzle::classic(grid.clone()).is_ok())
        .collect();
    for (name, general) in [("band", false), ("general", true)] {
        let puzzles: Vec<Puzzle> = grids
            .iter()
            .map(|grid| match general {
                true => Puzzle::new(grid.clone(), rules.clone()),
                false => Puzzle::classic(grid.clone()),
            })
            .collect::<Result<_, _>>()
            .expect("the redundant region clashes with nothing a classic puzzle allows");
        let start = Instant::now();
        let mut guesses = 0u64;
        for puzzle in &puzzles {
            let counted = engine
                .count(puzzle, 2, &Budget::unlimited())
                .expect("no limit set");
            guesses += counted.stats.guesses;
        }
        let secs = start.elapsed().as_secs_f64();
        let n = puzzles.len().max(1) as f64;
        println!(
            "{name:<8} {} puzzles: {:>8.1} us a puzzle, {:>7.1} guesses a puzzle, {:>6.2} us a guess",
            puzzles.len(),
            secs * 1e6 / n,
            guesses as f64 / n,
            secs * 1e6 / guesses.max(1) as f64
        );
    }
}
