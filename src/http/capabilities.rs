//! `GET /v1/capabilities`: what this server speaks, so that a client can check before it
//! sends a field or a value a server of another version would refuse (request bodies are
//! strict: an unknown field is a 422). Built once from the running configuration, so the
//! limits are the ones this server enforces, not the defaults.

use std::borrow::Cow;

use axum::extract::State;
use axum::Json;
use serde::Serialize;

use super::batch::MAX_BATCH;
use super::guard::{MAX_HEADER_BYTES, MAX_REQUEST_HEADERS, MAX_URI_BYTES};
use super::wire::MAX_SAFE_SEED;
use super::{mcp, AppState, ServeArgs};
use crate::engine::{Difficulty, Shape, Variant};

/// The API versions this server answers under `/vN`.
pub const API_VERSIONS: [&str; 1] = ["v1"];

/// The rule fields every puzzle endpoint takes beside `board`.
const RULE_FIELDS: [&str; 28] = [
    "cages",
    "regions",
    "diagonals",
    "windows",
    "anti_king",
    "anti_knight",
    "non_consecutive",
    "disjoint_groups",
    "extra_regions",
    "odd",
    "even",
    "thermometers",
    "dots",
    "negative",
    "whispers",
    "palindromes",
    "renban",
    "arrows",
    "little_killers",
    "sandwiches",
    "x_sums",
    "skyscrapers",
    "between_lines",
    "region_sum_lines",
    "quadruples",
    "minimum",
    "maximum",
    "clones",
];

/// The answer of `GET /v1/capabilities`.
#[derive(Debug, Clone, Serialize)]
pub struct Capabilities {
    /// The server's release (the crate version, `info.version` of its OpenAPI document).
    pub version: &'static str,
    pub api_versions: &'static [&'static str],
    /// Board sizes (the side) `/solve`, `/validate`, `/hint`, `/candidates` take.
    pub sizes: Vec<usize>,
    /// The forms a board may be sent in; answers use the form sent.
    pub board_forms: [&'static str; 3],
    /// The fields beside `board` that add rules.
    pub rule_fields: [&'static str; 28],
    /// Sizes `/grade` and `/generate` cover (and `/candidates` with `techniques`).
    pub logic_sizes: [usize; 1],
    pub generate: GenerateCapabilities,
    pub limits: Limits,
    /// The Model Context Protocol endpoint for AI assistants.
    pub mcp: McpCapabilities,
}

/// Where the MCP endpoint is and the tools it lists (each the API operation of its name).
#[derive(Debug, Clone, Serialize)]
pub struct McpCapabilities {
    pub path: &'static str,
    pub transport: &'static str,
    pub tools: Vec<Cow<'static, str>>,
}

/// What `/generate` can be asked for.
#[derive(Debug, Clone, Serialize)]
pub struct GenerateCapabilities {
    pub variants: Vec<&'static str>,
    pub difficulties: Vec<&'static str>,
    pub symmetries: [&'static str; 2],
    pub formats: [&'static str; 2],
    /// The largest seed a JSON number may carry; larger ones go as strings of digits.
    pub max_numeric_seed: u64,
}

/// The limits this server enforces, as configured.
#[derive(Debug, Clone, Serialize)]
pub struct Limits {
    pub body_bytes: usize,
    pub batch_body_bytes: usize,
    pub batch_items: usize,
    pub work_budget: u64,
    pub generate_work_budget: u64,
    /// Most puzzles one `/v1/generate/batch` request may ask for.
    pub generate_batch_items: u64,
    pub request_timeout_ms: u64,
    pub max_headers: usize,
    pub max_header_bytes: usize,
    pub max_uri_bytes: usize,
    /// The widest PNG `/v1/render` paints, in pixels.
    pub render_max_size: u32,
    /// The most pages a `/v1/booklet` PDF has, answer pages included.
    pub booklet_max_pages: usize,
    /// Requests per second and burst per client, when the operator set a limit.
    pub rate_limit: Option<RateLimit>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RateLimit {
    pub per_second: u32,
    pub burst: u32,
}

impl Capabilities {
    pub fn new(args: &ServeArgs) -> Capabilities {
        let mut variants = vec!["classic"];
        variants.extend(Variant::ALL.map(Variant::name));
        Capabilities {
            version: env!("CARGO_PKG_VERSION"),
            api_versions: &API_VERSIONS,
            sizes: Shape::ALL.iter().map(|shape| shape.side()).collect(),
            board_forms: ["rows", "line", "numbers"],
            rule_fields: RULE_FIELDS,
            logic_sizes: [Shape::NINE.side()],
            generate: GenerateCapabilities {
                variants,
                difficulties: Difficulty::ALL.iter().map(|d| d.name()).collect(),
                symmetries: ["none", "rotational"],
                formats: ["rows", "line"],
                max_numeric_seed: MAX_SAFE_SEED,
            },
            limits: Limits {
                body_bytes: args.body_limit,
                batch_body_bytes: args.batch_body_limit,
                batch_items: MAX_BATCH,
                work_budget: args.work_budget,
                generate_work_budget: args.generate_work_budget,
                generate_batch_items: args.generate_batch_max,
                request_timeout_ms: args.request_timeout().as_millis() as u64,
                max_headers: MAX_REQUEST_HEADERS,
                max_header_bytes: MAX_HEADER_BYTES,
                max_uri_bytes: MAX_URI_BYTES,
                render_max_size: args.render_max_size,
                booklet_max_pages: args.booklet_max_pages,
                rate_limit: args.rate().map(|(per_second, burst)| RateLimit {
                    per_second: per_second.get(),
                    burst: burst.get(),
                }),
            },
            mcp: McpCapabilities {
                path: mcp::MCP_ROUTE,
                transport: "streamable-http",
                tools: mcp::tool_names(),
            },
        }
    }
}

pub async fn capabilities(State(app): State<AppState>) -> Json<Capabilities> {
    Json(app.capabilities.clone())
}
