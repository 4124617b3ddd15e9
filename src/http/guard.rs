//! [`Guard`]: what a request must pass before any handler runs, so that the cheap refusals
//! come first and never cost a body read or a solver: the connection kind (a reserve
//! connection serves only the operator probes), a `Host` header on HTTP/1.1, the header and
//! URI limits, the body size the client announces, and the optional per-client rate limit.
//!
//! hyper itself parses up to [`MAX_HEADERS`](super::server::MAX_HEADERS) headers and about
//! 400 KB of head; the service's byte and target limits sit below those, so that a client
//! going over them gets a problem+json answer from here with the figures. What hyper
//! refuses itself gets the same kind of problem, written in place of its bare status line
//! (`server.rs`), and the connection closed.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue};
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::{DefaultKeyedRateLimiter, Quota};

use super::client::{Client, TrustedProxies};
use super::problem::Problem;
use super::server::Connection;

/// Most headers a request may have. Over HTTP/1 hyper stops at the same count
/// ([`MAX_HEADERS`](super::server::MAX_HEADERS)) and its refusal is rewritten into the same
/// problem on the way out; this check counts HTTP/2 requests, which hyper does not.
pub const MAX_REQUEST_HEADERS: usize = 100;
/// Most bytes the request headers may take, names and values together.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;
/// Longest request target (path and query).
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// The routes that stay open on reserve connections and are never rate limited.
const PROBES: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// Rate limiter checks between two sweeps of its idle clients.
const SWEEP_EVERY: u64 = 16_384;

/// The quota policy header of the IETF RateLimit header fields draft
/// (draft-ietf-httpapi-ratelimit-headers): `"per-client";q=BURST;w=SECONDS`.
pub static RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
/// The draft's state header: `"per-client";r=REMAINING;t=SECONDS` (until the quota is whole).
pub static RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");

/// The name both headers give the one policy: every client has its own bucket.
const POLICY_NAME: &str = "per-client";

/// A keyed limiter that reports the state it decided on, for the RateLimit header.
type Limiter = DefaultKeyedRateLimiter<IpAddr, StateInformationMiddleware>;

/// The per-client rate limit: governor's GCRA bucket of `burst` requests refilled at
/// `per_second`, and the policy header that describes it (the same on every answer).
#[derive(Debug)]
struct RateLimit {
    limiter: Limiter,
    per_second: u32,
    burst: u32,
    policy: HeaderValue,
}

/// What the rate-limit headers of one answer say: nothing when limiting is off; the policy
/// alone for a request that does not count (the probes); the policy and this client's state
/// for every other.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RateHeaders {
    policy: Option<HeaderValue>,
    state: Option<HeaderValue>,
}

impl RateHeaders {
    /// Writes the headers there are into `headers`.
    pub fn apply(self, headers: &mut HeaderMap) {
        if let Some(policy) = self.policy {
            headers.insert(RATELIMIT_POLICY.clone(), policy);
        }
        if let Some(state) = self.state {
            headers.insert(RATELIMIT.clone(), state);
        }
    }
}

/// See the module docs.
#[derive(Debug)]
pub struct Guard {
    proxies: TrustedProxies,
    body_limit: usize,
    batch_body_limit: usize,
    limit: Option<RateLimit>,
    checks: AtomicU64,
}

impl Guard {
    /// `rate` requests per second per client with bursts of `burst` (no limit when `rate` is
    /// `None`).
    pub fn new(
        proxies: TrustedProxies,
        body_limit: usize,
        batch_body_limit: usize,
        rate: Option<(NonZeroU32, NonZeroU32)>,
    ) -> Guard {
        Guard {
            proxies,
            body_limit,
            batch_body_limit,
            limit: rate.map(|(per_second, burst)| RateLimit::new(per_second, burst)),
            checks: AtomicU64::new(0),
        }
    }

