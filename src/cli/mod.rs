//! The command-line front ends beside `serve`: the batch `solve` command (this file) and the
//! container [`healthcheck`] probe.
//!
//! `solve` reads puzzles one per line from files or stdin and writes one answer line each.
//!
//! Output order is input order whatever the thread count: input is cut into chunks, each chunk
//! is solved in parallel on a rayon pool (one reusable [`Solver`] per worker), and the chunk's
//! answers are written before the next chunk starts. Memory stays bounded by the chunk size, so a
//! multi-gigabyte file streams through.
//!
//! The files are classic 9x9 puzzles, so this goes straight to the classic fast path (the
//! compact [`Board`] and the band solver) rather than through the general facade: parsing and
//! writing cost as much as solving here. There is no budget: the operator runs it on their own
//! machine and can stop it.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::engine::board::{Board, ClassicPuzzle};
use crate::engine::solver::Solver;
use crate::engine::Budget;

pub mod healthcheck;

/// Lines solved per parallel step: large enough that the serial read/write between steps is
/// noise, small enough that memory stays flat.
const CHUNK_LINES: usize = 16 * 1024;
/// Inputs at least this large get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 1 << 20;

/// Options of `sudoku-service solve`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveArgs {
    /// Puzzle files, one 81-character puzzle per line; none (or `-`) reads stdin.
    pub files: Vec<PathBuf>,
    /// Worker threads; default: all cores.
    #[arg(long, short = 't')]
    pub threads: Option<NonZeroUsize>,
    /// Report puzzles with more than one solution as errors (counts solutions up to 2).
    #[arg(long)]
    pub unique: bool,
}

/// How the batch went; the summary line and the exit code come from it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub puzzles: u64,
    pub solved: u64,
    pub failed: u64,
}

/// Solves one input line: the 81-digit solution, or `error: <reason>`.
pub fn answer_line(solver: &mut Solver, line: &str, unique: bool) -> Result<String, String> {
    let board = Board::from_line(line).map_err(|e| e.to_string())?;
    let puzzle = ClassicPuzzle::new(board).map_err(|e| e.to_string())?;
    let limit = if unique { 2 } else { 1 };
    let counted = solver
        .count_solutions(&puzzle, limit, &Budget::unlimited())
        .map_err(|e| e.to_string())?;
    match (counted.first, counted.count) {
        (None, _) => Err("no solution".to_string()),
        (Some(_), 2..) => Err("more than one solution".to_string()),
        (Some(solution), _) => Ok(solution.to_line()),
    }
}

/// True for lines the format says to skip: blank lines and `#` comments.
fn is_skipped(line: &str) -> bool {
    line.is_empty() || line.starts_with('#')
}

