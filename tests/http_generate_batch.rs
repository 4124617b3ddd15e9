//! Black-box tests of the bank features of generation over TCP: `canonical` and
//! `canonical_id` on `/generate` answers, and `POST /v1/generate/batch` (determinism, the
//! canonical forms checked by an independent canonicalizer, resuming by cursor, the time
//! limit, and every bad input's own 422).

mod common;

use common::isomorph::slow_canonical;
use common::{client, expect_problem, ok_json, post, TestServer};
use serde_json::{json, Value};
use sudoku_service::http::ServeArgs;

/// The board of an answer as one line with `.` for empty cells.
fn line_of(board: &Value) -> String {
    let text = match board {
        Value::Array(rows) => rows.iter().map(|r| r.as_str().unwrap()).collect(),
        other => other.as_str().unwrap().to_string(),
    };
    text.replace('0', ".")
}

/// POSTs a batch and returns its lines, checking the media type.
async fn batch(server: &TestServer, body: Value) -> Vec<Value> {
    let response = post(server, "/v1/generate/batch", body).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "application/x-ndjson",
        "NDJSON"
    );
    let text = response.text().await.unwrap();
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[tokio::test]
async fn generated_puzzles_carry_their_canonical_form_and_killers_do_not() {
    let server = TestServer::start().await;
    let made = ok_json(
        post(
            &server,
            "/v1/generate",
            json!({"difficulty": "easy", "seed": 5, "format": "line"}),
        )
        .await,
    )
    .await;
    let asked =
        ok_json(post(&server, "/v1/canonical", json!({"board": made["board"]})).await).await;
    assert_eq!(made["canonical"], asked["canonical"]);
    assert_eq!(made["canonical_id"], asked["canonical_id"]);
    assert_eq!(
        line_of(&made["canonical"]),
        slow_canonical(&line_of(&made["board"]))
    );
    // Rows in the answer's form, by URL too.
    let rows = client()
        .get(server.url("/v1/generate?difficulty=easy&seed=5"))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(rows["canonical"].as_array().map(Vec::len), Some(9));
    assert_eq!(rows["canonical_id"], made["canonical_id"]);
    let killer = ok_json(
        post(
            &server,
            "/v1/generate",
            json!({"variant": "killer", "seed": 5}),
        )
        .await,
    )
    .await;
    assert!(
        killer.get("canonical").is_none() && killer.get("canonical_id").is_none(),
        "{killer}"
    );
    server.shutdown().await;
}

/// A Jigsaw's form carries its regions: the generated puzzle's form is what
/// `/v1/canonical` gives, and the puzzle turned a quarter (its regions with it) and
/// relabelled has the same form, regions and id; the regions alone turned make another
/// puzzle, with another form.
#[tokio::test]
async fn a_jigsaw_and_its_turned_disguise_share_the_form_and_its_regions() {
    let server = TestServer::start().await;
    let made = ok_json(
        post(
            &server,
            "/v1/generate",
            json!({"variant": "jigsaw", "seed": 5, "format": "line"}),
        )
        .await,
    )
    .await;
    let regions = made["regions"].as_str().unwrap();
    assert_eq!(made["canonical_regions"].as_str().map(str::len), Some(81));
    let asked = ok_json(
        post(
            &server,
            "/v1/canonical",
            json!({"board": made["board"], "regions": regions}),
        )
        .await,
    )
    .await;
    for field in ["canonical", "canonical_regions", "canonical_id"] {
        assert_eq!(asked[field], made[field], "{field}");
    }
    // Region labels turned with the grid (each label a digit, so relabelled too).
    let board = made["board"].as_str().unwrap();
    let turned = json!({
        "board": quarter_turn_relabelled(board),
        "regions": quarter_turn_relabelled(regions),
    });
    let disguised = ok_json(post(&server, "/v1/canonical", turned).await).await;
    for field in ["canonical", "canonical_regions", "canonical_id"] {
        assert_eq!(disguised[field], made[field], "{field}");
    }
    let torn = json!({"board": board, "regions": quarter_turn_relabelled(regions)});
    let response = post(&server, "/v1/canonical", torn).await;
    if response.status() == 200 {
        let other = response.json::<Value>().await.unwrap();
        assert_ne!(other["canonical_id"], made["canonical_id"]);
    }
    server.shutdown().await;
}

