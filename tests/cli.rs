//! The `solve` command as a process: input order, error lines, exit codes.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{assert_solves, SEED, SEED_SOLUTION};

fn solve(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-service"))
        .arg("solve")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn solves_stdin_in_order_and_skips_comments() {
    let empty = ".".repeat(81);
    let input = format!(
        "# a comment\n{SEED}\n\n{empty}\r\n{}\n",
        SEED.replace('.', "0")
    );
    let output = solve(&["--threads", "2"], &input);
    assert_eq!(output.status.code(), Some(0));
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], SEED_SOLUTION);
    assert_solves(&empty, &lines[1]);
    assert_eq!(lines[2], SEED_SOLUTION);
    let summary = String::from_utf8_lossy(&output.stderr);
    assert!(
        summary.contains("3 puzzles, 3 solved, 0 failed"),
        "{summary}"
    );
}

#[test]
fn failures_become_error_lines_and_exit_1() {
    let empty = ".".repeat(81);
    let clash = format!("11{}", ".".repeat(79));
    let input = format!("{SEED}\nshort\n{empty}\n{clash}\n");
    let output = solve(&["--unique"], &input);
    assert_eq!(output.status.code(), Some(1));
    let lines = stdout_lines(&output);
    assert_eq!(lines[0], SEED_SOLUTION);
    assert_eq!(lines[1], "error: expected 81 characters, found 5");
    assert_eq!(lines[2], "error: more than one solution");
    assert_eq!(
        lines[3],
        "error: digit 1 repeats in row 1: row 1, column 1 and row 1, column 2"
    );
    assert_eq!(lines.len(), 4);
}

#[test]
fn unsolvable_puzzle_says_no_solution() {
    let line = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    let output = solve(&[], &format!("{line}\n"));
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout_lines(&output), vec!["error: no solution"]);
}

#[test]
fn missing_file_is_exit_2() {
    let output = solve(&["/definitely/not/here.txt"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot open"));
}

/// `solve` parses its options on its own (see `cli::run_if_solve`); `help solve` goes through
/// the binary's whole command tree. Both must describe the command the same way.
#[test]
fn solve_help_is_the_same_on_both_parsing_paths() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sudoku-service"))
            .args(args)
            .output()
            .unwrap()
    };
    let own = run(&["solve", "--help"]);
    let tree = run(&["help", "solve"]);
    assert_eq!(own.status.code(), Some(0));
    assert_eq!(tree.status.code(), Some(0));
    let text = String::from_utf8_lossy(&own.stdout);
    // Equal and empty would pass the comparison: the help must describe the command.
    assert!(
        text.contains("Usage: sudoku-service solve") && text.contains("--threads"),
        "{text}"
    );
    assert_eq!(text, String::from_utf8_lossy(&tree.stdout));
}

#[test]
fn bad_flag_is_exit_2() {
    assert_eq!(solve(&["--threads", "zero"], "").status.code(), Some(2));
}

#[test]
fn files_are_read_in_argument_order() {
    let dir = std::env::temp_dir().join(format!("sudoku-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let first = dir.join("a.txt");
    let second = dir.join("b.txt");
    std::fs::write(&first, format!("{SEED}\n")).unwrap();
    std::fs::write(&second, format!("{}\n", ".".repeat(81))).unwrap();
    let output = solve(
        &[
            first.to_str().unwrap(),
            second.to_str().unwrap(),
            "--threads",
            "1",
        ],
        "",
    );
    std::fs::remove_dir_all(&dir).ok();
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], SEED_SOLUTION);
    assert_solves(&".".repeat(81), &lines[1]);
}
