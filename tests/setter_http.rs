//! The setter families over TCP (arrows, little killers, sandwiches, X-sums, skyscrapers,
//! between lines, region-sum lines, quadruples, minimum and maximum cells, clones, cages
//! without a sum, one diagonal): for each native field, a puzzle whose clues are read off a
//! known grid solves back to that grid, uniquely, and the same body as f-puzzles (through
//! `POST /v1/fpuzzles`) solves the same; a board that breaks the instance is a conflict
//! named by its unit; `/candidates` and `/hint` answer; malformed instances are specific
//! problems with pointers.

mod common;

use common::{expect_problem, ok_json, post, TestServer};
use serde_json::{json, Value};

/// A solved grid the clues below are read from.
const GRID: &str =
    "957348216134265879268197534729584163483612957615739428392456781871923645546871392";

fn digit(r: usize, c: usize) -> u32 {
    GRID.as_bytes()[r * 9 + c] as u32 - u32::from(b'0')
}

/// One case: the rule fields, and a few cells (row, col, digit) that break them on an
/// otherwise empty board, with the unit that names the break.
struct Case {
    rules: Value,
    broken: &'static [(usize, usize, u32)],
    unit: &'static str,
}

/// Every family's instance, its clue read off [`GRID`].
fn cases() -> Vec<Case> {
    // Row 0: 9 5 7 3 4 8 2 1 6. The 1 is at column 7 and the 9 at column 0.
    let sandwich: u32 = (1..7).map(|c| digit(0, c)).sum();
    // Column 2 from the bottom: 6 1 2 5 3 9 8 4 7; the first digit is 6.
    let x_sum: u32 = (0..6).map(|k| digit(8 - k, 2)).sum();
    let diagonal: u32 = (0..9).map(|k| digit(k, k)).sum();
    vec![
        Case {
            // 9 = 5 + 4.
            rules: json!({"arrows": [{"circle": [[0, 0]], "lines": [[[0, 1], [1, 2]]]}]}),
            broken: &[(0, 0, 2), (0, 1, 5)],
            unit: "arrow",
        },
        Case {
            rules: json!({"little_killers": [
                {"start": [0, 0], "direction": "down-right", "sum": diagonal},
                {"start": [0, 7], "direction": "down-right", "sum": digit(0, 7) + digit(1, 8)}
            ]}),
            broken: &[(0, 7, 8), (1, 8, 9)],
            unit: "little_killer",
        },
        Case {
            // Column 0 starts 9, 1: no sandwich.
            rules: json!({"sandwiches": [{"side": "left", "index": 0, "sum": sandwich},
                                         {"side": "top", "index": 0, "sum": 0}]}),
            broken: &[(0, 0, 1), (2, 0, 9)],
            unit: "sandwich",
        },
        Case {
            rules: json!({"x_sums": [{"side": "bottom", "index": 2, "sum": x_sum}]}),
            broken: &[(8, 2, 2), (7, 2, 9)],
            unit: "x_sum",
        },
        Case {
            // Column 0 from the top: 9 first, one building seen.
            rules: json!({"skyscrapers": [{"side": "top", "index": 0, "count": 1}]}),
            broken: &[(0, 0, 1)],
            unit: "skyscraper",
        },
        Case {
            // 3, 4, 8 across row 0: 4 lies between.
            rules: json!({"between_lines": [{"cells": [[0, 3], [0, 4], [0, 5]]}]}),
            broken: &[(0, 3, 3), (0, 4, 9)],
            unit: "between_line",
        },
        Case {
            // 7 in box 1 of row 0, 3 + 4 in box 2.
            rules: json!({"region_sum_lines": [{"cells": [[0, 2], [0, 3], [0, 4]]}]}),
            broken: &[(0, 2, 9), (0, 3, 1), (0, 4, 2)],
            unit: "region_sum_line",
        },
        Case {
            rules: json!({"quadruples": [{"cells": [[0, 0], [0, 1], [1, 0], [1, 1]], "digits": [1, 9]}]}),
            broken: &[(0, 0, 2), (0, 1, 3), (1, 0, 4), (1, 1, 5)],
            unit: "quadruple",
        },
        Case {
            // r5c5 is 1, r1c1 is 9.
            rules: json!({"minimum": [[4, 4]], "maximum": [[0, 0]]}),
            broken: &[(4, 4, 5), (4, 3, 2)],
            unit: "minimum",
        },
        Case {
            // 9 and 5 again at r2c9 and r3c7.
            rules: json!({"clones": [{"cells": [[0, 0], [0, 1]], "copy": [[1, 8], [2, 6]]}]}),
            broken: &[(0, 0, 9), (1, 8, 8)],
            unit: "clone",
        },
        Case {
            // A cage's neighbours share a line and a box too: the repeat breaks all three.
            rules: json!({"cages": [{"cells": [[3, 4], [4, 4], [4, 5]]}]}),
            broken: &[(3, 4, 5), (4, 4, 5)],
            unit: "cage",
        },
    ]
}

