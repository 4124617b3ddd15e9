//! Service configuration: every setting is a flag and an environment variable (flags win).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroUsize;
use std::time::Duration;

/// Log output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

/// Options of `sudoku-service serve` (also accepted without the subcommand).
#[derive(Debug, Clone, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "SUDOKU_HOST", default_value_t = IpAddr::V4(Ipv4Addr::UNSPECIFIED))]
    pub host: IpAddr,
    /// Port to listen on (0 picks a free one).
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// Solves running at once; default: the number of cores.
    #[arg(long, env = "SUDOKU_MAX_SOLVES")]
    pub max_solves: Option<NonZeroUsize>,
    /// Solves allowed to wait for a slot before requests are refused with 503; default: 32 per
    /// slot (a typical solve takes microseconds, so that is still a queue of well under a
    /// millisecond, while the budget bounds the worst case).
    #[arg(long, env = "SUDOKU_QUEUE_DEPTH")]
    pub queue_depth: Option<usize>,
    /// Work allowed per engine job (a solve, a grade, a hint, a generation; each puzzle of a
    /// batch), in work units of about a microsecond of CPU on a current x86-64 core (a guess of
    /// the classic solver; a thousand cell or combination visits of the general one). A
    /// puzzle that needs more gets a 422 `budget-exhausted`. The default keeps any one job
    /// under about a quarter of a second of CPU.
    #[arg(long, env = "SUDOKU_WORK_BUDGET", default_value_t = DEFAULT_WORK_BUDGET)]
    pub work_budget: u64,
    /// Work a solve may spend on the request's own async worker before it is handed to the
    /// solver threads (with the full budget); 0 sends every solve to the solver threads.
    /// Most puzzles need no guess, and for them the hand-off costs more than the solve.
    #[arg(long, env = "SUDOKU_INLINE_WORK", default_value_t = 32)]
    pub inline_work: u64,
    /// Retired: the budget used to count guesses; see `--work-budget`.
    #[arg(long, env = "SUDOKU_BUDGET", hide = true)]
    pub budget: Option<String>,
    /// Retired: see `--inline-work`.
    #[arg(long, env = "SUDOKU_INLINE_BUDGET", hide = true)]
    pub inline_budget: Option<String>,
    /// Largest accepted request body, in bytes.
    #[arg(long, env = "SUDOKU_BODY_LIMIT", default_value_t = 8 * 1024)]
    pub body_limit: usize,
    /// Largest accepted body for `/solve/batch`, in bytes (10,000 puzzles as JSON fit in 1 MiB).
    #[arg(long, env = "SUDOKU_BATCH_BODY_LIMIT", default_value_t = 1024 * 1024)]
    pub batch_body_limit: usize,
    /// Time limit for a whole request, in milliseconds.
    #[arg(long, env = "SUDOKU_REQUEST_TIMEOUT_MS", default_value_t = 10_000)]
    pub request_timeout_ms: u64,
    /// Time limit for a client to send its request headers, in milliseconds.
    #[arg(long, env = "SUDOKU_HEADER_TIMEOUT_MS", default_value_t = 5_000)]
    pub header_timeout_ms: u64,
    /// Origins allowed by CORS, comma-separated; `*` allows any origin.
    #[arg(
        long,
        env = "SUDOKU_CORS_ORIGINS",
        default_value = "*",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,
    /// Log format; the level comes from RUST_LOG (default: info).
    #[arg(long, env = "SUDOKU_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// On SIGTERM, keep serving this long with readiness failing before closing the listener,
    /// so a load balancer notices first.
    #[arg(long, env = "SUDOKU_SHUTDOWN_DELAY_MS", default_value_t = 0)]
    pub shutdown_delay_ms: u64,
    /// Longest wait for in-flight requests after the listener is closed.
    #[arg(long, env = "SUDOKU_DRAIN_TIMEOUT_SECS", default_value_t = 30)]
    pub drain_timeout_secs: u64,
    /// Serve the playground page at `/` (and its script and style). Off for deployments that
    /// want nothing but the API on the wire.
    #[arg(
        long,
        env = "SUDOKU_PLAYGROUND",
        default_value_t = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub playground: bool,
}

