//! `GET /docs`: an API reference page over this server's own `/openapi.json`, served from the
//! binary. The viewer is Swagger UI, vendored from the npm registry (`swagger-ui-dist`, its
//! licence beside it in `web/docs/`) rather than loaded from a CDN, so the page works offline
//! and ships nothing the repository does not hold. Swagger UI sets element styles from its
//! script, so the page's policy allows inline styles (never inline script); everything else
//! is as strict as the playground's. Served with the playground (`--playground false` turns
//! both off).

use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::AppState;

/// The vendored viewer's release, the name of its folder in `web/docs/`.
macro_rules! vendored {
    ($file:literal) => {
        include_str!(concat!("../../web/docs/swagger-ui-dist-5.31.0/", $file))
    };
}

const PAGE: &str = include_str!("../../web/docs/index.html");
const REFERENCE_JS: &str = include_str!("../../web/docs/reference.js");
const VIEWER_JS: &str = vendored!("swagger-ui-bundle.js");
const VIEWER_CSS: &str = vendored!("swagger-ui.css");

/// Same origin only; inline styles for the viewer's own element styles; `data:` images for
/// its icons.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/docs",
            get(|| async { asset("text/html; charset=utf-8", PAGE) }),
        )
        .route(
            "/docs/reference.js",
            get(|| async { asset("text/javascript; charset=utf-8", REFERENCE_JS) }),
        )
        .route(
            "/docs/swagger-ui-bundle.js",
            get(|| async { asset("text/javascript; charset=utf-8", VIEWER_JS) }),
        )
        .route(
            "/docs/swagger-ui.css",
            get(|| async { asset("text/css; charset=utf-8", VIEWER_CSS) }),
        )
}

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    super::playground::page_asset(content_type, CONTENT_SECURITY_POLICY, body)
}
