//! The bank commands as processes: `generate` (the endpoint's lines, the same on any number
//! of threads, resumed to the same file) and `merge` (isomorphic copies dropped by the
//! engine's canonical form), and their errors.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{post, TestServer};
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_sudoku-service");

/// A fresh path for this test's `name`, in cargo's scratch directory for integration tests.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_bank");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn sudoku(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("binary starts")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts that `output` is a refusal: exit 2, saying `says`.
fn refused(output: &Output, says: &str) {
    assert_eq!(output.status.code(), Some(2), "{}", stderr(output));
    assert!(stderr(output).contains(says), "{}", stderr(output));
}

/// Runs `merge INPUTS --out OUT`.
fn merge(inputs: &[&PathBuf], out: &Path) -> Output {
    let mut args = vec!["merge"];
    args.extend(inputs.iter().map(|path| path.to_str().unwrap()));
    args.extend(["--out", out.to_str().unwrap()]);
    sudoku(&args)
}

/// Runs `generate ARGS --out OUT` and returns the file, asserting success.
fn generate(args: &[&str], out: &Path) -> String {
    let mut all = vec!["generate"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out.to_str().unwrap()]);
    let output = sudoku(&all);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    std::fs::read_to_string(out).unwrap()
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

const EASY: &[&str] = &[
    "--count",
    "6",
    "--level",
    "easy",
    "--distinct",
    "--seed",
    "20261203",
    "--format",
    "line",
];

#[test]
fn the_file_is_the_same_on_one_and_two_threads_and_holds_distinct_puzzles() {
    let (one, two) = (scratch("threads-1.ndjson"), scratch("threads-2.ndjson"));
    let first = generate(&[EASY, &["--threads", "1"]].concat(), &one);
    let second = generate(&[EASY, &["--threads", "2"]].concat(), &two);
    assert_eq!(first, second);
    let lines = json_lines(&first);
    assert_eq!(lines.len(), 7);
    assert_eq!(lines[6]["done"], true);
    assert_eq!(lines[6]["puzzles"], 6);
    let forms: HashSet<&str> = lines[..6]
        .iter()
        .map(|line| line["canonical_id"].as_str().unwrap())
        .collect();
    assert_eq!(forms.len(), 6);
    assert!(lines[..6].iter().all(|line| line["difficulty"] == "easy"));
}

/// The CLI writes the bytes `POST /v1/generate/batch` streams for the same options.
#[tokio::test]
async fn the_file_is_what_the_endpoint_streams() {
    let out = scratch("endpoint.ndjson");
    let args = [
        "--count",
        "4",
        "--level",
        "medium",
        "--distinct",
        "--seed",
        "99",
        "--clues",
        "20-40",
    ];
    let file = generate(&args, &out);
    let server = TestServer::start().await;
    let body = json!({"count": 4, "difficulty": "medium", "distinct": true, "seed": 99,
                      "clues": {"min": 20, "max": 40}});
    let streamed = post(&server, "/v1/generate/batch", body)
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(file, streamed);
    server.shutdown().await;
}

#[test]
fn a_resumed_file_equals_an_uninterrupted_one() {
    let whole = generate(EASY, &scratch("whole.ndjson"));
    let lines: Vec<&str> = whole.lines().collect();
    // Cut inside the fourth line, as a kill during a write leaves it.
    let cut = scratch("cut.ndjson");
    let kept = format!("{}\n{}\n{}\n", lines[0], lines[1], lines[2]);
    std::fs::write(&cut, format!("{kept}{}", &lines[3][..40])).unwrap();
    let resumed = generate(&[EASY, &["--resume"]].concat(), &cut);
    assert_eq!(resumed, whole);
    // A finished file asked for more continues where it ended, as a longer batch would.
    let more = [&EASY[..1], &["8"], &EASY[2..]].concat();
    let longer = generate(&more, &scratch("longer.ndjson"));
    let extended = generate(&[&more[..], &["--resume"]].concat(), &cut);
    assert_eq!(extended, longer);
    // Resuming a missing file starts it.
    let fresh = generate(&[EASY, &["--resume"]].concat(), &scratch("fresh.ndjson"));
    assert_eq!(fresh, whole);
}

/// The puzzle on the line `board` turned a quarter and its digits relabelled `d -> 10 - d`.
fn disguise(board: &str) -> String {
    let cells: Vec<char> = board.chars().collect();
    (0..81)
        .map(|at| {
            let (r, c) = (at / 9, at % 9);
            match cells[(8 - c) * 9 + r].to_digit(10) {
                Some(d) => char::from_digit(10 - d, 10).unwrap(),
                None => '.',
            }
        })
        .collect()
}

