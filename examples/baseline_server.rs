//! Bench-only baseline for `scripts/bench/bench-http.sh`: the same HTTP stack (hyper setup from
//! `http::server`, the same JSON extractor and board parsing) answering `POST /solve` with a
//! fixed body *without solving*. The ratio service/baseline shows what solving costs on top of
//! HTTP. Not a product route.
//!
//! usage: cargo run --release --example baseline_server -- PORT

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use sudoku_service::http::extract::ApiJson;
use sudoku_service::http::problem::Problem;
use sudoku_service::http::server::{serve, shutdown_signal, ServeOptions};
use sudoku_service::http::wire::BoardRequest;

/// The service's allocator (see `src/main.rs`), so that the ratio measures solving, not
/// allocators.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

async fn parse_only(ApiJson(request): ApiJson<BoardRequest>) -> Result<Json<Value>, Problem> {
    let board = request.board.parse()?;
    Ok(Json(json!({
        "solution": board.to_line(),
        "unique": true,
        "stats": {"guesses": 0, "micros": 0}
    })))
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let port: u16 = std::env::args()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(8081);
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    eprintln!("baseline listening on {}", listener.local_addr()?);
    let router = Router::new().route("/solve", post(parse_only));
    let options = ServeOptions {
        drain_timeout: Duration::from_secs(5),
        ..ServeOptions::default()
    };
    serve(
        listener,
        router,
        Arc::new(AtomicBool::new(true)),
        options,
        shutdown_signal(),
    )
    .await
}
