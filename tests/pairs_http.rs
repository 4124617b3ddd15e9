//! The domain and relation families over TCP: `/solve`, `/validate` and `/candidates` for
//! each native field, malformed instances as specific problems with pointers, a hostile body
//! bounded by the budget, and the CP-SAT-verified f-puzzles examples (translated here to the
//! native fields) solved to their one solution with their breaker refused.

mod common;

use common::data::shared_data;
use common::{digit_at, expect_problem, ok_json, post, solution_rows, TestServer};
use serde_json::{json, Map, Value};

/// Solves an empty 6x6 board under `rules`, checks `holds` on every pair of orthogonal
/// neighbours of the answer, and that a board breaking the rule is refused by name.
#[tokio::test]
async fn each_family_solves_validates_and_marks() {
    let server = TestServer::start().await;
    let empty = vec![".".repeat(6); 6];
    let with = |rules: Value| {
        let mut body = rules.as_object().cloned().unwrap();
        body.insert("board".into(), json!(empty));
        Value::Object(body)
    };

    // Non-consecutive: no orthogonal neighbours differ by 1.
    let body = ok_json(post(&server, "/solve", with(json!({"non_consecutive": true}))).await).await;
    let rows = solution_rows(&body);
    for r in 0..6 {
        for c in 0..5 {
            assert_ne!(digit_at(&rows, r, c).abs_diff(digit_at(&rows, r, c + 1)), 1);
            assert_ne!(digit_at(&rows, c, r).abs_diff(digit_at(&rows, c + 1, r)), 1);
        }
    }
    // Anti-knight.
    let body = ok_json(post(&server, "/solve", with(json!({"anti_knight": true}))).await).await;
    let rows = solution_rows(&body);
    for r in 0..5 {
        for c in 0..6usize {
            for (dr, dc) in [(1, 2), (2, 1)] {
                for col in [c + dc, c.wrapping_sub(dc)] {
                    if r + dr < 6 && col < 6 {
                        assert_ne!(digit_at(&rows, r, c), digit_at(&rows, r + dr, col));
                    }
                }
            }
        }
    }
    // Odd, even, a thermometer and dots together.
    let rules = json!({
        "odd": [[0, 0], {"row": 5, "col": 5}],
        "even": [[0, 1]],
        "thermometers": [{"cells": [[2, 0], [3, 1], [4, 2], [5, 3]]}],
        "dots": [
            {"cells": [[1, 0], [1, 1]], "kind": "black"},
            {"cells": [[1, 2], [1, 3]], "kind": "white", "value": 3},
            {"cells": [[2, 4], [3, 4]], "kind": "v"},
            {"cells": [[2, 5], [3, 5]], "kind": "x"}
        ]
    });
    let body = ok_json(post(&server, "/solve", with(rules.clone())).await).await;
    let rows = solution_rows(&body);
    let d = |r, c| digit_at(&rows, r, c);
    assert!(d(0, 0) % 2 == 1 && d(5, 5) % 2 == 1 && d(0, 1) % 2 == 0);
    assert!(d(2, 0) < d(3, 1) && d(3, 1) < d(4, 2) && d(4, 2) < d(5, 3));
    assert!(d(1, 0) == 2 * d(1, 1) || d(1, 1) == 2 * d(1, 0));
    assert_eq!(d(1, 2).abs_diff(d(1, 3)), 3);
    assert_eq!(d(2, 4) + d(3, 4), 5);
    assert_eq!(d(2, 5) + d(3, 5), 10);
    let classic = ok_json(post(&server, "/solve", json!({ "board": empty })).await).await;
    assert_ne!(classic["id"], body["id"]);

    // The marks of the empty board keep what the rules allow.
    let marks = ok_json(post(&server, "/candidates", with(rules.clone())).await).await;
    let cell = |r: usize, c: usize| marks["candidates"][r][c].clone();
    assert_eq!(cell(0, 0), json!([1, 3, 5]));
    assert_eq!(cell(0, 1), json!([2, 4, 6]));
    // The bulb of a 4-cell thermometer on 6x6: 1-3; its tip 4-6.
    assert_eq!(cell(2, 0), json!([1, 2, 3]));
    assert_eq!(cell(5, 3), json!([4, 5, 6]));
    assert_eq!(cell(2, 5), json!([4, 6]));

    // A player's board breaking a dot: named by the dot and its cells.
    let mut board = empty.clone();
    board[2].replace_range(4..5, "3");
    board[3].replace_range(4..5, "4");
    let mut body = rules.as_object().cloned().unwrap();
    body.insert("board".into(), json!(board));
    let checked = ok_json(post(&server, "/validate", Value::Object(body)).await).await;
    assert_eq!(checked["valid"], false);
    assert_eq!(
        checked["conflicts"],
        json!([{"unit": "dot", "index": 2, "digit": 3,
                "cells": [{"row": 2, "col": 4}, {"row": 3, "col": 4}]}])
    );
    // An even digit in an odd cell.
    let board = json!(["2.....", "......", "......", "......", "......", "......"]);
    let checked = ok_json(
        post(
            &server,
            "/validate",
            json!({"board": board, "odd": [[0, 0]]}),
        )
        .await,
    )
    .await;
    assert_eq!(checked["conflicts"][0]["unit"], "odd");
    // Consecutive neighbours under non-consecutive.
    let board = json!(["12....", "......", "......", "......", "......", "......"]);
    let checked = ok_json(
        post(
            &server,
            "/validate",
            json!({"board": board, "non_consecutive": true}),
        )
        .await,
    )
    .await;
    assert_eq!(checked["conflicts"][0]["unit"], "non_consecutive");
    // The logic engine reasons over houses only: no grade, said so.
    let nine = ".".repeat(81);
    expect_problem(
        post(&server, "/grade", json!({"board": nine, "odd": [[0, 0]]})).await,
        422,
        "unsupported",
    )
    .await;
    server.shutdown().await;
}

