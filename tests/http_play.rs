//! Black-box tests of what a puzzle site plays with: moves and mistakes in one call, the
//! formats front ends use, second solutions, cacheable generation, and errors that name
//! their field and the fix.

mod common;

use common::{client, count, expect_problem, ok_json, post, rows, TestServer, SEED, SEED_SOLUTION};
use reqwest::header;
use serde_json::{json, Value};

/// The one-line board as rows of numbers, 0 for empty.
fn numbers(line: &str) -> Value {
    let rows: Vec<Vec<u32>> = line
        .as_bytes()
        .chunks(9)
        .map(|row| {
            row.iter()
                .map(|&b| (b as char).to_digit(10).unwrap_or(0))
                .collect()
        })
        .collect();
    json!(rows)
}

#[tokio::test]
async fn a_move_gets_its_verdict_in_one_call() {
    let server = TestServer::start().await;
    let validate = |body: Value| {
        let server = &server;
        async move { ok_json(post(server, "/validate", body).await).await }
    };
    // Row 1, column 2 is 5 in the solution; 3 repeats nothing there, so only the givens can
    // say it is wrong.
    let body =
        validate(json!({"givens": SEED, "board": SEED, "move": {"row": 0, "col": 1, "digit": 3}}))
            .await;
    assert_eq!(body["valid"], true, "{body}");
    assert_eq!(body["solutions"], 0);
    assert_eq!(
        body["mistakes"],
        json!([{"row": 0, "col": 1, "entered": 3}])
    );
    let moved = body["board"].as_str().unwrap().to_string();
    assert_eq!(&moved[..3], "937");
    assert_eq!(
        body["id"],
        ok_json(post(&server, "/solve", json!({"board": SEED})).await).await["id"]
    );

    // Changing it to a 9 clashes with givens: each clashing cell once, with its units and
    // who placed it.
    let body =
        validate(json!({"givens": SEED, "board": moved, "move": {"row": 0, "col": 1, "digit": 9}}))
            .await;
    assert_eq!(body["valid"], false);
    let cells = body["conflict_cells"].as_array().unwrap();
    assert_eq!(cells.len(), 3, "{body}");
    assert_eq!(
        cells[1],
        json!({"row": 0, "col": 1, "digit": 9, "by": "entry",
               "units": [{"unit": "row", "index": 0}, {"unit": "column", "index": 1}, {"unit": "box", "index": 0}]})
    );
    assert!(cells.iter().filter(|c| c["by"] == "given").count() == 2);

    // Clearing it, then filling the right digits everywhere, ends in "solved".
    let cleared = validate(json!({"givens": SEED, "board": body["board"], "move": {"row": 0, "col": 1, "digit": null}})).await;
    assert_eq!(cleared["board"], SEED);
    assert_eq!(cleared["mistakes"], json!([]));
    let done = validate(json!({"givens": SEED, "board": SEED_SOLUTION})).await;
    assert_eq!(
        (&done["complete"], &done["solved"]),
        (&json!(true), &json!(true))
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_board_that_changed_a_given_or_a_move_on_a_given_is_refused_by_cell() {
    let server = TestServer::start().await;
    let changed = format!("8{}", &SEED[1..]);
    let response = post(
        &server,
        "/validate",
        json!({"givens": SEED, "board": changed}),
    )
    .await;
    let problem = expect_problem(response, 422, "given-changed").await;
    assert_eq!(
        (problem["row"].clone(), problem["col"].clone()),
        (json!(0), json!(0))
    );
    assert_eq!(problem["pointer"], "/board");
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .contains("row 1, column 1 holds the given 9"));
    let on_given = json!({"givens": SEED, "board": SEED, "move": {"row": 0, "col": 0, "digit": 1}});
    let problem = expect_problem(
        post(&server, "/validate", on_given).await,
        422,
        "invalid-request",
    )
    .await;
    assert_eq!(problem["pointer"], "/move");
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .starts_with("row 1, column 1 holds a given"));
    // /hint and /candidates check the givens the same way.
    for path in ["/hint", "/candidates"] {
        let response = post(&server, path, json!({"givens": SEED, "board": changed})).await;
        expect_problem(response, 422, "given-changed").await;
    }
    server.shutdown().await;
}

