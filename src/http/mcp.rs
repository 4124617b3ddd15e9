//! `POST /mcp`: the Model Context Protocol (Streamable HTTP transport) for AI assistants, with
//! the official Rust SDK (`rmcp`). Its tools are the API's puzzle operations: `solve`,
//! `validate`, `hint`, `candidates`, `grade` and `generate`.
//!
//! Nothing here is a second implementation. A tool call is the HTTP request it names: its
//! arguments go through the same extractor as a request body (so an argument of the wrong
//! shape is the same problem, with the same JSON pointer), then to the same handler, which
//! runs on the same [`SolvePool`](super::pool::SolvePool) under the same work budget and
//! counts for the same client (the one the observe middleware found for the HTTP request
//! that carries the call). The route sits inside the same middleware as every other:
//! guard (connection reserve, header and body limits, rate limit), time limit, metrics, log.
//! A call's input schema is derived from the wire type its handler reads (`schemars`).
//!
//! The transport is stateless with JSON answers: each POST is one JSON-RPC exchange, no
//! session is kept and no stream stays open, so an MCP client holds nothing on the server
//! between calls and every call is bounded like any request. A handler's problem comes back
//! as a tool result with `isError` and the problem document as its structured content.

use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRequest, Request, State};
use axum::http::header;
use axum::Json;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, JsonObject,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::client::Client;
use super::problem::Problem;
use super::wire::{BoardRequest, CandidatesRequest, GenerateRequest, HintRequest, ValidateRequest};
use super::{generate, logic, solve, AppState};

/// The route the MCP endpoint is served at.
pub const MCP_ROUTE: &str = "/mcp";

/// The tools, in the order `tools/list` gives them: name, what it does, and the wire type
/// its arguments are read as (its schema is the tool's input schema).
fn tools() -> Vec<Tool> {
    vec![
        tool::<BoardRequest>(
            "solve",
            "Solve a Sudoku (any size 4x4 to 25x25; Killer cages, Jigsaw regions, X \
             diagonals, Hyper windows): the solution and whether it is unique. The same as \
             POST /v1/solve.",
        ),
        tool::<ValidateRequest>(
            "validate",
            "Check a board, or a player's move on it, against the rules: conflicts, whether \
             it is solved, completions counted up to 2, wrong entries when the givens are \
             sent. The same as POST /v1/validate.",
        ),
        tool::<HintRequest>(
            "hint",
            "The next logical step for a player's board (a technique, the cells and digits \
             it concerns, one sentence of explanation), or the mistake or conflict to fix \
             first. The same as POST /v1/hint.",
        ),
        tool::<CandidatesRequest>(
            "candidates",
            "The pencil marks of every cell, basic or after the elimination techniques. The \
             same as POST /v1/candidates.",
        ),
        tool::<BoardRequest>(
            "grade",
            "How hard a puzzle is for a person: level, Sudoku Explainer rating, hardest \
             technique and how often each was needed. The same as POST /v1/grade.",
        ),
        tool::<GenerateRequest>(
            "generate",
            "A new puzzle with exactly one solution, classic at a level or rating, or a \
             variant (killer, x, hyper, jigsaw); the same seed gives the same puzzle. The \
             same as POST /v1/generate.",
        ),
    ]
}

/// The tools' names, in the order `tools/list` gives them (for `/v1/capabilities`).
pub fn tool_names() -> Vec<Cow<'static, str>> {
    tools().into_iter().map(|tool| tool.name).collect()
}

fn tool<Args: JsonSchema>(name: &'static str, description: &'static str) -> Tool {
    let schema = schemars::schema_for!(Args);
    let object = match schema.to_value() {
        Value::Object(object) => object,
        // A derived schema of a struct is always an object.
        _ => JsonObject::new(),
    };
    Tool::new(name, description, Arc::new(object))
}

/// The MCP server: one per call (the transport is stateless), sharing the service's state
/// and the tool list built once.
#[derive(Clone)]
pub struct SudokuMcp {
    app: AppState,
    tools: Arc<Vec<Tool>>,
}

/// The tower service mounted at [`MCP_ROUTE`]: stateless, JSON answers, a body no larger
/// than any other request's.
pub fn service(
    app: AppState,
    body_limit: usize,
) -> StreamableHttpService<SudokuMcp, NeverSessionManager> {
    let server = SudokuMcp {
        app,
        tools: Arc::new(tools()),
    };
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_sse_retry(None)
        .with_max_request_body_bytes(body_limit)
        // The API is public, served under whatever name the operator gives it, and holds
        // no one's data: no Host allow-list, as for every other route (CORS is the
        // router's).
        .disable_allowed_hosts();
    StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    )
}

impl ServerHandler for SudokuMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                env!("CARGO_PKG_NAME"),
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
                "Sudoku tools: boards as 9 row strings (\".\" or \"0\" for an empty cell), one \
                 string of all cells, or rows of numbers; any size from 4x4 to 25x25. A \
                 generated puzzle's `board` and `cages` can be passed back as they are.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The client the observe middleware found for the HTTP request carrying this call.
        let client = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Client>().copied())
            .unwrap_or_default();
        let app = State(self.app.clone());
        let arguments = request.arguments.unwrap_or_default();
        let answer = match request.name.as_ref() {
            "solve" => run(arguments, |body| solve::solve(app, client, body)).await,
            "validate" => run(arguments, |body| solve::validate(app, client, body)).await,
            "hint" => run(arguments, |body| logic::hint(app, client, body)).await,
            "candidates" => run(arguments, |body| logic::candidates(app, client, body)).await,
            "grade" => run(arguments, |body| logic::grade(app, client, body)).await,
            "generate" => run(arguments, |body| generate::generate(app, client, body)).await,
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no tool named {other:?}"),
                    None,
                ))
            }
        };
        Ok(answer.into())
    }
}

/// One call: the arguments read as the handler's request body, through the same extractor
/// (a rejection is the same problem as over HTTP), then the handler. A problem is the tool's
/// error result (`isError`, the problem document as structured content), not a protocol
/// error: the call was understood, the puzzle was not.
async fn run<E, A, F, Fut>(arguments: JsonObject, handler: F) -> CallToolResult
where
    E: FromRequest<(), Rejection = Problem>,
    A: JsonAnswer,
    F: FnOnce(E) -> Fut,
    Fut: Future<Output = Result<A, Problem>>,
{
    let result = match parse::<E>(arguments).await {
        Ok(body) => handler(body).await,
        Err(problem) => Err(problem),
    };
    let json = result.and_then(|answer| {
        serde_json::to_value(answer.into_value()).map_err(|_| Problem::Internal)
    });
    match json {
        Ok(json) => CallToolResult::structured(json),
        Err(problem) => CallToolResult::structured_error(
            serde_json::to_value(problem.body())
                .unwrap_or_else(|_| Value::Object(JsonObject::new())),
        ),
    }
}

/// What the handlers answer with: a JSON value, however HTTP writes it.
trait JsonAnswer {
    type Value: Serialize;
    fn into_value(self) -> Self::Value;
}

impl<T: Serialize> JsonAnswer for Json<T> {
    type Value = T;
    fn into_value(self) -> T {
        self.0
    }
}

impl<T: Serialize> JsonAnswer for solve::SizedJson<T> {
    type Value = T;
    fn into_value(self) -> T {
        self.into_inner()
    }
}

async fn parse<E: FromRequest<(), Rejection = Problem>>(
    arguments: JsonObject,
) -> Result<E, Problem> {
    let body = Value::Object(arguments).to_string();
    let request = Request::builder()
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .map_err(|_| Problem::Internal)?;
    E::from_request(request, &()).await
}
