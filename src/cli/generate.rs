//! `sudoku-service generate`: a bank of puzzles written to a file, the lines
//! `POST /v1/generate/batch` would stream for the same options and seed (the same
//! [`crate::bank`] plan and run), ending with the same `{"done": true, ...}` line.
//!
//! * **Both cores**: the puzzles of the next indices are generated in parallel on a rayon
//!   pool (one [`Engine`] per worker) and handed to the run in index order, so the file is the
//!   same on any number of threads. A few generations past the last line needed are thrown
//!   away; that is the price of not knowing in advance which seeds are skipped.
//! * **Budget**: each generation gets the service's default generation work budget (or
//!   `--work-budget`, to match a server configured otherwise) and no deadline, so which seeds
//!   are skipped depends only on the options, as on the server.
//! * **`--resume`**: the file's complete lines are read back (a line cut by the interruption
//!   is dropped, as is the last `done` line), its last cursor continues the batch, and its
//!   canonical forms are remembered for `--distinct`: the finished file is byte for byte the
//!   one an uninterrupted run writes. Output is flushed after every block of lines, so an
//!   interruption loses at most one block.
//! * **`--shard K`**: part `K` of a bank split across machines (a Kubernetes Indexed Job):
//!   the batch seed is derived from `--seed` and `K` ([`shard_seed`]); merge the parts with
//!   `sudoku-service merge`.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, IsTerminal, Seek, Write};
use std::num::NonZeroUsize;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::bank::{
    make, shard_seed, techniques, Asked, BankError, Plan, Request, Role, Run, Teaches, Wanted,
    DEFAULT_GENERATE_WORK_BUDGET, FORMATS, ROLES, SYMMETRIES,
};
use crate::engine::{Budget, Difficulty, Engine, Pattern, Rating, Symmetry, Technique, Variant};
use crate::shapes::write_json_line;

/// Generations in flight per worker thread: enough that a slow one rarely leaves a core idle
/// at the end of a block, few enough that little is thrown away after the last line.
const AHEAD_PER_THREAD: usize = 8;

thread_local! {
    /// Each worker's engine, kept across blocks (its solvers' buffers are reused, as on the
    /// server's solver threads); a generation's result never depends on what it ran before.
    static ENGINE: RefCell<Engine> = RefCell::new(Engine::new());
}

/// Options of `sudoku-service generate`: those of `POST /v1/generate/batch`, and where to
/// write.
#[derive(Debug, Clone, clap::Args)]
pub struct GenerateArgs {
    /// Puzzles to write (skipped seeds do not count).
    #[arg(long)]
    pub count: u64,
    /// A level: easy, medium, hard, expert, master or extreme (any case). Classic puzzles need
    /// it or --rating; a variant without either gets its minimal puzzle, not graded.
    #[arg(long, value_parser = level, conflicts_with = "rating")]
    pub level: Option<Difficulty>,
    /// A range of Sudoku Explainer ratings instead of a level: 6.5-7.5, 6.5-, -3.0 or 7.2.
    #[arg(long, value_parser = rating_range)]
    pub rating: Option<Ratings>,
    /// classic, killer, x, hyper or jigsaw.
    #[arg(long, value_parser = variant, default_value = "classic")]
    pub variant: VariantName,
    /// none or rotational (the givens look the same after a half turn).
    #[arg(long, value_parser = symmetry, default_value = "none")]
    pub symmetry: Symmetry,
    /// rows (nine strings per board) or line (one 81-character string).
    #[arg(long, value_parser = format, default_value = "rows")]
    pub format: BoardForm,
    /// Classic puzzles with their givens exactly here: 81 characters, x a given and . an
    /// empty cell (at least 17 givens); takes no --symmetry.
    #[arg(long, value_parser = pattern, conflicts_with = "symmetry")]
    pub pattern: Option<Pattern>,
    /// Keep only puzzles with this many givens: 22-30, 25-, -30 or 28.
    #[arg(long, value_parser = clue_range)]
    pub clues: Option<Clues>,
    /// No two puzzles share a canonical form (every variant but Killer).
    #[arg(long)]
    pub distinct: bool,
    /// A technique every puzzle must need, by the name grades give it (x_wing, xy_wing...).
    #[arg(long, value_parser = technique)]
    pub technique: Option<Technique>,
    /// Where --technique must be: hardest (the puzzle's hardest step) or any.
    #[arg(long, value_parser = role, default_value = "hardest", requires = "technique")]
    pub technique_as: Role,
    /// The bank's seed; a random one when absent (every line's cursor records it).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write part K of a bank split across machines: the batch seed is derived from --seed
    /// and K, so parts never repeat each other's seeds.
    #[arg(long, value_name = "K", requires = "seed")]
    pub shard: Option<u64>,
    /// The bank file (NDJSON); `-` writes to stdout.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
    /// Continue an interrupted --out file (a missing file starts it) instead of refusing to
    /// overwrite it.
    #[arg(long)]
    pub resume: bool,
    /// Worker threads; default: all cores. The file is the same for any number.
    #[arg(long, short = 't')]
    pub threads: Option<NonZeroUsize>,
    /// Work units per generation: the service's SUDOKU_GENERATE_WORK_BUDGET, whose default
    /// this is; a seed that needs more is skipped.
    #[arg(long, default_value_t = DEFAULT_GENERATE_WORK_BUDGET)]
    pub work_budget: u64,
}

