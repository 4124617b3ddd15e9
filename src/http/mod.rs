//! The HTTP edge. It turns JSON into engine calls and engine results into JSON; it knows
//! nothing about bitboards.
//!
//! * [`app`] builds the router with its middleware; [`run`] binds, serves and shuts down.
//!
//! Layers import only downward:
//! * [`wire`]: every JSON shape (DTO) and its conversion from and to engine types;
//! * [`problem`]: the RFC 9457 error type every failure becomes, with `From` for every
//!   engine error, so that handlers use `?`; [`extract`]: the JSON extractor that rejects
//!   into it;
//! * [`client`]: who a request counts for (peer, or `X-Forwarded-For` from a trusted proxy);
//! * [`pool`]: the bounded CPU pool engine jobs run on, on the solver threads of a
//!   [`fair`] queue shared fairly between clients (its own error type, into `Problem`);
//! * handlers, one file per endpoint group: [`solve`] (solve, validate), [`batch`], [`logic`]
//!   (grade, hint, candidates), [`generate`], [`render`] (pictures), [`booklet`] (PDF
//!   booklets), [`ops`] (health,
//!   metrics, spec),
//!   [`playground`] (the page at `/`, its files compiled in from `web/`).
//!
//! No handler knows which engine runs: they hand puzzles to the [`Engine`](crate::engine::Engine)
//! through the pool. [`metrics`], [`observe`]: what operators see; [`server`]: connections.

pub mod batch;
pub mod booklet;
pub mod canonical;
pub mod capabilities;
pub mod client;
pub mod config;
pub mod daily;
pub mod docs;
pub mod extract;
pub mod fair;
pub mod fpuzzles;
pub mod generate;
pub mod generate_batch;
pub mod guard;
pub mod logic;
pub mod lz_string;
pub mod mcp;
pub mod metrics;
pub mod observe;
pub mod ops;
pub mod playground;
pub mod pool;
pub mod problem;
pub mod render;
pub mod schema;
pub mod server;
pub mod solve;
pub mod wire;

use std::convert::Infallible;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderValue, Method};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use tokio::net::TcpListener;
use tower::{Service, ServiceBuilder};
use tower_http::cors::{AllowOrigin, CorsLayer};

pub use config::{LogFormat, ServeArgs};
use metrics::Metrics;
use pool::{Limits, SolvePool};
use server::{serve, shutdown_signal};

/// What every handler can reach. Cloned for every request (by each `State` extractor), so it
/// is one reference count: bumping several shared counts per request made both cores fight
/// over their cache lines under load.
#[derive(Debug, Clone)]
pub struct AppState(Arc<Shared>);

