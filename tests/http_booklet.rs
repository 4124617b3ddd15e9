//! Black-box tests of `POST /v1/booklet` over TCP: a list of puzzles of any size and rule set
//! (f-puzzles too) and a generation each become one PDF with the pages the layout says
//! (puzzles N to a page, answers six to a page), the fonts embedded and the labels in its
//! text; every bad input is a problem pointing at its field (inside the puzzle at fault);
//! the page limit is a setting shown in the capabilities, and the drawing is charged to the
//! work budget.

mod common;

use common::pdf::{inspect, Inspected};
use common::{expect_problem, post, TestServer, HARD, SEED};
use reqwest::{header, Response};
use serde_json::{json, Value};
use sudoku_service::http::ServeArgs;

/// The PDF of a 200.
async fn pdf(response: Response) -> Vec<u8> {
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.bytes().await.unwrap().to_vec();
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(headers[header::CONTENT_TYPE], "application/pdf");
    assert!(headers[header::CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .contains("booklet.pdf"));
    body
}

async fn booklet(server: &TestServer, body: Value) -> Response {
    post(server, "/v1/booklet", body).await
}

#[tokio::test]
async fn a_list_of_puzzles_is_laid_out_with_its_answers() {
    let server = TestServer::start().await;
    let killer = json!({
        "board": ".".repeat(81),
        "cages": [{"sum": 3, "cells": [{"row": 0, "col": 0}, {"row": 0, "col": 1}]}],
        "title": "A Killer",
    });
    let mut four = vec![vec![json!({}); 4]; 4];
    four[0][0] = json!({"value": 1, "given": true});
    let puzzles = json!([
        {"board": SEED},
        {"board": HARD},
        killer,
        {"board": ".".repeat(16)},
        {"fpuzzles": {"size": 4, "grid": four}},
    ]);
    // Five puzzles at 2 a page: 3 pages, then one page of answers.
    let body = json!({"puzzles": puzzles, "per_page": 2, "title": "Mixed bag"});
    let bytes = pdf(booklet(&server, body).await).await;
    assert_eq!(inspect(&bytes), Inspected { pages: 4, fonts: 2 });
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("/Title (Mixed bag)"));
    assert!(
        text.contains("/MediaBox [0 0 595.28 841.89]"),
        "A4 by default"
    );
    // Without answers, on Letter, 6 a page: one page.
    let body = json!({"puzzles": puzzles, "per_page": 6, "answers": false, "paper": "letter"});
    let bytes = pdf(booklet(&server, body).await).await;
    assert_eq!(inspect(&bytes).pages, 1);
    assert!(String::from_utf8_lossy(&bytes).contains("/MediaBox [0 0 612 792]"));
}

#[tokio::test]
async fn a_generation_is_the_batch_s_puzzles_and_the_same_pdf_for_the_same_seed() {
    let server = TestServer::start().await;
    let body = json!({"generate": {"count": 3, "difficulty": "easy", "seed": 7}, "per_page": 1});
    let first = pdf(booklet(&server, body.clone()).await).await;
    // Three pages of one puzzle, one of answers.
    assert_eq!(inspect(&first), Inspected { pages: 4, fonts: 2 });
    assert_eq!(first, pdf(booklet(&server, body).await).await);
    // It holds the puzzles the batch of the same options answers: listed, with their levels
    // found again by the grader, they make the same booklet byte for byte.
    let lines = post(
        &server,
        "/v1/generate/batch",
        json!({"count": 3, "difficulty": "easy", "seed": 7}),
    )
    .await
    .text()
    .await
    .unwrap();
    let boards: Vec<Value> = lines
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|l| l["board"].is_array())
        .map(|l| json!({"board": l["board"]}))
        .collect();
    assert_eq!(boards.len(), 3, "{lines}");
    let listed = json!({"puzzles": boards, "per_page": 1});
    assert_eq!(first, pdf(booklet(&server, listed).await).await);
    let other = json!({"generate": {"count": 3, "difficulty": "easy", "seed": 8}, "per_page": 1});
    assert_ne!(first, pdf(booklet(&server, other).await).await);
}

