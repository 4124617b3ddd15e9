//! Grading latency on the rated puzzles, per Sudoku Explainer band of the puzzle's SE rating:
//! p50 / p90 / p99 / max milliseconds of `engine::grade` (which includes the uniqueness check
//! the rating needs), plus the same over every puzzle rated up to SE 9.0. Wall-clock time, and
//! (Linux) the thread's own CPU time, which other processes on a shared machine do not
//! inflate.
//!
//! ```text
//! cargo run --release --example grade_timing -- [DIR=../shared/data/rated] [ROUNDS=1]
//! ```

use std::time::{Duration, Instant};

use sudoku_service::engine::{grade, Board, Difficulty, Puzzle, Rating};

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
    let mut samples: Vec<(Rating, Duration)> = Vec::new();
    let mut cpu_samples: Vec<(Rating, Duration)> = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable rated file");
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            let (Some(puzzle), Some(se)) = (parts.next(), parts.next()) else {
                continue;
            };
            let Ok(se) = se.parse::<f64>() else { continue };
            let puzzle = Puzzle::new(Board::from_line(puzzle).expect("puzzle line"))
                .expect("no clashing givens");
            let se = Rating::from_tenths((se * 10.0).round() as u16);
            for _ in 0..rounds {
                let cpu_start = thread_cpu();
                let start = Instant::now();
                std::hint::black_box(grade(&puzzle));
                samples.push((se, start.elapsed()));
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
