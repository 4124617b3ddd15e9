//! The per-request middleware: request id, tracing span, time limit, problem+json for every
//! error, metrics and the access log line. Outermost but for CORS, so it sees every answer.
//!
//! A hand-written tower layer rather than `axum::middleware::from_fn`: that one boxes and
//! clones the inner service for every request, which under load cost more than everything
//! this middleware does (measured with `BENCH_PIN=1 scripts/bench/bench-http.sh`). It wraps the
//! router once, not each route (`Router::layer`): a per-route layer made every request clone
//! the boxed middleware and the route inside it (two allocations and about 2,000
//! instructions, BENCHMARKS.md). Outside the router the matched route is not known yet, so
//! the route label is the request's path when it is one of the patterns the router serves:
//! every pattern is a plain path without parameters, which axum matches byte for byte.

use std::convert::Infallible;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::Request;
use axum::http::{header, HeaderName, HeaderValue, Method};
use axum::response::{IntoResponse, Response};
use tower::{Layer, Service};
use tracing::Instrument;

use super::metrics::Gauge;
use super::problem::{as_problem_json, Problem};
use super::AppState;

/// The request id header, read from the client (or the load balancer) and always answered.
pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Route label for requests that matched no route: one series, not one per probed path.
const UNMATCHED: &str = "unmatched";

/// The metric label of a request for `path`: the pattern it matches among `served` (the
/// router's own patterns, a fixed set), so that label values never come from a client.
fn route_label(served: &'static [&'static str], path: &str) -> &'static str {
    served
        .iter()
        .copied()
        .find(|&p| p == path)
        .unwrap_or(UNMATCHED)
}

/// Wraps the router in [`Observe`].
#[derive(Debug, Clone)]
pub struct ObserveLayer {
    app: AppState,
    served: &'static [&'static str],
}

impl ObserveLayer {
    /// `served`: every route pattern of the router it wraps (see [`route_label`]).
    pub fn new(app: AppState, served: &'static [&'static str]) -> ObserveLayer {
        ObserveLayer { app, served }
    }
}

impl<S> Layer<S> for ObserveLayer {
    type Service = Observe<S>;

    fn layer(&self, inner: S) -> Observe<S> {
        Observe {
            inner,
            app: self.app.clone(),
            served: self.served,
        }
    }
}

/// The middleware around the router.
#[derive(Debug, Clone)]
pub struct Observe<S> {
    inner: S,
    app: AppState,
    served: &'static [&'static str],
}

impl<S> Service<Request> for Observe<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    /// Everything up to the router's call is done here, synchronously: the inner service
    /// was polled ready and is called at once, so it is never cloned for the request.
    fn call(&mut self, mut request: Request) -> Self::Future {
        let started = Instant::now();
        let mut in_flight = InFlight::hold(self.app.clone());
        let id = request
            .headers()
            .get(&X_REQUEST_ID)
            .filter(|v| is_acceptable_id(v))
            .cloned()
            .unwrap_or_else(new_request_id);
        let route = route_label(self.served, request.uri().path());
        let method = method_label(request.method());
        let span = tracing::info_span!(
            "request",
            id = %String::from_utf8_lossy(id.as_bytes()),
            method,
            route,
        );
        let uri = request.uri().clone();
        let (screened, rate) = self.app.guard.screen(&request, route);
        let answer = screened.map(|client| {
            request.extensions_mut().insert(client);
            tokio::time::timeout(self.app.request_timeout, self.inner.call(request))
                .instrument(span.clone())
        });
        Box::pin(async move {
            let response = match answer {
                Ok(answer) => match answer.await {
                    Ok(Ok(response)) => response,
                    Ok(Err(never)) => match never {},
                    Err(_elapsed) => Problem::Timeout.into_response(),
                },
                Err(refused) => {
                    // Refused before the body was read: the connection ends after this
                    // answer (its unread body would be taken for the next request), with a
                    // lingering close so that the client reads the answer.
                    let mut response = refused.into_response();
                    response
                        .headers_mut()
                        .insert(header::CONNECTION, HeaderValue::from_static("close"));
                    response
                }
            };
            in_flight.release();
            let mut response = as_problem_json(response, uri.path());
            response.headers_mut().insert(X_REQUEST_ID.clone(), id);
            rate.apply(response.headers_mut());

            let elapsed = started.elapsed();
            let status = response.status().as_u16();
            in_flight
                .app
                .metrics
                .observe_request(route, method, status, elapsed);
            span.in_scope(|| {
                tracing::info!(status, micros = elapsed.as_micros() as u64, "answered");
            });
            Ok(response)
        })
    }
}