#[tokio::test]
async fn integer_grids_and_named_cage_cells_are_answered_in_kind() {
    let server = TestServer::start().await;
    let body = ok_json(post(&server, "/solve", json!({ "board": numbers(SEED) })).await).await;
    assert_eq!(body["solution"], numbers(SEED_SOLUTION));
    // null is an empty cell too.
    let mut with_nulls = numbers(SEED);
    with_nulls[0][1] = Value::Null;
    let body = ok_json(post(&server, "/solve", json!({ "board": with_nulls })).await).await;
    assert_eq!(body["solution"], numbers(SEED_SOLUTION));
    let mut bad = numbers(SEED);
    bad[2][3] = json!(12);
    let problem = expect_problem(
        post(&server, "/solve", json!({ "board": bad })).await,
        422,
        "invalid-board",
    )
    .await;
    assert_eq!(
        (problem["row"].clone(), problem["col"].clone()),
        (json!(2), json!(3))
    );
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .contains("12 is not a digit 1-9"));

    // A 4x4 Killer with cage cells in both forms.
    let cages = json!([
        {"sum": 3, "cells": [[0, 0], {"row": 0, "col": 1}]},
        {"sum": 7, "cells": [{"row": 0, "col": 2}, [0, 3]]}
    ]);
    let board = json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
    let body =
        ok_json(post(&server, "/solve", json!({"board": board, "cages": cages})).await).await;
    let first_row: Vec<u64> = serde_json::from_value(body["solution"][0].clone()).unwrap();
    assert_eq!(first_row[0] + first_row[1], 3);
    assert_eq!(first_row[2] + first_row[3], 7);
    server.shutdown().await;
}

