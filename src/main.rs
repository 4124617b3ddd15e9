//! The `sudoku-service` binary: `serve` (the default) runs the HTTP service, `solve` solves
//! puzzle files in batch, `generate` and `merge` build puzzle banks. All logic lives in the library; this file only dispatches.

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sudoku_service::cli::generate::{self, GenerateArgs};
use sudoku_service::cli::healthcheck::{self, HealthcheckArgs};
use sudoku_service::cli::merge::{self, MergeArgs};
use sudoku_service::cli::{self, SolveArgs};
use sudoku_service::http::{self, LogFormat, ServeArgs};
use tracing_subscriber::EnvFilter;

/// mimalloc instead of the C library's allocator: a request allocates a few dozen times
/// (headers, body, board, answer), and glibc's malloc and free took about a sixth of the
/// instructions of a `/solve` (BENCHMARKS.md, issue 32). Built from source by the crate with
/// the C compiler, like every other build step.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Parser)]
#[command(
    version,
    about = "Exact Sudoku solving and validation: an HTTP JSON service and a batch CLI",
    args_conflicts_with_subcommands = true
)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Options of `serve`, which runs when no subcommand is given.
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP service (the default).
    Serve(Box<ServeArgs>),
    #[command(about = cli::SOLVE_ABOUT)]
    Solve(SolveArgs),
    /// Write a bank of puzzles to a file: the lines of POST /v1/generate/batch, on every core.
    Generate(GenerateArgs),
    /// Merge bank files, keeping the first puzzle of each canonical form.
    Merge(MergeArgs),
    /// Exit 0 if the server on this machine answers /healthz (for container health checks).
    Healthcheck(HealthcheckArgs),
}

fn main() -> ExitCode {
    if let Some(code) = cli::run_if_solve() {
        return code;
    }
    let args = Args::parse();
    match args.command {
        Some(Command::Solve(solve)) => cli::run(&solve),
        Some(Command::Generate(bank)) => generate::run(&bank),
        Some(Command::Merge(banks)) => merge::run(&banks),
        Some(Command::Healthcheck(probe)) => healthcheck::run(&probe),
        Some(Command::Serve(serve)) => run_service(*serve),
        None => run_service(args.serve),
    }
}

fn run_service(args: ServeArgs) -> ExitCode {
    init_tracing(args.log_format);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("sudoku-service: cannot start the runtime: {err}");
            return ExitCode::from(1);
        }
    };
    runtime.block_on(http::run(args))
}

/// Logs go to stderr, so that stdout stays free for data; RUST_LOG sets the level.
fn init_tracing(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().with_current_span(true).init(),
    }
}