/// Runs the command; the exit code is 0 when every puzzle was solved, 1 when any failed, and 2
/// on usage or I/O errors.
pub fn run(args: &SolveArgs) -> ExitCode {
    match run_batch(args) {
        Ok(tally) if tally.failed == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(message) => {
            eprintln!("sudoku-service solve: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_batch(args: &SolveArgs) -> Result<Tally, String> {
    let threads = args
        .threads
        .map(NonZeroUsize::get)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;

    let inputs: Vec<Option<&PathBuf>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files
            .iter()
            .map(|p| (p.as_os_str() != "-").then_some(p))
            .collect()
    };
    // Open everything first, so a typo in the last file name fails before any output.
    let mut readers = Vec::with_capacity(inputs.len());
    let mut total_bytes = Some(0u64);
    for input in inputs {
        match input {
            Some(path) => {
                let file =
                    File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
                let size = file.metadata().map(|m| m.len()).ok();
                total_bytes = total_bytes.zip(size).map(|(a, b)| a + b);
                readers.push((
                    path.display().to_string(),
                    Box::new(BufReader::new(file)) as Box<dyn BufRead>,
                ));
            }
            None => {
                total_bytes = None;
                readers.push(("stdin".to_string(), Box::new(io::stdin().lock())));
            }
        }
    }

    let progress = progress_bar(total_bytes);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut chunk: Vec<String> = Vec::with_capacity(CHUNK_LINES);
    let mut answers: Vec<Result<String, String>> = Vec::with_capacity(CHUNK_LINES);

    let mut flush = |chunk: &mut Vec<String>, tally: &mut Tally| -> Result<(), String> {
        pool.install(|| {
            chunk
                .par_iter()
                .map_init(Solver::new, |solver, line| {
                    answer_line(solver, line, args.unique)
                })
                .collect_into_vec(&mut answers);
        });
        for answer in &answers {
            tally.puzzles += 1;
            let written = match answer {
                Ok(solution) => {
                    tally.solved += 1;
                    writeln!(out, "{solution}")
                }
                Err(reason) => {
                    tally.failed += 1;
                    writeln!(out, "error: {reason}")
                }
            };
            written.map_err(|e| format!("cannot write output: {e}"))?;
        }
        if let Some(bar) = &progress {
            bar.set_message(format!("{} puzzles", tally.puzzles));
        }
        chunk.clear();
        Ok(())
    };

    for (name, mut reader) in readers {
        let mut line = String::new();
        loop {
            line.clear();
            let read = reader
                .read_line(&mut line)
                .map_err(|e| format!("cannot read {name}: {e}"))?;
            if read == 0 {
                break;
            }
            if let Some(bar) = &progress {
                bar.inc(read as u64);
            }
            let text = line.trim();
            if is_skipped(text) {
                continue;
            }
            chunk.push(text.to_string());
            if chunk.len() == CHUNK_LINES {
                flush(&mut chunk, &mut tally)?;
            }
        }
    }
    flush(&mut chunk, &mut tally)?;
    out.flush()
        .map_err(|e| format!("cannot write output: {e}"))?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }

    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{} puzzles, {} solved, {} failed in {secs:.3} s ({:.0} puzzles/s, {threads} threads)",
        tally.puzzles,
        tally.solved,
        tally.failed,
        tally.puzzles as f64 / secs.max(1e-9),
    );
    Ok(tally)
}

/// A bar over the input bytes when stderr is a terminal and the input is large; a spinner when
/// the size is unknown (stdin); nothing otherwise, so scripts get clean stderr.
fn progress_bar(total_bytes: Option<u64>) -> Option<ProgressBar> {
    if !io::stderr().is_terminal() {
        return None;
    }
    let bar = match total_bytes {
        Some(total) if total < PROGRESS_MIN_BYTES => return None,
        Some(total) => ProgressBar::new(total).with_style(
            ProgressStyle::with_template("{bar:40} {percent:>3}% {msg} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::new_spinner(),
    };
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str =
        "9.7.....6.2.6.945.46.3.......1...89....8.16......72....1..269.........3..9......1";

    #[test]
    fn a_line_gets_its_solution() {
        let answer = answer_line(&mut Solver::new(), SEED, true).unwrap();
        assert_eq!(
            answer,
            "957214386123689457468357129271563894539841672684972513315726948746198235892435761"
        );
    }

    #[test]
    fn errors_say_why() {
        let mut solver = Solver::new();
        assert_eq!(
            answer_line(&mut solver, "12", false),
            Err("expected 81 characters, found 2".to_string())
        );
        let empty = ".".repeat(81);
        assert!(answer_line(&mut solver, &empty, false).is_ok());
        assert_eq!(
            answer_line(&mut solver, &empty, true),
            Err("more than one solution".to_string())
        );
        let clash = format!("55{}", ".".repeat(79));
        assert_eq!(
            answer_line(&mut solver, &clash, false),
            Err("digit 5 repeats in row 1: row 1, column 1 and row 1, column 2".to_string())
        );
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        assert!(is_skipped(""));
        assert!(is_skipped("# header"));
        assert!(!is_skipped(SEED));
    }
}