/// `board` (one line) turned a quarter and relabelled 1 -> 2 -> ... -> 9 -> 1: the same
/// Sudoku X or Hyper puzzle in disguise (both keep their houses under a quarter turn).
fn quarter_turn_relabelled(board: &str) -> String {
    let cells: Vec<char> = board.chars().collect();
    (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            match cells[(8 - c) * 9 + r].to_digit(10) {
                Some(d) => char::from_digit(d % 9 + 1, 10).unwrap(),
                None => '.',
            }
        })
        .collect()
}

/// X and Hyper puzzles have canonical forms too: a generated one carries the form
/// `/v1/canonical` gives, a disguise of it has the same form, and a distinct batch repeats
/// none.
#[tokio::test]
async fn x_and_hyper_puzzles_have_canonical_forms() {
    let server = TestServer::start().await;
    for (variant, rule) in [
        ("x", json!({"diagonals": true})),
        ("hyper", json!({"windows": true})),
    ] {
        let lines = batch(
            &server,
            json!({"count": 3, "variant": variant, "difficulty": "easy", "seed": 4,
                   "distinct": true, "format": "line"}),
        )
        .await;
        let mut forms = std::collections::HashSet::new();
        for line in &lines[..3] {
            let board = line["board"].as_str().unwrap();
            let mut body = rule.clone();
            body["board"] = json!(quarter_turn_relabelled(board));
            let disguised = ok_json(post(&server, "/v1/canonical", body).await).await;
            assert_eq!(
                disguised["canonical_id"], line["canonical_id"],
                "{variant} {board}"
            );
            assert_eq!(
                disguised["canonical"], line["canonical"],
                "{variant} {board}"
            );
            assert!(
                forms.insert(line["canonical_id"].clone()),
                "{variant}: repeated"
            );
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_batch_is_the_same_for_the_same_seed_and_each_line_is_its_own_generate() {
    let server = TestServer::start().await;
    let body = json!({"count": 4, "difficulty": "easy", "seed": 11, "format": "line"});
    let first = batch(&server, body.clone()).await;
    assert_eq!(first, batch(&server, body).await, "deterministic");
    assert_eq!(first.len(), 5);
    let done = first.last().unwrap();
    assert_eq!(done["done"], true);
    assert_eq!(done["puzzles"], 4);
    let puzzles = &first[..4];
    for line in puzzles {
        assert_eq!(line["difficulty"], "easy");
        assert!(line["cursor"].as_str().is_some_and(|c| !c.is_empty()));
    }
    // A line's seed is a /generate seed: the same options give the same puzzle.
    let single = ok_json(
        post(
            &server,
            "/v1/generate",
            json!({"difficulty": "easy", "seed": puzzles[2]["seed"], "format": "line"}),
        )
        .await,
    )
    .await;
    let mut line = puzzles[2].clone();
    line.as_object_mut().unwrap().remove("cursor");
    assert_eq!(line, single);
    // Another batch seed, other puzzles.
    let other = batch(
        &server,
        json!({"count": 1, "difficulty": "easy", "seed": 12, "format": "line"}),
    )
    .await;
    assert_ne!(other[0]["id"], puzzles[0]["id"]);
    server.shutdown().await;
}

#[tokio::test]
async fn a_distinct_batch_has_no_two_puzzles_with_one_canonical_form() {
    let server = TestServer::start().await;
    let lines = batch(
        &server,
        json!({"count": 12, "difficulty": "medium", "seed": 3, "distinct": true,
               "clues": {"min": 22, "max": 40}, "format": "line"}),
    )
    .await;
    let puzzles = &lines[..lines.len() - 1];
    assert_eq!(puzzles.len(), 12);
    let mut forms = std::collections::HashSet::new();
    for line in puzzles {
        let board = line_of(&line["board"]);
        let form = slow_canonical(&board);
        assert_eq!(form, line_of(&line["canonical"]), "{board}");
        assert!(forms.insert(form), "{board} repeats an earlier puzzle");
        let clues = line["clues"].as_u64().unwrap();
        assert!((22..=40).contains(&clues), "{clues}");
    }
    server.shutdown().await;
}

/// A technique target keeps only puzzles whose grade has the technique where asked: as the
/// hardest step, or anywhere.
#[tokio::test]
async fn a_technique_batch_has_the_technique_in_every_grade() {
    let server = TestServer::start().await;
    let hardest = batch(
        &server,
        json!({"count": 3, "difficulty": "hard", "seed": 5,
               "technique": "locked_candidates_pointing"}),
    )
    .await;
    assert_eq!(
        hardest.len(),
        4,
        "three puzzles and the done line: {hardest:?}"
    );
    for line in &hardest[..3] {
        assert_eq!(
            line["grade"]["hardest"], "locked_candidates_pointing",
            "{line}"
        );
    }
    let anywhere = batch(
        &server,
        json!({"count": 3, "difficulty": "hard", "seed": 5, "technique": "naked_pair",
               "technique_as": "any"}),
    )
    .await;
    for line in &anywhere[..3] {
        let grade = &line["grade"];
        assert!(grade["counts"]["naked_pair"].as_u64() > Some(0), "{line}");
    }
    server.shutdown().await;
}

/// A 33-given pattern symmetric under a half turn.
const PATTERN: &str = concat!(
    "..x..xx..",
    "x.xx.....",
    ".x.......",
    ".xxx.x.xx",
    ".xxxxxxx.",
    "xx.x.xxx.",
    ".......x.",
    ".....xx.x",
    "..xx..x.."
);

/// A pattern puts every puzzle's givens exactly on its `x` cells, in `/generate` and in a
/// batch alike; a pattern that cannot be is a 422 at the field it clashes with.
#[tokio::test]
async fn a_pattern_places_the_givens_exactly() {
    let server = TestServer::start().await;
    let lines = batch(
        &server,
        json!({"count": 2, "difficulty": "easy", "seed": 9, "pattern": PATTERN,
               "format": "line"}),
    )
    .await;
    for line in &lines[..2] {
        let drawn: String = line_of(&line["board"])
            .chars()
            .map(|c| if c == '.' { '.' } else { 'x' })
            .collect();
        assert_eq!(drawn, PATTERN, "{line}");
        let one = ok_json(
            post(
                &server,
                "/v1/generate",
                json!({"difficulty": "easy", "seed": line["seed"], "pattern": PATTERN,
                       "format": "line"}),
            )
            .await,
        )
        .await;
        assert_eq!(one["board"], line["board"], "a line is its own /generate");
    }
    let sparse = format!("{}{}", "x".repeat(16), ".".repeat(65));
    for (body, pointer) in [
        (json!({"difficulty": "easy", "pattern": "x.x"}), "/pattern"),
        (json!({"difficulty": "easy", "pattern": sparse}), "/pattern"),
        (
            json!({"variant": "x", "difficulty": "easy", "pattern": PATTERN}),
            "/variant",
        ),
        (
            json!({"difficulty": "easy", "symmetry": "rotational", "pattern": PATTERN}),
            "/symmetry",
        ),
    ] {
        let problem = expect_problem(
            post(&server, "/v1/generate", body.clone()).await,
            422,
            "invalid-request",
        )
        .await;
        assert_eq!(problem["pointer"], pointer, "{body}: {problem}");
    }
    // Givens on a pattern are carved, never planted: carving reaches 9.1.
    let problem = expect_problem(
        post(
            &server,
            "/v1/generate",
            json!({"rating": {"min": 9.2}, "pattern": PATTERN}),
        )
        .await,
        422,
        "unsupported",
    )
    .await;
    assert_eq!(problem["pointer"], "/rating", "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("9.1"),
        "{problem}"
    );
    server.shutdown().await;
}

/// The worst pattern a request can send: 17 givens in the first two rows, which no unique
/// puzzle has. The search masks grid after grid and ends when the generation budget does,
/// with a 422 `generation-failed`, like any range nothing fits.
#[tokio::test]
async fn a_hopeless_pattern_ends_with_its_budget() {
    let server = TestServer::with(ServeArgs {
        generate_work_budget: 200_000,
        ..ServeArgs::default()
    })
    .await;
    let hopeless = format!("{}{}", "x".repeat(17), ".".repeat(64));
    let response = post(
        &server,
        "/v1/generate",
        json!({"difficulty": "easy", "seed": 1, "pattern": hopeless}),
    )
    .await;
    let problem = expect_problem(response, 422, "generation-failed").await;
    assert!(
        problem["detail"].as_str().unwrap().contains("work budget"),
        "{problem}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn a_cursor_resumes_with_the_remaining_lines() {
    let server = TestServer::start().await;
    let body = json!({"count": 5, "difficulty": "easy", "seed": 21});
    let whole = batch(&server, body.clone()).await;
    assert_eq!(whole.len(), 6);
    let mut resumed = body.clone();
    resumed["cursor"] = whole[1]["cursor"].clone();
    assert_eq!(batch(&server, resumed).await[..3], whole[2..5]);
    // Without the seed the cursor carries it; with other options it is refused.
    let rest = batch(
        &server,
        json!({"count": 5, "difficulty": "easy", "cursor": whole[3]["cursor"]}),
    )
    .await;
    assert_eq!(rest[0], whole[4]);
    assert_eq!(rest[1]["done"], true);
    let problem = expect_problem(
        post(
            &server,
            "/v1/generate/batch",
            json!({"count": 5, "difficulty": "hard", "cursor": whole[3]["cursor"]}),
        )
        .await,
        422,
        "invalid-request",
    )
    .await;
    assert_eq!(problem["pointer"], "/cursor", "{problem}");
    server.shutdown().await;
}

#[tokio::test]
async fn a_batch_stops_at_the_time_limit_with_a_timeout_line_to_resume_from() {
    let server = TestServer::with(ServeArgs {
        request_timeout_ms: 1_200,
        ..ServeArgs::default()
    })
    .await;
    let body = json!({"count": 10_000, "difficulty": "easy", "seed": 8});
    let lines = batch(&server, body.clone()).await;
    let last = lines.last().unwrap();
    assert_eq!(
        last["error"]["type"], "urn:sudoku-service:problem:timeout",
        "{last}"
    );
    assert!((2..10_000).contains(&lines.len()), "{} lines", lines.len());
    // Resuming from the timeout line continues where it stopped: with the puzzle the next
    // line of an unbounded stream would have had.
    let mut resumed = body;
    resumed["cursor"] = last["cursor"].clone();
    let more = batch(&server, resumed).await;
    assert!(more[0].get("id").is_some(), "{}", more[0]);
    assert!(lines.iter().all(|l| l["id"] != more[0]["id"]));
    let mut longer = json!({"count": lines.len(), "difficulty": "easy", "seed": 8});
    longer["cursor"] = lines[lines.len() - 2]["cursor"].clone();
    assert_eq!(batch(&server, longer).await[0]["id"], more[0]["id"]);
    server.shutdown().await;
}

#[tokio::test]
async fn bad_batches_get_a_problem_naming_the_field() {
    let server = TestServer::with(ServeArgs {
        generate_batch_max: 50,
        ..ServeArgs::default()
    })
    .await;
    let limits = ok_json(
        client()
            .get(server.url("/v1/capabilities"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(limits["limits"]["generate_batch_items"], 50);
    for (body, pointer) in [
        (json!({"count": 0, "difficulty": "easy"}), "/count"),
        (json!({"count": 51, "difficulty": "easy"}), "/count"),
        (json!({"count": 1}), "/difficulty"),
        (
            json!({"count": 1, "variant": "killer", "distinct": true}),
            "/distinct",
        ),
        (
            json!({"count": 1, "difficulty": "easy", "clues": {"min": 30, "max": 20}}),
            "/clues",
        ),
        (
            json!({"count": 1, "difficulty": "easy", "clues": {"max": 90}}),
            "/clues/max",
        ),
        (
            json!({"count": 1, "difficulty": "easy", "cursor": "nope"}),
            "/cursor",
        ),
        (
            json!({"count": 1, "difficulty": "hard", "technique": "x-wing"}),
            "/technique",
        ),
        (
            json!({"count": 1, "variant": "x", "technique": "x_wing"}),
            "/technique",
        ),
        (
            json!({"count": 1, "difficulty": "hard", "technique": "cage_sum"}),
            "/technique",
        ),
        (
            json!({"count": 1, "difficulty": "easy", "technique": "x_wing"}),
            "/technique",
        ),
        (
            json!({"count": 1, "difficulty": "easy", "technique": "x_wing",
                   "technique_as": "any"}),
            "/technique",
        ),
        (
            json!({"count": 1, "difficulty": "hard", "technique": "hidden_single"}),
            "/technique",
        ),
        (
            json!({"count": 1, "difficulty": "hard", "technique_as": "any"}),
            "/technique_as",
        ),
        (
            json!({"count": 1, "difficulty": "hard", "technique": "x_wing",
                   "technique_as": "first"}),
            "/technique_as",
        ),
        (
            json!({"count": 1, "difficulty": "easy", "seed": 1, "cursor": "3.3.2.00000000"}),
            "/cursor",
        ),
    ] {
        let problem = expect_problem(
            post(&server, "/v1/generate/batch", body.clone()).await,
            422,
            "invalid-request",
        )
        .await;
        assert_eq!(problem["pointer"], pointer, "{body}: {problem}");
    }
    expect_problem(
        post(
            &server,
            "/v1/generate/batch",
            json!({"count": 1, "difficulty": "easy", "size": 9}),
        )
        .await,
        422,
        "invalid-request",
    )
    .await;
    server.shutdown().await;
}

/// GETs `path` from a server process: status, headers, JSON body (none for a 304).
async fn daily_of(url: String, etag: Option<&str>) -> (u16, reqwest::header::HeaderMap, Value) {
    let mut request = client().get(url);
    if let Some(etag) = etag {
        request = request.header("If-None-Match", etag);
    }
    let response = request.send().await.unwrap();
    let (status, headers) = (response.status().as_u16(), response.headers().clone());
    let body = if status == 304 {
        Value::Null
    } else {
        response.json().await.unwrap()
    };
    (status, headers, body)
}

#[tokio::test]
async fn the_daily_puzzle_is_the_same_on_two_server_processes_and_keyed_by_the_secret() {
    use common::ServerProcess;
    let secret = [("SUDOKU_DAILY_SECRET", "a-shared-secret")];
    let one = ServerProcess::start(&[], &secret);
    let two = ServerProcess::start(&[], &secret);
    let other = ServerProcess::start(&[], &[("SUDOKU_DAILY_SECRET", "another")]);
    let path = "/v1/daily?date=2026-12-02&level=easy&format=line";
    let (status, headers, first) = daily_of(one.url(path), None).await;
    assert_eq!(status, 200, "{first}");
    let (_, again, second) = daily_of(two.url(path), None).await;
    assert_eq!(first, second, "the same puzzle on both replicas");
    assert_eq!(first["date"], "2026-12-02");
    assert_eq!(first["difficulty"], "easy");
    assert_eq!(headers["etag"], again["etag"]);
    assert_eq!(
        headers["cache-control"],
        "public, max-age=31536000, immutable"
    );
    let (_, _, keyed) = daily_of(other.url(path), None).await;
    assert_ne!(keyed["id"], first["id"], "another secret, another puzzle");
    // Revalidation needs no generation.
    let etag = headers["etag"].to_str().unwrap();
    let (status, _, _) = daily_of(two.url(path), Some(etag)).await;
    assert_eq!(status, 304);
    // Today in a zone: cacheable until that zone's next midnight at most.
    let (status, headers, today) =
        daily_of(one.url("/v1/daily?level=easy&tz=Pacific/Kiritimati"), None).await;
    assert_eq!(status, 200, "{today}");
    let max_age: i64 = headers["cache-control"]
        .to_str()
        .unwrap()
        .strip_prefix("public, max-age=")
        .unwrap()
        .parse()
        .unwrap();
    assert!((0..=86_400 + 3_600).contains(&max_age), "{max_age}");
    let (_, _, same_day) = daily_of(
        two.url(&format!(
            "/v1/daily?level=easy&date={}",
            today["date"].as_str().unwrap()
        )),
        None,
    )
    .await;
    assert_eq!(same_day["id"], today["id"]);
    for (query, pointer) in [
        ("date=2026-02-30", "/date"),
        ("date=02.12.2026", "/date"),
        ("tz=Mars/Olympus", "/tz"),
        ("level=impossible", "/level"),
        ("variant=x&level=impossible", "/level"),
    ] {
        let response = client()
            .get(one.url(&format!("/v1/daily?{query}")))
            .send()
            .await
            .unwrap();
        let problem = expect_problem(response, 422, "invalid-request").await;
        assert_eq!(problem["pointer"], pointer, "{query}: {problem}");
    }
}
