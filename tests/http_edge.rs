//! Black-box tests of the edge over TCP: connection timeouts and caps, slow readers, early
//! refusals, strict bodies, rate limits and who a request counts for.

mod common;

use std::time::Duration;

use common::{
    client, expect_problem, join_all, post, send_raw, wait_for, TestServer, PATIENCE, SEED,
};
use reqwest::header;
use serde_json::json;
use sudoku_service::http::ServeArgs;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Reads until the server closes the connection (or `limit` passes); the bytes read.
async fn read_until_closed(stream: &mut tokio::net::TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut all = Vec::new();
    let mut buffer = [0u8; 8192];
    let result = tokio::time::timeout(limit, async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => all.extend_from_slice(&buffer[..n]),
            }
        }
    })
    .await;
    result.ok().map(|()| all)
}

#[tokio::test]
async fn a_connection_that_sends_nothing_or_stays_idle_is_closed() {
    // hyper starts its header timer whenever it waits for a request head (at accept, and
    // after each answer on a keep-alive connection), so with the default 5 s header timeout
    // it would close both connections below too, idle timeout or not. Set far beyond the
    // test's patience, it leaves the idle timeout as the only thing that can close them.
    let server = TestServer::with(ServeArgs {
        idle_timeout_ms: 300,
        header_timeout_ms: 3_600_000,
        ..ServeArgs::default()
    })
    .await;
    // Silent from the start.
    let mut silent = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let closed = read_until_closed(&mut silent, PATIENCE).await;
    assert_eq!(
        closed,
        Some(Vec::new()),
        "a silent connection is closed without a byte (None: still open after {PATIENCE:?})"
    );
    // Idle after an answered request on a keep-alive connection.
    let mut kept = send_raw(server.addr, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await;
    let answer = read_until_closed(&mut kept, PATIENCE)
        .await
        .unwrap_or_else(|| panic!("an idle keep-alive connection still open after {PATIENCE:?}"));
    assert!(
        answer.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_reader_that_stops_is_cut_off_and_frees_its_work() {
    // One place per client, and a time limit beyond the test's patience: only the send
    // timeout can give the stream's place back in time.
    let server = TestServer::with(ServeArgs {
        send_timeout_ms: 300,
        request_timeout_ms: 600_000,
        max_solves: Some(1.try_into().unwrap()),
        queue_depth: Some(0),
        ..ServeArgs::default()
    })
    .await;
    // A long stream of answers nobody reads: the server's writes block, then it gives up.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(server.addr).await.unwrap();
    // Boards of nothing but 1s: each answer is a problem of about 1,000 bytes, 10 MB in all,
    // more than the kernel's buffers take, so the server's writes do block.
    let clash = "1".repeat(81);
    let body = serde_json::to_string(&vec![clash.as_str(); 10_000]).unwrap();
    let head = format!(
        "POST /solve/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Accept: application/x-ndjson\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    // The answer's head says the stream has its place; reading it leaves the rest unread.
    let mut received = Vec::new();
    let mut buffer = [0u8; 1024];
    tokio::time::timeout(PATIENCE, async {
        while !received.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = stream.read(&mut buffer).await.unwrap();
            assert!(n > 0, "closed before the answer's head");
            received.extend_from_slice(&buffer[..n]);
        }
    })
    .await
    .expect("the answer's head arrives");
    assert!(received.starts_with(b"HTTP/1.1 200"));
    // Another batch from the same client gets a place only once the stream is abandoned and
    // its work stopped.
    wait_for(
        "the stream is abandoned and its place given back",
        || async {
            let response = client()
                .post(server.url("/solve/batch"))
                .json(&json!([SEED]))
                .send()
                .await
                .unwrap();
            response.status() == 200
        },
    )
    .await;
    assert_eq!(server.metric("solves_in_flight").await, 0.0);
    // What was sent before the cut is there, then the connection ends.
    let rest = read_until_closed(&mut stream, Duration::from_secs(10))
        .await
        .unwrap();
    received.extend_from_slice(&rest);
    let lines = received
        .split(|&b| b == b'\n')
        .filter(|l| l.starts_with(b"{\"error\""))
        .count();
    assert!(
        lines < 10_000,
        "{lines} answers reached a reader that never read"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn beyond_the_connection_cap_only_the_probes_are_served() {
    let server = TestServer::with(ServeArgs {
        max_connections: Some(1),
        reserve_connections: 2,
        ..ServeArgs::default()
    })
    .await;
    // The one full place, held by a connection that sends its request slowly.
    let _held = send_raw(server.addr, b"POST /solve HTTP/1.1\r\nHost: x\r\n").await;
    wait_for("the first connection holds the full place", || async {
        let mut probe = send_raw(
            server.addr,
            b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
        )
        .await;
        let answer = read_until_closed(&mut probe, Duration::from_secs(5)).await;
        answer.is_some_and(|a| a.starts_with(b"HTTP/1.1 503"))
    })
    .await;
    // On a reserve connection the probes answer...
    let health = client().get(server.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    // ...and everything else is a 503 overloaded with Retry-After.
    let response = post(&server, "/solve", json!({ "board": SEED })).await;
    assert_eq!(response.headers()[header::RETRY_AFTER], "1");
    expect_problem(response, 503, "overloaded").await;
    server.shutdown().await;
}

#[tokio::test]
async fn bodies_too_large_are_refused_before_they_are_read_and_the_answer_arrives() {
    let server = TestServer::start().await;
    // Announced far beyond the limit: the answer comes at once, without a byte of body.
    let mut stream = send_raw(
        server.addr,
        b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n{",
    )
    .await;
    let answer = read_until_closed(&mut stream, Duration::from_secs(5))
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(
        text.contains("urn:sudoku-service:problem:body-too-large"),
        "{text}"
    );
    // Sent whole without waiting (no Expect: 100-continue): the client can still read the
    // 413 once it has sent everything, instead of a connection reset.
    let body = vec![b'x'; 2_000_000];
    let head = format!(
        "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut stream = send_raw(server.addr, head.as_bytes()).await;
    stream.write_all(&body).await.unwrap();
    let answer = read_until_closed(&mut stream, Duration::from_secs(10))
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(text.contains("application/problem+json"), "{text}");
    server.shutdown().await;
}

#[tokio::test]
async fn header_and_target_limits_answer_in_problem_json() {
    let server = TestServer::start().await;
    let mut request = client().get(server.url("/healthz"));
    for i in 0..120 {
        request = request.header(format!("x-header-{i}"), "1");
    }
    let body = expect_problem(request.send().await.unwrap(), 431, "headers-too-large").await;
    assert!(body["detail"]
        .as_str()
        .unwrap()
        .contains("more than 100 headers"));
    let long = server.url(&format!("/healthz?{}", "a".repeat(9_000)));
    expect_problem(
        client().get(long).send().await.unwrap(),
        414,
        "uri-too-long",
    )
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn misspelled_and_unsupported_fields_are_refused_by_name() {
    let server = TestServer::start().await;
    let body = json!({"board": SEED, "Cages": []});
    let problem = expect_problem(post(&server, "/solve", body).await, 422, "invalid-request").await;
    assert_eq!(
        problem["detail"],
        "unknown field `Cages`: did you mean `cages`? This endpoint takes `board`, `cages`, \
         `regions`, `diagonals`, `windows`, `anti_king`, `anti_knight`, `non_consecutive`, \
         `disjoint_groups`, `extra_regions`, `odd`, `even`, `thermometers`, `dots`, `negative`, \
         `whispers`, `palindromes`, `renban`, `arrows`, `little_killers`, `sandwiches`, \
         `x_sums`, `skyscrapers`, `between_lines`, `region_sum_lines`, `quadruples`, \
         `minimum`, `maximum`, `clones`, `fpuzzles`"
    );
    let body = json!({"difficulty": "easy", "seeds": 3});
    let problem = expect_problem(
        post(&server, "/generate", body).await,
        422,
        "invalid-request",
    )
    .await;
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .contains("did you mean `seed`?"));
    // Grading covers 9x9 boards: cages on a 4x4 one are refused by name, never ignored; the
    // size is the reason, so the pointer is the board's.
    let body =
        json!({"board": "1.....3..4.....2", "cages": [{"sum": 3, "cells": [[0, 0], [0, 1]]}]});
    let problem = expect_problem(post(&server, "/grade", body).await, 422, "unsupported").await;
    assert_eq!(problem["pointer"], "/board");
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .contains("this one is 4x4 Killer"));
    server.shutdown().await;
}

#[tokio::test]
async fn objects_sent_as_arrays_of_their_fields_are_refused_by_pointer() {
    // serde reads a struct from an array of its fields in order; the API documents objects
    // only, so each of these is a 422 at the place that should hold an object.
    let server = TestServer::start().await;
    let empty = json!(["....", "....", "....", "...."]);
    let cases = [
        ("/v1/solve", json!([empty]), ""),
        ("/v1/generate", json!(["easy"]), ""),
        (
            "/v1/solve",
            json!({"board": empty, "cages": [[3, [[0, 0], [0, 1]]]]}),
            "/cages/0",
        ),
        (
            "/v1/solve",
            json!({"board": empty, "thermometers": [[[[0, 0], [0, 1]]]]}),
            "/thermometers/0",
        ),
        (
            "/v1/solve",
            json!({"board": empty, "dots": [[[[0, 0], [0, 1]], "white"]]}),
            "/dots/0",
        ),
        (
            "/v1/validate",
            json!({"board": empty, "move": [0, 0, 1]}),
            "/move",
        ),
        (
            "/v1/generate/batch",
            json!({"count": 1, "difficulty": "easy", "clues": [null, null]}),
            "/clues",
        ),
    ];
    for (path, body, pointer) in cases {
        let problem = expect_problem(
            post(&server, path, body.clone()).await,
            422,
            "invalid-request",
        )
        .await;
        assert_eq!(problem["pointer"], pointer, "{path} {body}: {problem}");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("expected an object"), "{detail}");
    }
    // The documented forms still read.
    let ok = post(
        &server,
        "/v1/validate",
        json!({"board": empty, "cages": [{"sum": 3, "cells": [[0, 0], [0, 1]]}],
               "move": {"row": 0, "col": 0, "digit": 1}}),
    )
    .await;
    assert_eq!(ok.status(), 200);
}

#[tokio::test]
async fn the_rate_limit_counts_each_client_and_spares_the_probes() {
    let server = TestServer::with(ServeArgs {
        rate_limit: 1,
        rate_burst: Some(2),
        trusted_proxies: vec!["127.0.0.1".to_string()],
        ..ServeArgs::default()
    })
    .await;
    let solve_as = |forwarded: &'static str| {
        let url = server.url("/solve");
        async move {
            client()
                .post(url)
                .header("x-forwarded-for", forwarded)
                .json(&json!({ "board": SEED }))
                .send()
                .await
                .unwrap()
        }
    };
    // Through the trusted proxy (this test), each forwarded client has its own burst of 2.
    // Twenty requests at once from one of them: however slowly a busy machine serves them,
    // at most the burst and one more per second since the first are let through, and the
    // rest are refused with a Retry-After.
    let started = std::time::Instant::now();
    let answers = join_all((0..20).map(|_| solve_as("203.0.113.1"))).await;
    let elapsed = started.elapsed();
    let mut served = 0;
    for answer in answers {
        if answer.status() == 200 {
            served += 1;
            continue;
        }
        let retry: u64 = answer.headers()[header::RETRY_AFTER]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=2).contains(&retry), "{retry}");
        expect_problem(answer, 429, "too-many-requests").await;
    }
    let allowed = 2 + elapsed.as_secs() + 1;
    assert!(
        (2..=allowed).contains(&served) && served < 20,
        "{served} of 20 served in {elapsed:?} (burst 2, 1 per second)"
    );
    assert_eq!(solve_as("203.0.113.2").await.status(), 200);
    // The probes are never limited.
    for _ in 0..5 {
        let health = client().get(server.url("/healthz")).send().await.unwrap();
        assert_eq!(health.status(), 200);
    }
    server.shutdown().await;
}

#[tokio::test]
async fn every_answer_carries_the_ratelimit_headers_when_limiting_is_on() {
    let server = TestServer::with(ServeArgs {
        rate_limit: 1,
        rate_burst: Some(3),
        ..ServeArgs::default()
    })
    .await;
    let header = |response: &reqwest::Response, name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    };
    let policy = Some("\"per-client\";q=3;w=3".to_string());
    // Sent one after another: the bucket of 3 empties (a refill of 1 per second cannot add
    // a whole place between two requests on loopback often enough to matter: each state is
    // read from the answer, not assumed).
    let mut remaining = Vec::new();
    for _ in 0..5 {
        let answer = post(&server, "/solve", json!({ "board": SEED })).await;
        assert_eq!(header(&answer, "ratelimit-policy"), policy, "{answer:?}");
        let state = header(&answer, "ratelimit").expect("a RateLimit header");
        let fields: Vec<&str> = state.split(';').collect();
        assert_eq!(fields[0], "\"per-client\"", "{state}");
        let r: u32 = fields[1].strip_prefix("r=").unwrap().parse().unwrap();
        let t: u64 = fields[2].strip_prefix("t=").unwrap().parse().unwrap();
        if answer.status() == 429 {
            assert_eq!(r, 0, "{state}");
            let retry: u64 = header(&answer, "retry-after").unwrap().parse().unwrap();
            assert_eq!(t, retry, "{state}: reset when the Retry-After says");
            expect_problem(answer, 429, "too-many-requests").await;
        } else {
            assert_eq!(answer.status(), 200);
            assert!(t <= 3 && (r < 3), "{state}");
        }
        remaining.push((r, t));
    }
    assert!(
        remaining.iter().any(|&(r, _)| r == 0),
        "five requests at a burst of 3 empty the bucket: {remaining:?}"
    );
    // Errors carry them too, and the probes the policy alone (they are not counted).
    let missing = client().get(server.url("/nowhere")).send().await.unwrap();
    assert_eq!(header(&missing, "ratelimit-policy"), policy);
    let health = client().get(server.url("/healthz")).send().await.unwrap();
    assert_eq!(header(&health, "ratelimit-policy"), policy);
    assert_eq!(header(&health, "ratelimit"), None);
    // A browser may read them (CORS).
    let cross_origin = client()
        .get(server.url("/healthz"))
        .header("origin", "https://example.com")
        .send()
        .await
        .unwrap();
    let exposed = header(&cross_origin, "access-control-expose-headers").unwrap();
    assert!(
        exposed.contains("ratelimit-policy") && exposed.contains("ratelimit"),
        "{exposed}"
    );
    server.shutdown().await;
    // With limiting off, neither header.
    let unlimited = TestServer::start().await;
    let answer = post(&unlimited, "/solve", json!({ "board": SEED })).await;
    assert_eq!(header(&answer, "ratelimit-policy"), None);
    assert_eq!(header(&answer, "ratelimit"), None);
    unlimited.shutdown().await;
}

/// What a raw request gets back, as text, once the server has closed the connection.
async fn raw_answer(server: &TestServer, request: &[u8]) -> String {
    let mut stream = send_raw(server.addr, request).await;
    let answer = read_until_closed(&mut stream, PATIENCE).await.unwrap();
    String::from_utf8_lossy(&answer).into_owned()
}

/// The header limit is hyper's own HTTP/1 count, left at its default (setting one costs a
/// per-request allocation), and the guard's: exactly 100 header lines pass and 101 are a
/// 431 problem, whichever of the two refuses them (a hyper default below 100 fails here).
#[tokio::test]
async fn a_hundred_headers_pass_and_one_more_is_a_problem() {
    let server = TestServer::start().await;
    let head = |lines: usize| {
        // Host and Connection, then as many more as make `lines`.
        let extra: String = (0..lines - 2).map(|i| format!("X-{i}: y\r\n")).collect();
        format!("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}\r\n")
    };
    let passed = raw_answer(&server, head(100).as_bytes()).await;
    assert!(passed.starts_with("HTTP/1.1 200"), "{passed}");
    let refused = raw_answer(&server, head(101).as_bytes()).await;
    assert!(refused.starts_with("HTTP/1.1 431"), "{refused}");
    assert!(
        refused.contains("urn:sudoku-service:problem:headers-too-large"),
        "{refused}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn requests_hyper_cannot_parse_still_get_problem_json() {
    let server = TestServer::start().await;
    let huge_target = format!(
        "GET /healthz?{} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(70_000)
    );
    let many_headers = format!(
        "GET /healthz HTTP/1.1\r\nHost: x\r\n{}\r\n",
        (0..300)
            .map(|i| format!("X-{i}: y\r\n"))
            .collect::<String>()
    );
    for (request, status, kind) in [
        (huge_target.as_str(), "414", "uri-too-long"),
        (many_headers.as_str(), "431", "headers-too-large"),
        ("GARBAGE\r\n\r\n", "400", "malformed-request"),
        ("GET /healthz HTTP/1.1\r\n\r\n", "400", "malformed-request"),
    ] {
        let text = raw_answer(&server, request.as_bytes()).await;
        assert!(text.starts_with(&format!("HTTP/1.1 {status}")), "{text}");
        assert!(
            text.contains("content-type: application/problem+json"),
            "{text}"
        );
        assert!(
            text.contains(&format!("urn:sudoku-service:problem:{kind}")),
            "{text}"
        );
        let body = text.split("\r\n\r\n").nth(1).unwrap_or("");
        let length: usize = text
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap();
        assert_eq!(body.len(), length, "{text}");
    }
    // A 20 MB body sent whole without Expect: the early 413 is still read, not reset.
    let body = vec![b'x'; 20_000_000];
    let head = format!(
        "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut stream = send_raw(server.addr, head.as_bytes()).await;
    stream.write_all(&body).await.unwrap();
    let answer = read_until_closed(&mut stream, PATIENCE).await.unwrap();
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(text.contains("application/problem+json"), "{text}");
    server.shutdown().await;
}
