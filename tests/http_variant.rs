//! Black-box tests of Killer Sudoku and the other sizes on /solve and /validate, over TCP.
//! Answers are checked here against the rules directly, not with the engine.

mod common;

use common::{client, expect_problem, ok_json, post, wait_for, TestServer};
use serde_json::{json, Value};
use sudoku_service::engine::{random_killer, Cell};
use sudoku_service::http::ServeArgs;

/// Value of a digit character: `1`-`9`, `A`-`P`.
fn digit(ch: char) -> u32 {
    ch.to_digit(36).unwrap()
}

/// Box height and width of each supported side.
fn box_shape(side: usize) -> (usize, usize) {
    match side {
        4 => (2, 2),
        6 => (2, 3),
        9 => (3, 3),
        16 => (4, 4),
        25 => (5, 5),
        other => panic!("no box shape for {other}"),
    }
}

/// Asserts that `rows` is a full grid obeying every row, column, box and cage rule and keeping
/// the givens of `puzzle`, checked here without the engine.
fn assert_obeys(puzzle: &[String], rows: &[String], cages: &Value) {
    let side = puzzle.len();
    let grid: Vec<Vec<u32>> = rows
        .iter()
        .map(|r| r.chars().map(digit).collect())
        .collect();
    assert_eq!(grid.len(), side);
    let (bh, bw) = box_shape(side);
    let full: u64 = (1 << side) - 1;
    let mut units = vec![0u64; 3 * side];
    for (r, row) in grid.iter().enumerate() {
        assert_eq!(row.len(), side);
        for (c, &d) in row.iter().enumerate() {
            assert!((1..=side as u32).contains(&d), "digit {d} at {r},{c}");
            let bit = 1u64 << (d - 1);
            units[r] |= bit;
            units[side + c] |= bit;
            units[2 * side + (r / bh) * (side / bw) + c / bw] |= bit;
            let given = puzzle[r].chars().nth(c).unwrap();
            if given != '.' {
                assert_eq!(digit(given), d, "given changed at {r},{c}");
            }
        }
    }
    assert!(
        units.iter().all(|&u| u == full),
        "a unit repeats a digit: {rows:?}"
    );
    for cage in cages.as_array().into_iter().flatten() {
        let cells: Vec<(usize, usize)> = serde_json::from_value(cage["cells"].clone()).unwrap();
        let digits: Vec<u32> = cells.iter().map(|&(r, c)| grid[r][c]).collect();
        let distinct: std::collections::BTreeSet<u32> = digits.iter().copied().collect();
        assert_eq!(distinct.len(), digits.len(), "cage repeats a digit: {cage}");
        assert_eq!(
            digits.iter().sum::<u32>() as u64,
            cage["sum"].as_u64().unwrap(),
            "{cage}"
        );
    }
}

fn strings(value: &Value) -> Vec<String> {
    serde_json::from_value(value.clone()).unwrap()
}

/// Cages of `width` cells along each row of `solution` (`side` a multiple of `width`), with
/// the sums the solution gives them.
fn row_cages(solution: &[String], width: usize) -> Value {
    let mut cages = Vec::new();
    for (r, row) in solution.iter().enumerate() {
        let digits: Vec<u32> = row.chars().map(digit).collect();
        for start in (0..digits.len()).step_by(width) {
            let cells: Vec<[usize; 2]> = (start..start + width).map(|c| [r, c]).collect();
            let sum: u32 = digits[start..start + width].iter().sum();
            cages.push(json!({"sum": sum, "cells": cells}));
        }
    }
    json!(cages)
}

fn killer_cages(seed: u64) -> Value {
    let killer = random_killer(seed);
    // Each cage's sum is that of its cells in the killer's solution.
    let digit = |i: usize| {
        let cell = Cell::new(i / 9, i % 9).unwrap();
        u32::from(killer.solution.get(cell).unwrap().get())
    };
    let cages: Vec<Value> = (killer.cages.iter())
        .map(|cells| {
            let sum: u32 = cells.iter().map(|&i| digit(i)).sum();
            let cells: Vec<[usize; 2]> = cells.iter().map(|&i| [i / 9, i % 9]).collect();
            json!({"sum": sum, "cells": cells})
        })
        .collect();
    json!(cages)
}