/// A rating range, as `--rating` reads it.
#[derive(Debug, Clone)]
pub struct Ratings(pub RangeInclusive<Rating>);

/// A variant, as `--variant` reads it; `None` for classic.
#[derive(Debug, Clone, Copy)]
pub struct VariantName(pub Option<Variant>);

/// A board form, as `--format` reads it: `true` for rows.
#[derive(Debug, Clone, Copy)]
pub struct BoardForm(pub bool);

/// A clue range, as `--clues` reads it; either end may be open.
#[derive(Debug, Clone, Copy)]
pub struct Clues(pub Option<usize>, pub Option<usize>);

/// The one of `choices` named `value`, in any case, or an error listing them.
fn named<T: Copy>(value: &str, choices: &[(&str, T)]) -> Result<T, String> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(value.trim()))
        .map(|&(_, choice)| choice)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
            format!("expected one of {}", names.join(", "))
        })
}

fn level(value: &str) -> Result<Difficulty, String> {
    named(value, &Difficulty::ALL.map(|d| (d.name(), d)))
}

fn variant(value: &str) -> Result<VariantName, String> {
    let mut choices = vec![("classic", None)];
    choices.extend(Variant::ALL.map(|v| (v.name(), Some(v))));
    named(value, &choices).map(VariantName)
}

fn symmetry(value: &str) -> Result<Symmetry, String> {
    named(value, &SYMMETRIES)
}

fn technique(value: &str) -> Result<Technique, String> {
    named(value, &techniques())
}

fn pattern(value: &str) -> Result<Pattern, String> {
    Pattern::parse(value.trim()).map_err(|e| e.to_string())
}

fn role(value: &str) -> Result<Role, String> {
    named(value, &ROLES)
}

fn format(value: &str) -> Result<BoardForm, String> {
    named(value, &FORMATS).map(BoardForm)
}

/// `a-b`, `a-`, `-b` or `a` (both ends `a`): each end through `end`, a missing one open;
/// `example` shows the form when there is no end at all.
fn range<T: Copy>(
    value: &str,
    example: &str,
    end: impl Fn(&str) -> Result<T, String>,
) -> Result<(Option<T>, Option<T>), String> {
    let part = |text: &str| match text.trim() {
        "" => Ok(None),
        text => end(text).map(Some),
    };
    match value.split_once('-') {
        Some((low, high)) => Ok((part(low)?, part(high)?)),
        None => {
            let exact = part(value)?;
            if exact.is_none() {
                return Err(format!("expected a range such as {example}"));
            }
            Ok((exact, exact))
        }
    }
}

