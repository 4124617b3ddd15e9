//! Black-box tests of the HTTP API: a real server on a loopback port, spoken to over TCP.

mod common;

use std::time::Duration;

use common::{
    assert_solves, client, expect_problem, join_all, ok_json, post as post_json, rows, send_raw,
    wait_for, ServerProcess, TestServer, HARD, SEED, SEED_SOLUTION,
};
use reqwest::{header, StatusCode};
use serde_json::{json, Value};
use sudoku_service::http::ServeArgs;

#[tokio::test]
async fn solve_answers_in_the_form_it_was_sent() {
    let server = TestServer::start().await;
    let response = post_json(&server, "/solve", json!({"board": rows(SEED)})).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["solution"], json!(rows(SEED_SOLUTION)));
    assert_eq!(body["unique"], true);
    assert!(body["stats"]["guesses"].is_u64() && body["stats"]["micros"].is_u64());

    let zeros = SEED.replace('.', "0");
    let body: Value = post_json(&server, "/solve", json!({"board": zeros}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["solution"], SEED_SOLUTION);
    server.shutdown().await;
}

#[tokio::test]
async fn solve_reports_several_solutions_as_not_unique() {
    let server = TestServer::start().await;
    let body: Value = post_json(&server, "/solve", json!({"board": ".".repeat(81)}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["unique"], false);
    assert_solves(&".".repeat(81), body["solution"].as_str().unwrap());
    let body: Value = post_json(&server, "/solve", json!({"board": HARD}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(body["unique"], true);
    assert_solves(HARD, body["solution"].as_str().unwrap());
    assert!(body["stats"]["guesses"].as_u64().unwrap() > 0);
    server.shutdown().await;
}

#[tokio::test]
async fn board_errors_are_422_and_point_at_the_cell() {
    let server = TestServer::start().await;
    let mut bad = rows(SEED);
    bad[1] = ".2.6x945.".to_string();
    let body = expect_problem(
        post_json(&server, "/solve", json!({ "board": bad })).await,
        422,
        "invalid-board",
    )
    .await;
    assert_eq!(
        (body["row"].clone(), body["col"].clone()),
        (json!(1), json!(4))
    );
    assert!(body["detail"].as_str().unwrap().contains("row 2, column 5"));

    let body = expect_problem(
        post_json(&server, "/solve", json!({"board": ["........."]})).await,
        422,
        "invalid-board",
    )
    .await;
    assert_eq!(
        body["detail"],
        "board: expected 4, 6, 8, 9, 10, 12, 16 or 25 rows, found 1"
    );
    assert_eq!(body["pointer"], "/board");

    let mut wide = rows(SEED);
    wide[8] = "１........".to_string();
    let body = expect_problem(
        post_json(&server, "/validate", json!({ "board": wide })).await,
        422,
        "invalid-board",
    )
    .await;
    assert_eq!(body["row"], 8);

    let body = expect_problem(
        post_json(&server, "/solve", json!({"board": "123"})).await,
        422,
        "invalid-board",
    )
    .await;
    assert_eq!(
        body["detail"],
        "board: expected 16, 36, 64, 81, 100, 144, 256 or 625 characters, found 3"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn conflicting_givens_name_both_cells() {
    let server = TestServer::start().await;
    let board = format!("5....5{}", ".".repeat(75));
    let body = expect_problem(
        post_json(&server, "/solve", json!({ "board": board })).await,
        422,
        "conflicting-givens",
    )
    .await;
    assert_eq!(
        body["conflicts"][0],
        json!({"unit": "row", "index": 0, "digit": 5, "cells": [{"row": 0, "col": 0}, {"row": 0, "col": 5}]})
    );
    assert!(body["detail"]
        .as_str()
        .unwrap()
        .contains("row 1, column 1 and row 1, column 6"));
    server.shutdown().await;
}

#[tokio::test]
async fn unsolvable_and_over_budget_puzzles_are_distinct_422s() {
    let server = TestServer::start().await;
    let unsolvable = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    expect_problem(
        post_json(&server, "/solve", json!({ "board": unsolvable })).await,
        422,
        "no-solution",
    )
    .await;
    server.shutdown().await;

    let stingy = TestServer::with(ServeArgs {
        work_budget: 0,
        ..ServeArgs::default()
    })
    .await;
    let body = expect_problem(
        post_json(&stingy, "/solve", json!({"board": ".".repeat(81)})).await,
        422,
        "budget-exhausted",
    )
    .await;
    assert_eq!(body["work"], 1);
    expect_problem(
        post_json(&stingy, "/validate", json!({"board": ".".repeat(81)})).await,
        422,
        "budget-exhausted",
    )
    .await;
    stingy.shutdown().await;
}

#[tokio::test]
async fn request_shape_errors() {
    let server = TestServer::start().await;
    const JSON: Option<&str> = Some("application/json");
    // (body, content type, status, problem kind, a phrase the detail must hold)
    let cases: [(&str, Option<&str>, u16, &str, &str); 8] = [
        ("{\"board\": ", JSON, 400, "invalid-json", "EOF"),
        ("", JSON, 400, "invalid-json", "EOF"),
        (
            "{\"board\": 5}",
            JSON,
            422,
            "invalid-request",
            "an array of row strings, one string of all cells, or an array of rows of numbers",
        ),
        (
            "{\"grid\": []}",
            JSON,
            422,
            "invalid-request",
            "unknown field `grid`: this endpoint takes `board`, `cages`",
        ),
        (
            "{\"cages\": []}",
            JSON,
            422,
            "invalid-request",
            "missing field `board`",
        ),
        ("[1, 2]", JSON, 422, "invalid-request", "invalid type"),
        (
            "board=1",
            Some("application/x-www-form-urlencoded"),
            415,
            "unsupported-media-type",
            "Content-Type: application/json",
        ),
        (
            "{}",
            None,
            415,
            "unsupported-media-type",
            "Content-Type: application/json",
        ),
    ];
    for (body, content_type, status, kind, phrase) in cases {
        let mut request = client().post(server.url("/solve")).body(body);
        if let Some(t) = content_type {
            request = request.header(header::CONTENT_TYPE, t);
        }
        let problem = expect_problem(request.send().await.unwrap(), status, kind).await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(phrase), "{body:?}: {detail}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn hostile_bodies_never_cause_a_5xx() {
    let server = TestServer::start().await;
    let c = client();
    let json_post = |body: Vec<u8>| {
        c.post(server.url("/solve"))
            .header(header::CONTENT_TYPE, "application/json")
            .body(body)
            .send()
    };
    // Too large for the 8 KiB default limit.
    let huge = format!("{{\"board\": \"{}\"}}", ".".repeat(100_000));
    expect_problem(
        json_post(huge.into_bytes()).await.unwrap(),
        413,
        "body-too-large",
    )
    .await;
    // Deeply nested arrays: a board row must be a string, so the first nesting is refused...
    let nested = format!("{{\"board\": {}{}}}", "[".repeat(3000), "]".repeat(3000));
    expect_problem(
        json_post(nested.into_bytes()).await.unwrap(),
        422,
        "invalid-request",
    )
    .await;
    // ...and an unknown field nested as deep as the body limit allows is refused by name,
    // without overflowing the stack.
    let nested = format!(
        "{{\"x\": {}{}, \"board\": \"\"}}",
        "[".repeat(4000),
        "]".repeat(4000)
    );
    let body = expect_problem(
        json_post(nested.into_bytes()).await.unwrap(),
        422,
        "invalid-request",
    )
    .await;
    assert!(body["detail"]
        .as_str()
        .unwrap()
        .contains("unknown field `x`"));
    // Not UTF-8.
    expect_problem(
        json_post(b"{\"board\": \"\xff\xfe\"}".to_vec())
            .await
            .unwrap(),
        400,
        "invalid-json",
    )
    .await;
    // Control characters and odd unicode inside a well-formed board string.
    let body = expect_problem(
        post_json(
            &server,
            "/solve",
            json!({"board": format!("\u{0}{}", ".".repeat(80))}),
        )
        .await,
        422,
        "invalid-board",
    )
    .await;
    assert_eq!(
        (body["row"].clone(), body["col"].clone()),
        (json!(0), json!(0))
    );
    server.shutdown().await;
}

#[tokio::test]
async fn unknown_routes_and_methods_are_problems() {
    let server = TestServer::start().await;
    let c = client();
    let body = expect_problem(
        c.get(server.url("/nope")).send().await.unwrap(),
        404,
        "not-found",
    )
    .await;
    assert_eq!(body["detail"], "no route for /nope");
    let response = c.get(server.url("/solve")).send().await.unwrap();
    assert_eq!(response.headers()[header::ALLOW], "POST");
    expect_problem(response, 405, "method-not-allowed").await;
    expect_problem(
        c.post(server.url("/healthz")).send().await.unwrap(),
        405,
        "method-not-allowed",
    )
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn validate_gives_a_verdict_even_for_broken_boards() {
    let server = TestServer::start().await;
    let verdict = |board: String| {
        let server = &server;
        async move {
            let response = post_json(server, "/validate", json!({ "board": board })).await;
            assert_eq!(response.status(), StatusCode::OK);
            response.json::<Value>().await.unwrap()
        }
    };
    let broken = format!("77{}", ".".repeat(79));
    let body = verdict(broken).await;
    assert_eq!(body["valid"], false);
    assert_eq!(body["solutions"], 0);
    assert_eq!(body["conflicts"].as_array().unwrap().len(), 2); // row 0 and box 0
    assert_eq!(body["conflicts"][1]["unit"], "box");

    let body = verdict(SEED.to_string()).await;
    let id = body["id"].as_str().unwrap().to_string();
    assert_eq!(
        body,
        json!({"id": id, "valid": true, "complete": false, "solved": false, "conflicts": [],
               "conflict_cells": [], "solutions": 1})
    );
    assert_eq!(verdict(".".repeat(81)).await["solutions"], 2);
    let body = verdict(SEED_SOLUTION.to_string()).await;
    assert_eq!(
        (
            body["complete"].clone(),
            body["solved"].clone(),
            body["solutions"].clone()
        ),
        (json!(true), json!(true), json!(1))
    );
    // No clash yet, but the player's 1 in the first empty cell makes the board unfinishable.
    let stuck = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    let body = verdict(stuck).await;
    assert_eq!(
        (body["valid"].clone(), body["solutions"].clone()),
        (json!(true), json!(0))
    );
    server.shutdown().await;
}

#[tokio::test]
async fn operator_endpoints() {
    let server = TestServer::start().await;
    let c = client();
    let health: Value = c
        .get(server.url("/healthz"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health["status"], "ok");
    let ready: Value = c
        .get(server.url("/readyz"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(ready["status"], "ready");

    post_json(&server, "/solve", json!({"board": SEED})).await;
    c.get(server.url("/missing")).send().await.unwrap();
    let response = c.get(server.url("/metrics")).send().await.unwrap();
    assert!(response.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("application/openmetrics-text"));
    let text = response.text().await.unwrap();
    for needle in [
        "http_requests_total{route=\"/solve\",method=\"POST\",status=\"200\"} 1",
        "http_requests_total{route=\"unmatched\",method=\"GET\",status=\"404\"} 1",
        "http_request_duration_seconds_bucket{le=\"+Inf\",route=\"/solve\"} 1",
        "solve_duration_seconds_count 1",
        "solves_inline_total 1",
        "solves_in_flight 0",
        "solves_rejected_total 0",
        "# EOF",
    ] {
        assert!(
            text.lines().any(|l| l == needle),
            "missing {needle} in\n{text}"
        );
    }
    // Every route the service answers has its own label: none falls into "unmatched".
    for route in sudoku_service::http::ROUTE_PATTERNS {
        c.get(server.url(route)).send().await.unwrap();
        let text = server.get_text("/metrics").await;
        assert!(
            text.contains(&format!("route=\"{route}\",method=\"GET\"")),
            "{route} has no series of its own"
        );
    }

    let spec = c.get(server.url("/openapi.yaml")).send().await.unwrap();
    assert_eq!(spec.headers()[header::CONTENT_TYPE], "application/yaml");
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml")).unwrap();
    assert_eq!(spec.text().await.unwrap(), committed);
    server.shutdown().await;
}

#[tokio::test]
async fn request_ids_are_echoed_or_made() {
    let server = TestServer::start().await;
    let c = client();
    let response = c
        .get(server.url("/healthz"))
        .header("x-request-id", "lb-abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "lb-abc-123");
    let response = c.get(server.url("/nope")).send().await.unwrap();
    let made = response.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(!made.is_empty());
    let again = c.get(server.url("/nope")).send().await.unwrap();
    assert_ne!(again.headers()["x-request-id"].to_str().unwrap(), made);
    server.shutdown().await;
}

#[tokio::test]
async fn cors_preflight_and_simple_requests() {
    let server = TestServer::start().await;
    let c = client();
    let preflight = c
        .request(reqwest::Method::OPTIONS, server.url("/solve"))
        .header("origin", "https://puzzles.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
    let methods = preflight.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap();
    assert!(methods.contains("POST"));
    // With any origin allowed the answer never depends on the origin: no `Vary` to cache by.
    assert!(preflight.headers().get("vary").is_none());
    server.shutdown().await;

    let strict = TestServer::with(ServeArgs {
        cors_origins: vec!["https://good.example".to_string()],
        ..ServeArgs::default()
    })
    .await;
    let allowed = c
        .get(strict.url("/healthz"))
        .header("origin", "https://good.example")
        .send()
        .await
        .unwrap();
    assert_eq!(
        allowed.headers()["access-control-allow-origin"],
        "https://good.example"
    );
    // Here it does, so shared caches must keep one copy per origin.
    let vary = allowed.headers()["vary"].to_str().unwrap();
    assert!(vary.contains("origin"), "{vary}");
    let other = c
        .get(strict.url("/healthz"))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert!(other.headers().get("access-control-allow-origin").is_none());
    strict.shutdown().await;
}

#[tokio::test]
async fn overload_sheds_with_503_and_retry_after() {
    // No queue, and the one solver thread busy until its requester leaves: every solve
    // that needs the solver threads meanwhile must be shed, however fast or slow the build
    // and the machine.
    let (server, busy) = one_busy_solver_thread(0).await;
    let shed = 16;
    let responses =
        join_all((0..shed).map(|_| post_json_owned(server.url("/solve"), json!({"board": HARD}))))
            .await;
    for response in responses {
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
        expect_problem(response, 503, "overloaded").await;
    }
    // Every refusal is counted, once; health and metrics answered all along.
    assert_eq!(
        server.metric("solves_rejected_total").await,
        f64::from(shed)
    );
    // A puzzle that needs no guess is solved inline, without a place on the pool.
    let easy = ok_json(post_json(&server, "/solve", json!({"board": SEED})).await).await;
    assert_eq!(easy["solution"], SEED_SOLUTION);
    // The generation's requester leaves: its job stops and the pool serves at once.
    busy.abort();
    wait_for("the generation stops", || async {
        server.metric("solves_in_flight").await == 0.0
    })
    .await;
    let solved = ok_json(post_json(&server, "/solve", json!({"board": HARD})).await).await;
    assert_solves(HARD, solved["solution"].as_str().unwrap());
    assert_eq!(
        server.metric("solves_rejected_total").await,
        f64::from(shed)
    );
    server.shutdown().await;
}

#[tokio::test]
async fn slow_header_senders_are_cut_off() {
    use tokio::io::AsyncReadExt;
    let server = TestServer::with(ServeArgs {
        header_timeout_ms: 300,
        ..ServeArgs::default()
    })
    .await;
    let mut slow = send_raw(server.addr, b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await;
    let mut buf = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut buf)).await;
    assert!(
        closed.is_ok(),
        "the server must close a connection that never finishes its headers"
    );
    // Others are served meanwhile and afterwards.
    let ok = client().get(server.url("/healthz")).send().await.unwrap();
    assert_eq!(ok.status(), StatusCode::OK);
    server.shutdown().await;
}

#[tokio::test]
async fn a_request_over_its_time_limit_gets_a_timeout_problem() {
    use tokio::io::AsyncReadExt;
    let server = TestServer::with(ServeArgs {
        request_timeout_ms: 300,
        ..ServeArgs::default()
    })
    .await;
    // Headers and half a body, then silence: the handler waits for the rest until the limit.
    let mut stream = send_raw(
        server.addr,
        b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"board\": ",
    )
    .await;
    let mut answer = vec![0u8; 4096];
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut answer))
        .await
        .expect("answered within the limit")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..read]);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.contains("urn:sudoku-service:problem:timeout"),
        "{answer}"
    );
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: 1"),
        "{answer}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn in_flight_requests_finish_during_graceful_shutdown() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut server = TestServer::start().await;
    let body = format!("{{\"board\": \"{SEED}\"}}");
    let head = format!(
        "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        body.len(),
        &body[..10]
    );
    let mut stream = send_raw(server.addr, head.as_bytes()).await;
    // In flight: that request and the metrics request asking.
    wait_for("the half-sent request is in flight", || async {
        server.metric("http_requests_in_flight").await >= 2.0
    })
    .await;
    server.begin_shutdown();
    // No shutdown delay: the listener closes at once, and the request is still answered.
    let addr = server.addr;
    wait_for("the listener closes", || async move {
        tokio::net::TcpStream::connect(addr).await.is_err()
    })
    .await;
    let shutdown = tokio::spawn(server.shutdown());
    stream.write_all(&body.as_bytes()[10..]).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(SEED_SOLUTION));
    shutdown.await.unwrap();
}

#[tokio::test]
async fn a_busy_request_past_its_time_limit_gets_a_timeout_and_stops_working() {
    // A work budget of many seconds, so that the time limit, not the budget, ends the single
    // job below in a release build too (the default budget is about 0.25 s of CPU).
    let server = TestServer::with(ServeArgs {
        request_timeout_ms: 200,
        work_budget: 100 * ServeArgs::default().work_budget,
        ..ServeArgs::default()
    })
    .await;
    // Not stalled: the whole body arrives at once, and solving it takes far longer than 200 ms.
    // The batch answers before the limit with what it solved, a timeout for every other item.
    let boards = vec![HARD; 8000];
    let items = ok_json(post_json(&server, "/solve/batch", json!(boards)).await).await;
    let items = items.as_array().unwrap();
    assert_eq!(items.len(), boards.len());
    assert!(items
        .iter()
        .any(|i| i["error"]["type"] == "urn:sudoku-service:problem:timeout"));
    // What was left stops instead of holding the solver threads for nobody.
    wait_for("the rest of the batch stops", || async {
        server.metric("solves_in_flight").await == 0.0
    })
    .await;
    // A single job past the limit gets its timeout, with Retry-After, and stops too: an
    // empty Jigsaw X Hyper board searches for far longer than 200 ms.
    let jigsaw = [
        "112222333",
        "111222333",
        "111122333",
        "444555666",
        "774555666",
        "744555666",
        "744488899",
        "778889999",
        "777888999",
    ];
    let response = post_json(
        &server,
        "/solve",
        json!({"board": ".".repeat(81), "regions": jigsaw, "diagonals": true, "windows": true}),
    )
    .await;
    assert_eq!(response.headers()[header::RETRY_AFTER], "1");
    expect_problem(response, 503, "timeout").await;
    wait_for("the abandoned solve stops", || async {
        server.metric("solves_in_flight").await == 0.0
    })
    .await;
    let body = ok_json(post_json(&server, "/solve", json!({ "board": SEED })).await).await;
    assert_eq!(body["solution"], SEED_SOLUTION);
    server.shutdown().await;
}

#[tokio::test]
async fn budget_exhaustion_and_queued_solves_are_counted() {
    let stingy = TestServer::with(ServeArgs {
        work_budget: 0,
        ..ServeArgs::default()
    })
    .await;
    assert_eq!(stingy.metric("solves_budget_exhausted_total").await, 0.0);
    for path in ["/solve", "/validate"] {
        let response = post_json(&stingy, path, json!({"board": ".".repeat(81)})).await;
        expect_problem(response, 422, "budget-exhausted").await;
    }
    assert_eq!(stingy.metric("solves_budget_exhausted_total").await, 2.0);
    stingy.shutdown().await;

    // One solver thread, busy until its requester leaves. A hard solve waits in the queue
    // meanwhile.
    let (server, busy) = one_busy_solver_thread(4).await;
    let waiting = tokio::spawn(post_json_owned(
        server.url("/solve"),
        json!({ "board": HARD }),
    ));
    wait_for("the hard solve is queued", || async {
        server.metric("solves_queued").await == 1.0
    })
    .await;
    assert_eq!(server.metric("solves_in_flight").await, 1.0);
    // The generation's requester leaves: its job stops, and the queued solve runs.
    busy.abort();
    let solved = ok_json(waiting.await.unwrap()).await;
    assert_solves(HARD, solved["solution"].as_str().unwrap());
    assert_eq!(server.metric("solves_queued").await, 0.0);
    assert_eq!(server.metric("solves_in_flight").await, 0.0);
    server.shutdown().await;
}

/// A server with one solver thread and `queue_depth` places to wait, and that thread busy
/// until the returned request is dropped (aborted): a generation asked for exactly the
/// highest rating classic puzzles reach (rarely met), with no work or time limit to speak of,
/// goes through thousands of candidates however fast the build.
async fn one_busy_solver_thread(
    queue_depth: usize,
) -> (TestServer, tokio::task::JoinHandle<reqwest::Response>) {
    let server = TestServer::with(ServeArgs {
        max_solves: Some(1.try_into().unwrap()),
        queue_depth: Some(queue_depth),
        generate_work_budget: u64::MAX,
        request_timeout_ms: 3_600_000,
        ..ServeArgs::default()
    })
    .await;
    let busy = tokio::spawn(post_json_owned(
        server.url("/generate"),
        json!({"rating": {"min": 9.1, "max": 9.1}, "seed": 1}),
    ));
    wait_for("the generation runs", || async {
        server.metric("solves_in_flight").await == 1.0
    })
    .await;
    (server, busy)
}

/// `post` for spawned tasks, which cannot borrow the server.
async fn post_json_owned(url: String, body: Value) -> reqwest::Response {
    client().post(url).json(&body).send().await.unwrap()
}

#[tokio::test]
async fn environment_variables_configure_the_binary_and_flags_win() {
    let body = json!({ "board": SEED }).to_string(); // 97 bytes
    let send = |url: String, body: String| async move {
        client()
            .post(url)
            .header(header::CONTENT_TYPE, "application/json")
            .body(body)
            .send()
            .await
            .unwrap()
    };
    let from_env = ServerProcess::start(&[], &[("SUDOKU_BODY_LIMIT", "64")]);
    let refused = send(from_env.url("/solve"), body.clone()).await;
    expect_problem(refused, 413, "body-too-large").await;
    drop(from_env);

    let flag_wins = ServerProcess::start(&["--body-limit", "4096"], &[("SUDOKU_BODY_LIMIT", "64")]);
    let answered = ok_json(send(flag_wins.url("/solve"), body).await).await;
    assert_eq!(answered["solution"], SEED_SOLUTION);
}

#[tokio::test]
async fn json_logs_carry_the_request_id() {
    let server = ServerProcess::start(&[], &[("SUDOKU_LOG_FORMAT", "json")]);
    let response = client()
        .get(server.url("/healthz"))
        .header("x-request-id", "trace-me-42")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["x-request-id"], "trace-me-42");
    let line = server.wait_for_log("the request is logged", |l| l.contains("trace-me-42"));
    let entry: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(entry["fields"]["message"], "answered", "{entry}");
    assert_eq!(entry["fields"]["status"], 200, "{entry}");
    assert_eq!(entry["span"]["id"], "trace-me-42", "{entry}");
    assert_eq!(entry["span"]["route"], "/healthz", "{entry}");
    // Every line is JSON, the start-up line included.
    for line in server.logs() {
        assert!(serde_json::from_str::<Value>(&line).is_ok(), "{line}");
    }

    let text = ServerProcess::start(&[], &[]);
    client()
        .get(text.url("/healthz"))
        .header("x-request-id", "trace-me-43")
        .send()
        .await
        .unwrap();
    let line = text.wait_for_log("the request is logged", |l| l.contains("trace-me-43"));
    assert!(
        line.contains("id=trace-me-43") && line.contains("answered"),
        "{line}"
    );
}

#[tokio::test]
async fn v1_answers_as_its_unversioned_aliases_do_and_says_what_it_speaks() {
    let server = TestServer::with(ServeArgs {
        body_limit: 4096,
        rate_limit: 500,
        ..ServeArgs::default()
    })
    .await;
    for (path, body) in [
        ("/solve", json!({ "board": SEED })),
        ("/validate", json!({ "board": SEED })),
        ("/grade", json!({ "board": SEED })),
        ("/hint", json!({ "board": SEED })),
        ("/candidates", json!({ "board": SEED })),
        ("/generate", json!({"difficulty": "easy", "seed": 3})),
        ("/solve/batch", json!([SEED])),
    ] {
        let mut versioned =
            ok_json(post_json(&server, &format!("/v1{path}"), body.clone()).await).await;
        let mut alias = ok_json(post_json(&server, path, body).await).await;
        for answer in [&mut versioned, &mut alias] {
            if let Some(stats) = answer.get_mut("stats") {
                stats["micros"] = json!(0);
            }
        }
        assert_eq!(versioned, alias, "{path}");
    }
    let by_url = client()
        .get(server.url("/v1/generate?difficulty=easy&seed=3"))
        .send()
        .await
        .unwrap();
    assert_eq!(by_url.status(), 200);
    // Versioned requests have their own metric series.
    let metrics = server.get_text("/metrics").await;
    assert!(metrics.contains("route=\"/v1/solve\",method=\"POST\",status=\"200\""));
    // The batch limit applies under /v1 too: the guard knows the route.
    let big_batch = vec![SEED; 60];
    let response = client()
        .post(server.url("/v1/solve/batch"))
        .json(&big_batch)
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.status(),
        200,
        "a batch above --body-limit is not refused"
    );

    let capabilities = ok_json(
        client()
            .get(server.url("/v1/capabilities"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(capabilities["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(capabilities["api_versions"], json!(["v1"]));
    assert_eq!(
        capabilities["limits"]["body_bytes"], 4096,
        "the running config"
    );
    assert_eq!(
        capabilities["limits"]["rate_limit"],
        json!({"per_second": 500, "burst": 500})
    );
    assert_eq!(
        capabilities["rule_fields"],
        json!([
            "cages",
            "regions",
            "diagonals",
            "windows",
            "anti_king",
            "anti_knight",
            "non_consecutive",
            "disjoint_groups",
            "extra_regions",
            "odd",
            "even",
            "thermometers",
            "dots",
            "negative",
            "whispers",
            "palindromes",
            "renban",
            "arrows",
            "little_killers",
            "sandwiches",
            "x_sums",
            "skyscrapers",
            "between_lines",
            "region_sum_lines",
            "quadruples",
            "minimum",
            "maximum",
            "clones"
        ])
    );
    assert_eq!(
        capabilities["generate"]["variants"],
        json!(["classic", "killer", "x", "hyper", "jigsaw"])
    );
    let missing = client()
        .get(server.url("/capabilities"))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404, "new in v1: no unversioned alias");

    let served = client()
        .get(server.url("/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(served.headers()[header::CONTENT_TYPE], "application/json");
    let served: Value = served.json().await.unwrap();
    let committed: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(served, committed);
    assert_eq!(served["info"]["version"], env!("CARGO_PKG_VERSION"));
    server.shutdown().await;
}