/// Work units per job unless configured: about 250 ms of CPU.
pub const DEFAULT_WORK_BUDGET: u64 = 250_000;

impl ServeArgs {
    /// Refuses settings that no longer exist, with what to use instead, rather than
    /// ignoring them (a silently ignored limit is a limit an operator believes in wrongly).
    pub fn check_retired(&self) -> Result<(), String> {
        if self.budget.is_some() {
            return Err(format!(
                "--budget / SUDOKU_BUDGET (guesses per solve) is gone: use --work-budget / \
                 SUDOKU_WORK_BUDGET, in work units of about a microsecond of CPU (default \
                 {DEFAULT_WORK_BUDGET}); one unit is one guess of the classic solver"
            ));
        }
        if self.inline_budget.is_some() {
            return Err(
                "--inline-budget / SUDOKU_INLINE_BUDGET is gone: use --inline-work / \
                 SUDOKU_INLINE_WORK (work units; default 32)"
                    .to_string(),
            );
        }
        Ok(())
    }

    pub fn listen_addr(&self) -> SocketAddr {
        SocketAddr::new(self.host, self.port)
    }

    pub fn slots(&self) -> usize {
        self.max_solves
            .map(NonZeroUsize::get)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
    }

    pub fn queue(&self) -> usize {
        self.queue_depth.unwrap_or(32 * self.slots())
    }

    pub fn request_timeout(&self) -> Duration {
        Duration::from_millis(self.request_timeout_ms)
    }

    pub fn header_timeout(&self) -> Duration {
        Duration::from_millis(self.header_timeout_ms)
    }

    pub fn shutdown_delay(&self) -> Duration {
        Duration::from_millis(self.shutdown_delay_ms)
    }

    pub fn drain_timeout(&self) -> Duration {
        Duration::from_secs(self.drain_timeout_secs)
    }
}

impl Default for ServeArgs {
    /// The documented defaults, ignoring the environment (for tests and embedding).
    fn default() -> Self {
        ServeArgs {
            host: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            port: 8080,
            max_solves: None,
            queue_depth: None,
            work_budget: DEFAULT_WORK_BUDGET,
            inline_work: 32,
            budget: None,
            inline_budget: None,
            body_limit: 8 * 1024,
            batch_body_limit: 1024 * 1024,
            request_timeout_ms: 10_000,
            header_timeout_ms: 5_000,
            cors_origins: vec!["*".to_string()],
            log_format: LogFormat::Text,
            shutdown_delay_ms: 0,
            drain_timeout_secs: 30,
            playground: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        serve: ServeArgs,
    }

    fn parse(args: &[&str]) -> Result<ServeArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("sudoku-service").chain(args.iter().copied()))
            .map(|cli| cli.serve)
    }

    #[test]
    fn retired_budget_settings_are_refused_with_their_replacement() {
        let args = parse(&["--budget", "5000"]).unwrap();
        let err = args.check_retired().unwrap_err();
        assert!(err.contains("--work-budget"), "{err}");
        let args = parse(&["--inline-budget", "8"]).unwrap();
        assert!(args.check_retired().unwrap_err().contains("--inline-work"));
        let args = parse(&["--work-budget", "5000", "--inline-work", "8"]).unwrap();
        assert!(args.check_retired().is_ok());
        assert_eq!((args.work_budget, args.inline_work), (5000, 8));
    }

    #[test]
    fn the_playground_switch_takes_the_usual_spellings() {
        assert!(parse(&[]).unwrap().playground);
        for off in ["false", "no", "0", "off"] {
            assert!(!parse(&["--playground", off]).unwrap().playground, "{off}");
        }
        assert!(parse(&["--playground", "yes"]).unwrap().playground);
        assert!(parse(&["--playground", "maybe"]).is_err());
    }
}
