//! Black-box tests of `/v1/canonical` and `/v1/canonical/batch` over TCP.

mod common;

use common::{client, expect_problem, ok_json, post, rows, TestServer, HARD, SEED};
use serde_json::{json, Value};

/// `line` transposed, its bands swapped (the first and the last) and every digit d written
/// 10 - d: the same puzzle in disguise.
fn disguised(line: &str) -> String {
    let cells: Vec<char> = line.chars().collect();
    let band = |r: usize| [6, 7, 8, 3, 4, 5, 0, 1, 2][r];
    (0..81)
        .map(|at| {
            let (r, c) = (at / 9, at % 9);
            match cells[c * 9 + band(r)] {
                d @ '1'..='9' => char::from(b'0' + 10 - (d as u8 - b'0')),
                _ => '.',
            }
        })
        .collect()
}

#[tokio::test]
async fn a_puzzle_and_its_disguise_share_one_canonical_form_and_id() {
    let server = TestServer::start().await;
    let plain = ok_json(post(&server, "/v1/canonical", json!({"board": SEED})).await).await;
    let other = disguised(SEED);
    assert_ne!(other, SEED);
    let disguise = ok_json(post(&server, "/v1/canonical", json!({"board": other})).await).await;
    assert_eq!(plain["canonical"], disguise["canonical"]);
    assert_eq!(plain["canonical_id"], disguise["canonical_id"]);
    assert_ne!(plain["id"], disguise["id"]);
    // The form is a puzzle of its own, and its own form; rows in, rows out.
    let form = plain["canonical"].as_str().unwrap().to_string();
    let again = ok_json(post(&server, "/v1/canonical", json!({"board": rows(&form)})).await).await;
    assert_eq!(again["canonical"], json!(rows(&form)));
    assert_eq!(again["id"], plain["canonical_id"]);
    assert_eq!(again["canonical_id"], plain["canonical_id"]);
    // Another puzzle, another form.
    let hard = ok_json(post(&server, "/v1/canonical", json!({"board": HARD})).await).await;
    assert_ne!(hard["canonical_id"], plain["canonical_id"]);
    server.shutdown().await;
}

/// `line` turned a quarter (row r, column c shows the original's row 8 - c, column r) and
/// every digit d written 10 - d.
fn turned(line: &str) -> String {
    let cells: Vec<char> = line.chars().collect();
    (0..81)
        .map(|at| match cells[(8 - at % 9) * 9 + at / 9] {
            d @ '1'..='9' => char::from(b'0' + 10 - (d as u8 - b'0')),
            _ => '.',
        })
        .collect()
}

#[tokio::test]
async fn rules_that_name_no_digit_have_forms_under_their_own_symmetries() {
    let server = TestServer::start().await;
    // Scattered givens, no digit twice: valid under anti-king and the classic rules.
    let board = format!(
        "{:.<81}",
        "1.......2....3.....4....5.....6.......7......8.....9......."
    );
    let at = &server;
    let form =
        move |body: Value| async move { ok_json(post(at, "/v1/canonical", body).await).await };
    let anti_king = form(json!({"board": board, "anti_king": true})).await;
    let turn = form(json!({"board": turned(&board), "anti_king": true})).await;
    assert_eq!(anti_king["canonical_id"], turn["canonical_id"]);
    assert_ne!(anti_king["id"], turn["id"]);
    // The form keeps the rules: posted back, it is its own form.
    let again = form(json!({"board": anti_king["canonical"], "anti_king": true})).await;
    assert_eq!(again["canonical"], anti_king["canonical"]);
    // Swapping two rows of a band keeps the classic puzzle but not the anti-king one.
    let swapped: String = (0..9)
        .flat_map(|r| board[[1, 0, 2, 3, 4, 5, 6, 7, 8][r] * 9..][..9].chars())
        .collect();
    let classic = form(json!({"board": board})).await;
    assert_eq!(
        form(json!({"board": swapped})).await["canonical_id"],
        classic["canonical_id"]
    );
    let moved = form(json!({"board": swapped, "anti_king": true})).await;
    assert_ne!(moved["canonical_id"], anti_king["canonical_id"]);
    server.shutdown().await;
}

#[tokio::test]
async fn variants_and_broken_boards_are_refused_by_name() {
    let server = TestServer::start().await;
    let killer = expect_problem(
        post(
            &server,
            "/v1/canonical",
            json!({"board": ".".repeat(81), "cages": [{"sum": 3, "cells": [[0, 0], [0, 1]]}]}),
        )
        .await,
        422,
        "unsupported",
    )
    .await;
    let detail = killer["detail"].as_str().unwrap();
    assert!(detail.contains("rules name no digit"), "{killer}");
    assert!(detail.contains("its rules name digits"), "{killer}");
    assert!(detail.contains("Killer"), "{killer}");
    let thermometer =
        json!({"board": ".".repeat(81), "thermometers": [{"cells": [[0, 0], [0, 1]]}]});
    let refused = post(&server, "/v1/canonical", thermometer).await;
    expect_problem(refused, 422, "unsupported").await;
    let mut clash = SEED.to_string();
    let first = clash.find(|c: char| c.is_ascii_digit()).unwrap();
    let digit = clash[first..first + 1].to_string();
    let free = clash.find('.').unwrap();
    clash.replace_range(free..free + 1, &digit);
    let response = post(&server, "/v1/canonical", json!({"board": clash})).await;
    assert_eq!(response.status(), 422);
    server.shutdown().await;
}

#[tokio::test]
async fn batches_answer_each_board_in_order_in_json_and_text() {
    let server = TestServer::start().await;
    let boards = json!([SEED, disguised(SEED), "not a board", HARD]);
    let items: Value = ok_json(post(&server, "/v1/canonical/batch", boards).await).await;
    let items = items.as_array().unwrap();
    assert_eq!(items.len(), 4);
    assert_eq!(items[0]["canonical_id"], items[1]["canonical_id"]);
    assert!(items[2]["error"]["detail"].is_string() && items[2].get("id").is_none());
    assert_ne!(items[3]["canonical_id"], items[0]["canonical_id"]);

    let text = format!("# a bank\n{SEED}\n{}\n{HARD}\n", disguised(SEED));
    let response = client()
        .post(server.url("/v1/canonical/batch"))
        .header("content-type", "text/plain")
        .body(text)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let lines: Vec<String> = response
        .text()
        .await
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], lines[1]);
    assert_eq!(json!(lines[0]), items[0]["canonical"]);
    server.shutdown().await;
}