/// The contents of [`AppState`].
#[derive(Debug)]
pub struct Shared {
    pub pool: SolvePool,
    pub metrics: Arc<Metrics>,
    /// What a request must pass before any handler runs.
    pub guard: guard::Guard,
    /// False once shutdown has begun; `/readyz` reports it.
    pub ready: Arc<AtomicBool>,
    pub request_timeout: Duration,
    /// The key of the daily puzzle's seed (`--daily-secret`), if set.
    pub daily_secret: Option<String>,
    /// What `GET /v1/capabilities` answers: fixed for the server's life.
    pub capabilities: capabilities::Capabilities,
    /// The widest PNG `/v1/render` paints (`--render-max-size`).
    pub render_max_size: u32,
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

impl AppState {
    /// Fails if the solver threads cannot be started or a setting is malformed.
    pub fn new(args: &ServeArgs) -> std::io::Result<AppState> {
        let metrics = Arc::new(Metrics::default());
        Ok(AppState(Arc::new(Shared {
            pool: SolvePool::new(
                args.slots(),
                args.queue(),
                Limits {
                    work: args.work_budget,
                    generate_work: args.generate_work_budget,
                    inline_work: args.inline_work,
                    time: args.request_timeout(),
                },
                metrics.clone(),
            )?,
            metrics,
            guard: guard::Guard::new(
                client::TrustedProxies::parse(&args.trusted_proxies)
                    .map_err(std::io::Error::other)?,
                args.body_limit,
                args.batch_body_limit,
                args.rate(),
            ),
            ready: Arc::new(AtomicBool::new(true)),
            request_timeout: args.request_timeout(),
            daily_secret: args.daily_secret.clone().filter(|s| !s.is_empty()),
            capabilities: capabilities::Capabilities::new(args),
            render_max_size: args.render_max_size,
        })))
    }
}

/// The API's routes, answered under `/v1` and, as deprecated aliases, at the root.
const API_ROUTES: [&str; 7] = [
    "/solve",
    "/solve/batch",
    "/validate",
    "/grade",
    "/hint",
    "/candidates",
    "/generate",
];

/// Every route pattern the service answers (the playground's included): the only values the
/// `route` metric label takes besides "unmatched". The versioned API first, then its
/// unversioned aliases, then the operator's and the browser's routes.
pub const ROUTE_PATTERNS: [&str; 35] = [
    "/v1/solve",
    "/v1/solve/batch",
    "/v1/validate",
    "/v1/grade",
    "/v1/hint",
    "/v1/candidates",
    "/v1/generate",
    "/v1/capabilities",
    "/v1/canonical",
    "/v1/canonical/batch",
    "/v1/generate/batch",
    "/v1/daily",
    "/v1/fpuzzles",
    "/v1/render",
    "/v1/booklet",
    API_ROUTES[0],
    API_ROUTES[1],
    API_ROUTES[2],
    API_ROUTES[3],
    API_ROUTES[4],
    API_ROUTES[5],
    API_ROUTES[6],
    mcp::MCP_ROUTE,
    "/healthz",
    "/readyz",
    "/metrics",
    "/openapi.yaml",
    "/openapi.json",
    "/",
    "/playground.js",
    "/playground.css",
    "/docs",
    "/docs/reference.js",
    "/docs/swagger-ui-bundle.js",
    "/docs/swagger-ui.css",
];

/// Whether `route` (a matched pattern) takes the batch body limit: the batch endpoints, and the
/// booklet, whose list of puzzles is a batch of bodies.
pub fn is_batch_route(route: &str) -> bool {
    matches!(
        route,
        "/solve/batch" | "/v1/solve/batch" | "/v1/canonical/batch" | "/v1/booklet"
    )
}

/// The API (puzzle) routes, the same under every prefix they are served at.
fn api(args: &ServeArgs) -> Router<AppState> {
    Router::new()
        .route(API_ROUTES[0], post(solve::solve))
        .route(
            API_ROUTES[1],
            post(batch::solve_batch).layer(DefaultBodyLimit::max(args.batch_body_limit)),
        )
        .route(API_ROUTES[2], post(solve::validate))
        .route(API_ROUTES[3], post(logic::grade))
        .route(API_ROUTES[4], post(logic::hint))
        .route(API_ROUTES[5], post(logic::candidates))
        .route(
            API_ROUTES[6],
            post(generate::generate).get(generate::generate_get),
        )
}

/// How many of [`ROUTE_PATTERNS`]' last entries are pages for people (the playground's and
/// `/docs`'), served only with `--playground`.
const PAGE_ROUTES: usize = 7;

/// The route patterns the router serves: the pages only with the playground on.
fn served_patterns(playground: bool) -> &'static [&'static str] {
    if playground {
        &ROUTE_PATTERNS
    } else {
        &ROUTE_PATTERNS[..ROUTE_PATTERNS.len() - PAGE_ROUTES]
    }
}

/// The service: the router with all middleware, outermost first: CORS, request observation
/// (id, span, timeout, problem+json for every error, metrics, log), body limit. Each wraps
/// the whole router once, so a request clones none of them (a `Router::layer` wraps every
/// route, and the router clones the route it calls). The API is served under `/v1` and,
/// unchanged, at its old unversioned paths (deprecated aliases).
pub fn app(
    state: AppState,
    args: &ServeArgs,
) -> impl Service<Request, Response = Response, Error = Infallible, Future: Send>
       + Clone
       + Send
       + Sync
       + Unpin
       + 'static {
    // Endpoints added after v1 was first published live only under /v1.
    let v1 = api(args)
        .route("/capabilities", get(capabilities::capabilities))
        .route("/canonical", post(canonical::canonical))
        .route("/generate/batch", post(generate_batch::generate_batch))
        .route("/daily", get(daily::daily))
        .route("/fpuzzles", post(fpuzzles::convert))
        .route("/render", post(render::render))
        .route(
            "/booklet",
            post(booklet::booklet).layer(DefaultBodyLimit::max(args.batch_body_limit)),
        )
        .route(
            "/canonical/batch",
            post(canonical::canonical_batch).layer(DefaultBodyLimit::max(args.batch_body_limit)),
        );
    let routes = Router::new()
        .nest("/v1", v1)
        .merge(api(args))
        .route("/healthz", get(ops::healthz))
        .route("/readyz", get(ops::readyz))
        .route("/metrics", get(ops::metrics))
        .route("/openapi.yaml", get(ops::openapi))
        .route("/openapi.json", get(ops::openapi_json))
        .route_service(mcp::MCP_ROUTE, mcp::service(state.clone(), args.body_limit));
    let routes = if args.playground {
        routes.merge(playground::routes()).merge(docs::routes())
    } else {
        routes
    };
    let served = served_patterns(args.playground);
    ServiceBuilder::new()
        .layer(cors(&args.cors_origins))
        .layer(observe::ObserveLayer::new(state.clone(), served))
        .layer(DefaultBodyLimit::max(args.body_limit))
        .service(routes.with_state(state))
}