#[tokio::test]
async fn other_sizes_solve_in_both_forms() {
    let server = TestServer::start().await;
    let body = ok_json(
        post(
            &server,
            "/solve",
            json!({"board": ["1...", "..3.", ".4..", "...2"]}),
        )
        .await,
    )
    .await;
    assert_eq!(body["solution"], json!(["1324", "4231", "2413", "3142"]));
    assert_eq!(body["unique"], true);
    let body = ok_json(post(&server, "/solve", json!({"board": "1.....3..4.....2"})).await).await;
    assert_eq!(body["solution"], "1324423124133142");

    // 6x6 (boxes 2 rows x 3 columns), 16x16 and 25x25 from empty grids, then 25x25 again from
    // half of that solution's cells, in the one-line form.
    for side in [6usize, 16, 25] {
        let board = vec![".".repeat(side); side];
        let body = ok_json(post(&server, "/solve", json!({ "board": board })).await).await;
        assert_eq!(body["unique"], false);
        let solution = strings(&body["solution"]);
        assert_obeys(&board, &solution, &Value::Null);
        if side == 25 {
            let line: String = solution
                .concat()
                .chars()
                .enumerate()
                .map(|(i, ch)| if i % 2 == 0 { ch } else { '.' })
                .collect();
            let body = ok_json(post(&server, "/solve", json!({ "board": line })).await).await;
            let rows: Vec<String> = line
                .as_bytes()
                .chunks(25)
                .map(|r| String::from_utf8(r.to_vec()).unwrap())
                .collect();
            let answer = body["solution"].as_str().unwrap();
            assert_eq!(answer.len(), 625);
            let answer_rows: Vec<String> = answer
                .as_bytes()
                .chunks(25)
                .map(|r| String::from_utf8(r.to_vec()).unwrap())
                .collect();
            assert_obeys(&rows, &answer_rows, &Value::Null);
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn killer_without_givens_solves_to_the_cage_sums() {
    let server = TestServer::start().await;
    let killer = random_killer(1);
    let cages = killer_cages(1);
    let board = vec![".".repeat(9); 9];
    let body =
        ok_json(post(&server, "/solve", json!({"board": board, "cages": cages})).await).await;
    assert_eq!(body["unique"], true);
    assert_eq!(body["solution"], json!(killer.solution.to_rows()));
    let solution = strings(&body["solution"]);
    assert_obeys(&board, &solution, &cages);

    let verdict = |board: Vec<String>| {
        let (server, cages) = (&server, &cages);
        async move {
            ok_json(post(server, "/validate", json!({"board": board, "cages": cages})).await).await
        }
    };
    let body = verdict(solution.clone()).await;
    assert_eq!(
        (&body["solved"], &body["solutions"]),
        (&json!(true), &json!(1))
    );
    // Swapping every 1 with every 9 keeps every row, column and box valid but breaks the sums.
    let swapped: Vec<String> = solution
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| match c {
                    '1' => '9',
                    '9' => '1',
                    other => other,
                })
                .collect()
        })
        .collect();
    let body = verdict(swapped).await;
    assert_eq!(
        (
            &body["valid"],
            &body["complete"],
            &body["solved"],
            &body["solutions"]
        ),
        (&json!(true), &json!(true), &json!(false), &json!(0)),
        "{body}"
    );
    // Two entries that repeat nothing but overfill their cage: no completion is left.
    let first = &cages[0];
    let cells: Vec<(usize, usize)> = serde_json::from_value(first["cells"].clone()).unwrap();
    let mut partial = vec![".".repeat(9); 9];
    let sum = first["sum"].as_u64().unwrap();
    let (a, b) = (cells[0], cells[1]);
    let (da, db) = if sum <= 10 { (8, 9) } else { (1, 2) };
    for ((r, c), d) in [(a, da), (b, db)] {
        partial[r].replace_range(c..c + 1, &d.to_string());
    }
    let body = verdict(partial).await;
    assert_eq!(
        (&body["valid"], &body["solutions"]),
        (&json!(true), &json!(0)),
        "{body}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn cages_work_on_other_sizes() {
    let server = TestServer::start().await;
    for (side, width) in [(4usize, 2usize), (6, 3), (6, 2)] {
        let empty = vec![".".repeat(side); side];
        let full = ok_json(post(&server, "/solve", json!({ "board": empty })).await).await;
        let cages = row_cages(&strings(&full["solution"]), width);
        let body =
            ok_json(post(&server, "/solve", json!({"board": empty, "cages": cages})).await).await;
        assert_obeys(&empty, &strings(&body["solution"]), &cages);
    }
    // A 6x6 pair makes at most 5 + 6.
    let response = post(
        &server,
        "/solve",
        json!({"board": vec!["......"; 6], "cages": [{"sum": 12, "cells": [[0, 0], [0, 1]]}]}),
    )
    .await;
    let body = expect_problem(response, 422, "invalid-cages").await;
    assert_eq!(
        body["detail"],
        "cage 1: 2 distinct digits cannot sum to 12 (possible sums are 3-11)"
    );
    server.shutdown().await;
}

/// An empty 16x16 board whose cages are runs of four cells along the rows: cheap to send,
/// expensive to search (the general engine needs well over 100,000 guesses).
async fn expensive_killer(server: &TestServer) -> Value {
    let empty = vec![".".repeat(16); 16];
    let full = ok_json(post(server, "/solve", json!({ "board": empty })).await).await;
    json!({"board": empty, "cages": row_cages(&strings(&full["solution"]), 4)})
}

#[tokio::test]
async fn an_expensive_killer_runs_out_of_budget_or_time() {
    // The body's cages come from a full grid that a default server solves (an empty 16x16
    // takes more than the stingy server's budget).
    let ample = TestServer::start().await;
    let body = expensive_killer(&ample).await;
    ample.shutdown().await;
    let stingy = TestServer::with(ServeArgs {
        work_budget: 1_000,
        ..ServeArgs::default()
    })
    .await;
    for path in ["/solve", "/validate"] {
        let problem = expect_problem(
            post(&stingy, path, body.clone()).await,
            422,
            "budget-exhausted",
        )
        .await;
        assert!(problem["work"].as_u64().unwrap() > 1_000, "{problem}");
    }
    stingy.shutdown().await;

    // Past its time limit: forty 7-cell cages on an empty 25x25 board, which no build
    // finishes in minutes (a release build was still searching after 120 s), against a
    // limit of one second, so the answer cannot come from a search that ended in time.
    let hasty = TestServer::with(ServeArgs {
        request_timeout_ms: 1_000,
        work_budget: u64::MAX,
        ..ServeArgs::default()
    })
    .await;
    let response = post(&hasty, "/solve", forty_big_cages()).await;
    expect_problem(response, 503, "timeout").await;
    wait_for("the killer solve ends", || async {
        hasty.metric("solves_in_flight").await == 0.0
    })
    .await;
    hasty.shutdown().await;
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
        let response = post(&server, "/solve", json!({"board": empty, "cages": cages})).await;
        let status = response.status();
        let body: Value = response.json().await.unwrap();
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["type"], format!("urn:sudoku-service:problem:{kind}"));
        assert!(body["detail"].as_str().unwrap().contains(phrase), "{body}");
    }
    let response = post(
        &server,
        "/solve",
        json!({"board": ["1...", "..3.", ".4..", "...5"]}),
    )
    .await;
    let body = expect_problem(response, 422, "invalid-board").await;
    assert_eq!(
        body["detail"],
        "board: row 4, column 4: digit 5 ('5') is too large for a 4x4 grid (1-4)"
    );
    let response = post(
        &server,
        "/solve",
        json!({"board": ["11..", "..3.", ".4..", "...2"]}),
    )
    .await;
    let body = expect_problem(response, 422, "conflicting-givens").await;
    assert_eq!(
        body["conflicts"][0]["cells"],
        json!([{"row": 0, "col": 0}, {"row": 0, "col": 1}])
    );
    let cage = json!([{"sum": 3, "cells": [[0, 0], [0, 1]]}]);
    let four = vec![".".repeat(4); 4];
    let response = post(&server, "/grade", json!({"board": four, "cages": cage})).await;
    let body = expect_problem(response, 422, "unsupported").await;
    assert_eq!(
        body["detail"],
        "grading covers 9x9 puzzles of houses and sums (rows, columns, boxes or Jigsaw regions, \
         diagonals, windows, disjoint groups, Killer cages with sums); this one is 4x4 \
         Killer; /solve, /validate, /hint and /candidates take every size and rule set"
    );
    assert_eq!(body["pointer"], "/board", "the size is the reason");
    // On a 9x9 board the pointer names the rule grading does not take: a thermometer beside
    // Killer cages, or the one cage without a sum.
    let nine = vec![".".repeat(9); 9];
    let summed = json!({"sum": 3, "cells": [[0, 0], [0, 1]]});
    let sumless = json!({"cells": [[4, 4], [4, 5]]});
    for (rules, pointer) in [
        (
            json!({"cages": [summed], "thermometers": [{"cells": [[8, 0], [8, 1]]}]}),
            "/thermometers",
        ),
        (json!({"cages": [summed, sumless]}), "/cages/1"),
        (json!({"diagonals": true, "anti_king": true}), "/anti_king"),
    ] {
        let mut body = rules.clone();
        body["board"] = json!(nine);
        let response = post(&server, "/v1/grade", body).await;
        let problem = expect_problem(response, 422, "unsupported").await;
        assert_eq!(problem["pointer"], pointer, "{rules}: {problem}");
    }
    server.shutdown().await;
}

