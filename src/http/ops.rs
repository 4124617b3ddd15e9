//! Operator endpoints: liveness, readiness, metrics and the API description. None of them
//! goes through the solver pool, so they answer even when every solver slot is busy.

use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::Json;
use serde_json::{json, Value};

use super::problem::Problem;
use super::AppState;

/// The OpenAPI document, compiled in from the repository's `openapi.yaml`.
pub const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

/// The same document as JSON, for tools that take no YAML: `openapi.json` is generated from
/// the YAML and committed (`tests/openapi.rs` fails when the two differ, and rewrites it with
/// `SUDOKU_WRITE_OPENAPI_JSON=1`), so the binary needs no YAML parser.
pub const OPENAPI_JSON: &str = include_str!("../../openapi.json");

/// Liveness: the process is up and its runtime answers.
pub async fn healthz() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

/// Readiness: false from the moment shutdown starts, so the load balancer stops sending.
pub async fn readyz(State(app): State<AppState>) -> Result<Json<Value>, Problem> {
    if app.ready.load(Ordering::SeqCst) {
        Ok(Json(json!({"status": "ready"})))
    } else {
        Err(Problem::ShuttingDown)
    }
}

pub async fn metrics(State(app): State<AppState>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, super::metrics::CONTENT_TYPE)],
        app.metrics.render(),
    )
}

pub async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI_YAML)
}

pub async fn openapi_json() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI_JSON)
}
