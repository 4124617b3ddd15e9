//! Black-box tests of the player endpoints over TCP: /generate, /grade, /hint, /candidates.

mod common;

use common::{client, TestServer, SEED, SEED_SOLUTION};
use reqwest::Response;
use serde_json::{json, Value};
use sudoku_service::engine::{validate, Board, Puzzle, Solver};

async fn post(server: &TestServer, path: &str, body: Value) -> Response {
    client()
        .post(server.url(path))
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn ok_json(response: Response) -> Value {
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

#[tokio::test]
async fn generate_gives_a_unique_puzzle_of_the_asked_difficulty() {
    let server = TestServer::start().await;
    for difficulty in ["easy", "medium", "hard", "expert"] {
        let body = ok_json(
            post(
                &server,
                "/generate",
                json!({"difficulty": difficulty, "seed": 7, "format": "line"}),
            )
            .await,
        )
        .await;
        assert_eq!(body["difficulty"], difficulty);
        assert_eq!(body["grade"]["difficulty"], difficulty);
        let puzzle = Board::from_line(body["puzzle"].as_str().unwrap()).unwrap();
        let counted = Solver::new()
            .count_solutions(&Puzzle::new(puzzle).unwrap(), 2)
            .unwrap();
        assert_eq!(counted.count, 1, "{difficulty}: not unique");
        assert_eq!(
            counted.first.unwrap().to_line(),
            body["solution"].as_str().unwrap()
        );
        assert_eq!(body["givens"], puzzle.given_count());
    }
    server.shutdown().await;
}

#[tokio::test]
async fn generate_is_reproducible_by_seed_and_symmetric_on_request() {
    let server = TestServer::start().await;
    let ask = json!({"difficulty": "medium", "seed": 123456789, "symmetry": "rotational"});
    let first = ok_json(post(&server, "/generate", ask.clone()).await).await;
    let again = ok_json(post(&server, "/generate", ask).await).await;
    assert_eq!(first["puzzle"], again["puzzle"]);
    let rows: Vec<String> = serde_json::from_value(first["puzzle"].clone()).unwrap();
    let cells: Vec<char> = rows.concat().chars().collect();
    for i in 0..81 {
        assert_eq!(
            cells[i] == '.',
            cells[80 - i] == '.',
            "not symmetric at {i}"
        );
    }
    // JSON Schema's integers include 123456789.0; fractions are refused.
    let float_seed = json!({"difficulty": "medium", "seed": 123456789.0, "symmetry": "rotational"});
    let same = ok_json(post(&server, "/generate", float_seed).await).await;
    assert_eq!(same["puzzle"], first["puzzle"]);
    let fraction = post(
        &server,
        "/generate",
        json!({"difficulty": "easy", "seed": 1.5}),
    )
    .await;
    assert_eq!(fraction.status(), 422);
    let random = ok_json(post(&server, "/generate", json!({"difficulty": "easy"})).await).await;
    assert!(random["seed"].as_u64().unwrap() < (1 << 53));

    let bad = post(&server, "/generate", json!({"difficulty": "insane"})).await;
    assert_eq!(bad.status(), 422);
    let problem: Value = bad.json().await.unwrap();
    assert!(problem["detail"]
        .as_str()
        .unwrap()
        .contains("easy, medium, hard, expert"));
    server.shutdown().await;
}

#[tokio::test]
async fn grade_says_how_hard_and_why() {
    let server = TestServer::start().await;
    let body = ok_json(post(&server, "/grade", json!({"board": SEED})).await).await;
    // Its hardest step is a direct hidden pair, 2.0 on the Sudoku Explainer scale: medium.
    assert_eq!(body["difficulty"], "medium");
    assert_eq!(body["rating"], 2.0);
    assert_eq!(body["needs_guessing"], false);
    assert_eq!(body["unique"], true);
    assert!(body["counts"]["hidden_single"].as_u64().unwrap() > 0);
    assert!(body["score"].as_u64().unwrap() > 0);

    let empty = ok_json(post(&server, "/grade", json!({"board": ".".repeat(81)})).await).await;
    assert_eq!(empty["unique"], false);
    assert_eq!(empty["difficulty"], "extreme");

    let unsolvable = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    let response = post(&server, "/grade", json!({ "board": unsolvable })).await;
    assert_eq!(response.status(), 422);
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["type"], "urn:sudoku-service:problem:no-solution");
    server.shutdown().await;
}

#[tokio::test]
async fn hint_gives_the_next_step_and_points_at_mistakes_first() {
    let server = TestServer::start().await;
    let body = ok_json(post(&server, "/hint", json!({"board": SEED})).await).await;
    assert_eq!(body["kind"], "step");
    let step = &body["step"];
    assert!(step["explanation"].as_str().unwrap().ends_with('.'));
    // The placement agrees with the solution.
    let placed = &step["placements"][0];
    let index = placed["row"].as_u64().unwrap() * 9 + placed["col"].as_u64().unwrap();
    let expected = SEED_SOLUTION.as_bytes()[index as usize] - b'0';
    assert_eq!(placed["digit"], expected);

    // A wrong entry in an empty cell, named against the givens.
    let mut board: Vec<u8> = SEED.bytes().collect();
    let wrong_at = SEED.find('.').unwrap();
    let right = SEED_SOLUTION.as_bytes()[wrong_at];
    board[wrong_at] = if right == b'1' { b'2' } else { b'1' };
    let board = String::from_utf8(board).unwrap();
    if validate(&Board::from_line(&board).unwrap())
        .conflicts
        .is_empty()
    {
        let body =
            ok_json(post(&server, "/hint", json!({"board": board, "givens": SEED})).await).await;
        assert_eq!(body["kind"], "mistake");
        assert_eq!(
            body["cell"],
            json!({"row": wrong_at / 9, "col": wrong_at % 9})
        );
        assert_eq!(body["digit"], right - b'0');
    }

    // A repeated digit comes first of all.
    let clash = format!("99{}", &SEED[2..]);
    let body = ok_json(post(&server, "/hint", json!({ "board": clash })).await).await;
    assert_eq!(body["kind"], "conflict");
    assert_eq!(body["conflict"]["digit"], 9);

    let body = ok_json(post(&server, "/hint", json!({"board": SEED_SOLUTION})).await).await;
    assert_eq!(body["kind"], "solved");
    server.shutdown().await;
}

#[tokio::test]
async fn candidates_are_pencil_marks_that_keep_the_solution() {
    let server = TestServer::start().await;
    for techniques in [false, true] {
        let body = ok_json(
            post(
                &server,
                "/candidates",
                json!({"board": SEED, "techniques": techniques}),
            )
            .await,
        )
        .await;
        assert_eq!(body["techniques"], techniques);
        let grid: Vec<Vec<Vec<u8>>> = serde_json::from_value(body["candidates"].clone()).unwrap();
        assert_eq!(grid.len(), 9);
        for (r, row) in grid.iter().enumerate() {
            assert_eq!(row.len(), 9);
            for (c, marks) in row.iter().enumerate() {
                let i = r * 9 + c;
                if SEED.as_bytes()[i] == b'.' {
                    assert!(marks.contains(&(SEED_SOLUTION.as_bytes()[i] - b'0')));
                } else {
                    assert!(marks.is_empty());
                }
            }
        }
    }
    let clash = format!("99{}", &SEED[2..]);
    let response = post(&server, "/candidates", json!({ "board": clash })).await;
    assert_eq!(response.status(), 422);
    server.shutdown().await;
}