#[tokio::test]
async fn malformed_instances_are_problems_with_pointers() {
    let server = TestServer::start().await;
    let board = ".".repeat(81);
    let cases = [
        (json!({"odd": [[0, 9]]}), "invalid-parity", "/odd/0"),
        (
            json!({"odd": [[1, 1]], "even": [[1, 1]]}),
            "invalid-parity",
            "/even/0",
        ),
        (
            json!({"thermometers": [{"cells": [[0, 0], [0, 2]]}]}),
            "invalid-thermometers",
            "/thermometers/0/cells/1",
        ),
        (
            json!({"thermometers": [{"cells": [[0, 0], [0, 1], [0, 0]]}]}),
            "invalid-thermometers",
            "/thermometers/0/cells/2",
        ),
        (
            json!({"dots": [{"cells": [[0, 0], [1, 1]], "kind": "white"}]}),
            "invalid-dots",
            "/dots/0/cells",
        ),
        (
            json!({"dots": [{"cells": [[0, 0], [0, 1]], "kind": "black", "value": 10}]}),
            "invalid-dots",
            "/dots/0/value",
        ),
        // A ratio so large that a digit times it overflows 32 bits: never a digit of the grid.
        (
            json!({"dots": [{"cells": [[0, 0], [0, 1]], "kind": "black", "value": 2_147_483_650_u32}]}),
            "invalid-dots",
            "/dots/0/value",
        ),
        (
            json!({"dots": [{"cells": [[0, 0], [0, 1]], "kind": "white", "value": 4_294_967_295_u32}]}),
            "invalid-dots",
            "/dots/0/value",
        ),
        (
            json!({"dots": [{"cells": [[0, 0], [0, 1]], "kind": "x", "value": 10}]}),
            "invalid-dots",
            "/dots/0/value",
        ),
    ];
    for (rules, kind, pointer) in cases {
        let mut body = rules.as_object().cloned().unwrap();
        body.insert("board".into(), json!(board));
        let problem = expect_problem(
            post(&server, "/solve", Value::Object(body)).await,
            422,
            kind,
        )
        .await;
        assert_eq!(problem["pointer"], pointer, "{rules}: {problem}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn an_empty_board_with_every_dot_finishes_within_the_budget() {
    let server = TestServer::start().await;
    // A dot between every pair of neighbours (white along rows, white of 2 down columns) and
    // the negative black constraint: 144 relations, as many as the 8 KiB body holds, for
    // the search to propagate from an empty board.
    let mut dots = Vec::new();
    for r in 0..9 {
        for c in 0..8 {
            dots.push(json!({"cells": [[r, c], [r, c + 1]], "kind": "white"}));
            dots.push(json!({"cells": [[c, r], [c + 1, r]], "kind": "white", "value": 2}));
        }
    }
    let started = std::time::Instant::now();
    let response = post(
        &server,
        "/solve",
        json!({"board": ".".repeat(81), "dots": dots, "negative": ["black"]}),
    )
    .await;
    let status = response.status().as_u16();
    assert!(
        status == 200 || status == 422,
        "an answer or a budget problem, not {status}"
    );
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    server.shutdown().await;
}

/// `"R3C4"` as a native 0-based cell.
fn cell_of(name: &str) -> Value {
    let (r, c) = name[1..].split_once('C').unwrap();
    let (r, c): (usize, usize) = (r.parse().unwrap(), c.parse().unwrap());
    json!([r - 1, c - 1])
}

/// The native rule fields and board of an f-puzzles object of the families implemented.
fn native(fpuzzles: &Value) -> Value {
    let mut body = Map::new();
    let grid = fpuzzles["grid"].as_array().unwrap();
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            row.as_array()
                .unwrap()
                .iter()
                .map(|cell| match cell["value"].as_u64() {
                    Some(v) if cell["given"] == true => char::from(b'0' + v as u8),
                    _ => '.',
                })
                .collect()
        })
        .collect();
    body.insert("board".into(), json!(rows));
    for (flag, field) in [
        ("antiknight", "anti_knight"),
        ("antiking", "anti_king"),
        ("nonconsecutive", "non_consecutive"),
    ] {
        if fpuzzles[flag] == true {
            body.insert(field.into(), json!(true));
        }
    }
    for parity in ["odd", "even"] {
        if let Some(cells) = fpuzzles[parity].as_array() {
            let cells: Vec<Value> = cells
                .iter()
                .map(|c| cell_of(c["cell"].as_str().unwrap()))
                .collect();
            body.insert(parity.into(), json!(cells));
        }
    }
    let lines = |v: &Value| -> Vec<Value> {
        v.as_array()
            .into_iter()
            .flatten()
            .flat_map(|t| t["lines"].as_array().unwrap().clone())
            .map(|line| {
                let cells: Vec<Value> = line
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| cell_of(c.as_str().unwrap()))
                    .collect();
                json!({ "cells": cells })
            })
            .collect()
    };
    let thermos = lines(&fpuzzles["thermometer"]);
    if !thermos.is_empty() {
        body.insert("thermometers".into(), json!(thermos));
    }
    let mut dots = Vec::new();
    for (key, kind) in [("difference", "white"), ("ratio", "black"), ("xv", "")] {
        for dot in fpuzzles[key].as_array().into_iter().flatten() {
            let cells: Vec<Value> = dot["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| cell_of(c.as_str().unwrap()))
                .collect();
            let mut native = json!({ "cells": cells });
            match (kind, dot["value"].as_str()) {
                ("", Some("X")) => native["kind"] = json!("x"),
                ("", _) => native["kind"] = json!("v"),
                (kind, value) => {
                    native["kind"] = json!(kind);
                    if let Some(value) = value.and_then(|v| v.parse::<u32>().ok()) {
                        native["value"] = json!(value);
                    }
                }
            }
            dots.push(native);
        }
    }
    if !dots.is_empty() {
        body.insert("dots".into(), json!(dots));
    }
    if let Some(negative) = fpuzzles["negative"].as_array() {
        let kinds: Vec<&str> = negative
            .iter()
            .map(|n| match n.as_str().unwrap() {
                "ratio" => "black",
                "difference" => "white",
                other => other,
            })
            .collect();
        body.insert("negative".into(), json!(kinds));
    }
    Value::Object(body)
}

