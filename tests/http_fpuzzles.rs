//! Black-box tests of the f-puzzles format over TCP, on the CP-SAT-verified examples in
//! `../shared/data/fpuzzles/examples.jsonl`: the families the service solves give the
//! example's solution (or its two solutions) and refuse its breaker; the others are refused
//! by name, never solved as a different puzzle.

mod common;

use common::data::shared_data;
use common::{expect_problem, ok_json, post, TestServer};
use serde_json::{json, Value};

/// The example families whose every rule has a native field on this server. The coordinator
/// extends this list as native fields land; every other family must be refused.
const SOLVED_FAMILIES: &[&str] = &[
    "antiking",
    "antiknight",
    "arrow",
    "diagonals",
    "disjointgroups",
    "extraregion",
    "killer",
    "kropki",
    "littlekiller",
    "miracle",
    "oddeven",
    "renban",
    "sandwich",
    "thermo+antiknight",
    "thermometer",
    "whispers",
    "xv",
    "xv-negative",
];

/// Every example, one JSON object each; none when the data is absent (the test skips).
fn examples() -> Vec<Value> {
    let Some(path) = shared_data("fpuzzles/examples.jsonl", "the f-puzzles examples") else {
        return Vec::new();
    };
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A number-rows board as one line of digits.
fn line_of(rows: &Value) -> String {
    rows.as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .map(|d| char::from_digit(d.as_u64().unwrap() as u32, 10).unwrap())
        .collect()
}

/// `puzzle` with the digits of `line` written into its cells that are not given.
fn filled(puzzle: &Value, line: &str) -> Value {
    let mut puzzle = puzzle.clone();
    let digits: Vec<u32> = line.chars().map(|c| c.to_digit(10).unwrap()).collect();
    let size = puzzle["size"].as_u64().unwrap() as usize;
    for (i, &digit) in digits.iter().enumerate() {
        let cell = &mut puzzle["grid"][i / size][i % size];
        if cell["given"] != json!(true) {
            *cell = json!({ "value": digit });
        }
    }
    puzzle
}

#[tokio::test]
async fn the_examples_solve_or_are_refused_by_name() {
    let server = TestServer::start().await;
    let examples = examples();
    let mut solved = std::collections::BTreeSet::new();
    for example in &examples {
        let name = example["name"].as_str().unwrap();
        let family = example["family"].as_str().unwrap();
        let puzzle = &example["fpuzzles"];
        let response = post(&server, "/v1/solve", json!({ "fpuzzles": puzzle })).await;
        if !SOLVED_FAMILIES.contains(&family) {
            let problem = expect_problem(response, 422, "unsupported").await;
            let pointer = problem["pointer"].as_str().unwrap_or_default();
            let key = pointer.strip_prefix("/fpuzzles/").unwrap_or_default();
            assert!(
                !key.is_empty() && puzzle.get(key).is_some(),
                "{name}: {problem}"
            );
            continue;
        }
        let body = ok_json(response).await;
        solved.insert(family);
        if let Some(solution) = example["solution"].as_str() {
            assert_eq!(example["solutions"], 1, "{name}");
            assert_eq!(body["unique"], true, "{name}: {body}");
            assert_eq!(line_of(&body["solution"]), solution, "{name}");
        } else {
            assert_eq!(example["solutions"], 2, "{name}");
            assert_eq!(body["unique"], false, "{name}: {body}");
            let (first, second) = (
                line_of(&body["solution"]),
                line_of(&body["second_solution"]),
            );
            assert_ne!(first, second, "{name}");
        }
        // The answer gives the puzzle back with the solution in the cells not given.
        let answer = &body["fpuzzles"];
        assert_eq!(answer["size"], puzzle["size"], "{name}");
        assert_eq!(
            filled(answer, &line_of(&body["solution"])),
            *answer,
            "{name}"
        );
        if let Some(breaker) = example["breaker"].as_str() {
            let player = filled(puzzle, breaker);
            let verdict =
                ok_json(post(&server, "/v1/validate", json!({ "fpuzzles": player })).await).await;
            assert_eq!(verdict["solved"], false, "{name} breaker: {verdict}");
            let right = filled(puzzle, example["solution"].as_str().unwrap());
            let verdict =
                ok_json(post(&server, "/v1/validate", json!({ "fpuzzles": right })).await).await;
            assert_eq!(verdict["solved"], true, "{name} solution: {verdict}");
        }
    }
    if !examples.is_empty() {
        assert_eq!(solved, SOLVED_FAMILIES.iter().copied().collect());
    }
}

#[tokio::test]
async fn a_compressed_example_and_its_link_solve_like_the_object() {
    let server = TestServer::start().await;
    let Some(example) = examples().into_iter().find(|e| e["family"] == "antiking") else {
        return;
    };
    let compressed = lz_str::compress_to_base64(example["fpuzzles"].to_string().as_str());
    let solution = example["solution"].as_str().unwrap();
    let f_puzzles = "https://www.f-puzzles.com/?load=";
    let sudokupad = "https://sudokupad.app/fpuzzles";
    for (sent, prefix) in [
        (compressed.clone(), ""),
        (
            format!("{f_puzzles}{}", compressed.replace('+', "%2B")),
            f_puzzles,
        ),
        (
            format!("{sudokupad}{compressed}?setting-nogrid=1"),
            sudokupad,
        ),
        // A SudokuPad puzzle id alone comes back alone.
        (format!("fpuzzles{compressed}"), "fpuzzles"),
    ] {
        let body = ok_json(post(&server, "/v1/solve", json!({ "fpuzzles": sent })).await).await;
        assert_eq!(line_of(&body["solution"]), solution);
        // The answer keeps the form: a string again, which decompresses to the solved grid.
        let text = body["fpuzzles"].as_str().unwrap();
        let data = text.strip_prefix(prefix).unwrap();
        assert!(!data.starts_with("http"), "{text}");
        let back = lz_str::decompress_from_base64(data).unwrap();
        let back: Value = serde_json::from_str(&String::from_utf16(&back).unwrap()).unwrap();
        assert_eq!(back, filled(&example["fpuzzles"], solution));
    }
}

#[tokio::test]
async fn fpuzzles_beside_native_fields_or_malformed_is_a_named_problem() {
    let server = TestServer::start().await;
    let puzzle = json!({"size": 4, "grid": [[{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}]]});
    for (body, pointer) in [
        (json!({"fpuzzles": puzzle, "board": "...."}), "/board"),
        (json!({"fpuzzles": puzzle, "anti_king": true}), "/anti_king"),
        (json!({"fpuzzles": {"size": 4}}), "/fpuzzles/grid"),
        (json!({"fpuzzles": "not compressed"}), "/fpuzzles"),
        (json!({"fpuzzles": 7}), "/fpuzzles"),
        (
            {
                let mut three = puzzle.clone();
                three["difference"] =
                    json!([{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C1", "R2C2", "R2C3"]}]);
                json!({"fpuzzles": three})
            },
            "/fpuzzles/difference/1/cells",
        ),
    ] {
        let problem = expect_problem(
            post(&server, "/v1/solve", body).await,
            422,
            "invalid-request",
        )
        .await;
        assert_eq!(problem["pointer"], pointer, "{problem}");
    }
    // A double arrow (a line whose two circled ends add up to the cells between) is an
    // f-puzzles constraint this service does not solve.
    let mut double = puzzle.clone();
    double["doublearrow"] = json!([{"lines": [["R1C1", "R1C2", "R1C3"]]}]);
    for path in [
        "/v1/solve",
        "/v1/validate",
        "/v1/hint",
        "/v1/candidates",
        "/v1/grade",
    ] {
        let problem = expect_problem(
            post(&server, path, json!({"fpuzzles": double})).await,
            422,
            "unsupported",
        )
        .await;
        assert_eq!(problem["pointer"], "/fpuzzles/doublearrow", "{path}");
    }
    // Cosmetic keys and empty constraints change nothing: a 4x4 with a title and no arrows.
    let mut plain = puzzle;
    plain["title"] = json!("blank");
    plain["arrow"] = json!([]);
    plain["grid"][0][0] = json!({"value": 1, "given": true});
    let body = ok_json(post(&server, "/v1/candidates", json!({"fpuzzles": plain})).await).await;
    assert_eq!(body["candidates"][0][1], json!([2, 3, 4]));
    assert_eq!(body["fpuzzles"]["title"], "blank");
}

#[tokio::test]
async fn the_conversion_endpoint_goes_both_ways() {
    let server = TestServer::start().await;
    let native = json!({
        "board": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]],
        "cages": [{"sum": 7, "cells": [[0, 1], [0, 2]]}],
        "diagonals": true,
    });
    let converted = ok_json(post(&server, "/v1/fpuzzles", native.clone()).await).await;
    let compressed = converted["compressed"].as_str().unwrap();
    assert_eq!(
        converted["link"],
        format!("https://www.f-puzzles.com/?load={compressed}")
    );
    assert_eq!(
        converted["sudokupad"],
        format!("https://sudokupad.app/fpuzzles{compressed}")
    );
    assert_eq!(
        converted["fpuzzles"]["killercage"][0]["cells"],
        json!(["R1C2", "R1C3"])
    );
    for key in ["fpuzzles", "link", "sudokupad"] {
        let sent = converted[key].clone();
        let back = ok_json(post(&server, "/v1/fpuzzles", json!({ "fpuzzles": sent })).await).await;
        assert_eq!(back, native);
    }
    let problem = expect_problem(
        post(
            &server,
            "/v1/fpuzzles",
            json!({"board": "1...", "windows": true}),
        )
        .await,
        422,
        "invalid-board",
    )
    .await;
    assert_eq!(problem["pointer"], "/board");
    // f-puzzles draws up to 16x16: a 25x25 has no f-puzzles form.
    let problem = expect_problem(
        post(&server, "/v1/fpuzzles", json!({"board": ".".repeat(625)})).await,
        422,
        "unsupported",
    )
    .await;
    assert_eq!(problem["pointer"], "/board");
}

#[tokio::test]
async fn a_players_position_converts_both_ways() {
    let server = TestServer::start().await;
    let sent = json!({"size": 4, "grid": [
        [{"value": 1, "given": true}, {"value": 3}, {}, {}],
        [{}, {}, {}, {}],
        [{}, {}, {"value": 4}, {}],
        [{}, {}, {}, {"value": 2, "given": true}],
    ]});
    let native = ok_json(post(&server, "/v1/fpuzzles", json!({ "fpuzzles": sent })).await).await;
    assert_eq!(
        native,
        json!({
            "board": [[1, 3, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0], [0, 0, 0, 2]],
            "givens": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]],
        })
    );
    // The native position goes back to the same grid, entries not given.
    let back = ok_json(post(&server, "/v1/fpuzzles", native.clone()).await).await;
    assert_eq!(back["fpuzzles"]["grid"], sent["grid"]);
    let again = json!({ "fpuzzles": back["compressed"] });
    let again = ok_json(post(&server, "/v1/fpuzzles", again).await).await;
    assert_eq!(again, native);
    // `/v1/validate` reads the position; `/v1/solve`, which takes a puzzle, says so.
    let verdict = ok_json(post(&server, "/v1/validate", native.clone()).await).await;
    assert_eq!(verdict["valid"], true, "{verdict}");
    let problem = expect_problem(
        post(&server, "/v1/solve", native.clone()).await,
        422,
        "invalid-request",
    )
    .await;
    assert_eq!(problem["pointer"], "/givens");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("goes to /v1/validate"), "{detail}");
    // A position refused as `/v1/validate` refuses it, at the field at fault.
    let refusals = [
        (
            json!({"board": "1...............", "givens": 5}),
            "invalid-request",
            "/givens",
        ),
        (
            json!({"board": "1...............", "givens": "2..............."}),
            "given-changed",
            "/board",
        ),
        (
            json!({"board": "11..............", "givens": "11.............."}),
            "conflicting-givens",
            "/givens",
        ),
    ];
    for (body, kind, pointer) in refusals {
        let problem = expect_problem(post(&server, "/v1/fpuzzles", body).await, 422, kind).await;
        assert_eq!(problem["pointer"], pointer, "{problem}");
    }
    let misspelt = json!({"board": "1...............", "givns": "1..............."});
    let misspelt = post(&server, "/v1/fpuzzles", misspelt).await;
    let problem = expect_problem(misspelt, 422, "invalid-request").await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("did you mean `givens`?"), "{detail}");
    let mut cells = vec![vec![json!(0); 4]; 4];
    cells[0][1] = json!(1.5);
    let odd = json!({"board": "1...............", "givens": cells});
    let problem = expect_problem(
        post(&server, "/v1/fpuzzles", odd).await,
        422,
        "invalid-request",
    )
    .await;
    assert_eq!(problem["pointer"], "/givens/0/1", "{problem}");
    // The f-puzzles side is checked as the puzzle endpoints check it: a value off the board,
    // givens that clash.
    let mut off = sent.clone();
    off["grid"][1][1] = json!({"value": 9});
    let mut clash = sent.clone();
    clash["grid"][0][1] = json!({"value": 1, "given": true});
    for (bad, kind) in [(off, "invalid-board"), (clash, "conflicting-givens")] {
        let body = json!({ "fpuzzles": bad });
        let problem = expect_problem(post(&server, "/v1/fpuzzles", body).await, 422, kind).await;
        assert_eq!(problem["pointer"], "/fpuzzles/grid", "{problem}");
    }
    // A value of 0 is an empty cell, not an entry.
    let mut zero = sent.clone();
    zero["grid"][0][1] = json!({"value": 0});
    zero["grid"][2][2] = json!({});
    let zero = ok_json(post(&server, "/v1/fpuzzles", json!({ "fpuzzles": zero })).await).await;
    assert_eq!(zero, json!({"board": native["givens"]}));
    // A player's clash is the player's: the position converts.
    let clash = json!({"board": "12.1............", "givens": "1..............."});
    let clash = ok_json(post(&server, "/v1/fpuzzles", clash).await).await;
    assert_eq!(clash["fpuzzles"]["grid"][0][3], json!({"value": 1}));
}

