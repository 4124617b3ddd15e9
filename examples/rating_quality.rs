//! How closely our ratings follow Sudoku Explainer's: reads `PUZZLE RATING` lines from the
//! rated files and prints the Spearman correlation, the share of ratings within 0.3 and exactly
//! equal, how many puzzles up to SE 9.0 got a rating, and a confusion table of levels (ours
//! against the SE rating's band). `scripts/bench/rating-quality.sh` runs it.
//!
//! ```text
//! cargo run --release --example rating_quality -- [DIR=../shared/data/rated] [--worst N]
//! ```

use std::path::{Path, PathBuf};

use sudoku_service::engine::{Budget, Difficulty, Engine, Grid, Puzzle, Rating, Rules, Shape};

struct Row {
    line: String,
    se: Rating,
    ours: Rating,
    guessing: bool,
    hardest: String,
}

fn main() {
    let mut dir = PathBuf::from("../shared/data/rated");
    let mut worst = 0usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--worst" => worst = args.next().and_then(|n| n.parse().ok()).unwrap_or(20),
            other => dir = PathBuf::from(other),
        }
    }
    let mut engine = Engine::new();
    let rows = read_dir(&dir)
        .into_iter()
        .map(|(line, se)| {
            let grid = Grid::from_line(&line).expect("81-character puzzle");
            let puzzle =
                Puzzle::new(grid, Rules::classic(Shape::NINE)).expect("no clashing givens");
            let (_, g) = engine
                .grade(&puzzle, &Budget::unlimited())
                .expect("no budget to run out");
            let g = g.expect("a rated puzzle has a solution");
            Row {
                line,
                se,
                ours: g.lower_bound(),
                guessing: g.rating().is_none(),
                hardest: g.hardest.map_or("-".into(), |t| t.name().to_string()),
            }
        })
        .collect::<Vec<_>>();
    if rows.is_empty() {
        eprintln!("no rated puzzles found in {}", dir.display());
        std::process::exit(1);
    }
    report(&rows);
    if worst > 0 {
        let mut by_gap: Vec<&Row> = rows.iter().collect();
        by_gap.sort_by_key(|r| std::cmp::Reverse(gap(r)));
        println!("\nbiggest disagreements (ours - SE):");
        for r in by_gap.iter().take(worst) {
            println!(
                "{} SE {} ours {}{} ({})",
                r.line,
                r.se,
                r.ours,
                if r.guessing { " stuck" } else { "" },
                r.hardest
            );
        }
    }
}

fn gap(r: &Row) -> i32 {
    (i32::from(r.ours.tenths()) - i32::from(r.se.tenths())).abs()
}

/// Every `PUZZLE RATING` line of the `.txt` files in `dir`, files in name order.
fn read_dir(dir: &Path) -> Vec<(String, Rating)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "txt"));
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable rated file");
        for line in text.lines() {
            let mut parts = line.split_whitespace();
            let (Some(puzzle), Some(rating)) = (parts.next(), parts.next()) else {
                continue;
            };
            let Ok(value) = rating.parse::<f64>() else {
                continue;
            };
            out.push((
                puzzle.to_string(),
                Rating::from_tenths((value * 10.0).round() as u16),
            ));
        }
    }
    out
}

fn report(rows: &[Row]) {
    let n = rows.len();
    let se: Vec<f64> = rows.iter().map(|r| r.se.value()).collect();
    let ours: Vec<f64> = rows.iter().map(|r| r.ours.value()).collect();
    let within = rows.iter().filter(|r| !r.guessing && gap(r) <= 3).count();
    let exact = rows.iter().filter(|r| !r.guessing && gap(r) == 0).count();
    let upto9: Vec<&Row> = rows.iter().filter(|r| r.se.tenths() <= 90).collect();
    let rated9 = upto9.iter().filter(|r| !r.guessing).count();
    let pct = |k: usize, of: usize| 100.0 * k as f64 / of.max(1) as f64;
    println!("puzzles: {n}");
    println!("spearman: {:.4}", spearman(&se, &ours));
    println!("within 0.3: {within}/{n} ({:.1}%)", pct(within, n));
    println!("exact: {exact}/{n} ({:.1}%)", pct(exact, n));
    println!(
        "rated up to SE 9.0: {rated9}/{} ({:.1}%)",
        upto9.len(),
        pct(rated9, upto9.len())
    );
    let mean_gap: f64 = rows
        .iter()
        .map(|r| f64::from(gap(r) as u16) / 10.0)
        .sum::<f64>()
        / n as f64;
    println!("mean |ours - SE|: {mean_gap:.3}");
    println!("\nlevels: rows = SE band, columns = ours");
    print!("{:>8}", "");
    for d in Difficulty::ALL {
        print!("{:>8}", d.name());
    }
    println!();
    for se_band in Difficulty::ALL {
        print!("{:>8}", se_band.name());
        for ours_band in Difficulty::ALL {
            let count = rows
                .iter()
                .filter(|r| Difficulty::of_rating(r.se) == se_band)
                .filter(|r| {
                    let ours = if r.guessing {
                        Difficulty::Extreme
                    } else {
                        Difficulty::of_rating(r.ours)
                    };
                    ours == ours_band
                })
                .count();
            print!("{count:>8}");
        }
        println!();
    }
}

/// Spearman's rank correlation (average ranks for ties).
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    let (ra, rb) = (ranks(a), ranks(b));
    let mean = (a.len() as f64 + 1.0) / 2.0;
    let (mut num, mut da, mut db) = (0.0, 0.0, 0.0);
    for i in 0..a.len() {
        num += (ra[i] - mean) * (rb[i] - mean);
        da += (ra[i] - mean).powi(2);
        db += (rb[i] - mean).powi(2);
    }
    num / (da * db).sqrt()
}

fn ranks(values: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..values.len()).collect();
    idx.sort_by(|&x, &y| values[x].total_cmp(&values[y]));
    let mut ranks = vec![0.0; values.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && values[idx[j + 1]] == values[idx[i]] {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            ranks[k] = rank;
        }
        i = j + 1;
    }
    ranks
}