#[tokio::test]
async fn the_verified_fpuzzles_examples_solve_to_their_solution() {
    let Some(path) = shared_data("fpuzzles/examples.jsonl", "the f-puzzles examples") else {
        return;
    };
    let implemented = [
        "antiknight",
        "thermometer",
        "thermo+antiknight",
        "kropki",
        "xv",
        "xv-negative",
        "oddeven",
        "miracle",
    ];
    let server = TestServer::start().await;
    let mut checked = 0;
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let example: Value = serde_json::from_str(line).unwrap();
        if !implemented.contains(&example["family"].as_str().unwrap()) {
            continue;
        }
        let name = example["name"].clone();
        let body = native(&example["fpuzzles"]);
        let solved = ok_json(post(&server, "/solve", body.clone()).await).await;
        let unique = example["solutions"] == 1;
        assert_eq!(solved["unique"], unique, "{name}: {solved}");
        if unique {
            let expected = example["solution"].as_str().unwrap();
            assert_eq!(solution_rows(&solved).concat(), expected, "{name}");
            let mut refused = body.clone();
            let breaker = example["breaker"].as_str().unwrap();
            let rows: Vec<String> = (0..9).map(|r| breaker[r * 9..r * 9 + 9].into()).collect();
            refused["board"] = json!(rows);
            let verdict = ok_json(post(&server, "/validate", refused).await).await;
            assert_ne!(
                verdict["solved"], true,
                "{name}: the breaker passed: {verdict}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 8, "only {checked} examples of the families");
    server.shutdown().await;
}