/// `rules` with `board` beside them.
fn with(board: &str, rules: &Value) -> Value {
    let mut body = rules.as_object().cloned().unwrap();
    body.insert("board".into(), json!(board));
    Value::Object(body)
}

/// [`GRID`] with every third cell empty: the puzzle each case solves.
fn puzzle() -> String {
    (GRID.chars().enumerate())
        .map(|(i, d)| if i % 3 == 1 { '.' } else { d })
        .collect()
}

/// An empty board with `cells` filled in.
fn board_with(cells: &[(usize, usize, u32)]) -> String {
    let mut board = vec!['.'; 81];
    for &(r, c, d) in cells {
        board[r * 9 + c] = char::from_digit(d, 10).unwrap();
    }
    board.into_iter().collect()
}

#[tokio::test]
async fn every_family_solves_validates_marks_and_hints() {
    let server = TestServer::start().await;
    for case in cases() {
        let what = &case.rules;
        let response = post(&server, "/v1/solve", with(&puzzle(), what)).await;
        assert_eq!(response.status(), 200, "{what}");
        let body = ok_json(response).await;
        assert_eq!(body["solution"], GRID, "{what}");
        assert_eq!(body["unique"], true, "{what}");
        // The whole grid keeps the rules; the breaking cells are named by their unit.
        let verdict = ok_json(post(&server, "/v1/validate", with(GRID, what)).await).await;
        assert_eq!(verdict["solved"], true, "{what}: {verdict}");
        let broken = board_with(case.broken);
        let verdict = ok_json(post(&server, "/v1/validate", with(&broken, what)).await).await;
        let units: Vec<&str> = (verdict["conflicts"].as_array().unwrap().iter())
            .map(|c| c["unit"].as_str().unwrap())
            .collect();
        assert!(units.contains(&case.unit), "{what}: {verdict}");
        assert!(
            units
                .iter()
                .all(|u| *u == case.unit || ["row", "column", "box"].contains(u)),
            "{what}: {verdict}"
        );
        // Marks and hints answer on the puzzle.
        let marks = ok_json(post(&server, "/v1/candidates", with(&puzzle(), what)).await).await;
        assert_eq!(marks["candidates"].as_array().unwrap().len(), 9, "{what}");
        let hint = ok_json(post(&server, "/v1/hint", with(&puzzle(), what)).await).await;
        assert!(
            ["step", "guess"].contains(&hint["kind"].as_str().unwrap()),
            "{what}: {hint}"
        );
        // The same puzzle as f-puzzles solves the same.
        let converted = ok_json(post(&server, "/v1/fpuzzles", with(&puzzle(), what)).await).await;
        let body = ok_json(
            post(
                &server,
                "/v1/solve",
                json!({"fpuzzles": converted["compressed"]}),
            )
            .await,
        )
        .await;
        assert_eq!(body["solution"], json!(rows_of(GRID)), "{what}: {body}");
    }
}