fn cors(origins: &[String]) -> CorsLayer {
    let any_origin = origins.iter().any(|o| o == "*");
    let layer = CorsLayer::new()
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers([header::CONTENT_TYPE, observe::X_REQUEST_ID.clone()])
        .expose_headers([
            observe::X_REQUEST_ID.clone(),
            header::RETRY_AFTER,
            guard::RATELIMIT_POLICY.clone(),
            guard::RATELIMIT.clone(),
        ])
        .max_age(Duration::from_secs(3600));
    if any_origin {
        // Every answer is the same whatever the origin, so there is nothing for a cache to
        // vary on; tower-http would otherwise build a `Vary` header for every response.
        layer.allow_origin(AllowOrigin::any()).vary([])
    } else {
        layer.allow_origin(AllowOrigin::list(
            origins
                .iter()
                .filter_map(|o| HeaderValue::from_str(o.trim()).ok()),
        ))
    }
}

/// Binds, serves until SIGINT/SIGTERM, drains, and exits 0; exit 1 if it cannot listen.
pub async fn run(args: ServeArgs) -> ExitCode {
    if let Err(message) = args.check_retired() {
        eprintln!("sudoku-service: {message}");
        return ExitCode::from(2);
    }
    let addr = args.listen_addr();
    let listener = match TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(err) => {
            tracing::error!(%addr, error = %err, "cannot listen");
            eprintln!("sudoku-service: cannot listen on {addr}: {err}");
            return ExitCode::from(1);
        }
    };
    let local = listener.local_addr().unwrap_or(addr);
    let state = match AppState::new(&args) {
        Ok(state) => state,
        Err(err) => {
            eprintln!("sudoku-service: cannot start the solver threads: {err}");
            return ExitCode::from(1);
        }
    };
    // Its own target, so that scripts can switch this one line on with RUST_LOG=warn (see
    // scripts/lib/server.sh): they learn the port from it.
    tracing::info!(
        target: "sudoku_service::startup",
        addr = %local,
        solver_slots = args.slots(),
        queue = args.queue(),
        work_budget = args.work_budget,
        max_connections = args.max_connections(),
        "listening on {local}"
    );
    let ready = state.ready.clone();
    let router = app(state, &args);
    let options = args.serve_options();
    match serve(listener, router, ready, options, shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!(error = %err, "server failed");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use tower::ServiceExt;

    /// The observe middleware labels a request with its path when that is a served pattern
    /// (it runs before the router has matched anything): so every served pattern must be a
    /// route of the router, and every other pattern of [`ROUTE_PATTERNS`] must not be.
    #[tokio::test]
    async fn the_served_patterns_are_exactly_the_router_s_routes() {
        for playground in [true, false] {
            let args = ServeArgs {
                playground,
                ..ServeArgs::default()
            };
            let service = app(AppState::new(&args).unwrap(), &args);
            let served = served_patterns(playground);
            for pattern in ROUTE_PATTERNS {
                let request = Request::get(pattern)
                    .header(header::HOST, "localhost")
                    .body(Body::empty())
                    .unwrap();
                let response = service.clone().oneshot(request).await.unwrap();
                let routed = response.status() != axum::http::StatusCode::NOT_FOUND;
                assert_eq!(
                    routed,
                    served.contains(&pattern),
                    "{pattern} with the playground {playground}: {}",
                    response.status()
                );
            }
        }
    }
}
