//! The command-line front ends beside `serve`: the batch `solve` command (this file), the
//! puzzle-bank commands [`generate`] and [`merge`], and the container [`healthcheck`] probe.
//!
//! `solve` reads puzzles one per line from files or stdin and writes one answer line each.
//!
//! Input is read in blocks of whole lines and solved block by block, so memory stays bounded
//! and a multi-gigabyte file streams through; answers come out in input order whatever the
//! thread count. With one thread (`--threads 1`, or a one-core machine) each line is solved
//! and written as it is parsed, on the calling thread. With more, a block's lines are solved
//! in parallel on a rayon pool (one reusable [`Solver`] per worker) and written before the
//! next block is read.
//!
//! On the easy sets, reading, parsing and writing cost about as much as solving, so this path
//! works on bytes: lines are slices of the block, a solution is written as its 81 digits
//! straight into the output buffer, and only failures allocate (their message).
//!
//! The files are classic 9x9 puzzles, so this goes straight to the classic fast path (the
//! compact [`Board`] and the band solver) rather than through the general facade. There is no
//! budget: the operator runs it on their own machine and can stop it.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::engine::model::board::{Board, ClassicPuzzle, CELLS};
use crate::engine::solve::band::Solver;
use crate::engine::Budget;

pub mod generate;
pub mod healthcheck;
pub mod merge;

/// Bytes read per block: large enough that the serial read/write between parallel steps is
/// noise, small enough that memory stays flat. A longer line grows the block to fit.
const BLOCK_BYTES: usize = 1 << 20;
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

/// The answer to one input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The solution's 81 digits as ASCII, ready to write.
    Solved([u8; CELLS]),
    /// Why there is no answer: the text after `error: `.
    Failed(String),
}

/// Solves one input line (without its line break).
pub fn answer(solver: &mut Solver, line: &[u8], unique: bool) -> Answer {
    match solve_line(solver, line, unique) {
        Ok(solution) => Answer::Solved(solution.raw().map(|digit| b'0' + digit)),
        Err(reason) => Answer::Failed(reason),
    }
}

fn solve_line(solver: &mut Solver, line: &[u8], unique: bool) -> Result<Board, String> {
    let line = std::str::from_utf8(line).map_err(|_| "not valid UTF-8".to_string())?;
    let board = Board::from_line(line).map_err(|e| e.to_string())?;
    let puzzle = ClassicPuzzle::new(board).map_err(|e| e.to_string())?;
    let limit = if unique { 2 } else { 1 };
    let counted = solver
        .count_solutions(&puzzle, limit, &Budget::unlimited())
        .map_err(|e| e.to_string())?;
    match (counted.first, counted.count) {
        (None, _) => Err("no solution".to_string()),
        (Some(_), 2..) => Err("more than one solution".to_string()),
        (Some(solution), _) => Ok(solution),
    }
}

/// The puzzle lines of a block of whole lines: trimmed, without blank lines and `#` comments.
fn puzzle_lines(block: &[u8]) -> impl Iterator<Item = &[u8]> {
    block
        .split(|&byte| byte == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|line| !line.is_empty() && !line.starts_with(b"#"))
}

/// What `sudoku-service solve --help` says the command does.
pub const SOLVE_ABOUT: &str = "Solve puzzles from files or stdin, one 81-character puzzle per line";

/// `sudoku-service solve ...` on its own, for [`run_if_solve`].
#[derive(Debug, clap::Parser)]
#[command(name = "solve", bin_name = "sudoku-service solve", about = SOLVE_ABOUT)]
struct SolveCommand {
    #[command(flatten)]
    args: SolveArgs,
}

/// Runs `solve` when it is the first argument; `None` for any other command line.
///
/// Starting clap costs more than it seems: parsing with the binary's whole command tree builds
/// every option of `serve` too (about 120 us), and even a parser of `solve`'s own options
/// spends 50-90 us faulting in and running clap's code for the first time. On a file of a
/// thousand easy puzzles that is 2-4% of the whole run. So the plain forms (`--unique`,
/// `-t N`, `--threads N`, `--threads=N` and file names) are read by hand, and anything else
/// (help, errors, `--`, a repeated option) goes to clap, parsing `solve` alone; `help solve`
/// still goes through the whole tree. Tests check that both parsers agree.
pub fn run_if_solve() -> Option<ExitCode> {
    if std::env::args_os().nth(1)? != "solve" {
        return None;
    }
    let args: Vec<OsString> = std::env::args_os().skip(2).collect();
    let args = parse_plain(&args).unwrap_or_else(|| parse_with_clap(args));
    Some(run(&args))
}

/// `solve`'s options parsed by clap, exiting on `--help` or an error as clap does.
fn parse_with_clap(args: Vec<OsString>) -> SolveArgs {
    let argv = std::iter::once(OsString::from("sudoku-service solve")).chain(args);
    <SolveCommand as clap::Parser>::parse_from(argv).args
}