/// A 25x25 board with forty 7-cell cages (sums read off a valid grid): a few kilobytes that
/// could hold a core for minutes before the work budget existed.
fn forty_big_cages() -> Value {
    let (side, width) = (25usize, 7usize);
    // The shifted-rows pattern is a valid 25x25 grid (5x5 boxes).
    let digit = |r: usize, c: usize| ((5 * (r % 5) + r / 5 + c) % side + 1) as u32;
    let mut cages = Vec::new();
    'rows: for r in 0..side {
        for start in (0..=side - width).step_by(width) {
            let cells: Vec<[usize; 2]> = (start..start + width).map(|c| [r, c]).collect();
            let sum: u32 = cells.iter().map(|&[r, c]| digit(r, c)).sum();
            cages.push(json!({"sum": sum, "cells": cells}));
            if cages.len() == 40 {
                break 'rows;
            }
        }
    }
    json!({"board": vec![".".repeat(side); side], "cages": cages})
}

#[tokio::test]
async fn an_expensive_body_is_bounded_by_default_and_leaves_nothing_running() {
    // The default work budget, and a time limit far beyond it: the work budget alone must
    // end each search (a loaded debug build can take longer than the default 10 s for it).
    let server = TestServer::with(ServeArgs {
        request_timeout_ms: 3_600_000,
        ..ServeArgs::default()
    })
    .await;
    let body = forty_big_cages();
    assert!(body.to_string().len() < 5_000);
    for path in ["/solve", "/validate", "/hint", "/candidates"] {
        let response = post(&server, path, body.clone()).await;
        let status = response.status().as_u16();
        let answer: Value = response.json().await.unwrap();
        // Either answer is honest: solved within the budget, or a 422 that says it ran out
        // (a hint says `undecided`).
        assert!(
            status == 200 || answer["type"] == "urn:sudoku-service:problem:budget-exhausted",
            "{path} {status}: {answer}"
        );
        if path == "/hint" {
            assert!(
                ["undecided", "step", "guess"].contains(&answer["kind"].as_str().unwrap()),
                "{answer}"
            );
        }
        // The answer came when the work stopped: nothing is left running.
        assert_eq!(server.metric("solves_in_flight").await, 0.0);
        assert_eq!(server.metric("solves_queued").await, 0.0);
    }
    let hard = json!({"board": common::HARD});
    let answer = ok_json(post(&server, "/solve", hard).await).await;
    assert_eq!(answer["unique"], true);
    server.shutdown().await;
}

