//! Checks bank files the way the tests check a batch, at full size: every puzzle line of each
//! NDJSON file (from `sudoku-service generate --distinct` or a saved `/v1/generate/batch`
//! stream) carries the canonical form that the tests' own slow canonicalizer gives its board
//! (`tests/common/isomorph.rs`, every one of the 2 x 1,296 x 1,296 rearrangements, no engine
//! code), and no two lines of a file share one. About 25 ms a puzzle on one core; the lines
//! are split over two threads.
//!
//! ```text
//! cargo run --release --example bank_check -- easy.ndjson master.ndjson
//! ```
//!
//! Exit status 1 when a form differs or repeats, 2 on an unreadable file or line.

#[path = "../tests/common/isomorph.rs"]
mod isomorph;

use std::collections::HashSet;
use std::process::ExitCode;
use std::time::Instant;

use serde_json::Value;

/// A board of a line (one string, or nine rows) as one line with `.` for empty cells.
fn line_of(board: &Value) -> Option<String> {
    let text = match board {
        Value::Array(rows) => rows
            .iter()
            .map(|r| r.as_str())
            .collect::<Option<String>>()?,
        other => other.as_str()?.to_string(),
    };
    Some(text.replace('0', "."))
}

/// The boards and stated forms of a file's puzzle lines, or why it cannot be read.
fn read(path: &str) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut puzzles = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let value: Value =
            serde_json::from_str(line).map_err(|e| format!("{path}:{}: {e}", number + 1))?;
        let Some(board) = value.get("board") else {
            continue; // the done line
        };
        let form = value.get("canonical").and_then(line_of);
        match (line_of(board), form) {
            (Some(board), Some(form)) => puzzles.push((board, form)),
            _ => return Err(format!("{path}:{}: no board or canonical form", number + 1)),
        }
    }
    Ok(puzzles)
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: bank_check FILE.ndjson...");
        return ExitCode::from(2);
    }
    let mut failed = false;
    for path in &paths {
        let puzzles = match read(path) {
            Ok(puzzles) => puzzles,
            Err(why) => {
                eprintln!("{why}");
                return ExitCode::from(2);
            }
        };
        let started = Instant::now();
        let half = puzzles.len().div_ceil(2).max(1);
        let forms: Vec<(String, bool)> = std::thread::scope(|scope| {
            let workers: Vec<_> = puzzles
                .chunks(half)
                .map(|part| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|(board, stated)| {
                                let form = isomorph::slow_canonical(board);
                                let agrees = &form == stated;
                                (form, agrees)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|worker| worker.join().expect("a checker thread"))
                .collect()
        });
        let disagree = forms.iter().filter(|(_, agrees)| !agrees).count();
        let distinct: HashSet<&String> = forms.iter().map(|(form, _)| form).collect();
        let repeats = forms.len() - distinct.len();
        println!(
            "{path}: {} puzzles, {} distinct forms, {disagree} stated forms differ, {:.1} s",
            forms.len(),
            distinct.len(),
            started.elapsed().as_secs_f64()
        );
        failed |= disagree > 0 || repeats > 0;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