    /// Who `request` counts for, or the problem that refuses it before any handler runs;
    /// and, either way, the rate-limit headers its answer carries. `route` is the matched
    /// route pattern (or "unmatched").
    pub fn screen(&self, request: &Request, route: &str) -> (Result<Client, Problem>, RateHeaders) {
        let connection = request.extensions().get::<Connection>().copied();
        let client = connection.map_or_else(Client::default, |c| {
            self.proxies.client(c.peer.ip(), request.headers())
        });
        let probe = PROBES.contains(&route);
        let mut rate = RateHeaders {
            policy: self.limit.as_ref().map(|limit| limit.policy.clone()),
            state: None,
        };
        if connection.is_some_and(|c| c.reserve) && !probe {
            let overloaded = Problem::Overloaded {
                retry_after_secs: 1,
            };
            return (Err(overloaded), rate);
        }
        let checked = self
            .check_head(request)
            .and_then(|()| self.check_body(request, route));
        if let Err(problem) = checked {
            return (Err(problem), rate);
        }
        if !probe {
            if let Err(problem) = self.check_rate(client, &mut rate) {
                return (Err(problem), rate);
            }
        }
        (Ok(client), rate)
    }

    fn check_head(&self, request: &Request) -> Result<(), Problem> {
        let headers = request.headers();
        // RFC 9112 (3.2): a server must answer 400 to an HTTP/1.1 request without Host.
        if request.version() == axum::http::Version::HTTP_11 && !headers.contains_key(header::HOST)
        {
            return Err(Problem::MalformedRequest {
                detail: "an HTTP/1.1 request must carry a Host header".into(),
            });
        }
        let bytes: usize = headers
            .iter()
            .map(|(name, value)| name.as_str().len() + value.len())
            .sum();
        if headers.len() > MAX_REQUEST_HEADERS || bytes > MAX_HEADER_BYTES {
            return Err(Problem::HeadersTooLarge {
                detail: format!(
                    "the request has {} headers and {bytes} bytes of them; this server takes \
                     at most {MAX_REQUEST_HEADERS} headers and {MAX_HEADER_BYTES} bytes",
                    headers.len()
                ),
            });
        }
        let target = request
            .uri()
            .path_and_query()
            .map_or(0, |p| p.as_str().len());
        if target > MAX_URI_BYTES {
            return Err(Problem::UriTooLong {
                detail: format!(
                    "the request target has {target} bytes; this server takes at most \
                     {MAX_URI_BYTES}"
                ),
            });
        }
        Ok(())
    }

    /// A body announced larger than the route takes is refused before a byte of it is read.
    fn check_body(&self, request: &Request, route: &str) -> Result<(), Problem> {
        let limit = if super::is_batch_route(route) {
            self.batch_body_limit
        } else {
            self.body_limit
        };
        let announced = request
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u128>().ok());
        match announced {
            Some(length) if length > limit as u128 => Err(Problem::BodyTooLarge),
            _ => Ok(()),
        }
    }

    /// Counts the request against its client's bucket; `rate` gets the state it leaves.
    fn check_rate(&self, client: Client, rate: &mut RateHeaders) -> Result<(), Problem> {
        let Some(limit) = &self.limit else {
            return Ok(());
        };
        // Idle clients' state is dropped now and then, so the limiter's memory follows the
        // clients active lately, not every address ever seen.
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            limit.limiter.retain_recent();
        }
        match limit.limiter.check_key(&client.0) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity();
                rate.state = Some(limit.state(remaining, limit.refill_secs(remaining)));
                Ok(())
            }
            Err(not_until) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let retry_after_secs = wait.as_secs() + 1;
                rate.state = Some(limit.state(0, retry_after_secs));
                Err(Problem::TooManyRequests { retry_after_secs })
            }
        }
    }
}