/// A 9x9 Jigsaw layout (the boxes with six pairs of equal digits traded between
/// neighbouring regions) and a grid that obeys it.
const JIGSAW: [&str; 9] = [
    "111222333",
    "111222363",
    "111222363",
    "444455663",
    "444555663",
    "445555669",
    "777888969",
    "777888999",
    "777888999",
];
const JIGSAW_SOLUTION: &str =
    "957348216134265879268197534729584163483612957615739428392456781871923645546871392";

/// The cells of each house of a 9x9 grid under the rule fields of `request`, computed here
/// without the engine: rows, columns, boxes or the Jigsaw regions, diagonals, windows.
fn houses_of(request: &Value) -> Vec<Vec<usize>> {
    let mut houses: Vec<Vec<usize>> = Vec::new();
    for i in 0..9 {
        houses.push((0..9).map(|j| i * 9 + j).collect());
        houses.push((0..9).map(|j| j * 9 + i).collect());
    }
    match request["regions"].as_array() {
        Some(rows) => {
            let labels: String = rows.iter().map(|r| r.as_str().unwrap()).collect();
            for label in "123456789".chars() {
                houses.push(
                    (0..81)
                        .filter(|&i| labels.as_bytes()[i] as char == label)
                        .collect(),
                );
            }
        }
        None => {
            for b in 0..9 {
                houses.push(
                    (0..9)
                        .map(|i| (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3)
                        .collect(),
                );
            }
        }
    }
    if request["diagonals"] == true {
        houses.push((0..9).map(|i| i * 9 + i).collect());
        houses.push((0..9).map(|i| i * 9 + 8 - i).collect());
    }
    if request["windows"] == true {
        for (r, c) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
            houses.push((0..9).map(|i| (r + i / 3) * 9 + c + i % 3).collect());
        }
    }
    houses
}

/// Asserts `solution` (81 digits) keeps `puzzle`'s givens and has every digit once in each
/// house of `request`'s rules.
fn assert_obeys_rules(request: &Value, puzzle: &str, solution: &str) {
    let digits = solution.as_bytes();
    assert_eq!(digits.len(), 81, "{solution}");
    for (i, given) in puzzle.bytes().enumerate() {
        if given != b'.' {
            assert_eq!(digits[i], given, "given at {i} changed");
        }
    }
    for house in houses_of(request) {
        let mut seen: Vec<u8> = house.iter().map(|&i| digits[i]).collect();
        seen.sort();
        assert_eq!(seen, b"123456789", "house {house:?} of {solution}");
    }
}

#[tokio::test]
async fn x_hyper_and_jigsaw_boards_solve_under_their_rules() {
    let server = TestServer::start().await;
    let jigsaw_puzzle: String = JIGSAW_SOLUTION
        .chars()
        .enumerate()
        .map(|(i, c)| if i % 3 == 0 || i % 7 == 0 { '.' } else { c })
        .collect();
    let empty = ".".repeat(81);
    let cases = [
        json!({"board": empty, "diagonals": true}),
        json!({"board": empty, "windows": true}),
        json!({"board": empty, "windows": true, "diagonals": true}),
        json!({"board": jigsaw_puzzle, "regions": JIGSAW}),
        json!({"board": empty, "regions": JIGSAW, "diagonals": true}),
    ];
    for request in cases {
        let body = ok_json(post(&server, "/solve", request.clone()).await).await;
        let puzzle = request["board"].as_str().unwrap();
        assert_obeys_rules(&request, puzzle, body["solution"].as_str().unwrap());
    }
    // The same board is a different puzzle under other rules: different ids.
    let classic = ok_json(post(&server, "/solve", json!({"board": empty})).await).await;
    let x = ok_json(
        post(
            &server,
            "/solve",
            json!({"board": empty, "diagonals": true}),
        )
        .await,
    )
    .await;
    assert_ne!(classic["id"], x["id"]);
    server.shutdown().await;
}

