//! [`Guard`]: what a request must pass before any handler runs, so that the cheap refusals
//! come first and never cost a body read or a solver: the connection kind (a reserve
//! connection serves only the operator probes), a `Host` header on HTTP/1.1, the header and
//! URI limits, the body size the client announces, and the optional per-client rate limit.
//!
//! hyper itself parses up to [`MAX_HEADERS`](super::server::MAX_HEADERS) headers and about
//! 400 KB of head; the service's own limits sit below those, so that a client going over
//! them gets a problem+json answer from here rather than hyper's bare status line.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::Request;
use axum::http::header;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use super::client::{Client, TrustedProxies};
use super::problem::Problem;
use super::server::Connection;

/// Most headers a request may have.
pub const MAX_REQUEST_HEADERS: usize = 100;
/// Most bytes the request headers may take, names and values together.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;
/// Longest request target (path and query).
pub const MAX_URI_BYTES: usize = 8 * 1024;

/// The routes that stay open on reserve connections and are never rate limited.
const PROBES: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// Rate limiter checks between two sweeps of its idle clients.
const SWEEP_EVERY: u64 = 16_384;

/// See the module docs.
#[derive(Debug)]
pub struct Guard {
    proxies: TrustedProxies,
    body_limit: usize,
    batch_body_limit: usize,
    limiter: Option<DefaultKeyedRateLimiter<IpAddr>>,
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
            limiter: rate.map(|(per_second, burst)| {
                DefaultKeyedRateLimiter::keyed(Quota::per_second(per_second).allow_burst(burst))
            }),
            checks: AtomicU64::new(0),
        }
    }

    /// Who `request` counts for, or the problem that refuses it before any handler runs.
    /// `route` is the matched route pattern (or "unmatched").
    pub fn screen(&self, request: &Request, route: &str) -> Result<Client, Problem> {
        let connection = request.extensions().get::<Connection>().copied();
        let client = connection.map_or_else(Client::default, |c| {
            self.proxies.client(c.peer.ip(), request.headers())
        });
        let probe = PROBES.contains(&route);
        if connection.is_some_and(|c| c.reserve) && !probe {
            return Err(Problem::Overloaded {
                retry_after_secs: 1,
            });
        }
        self.check_head(request)?;
        self.check_body(request, route)?;
        if !probe {
            self.check_rate(client)?;
        }
        Ok(client)
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
        let limit = if route == "/solve/batch" {
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

    fn check_rate(&self, client: Client) -> Result<(), Problem> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        // Idle clients' state is dropped now and then, so the limiter's memory follows the
        // clients active lately, not every address ever seen.
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            limiter.retain_recent();
        }
        limiter.check_key(&client.0).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            Problem::TooManyRequests {
                retry_after_secs: wait.as_secs() + 1,
            }
        })
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
            g.screen(&hostless, "/healthz"),
            Err(Problem::MalformedRequest { .. })
        ));
        let old = Request::builder()
            .uri("/healthz")
            .version(axum::http::Version::HTTP_10)
            .body(Body::empty())
            .unwrap();
        assert!(g.screen(&old, "/healthz").is_ok(), "HTTP/1.0 needs none");
        assert!(g
            .screen(
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
        assert_eq!(g.screen(&big, "/solve"), Err(Problem::BodyTooLarge));
        let batch = request("/solve/batch")
            .header("content-length", "100000")
            .body(Body::empty())
            .unwrap();
        assert!(g.screen(&batch, "/solve/batch").is_ok());
        assert_eq!(g.screen(&batch, "/solve"), Err(Problem::BodyTooLarge));
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
            g.screen(&many, "/solve"),
            Err(Problem::HeadersTooLarge { .. })
        ));
        let long = request(&format!("/solve?{}", "a".repeat(9000)))
            .body(Body::empty())
            .unwrap();
        assert!(matches!(
            g.screen(&long, "/solve"),
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
            let client = g.screen(&on_connection(probe, true, [10, 0, 0, 7]), probe);
            assert_eq!(client, Ok(Client(IpAddr::from([10, 0, 0, 7]))), "{probe}");
        }
        assert_eq!(
            g.screen(&on_connection("/solve", true, [10, 0, 0, 7]), "/solve"),
            Err(Problem::Overloaded {
                retry_after_secs: 1
            })
        );
        // A full connection is served whatever the route, for the peer it came from.
        let client = g.screen(&on_connection("/solve", false, [10, 0, 0, 8]), "/solve");
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
        assert!(g.screen(&with_headers(100, 800), "/solve").is_ok());
        assert!(g
            .screen(&with_headers(4, MAX_HEADER_BYTES), "/solve")
            .is_ok());
        assert!(matches!(
            g.screen(&with_headers(101, 808), "/solve"),
            Err(Problem::HeadersTooLarge { .. })
        ));
        let over = g.screen(&with_headers(4, MAX_HEADER_BYTES + 1), "/solve");
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
        assert!(g.screen(&fits, "/solve").is_ok());
        let long = request(&target(MAX_URI_BYTES + 1))
            .body(Body::empty())
            .unwrap();
        assert_eq!(
            g.screen(&long, "/solve"),
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
        assert!(g.screen(&announcing("/solve", "8192"), "/solve").is_ok());
        assert_eq!(
            g.screen(&announcing("/solve", "8193"), "/solve"),
            Err(Problem::BodyTooLarge)
        );
        assert!(g
            .screen(&announcing("/solve/batch", "1048576"), "/solve/batch")
            .is_ok());
        assert_eq!(
            g.screen(&announcing("/solve/batch", "1048577"), "/solve/batch"),
            Err(Problem::BodyTooLarge)
        );
        // A length that is no number is for the body reader to refuse, not the guard.
        assert!(g.screen(&announcing("/solve", "lots"), "/solve").is_ok());
    }

    #[test]
    fn idle_clients_are_swept_from_the_rate_limiter_every_so_many_checks() {
        // A rate so high that every client's allowance is whole again at once: each is idle
        // (and dropped) at the next sweep, which comes on check number SWEEP_EVERY.
        let g = guard(Some((u32::MAX, 1)));
        let limiter = g.limiter.as_ref().unwrap();
        let check = |n: u64| {
            let client = Client(IpAddr::from(std::net::Ipv6Addr::from(u128::from(n))));
            assert!(g.check_rate(client).is_ok());
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
        assert!(g.screen(&solve(), "/solve").is_ok());
        assert!(g.screen(&solve(), "/solve").is_ok());
        let refused = g.screen(&solve(), "/solve").unwrap_err();
        assert!(
            matches!(refused, Problem::TooManyRequests { retry_after_secs } if retry_after_secs >= 1)
        );
        let probe = request("/healthz").body(Body::empty()).unwrap();
        assert!(g.screen(&probe, "/healthz").is_ok());
    }
}