fn rating_range(value: &str) -> Result<Ratings, String> {
    let highest = Rating::HIGHEST.value();
    let end = |text: &str| match text.parse::<f64>() {
        Ok(v) if (0.0..=highest).contains(&v) => Ok(v),
        _ => Err(format!(
            "{text:?} is not a Sudoku Explainer rating from 0 to {highest}, such as 6.5"
        )),
    };
    let (min, max) = range(value, "6.5-7.5, 6.5-, -7.5 or 7.2", end)?;
    if let (Some(low), Some(high)) = (min, max) {
        if low > high {
            return Err(format!(
                "the lowest rating ({low}) is above the highest ({high})"
            ));
        }
    }
    Rating::between(min, max).map(Ratings).ok_or_else(|| {
        format!("no rating lies in {value:?}: Sudoku Explainer ratings have one decimal")
    })
}

fn clue_range(value: &str) -> Result<Clues, String> {
    let count = |text: &str| {
        text.parse::<usize>()
            .map_err(|_| format!("{text:?} is not a clue count"))
    };
    range(value, "22-30, 25-, -30 or 28", count).map(|(min, max)| Clues(min, max))
}

/// A bad option: which one, and why.
#[derive(Debug)]
struct Usage(String);

/// Runs the command: exit 0 when the bank is complete, 2 on a bad option or an I/O error (the
/// message says which).
pub fn run(args: &GenerateArgs) -> ExitCode {
    match generate(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Usage(message)) => {
            eprintln!("sudoku-service generate: {message}");
            ExitCode::from(2)
        }
    }
}

/// What the options ask each puzzle to be.
fn asked(args: &GenerateArgs) -> Result<Asked, Usage> {
    let ratings = match (&args.level, &args.rating) {
        (Some(level), _) => Some(level.ratings()),
        (None, Some(Ratings(range))) => Some(range.clone()),
        (None, None) => None,
    };
    let what = match (args.variant.0, ratings) {
        (variant, Some(ratings)) => Wanted::Rated(variant, ratings),
        (Some(variant), None) => Wanted::Unrated(variant),
        (None, None) => {
            return Err(Usage(
                "classic puzzles need --level (easy, medium, hard, expert, master or extreme) \
                 or --rating (such as 6.5-7.5)"
                    .to_string(),
            ))
        }
    };
    // A range nothing reaches is refused here, named by the option that asked for it.
    let option = if args.level.is_some() {
        "--level"
    } else {
        "--rating"
    };
    let asked = Asked::new(what, args.symmetry, args.format.0)
        .map_err(|e| Usage(format!("{option}: {e}")))?;
    match args.pattern {
        Some(pattern) => asked
            .with_pattern(pattern)
            .map_err(|e| Usage(format!("--pattern: {e}"))),
        None => Ok(asked),
    }
}

/// The option a batch error is about, as this command spells it.
fn flag(error: &BankError) -> &'static str {
    match error.field() {
        "count" => "--count",
        "distinct" => "--distinct",
        "cursor" => "--resume",
        "technique" => "--technique",
        _ => "--clues",
    }
}

/// What a bank file already holds: the bytes of its whole lines before any `done` line, its
/// last cursor, its puzzles and their canonical forms.
#[derive(Debug, Default)]
struct Written {
    bytes: u64,
    cursor: Option<String>,
    puzzles: u64,
    seen: HashSet<String>,
}

/// Reads back the bank file at `path` for `--resume`: every whole line must be a puzzle line
/// (with its cursor) or the last `done` line; a last line without its line break was cut by
/// the interruption and is left to be written again.
fn read_written(path: &Path) -> Result<Written, Usage> {
    let name = path.display();
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Written::default()),
        Err(e) => return Err(Usage(format!("cannot read {name}: {e}"))),
    };
    let mut reader = BufReader::new(file);
    let mut written = Written::default();
    let mut line = Vec::new();
    let mut done = false;
    for number in 1.. {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| Usage(format!("cannot read {name}: {e}")))?;
        if read == 0 || line.last() != Some(&b'\n') {
            break;
        }
        let not_ours = |why: &str| Usage(format!("{name}, line {number}: {why}; not resuming"));
        if done {
            return Err(not_ours("a line after the last (done) line"));
        }
        let value: serde_json::Value = serde_json::from_slice(&line)
            .map_err(|e| not_ours(&format!("not a bank file's line ({e})")))?;
        if value.get("done").is_some() {
            done = true;
            continue;
        }
        let Some(cursor) = value.get("cursor").and_then(|c| c.as_str()) else {
            return Err(not_ours("not a puzzle line (it has no cursor)"));
        };
        if value.get("error").is_some() {
            return Err(not_ours("an error line, which this command never writes"));
        }
        if let Some(id) = value.get("canonical_id").and_then(|c| c.as_str()) {
            written.seen.insert(id.to_string());
        }
        written.cursor = Some(cursor.to_string());
        written.puzzles += 1;
        written.bytes += read as u64;
    }
    Ok(written)
}

