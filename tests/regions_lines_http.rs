//! The region and line families over TCP: `/solve`, `/validate`, `/candidates` and
//! `/grade` for each native field, the same puzzles sent as f-puzzles, and malformed
//! instances as specific problems with pointers.

mod common;

use common::{digit_at, expect_problem, ok_json, post, solution_rows, TestServer};
use serde_json::{json, Value};

/// `rules` with `board` beside them.
fn with(board: &[String], rules: &Value) -> Value {
    let mut body = rules.as_object().cloned().unwrap();
    body.insert("board".into(), json!(board));
    Value::Object(body)
}

#[tokio::test]
async fn extra_regions_and_disjoint_groups_solve_validate_and_mark() {
    let server = TestServer::start().await;
    let empty = vec![".".repeat(6); 6];
    let rules = json!({
        "disjoint_groups": true,
        "extra_regions": [{"cells": [[0, 0], [1, 4], [5, 5], [3, 2]]}, {"cells": [[2, 2], [2, 3]]}],
    });
    let body = ok_json(post(&server, "/solve", with(&empty, &rules)).await).await;
    let rows = solution_rows(&body);
    let d = |r, c| digit_at(&rows, r, c);
    // Every place of the 2x3 boxes holds six different digits.
    for place in 0..6 {
        let mut seen: Vec<u32> = (0..6)
            .map(|b| d((b / 2) * 2 + place / 3, (b % 2) * 3 + place % 3))
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, [1, 2, 3, 4, 5, 6], "group {place}");
    }
    let mut region = vec![d(0, 0), d(1, 4), d(5, 5), d(3, 2)];
    region.sort_unstable();
    region.dedup();
    assert_eq!(region.len(), 4);

    // A placed digit leaves the rest of its extra region.
    let mut board = empty.clone();
    board[0].replace_range(0..1, "5");
    let marks = ok_json(post(&server, "/candidates", with(&board, &rules)).await).await;
    assert_eq!(marks["candidates"][5][5], json!([1, 2, 3, 4, 6]));

    // A repeat is named by the region and its cells.
    board[5].replace_range(5..6, "5");
    let checked = ok_json(post(&server, "/validate", with(&board, &rules)).await).await;
    assert_eq!(
        checked["conflicts"],
        json!([{"unit": "extra_region", "index": 0, "digit": 5,
                "cells": [{"row": 0, "col": 0}, {"row": 5, "col": 5}]}])
    );

    // The logic engine does not read extra regions: no grade, said so. Disjoint groups are
    // houses it reads beside the diagonals and windows (seven houses at the centre).
    let nine = ".".repeat(81);
    expect_problem(
        post(
            &server,
            "/grade",
            json!({"board": nine, "extra_regions": [{"cells": [[0, 0], [4, 4]]}]}),
        )
        .await,
        422,
        "unsupported",
    )
    .await;
    let solved = ok_json(
        post(
            &server,
            "/solve",
            json!({"board": nine, "disjoint_groups": true, "diagonals": true, "windows": true}),
        )
        .await,
    )
    .await;
    let mut board: Vec<char> = solved["solution"].as_str().unwrap().chars().collect();
    for i in (0..81).step_by(2) {
        board[i] = '.';
    }
    let board: String = board.into_iter().collect();
    let hard = json!({"board": board, "disjoint_groups": true, "diagonals": true, "windows": true});
    let graded = ok_json(post(&server, "/grade", hard.clone()).await).await;
    assert!(graded["difficulty"].is_string(), "{graded}");
    let marks = json!({"techniques": true});
    let mut body = hard.as_object().cloned().unwrap();
    body.extend(marks.as_object().cloned().unwrap());
    ok_json(post(&server, "/candidates", Value::Object(body)).await).await;
    server.shutdown().await;
}

#[tokio::test]
async fn whispers_and_palindromes_solve_validate_and_mark() {
    let server = TestServer::start().await;
    let empty = vec![".".repeat(9); 9];
    let rules = json!({
        "whispers": [{"cells": [[0, 0], [1, 1], [2, 2], [2, 3]]}, {"cells": [[8, 0], [8, 1]], "difference": 7}],
        "palindromes": [{"cells": [[4, 0], [5, 1], [6, 2], [6, 3], [5, 4]]}],
    });
    let body = ok_json(post(&server, "/solve", with(&empty, &rules)).await).await;
    let rows = solution_rows(&body);
    let d = |r, c| digit_at(&rows, r, c);
    assert!(d(0, 0).abs_diff(d(1, 1)) >= 5 && d(1, 1).abs_diff(d(2, 2)) >= 5);
    assert!(d(2, 2).abs_diff(d(2, 3)) >= 5 && d(8, 0).abs_diff(d(8, 1)) >= 7);
    assert!(d(4, 0) == d(5, 4) && d(5, 1) == d(6, 3));

    // No 5 on a 9x9 whispers line; a 7 apart pair holds 1, 2, 8 or 9.
    let marks = ok_json(post(&server, "/candidates", with(&empty, &rules)).await).await;
    assert_eq!(marks["candidates"][0][0], json!([1, 2, 3, 4, 6, 7, 8, 9]));
    assert_eq!(marks["candidates"][8][1], json!([1, 2, 8, 9]));
    let mut board = empty.clone();
    board[4].replace_range(0..1, "3");
    let marks = ok_json(post(&server, "/candidates", with(&board, &rules)).await).await;
    assert_eq!(marks["candidates"][5][4], json!([3]));

    // Broken steps and mirrors are named by their line and cells.
    board[5].replace_range(4..5, "6");
    board[0].replace_range(0..1, "4");
    board[1].replace_range(1..2, "6");
    let checked = ok_json(post(&server, "/validate", with(&board, &rules)).await).await;
    assert_eq!(
        checked["conflicts"],
        json!([
            {"unit": "whispers", "index": 0, "digit": 4,
             "cells": [{"row": 0, "col": 0}, {"row": 1, "col": 1}]},
            {"unit": "palindrome", "index": 0, "digit": 3,
             "cells": [{"row": 4, "col": 0}, {"row": 5, "col": 4}]}
        ])
    );
    server.shutdown().await;
}