#[tokio::test]
async fn a_small_string_that_decompresses_to_megabytes_is_refused() {
    // lz-string output grows with the square of its input: 2.4 KB that decompress to a
    // million characters, a valid f-puzzles object with a long title. Without the limit, 6 KB
    // of it (5.4 million characters) took 6.6 s of the async runtime's CPU and 80 MB each.
    let server = TestServer::start().await;
    let grid = vec![vec![json!({}); 9]; 9];
    let huge = json!({"size": 9, "grid": grid, "title": "a".repeat(1_000_000)});
    let compressed = lz_str::compress_to_base64(huge.to_string().as_str());
    assert!(compressed.len() < 2_500, "{} characters", compressed.len());
    let started = std::time::Instant::now();
    let problem = expect_problem(
        post(&server, "/v1/solve", json!({"fpuzzles": compressed})).await,
        422,
        "invalid-request",
    )
    .await;
    assert_eq!(problem["pointer"], "/fpuzzles", "{problem}");
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("decompresses to more than"), "{detail}");
    // Refused at the limit, not after decoding everything (a generous bound for debug builds).
    assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
    // The same puzzle with an ordinary title still solves.
    let ordinary = json!({"size": 9, "grid": vec![vec![json!({}); 9]; 9], "title": "blank"});
    let compressed = lz_str::compress_to_base64(ordinary.to_string().as_str());
    let body = ok_json(post(&server, "/v1/solve", json!({"fpuzzles": compressed})).await).await;
    assert_eq!(body["unique"], false);
}