/// The plain forms of `solve`'s options, or `None` when clap must look at them.
fn parse_plain(args: &[OsString]) -> Option<SolveArgs> {
    let mut parsed = SolveArgs {
        files: Vec::new(),
        threads: None,
        unique: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let text = arg.to_str()?;
        let threads = if text == "--unique" && !parsed.unique {
            parsed.unique = true;
            continue;
        } else if text == "-t" || text == "--threads" {
            args.next()?.to_str()?
        } else if let Some(value) = text.strip_prefix("--threads=") {
            value
        } else if text == "-" || !text.starts_with('-') {
            parsed.files.push(PathBuf::from(arg));
            continue;
        } else {
            return None;
        };
        if parsed.threads.is_some() {
            return None;
        }
        parsed.threads = Some(threads.parse().ok()?);
    }
    Some(parsed)
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

/// Solves blocks of lines and writes their answers in order; one thread or a pool.
struct Batch<W: Write> {
    out: W,
    unique: bool,
    tally: Tally,
    /// `None` for one thread: lines are solved on the calling thread.
    pool: Option<rayon::ThreadPool>,
    solver: Solver,
    /// Reused across blocks by the pool path.
    lines: Vec<(usize, usize)>,
    answers: Vec<Answer>,
}

impl<W: Write> Batch<W> {
    fn write(&mut self, answer: &Answer) -> Result<(), String> {
        self.tally.puzzles += 1;
        let written = match answer {
            Answer::Solved(digits) => {
                self.tally.solved += 1;
                self.out
                    .write_all(digits)
                    .and_then(|()| self.out.write_all(b"\n"))
            }
            Answer::Failed(reason) => {
                self.tally.failed += 1;
                writeln!(self.out, "error: {reason}")
            }
        };
        written.map_err(|e| format!("cannot write output: {e}"))
    }

    /// Solves and writes every puzzle line of `block` (whole lines only).
    fn block(&mut self, block: &[u8]) -> Result<(), String> {
        let Some(pool) = &self.pool else {
            for line in puzzle_lines(block) {
                let answer = answer(&mut self.solver, line, self.unique);
                self.write(&answer)?;
            }
            return Ok(());
        };
        let base = block.as_ptr() as usize;
        self.lines.clear();
        self.lines
            .extend(puzzle_lines(block).map(|line| (line.as_ptr() as usize - base, line.len())));
        let (lines, unique) = (&self.lines, self.unique);
        pool.install(|| {
            lines
                .par_iter()
                .map_init(Solver::new, |solver, &(start, len)| {
                    answer(solver, &block[start..start + len], unique)
                })
                .collect_into_vec(&mut self.answers);
        });
        let answers = std::mem::take(&mut self.answers);
        for answer in &answers {
            self.write(answer)?;
        }
        self.answers = answers;
        Ok(())
    }
}

/// Reads `reader` to the end in blocks of whole lines and hands each block to `batch`.
fn read_blocks<W: Write>(
    name: &str,
    mut reader: Box<dyn Read>,
    batch: &mut Batch<W>,
    progress: Option<&ProgressBar>,
) -> Result<(), String> {
    let mut block = vec![0u8; BLOCK_BYTES];
    // `block[..filled]` holds bytes not yet handed on: the tail of a line cut by the last read.
    let mut filled = 0;
    loop {
        if filled == block.len() {
            block.resize(block.len() * 2, 0);
        }
        let read = match reader.read(&mut block[filled..]) {
            Ok(read) => read,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("cannot read {name}: {e}")),
        };
        if let Some(bar) = progress {
            bar.inc(read as u64);
        }
        filled += read;
        if read == 0 {
            // The end: whatever is left is the last line, without a line break.
            return batch.block(&block[..filled]);
        }
        if let Some(last) = block[..filled].iter().rposition(|&byte| byte == b'\n') {
            batch.block(&block[..=last])?;
            block.copy_within(last + 1..filled, 0);
            filled -= last + 1;
            if let Some(bar) = progress {
                bar.set_message(format!("{} puzzles", batch.tally.puzzles));
            }
        }
    }
}

