//! Grading latency on the rated puzzles, per Sudoku Explainer band of the puzzle's SE rating:
//! p50 / p90 / p99 / max milliseconds of `Engine::grade` (what `/grade` runs: the uniqueness
//! check, then the rating), plus the same over every puzzle rated up to SE 9.0. Wall-clock
//! time, and (Linux) the thread's own CPU time, which other processes on a shared machine do
//! not inflate. Last, the work units the budget charged (p99 and max per band, and CPU
//! nanoseconds per unit), which is how the logic techniques' costs are calibrated against the
//! solvers' (about a microsecond per unit).
//!
//! ```text
//! cargo run --release --example grade_timing -- [DIR=../shared/data/rated] [ROUNDS=1]
//! ```

use std::time::{Duration, Instant};

use sudoku_service::engine::{Budget, Difficulty, Engine, Grid, Puzzle, Rating, Rules, Shape};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| "../shared/data/rated".to_string());
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|e| e.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_else(|_| Vec::new());
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    let mut engine = Engine::new();
    let mut samples: Vec<(Rating, Duration)> = Vec::new();
    let mut cpu_samples: Vec<(Rating, Duration)> = Vec::new();
    let mut work_samples: Vec<(Rating, u64)> = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable rated file");
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            let (Some(puzzle), Some(se)) = (parts.next(), parts.next()) else {
                continue;
            };
            let Ok(se) = se.parse::<f64>() else { continue };
            let grid = Grid::from_line(puzzle).expect("puzzle line");
            let puzzle =
                Puzzle::new(grid, Rules::classic(Shape::NINE)).expect("no clashing givens");
            let se = Rating::from_tenths((se * 10.0).round() as u16);
            for _ in 0..rounds {
                let cpu_start = thread_cpu();
                let start = Instant::now();
                let budget = Budget::unlimited();
                std::hint::black_box(engine.grade(&puzzle, &budget).expect("gradable"));
                samples.push((se, start.elapsed()));
                work_samples.push((se, budget.used()));
                if let (Some(a), Some(b)) = (cpu_start, thread_cpu()) {
                    cpu_samples.push((se, b.saturating_sub(a)));
                }
            }
        }
    }
    if samples.is_empty() {
        eprintln!("no rated puzzles found in {dir}");
        std::process::exit(1);
    }
    table("wall clock", &samples);
    if !cpu_samples.is_empty() {
        println!();
        table("thread CPU time", &cpu_samples);
        let cpu: Duration = cpu_samples.iter().map(|&(_, t)| t).sum();
        let work: u64 = work_samples.iter().map(|&(_, w)| w).sum();
        println!(
            "\nCPU per work unit: {:.0} ns (aim: about 1,000)",
            cpu.as_nanos() as f64 / work.max(1) as f64
        );
    }
    println!();
    work_table(&work_samples);
}

fn work_table(samples: &[(Rating, u64)]) {
    println!("{:<22} {:>10} {:>10}", "work units", "p99", "max");
    for band in Difficulty::ALL {
        let mut work: Vec<u64> = samples
            .iter()
            .filter(|(r, _)| Difficulty::of_rating(*r) == band)
            .map(|&(_, w)| w)
            .collect();
        if work.is_empty() {
            continue;
        }
        work.sort();
        let p99 = work[((work.len() - 1) as f64 * 0.99).round() as usize];
        println!(
            "{:<22} {:>10} {:>10}",
            band.name(),
            p99,
            work[work.len() - 1]
        );
    }
}

fn table(title: &str, samples: &[(Rating, Duration)]) {
    println!(
        "{:<22} {:>6} {:>8} {:>8} {:>8} {:>8}",
        title, "n", "p50 ms", "p90 ms", "p99 ms", "max ms"
    );
    for band in Difficulty::ALL {
        let times: Vec<Duration> = samples
            .iter()
            .filter(|(r, _)| Difficulty::of_rating(*r) == band)
            .map(|&(_, t)| t)
            .collect();
        let range = band.ratings();
        let high = if band == Difficulty::Extreme {
            String::new()
        } else {
            range.end().to_string()
        };
        print_row(&format!("{} {}-{high}", band.name(), range.start()), times);
    }
    let up_to_9: Vec<Duration> = samples
        .iter()
        .filter(|(r, _)| r.tenths() <= 90)
        .map(|&(_, t)| t)
        .collect();
    print_row("all up to SE 9.0", up_to_9);
}

/// Time this thread has spent on a CPU, from Linux's scheduler statistics; `None` elsewhere.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

fn print_row(label: &str, mut times: Vec<Duration>) {
    if times.is_empty() {
        println!("{label:<22} {:>6}", 0);
        return;
    }
    times.sort();
    let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{label:<22} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
        times.len(),
        ms(pct(0.5)),
        ms(pct(0.9)),
        ms(pct(0.99)),
        ms(times[times.len() - 1])
    );
}