/// A rule made from the puzzle that the service refuses is pointed at the f-puzzles entry it
/// came from (the client sent no `/thermometers/0`), and the line in it when it holds several,
/// its detail naming the native field; dots come from three keys, each dot from its own.
#[tokio::test]
async fn a_refused_rule_points_at_its_fpuzzles_key() {
    let server = TestServer::start().await;
    let empty = json!({"size": 4, "grid": vec![vec![json!({}); 4]; 4]});
    let with = |key: &str, value: Value| {
        let mut puzzle = empty.clone();
        puzzle[key] = value;
        json!({ "fpuzzles": puzzle })
    };
    let mut five = empty.clone();
    five["grid"][0][0] = json!({"value": 5, "given": true});
    let mut dots = with("difference", json!([{"cells": ["R1C1", "R1C2"]}]));
    dots["fpuzzles"]["ratio"] = json!([{"cells": ["R1C1", "R3C3"]}]);
    for (body, kind, pointer, native) in [
        (
            with(
                "thermometer",
                json!([{"lines": [["R1C1", "R1C2", "R1C1"]]}]),
            ),
            "invalid-thermometers",
            "/fpuzzles/thermometer/0",
            "/thermometers/0/cells/2",
        ),
        (
            // An entry of several lines: the line in it.
            with(
                "thermometer",
                json!([
                    {"lines": [["R4C1", "R4C2"]]},
                    {"lines": [["R2C1", "R2C2"], ["R3C1", "R3C2", "R3C1"]]},
                ]),
            ),
            "invalid-thermometers",
            "/fpuzzles/thermometer/1/lines/1",
            "/thermometers/2/cells/2",
        ),
        (
            // A number too large for the native field: the value in its entry.
            with(
                "killercage",
                json!([{"cells": ["R1C1"], "value": "3"}, {"cells": ["R2C1"], "value": "9999999999"}]),
            ),
            "invalid-request",
            "/fpuzzles/killercage/1/value",
            "/cages/1/sum",
        ),
        (
            // An entry's value made every line's difference: the value, not a line.
            with(
                "whispers",
                json!([
                    {"lines": [["R1C1", "R1C2"]]},
                    {"lines": [["R2C1", "R2C2"], ["R3C1", "R3C2"]], "value": "9"},
                ]),
            ),
            "invalid-whispers",
            "/fpuzzles/whispers/1/value",
            "/whispers/1/difference",
        ),
        (
            // An arrow's second line.
            with(
                "arrow",
                json!([{"cells": ["R1C1"], "lines": [["R1C1", "R1C2"], ["R1C1", "R2C2", "R2C2"]]}]),
            ),
            "invalid-arrows",
            "/fpuzzles/arrow/0/lines/1",
            "/arrows/0/lines/1/1",
        ),
        (
            with(
                "littlekillersum",
                json!([{"cell": "R2C2", "direction": "DR", "value": "5"}]),
            ),
            "invalid-little-killers",
            "/fpuzzles/littlekillersum/0/cell",
            "/little_killers/0/start",
        ),
        (dots, "invalid-dots", "/fpuzzles/ratio/0", "/dots/1/cells"),
        (
            json!({ "fpuzzles": five }),
            "invalid-board",
            "/fpuzzles/grid",
            "/board",
        ),
    ] {
        for path in ["/v1/solve", "/v1/validate", "/v1/candidates"] {
            let problem = expect_problem(post(&server, path, body.clone()).await, 422, kind).await;
            assert_eq!(problem["pointer"], pointer, "{path}: {problem}");
            let detail = problem["detail"].as_str().unwrap();
            assert!(detail.contains(&format!("(as `{native}`)")), "{detail}");
        }
    }
    // The entry is found by converting the key's entries again: linear, the bad one last of
    // 1,500 (a compressed string of a few KB) found as the others are.
    let line = json!({"lines": [["R1C1", "R1C2"]]});
    let mut many = vec![line; 1_499];
    many.push(json!({"lines": [["R2C1", "R2C2"], ["R3C1", "R3C2", "R3C1"]]}));
    let puzzle = with("thermometer", Value::Array(many))["fpuzzles"].to_string();
    let compressed = lz_str::compress_to_base64(puzzle.as_str());
    assert!(compressed.len() < 4_096, "{} characters", compressed.len());
    // In a compressed string or a link, which a pointer cannot enter, the pointer stops at
    // `/fpuzzles` and the place in the decompressed puzzle is named beside it; in a booklet,
    // under the puzzle's place.
    let link = format!("https://www.f-puzzles.com/?load={compressed}");
    for (path, body, pointer) in [
        ("/v1/solve", json!({ "fpuzzles": compressed }), "/fpuzzles"),
        ("/v1/fpuzzles", json!({ "fpuzzles": link }), "/fpuzzles"),
        (
            "/v1/booklet",
            json!({"puzzles": [{"board": "1234341221434321"}, { "fpuzzles": compressed }]}),
            "/puzzles/1/fpuzzles",
        ),
    ] {
        let response = post(&server, path, body).await;
        let problem = expect_problem(response, 422, "invalid-thermometers").await;
        assert_eq!(problem["pointer"], pointer, "{path}: {problem}");
        let inside = "/thermometer/1499/lines/1";
        assert_eq!(problem["decompressed_pointer"], inside, "{path}: {problem}");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(&format!("at `{inside}`")), "{detail}");
    }
    // A rule set an operation does not cover points at the f-puzzles key, not at the native
    // field the client never sent.
    let thermometer = json!([{"lines": [["R1C1", "R1C2"]]}]);
    let nine = json!({"size": 9, "grid": vec![vec![json!({}); 9]; 9], "thermometer": thermometer});
    let response = post(&server, "/v1/grade", json!({ "fpuzzles": nine })).await;
    let problem = expect_problem(response, 422, "unsupported").await;
    assert_eq!(problem["pointer"], "/fpuzzles/thermometer", "{problem}");
    // On a 4x4 grid the size is the reason before the thermometer.
    let response = post(&server, "/v1/grade", with("thermometer", thermometer)).await;
    let problem = expect_problem(response, 422, "unsupported").await;
    assert_eq!(problem["pointer"], "/fpuzzles/grid", "{problem}");
    // A size grading does not cover, with no rule: the grid, in the object or the string.
    let grid = empty.to_string();
    for (sent, pointer, inside) in [
        (empty.clone(), "/fpuzzles/grid", None),
        (
            json!(lz_str::compress_to_base64(grid.as_str())),
            "/fpuzzles",
            Some("/grid"),
        ),
    ] {
        let response = post(&server, "/v1/grade", json!({ "fpuzzles": sent })).await;
        let problem = expect_problem(response, 422, "unsupported").await;
        assert_eq!(problem["pointer"], pointer, "{problem}");
        assert_eq!(
            problem["decompressed_pointer"].as_str(),
            inside,
            "{problem}"
        );
    }
    // Givens that clash point at the grid they are in: the board where it is the puzzle,
    // the givens beside a player's entries (whose own clashes are a verdict, not a refusal).
    let mut clash = json!({"size": 4, "grid": [
        [{"value": 1, "given": true}, {"value": 1, "given": true}, {}, {}],
        [{}, {}, {}, {}], [{}, {}, {}, {}], [{}, {}, {}, {}],
    ]});
    let mut entered = clash.clone();
    entered["grid"][3][3] = json!({"value": 4});
    for (path, sent) in [("/v1/solve", &clash), ("/v1/validate", &entered)] {
        let body = json!({ "fpuzzles": sent });
        let problem =
            expect_problem(post(&server, path, body).await, 422, "conflicting-givens").await;
        assert_eq!(problem["pointer"], "/fpuzzles/grid", "{path}: {problem}");
    }
    clash["grid"][0][1] = json!({"value": 1});
    let verdict = ok_json(post(&server, "/v1/validate", json!({ "fpuzzles": clash })).await).await;
    assert_eq!(verdict["valid"], false, "{verdict}");
    server.shutdown().await;
}

