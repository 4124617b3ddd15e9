//! The per-request middleware: request id, tracing span, time limit, problem+json for every
//! error, metrics and the access log line. Outermost but for CORS, so it sees every answer.
//!
//! A hand-written tower layer rather than `axum::middleware::from_fn`: that one boxes and
//! clones the inner service for every request, which under load cost more than everything
//! this middleware does (measured with `BENCH_PIN=1 scripts/bench-http.sh`).

use std::convert::Infallible;
use std::future::Future;
use std::hash::{BuildHasher, Hasher};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
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

/// The metric label of a matched route pattern: one of the service's own patterns (a fixed
/// set), so that label values never come from a client.
fn route_label(pattern: &str) -> &'static str {
    super::ROUTE_PATTERNS
        .iter()
        .copied()
        .find(|&p| p == pattern)
        .unwrap_or(UNMATCHED)
}

/// Wraps every route in [`Observe`].
#[derive(Debug, Clone)]
pub struct ObserveLayer {
    app: AppState,
}

impl ObserveLayer {
    pub fn new(app: AppState) -> ObserveLayer {
        ObserveLayer { app }
    }
}

impl<S> Layer<S> for ObserveLayer {
    type Service = Observe<S>;

    fn layer(&self, inner: S) -> Observe<S> {
        Observe {
            inner,
            app: self.app.clone(),
        }
    }
}

/// The middleware around one route (or the fallback).
#[derive(Debug, Clone)]
pub struct Observe<S> {
    inner: S,
    app: AppState,
}

impl<S> Service<Request> for Observe<S>
where
    S: Service<Request, Response = Response, Error = Infallible> + Clone + Send + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        // The clone takes the place of the service that was polled ready, which is the one
        // that runs (tower's usual hand-over).
        let clone = self.inner.clone();
        let ready = std::mem::replace(&mut self.inner, clone);
        let app = self.app.clone();
        Box::pin(async move { Ok(observe(app, request, ready).await) })
    }
}

async fn observe<S>(app: AppState, mut request: Request, mut inner: S) -> Response
where
    S: Service<Request, Response = Response, Error = Infallible>,
{
    let started = Instant::now();
    let id = request
        .headers()
        .get(&X_REQUEST_ID)
        .filter(|v| is_acceptable_id(v))
        .cloned()
        .unwrap_or_else(new_request_id);
    let matched = request.extensions().get::<MatchedPath>().cloned();
    let route = matched
        .as_ref()
        .map_or(UNMATCHED, |m| route_label(m.as_str()));
    let method = method_label(request.method());
    let span = tracing::info_span!(
        "request",
        id = %String::from_utf8_lossy(id.as_bytes()),
        method,
        route,
    );

    let uri = request.uri().clone();
    let in_flight = app.metrics.hold(Gauge::Requests);
    let (screened, rate) = app.guard.screen(&request, route);
    let response = match screened {
        Ok(client) => {
            request.extensions_mut().insert(client);
            let answer = tokio::time::timeout(app.request_timeout, inner.call(request))
                .instrument(span.clone())
                .await;
            match answer {
                Ok(Ok(response)) => response,
                Ok(Err(never)) => match never {},
                Err(_elapsed) => Problem::Timeout.into_response(),
            }
        }
        Err(refused) => {
            // Refused before the body was read: the connection ends after this answer (its
            // unread body would be taken for the next request), with a lingering close so
            // that the client reads the answer.
            let mut response = refused.into_response();
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    };
    drop(in_flight);
    let mut response = as_problem_json(response, uri.path());
    response.headers_mut().insert(X_REQUEST_ID.clone(), id);
    rate.apply(response.headers_mut());

    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    app.metrics.observe_request(route, method, status, elapsed);
    span.in_scope(|| {
        tracing::info!(status, micros = elapsed.as_micros() as u64, "answered");
    });
    response
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
        assert_eq!(route_label("/solve/batch"), "/solve/batch");
        assert_eq!(route_label("/anything/else"), UNMATCHED);
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
