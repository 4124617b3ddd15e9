//! The `sudoku-service` binary: `serve` (the default) runs the HTTP service, `solve` solves
//! puzzle files in batch. All logic lives in the library; this file only dispatches.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sudoku_service::cli::{self, SolveArgs};

#[derive(Debug, Parser)]
#[command(
    version,
    about = "Exact Sudoku solving and validation: an HTTP service and a batch CLI"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Solve puzzles from files or stdin, one 81-character puzzle per line.
    Solve(SolveArgs),
}

fn main() -> ExitCode {
    let args = Args::parse();
    match args.command {
        Command::Solve(solve) => cli::run(&solve),
    }
}