fn generate(args: &GenerateArgs) -> Result<(), Usage> {
    let asked = asked(args)?;
    let to_stdout = args.out.as_os_str() == "-";
    if args.resume && to_stdout {
        return Err(Usage("--resume needs --out FILE, not stdout".to_string()));
    }
    let written = if args.resume {
        read_written(&args.out)?
    } else {
        Written::default()
    };
    let seed = args
        .seed
        .map(|seed| args.shard.map_or(seed, |shard| shard_seed(seed, shard)));
    let plan = Plan::new(Request {
        asked,
        count: args.count,
        max_count: u64::MAX,
        clues: args
            .clues
            .map_or((None, None), |Clues(min, max)| (min, max)),
        distinct: args.distinct,
        technique: args.technique.map(|technique| Teaches {
            technique,
            role: args.technique_as,
        }),
        seed,
        cursor: written.cursor.as_deref(),
    })
    .map_err(|e| {
        let why = match &e {
            BankError::Count { got: 0, .. } => "write at least one puzzle".to_string(),
            BankError::OtherBatch => format!(
                "{} was started with other options or another seed: resume it with the ones \
                 it was started with",
                args.out.display()
            ),
            // The batch's message names the request's field; this command spells it a flag.
            BankError::TechniqueBelowRange { .. } => e
                .to_string()
                .replace("(technique_as any)", "(--technique-as any)"),
            other => other.to_string(),
        };
        Usage(format!("{}: {why}", flag(&e)))
    })?;
    if written.puzzles != plan.from.answered {
        return Err(Usage(format!(
            "--resume: {} has {} puzzle lines but its last cursor counts {}: it is not one \
             batch's output",
            args.out.display(),
            written.puzzles,
            plan.from.answered
        )));
    }

    let out: Box<dyn Write> = if to_stdout {
        Box::new(io::stdout().lock())
    } else {
        Box::new(open_out(&args.out, args.resume, written.bytes)?)
    };
    let threads = args
        .threads
        .map(NonZeroUsize::get)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Usage(format!("cannot start {threads} threads: {e}")))?;
    let bar = progress_bar(plan.count, plan.from.answered);
    let started = Instant::now();
    let run = Run::resume(&plan, written.seen);
    let run = write_bank(&pool, run, args.work_budget, out, &bar)
        .map_err(|e| Usage(format!("cannot write {}: {e}", args.out.display())))?;
    bar.finish_and_clear();

    let secs = started.elapsed().as_secs_f64();
    let made = run.at().answered - plan.from.answered;
    let resumed = if plan.from.answered > 0 {
        format!(" after the {} already there", plan.from.answered)
    } else {
        String::new()
    };
    eprintln!(
        "{made} puzzles written{resumed} ({} seeds skipped in all) in {secs:.3} s \
         ({:.1} puzzles/s, {threads} threads); seed {}",
        run.at().index - run.at().answered,
        made as f64 / secs.max(1e-9),
        plan.seed,
    );
    Ok(())
}

/// The output file: created (refusing to overwrite one without `--resume`), or cut after its
/// first `keep` bytes to be continued.
fn open_out(path: &Path, resume: bool, keep: u64) -> Result<File, Usage> {
    let name = path.display();
    if !resume {
        return OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| match e.kind() {
                io::ErrorKind::AlreadyExists => Usage(format!(
                    "--out: {name} exists: pass --resume to continue it, or remove it"
                )),
                _ => Usage(format!("cannot create {name}: {e}")),
            });
    }
    let cut = |e: io::Error| Usage(format!("cannot continue {name}: {e}"));
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(cut)?;
    file.set_len(keep).map_err(cut)?;
    file.seek(io::SeekFrom::End(0)).map_err(cut)?;
    Ok(file)
}

