//! The playground: a page at `/` for trying the API in a browser. It is plain HTML, CSS and
//! JavaScript from `web/`, compiled into the binary, so the one binary (or container) is all
//! a person needs: no CDN, no build step, no files to ship beside it.
//!
//! The page talks to the same public endpoints as any client, so it can never do what curl
//! cannot. Its responses carry a strict Content-Security-Policy (same-origin script, style
//! and fetch only, no inline code, no framing) because a page served next to an API should
//! not be a way into it.

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::AppState;

const INDEX_HTML: &str = include_str!("../../web/index.html");
const SCRIPT: &str = include_str!("../../web/playground.js");
const STYLE: &str = include_str!("../../web/playground.css");

/// Same origin for everything; `data:` only for the empty favicon.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// The page and its two assets.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/playground.js",
            get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }),
        )
        .route(
            "/playground.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE) }),
        )
}

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    page_asset(content_type, CONTENT_SECURITY_POLICY, body)
}

/// A file of a page for people (the playground's, `/docs`'), under `policy`. `no-cache` lets
/// a browser keep a copy but ask again, so an upgraded binary is seen at once.
pub(super) fn page_asset(
    content_type: &'static str,
    policy: &'static str,
    body: &'static str,
) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::CONTENT_SECURITY_POLICY, policy),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        body,
    )
}