fn run_batch(args: &SolveArgs) -> Result<Tally, String> {
    let threads = args
        .threads
        .map(NonZeroUsize::get)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get));
    let pool = if threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        Some(pool)
    } else {
        None
    };

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
                readers.push((path.display().to_string(), Box::new(file) as Box<dyn Read>));
            }
            None => {
                total_bytes = None;
                readers.push(("stdin".to_string(), Box::new(io::stdin().lock())));
            }
        }
    }

    let progress = progress_bar(total_bytes);
    let stdout = io::stdout();
    let started = Instant::now();
    let mut batch = Batch {
        out: io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        unique: args.unique,
        tally: Tally::default(),
        pool,
        solver: Solver::new(),
        lines: Vec::new(),
        answers: Vec::new(),
    };
    for (name, reader) in readers {
        read_blocks(&name, reader, &mut batch, progress.as_ref())?;
    }
    batch
        .out
        .flush()
        .map_err(|e| format!("cannot write output: {e}"))?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }

    let tally = batch.tally;
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

    fn answer_text(solver: &mut Solver, line: &str, unique: bool) -> Result<String, String> {
        match answer(solver, line.as_bytes(), unique) {
            Answer::Solved(digits) => Ok(String::from_utf8(digits.to_vec()).unwrap()),
            Answer::Failed(reason) => Err(reason),
        }
    }

    #[test]
    fn a_line_gets_its_solution() {
        let answer = answer_text(&mut Solver::new(), SEED, true).unwrap();
        assert_eq!(
            answer,
            "957214386123689457468357129271563894539841672684972513315726948746198235892435761"
        );
    }

    #[test]
    fn errors_say_why() {
        let mut solver = Solver::new();
        assert_eq!(
            answer_text(&mut solver, "12", false),
            Err("expected 81 characters, found 2".to_string())
        );
        let empty = ".".repeat(81);
        assert!(answer_text(&mut solver, &empty, false).is_ok());
        assert_eq!(
            answer_text(&mut solver, &empty, true),
            Err("more than one solution".to_string())
        );
        let clash = format!("55{}", ".".repeat(79));
        assert_eq!(
            answer_text(&mut solver, &clash, false),
            Err("digit 5 repeats in row 1: row 1, column 1 and row 1, column 2".to_string())
        );
        assert_eq!(
            answer(&mut solver, &[0xff; 81], false),
            Answer::Failed("not valid UTF-8".to_string())
        );
    }

    fn os_args(case: &[&str]) -> Vec<OsString> {
        case.iter().map(OsString::from).collect()
    }

    /// The plain forms are read by hand exactly as clap reads them.
    #[test]
    fn the_plain_parser_agrees_with_clap() {
        let cases: &[&[&str]] = &[
            &[],
            &["a.txt"],
            &["-", "b.txt", "--unique"],
            &["-t", "1", "a.txt"],
            &["--threads", "4", "--unique", "a", "b"],
            &["--threads=2", "a"],
            &["a", "-t", "3"],
        ];
        for case in cases {
            let plain = parse_plain(&os_args(case)).unwrap_or_else(|| panic!("{case:?}"));
            let argv = std::iter::once(OsString::from("solve")).chain(os_args(case));
            let clap = <SolveCommand as clap::Parser>::try_parse_from(argv).unwrap();
            assert_eq!(format!("{plain:?}"), format!("{:?}", clap.args), "{case:?}");
        }
    }

    /// Help, errors and the rarer forms are left to clap.
    #[test]
    fn the_plain_parser_leaves_the_rest_to_clap() {
        let cases: &[&[&str]] = &[
            &["--help"],
            &["-h"],
            &["-t", "0"],
            &["-t", "x"],
            &["-t", "-1"],
            &["-t"],
            &["-t1"],
            &["--unique", "--unique"],
            &["-t", "1", "-t", "2"],
            &["--", "-t"],
            &["--bogus"],
        ];
        for case in cases {
            assert!(parse_plain(&os_args(case)).is_none(), "{case:?}");
        }
    }

    #[test]
    fn comments_blank_lines_and_line_ends_are_skipped() {
        let block = format!("# header\n{SEED}\r\n\n  \n{SEED}");
        let lines: Vec<&[u8]> = puzzle_lines(block.as_bytes()).collect();
        assert_eq!(lines, vec![SEED.as_bytes(), SEED.as_bytes()]);
    }

    /// Lines cut by the block boundary, a last line without a line break, and a line longer
    /// than a whole block all come out whole, in order, on both paths.
    #[test]
    fn blocks_cut_lines_correctly_on_one_thread_and_on_a_pool() {
        let empty = ".".repeat(81);
        let long = "x".repeat(BLOCK_BYTES + 10);
        let mut input = String::new();
        while input.len() < BLOCK_BYTES + 1000 {
            input.push_str(SEED);
            input.push('\n');
        }
        input.push_str(&format!("{long}\n{empty}"));
        let expected_lines = input.lines().count();
        for threads in [1, 2] {
            let pool = (threads > 1).then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(2)
                    .build()
                    .unwrap()
            });
            let mut batch = Batch {
                out: Vec::new(),
                unique: false,
                tally: Tally::default(),
                pool,
                solver: Solver::new(),
                lines: Vec::new(),
                answers: Vec::new(),
            };
            let reader = Box::new(io::Cursor::new(input.clone().into_bytes()));
            read_blocks("test", reader, &mut batch, None).unwrap();
            let out = String::from_utf8(batch.out).unwrap();
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), expected_lines);
            assert!(lines[..expected_lines - 2]
                .iter()
                .all(|line| line.starts_with("957214386")));
            assert_eq!(
                lines[expected_lines - 2],
                format!("error: expected 81 characters, found {}", long.len())
            );
            assert_eq!(lines[expected_lines - 1].len(), 81);
            assert_eq!(batch.tally.failed, 1);
        }
    }
}