/// Runs `run` to its end on `pool`, each generation with `work` units of its own (as each is
/// its own job on the server), writing each line to `out` in order and the `done` line last;
/// returns the finished run.
fn write_bank<'a>(
    pool: &rayon::ThreadPool,
    mut run: Run<'a>,
    work: u64,
    mut out: Box<dyn Write>,
    bar: &ProgressBar,
) -> io::Result<Run<'a>> {
    let asked = &run.plan().asked;
    let threads = pool.current_num_threads();
    let mut block = Vec::new();
    while !run.finished() {
        // Ahead: at least a generation per thread, at most AHEAD_PER_THREAD each; fewer near
        // the end, where most of them would be thrown away.
        let left = usize::try_from(run.left()).unwrap_or(usize::MAX);
        let ahead = left.clamp(threads, threads * AHEAD_PER_THREAD);
        let seeds: Vec<u64> = (0..ahead as u64).map(|k| run.seed(k)).collect();
        let made: Vec<_> = pool.install(|| {
            seeds
                .par_iter()
                .with_max_len(1)
                .map(|&seed| {
                    ENGINE.with_borrow_mut(|engine| make(engine, &Budget::work(work), asked, seed))
                })
                .collect()
        });
        block.clear();
        for made in made {
            if run.finished() {
                break;
            }
            let line = run
                .take::<()>(made)
                .map_err(|e| io::Error::other(format!("a generation stopped: {e}")))?;
            if let Some(line) = line {
                write_json_line(&mut block, &line);
            }
        }
        out.write_all(&block)?;
        out.flush()?;
        bar.set_position(run.at().answered);
    }
    block.clear();
    write_json_line(&mut block, &run.done::<()>());
    out.write_all(&block)?;
    out.flush()?;
    Ok(run)
}

/// A bar over the puzzles when stderr is a terminal; hidden otherwise, so scripts and logs
/// get only the summary line.
fn progress_bar(count: u64, at: u64) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(count).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} puzzles {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_position(at);
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_both_ends_either_end_or_one_number() {
        let clues = |text: &str| clue_range(text).map(|Clues(min, max)| (min, max));
        assert_eq!(clues("22-30"), Ok((Some(22), Some(30))));
        assert_eq!(clues("25-"), Ok((Some(25), None)));
        assert_eq!(clues("-30"), Ok((None, Some(30))));
        assert_eq!(clues(" 28 "), Ok((Some(28), Some(28))));
        assert!(clues("").is_err());
        assert!(clues("a-3").unwrap_err().contains("\"a\""));
        let ratings = |text: &str| rating_range(text).map(|Ratings(range)| range);
        let tenths = |a, b| Rating::from_tenths(a)..=Rating::from_tenths(b);
        assert_eq!(ratings("6.5-7.5").unwrap(), tenths(65, 75));
        assert_eq!(ratings("7.2").unwrap(), tenths(72, 72));
        assert_eq!(ratings("-3").unwrap(), tenths(0, 30));
        assert!(ratings("21").is_err());
        assert!(ratings("8-7").unwrap_err().contains("above"));
        // Ends move inward to ratings; a range holding none is refused.
        assert_eq!(ratings("9.14-").unwrap(), tenths(92, u16::MAX));
        assert!(ratings("2.66-2.69").unwrap_err().contains("no rating lies"));
        // An empty range shows a rating's example, not a clue count's.
        assert!(ratings(" ").unwrap_err().contains("6.5-7.5"));
        assert!(clues(" ").unwrap_err().contains("22-30"));
    }

    #[test]
    fn names_are_read_in_any_case_and_others_list_the_choices() {
        assert_eq!(level("HARD"), Ok(Difficulty::Hard));
        assert_eq!(variant("Jigsaw").unwrap().0, Some(Variant::Jigsaw));
        assert_eq!(variant("classic").unwrap().0, None);
        assert_eq!(symmetry("rotational"), Ok(Symmetry::Rotational));
        assert!(!format("line").unwrap().0);
        assert!(format("grid").unwrap_err().contains("rows, line"));
    }
}
