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
    /// Search budget per solve, in guesses; a puzzle needing more gets a 422.
    #[arg(long, env = "SUDOKU_BUDGET", default_value_t = 100_000)]
    pub budget: u64,
    /// Guesses a classic solve may spend on the request's own async worker before it is handed
    /// to the solver threads (with the full budget); 0 sends every solve to the solver threads.
    /// Most puzzles need no guess, and for them the hand-off costs more than the solve.
    #[arg(long, env = "SUDOKU_INLINE_BUDGET", default_value_t = 32)]
    pub inline_budget: u64,
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

impl ServeArgs {
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
            budget: 100_000,
            inline_budget: 32,
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
    fn the_playground_switch_takes_the_usual_spellings() {
        assert!(parse(&[]).unwrap().playground);
        for off in ["false", "no", "0", "off"] {
            assert!(!parse(&["--playground", off]).unwrap().playground, "{off}");
        }
        assert!(parse(&["--playground", "yes"]).unwrap().playground);
        assert!(parse(&["--playground", "maybe"]).is_err());
    }
}