/// The three ways a body with `fpuzzles` is read: the plain JSON type's own reader, the
/// general one under another JSON type, and the conversion endpoint's.
const READERS: [(&str, &str); 3] = [
    ("/v1/solve", "application/json"),
    ("/v1/solve", "application/json; charset=utf-8"),
    ("/v1/fpuzzles", "application/json"),
];

/// POSTs the text `body` to `path` as `content_type`.
async fn send_as(
    server: &TestServer,
    path: &str,
    content_type: &str,
    body: &str,
) -> reqwest::Response {
    common::client()
        .post(server.url(path))
        .header("content-type", content_type)
        .body(body.to_string())
        .send()
        .await
        .unwrap()
}

/// A key given twice, in the f-puzzles object or beside it, is refused where it is (the
/// JSON reader would keep the last copy: a thermometer then emptied, a second puzzle solved
/// in place of the first), under either content type and by the conversion endpoint.
#[tokio::test]
async fn a_key_given_twice_is_refused_in_every_form() {
    let server = TestServer::start().await;
    let grid = r#""size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]"#;
    let thermometer = r#"[{"lines":[["R1C4","R1C3","R1C2","R1C1"]]}]"#;
    let cases = [
        (
            format!(r#"{{"fpuzzles":{{{grid},"thermometer":{thermometer},"thermometer":[]}}}}"#),
            "/fpuzzles/thermometer",
        ),
        (
            format!(r#"{{"fpuzzles":{{{grid}}},"fpuzzles":{{{grid},"antiking":true}}}}"#),
            "/fpuzzles",
        ),
    ];
    for (body, pointer) in &cases {
        for (path, content_type) in READERS {
            let response = send_as(&server, path, content_type, body).await;
            let problem = expect_problem(response, 422, "invalid-request").await;
            assert_eq!(
                problem["pointer"], *pointer,
                "{path} {content_type}: {problem}"
            );
            let detail = problem["detail"].as_str().unwrap();
            assert!(detail.contains("duplicate field"), "{detail}");
        }
    }
    // The strict reader keeps the JSON reader's depth limit: a puzzle nested as deep as the
    // body allows, or as its compressed form decompresses to, is refused, not a stack
    // overflow, and the answer stays small.
    let deep = |n: usize| format!(r#"{{"size":4,"grid":{}{}}}"#, "[".repeat(n), "]".repeat(n));
    let body = format!(r#"{{"fpuzzles":{}}}"#, deep(3500));
    for (path, content_type) in READERS {
        let response = send_as(&server, path, content_type, &body).await;
        let problem = expect_problem(response, 400, "invalid-json").await;
        assert!(problem.to_string().len() < 1024, "{problem}");
    }
    let compressed = lz_str::compress_to_base64(deep(60_000).as_str());
    let problem = expect_problem(
        post(&server, "/v1/solve", json!({ "fpuzzles": compressed })).await,
        422,
        "invalid-request",
    )
    .await;
    assert_eq!(problem["pointer"], "/fpuzzles", "{problem}");
    server.shutdown().await;
}

#[tokio::test]
async fn an_escaped_key_reads_the_same_under_either_content_type() {
    let server = TestServer::start().await;
    let puzzle = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
    // `fpuzzles` with its last letter escaped: valid JSON for the same key.
    let body = format!(r#"{{"fpuzzle\u0073": {puzzle}}}"#);
    for content_type in ["application/json", "application/json; charset=utf-8"] {
        let answer = ok_json(send_as(&server, "/v1/solve", content_type, &body).await).await;
        assert_eq!(answer["unique"], false, "{content_type}: {answer}");
    }
    // A field a puzzle endpoint does not take is answered with what it does take, f-puzzles
    // included.
    let problem = expect_problem(
        post(
            &server,
            "/v1/solve",
            json!({"board": ".".repeat(16), "colour": 1}),
        )
        .await,
        422,
        "invalid-request",
    )
    .await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("`board`") && detail.contains("`fpuzzles`"),
        "{detail}"
    );
    // A near miss of `fpuzzles` is suggested.
    let problem = expect_problem(
        post(&server, "/v1/solve", json!({"fpuzzels": {"size": 4}})).await,
        422,
        "invalid-request",
    )
    .await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("unknown field `fpuzzels`: did you mean `fpuzzles`?"),
        "{detail}"
    );
}