#[tokio::test]
async fn an_ambiguous_puzzle_comes_with_two_solutions_and_where_they_differ() {
    let server = TestServer::start().await;
    // The seed without its first given has several solutions... or one; find out, then take
    // givens away until it has two.
    let mut line: Vec<u8> = SEED.bytes().collect();
    let mut i = 0;
    while count(std::str::from_utf8(&line).unwrap()).count < 2 {
        while line[i] == b'.' {
            i += 1;
        }
        line[i] = b'.';
    }
    let line = String::from_utf8(line).unwrap();
    let body = ok_json(post(&server, "/solve", json!({ "board": rows(&line) })).await).await;
    assert_eq!(body["unique"], false);
    let first: Vec<String> = serde_json::from_value(body["solution"].clone()).unwrap();
    let second: Vec<String> = serde_json::from_value(body["second_solution"].clone()).unwrap();
    let (first, second) = (first.concat(), second.concat());
    common::assert_solves(&line, &first);
    common::assert_solves(&line, &second);
    let differences: Vec<(usize, usize)> = body["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["row"].as_u64().unwrap() as usize,
                c["col"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    let expected: Vec<(usize, usize)> = (0..81)
        .filter(|&k| first.as_bytes()[k] != second.as_bytes()[k])
        .map(|k| (k / 9, k % 9))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(differences, expected);
    let verdict = ok_json(post(&server, "/validate", json!({ "board": line })).await).await;
    assert_eq!(verdict["solutions"], 2);
    assert_eq!(
        verdict["differences"].as_array().unwrap().len(),
        expected.len()
    );
    // A unique puzzle has none of these.
    let unique = ok_json(post(&server, "/solve", json!({ "board": SEED })).await).await;
    assert!(unique.get("second_solution").is_none() && unique.get("differences").is_none());
    server.shutdown().await;
}

#[tokio::test]
async fn get_generate_is_cacheable_by_seed_with_an_id() {
    let server = TestServer::start().await;
    let c = client();
    let url = server.url("/generate?difficulty=Medium&seed=42&format=line");
    let first = c.get(&url).send().await.unwrap();
    assert_eq!(first.status(), 200);
    assert_eq!(
        first.headers()[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    let etag = first.headers()[header::ETAG].to_str().unwrap().to_string();
    let body: Value = first.json().await.unwrap();
    assert!(etag.starts_with("\"g") && etag.ends_with('"'), "{etag}");
    assert_eq!(body["difficulty"], "medium");
    // The same puzzle as the POST form, and the same id that /solve gives it.
    let posted = ok_json(
        post(
            &server,
            "/generate",
            json!({"difficulty": "medium", "seed": 42, "format": "line"}),
        )
        .await,
    )
    .await;
    assert_eq!(posted["board"], body["board"]);
    let solved = ok_json(post(&server, "/solve", json!({ "board": body["board"] })).await).await;
    assert_eq!(solved["id"], body["id"]);
    // A cache revalidating gets a 304, weak validator or strong, without a generation: the
    // tag comes from the request (the same level by its range shares it).
    let jobs = server.metric("solve_duration_seconds_count").await;
    for tag in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"other\", {etag}"),
    ] {
        for url in [
            url.clone(),
            server.url("/generate?rating=1.6-2.5&seed=42&format=line"),
        ] {
            let again = c
                .get(&url)
                .header(header::IF_NONE_MATCH, &tag)
                .send()
                .await
                .unwrap();
            assert_eq!(again.status(), 304, "{tag} {url}");
            assert_eq!(again.headers()[header::ETAG], etag.as_str());
        }
    }
    assert_eq!(
        server.metric("solve_duration_seconds_count").await,
        jobs,
        "no job ran for a 304"
    );
    // Another seed, form or level is another tag.
    for other in [
        "difficulty=medium&seed=43&format=line",
        "difficulty=medium&seed=42",
        "difficulty=hard&seed=42&format=line",
    ] {
        let response = c
            .get(server.url(&format!("/generate?{other}")))
            .header(header::IF_NONE_MATCH, &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{other}");
        assert_ne!(response.headers()[header::ETAG], etag.as_str());
    }
    // Without a seed the puzzle is random: not to be stored.
    let random = c
        .get(server.url("/generate?difficulty=easy"))
        .send()
        .await
        .unwrap();
    assert_eq!(random.headers()[header::CACHE_CONTROL], "no-store");
    let bad = c
        .get(server.url("/generate?difficulty=easy&sed=1"))
        .send()
        .await
        .unwrap();
    let problem = expect_problem(bad, 422, "invalid-request").await;
    assert_eq!(problem["pointer"], "/sed");
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .contains("did you mean `seed`?"));
    server.shutdown().await;
}

#[tokio::test]
async fn every_error_names_its_field_and_what_to_send() {
    let server = TestServer::start().await;
    let cases = [
        (
            "/generate",
            json!({"seed": 1}),
            "/difficulty",
            "send one of easy, medium, hard, expert",
        ),
        (
            "/generate",
            json!({"difficulty": "insane"}),
            "/difficulty",
            "must be one of easy, medium, hard, expert",
        ),
        (
            "/generate",
            json!({"difficulty": "easy", "symmetry": "mirror"}),
            "/symmetry",
            "must be one of none, rotational",
        ),
        (
            "/hint",
            json!({"board": SEED, "givens": "123"}),
            "/givens",
            "givens: expected",
        ),
        (
            "/solve",
            json!({"cages": []}),
            "/board",
            "send `board` as row strings",
        ),
        (
            "/solve",
            json!({"board": SEED, "cages": [{"sum": "3", "cells": []}]}),
            "/cages/0/sum",
            "invalid type",
        ),
        (
            "/solve",
            json!({"board": SEED, "cages": [{"sum": 99, "cells": [[0, 1]]}]}),
            "/cages/0",
            "cage 1",
        ),
    ];
    for (path, body, pointer, phrase) in cases {
        let response = post(&server, path, body.clone()).await;
        assert_eq!(response.status(), 422, "{path} {body}");
        let problem: Value = response.json().await.unwrap();
        assert_eq!(problem["pointer"], pointer, "{path} {body}: {problem}");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(phrase), "{path} {body}: {detail}");
    }
    // Enum values in any case.
    let body = ok_json(
        post(
            &server,
            "/generate",
            json!({"difficulty": "EASY", "seed": 3, "symmetry": "Rotational"}),
        )
        .await,
    )
    .await;
    assert_eq!(
        (&body["difficulty"], &body["symmetry"]),
        (&json!("easy"), &json!("rotational"))
    );
    // A 4x4 board where only 9x9 is covered says which endpoints take it.
    let problem = expect_problem(
        post(
            &server,
            "/grade",
            json!({"board": ["1...", "..3.", ".4..", "...2"]}),
        )
        .await,
        422,
        "unsupported",
    )
    .await;
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .contains("/solve, /validate, /hint and /candidates take every size"));
    server.shutdown().await;
}
