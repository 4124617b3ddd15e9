//! Solver throughput per puzzle file, single thread, in two modes: the first solution, and the
//! uniqueness check (count to 2). Criterion reports puzzles/s as "elements/s".
//! `scripts/bench/solver-vs-peer.sh` puts the same figures next to the peer crate's.

use std::path::Path;
use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use sudoku_service::engine::classic::{Board, ClassicPuzzle, Solver};
use sudoku_service::engine::Budget;

const FILES: [&str; 6] = [
    "puzzles_17_clue.txt",
    "unbiased_first1000.txt",
    "magictour_top1465.txt",
    "forum_hardest_1905_11plus.txt",
    "forum_hardest_1106.txt",
    "serg_benchmark.txt",
];

/// At most this many puzzles per file, so one iteration stays well under a second.
const MAX_PUZZLES: usize = 5_000;

fn load(file: &str) -> Option<Vec<ClassicPuzzle>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(file);
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        text.lines()
            .filter_map(|l| Board::from_line(l).ok())
            .filter_map(|b| ClassicPuzzle::new(b).ok())
            .take(MAX_PUZZLES)
            .collect(),
    )
}

fn bench_files(c: &mut Criterion) {
    for file in FILES {
        let Some(puzzles) = load(file) else {
            eprintln!("skipping {file}: ../shared/data not found");
            continue;
        };
        let mut group = c.benchmark_group(file.trim_end_matches(".txt"));
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(3));
        for (mode, limit) in [("one", 1), ("unique", 2)] {
            let mut solver = Solver::new();
            let unlimited = Budget::unlimited();
            group.bench_function(mode, |b| {
                b.iter(|| {
                    for p in &puzzles {
                        black_box(solver.count_solutions(black_box(p), limit, &unlimited).ok());
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_files);
criterion_main!(benches);