/// Holds the in-flight requests gauge one higher from the request's headers until its
/// answer is made ([`InFlight::release`]), or until the request is dropped unanswered
/// (client gone). Owns the request's one reference to the state.
struct InFlight {
    app: AppState,
    held: bool,
}

impl InFlight {
    fn hold(app: AppState) -> InFlight {
        app.metrics.hold_detached(Gauge::Requests);
        InFlight { app, held: true }
    }

    fn release(&mut self) {
        if std::mem::take(&mut self.held) {
            self.app.metrics.release_detached(Gauge::Requests);
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.release();
    }
}

/// A client's id is echoed if it is short printable ASCII; anything else is replaced, so logs
/// and headers never carry control characters or megabytes.
fn is_acceptable_id(value: &HeaderValue) -> bool {
    let bytes = value.as_bytes();
    (1..=128).contains(&bytes.len()) && bytes.iter().all(|b| (0x21..=0x7e).contains(b))
}

/// 16 random-looking hex digits plus a process-wide sequence number: unique per process, and
/// unlikely to collide across replicas. `RandomState` is std's randomly keyed SipHash.
/// Written into a stack buffer: this runs for nearly every request.
fn new_request_id() -> HeaderValue {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(n);
    let mut buffer = [0u8; 37]; // 16 hex digits, '-', at most 20 decimal digits
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = hasher.finish();
    for (i, digit) in buffer[..16].iter_mut().enumerate() {
        *digit = HEX[(hash >> (60 - 4 * i) & 0xf) as usize];
    }
    buffer[16] = b'-';
    // The sequence number's decimal digits, written by hand like the hex above: the
    // formatting machinery cost more than the rest of the id.
    let mut decimal = [0u8; 20];
    let (mut rest, mut start) = (n, decimal.len());
    loop {
        start -= 1;
        decimal[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let digits = &decimal[start..];
    buffer[17..17 + digits.len()].copy_from_slice(digits);
    let len = 17 + digits.len();
    HeaderValue::from_bytes(&buffer[..len]).unwrap_or_else(|_| HeaderValue::from_static("unknown"))
}

/// Standard methods by name; anything else as "other" (bounded label values).
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_labels_come_from_the_service_own_patterns() {
        let served = &super::super::ROUTE_PATTERNS;
        assert_eq!(route_label(served, "/solve/batch"), "/solve/batch");
        assert_eq!(route_label(served, "/anything/else"), UNMATCHED);
        assert_eq!(route_label(served, "/solve/"), UNMATCHED);
        assert_eq!(route_label(&served[..1], "/solve"), UNMATCHED);
    }

    #[test]
    fn ids_are_checked_and_generated() {
        assert!(is_acceptable_id(&HeaderValue::from_static("abc-123")));
        assert!(!is_acceptable_id(&HeaderValue::from_static("has space")));
        assert!(!is_acceptable_id(
            &HeaderValue::from_str(&"x".repeat(129)).unwrap()
        ));
        let (a, b) = (new_request_id(), new_request_id());
        assert_ne!(a, b);
        assert!(is_acceptable_id(&a));
        // 16 hex digits, '-', the sequence number in decimal (higher for the second; other
        // tests may take numbers in between).
        let text = |v: &HeaderValue| v.to_str().unwrap().to_string();
        let (a, b) = (text(&a), text(&b));
        let (hex, seq) = a.split_once('-').unwrap();
        assert!(
            hex.len() == 16 && hex.bytes().all(|c| c.is_ascii_hexdigit()),
            "{a}"
        );
        let next: u64 = b.split_once('-').unwrap().1.parse().unwrap();
        assert!(seq.parse::<u64>().unwrap() < next, "{a} {b}");
    }
}
