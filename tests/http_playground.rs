//! The playground page over real HTTP: what a browser fetches, and the switch that removes it.
//! The page's behaviour is tested in headless Chromium by `scripts/check/browser-test.sh`.

mod common;

use common::TestServer;
use reqwest::header;
use serde_json::json;
use sudoku_service::http::ServeArgs;

#[tokio::test]
async fn the_page_and_its_assets_are_served_with_a_strict_policy() {
    let server = TestServer::start().await;
    let client = reqwest::Client::new();
    let page = client.get(server.url("/")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let csp = page.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"));
    assert_eq!(page.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(
        page.headers()[header::CONTENT_TYPE],
        "text/html; charset=utf-8"
    );
    let html = page.text().await.unwrap();

    // Everything the page links to is served, with the type a browser insists on under nosniff.
    for (path, content_type) in [
        ("/playground.js", "text/javascript; charset=utf-8"),
        ("/playground.css", "text/css; charset=utf-8"),
        ("/openapi.yaml", "application/yaml"),
    ] {
        assert!(
            html.contains(&format!("\"{path}\"")),
            "the page links {path}"
        );
        let asset = client.get(server.url(path)).send().await.unwrap();
        assert_eq!(asset.status(), 200, "{path}");
        assert_eq!(
            asset.headers()[header::CONTENT_TYPE],
            content_type,
            "{path}"
        );
    }
    // No inline script or style, which the policy would block.
    assert!(!html.contains("<script>") && !html.contains("<style") && !html.contains(" style="));

    let head = client.head(server.url("/")).send().await.unwrap();
    assert_eq!(head.status(), 200);
    server.shutdown().await;
}

#[tokio::test]
async fn the_script_calls_only_endpoints_that_exist() {
    let server = TestServer::start().await;
    let client = reqwest::Client::new();
    let script = server.get_text("/playground.js").await;
    let paths: Vec<&str> = script
        .split("path: '")
        .skip(1)
        .filter_map(|rest| rest.split('\'').next())
        .collect();
    assert_eq!(
        paths,
        [
            "/v1/solve",
            "/v1/validate",
            "/v1/hint",
            "/v1/candidates",
            "/v1/grade",
            "/v1/generate",
            "/v1/fpuzzles",
            "/v1/fpuzzles"
        ],
        "the versioned API, not its deprecated aliases"
    );
    // Every body the script's actions send (ACTIONS in playground.js), with the board in the
    // rows form the script uses: the service refuses fields it does not take, so each must
    // be answered 200. Each comes with the script text that sends it, so a change there
    // fails here until the test sends the new body too.
    let givens = common::rows(common::SEED);
    // A game in progress: the givens and one right digit entered.
    let mut entered = givens.clone();
    let at = entered[0].find('.').unwrap();
    entered[0].replace_range(at..=at, &common::SEED_SOLUTION[at..=at]);
    // A pasted SudokuPad link, as the conversion gives one.
    let shared =
        common::ok_json(common::post(&server, "/v1/fpuzzles", json!({"board": givens})).await)
            .await;
    let link = shared["sudokupad"].as_str().unwrap();
    let bodies = [
        (
            "path: '/v1/solve', body: withRules({ board: boardRows() })",
            "/v1/solve",
            json!({"board": givens}),
        ),
        (
            "path: '/v1/validate', body: withRules({ board: boardRows() })",
            "/v1/validate",
            json!({"board": entered}),
        ),
        (
            "{ board: boardRows(), givens: givenRows() }",
            "/v1/hint",
            json!({"board": entered, "givens": givens}),
        ),
        ("{ board: boardRows() }", "/v1/hint", json!({"board": givens})),
        (
            "{ board: boardRows(), techniques: true }",
            "/v1/candidates",
            json!({"board": entered, "techniques": true}),
        ),
        (
            "puzzleRows = () => (hasGivens() && hasEntries() ? givenRows() : boardRows())",
            "/v1/grade",
            json!({"board": givens}),
        ),
        (
            "path: '/v1/grade', body: withRules({ board: puzzleRows() })",
            "/v1/grade",
            json!({"board": entered}),
        ),
        (
            "path: '/v1/fpuzzles', body: { fpuzzles: importSource }",
            "/v1/fpuzzles",
            json!({"fpuzzles": link}),
        ),
        (
            "path: '/v1/fpuzzles', body: withRules({ board: puzzleRows() })",
            "/v1/fpuzzles",
            json!({"board": givens}),
        ),
        (
            "if (seed !== null && !Number.isNaN(seed)) body.seed = seed;\n  return { ...body, format: 'rows' };",
            "/v1/generate",
            json!({"difficulty": "easy", "seed": 1, "format": "rows"}),
        ),
        (
            "{ ...body, format: 'rows' }",
            "/v1/generate",
            json!({"difficulty": "medium", "format": "rows"}),
        ),
    ];
    for (sent, path, body) in bodies {
        assert!(
            script.contains(sent),
            "the script no longer sends `{sent}` to {path}: update this test"
        );
        let response = client
            .post(server.url(path))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status();
        let answer: serde_json::Value = response.json().await.unwrap();
        assert_eq!(status, 200, "{path} {body}: {answer}");
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_generated_variant_posts_back_as_the_script_sends_it() {
    let server = TestServer::start().await;
    for variant in ["killer", "x", "hyper", "jigsaw"] {
        // Generate as the script asks for a variant: with the chosen difficulty.
        let request = serde_json::json!({"variant": variant, "difficulty": "medium", "seed": 1, "format": "rows"});
        let generated = common::ok_json(common::post(&server, "/generate", request).await).await;
        // Every action sends the board with the answer's rule fields beside it, as they came.
        let mut body = serde_json::json!({ "board": generated["board"] });
        for field in ["cages", "regions", "diagonals", "windows"] {
            if let Some(rule) = generated.get(field) {
                body[field] = rule.clone();
            }
        }
        assert_eq!(
            body.as_object().unwrap().len(),
            2,
            "{variant}: one rule field"
        );
        // Every action the page offers takes every 9x9 rule set.
        for path in ["/solve", "/validate", "/hint", "/candidates", "/grade"] {
            let response = common::post(&server, path, body.clone()).await;
            let status = response.status();
            let answer: serde_json::Value = response.json().await.unwrap();
            assert_eq!(status, 200, "{variant} {path}: {answer}");
        }
    }
    server.shutdown().await;
}

#[tokio::test]
async fn operators_can_turn_the_playground_off() {
    let args = ServeArgs {
        playground: false,
        ..ServeArgs::default()
    };
    let server = TestServer::with(args).await;
    let client = reqwest::Client::new();
    for path in [
        "/",
        "/playground.js",
        "/playground.css",
        "/docs",
        "/docs/reference.js",
    ] {
        let response = client.get(server.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
    }
    let health = client.get(server.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    server.shutdown().await;
}

#[tokio::test]
async fn the_api_reference_is_served_from_the_binary_under_its_policy() {
    let server = TestServer::start().await;
    let client = reqwest::Client::new();
    let page = client.get(server.url("/docs")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        policy.contains("script-src 'self';") && policy.contains("frame-ancestors 'none'"),
        "{policy}"
    );
    let html = page.text().await.unwrap();
    // Everything the page loads is on this server: no CDN.
    for needed in [
        "/docs/swagger-ui.css",
        "/docs/swagger-ui-bundle.js",
        "/docs/reference.js",
    ] {
        assert!(html.contains(needed), "{needed}");
        let asset = client.get(server.url(needed)).send().await.unwrap();
        assert_eq!(asset.status(), 200, "{needed}");
        assert_eq!(asset.headers()["content-security-policy"], policy.as_str());
    }
    assert!(!html.contains("https://"), "nothing from elsewhere");
    let script = server.get_text("/docs/reference.js").await;
    assert!(
        script.contains("url: '/openapi.json'"),
        "it reads this server's spec"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn the_script_carries_every_rule_field_the_service_takes() {
    // A rule field the script does not know is dropped from a pasted or generated puzzle,
    // and the next request would solve a different puzzle.
    let server = TestServer::start().await;
    let script = server.get_text("/playground.js").await;
    let declared = script
        .split("const RULE_FIELDS = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("playground.js declares RULE_FIELDS");
    let fields: Vec<String> = declared
        .split(',')
        .map(|field| field.trim().trim_matches('\'').to_string())
        .filter(|field| !field.is_empty())
        .collect();
    let capabilities: serde_json::Value =
        serde_json::from_str(&server.get_text("/v1/capabilities").await).expect("JSON");
    let served: Vec<String> = capabilities["rule_fields"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|field| field.as_str().expect("a name").to_string())
        .collect();
    assert_eq!(fields, served);
}