#[test]
fn merge_keeps_the_first_of_each_canonical_form() {
    let a = scratch("merge-a.ndjson");
    let text = generate(EASY, &a);
    let mut copy = json_lines(&text)[1].clone();
    let board = copy["board"].as_str().unwrap().to_string();
    assert_ne!(disguise(&board), board);
    copy["board"] = json!(disguise(&board));
    // A lying canonical id must not save the copy: merge computes the form itself.
    copy["canonical_id"] = json!("p0000000000000000");
    let other = generate(
        &[
            "--count", "2", "--level", "easy", "--seed", "5", "--format", "line",
        ],
        &scratch("merge-other.ndjson"),
    );
    let b = scratch("merge-b.ndjson");
    std::fs::write(&b, format!("{copy}\n{other}")).unwrap();
    let out = scratch("merged.ndjson");
    let output = merge(&[&a, &b], &out);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let merged = std::fs::read_to_string(&out).unwrap();
    let lines = json_lines(&merged);
    let originals: Vec<Value> = json_lines(&text)[..6].to_vec();
    assert_eq!(&lines[..6], &originals[..]);
    // The copy is dropped; the other file's two puzzles stay unless one is a form seen
    // already (two seeds of another batch may meet one of these in disguise).
    let ids: HashSet<&str> = lines.iter().map(|l| l["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), lines.len());
    assert!(!merged.contains(&disguise(&board)));
    assert_eq!(lines.len(), 8, "{}", stderr(&output));
    assert!(
        stderr(&output).contains("9 puzzles read, 8 kept, 1 duplicates dropped"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("2 other lines skipped"));
}

/// Each bad command line exits 2 with a message naming what is wrong.
#[test]
fn bad_arguments_exit_2_saying_why() {
    let out = scratch("bad.ndjson");
    let out = out.to_str().unwrap();
    let forty = format!("{}{}", "x".repeat(40), ".".repeat(41));
    let technique = |level, name| {
        [
            "generate",
            "--count",
            "3",
            "--level",
            level,
            "--technique",
            name,
            "--out",
            out,
        ]
    };
    let cases: &[(&[&str], &str)] = &[
        (
            &["generate", "--count", "0", "--level", "easy", "--out", out],
            "--count",
        ),
        (&["generate", "--count", "3", "--out", out], "--level"),
        (
            &[
                "generate", "--count", "3", "--level", "tricky", "--out", out,
            ],
            "easy, medium",
        ),
        (
            &[
                "generate", "--count", "3", "--level", "easy", "--rating", "2-3", "--out", out,
            ],
            "--rating",
        ),
        (
            &["generate", "--count", "3", "--rating", "9-4", "--out", out],
            "above",
        ),
        (
            &[
                "generate",
                "--count",
                "3",
                "--rating",
                "10.0-",
                "--symmetry",
                "rotational",
                "--out",
                out,
            ],
            "--rating: symmetric classic puzzles are generated up to rating 9.9",
        ),
        (
            &[
                "generate", "--count", "3", "--level", "easy", "--clues", "30-20", "--out", out,
            ],
            "--clues",
        ),
        (
            &[
                "generate", "--count", "3", "--level", "easy", "--clues", "90", "--out", out,
            ],
            "from 0 to 81",
        ),
        (&technique("hard", "cage_sum"), "only killer puzzles"),
        (&technique("easy", "x_wing"), "--technique"),
        (
            &technique("hard", "hidden_single"),
            "rated at most 1.5, below this batch's lowest rating 2.6: lower the rating range, or \
             ask for it anywhere (--technique-as any)",
        ),
        (
            &[
                "generate",
                "--count",
                "3",
                "--level",
                "easy",
                "--pattern",
                "x.x",
                "--out",
                out,
            ],
            "81 characters",
        ),
        (
            &[
                "generate",
                "--count",
                "3",
                "--variant",
                "x",
                "--level",
                "easy",
                "--pattern",
                &forty,
                "--out",
                out,
            ],
            "--pattern",
        ),
        (
            &[
                "generate",
                "--count",
                "3",
                "--variant",
                "killer",
                "--distinct",
                "--out",
                out,
            ],
            "--distinct",
        ),
        (
            &[
                "generate", "--count", "3", "--level", "easy", "--shard", "1", "--out", out,
            ],
            "--seed",
        ),
        (
            &[
                "generate", "--count", "3", "--level", "easy", "--out", "-", "--resume",
            ],
            "--resume",
        ),
        (&["merge", "--out", out], "FILE"),
        (
            &["merge", "/nonexistent/bank.ndjson", "--out", out],
            "cannot open",
        ),
    ];
    for (args, says) in cases {
        let output = sudoku(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(says),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn files_that_are_not_this_batch_are_refused() {
    let file = scratch("theirs.ndjson");
    let path = file.to_str().unwrap();
    generate(EASY, &file);
    // Without --resume an existing file is never overwritten.
    refused(
        &sudoku(&[&["generate"], EASY, &["--out", path]].concat()),
        "exists",
    );
    // Resumed with another level, the cursor belongs to another batch.
    let other = [
        &EASY[..3],
        &["medium"],
        &EASY[4..],
        &["--resume", "--out", path],
    ]
    .concat();
    refused(
        &sudoku(&[&["generate"], &other[..]].concat()),
        "other options",
    );
    // A line that is not a bank line: resume and merge say where.
    let garbage = scratch("garbage.ndjson");
    std::fs::write(&garbage, "{\"id\": 1}\nnot json\n").unwrap();
    let resume = [
        &["generate"],
        EASY,
        &["--resume", "--out", garbage.to_str().unwrap()],
    ]
    .concat();
    refused(&sudoku(&resume), "line 1");
    let merged = scratch("garbage-merged.ndjson");
    refused(&merge(&[&garbage], &merged), "line 1: not a puzzle line");
    // A Killer has no canonical form to merge by.
    let killer = scratch("killer.ndjson");
    generate(
        &["--count", "1", "--variant", "killer", "--seed", "3"],
        &killer,
    );
    let merged = scratch("killer-merged.ndjson");
    refused(&merge(&[&killer], &merged), "killer puzzle");
    // A Jigsaw has one (its regions read from the line): merged with itself, each is kept
    // once.
    let jigsaw = scratch("jigsaw.ndjson");
    let text = generate(
        &["--count", "2", "--variant", "jigsaw", "--seed", "3"],
        &jigsaw,
    );
    let puzzles = json_lines(&text)
        .iter()
        .filter(|line| line.get("board").is_some())
        .count();
    let merged = scratch("jigsaw-merged.ndjson");
    let output = merge(&[&jigsaw, &jigsaw], &merged);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let kept = std::fs::read_to_string(&merged).unwrap();
    assert_eq!(kept.lines().count(), puzzles, "{kept}");
}
