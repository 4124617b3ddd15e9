//! The per-request middleware: request id, tracing span, time limit, problem+json for every
//! error, metrics and the access log line. Outermost but for CORS, so it sees every answer.

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tracing::Instrument;

use super::problem::{as_problem_json, Problem};
use super::AppState;

/// The request id header, read from the client (or the load balancer) and always answered.
pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Route label for requests that matched no route: one series, not one per probed path.
const UNMATCHED: &str = "unmatched";

pub async fn observe(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let id = request
        .headers()
        .get(&X_REQUEST_ID)
        .filter(|v| is_acceptable_id(v))
        .cloned()
        .unwrap_or_else(new_request_id);
    let matched = request.extensions().get::<MatchedPath>().cloned();
    let route = matched.as_ref().map_or(UNMATCHED, MatchedPath::as_str);
    let method = method_label(request.method());
    let span = tracing::info_span!(
        "request",
        id = %String::from_utf8_lossy(id.as_bytes()),
        method,
        route,
    );

    let uri = request.uri().clone();
    let answer = tokio::time::timeout(app.request_timeout, next.run(request))
        .instrument(span.clone())
        .await;
    let response = answer.unwrap_or_else(|_| Problem::Timeout.into_response());
    let mut response = as_problem_json(response, uri.path());
    response.headers_mut().insert(X_REQUEST_ID.clone(), id);

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
fn new_request_id() -> HeaderValue {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(n);
    let id = format!("{:016x}-{n}", hasher.finish());
    HeaderValue::from_str(&id).unwrap_or_else(|_| HeaderValue::from_static("unknown"))
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
    fn ids_are_checked_and_generated() {
        assert!(is_acceptable_id(&HeaderValue::from_static("abc-123")));
        assert!(!is_acceptable_id(&HeaderValue::from_static("has space")));
        assert!(!is_acceptable_id(
            &HeaderValue::from_str(&"x".repeat(129)).unwrap()
        ));
        let (a, b) = (new_request_id(), new_request_id());
        assert_ne!(a, b);
        assert!(is_acceptable_id(&a));
    }
}