impl RateLimit {
    fn new(per_second: NonZeroU32, burst: NonZeroU32) -> RateLimit {
        let limiter =
            DefaultKeyedRateLimiter::keyed(Quota::per_second(per_second).allow_burst(burst))
                .with_middleware::<StateInformationMiddleware>();
        let (per_second, burst) = (per_second.get(), burst.get());
        // The draft's policy is a quota per window; a GCRA bucket of `burst` refilled at
        // `per_second` lets `burst` through in the time it takes to refill completely.
        let window = burst.div_ceil(per_second).max(1);
        let policy = HeaderValue::from_str(&format!("\"{POLICY_NAME}\";q={burst};w={window}"))
            .unwrap_or_else(|_| unreachable!("numbers and a fixed name are a valid header"));
        RateLimit {
            limiter,
            per_second,
            burst,
            policy,
        }
    }

    /// Whole seconds until a bucket with `remaining` places left is full again.
    fn refill_secs(&self, remaining: u32) -> u64 {
        u64::from(self.burst.saturating_sub(remaining)).div_ceil(u64::from(self.per_second))
    }

    /// The RateLimit header: `remaining` requests now, the quota whole again in `reset_secs`.
    fn state(&self, remaining: u32, reset_secs: u64) -> HeaderValue {
        HeaderValue::from_str(&format!("\"{POLICY_NAME}\";r={remaining};t={reset_secs}"))
            .unwrap_or_else(|_| unreachable!("numbers and a fixed name are a valid header"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn guard(rate: Option<(u32, u32)>) -> Guard {
        Guard::new(
            TrustedProxies::default(),
            8192,
            1 << 20,
            rate.map(|(r, b)| (NonZeroU32::new(r).unwrap(), NonZeroU32::new(b).unwrap())),
        )
    }

    impl Guard {
        /// The verdict alone, without the rate-limit headers.
        fn verdict(&self, request: &Request, route: &str) -> Result<Client, Problem> {
            self.screen(request, route).0
        }
    }

    fn request(path: &str) -> axum::http::request::Builder {
        Request::builder().uri(path).header("host", "localhost")
    }

    #[test]
    fn an_http_1_1_request_without_host_is_malformed() {
        let g = guard(None);
        let hostless = Request::builder()
            .uri("/healthz")
            .body(Body::empty())
            .unwrap();
        assert!(matches!(
            g.verdict(&hostless, "/healthz"),
            Err(Problem::MalformedRequest { .. })
        ));
        let old = Request::builder()
            .uri("/healthz")
            .version(axum::http::Version::HTTP_10)
            .body(Body::empty())
            .unwrap();
        assert!(g.verdict(&old, "/healthz").is_ok(), "HTTP/1.0 needs none");
        assert!(g
            .verdict(
                &request("/healthz").body(Body::empty()).unwrap(),
                "/healthz"
            )
            .is_ok());
    }

    #[test]
    fn an_announced_body_over_the_limit_is_refused_before_it_is_read() {
        let g = guard(None);
        let big = request("/solve")
            .header("content-length", "99999999999")
            .body(Body::empty())
            .unwrap();
        assert_eq!(g.verdict(&big, "/solve"), Err(Problem::BodyTooLarge));
        let batch = request("/solve/batch")
            .header("content-length", "100000")
            .body(Body::empty())
            .unwrap();
        assert!(g.verdict(&batch, "/solve/batch").is_ok());
        assert_eq!(g.verdict(&batch, "/solve"), Err(Problem::BodyTooLarge));
    }

    #[test]
    fn too_many_headers_or_too_long_a_target_are_problems() {
        let g = guard(None);
        let mut many = request("/solve");
        for i in 0..120 {
            many = many.header(format!("x-h{i}"), "1");
        }
        let many = many.body(Body::empty()).unwrap();
        assert!(matches!(
            g.verdict(&many, "/solve"),
            Err(Problem::HeadersTooLarge { .. })
        ));
        let long = request(&format!("/solve?{}", "a".repeat(9000)))
            .body(Body::empty())
            .unwrap();
        assert!(matches!(
            g.verdict(&long, "/solve"),
            Err(Problem::UriTooLong { .. })
        ));
    }

    /// A request on a connection from `peer`, full or reserve.
    fn on_connection(path: &str, reserve: bool, peer: [u8; 4]) -> Request {
        let mut request = request(path).body(Body::empty()).unwrap();
        request.extensions_mut().insert(Connection {
            peer: std::net::SocketAddr::from((peer, 40_000)),
            reserve,
        });
        request
    }

    #[test]
    fn a_reserve_connection_serves_the_probes_only_and_names_its_client() {
        let g = guard(None);
        for probe in PROBES {
            let client = g.verdict(&on_connection(probe, true, [10, 0, 0, 7]), probe);
            assert_eq!(client, Ok(Client(IpAddr::from([10, 0, 0, 7]))), "{probe}");
        }
        assert_eq!(
            g.verdict(&on_connection("/solve", true, [10, 0, 0, 7]), "/solve"),
            Err(Problem::Overloaded {
                retry_after_secs: 1
            })
        );
        // A full connection is served whatever the route, for the peer it came from.
        let client = g.verdict(&on_connection("/solve", false, [10, 0, 0, 8]), "/solve");
        assert_eq!(client, Ok(Client(IpAddr::from([10, 0, 0, 8]))));
    }

    /// A request with `count` headers whose names and values take `bytes` bytes in all, the
    /// first of them its Host.
    fn with_headers(count: usize, bytes: usize) -> Request {
        let mut builder = Request::builder().uri("/solve").header("host", "h");
        let mut left = bytes - "hosth".len();
        for i in 1..count {
            let name = format!("x-{i:05}");
            let value_len = if i + 1 == count { left - name.len() } else { 1 };
            left -= name.len() + value_len;
            builder = builder.header(name, "v".repeat(value_len));
        }
        builder.body(Body::empty()).unwrap()
    }

    #[test]
    fn the_header_limits_are_inclusive_and_count_names_and_values() {
        let g = guard(None);
        // Exactly 100 headers and exactly 16 KiB of them pass; one more of either does not.
        assert!(g.verdict(&with_headers(100, 800), "/solve").is_ok());
        assert!(g
            .verdict(&with_headers(4, MAX_HEADER_BYTES), "/solve")
            .is_ok());
        assert!(matches!(
            g.verdict(&with_headers(101, 808), "/solve"),
            Err(Problem::HeadersTooLarge { .. })
        ));
        let over = g.verdict(&with_headers(4, MAX_HEADER_BYTES + 1), "/solve");
        let Err(Problem::HeadersTooLarge { detail }) = over else {
            panic!("{over:?}");
        };
        assert_eq!(
            detail,
            "the request has 4 headers and 16385 bytes of them; this server takes at most 100 \
             headers and 16384 bytes"
        );
        assert_eq!(MAX_HEADER_BYTES, 16_384);
    }

    #[test]
    fn the_target_limit_is_inclusive() {
        let g = guard(None);
        let target = |len: usize| format!("/solve?{}", "a".repeat(len - "/solve?".len()));
        let fits = request(&target(MAX_URI_BYTES)).body(Body::empty()).unwrap();
        assert!(g.verdict(&fits, "/solve").is_ok());
        let long = request(&target(MAX_URI_BYTES + 1))
            .body(Body::empty())
            .unwrap();
        assert_eq!(
            g.verdict(&long, "/solve"),
            Err(Problem::UriTooLong {
                detail: "the request target has 8193 bytes; this server takes at most 8192"
                    .to_string()
            })
        );
        assert_eq!(MAX_URI_BYTES, 8_192);
    }

    #[test]
    fn an_announced_body_at_the_limit_passes_and_one_byte_more_does_not() {
        let g = guard(None);
        let announcing = |path: &str, length: &str| {
            request(path)
                .header("content-length", length)
                .body(Body::empty())
                .unwrap()
        };
        assert!(g.verdict(&announcing("/solve", "8192"), "/solve").is_ok());
        assert_eq!(
            g.verdict(&announcing("/solve", "8193"), "/solve"),
            Err(Problem::BodyTooLarge)
        );
        assert!(g
            .verdict(&announcing("/solve/batch", "1048576"), "/solve/batch")
            .is_ok());
        assert_eq!(
            g.verdict(&announcing("/solve/batch", "1048577"), "/solve/batch"),
            Err(Problem::BodyTooLarge)
        );
        // A length that is no number is for the body reader to refuse, not the guard.
        assert!(g.verdict(&announcing("/solve", "lots"), "/solve").is_ok());
    }

    #[test]
    fn idle_clients_are_swept_from_the_rate_limiter_every_so_many_checks() {
        // A rate so high that every client's allowance is whole again at once: each is idle
        // (and dropped) at the next sweep, which comes on check number SWEEP_EVERY.
        let g = guard(Some((u32::MAX, 1)));
        let limiter = &g.limit.as_ref().unwrap().limiter;
        let check = |n: u64| {
            let client = Client(IpAddr::from(std::net::Ipv6Addr::from(u128::from(n))));
            assert!(g.check_rate(client, &mut RateHeaders::default()).is_ok());
        };
        for n in 0..SWEEP_EVERY - 1 {
            check(n);
        }
        assert_eq!(limiter.len() as u64, SWEEP_EVERY - 1, "no sweep yet");
        check(SWEEP_EVERY);
        assert_eq!(limiter.len(), 1, "swept before the last check");
        check(SWEEP_EVERY + 1);
        assert_eq!(limiter.len(), 2, "and not again at once");
    }

    #[test]
    fn the_rate_limit_spares_the_probes() {
        let g = guard(Some((1, 2)));
        let solve = || request("/solve").body(Body::empty()).unwrap();
        assert!(g.verdict(&solve(), "/solve").is_ok());
        assert!(g.verdict(&solve(), "/solve").is_ok());
        let refused = g.verdict(&solve(), "/solve").unwrap_err();
        assert!(
            matches!(refused, Problem::TooManyRequests { retry_after_secs } if retry_after_secs >= 1)
        );
        let probe = request("/healthz").body(Body::empty()).unwrap();
        assert!(g.verdict(&probe, "/healthz").is_ok());
    }

    #[test]
    fn rate_limited_answers_say_the_policy_and_what_is_left() {
        let g = guard(Some((2, 3)));
        let solve = || request("/solve").body(Body::empty()).unwrap();
        let header = |rate: &RateHeaders| {
            let mut headers = HeaderMap::new();
            rate.clone().apply(&mut headers);
            let get =
                |name: &HeaderName| headers.get(name).map(|v| v.to_str().unwrap().to_string());
            (get(&RATELIMIT_POLICY), get(&RATELIMIT))
        };
        let policy = Some("\"per-client\";q=3;w=2".to_string());
        let (first, rate) = g.screen(&solve(), "/solve");
        assert!(first.is_ok());
        assert_eq!(
            header(&rate),
            (policy.clone(), Some("\"per-client\";r=2;t=1".into()))
        );
        let (_, rate) = g.screen(&solve(), "/solve");
        assert_eq!(header(&rate).1.as_deref(), Some("\"per-client\";r=1;t=1"));
        let (_, rate) = g.screen(&solve(), "/solve");
        assert_eq!(header(&rate).1.as_deref(), Some("\"per-client\";r=0;t=2"));
        let (refused, rate) = g.screen(&solve(), "/solve");
        let Err(Problem::TooManyRequests { retry_after_secs }) = refused else {
            panic!("{refused:?}");
        };
        let expected = format!("\"per-client\";r=0;t={retry_after_secs}");
        assert_eq!(header(&rate), (policy.clone(), Some(expected)));
        // A probe is not counted: the policy, no state.
        let (_, rate) = g.screen(
            &request("/healthz").body(Body::empty()).unwrap(),
            "/healthz",
        );
        assert_eq!(header(&rate), (policy, None));
        // Without a limit, no header at all.
        let (_, rate) = guard(None).screen(&solve(), "/solve");
        assert_eq!(header(&rate), (None, None));
    }
}