#[tokio::test]
async fn bad_bodies_are_problems_at_their_fields() {
    let server = TestServer::start().await;
    let cases = [
        (json!({}), "/puzzles"),
        (json!({"puzzles": []}), "/puzzles"),
        (
            json!({"puzzles": [{"board": SEED}], "generate": {"count": 1}}),
            "/generate",
        ),
        (
            json!({"puzzles": [{"board": SEED}], "per_page": 3}),
            "/per_page",
        ),
        (
            json!({"puzzles": [{"board": SEED}], "paper": "a3"}),
            "/paper",
        ),
        (
            json!({"puzzles": [{"board": SEED}], "title": "x".repeat(101)}),
            "/title",
        ),
        (
            json!({"puzzles": [{"board": SEED}], "colour": 1}),
            "/colour",
        ),
        (
            json!({"puzzles": [{"board": SEED, "format": "png"}]}),
            "/puzzles/0/format",
        ),
        (
            json!({"puzzles": [{"board": SEED}, {"board": SEED, "title": "y".repeat(101)}]}),
            "/puzzles/1/title",
        ),
        (json!({"generate": {"count": 0}}), "/generate/count"),
        (
            json!({"generate": {"count": 2, "difficulty": "impossible"}}),
            "/generate/difficulty",
        ),
    ];
    for (body, pointer) in cases {
        let problem =
            expect_problem(booklet(&server, body.clone()).await, 422, "invalid-request").await;
        assert_eq!(problem["pointer"], pointer, "{body}: {problem}");
    }
    // A range no generator reaches is `unsupported` here as on `/generate`.
    let body = json!({"generate": {"count": 2, "rating": {"min": 10.1}, "seed": 1}});
    let problem = expect_problem(booklet(&server, body).await, 422, "unsupported").await;
    assert_eq!(problem["pointer"], "/generate/rating", "{problem}");
    // A puzzle's own problem keeps its type, pointing into the puzzle at fault.
    let clash = "11".to_string() + &".".repeat(79);
    let body = json!({"puzzles": [{"board": SEED}, {"board": clash}]});
    let problem = expect_problem(booklet(&server, body).await, 422, "conflicting-givens").await;
    assert_eq!(problem["pointer"], "/puzzles/1/board", "{problem}");
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .starts_with("puzzles[1]: "));
    let unsolvable = "12345678.........9".to_string() + &".".repeat(63);
    let body = json!({"puzzles": [{"board": unsolvable}]});
    let problem = expect_problem(booklet(&server, body).await, 422, "no-solution").await;
    assert_eq!(problem["pointer"], "/puzzles/0");
    let body = json!({"puzzles": [{"board": "12"}]});
    expect_problem(booklet(&server, body).await, 422, "invalid-board").await;
}

#[tokio::test]
async fn the_page_limit_is_a_setting_and_the_drawing_is_charged() {
    let server = TestServer::with(ServeArgs {
        booklet_max_pages: 3,
        ..ServeArgs::default()
    })
    .await;
    let capabilities = server.get_json("/v1/capabilities").await;
    assert_eq!(capabilities["limits"]["booklet_max_pages"], 3);
    // 3 pages hold 6 puzzles at 4 a page with their answers (2 + 1); 7 would take 2 + 2.
    let six: Vec<Value> = (0..6).map(|_| json!({"board": SEED})).collect();
    let bytes = pdf(booklet(&server, json!({"puzzles": six})).await).await;
    assert_eq!(inspect(&bytes).pages, 3);
    let seven: Vec<Value> = (0..7).map(|_| json!({"board": SEED})).collect();
    let problem = expect_problem(
        booklet(&server, json!({"puzzles": seven})).await,
        422,
        "invalid-request",
    )
    .await;
    assert!(problem["detail"].as_str().unwrap().contains("1 to 6"));
    let problem = expect_problem(
        booklet(
            &server,
            json!({"generate": {"count": 7, "difficulty": "easy"}}),
        )
        .await,
        422,
        "invalid-request",
    )
    .await;
    assert_eq!(problem["pointer"], "/generate/count");
    // A page is beyond a small work budget that solves and grades its puzzle: the problem
    // says the drawing spent it.
    let tight = TestServer::with(ServeArgs {
        work_budget: 1_000,
        ..ServeArgs::default()
    })
    .await;
    let body = json!({"puzzles": [{"board": SEED}], "per_page": 1, "answers": false});
    let problem = expect_problem(booklet(&tight, body).await, 422, "budget-exhausted").await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("while drawing"), "{detail}");
}

#[tokio::test]
async fn a_failing_puzzle_stops_the_puzzles_after_it() {
    // Every search runs out of a budget of nothing: the booklet fails at its first puzzle,
    // and the puzzles queued behind it are not searched (each would spend a whole budget, so
    // forty of them took longer than a request may). The 40 puzzles are queued in three
    // chunks of at most 16, which may start side by side: one search each at most.
    let stingy = TestServer::with(ServeArgs {
        work_budget: 0,
        ..ServeArgs::default()
    })
    .await;
    let forty: Vec<Value> = (0..40).map(|_| json!({"board": HARD})).collect();
    let body = json!({"puzzles": forty, "per_page": 6, "answers": false});
    let problem = expect_problem(booklet(&stingy, body).await, 422, "budget-exhausted").await;
    assert_eq!(problem["pointer"], "/puzzles/0");
    let searched = stingy.metric("solves_budget_exhausted_total").await;
    assert!((1.0..=3.0).contains(&searched), "{searched} searches");
    stingy.shutdown().await;
}