#[tokio::test]
async fn validate_names_the_diagonal_window_or_region_a_digit_repeats_in() {
    let server = TestServer::start().await;
    // Two 5s on the main diagonal, in different rows, columns and boxes.
    let mut cells = vec!['.'; 81];
    cells[0] = '5';
    cells[40] = '5';
    let board: String = cells.iter().collect();
    let classic = ok_json(post(&server, "/validate", json!({"board": board})).await).await;
    assert_eq!(classic["valid"], true);
    let x = ok_json(
        post(
            &server,
            "/validate",
            json!({"board": board, "diagonals": true}),
        )
        .await,
    )
    .await;
    assert_eq!(x["valid"], false);
    assert_eq!(x["conflicts"][0]["unit"], "diagonal");
    assert_eq!(x["conflicts"][0]["index"], 0);

    // r2c2 and r4c4 share the top-left window only.
    let mut cells = vec!['.'; 81];
    cells[10] = '7';
    cells[3 * 9 + 3] = '7';
    let board: String = cells.iter().collect();
    let hyper = ok_json(
        post(
            &server,
            "/validate",
            json!({"board": board, "windows": true}),
        )
        .await,
    )
    .await;
    assert_eq!(hyper["valid"], false);
    assert_eq!(hyper["conflicts"][0]["unit"], "window");

    // r2c7 and r4c9 share Jigsaw region 3, not a box.
    let mut cells = vec!['.'; 81];
    cells[9 + 6] = '4';
    cells[3 * 9 + 8] = '4';
    let board: String = cells.iter().collect();
    let jigsaw = ok_json(
        post(
            &server,
            "/validate",
            json!({"board": board, "regions": JIGSAW}),
        )
        .await,
    )
    .await;
    assert_eq!(jigsaw["valid"], false);
    assert_eq!(jigsaw["conflicts"][0]["unit"], "region");
    let boxes = ok_json(post(&server, "/validate", json!({"board": board})).await).await;
    assert_eq!(boxes["valid"], true);
    server.shutdown().await;
}

#[tokio::test]
async fn malformed_rules_are_422_problems_that_name_the_fault() {
    let server = TestServer::start().await;
    let empty = ".".repeat(81);
    let mut disconnected = JIGSAW.map(String::from);
    // Trade r1c1 (region 1) with r9c9 (region 9): both regions still have nine cells.
    disconnected[0].replace_range(0..1, "9");
    disconnected[8].replace_range(8..9, "1");
    let mut short = JIGSAW.map(String::from).to_vec();
    short.pop();
    let mut eight_labels = JIGSAW.map(String::from);
    eight_labels[8] = "777888888".into();
    let cases = [
        (
            json!({"board": empty, "regions": disconnected}),
            "invalid-regions",
            "/regions",
            "not orthogonally connected",
        ),
        (
            json!({"board": empty, "regions": short}),
            "invalid-regions",
            "/regions",
            "regions has 8 rows",
        ),
        (
            json!({"board": empty, "regions": eight_labels}),
            "invalid-regions",
            "/regions",
            "region \"9\" has 6 cells; every region needs 9",
        ),
        (
            json!({"board": ".".repeat(16), "windows": true}),
            "unsupported",
            "/windows",
            "windows (Hyper Sudoku) are defined for 9x9 boards",
        ),
    ];
    for (request, kind, pointer, says) in cases {
        let problem =
            expect_problem(post(&server, "/solve", request.clone()).await, 422, kind).await;
        assert_eq!(problem["pointer"], pointer, "{request}");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(says), "{detail}");
    }
    let problem = expect_problem(
        post(
            &server,
            "/solve",
            json!({"board": empty, "regions": disconnected}),
        )
        .await,
        422,
        "invalid-regions",
    )
    .await;
    assert_eq!(
        (problem["row"].clone(), problem["col"].clone()),
        (json!(5), json!(8))
    );

    // A misspelt rule is an error, never a classic solve.
    let problem = expect_problem(
        post(&server, "/solve", json!({"board": empty, "diagonal": true})).await,
        422,
        "invalid-request",
    )
    .await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("did you mean `diagonals`"),
        "{problem}"
    );

    // An empty Hyper board has many solutions: graded, it needs guessing and has no level.
    let response = post(&server, "/grade", json!({"board": empty, "windows": true})).await;
    assert_eq!(response.status(), 200);
    let grade: Value = response.json().await.unwrap();
    assert_eq!(
        (
            &grade["unique"],
            &grade["needs_guessing"],
            &grade["difficulty"]
        ),
        (&json!(false), &json!(true), &Value::Null),
        "{grade}"
    );
    server.shutdown().await;
}

