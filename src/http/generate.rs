//! `POST /generate`: a new puzzle with exactly one solution at the requested difficulty.

use std::hash::{BuildHasher, Hasher};

use axum::extract::State;
use axum::Json;

use super::client::Client;
use super::extract::ApiJson;
use super::problem::Problem;
use super::wire::{BoardText, GenerateRequest, GenerateResponse, GradeJson};
use super::AppState;
use crate::engine::{Difficulty, Grid, Symmetry};

/// Seeds above this lose precision in JavaScript numbers; generated seeds stay below it so a
/// browser can send them back unchanged.
const MAX_SAFE_SEED: u64 = (1 << 53) - 1;

fn one_of<T>(field: &str, value: &str, choices: &[(&str, T)]) -> Result<T, Problem>
where
    T: Copy,
{
    choices
        .iter()
        .find(|(name, _)| *name == value)
        .map(|&(_, choice)| choice)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
            Problem::InvalidRequest {
                detail: format!("{field} must be one of {}; got {value:?}", names.join(", ")),
            }
        })
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
    let difficulties = Difficulty::ALL.map(|d| (d.name(), d));
    let difficulty = one_of("difficulty", &request.difficulty, &difficulties)?;
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
    Ok(Json(GenerateResponse {
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
    }))
}
