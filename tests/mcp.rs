//! `/mcp` over TCP with a real MCP client (rmcp's Streamable HTTP client): the tools listed
//! with their input schemas, each tool answering as its HTTP operation does, a problem as a
//! tool error, and the same budget and rate limit as HTTP.

mod common;

use common::{client, post, TestServer, HARD, SEED, SEED_SOLUTION};
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};
use sudoku_service::http::ServeArgs;

async fn connect(server: &TestServer) -> RunningService<RoleClient, ()> {
    let transport = StreamableHttpClientTransport::from_uri(server.url("/mcp"));
    ().serve(transport).await.expect("the MCP handshake")
}

fn arguments(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        other => panic!("arguments must be an object, not {other}"),
    }
}

async fn call(mcp: &RunningService<RoleClient, ()>, tool: &str, args: Value) -> CallToolResult {
    mcp.call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(arguments(args)))
        .await
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

/// The structured answer of a call that succeeded.
fn answer(result: CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.structured_content.expect("a structured answer")
}

/// The problem document of a call the handler refused.
fn problem(result: CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result.structured_content.expect("the problem document")
}

#[tokio::test]
async fn the_tools_are_listed_with_schemas_from_the_wire_types() {
    let server = TestServer::start().await;
    let mcp = connect(&server).await;
    let tools = mcp.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "solve",
            "validate",
            "hint",
            "candidates",
            "grade",
            "generate"
        ]
    );
    for tool in &tools {
        let schema = Value::Object((*tool.input_schema).clone());
        assert_eq!(schema["type"], "object", "{}: {schema}", tool.name);
        assert_eq!(schema["additionalProperties"], false, "{}", tool.name);
        if tool.name != "generate" {
            assert_eq!(schema["required"], json!(["board"]), "{}", tool.name);
            assert!(schema["properties"]["cages"].is_object(), "{}", tool.name);
        }
    }
    mcp.cancel().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn each_tool_answers_as_its_http_operation() {
    let server = TestServer::start().await;
    let mcp = connect(&server).await;

    let solved = answer(call(&mcp, "solve", json!({ "board": SEED })).await);
    assert_eq!(solved["solution"], SEED_SOLUTION);
    assert_eq!(solved["unique"], true);

    // A generation is seeded: the tool and the HTTP operation give the same puzzle.
    let request = json!({ "difficulty": "easy", "seed": "42" });
    let generated = answer(call(&mcp, "generate", request.clone()).await);
    let over_http = common::ok_json(post(&server, "/v1/generate", request).await).await;
    assert_eq!(generated, over_http);

    for tool in ["grade", "hint", "candidates", "validate"] {
        let over_mcp = answer(call(&mcp, tool, json!({ "board": generated["board"] })).await);
        let path = format!("/v1/{tool}");
        let over_http =
            common::ok_json(post(&server, &path, json!({ "board": generated["board"] })).await)
                .await;
        assert_eq!(over_mcp, over_http, "{tool}");
    }

    // A generated Killer's cages go back as they came.
    let killer = answer(call(&mcp, "generate", json!({ "variant": "killer", "seed": 3 })).await);
    let solved = answer(
        call(
            &mcp,
            "solve",
            json!({ "board": killer["board"], "cages": killer["cages"] }),
        )
        .await,
    );
    assert_eq!(solved["solution"], killer["solution"]);
    assert_eq!(solved["id"], killer["id"]);

    mcp.cancel().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn a_refused_call_is_a_tool_error_with_the_same_problem_as_http() {
    let server = TestServer::start().await;
    let mcp = connect(&server).await;

    let typo = problem(call(&mcp, "solve", json!({ "bord": SEED })).await);
    let over_http = common::expect_problem(
        post(&server, "/v1/solve", json!({ "bord": SEED })).await,
        422,
        "invalid-request",
    )
    .await;
    assert_eq!(typo, over_http);
    assert_eq!(typo["pointer"], "/bord");

    let clash = "99".to_string() + &SEED[2..];
    let clash = problem(call(&mcp, "solve", json!({ "board": clash })).await);
    assert_eq!(
        clash["type"],
        "urn:sudoku-service:problem:conflicting-givens"
    );

    let unknown = mcp
        .call_tool(CallToolRequestParams::new("solv").with_arguments(arguments(json!({}))))
        .await;
    assert!(unknown.is_err(), "{unknown:?}");

    mcp.cancel().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn a_tool_call_has_the_work_budget_of_its_http_operation() {
    let server = TestServer::with(ServeArgs {
        work_budget: 50,
        inline_work: 0,
        ..ServeArgs::default()
    })
    .await;
    let mcp = connect(&server).await;
    let spent = problem(call(&mcp, "solve", json!({ "board": HARD })).await);
    assert_eq!(spent["type"], "urn:sudoku-service:problem:budget-exhausted");
    assert_eq!(spent["status"], 422);
    mcp.cancel().await.unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn mcp_requests_pass_the_rate_limit_and_are_counted() {
    let server = TestServer::with(ServeArgs {
        rate_limit: 1,
        rate_burst: Some(2),
        ..ServeArgs::default()
    })
    .await;
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let response = client()
            .post(server.url("/mcp"))
            .header("accept", "application/json, text/event-stream")
            .json(&list)
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
        if response.status() == 429 {
            assert!(response.headers().contains_key("retry-after"));
            assert!(response.headers().contains_key("ratelimit"));
        }
    }
    assert_eq!(&statuses[..2], [200, 200], "{statuses:?}");
    assert_eq!(statuses[3], 429, "{statuses:?}");
    let metrics = server.get_text("/metrics").await;
    assert!(
        metrics.contains("route=\"/mcp\""),
        "no /mcp series in /metrics"
    );
    server.shutdown().await;
}