/// The puzzle and rule fields of a `/generate` answer, as a request body.
fn as_request(made: &Value) -> Value {
    let mut request = json!({"board": made["board"]});
    for field in ["cages", "regions", "diagonals", "windows"] {
        if let Some(value) = made.get(field) {
            request[field] = value.clone();
        }
    }
    request
}

#[tokio::test]
async fn every_variant_is_generated_at_a_level_that_grade_confirms() {
    let server = TestServer::start().await;
    for variant in ["killer", "x", "hyper", "jigsaw"] {
        for (level, low, high) in [("easy", 1.0, 1.5), ("hard", 2.6, 4.0)] {
            let asked = json!({"variant": variant, "difficulty": level, "seed": 5});
            let made = ok_json(post(&server, "/generate", asked.clone()).await).await;
            assert_eq!(made["difficulty"], level, "{variant}: {made}");
            let rating = made["grade"]["rating"].as_f64().unwrap();
            assert!(
                (low..=high).contains(&rating),
                "{variant} {level}: {rating}"
            );
            assert_eq!(made["grade"]["needs_guessing"], false, "{variant}");
            // Our own /grade says the same of the puzzle as it came.
            let graded = ok_json(post(&server, "/grade", as_request(&made)).await).await;
            assert_eq!(
                graded["rating"], made["grade"]["rating"],
                "{variant} {level}"
            );
            assert_eq!(graded["difficulty"], level, "{variant}");
            assert_eq!(graded["unique"], true, "{variant}");
            assert_eq!(graded["id"], made["id"], "{variant}");
            let again = ok_json(post(&server, "/generate", asked).await).await;
            assert_eq!(again, made, "{variant} {level}: not reproducible");
        }
        // Killer puzzles of the easy levels need cage techniques, never guessing.
        if variant == "killer" {
            let made = ok_json(
                post(
                    &server,
                    "/generate",
                    json!({"variant": "killer", "difficulty": "medium", "seed": 2}),
                )
                .await,
            )
            .await;
            let counts = made["grade"]["counts"].as_object().unwrap();
            assert!(
                counts
                    .keys()
                    .any(|k| k.starts_with("cage_") || k == "rule_of_45"),
                "{made}"
            );
        }
    }
    // A rating range works as for classic puzzles.
    let made = ok_json(
        post(
            &server,
            "/generate",
            json!({"variant": "jigsaw", "rating": {"min": 3.0, "max": 4.5}, "seed": 1}),
        )
        .await,
    )
    .await;
    let rating = made["grade"]["rating"].as_f64().unwrap();
    assert!((3.0..=4.5).contains(&rating), "{rating}");
    server.shutdown().await;
}

#[tokio::test]
async fn generated_variants_post_back_to_solve_as_they_are() {
    let server = TestServer::start().await;
    for (variant, rule) in [
        ("killer", "cages"),
        ("x", "diagonals"),
        ("hyper", "windows"),
        ("jigsaw", "regions"),
    ] {
        for format in ["rows", "line"] {
            let asked =
                json!({"variant": variant, "seed": 12, "format": format, "symmetry": "rotational"});
            let made = ok_json(post(&server, "/generate", asked.clone()).await).await;
            assert_eq!(made["variant"], variant);
            assert!(made.get(rule).is_some(), "{variant}: no {rule} in {made}");
            assert!(made.get("difficulty").is_none() && made.get("grade").is_none());
            let again = ok_json(post(&server, "/generate", asked).await).await;
            assert_eq!(again, made, "{variant}: not reproducible");
            // The answer's puzzle and rule fields are a request /solve takes as they are.
            let mut request = json!({"board": made["board"]});
            for field in ["cages", "regions", "diagonals", "windows"] {
                if let Some(value) = made.get(field) {
                    request[field] = value.clone();
                }
            }
            let solved = ok_json(post(&server, "/solve", request.clone()).await).await;
            assert_eq!(solved["unique"], true, "{variant}");
            assert_eq!(solved["solution"], made["solution"], "{variant}");
            assert_eq!(solved["id"], made["id"], "{variant}");
            let line = |v: &Value| match v {
                Value::String(s) => s.clone(),
                other => strings(other).concat(),
            };
            let regions_rows;
            let checked = if variant == "jigsaw" {
                let labels = line(&made["regions"]);
                regions_rows = (0..9)
                    .map(|r| labels[r * 9..r * 9 + 9].to_string())
                    .collect::<Vec<_>>();
                json!({"regions": regions_rows})
            } else {
                request.clone()
            };
            assert_obeys_rules(&checked, &line(&made["board"]), &line(&made["solution"]));
            if variant != "killer" {
                let puzzle = line(&made["board"]);
                let cells = puzzle.as_bytes();
                for i in 0..81 {
                    assert_eq!(
                        cells[i] == b'.',
                        cells[80 - i] == b'.',
                        "{variant}: not symmetric"
                    );
                }
            }
        }
    }
    let response = post(
        &server,
        "/generate",
        json!({"variant": "x", "difficulty": "tricky"}),
    )
    .await;
    let problem = expect_problem(response, 422, "invalid-request").await;
    assert_eq!(problem["pointer"], "/difficulty");
    let response = post(&server, "/generate", json!({"variant": "sudoku-x"})).await;
    let problem = expect_problem(response, 422, "invalid-request").await;
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .contains("classic, killer, x, hyper, jigsaw"));
    server.shutdown().await;
}

