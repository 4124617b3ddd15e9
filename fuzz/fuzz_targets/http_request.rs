//! The JSON handlers in-process: arbitrary bodies and content types sent through the real
//! service (router and middleware); every answer must be a non-5xx, and every error problem+json.
#![no_main]

use std::convert::Infallible;
use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{header, Request};
use axum::response::Response;
use libfuzzer_sys::fuzz_target;
use sudoku_service::http::{app, AppState, ServeArgs};
use tower::util::BoxCloneSyncService;
use tower::ServiceExt;

/// The service with its middleware, as `app` builds it (a type that has no name, so boxed
/// to be kept in a static).
type Service = BoxCloneSyncService<Request<Body>, Response, Infallible>;

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    })
}

fn service() -> Service {
    static SERVICE: OnceLock<Service> = OnceLock::new();
    SERVICE
        .get_or_init(|| {
            let args = ServeArgs {
                work_budget: 20_000,
                ..ServeArgs::default()
            };
            BoxCloneSyncService::new(app(AppState::new(&args).unwrap(), &args))
        })
        .clone()
}

const PATHS: [&str; 8] = [
    "/solve",
    "/validate",
    "/solve/batch",
    "/grade",
    "/hint",
    "/candidates",
    "/generate",
    "/nope",
];
const TYPES: [&str; 4] = [
    "application/json",
    "application/x-www-form-urlencoded",
    "text/plain",
    "application/json; charset=utf-8",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let path = PATHS[usize::from(selector & 7)];
    let content_type = TYPES[usize::from(selector >> 3) % TYPES.len()];
    let request = Request::post(path)
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body.to_vec()))
        .unwrap();
    let response = runtime().block_on(service().oneshot(request)).unwrap();
    let status = response.status();
    assert!(!status.is_server_error(), "{status} for {path}");
    if !status.is_success() {
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "application/problem+json"
        );
    }
});
