//! `sudoku-service merge`: bank files (from `generate`, or `/v1/generate/batch` streams
//! saved to disk) into one, keeping the first puzzle of each canonical form.
//!
//! The canonical form is computed by the engine from each line's `board`, not read from its
//! `canonical_id`: a file edited by hand, or written by an older generator, cannot make two
//! disguises of one puzzle look distinct. Lines are copied as they are (their cursors still
//! belong to the part they came from); `done` and `timeout` lines are counted and dropped.
//! Only classic puzzles have a canonical form, so a variant's line is an error, not a guess.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Deserialize;

use crate::engine::{Budget, Engine, Puzzle, RuleSpec, Rules, Shape};
use crate::shapes::BoardText;

/// Options of `sudoku-service merge`.
#[derive(Debug, Clone, clap::Args)]
pub struct MergeArgs {
    /// Bank files, NDJSON; an earlier file's puzzle wins over a later disguise of it.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The merged bank (a new file: never one of the inputs).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
}

/// What a merge did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Merged {
    pub puzzles: u64,
    pub kept: u64,
    pub duplicates: u64,
    /// `done` and `timeout` lines.
    pub other: u64,
}

/// The fields of a bank line that say which puzzle it is.
#[derive(Deserialize)]
struct BankLine {
    board: BoardText,
    #[serde(default)]
    variant: Option<String>,
    /// A Jigsaw's regions (rows or one line of labels, as the line was written).
    #[serde(default)]
    regions: Option<BoardText>,
}

/// Runs the command: exit 0 when merged, 2 on an unreadable or foreign line or an I/O error.
pub fn run(args: &MergeArgs) -> ExitCode {
    match merge(args) {
        Ok(merged) => {
            eprintln!(
                "{} files: {} puzzles read, {} kept, {} duplicates dropped (the canonical form \
                 of an earlier one), {} other lines skipped",
                args.files.len(),
                merged.puzzles,
                merged.kept,
                merged.duplicates,
                merged.other
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("sudoku-service merge: {message}");
            ExitCode::from(2)
        }
    }
}

fn merge(args: &MergeArgs) -> Result<Merged, String> {
    // Open every input first, so a typo in the last name fails before any output.
    let inputs = args
        .files
        .iter()
        .map(|path| {
            File::open(path)
                .map(|file| (path, BufReader::new(file)))
                .map_err(|e| format!("cannot open {}: {e}", path.display()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let out_name = args.out.display();
    let out = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&args.out)
        .map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => {
                format!("--out: {out_name} exists; merge writes a new file")
            }
            _ => format!("cannot create {out_name}: {e}"),
        })?;
    let mut out = io::BufWriter::new(out);
    let mut merged = Merged::default();
    let mut seen = HashSet::new();
    let engine = Engine::new();
    for (path, reader) in inputs {
        merge_file(path, reader, &engine, &mut seen, &mut out, &mut merged)?;
    }
    out.flush()
        .map_err(|e| format!("cannot write {out_name}: {e}"))?;
    Ok(merged)
}

/// Copies the lines of one file whose canonical form is not in `seen` yet.
fn merge_file(
    path: &Path,
    mut reader: BufReader<File>,
    engine: &Engine,
    seen: &mut HashSet<String>,
    out: &mut impl Write,
    merged: &mut Merged,
) -> Result<(), String> {
    let name = path.display();
    let mut line = String::new();
    for number in 1.. {
        line.clear();
        let read = reader
            .read_line(&mut line)
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        if read == 0 {
            return Ok(());
        }
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let at = |why: String| format!("{name}, line {number}: {why}");
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| at(format!("not JSON ({e})")))?;
        if value.get("board").is_none()
            && (value.get("done").is_some() || value.get("error").is_some())
        {
            merged.other += 1;
            continue;
        }
        let form = canonical_id(engine, value).map_err(at)?;
        merged.puzzles += 1;
        if !seen.insert(form) {
            merged.duplicates += 1;
            continue;
        }
        merged.kept += 1;
        writeln!(out, "{text}").map_err(|e| format!("cannot write the merged bank: {e}"))?;
    }
    Ok(())
}

/// The id of the canonical form of the classic, X, Hyper or Jigsaw puzzle a bank line holds.
fn canonical_id(engine: &Engine, value: serde_json::Value) -> Result<String, String> {
    let line = BankLine::deserialize(value).map_err(|e| format!("not a puzzle line ({e})"))?;
    let spec = match line.variant.as_deref().unwrap_or("classic") {
        "jigsaw" => {
            let labels = match &line.regions {
                Some(BoardText::Rows(rows)) => rows.clone(),
                Some(BoardText::Line(line)) => (line.as_bytes().chunks(9))
                    .map(|row| String::from_utf8_lossy(row).into_owned())
                    .collect(),
                _ => return Err("a jigsaw puzzle without its regions as labels".to_string()),
            };
            RuleSpec {
                regions: Some(
                    (labels.iter())
                        .map(|row| row.chars().map(|c| Some(c.to_string())).collect())
                        .collect(),
                ),
                ..RuleSpec::default()
            }
        }
        "classic" => RuleSpec::default(),
        "x" => RuleSpec {
            diagonals: true,
            ..RuleSpec::default()
        },
        "hyper" => RuleSpec {
            windows: true,
            ..RuleSpec::default()
        },
        variant => {
            return Err(format!(
                "a {variant} puzzle: only classic, X, Hyper and Jigsaw puzzles have a canonical \
                 form to merge by"
            ))
        }
    };
    let grid = line.board.parse().map_err(|e| format!("board: {e}"))?;
    if grid.shape() != Shape::NINE {
        return Err(format!(
            "board: a bank line's board is 9x9; this one is {}",
            grid.shape()
        ));
    }
    let rules = Rules::new(Shape::NINE, spec).map_err(|e| format!("rules: {e}"))?;
    let puzzle = Puzzle::new(grid, rules).map_err(|e| format!("board: {e}"))?;
    let form = engine
        .canonical(&puzzle, &Budget::unlimited())
        .map_err(|e| format!("board: {e}"))?;
    Ok(form.id())
}