/// A line of 81 digits as number rows (the form f-puzzles bodies answer in).
fn rows_of(line: &str) -> Vec<Vec<u32>> {
    (0..9)
        .map(|r| {
            (0..9)
                .map(|c| line.as_bytes()[r * 9 + c] as u32 - 48)
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn the_families_narrow_the_pencil_marks() {
    let server = TestServer::start().await;
    let empty = ".".repeat(81);
    // A sandwich of every middle digit puts the crusts at the ends.
    let rules = json!({"sandwiches": [{"side": "left", "index": 3, "sum": 35}]});
    let marks = ok_json(post(&server, "/v1/candidates", with(&empty, &rules)).await).await;
    assert_eq!(marks["candidates"][3][0], json!([1, 9]));
    assert_eq!(marks["candidates"][3][8], json!([1, 9]));
    // A circle adding up two cells is at least 3; a 2-cell pill on three cells at most 27.
    let rules = json!({"arrows": [
        {"circle": [[0, 0]], "lines": [[[0, 1], [0, 2]]]},
        {"circle": [[8, 7], [8, 8]], "lines": [[[7, 6], [6, 5], [5, 4]]]}
    ]});
    let marks = ok_json(post(&server, "/v1/candidates", with(&empty, &rules)).await).await;
    // (Its two cells share a box: distinct digits, at least 1 + 2.)
    assert_eq!(marks["candidates"][0][0], json!([3, 4, 5, 6, 7, 8, 9]));
    assert_eq!(marks["candidates"][8][7], json!([1, 2]));
    // A skyscraper clue of 9 sees 1 to 9 in order.
    let rules = json!({"skyscrapers": [{"side": "right", "index": 2, "count": 9}]});
    let marks = ok_json(post(&server, "/v1/candidates", with(&empty, &rules)).await).await;
    assert_eq!(marks["candidates"][2][8], json!([1]));
    // The logic engine grades none of these: said so.
    expect_problem(
        post(&server, "/v1/grade", with(&empty, &rules)).await,
        422,
        "unsupported",
    )
    .await;
}

#[tokio::test]
async fn malformed_instances_are_named_problems_with_pointers() {
    let server = TestServer::start().await;
    let empty = ".".repeat(81);
    for (rules, kind, pointer) in [
        (
            json!({"arrows": [{"circle": [[0, 0]], "lines": [[[0, 2]]]}]}),
            "invalid-arrows",
            "/arrows/0/lines/0/0",
        ),
        (
            json!({"little_killers": [{"start": [4, 4], "direction": "up-left", "sum": 9}]}),
            "invalid-little-killers",
            "/little_killers/0/start",
        ),
        (
            json!({"sandwiches": [{"side": "top", "index": 9, "sum": 3}]}),
            "invalid-sandwiches",
            "/sandwiches/0/index",
        ),
        (
            json!({"x_sums": [{"side": "left", "index": 0, "sum": 46}]}),
            "invalid-x-sums",
            "/x_sums/0/sum",
        ),
        (
            json!({"skyscrapers": [{"side": "left", "index": 0, "count": 0}]}),
            "invalid-skyscrapers",
            "/skyscrapers/0/count",
        ),
        (
            json!({"between_lines": [{"cells": [[0, 0], [0, 1]]}]}),
            "invalid-between-lines",
            "/between_lines/0/cells",
        ),
        (
            json!({"region_sum_lines": [{"cells": [[0, 0], [2, 2]]}]}),
            "invalid-region-sum-lines",
            "/region_sum_lines/0/cells/1",
        ),
        (
            json!({"quadruples": [{"cells": [[0, 0], [0, 1], [1, 0], [1, 1]], "digits": [10]}]}),
            "invalid-quadruples",
            "/quadruples/0/digits/0",
        ),
        (
            json!({"minimum": [[0, 0]], "maximum": [[0, 0]]}),
            "invalid-extremes",
            "/maximum/0",
        ),
        (
            json!({"clones": [{"cells": [[0, 0]], "copy": []}]}),
            "invalid-clones",
            "/clones/0/copy",
        ),
    ] {
        let problem = expect_problem(
            post(&server, "/v1/solve", with(&empty, &rules)).await,
            422,
            kind,
        )
        .await;
        assert_eq!(problem["pointer"], pointer, "{problem}");
    }
    // One diagonal alone is a house of its own index (1 for the anti-diagonal).
    let broken = board_with(&[(0, 8, 6), (8, 0, 6)]);
    let rules = json!({"diagonals": "anti"});
    let verdict = ok_json(post(&server, "/v1/validate", with(&broken, &rules)).await).await;
    assert_eq!(verdict["conflicts"][0]["unit"], "diagonal");
    assert_eq!(verdict["conflicts"][0]["index"], 1);
    let rules = json!({"diagonals": "main"});
    let verdict = ok_json(post(&server, "/v1/validate", with(&broken, &rules)).await).await;
    assert_eq!(verdict["conflicts"], json!([]), "{verdict}");
    let problem = expect_problem(
        post(
            &server,
            "/v1/solve",
            json!({"board": empty, "diagonals": "both"}),
        )
        .await,
        422,
        "invalid-request",
    )
    .await;
    assert!(
        problem["detail"].as_str().unwrap().contains("\"anti\""),
        "{problem}"
    );
}

#[tokio::test]
async fn the_rectangular_sizes_of_f_puzzles_solve() {
    let server = TestServer::start().await;
    for (side, box_rows, box_cols) in [(8, 2, 4), (10, 2, 5), (12, 3, 4)] {
        let empty = vec![".".repeat(side); side];
        let body = ok_json(post(&server, "/v1/solve", json!({"board": empty})).await).await;
        let rows: Vec<Vec<char>> = (body["solution"].as_array().unwrap().iter())
            .map(|row| row.as_str().unwrap().chars().collect())
            .collect();
        // Every row, column and box of box_rows x box_cols holds each digit once.
        let digits = |cells: Vec<(usize, usize)>| {
            let mut seen: Vec<char> = cells.into_iter().map(|(r, c)| rows[r][c]).collect();
            seen.sort_unstable();
            seen.dedup();
            seen.len()
        };
        for i in 0..side {
            assert_eq!(
                digits((0..side).map(|c| (i, c)).collect()),
                side,
                "{side}: row {i}"
            );
            assert_eq!(
                digits((0..side).map(|r| (r, i)).collect()),
                side,
                "{side}: col {i}"
            );
            let (top, left) = (
                (i / (side / box_cols)) * box_rows,
                (i % (side / box_cols)) * box_cols,
            );
            let cells = (0..side)
                .map(|k| (top + k / box_cols, left + k % box_cols))
                .collect();
            assert_eq!(digits(cells), side, "{side}: box {i}");
        }
        // The same size from f-puzzles, with a sandwich on its first row.
        let grid = vec![vec![json!({}); side]; side];
        let puzzle =
            json!({"size": side, "grid": grid, "sandwichsum": [{"cell": "R1C0", "value": "0"}]});
        let body = ok_json(post(&server, "/v1/solve", json!({"fpuzzles": puzzle})).await).await;
        let first = body["solution"][0].as_array().unwrap();
        let at = |d: u64| first.iter().position(|x| x == d).unwrap();
        assert_eq!(at(1).abs_diff(at(side as u64)), 1, "{side}: {first:?}");
    }
}

#[tokio::test]
async fn grading_points_at_the_rule_it_does_not_take() {
    let server = TestServer::start().await;
    let empty = ".".repeat(81);
    let line = json!([{"cells": [[0, 3], [0, 4], [0, 5]]}]);
    for (rules, pointer) in [
        (json!({"thermometers": line}), "/thermometers"),
        (
            json!({"arrows": [{"circle": [[4, 0]], "lines": [[[3, 0], [4, 1]]]}]}),
            "/arrows",
        ),
        (
            json!({"dots": [{"cells": [[2, 0], [3, 0]], "kind": "white"}]}),
            "/dots",
        ),
        (json!({"negative": ["xv"]}), "/negative"),
        (json!({"anti_knight": true}), "/anti_knight"),
        (json!({"anti_king": true}), "/anti_king"),
        (json!({"non_consecutive": true}), "/non_consecutive"),
        (json!({"extra_regions": line}), "/extra_regions"),
        (json!({"odd": [[8, 5]]}), "/odd"),
        (json!({"even": [[2, 0]]}), "/even"),
        (json!({"renban": line}), "/renban"),
        (json!({"whispers": line}), "/whispers"),
        (json!({"palindromes": line}), "/palindromes"),
        (
            json!({"little_killers": [{"direction": "up-right", "start": [8, 1], "sum": 44}]}),
            "/little_killers",
        ),
        (
            json!({"sandwiches": [{"index": 2, "side": "left", "sum": 6}]}),
            "/sandwiches",
        ),
        (
            json!({"x_sums": [{"side": "right", "index": 4, "sum": 12}]}),
            "/x_sums",
        ),
        (
            json!({"skyscrapers": [{"side": "bottom", "index": 0, "count": 2}]}),
            "/skyscrapers",
        ),
        (json!({"between_lines": line}), "/between_lines"),
        (
            // Across two boxes: a line in one box alone asks nothing.
            json!({"region_sum_lines": [{"cells": [[0, 2], [0, 3], [0, 4]]}]}),
            "/region_sum_lines",
        ),
        (
            json!({"quadruples": [{"cells": [[0, 0], [0, 1], [1, 0], [1, 1]], "digits": [1, 9]}]}),
            "/quadruples",
        ),
        (json!({"minimum": [[4, 4]]}), "/minimum"),
        (json!({"maximum": [[0, 0]]}), "/maximum"),
        (
            json!({"clones": [{"cells": [[0, 0], [0, 1]], "copy": [[1, 8], [2, 6]]}]}),
            "/clones",
        ),
        // Beside rules grading takes: the one it does not, down to the cage without a sum.
        (
            json!({"diagonals": true, "windows": true, "disjoint_groups": true, "anti_king": true}),
            "/anti_king",
        ),
        (
            json!({"cages": [{"cells": [[0, 0], [0, 1]], "sum": 3}, {"cells": [[4, 4], [4, 5]]}]}),
            "/cages/1",
        ),
    ] {
        let response = post(&server, "/v1/grade", with(&empty, &rules)).await;
        let problem = expect_problem(response, 422, "unsupported").await;
        assert_eq!(problem["pointer"], pointer, "{rules}: {problem}");
    }
    server.shutdown().await;
}
