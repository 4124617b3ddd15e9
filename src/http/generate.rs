//! `POST /generate` and `GET /generate`: a new puzzle with exactly one solution at the
//! requested difficulty. The GET form is for caches: with a seed the answer never changes, so
//! it is served with a year's `Cache-Control` and the puzzle's id as `ETag` (a site can put
//! "the daily puzzle" behind a CDN by URL); without a seed it is random and `no-store`.

use std::hash::{BuildHasher, Hasher};

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::client::Client;
use super::extract::{ApiJson, ApiQuery};
use super::problem::Problem;
use super::wire::{BoardText, GenerateRequest, GenerateResponse, GradeJson};
use super::AppState;
use crate::engine::{puzzle_id, Difficulty, Grid, Rules, Symmetry};

/// Seeds above this lose precision in JavaScript numbers; generated seeds stay below it so a
/// browser can send them back unchanged.
const MAX_SAFE_SEED: u64 = (1 << 53) - 1;

/// The one of `choices` named `value`, in any case; a problem naming the field and listing
/// the choices otherwise.
fn one_of<T: Copy>(field: &str, value: &str, choices: &[(&str, T)]) -> Result<T, Problem> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(value.trim()))
        .map(|&(_, choice)| choice)
        .ok_or_else(|| {
            Problem::invalid_at(
                format!("/{field}"),
                format!(
                    "{field} must be one of {}; got {value:?}",
                    names(choices).join(", ")
                ),
            )
        })
}

fn names<T>(choices: &[(&str, T)]) -> Vec<String> {
    choices.iter().map(|(name, _)| name.to_string()).collect()
}

fn random_seed() -> u64 {
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
        & MAX_SAFE_SEED
}

pub async fn generate(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<GenerateRequest>,
) -> Result<Json<GenerateResponse>, Problem> {
    Ok(Json(answer(&app, client, request).await?))
}

/// `GET /generate?difficulty=hard&seed=42`: the same answer, cacheable when seeded.
pub async fn generate_get(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    ApiQuery(request): ApiQuery<GenerateRequest>,
) -> Result<Response, Problem> {
    let seeded = request.seed.is_some();
    let generated = answer(&app, client, request).await?;
    let etag =
        HeaderValue::from_str(&format!("\"{}\"", generated.id)).map_err(|_| Problem::Internal)?;
    let cache = HeaderValue::from_static(if seeded {
        "public, max-age=31536000, immutable"
    } else {
        "no-store"
    });
    let unchanged = seeded
        && headers
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .any(|tag| tag.trim() == etag.to_str().unwrap_or_default() || tag.trim() == "*");
    let mut response = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        Json(generated).into_response()
    };
    let out = response.headers_mut();
    out.insert(header::CACHE_CONTROL, cache);
    if seeded {
        out.insert(header::ETAG, etag);
    }
    Ok(response)
}

async fn answer(
    app: &AppState,
    client: Client,
    request: GenerateRequest,
) -> Result<GenerateResponse, Problem> {
    let difficulties = Difficulty::ALL.map(|d| (d.name(), d));
    let difficulty = match request.difficulty.as_deref() {
        Some(value) => one_of("difficulty", value, &difficulties)?,
        None => {
            return Err(Problem::invalid_at(
                "/difficulty",
                format!(
                    "missing field `difficulty`: send one of {}",
                    names(&difficulties).join(", ")
                ),
            ))
        }
    };
    let symmetry = one_of(
        "symmetry",
        request.symmetry.as_deref().unwrap_or("none"),
        &[
            ("none", Symmetry::None),
            ("rotational", Symmetry::Rotational),
        ],
    )?;
    let as_rows = one_of(
        "format",
        request.format.as_deref().unwrap_or("rows"),
        &[("rows", true), ("line", false)],
    )?;
    let seed = request.seed.unwrap_or_else(random_seed);
    let timed = app
        .pool
        .run(client, move |engine, budget| {
            engine.generate(difficulty, seed, symmetry, budget)
        })
        .await?;
    let generated = timed.value?;
    let render = |grid: &Grid| {
        if as_rows {
            BoardText::Rows(grid.to_rows())
        } else {
            BoardText::Line(grid.to_line())
        }
    };
    Ok(GenerateResponse {
        id: puzzle_id(&generated.puzzle, &Rules::classic(generated.puzzle.shape())),
        puzzle: render(&generated.puzzle),
        solution: render(generated.solution.grid()),
        difficulty: generated.grade.difficulty.name(),
        seed,
        symmetry: match symmetry {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
        },
        givens: generated.puzzle.given_count(),
        grade: GradeJson::from(&generated.grade),
    })
}