#[tokio::test]
async fn renban_lines_solve_validate_and_mark() {
    let server = TestServer::start().await;
    let empty = vec![".".repeat(9); 9];
    let line = json!([[0, 0], [0, 1], [1, 2], [2, 2]]);
    let rules = json!({"renban": [{"cells": line}]});
    let body = ok_json(post(&server, "/solve", with(&empty, &rules)).await).await;
    let rows = solution_rows(&body);
    let mut digits = vec![
        digit_at(&rows, 0, 0),
        digit_at(&rows, 0, 1),
        digit_at(&rows, 1, 2),
        digit_at(&rows, 2, 2),
    ];
    digits.sort_unstable();
    assert!(digits.windows(2).all(|w| w[1] == w[0] + 1), "{digits:?}");

    // A 1 on a four-cell line keeps the others to 2-4.
    let mut board = empty.clone();
    board[0].replace_range(0..1, "1");
    let marks = ok_json(post(&server, "/candidates", with(&board, &rules)).await).await;
    assert_eq!(marks["candidates"][2][2], json!([2, 3, 4]));

    // A 6 four cells from the 1 breaks the line, named with both cells.
    board[2].replace_range(2..3, "6");
    let checked = ok_json(post(&server, "/validate", with(&board, &rules)).await).await;
    assert_eq!(
        checked["conflicts"],
        json!([{"unit": "renban", "index": 0, "digit": 1,
                "cells": [{"row": 0, "col": 0}, {"row": 2, "col": 2}]}])
    );
    server.shutdown().await;
}

#[tokio::test]
async fn the_same_puzzles_come_as_fpuzzles() {
    let server = TestServer::start().await;
    let grid: Vec<Vec<Value>> = vec![vec![json!({}); 6]; 6];
    let fpuzzles = json!({
        "size": 6,
        "grid": grid,
        "disjointgroups": true,
        "extraregion": [{"cells": ["R1C1", "R2C5", "R6C6"]}],
        "whispers": [{"lines": [["R3C1", "R4C2"]]}],
        "palindrome": [{"lines": [["R4C1", "R5C2", "R6C2"]]}],
    });
    let body = ok_json(post(&server, "/solve", json!({ "fpuzzles": fpuzzles })).await).await;
    let solved = &body["fpuzzles"]["grid"];
    let at = |r: usize, c: usize| solved[r][c]["value"].as_u64().unwrap();
    assert!(at(0, 0) != at(1, 4) && at(1, 4) != at(5, 5) && at(0, 0) != at(5, 5));
    assert_ne!(at(0, 0), at(2, 3), "disjoint group 1");
    assert!(at(2, 0).abs_diff(at(3, 1)) >= 3, "whispers of 3 on a 6x6");
    assert_eq!(at(3, 0), at(5, 1), "palindrome");
    server.shutdown().await;
}

#[tokio::test]
async fn malformed_instances_are_problems_with_pointers() {
    let server = TestServer::start().await;
    let board = vec![".".repeat(9); 9];
    let cases = [
        (
            json!({"extra_regions": [{"cells": [[0, 0], [0, 9]]}]}),
            "invalid-extra-regions",
            "/extra_regions/0/cells/1",
        ),
        (
            json!({"extra_regions": [{"cells": [[0, 0]]}, {"cells": [[1, 1], [2, 2], [1, 1]]}]}),
            "invalid-extra-regions",
            "/extra_regions/1/cells/2",
        ),
        (
            json!({"extra_regions": [{"cells": []}]}),
            "invalid-extra-regions",
            "/extra_regions/0/cells",
        ),
        (
            json!({"extra_regions": [{"cells": (0..10).map(|i| [i % 9, i / 9]).collect::<Vec<_>>()}]}),
            "invalid-extra-regions",
            "/extra_regions/0/cells",
        ),
        (
            json!({"whispers": [{"cells": [[0, 0], [0, 1]], "difference": 9}]}),
            "invalid-whispers",
            "/whispers/0/difference",
        ),
        (
            json!({"whispers": [{"cells": [[0, 0], [2, 1]]}]}),
            "invalid-whispers",
            "/whispers/0/cells/1",
        ),
        (
            json!({"palindromes": [{"cells": [[0, 0]]}]}),
            "invalid-palindromes",
            "/palindromes/0/cells",
        ),
        (
            json!({"palindromes": [{"cells": [[0, 0], [1, 1], [0, 0]]}]}),
            "invalid-palindromes",
            "/palindromes/0/cells/2",
        ),
        (
            json!({"renban": [{"cells": (0..9).map(|c| [0, c]).chain([[1, 8]]).collect::<Vec<_>>()}]}),
            "invalid-renban",
            "/renban/0/cells",
        ),
        (
            json!({"renban": [{"cells": [[0, 0], [0, 1]]}, {"cells": [[3, 3], [5, 5]]}]}),
            "invalid-renban",
            "/renban/1/cells/1",
        ),
    ];
    for (rules, kind, pointer) in cases {
        let problem = expect_problem(
            post(&server, "/solve", with(&board, &rules)).await,
            422,
            kind,
        )
        .await;
        assert_eq!(problem["pointer"], pointer, "{rules}: {problem}");
    }
    server.shutdown().await;
}
