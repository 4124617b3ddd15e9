//! Service configuration: every setting is a flag and an environment variable (flags win).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::{NonZeroU32, NonZeroUsize};
use std::time::Duration;

use super::server::ServeOptions;

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
    /// Work allowed per `/generate` call, in the same units. Generation grades hundreds of
    /// candidate puzzles to hit a level (most levels take well under a second, some `extreme`
    /// searches a few), so it gets its own, larger budget; a call that runs out answers 422
    /// `generation-failed` and another seed may succeed. Keep it below the request time limit.
    #[arg(long, env = "SUDOKU_GENERATE_WORK_BUDGET", default_value_t = DEFAULT_GENERATE_WORK_BUDGET)]
    pub generate_work_budget: u64,
    /// The key of the daily puzzle (`/v1/daily`): with it a day's puzzle cannot be worked out
    /// from the date alone. Give every replica the same one (they then serve the same
    /// puzzle); changing it changes every day's puzzle.
    #[arg(long, env = "SUDOKU_DAILY_SECRET", hide_env_values = true)]
    pub daily_secret: Option<String>,
    /// Most puzzles one `/v1/generate/batch` request may ask for.
    #[arg(long, env = "SUDOKU_GENERATE_BATCH_MAX", default_value_t = 10_000)]
    pub generate_batch_max: u64,
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
    /// Widest PNG `/v1/render` paints, in pixels (its height follows the picture, at most
    /// about 1.3 times this with a title, author and caption); a larger `size` is a 422.
    /// Painting costs about the pixels: at the default, a few tens of milliseconds.
    #[arg(long, env = "SUDOKU_RENDER_MAX_SIZE", default_value_t = 2048)]
    pub render_max_size: u32,
    /// Most pages a `/v1/booklet` PDF may have, answer pages included; a request for more
    /// puzzles than fit is a 422. Drawing a page costs a few milliseconds of CPU, and the
    /// booklet must be drawn within the request time limit.
    #[arg(long, env = "SUDOKU_BOOKLET_MAX_PAGES", default_value_t = DEFAULT_BOOKLET_MAX_PAGES)]
    pub booklet_max_pages: usize,
    /// Largest accepted request body, in bytes.
    #[arg(long, env = "SUDOKU_BODY_LIMIT", default_value_t = 8 * 1024)]
    pub body_limit: usize,
    /// Largest accepted body for `/solve/batch`, in bytes (10,000 puzzles as JSON fit in 1 MiB).
    #[arg(long, env = "SUDOKU_BATCH_BODY_LIMIT", default_value_t = 1024 * 1024)]
    pub batch_body_limit: usize,
    /// Time limit for a whole request, in milliseconds.
    #[arg(long, env = "SUDOKU_REQUEST_TIMEOUT_MS", default_value_t = 10_000)]
    pub request_timeout_ms: u64,
    /// Time limit for a client to send its request headers once it started them, in
    /// milliseconds.
    #[arg(long, env = "SUDOKU_HEADER_TIMEOUT_MS", default_value_t = 5_000)]
    pub header_timeout_ms: u64,
    /// A connection with no byte read and no request in flight for this long is closed, in
    /// milliseconds: from accept (a client that sends nothing) and between keep-alive requests.
    #[arg(long, env = "SUDOKU_IDLE_TIMEOUT_MS", default_value_t = 5_000)]
    pub idle_timeout_ms: u64,
    /// A response whose reader does not read for this long is abandoned and its connection
    /// closed, in milliseconds (unread answers must not pile up in memory).
    #[arg(long, env = "SUDOKU_SEND_TIMEOUT_MS", default_value_t = 10_000)]
    pub send_timeout_ms: u64,
    /// Connections served at once; default: the descriptor limit (`ulimit -n`) less the
    /// reserve and 64 for everything else the process opens, so `accept` never runs out.
    #[arg(long, env = "SUDOKU_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Connections accepted beyond `--max-connections` for `/healthz`, `/readyz` and
    /// `/metrics` only (everything else gets a 503 there), so the probes always get through.
    #[arg(long, env = "SUDOKU_RESERVE_CONNECTIONS", default_value_t = 32)]
    pub reserve_connections: usize,
    /// Also serve HTTP/2 over cleartext (h2c, prior knowledge). Off by default: balancers
    /// speak HTTP/1.1 to upstreams, and h2c only adds streams to manage for no client's gain.
    #[arg(
        long,
        env = "SUDOKU_HTTP2",
        default_value_t = false,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    pub http2: bool,
    /// Load balancers whose `X-Forwarded-For` is believed (addresses or networks,
    /// comma-separated): requests from them count for the client they name, for fairness and
    /// the rate limit. Requests from anyone else count for their own address.
    #[arg(long, env = "SUDOKU_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<String>,
    /// Requests per second one client may send (0: no limit); beyond it, 429 with
    /// `Retry-After`. The health and metrics probes are never limited.
    #[arg(long, env = "SUDOKU_RATE_LIMIT", default_value_t = 0)]
    pub rate_limit: u32,
    /// Requests a client may send at once above its rate (default: the rate itself).
    #[arg(long, env = "SUDOKU_RATE_BURST")]
    pub rate_burst: Option<u32>,
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

