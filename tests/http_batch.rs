//! Black-box tests of `POST /solve/batch` over TCP.

mod common;

use common::{assert_solves, client, ok_json, post, rows, TestServer, HARD, SEED, SEED_SOLUTION};
use reqwest::header;
use serde_json::{json, Value};

#[tokio::test]
async fn json_batches_answer_each_item_in_order() {
    let server = TestServer::start().await;
    let clash = format!("55{}", ".".repeat(79));
    let body = json!([SEED, rows(SEED), "12", clash, ".".repeat(81), HARD]);
    let response = client()
        .post(server.url("/solve/batch"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let items: Vec<Value> = response.json().await.unwrap();
    assert_eq!(items.len(), 6);
    // Each answer about a puzzle carries its id, the same as /solve gives it.
    let solved = ok_json(post(&server, "/solve", json!({ "board": SEED })).await).await;
    assert_eq!(
        items[0],
        json!({"id": solved["id"], "solution": SEED_SOLUTION, "unique": true})
    );
    assert_eq!(items[1]["solution"], json!(rows(SEED_SOLUTION)));
    assert_eq!(
        items[1]["id"], solved["id"],
        "the same puzzle in another form"
    );
    // A board that is no puzzle (malformed, clashing givens) has no id.
    assert_eq!(items[2].get("id"), None, "{}", items[2]);
    assert_eq!(
        items[2]["error"]["type"],
        "urn:sudoku-service:problem:invalid-board"
    );
    assert_eq!(
        items[2]["error"]["detail"],
        "expected 16, 36, 64, 81, 100, 144, 256 or 625 characters, found 2"
    );
    // The item is the board itself: no field of a request object to point at.
    assert_eq!(items[2]["error"].get("pointer"), None, "{}", items[2]);
    assert_eq!(
        items[3]["error"]["type"],
        "urn:sudoku-service:problem:conflicting-givens"
    );
    assert_eq!(items[4]["unique"], false);
    assert_solves(&".".repeat(81), items[4]["solution"].as_str().unwrap());
    assert_eq!(items[5]["unique"], true);
    assert_solves(HARD, items[5]["solution"].as_str().unwrap());
    server.shutdown().await;
}

#[tokio::test]
async fn text_batches_answer_in_text() {
    let server = TestServer::start().await;
    let body = format!("# a header\n{SEED}\n\nxyz\n{}\n", SEED.replace('.', "0"));
    let response = client()
        .post(server.url("/solve/batch"))
        .header(header::CONTENT_TYPE, "text/plain")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    let text = response.text().await.unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        vec![
            SEED_SOLUTION,
            "error: expected 16, 36, 64, 81, 100, 144, 256 or 625 characters, found 3",
            SEED_SOLUTION
        ]
    );
    server.shutdown().await;
}

/// POSTs `boards` asking for NDJSON; the response as it starts.
async fn ask_for_ndjson(server: &TestServer, boards: &[&str]) -> reqwest::Response {
    let response = client()
        .post(server.url("/solve/batch"))
        .header(header::ACCEPT, "application/x-ndjson")
        .json(&boards)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response
}

/// POSTs `boards` asking for NDJSON and returns the parsed lines.
async fn stream_ndjson(server: &TestServer, boards: &[&str]) -> Vec<Value> {
    let response = ask_for_ndjson(server, boards).await;
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "application/x-ndjson"
    );
    let text = response.text().await.unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn ndjson_streams_one_object_per_line() {
    let server = TestServer::start().await;
    let boards: Vec<&str> = std::iter::repeat_n(SEED, 1200).collect();
    let lines = stream_ndjson(&server, &boards).await;
    assert_eq!(lines.len(), 1200);
    assert!(lines.iter().all(|l| l["solution"] == SEED_SOLUTION));
    server.shutdown().await;
}

#[tokio::test]
async fn ndjson_lines_arrive_long_before_the_stream_ends() {
    // A time limit of its own, far beyond what the stream takes on the slowest machine: the
    // test is about order and content, and the default 10 s could cut a debug build short.
    let server = TestServer::with(sudoku_service::http::ServeArgs {
        request_timeout_ms: 3_600_000,
        ..Default::default()
    })
    .await;
    // A first chunk of easy puzzles, then a thousand hard ones.
    let mut boards = vec![SEED; 512];
    boards.extend(std::iter::repeat_n(HARD, 1000));
    let mut response = ask_for_ndjson(&server, &boards).await;
    let mut received = Vec::new();
    let mut jobs_done_at_first_lines = None;
    while let Some(chunk) = response.chunk().await.unwrap() {
        received.extend_from_slice(&chunk);
        if jobs_done_at_first_lines.is_none() && received.contains(&b'\n') {
            jobs_done_at_first_lines = Some(server.metric("solve_duration_seconds_count").await);
        }
    }
    let jobs_done_at_first_lines = jobs_done_at_first_lines.expect("some lines");
    // A buffered answer would send its first line once every job was done. Counted in jobs
    // (batch chunks) finished on the solver threads, not in seconds, so a slow machine
    // cannot change the answer.
    let jobs_done_at_end = server.metric("solve_duration_seconds_count").await;
    assert!(
        jobs_done_at_first_lines < jobs_done_at_end,
        "{jobs_done_at_first_lines} of {jobs_done_at_end} jobs done when the first lines came"
    );
    let lines: Vec<Value> = received
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(lines.len(), boards.len());
    for (i, line) in lines.iter().enumerate() {
        let board = boards[i];
        let solution = line["solution"]
            .as_str()
            .unwrap_or_else(|| panic!("line {i}: {line}"));
        assert_solves(board, solution);
        assert_eq!(line["unique"], true, "line {i}");
    }
    assert_eq!(lines[0]["solution"], SEED_SOLUTION);
    server.shutdown().await;
}

/// What a batch cut by its time limit answers: one item per puzzle, in order, each solved or
/// a timeout problem, with some of each. Chunks run side by side on the solver threads, so a
/// later chunk's items may be solved while an earlier chunk's last item was cut: which items
/// are solved is not a prefix.
fn cut_at_the_limit(items: &[Value], asked: usize) {
    assert_eq!(items.len(), asked, "one answer per puzzle");
    let solved = items.iter().filter(|i| i["solution"].is_string()).count();
    assert!(solved > 0, "some items are solved");
    assert!(solved < asked, "far more than the time limit allows");
    for item in items.iter().filter(|i| !i["solution"].is_string()) {
        assert_eq!(
            item["error"]["type"], "urn:sudoku-service:problem:timeout",
            "{item}"
        );
    }
}

#[tokio::test]
async fn a_batch_at_the_time_limit_keeps_what_it_solved() {
    // Far more hard puzzles than 400 ms can solve (in a debug build, even more so).
    let server = TestServer::with(sudoku_service::http::ServeArgs {
        request_timeout_ms: 400,
        ..Default::default()
    })
    .await;
    let boards: Vec<&str> = std::iter::repeat_n(HARD, 8000).collect();
    let lines = stream_ndjson(&server, &boards).await;
    cut_at_the_limit(&lines, boards.len());
    let response = client()
        .post(server.url("/solve/batch"))
        .json(&boards)
        .send()
        .await
        .unwrap();
    let items: Vec<Value> = ok_json(response).await.as_array().unwrap().clone();
    cut_at_the_limit(&items, boards.len());
    server.shutdown().await;
}

#[tokio::test]
async fn batch_errors_are_problems() {
    let server = TestServer::start().await;
    let c = client();
    let too_many = vec!["."; 10_001];
    let response = c
        .post(server.url("/solve/batch"))
        .json(&too_many)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert!(body["detail"].as_str().unwrap().contains("at most 10000"));

    let response = c
        .post(server.url("/solve/batch"))
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body("a=b")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 415);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "application/problem+json"
    );

    let response = c
        .post(server.url("/solve/batch"))
        .header(header::CONTENT_TYPE, "application/json")
        .body("[\"abc\"")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);

    let response = c
        .post(server.url("/solve/batch"))
        .json(&json!({"boards": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 422);
    server.shutdown().await;
}
