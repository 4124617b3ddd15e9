//! Black-box tests of Killer Sudoku and the other sizes on /solve and /validate, over TCP.

mod common;

use common::{client, TestServer};
use serde_json::{json, Value};
use sudoku_service::engine::random_killer;

async fn post(server: &TestServer, path: &str, body: Value) -> (u16, Value) {
    let response = client()
        .post(server.url(path))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn other_sizes_solve_in_both_forms() {
    let server = TestServer::start().await;
    let (status, body) = post(
        &server,
        "/solve",
        json!({"board": ["1...", "..3.", ".4..", "...2"]}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["solution"], json!(["1324", "4231", "2413", "3142"]));
    assert_eq!(body["unique"], true);
    let (_, body) = post(&server, "/solve", json!({"board": "1.....3..4.....2"})).await;
    assert_eq!(body["solution"], "1324423124133142");

    // 6x6 (boxes 2 rows x 3 columns) and an empty 16x16: solved grids obey the rules.
    for rows in [6usize, 16] {
        let board: Vec<String> = vec![".".repeat(rows); rows];
        let (status, body) = post(&server, "/solve", json!({ "board": board })).await;
        assert_eq!(status, 200, "{rows}x{rows}");
        assert_eq!(body["unique"], false);
        let solution: Vec<String> = serde_json::from_value(body["solution"].clone()).unwrap();
        let (status, verdict) = post(&server, "/validate", json!({ "board": solution })).await;
        assert_eq!(status, 200);
        assert_eq!(verdict["solved"], true, "{rows}x{rows}: {verdict}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn killer_without_givens_solves_to_the_cage_sums() {
    let server = TestServer::start().await;
    let killer = random_killer(1);
    let cages: Vec<Value> = killer
        .cages
        .cages()
        .iter()
        .map(|c| {
            let cells: Vec<[usize; 2]> = c.cells().iter().map(|p| [p.row, p.col]).collect();
            json!({"sum": c.sum(), "cells": cells})
        })
        .collect();
    let board = vec![".".repeat(9); 9];
    let (status, body) = post(&server, "/solve", json!({"board": board, "cages": cages})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["unique"], true);
    assert_eq!(body["solution"], json!(killer.solution.to_rows()));

    // The solution validates against the cages; a swapped pair breaks a cage sum.
    let solution: Vec<String> = serde_json::from_value(body["solution"].clone()).unwrap();
    let (_, verdict) = post(
        &server,
        "/validate",
        json!({"board": solution, "cages": cages}),
    )
    .await;
    assert_eq!(
        (verdict["solved"].clone(), verdict["solutions"].clone()),
        (json!(true), json!(1))
    );
    server.shutdown().await;
}

#[tokio::test]
async fn cage_and_size_errors_are_specific_problems() {
    let server = TestServer::start().await;
    let empty = vec![".".repeat(9); 9];
    let cases = [
        (
            json!([{"sum": 2, "cells": [[0, 0], [0, 1]]}]),
            "invalid-cages",
            "cannot sum to 2",
        ),
        (
            json!([{"sum": 3, "cells": [[0, 0], [9, 0]]}]),
            "invalid-cages",
            "row 10",
        ),
        (
            json!([{"sum": 3, "cells": [[0, 0], [2, 2]]}]),
            "invalid-cages",
            "not orthogonally connected",
        ),
        (
            json!([{"sum": 3, "cells": [[0, 0], [0, 1]]}, {"sum": 4, "cells": [[0, 1], [0, 2]]}]),
            "invalid-cages",
            "cage 1",
        ),
    ];
    for (cages, kind, phrase) in cases {
        let (status, body) = post(&server, "/solve", json!({"board": empty, "cages": cages})).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["type"], format!("urn:sudoku-service:problem:{kind}"));
        assert!(body["detail"].as_str().unwrap().contains(phrase), "{body}");
    }
    let (status, body) = post(
        &server,
        "/solve",
        json!({"board": ["1...", "..3.", ".4..", "...5"]}),
    )
    .await;
    assert_eq!(status, 422);
    assert!(body["detail"]
        .as_str()
        .unwrap()
        .contains("too large for a 4x4 grid"));
    let (status, body) = post(
        &server,
        "/solve",
        json!({"board": ["11..", "..3.", ".4..", "...2"]}),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["type"],
        "urn:sudoku-service:problem:conflicting-givens"
    );
    let (status, _) = post(&server, "/grade", json!({"board": empty, "cages": []})).await;
    assert_eq!(status, 422);
    server.shutdown().await;
}