#[tokio::test]
async fn candidates_follow_every_rule_set() {
    let server = TestServer::start().await;
    // A Killer cage of 3 over r1c1-r1c2 leaves {1, 2}; a 5 on the diagonal leaves r9c9.
    let mut cells = vec!['.'; 81];
    cells[40] = '5';
    let board: String = cells.iter().collect();
    let request = json!({
        "board": board,
        "diagonals": true,
        "cages": [{"sum": 3, "cells": [[0, 0], [0, 1]]}],
        "techniques": true,
    });
    let body = ok_json(post(&server, "/candidates", request.clone()).await).await;
    assert_eq!(body["candidates"][0][0], json!([1, 2]));
    assert_eq!(body["candidates"][0][1], json!([1, 2]));
    assert_eq!(body["candidates"][4][4], json!([]));
    assert_eq!(
        body["techniques"], true,
        "the logic engine's marks for 9x9 variants"
    );
    // The cage's 1 and 2 are a naked pair of row 1 and box 1: they leave the rest of both.
    // (r1c3 is on no diagonal, so the centre's 5 stays; r2c2 is on the main one.)
    assert_eq!(
        body["candidates"][0][2],
        json!([3, 4, 5, 6, 7, 8, 9]),
        "{body}"
    );
    assert_eq!(
        body["candidates"][1][1],
        json!([3, 4, 6, 7, 8, 9]),
        "{body}"
    );
    let mut basic = request;
    basic["techniques"] = json!(false);
    let body = ok_json(post(&server, "/candidates", basic).await).await;
    assert_eq!(body["techniques"], false);
    assert_eq!(body["candidates"][0][2], json!([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert_eq!(body["candidates"][8][8], json!([1, 2, 3, 4, 6, 7, 8, 9]));
    // Jigsaw: r2c7 and r4c9 share region 3 (not a box): a 4 in one leaves the other.
    let mut cells = vec!['.'; 81];
    cells[9 + 6] = '4';
    let board: String = cells.iter().collect();
    let body = ok_json(
        post(
            &server,
            "/candidates",
            json!({"board": board, "regions": JIGSAW}),
        )
        .await,
    )
    .await;
    assert!(!body["candidates"][3][8]
        .as_array()
        .unwrap()
        .contains(&json!(4)));
    let boxes = ok_json(post(&server, "/candidates", json!({"board": board})).await).await;
    assert!(boxes["candidates"][3][8]
        .as_array()
        .unwrap()
        .contains(&json!(4)));
    // Other sizes too.
    let four = ok_json(
        post(
            &server,
            "/candidates",
            json!({"board": ["1...", "..3.", ".4..", "...2"]}),
        )
        .await,
    )
    .await;
    assert_eq!(four["candidates"][0][1], json!([2, 3]));
    server.shutdown().await;
}

/// A one-cell cage holds its sum: the techniques place it, and the marks show that digit
/// (not the empty marks of a filled cell), so a page drawing them shows a solvable puzzle.
#[tokio::test]
async fn a_one_cell_cage_keeps_its_digit_in_the_marks() {
    let server = TestServer::start().await;
    for techniques in [false, true] {
        let body = ok_json(
            post(
                &server,
                "/candidates",
                json!({
                    "board": ".".repeat(81),
                    "cages": [{"sum": 3, "cells": [[1, 0]]}],
                    "techniques": techniques,
                }),
            )
            .await,
        )
        .await;
        assert_eq!(
            body["candidates"][1][0],
            json!([3]),
            "techniques {techniques}"
        );
        // The techniques know the 3 is there, so it leaves the rest of row 2; the basic
        // marks remove only placed digits.
        let peer = body["candidates"][1][1].as_array().unwrap();
        assert_eq!(peer.contains(&json!(3)), !techniques, "{body}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn hints_work_for_every_variant() {
    let server = TestServer::start().await;
    for variant in ["killer", "x", "hyper", "jigsaw"] {
        let made = ok_json(
            post(
                &server,
                "/generate",
                json!({"variant": variant, "seed": 30, "format": "line"}),
            )
            .await,
        )
        .await;
        let mut request = json!({"board": made["board"]});
        for field in ["cages", "regions", "diagonals", "windows"] {
            if let Some(value) = made.get(field) {
                request[field] = value.clone();
            }
        }
        let solution = made["solution"].as_str().unwrap().as_bytes().to_vec();
        let hint = ok_json(post(&server, "/hint", request.clone()).await).await;
        let placed = match hint["kind"].as_str().unwrap() {
            "step" => hint["step"]["placements"][0].clone(),
            "guess" => {
                json!({"row": hint["cell"]["row"], "col": hint["cell"]["col"], "digit": hint["digit"]})
            }
            other => panic!("{variant}: {other}: {hint}"),
        };
        let at = (placed["row"].as_u64().unwrap() * 9 + placed["col"].as_u64().unwrap()) as usize;
        assert_eq!(
            u64::from(solution[at] - b'0'),
            placed["digit"].as_u64().unwrap(),
            "{variant}"
        );
        assert_eq!(hint["id"], made["id"], "{variant}");

        // A wrong entry that repeats nothing is named when the givens are sent.
        let puzzle = made["board"].as_str().unwrap();
        let mut named = false;
        for empty in puzzle.match_indices('.').map(|(i, _)| i) {
            for d in (1..=9u8).filter(|&d| b'0' + d != solution[empty]) {
                let mut board: Vec<u8> = puzzle.bytes().collect();
                board[empty] = b'0' + d;
                let mut probe = request.clone();
                probe["board"] = json!(String::from_utf8(board).unwrap());
                let verdict = ok_json(post(&server, "/validate", probe.clone()).await).await;
                if verdict["valid"] != true {
                    continue;
                }
                probe["givens"] = json!(puzzle);
                probe["spoiler"] = json!(true);
                let hint = ok_json(post(&server, "/hint", probe).await).await;
                assert_eq!(hint["kind"], "mistake", "{variant}: {hint}");
                assert_eq!(hint["cell"], json!({"row": empty / 9, "col": empty % 9}));
                assert_eq!(hint["entered"], d);
                assert_eq!(hint["solution_digit"], solution[empty] - b'0');
                named = true;
                break;
            }
            if named {
                break;
            }
        }
        assert!(named, "{variant}: no clash-free wrong entry found");
    }
    server.shutdown().await;
}

/// A range above anything a generator has produced is refused at once, with the range it
/// does reach, not searched for until the budget (or the request's time) runs out.
#[tokio::test]
async fn unreachable_ratings_are_refused_at_once_with_the_supported_range() {
    let server = TestServer::start().await;
    let problem = expect_problem(
        post(
            &server,
            "/generate",
            json!({"variant": "killer", "rating": {"min": 12}, "seed": 1}),
        )
        .await,
        422,
        "unsupported",
    )
    .await;
    assert_eq!(problem["pointer"], "/rating");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("killer puzzles are generated up to rating"),
        "{detail}"
    );
    assert!(detail.contains("12.0 or more"), "{detail}");
    let response = client()
        .get(server.url("/generate?variant=killer&rating=20"))
        .send()
        .await
        .unwrap();
    expect_problem(response, 422, "unsupported").await;
    // Nothing ran for either.
    assert_eq!(server.metric("solve_duration_seconds_count").await, 0.0);
    server.shutdown().await;
}

#[tokio::test]
async fn anti_king_boards_solve_and_validate_by_the_rule() {
    let server = TestServer::start().await;
    let empty = vec![".".repeat(6); 6];
    let body = ok_json(
        post(
            &server,
            "/solve",
            json!({"board": empty, "anti_king": true}),
        )
        .await,
    )
    .await;
    let rows = strings(&body["solution"]);
    assert_obeys(&empty, &rows, &Value::Null);
    let grid: Vec<Vec<u32>> = rows
        .iter()
        .map(|r| r.chars().map(digit).collect())
        .collect();
    for r in 0..5 {
        for c in 0..6usize {
            let below = [c.checked_sub(1), Some(c + 1).filter(|&n| n < 6)];
            for n in below.into_iter().flatten() {
                assert_ne!(grid[r][c], grid[r + 1][n], "a king's move at r{r}c{c}");
            }
        }
    }
    // The same board without the rule is another puzzle.
    let classic = ok_json(post(&server, "/solve", json!({ "board": empty })).await).await;
    assert_ne!(classic["id"], body["id"]);
    // The logic engine reasons over houses only: no grade, said so.
    let nine = ".".repeat(81);
    expect_problem(
        post(&server, "/grade", json!({"board": nine, "anti_king": true})).await,
        422,
        "unsupported",
    )
    .await;

    // Two 5s a king's move apart, in different rows, columns and boxes.
    let board = json!(["..5...", "...5..", "......", "......", "......", "......"]);
    let plain = ok_json(post(&server, "/validate", json!({ "board": board })).await).await;
    assert_eq!(plain["valid"], true);
    let checked = ok_json(
        post(
            &server,
            "/validate",
            json!({"board": board, "anti_king": true}),
        )
        .await,
    )
    .await;
    assert_eq!(checked["valid"], false);
    assert_eq!(
        checked["conflicts"],
        json!([{"unit": "anti_king", "index": 0, "digit": 5,
                "cells": [{"row": 0, "col": 2}, {"row": 1, "col": 3}]}])
    );
    server.shutdown().await;
}