/// Descriptors kept free for everything but client connections: the listener, the runtime's
/// epoll and wake-up descriptors, standard streams, and room to spare.
const DESCRIPTOR_HEADROOM: usize = 64;

/// The soft limit on open descriptors (`ulimit -n`), where the platform says.
fn descriptor_limit() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes one `rlimit` through the pointer it is given, which points
        // at a live, writable value of that type; nothing else is touched.
        let status = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) };
        (status == 0).then(|| usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Pages a booklet may have unless configured: 24 puzzles at one a page and their answers
/// fit, and so do 96 at four a page.
pub const DEFAULT_BOOKLET_MAX_PAGES: usize = 40;

/// Work units per job unless configured: about 250 ms of CPU.
pub const DEFAULT_WORK_BUDGET: u64 = 250_000;

pub use crate::bank::DEFAULT_GENERATE_WORK_BUDGET;

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

    /// Connections served in full: as configured, or what the descriptor limit allows.
    pub fn max_connections(&self) -> usize {
        self.max_connections.unwrap_or_else(|| {
            let limit = descriptor_limit().unwrap_or(1024);
            limit
                .saturating_sub(self.reserve_connections + DESCRIPTOR_HEADROOM)
                .max(1)
        })
    }

    /// The per-client rate limit as (per second, burst), when there is one.
    pub fn rate(&self) -> Option<(NonZeroU32, NonZeroU32)> {
        let per_second = NonZeroU32::new(self.rate_limit)?;
        let burst = self
            .rate_burst
            .and_then(NonZeroU32::new)
            .unwrap_or(per_second);
        Some((per_second, burst))
    }

    /// How the connection loop is to behave.
    pub fn serve_options(&self) -> ServeOptions {
        ServeOptions {
            header_timeout: self.header_timeout(),
            idle_timeout: Duration::from_millis(self.idle_timeout_ms),
            send_timeout: Duration::from_millis(self.send_timeout_ms),
            max_connections: self.max_connections(),
            reserve_connections: self.reserve_connections,
            http2: self.http2,
            shutdown_delay: self.shutdown_delay(),
            drain_timeout: self.drain_timeout(),
        }
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
            generate_work_budget: DEFAULT_GENERATE_WORK_BUDGET,
            generate_batch_max: 10_000,
            daily_secret: None,
            inline_work: 32,
            budget: None,
            inline_budget: None,
            render_max_size: 2048,
            booklet_max_pages: DEFAULT_BOOKLET_MAX_PAGES,
            body_limit: 8 * 1024,
            batch_body_limit: 1024 * 1024,
            request_timeout_ms: 10_000,
            header_timeout_ms: 5_000,
            idle_timeout_ms: 5_000,
            send_timeout_ms: 10_000,
            max_connections: None,
            reserve_connections: 32,
            http2: false,
            trusted_proxies: Vec::new(),
            rate_limit: 0,
            rate_burst: None,
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
