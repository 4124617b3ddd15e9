//! `POST /generate`: a new puzzle with exactly one solution at the requested difficulty.

use std::hash::{BuildHasher, Hasher};

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};

use super::logic::GradeJson;
use super::problem::Problem;
use super::wire::{ApiJson, BoardText};
use super::AppState;
use crate::engine::{self, Board, Difficulty, Symmetry};

/// Seeds above this lose precision in JavaScript numbers; generated seeds stay below it so a
/// browser can send them back unchanged.
const MAX_SAFE_SEED: u64 = (1 << 53) - 1;

#[derive(Debug, Deserialize)]
pub struct GenerateRequest {
    /// `easy`, `medium`, `hard`, `expert`, `master` or `extreme`.
    pub difficulty: String,
    /// Same seed, same puzzle. Omitted: a random one, returned in the answer.
    #[serde(default, deserialize_with = "integral_seed")]
    pub seed: Option<u64>,
    /// `none` (default) or `rotational` (the givens are symmetric under a half turn).
    #[serde(default)]
    pub symmetry: Option<String>,
    /// `rows` (default: 9 strings) or `line` (one 81-character string).
    #[serde(default)]
    pub format: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct GenerateResponse {
    pub puzzle: BoardText,
    pub solution: BoardText,
    pub difficulty: &'static str,
    pub seed: u64,
    pub symmetry: &'static str,
    pub givens: usize,
    pub grade: GradeJson,
}

/// A seed as JSON Schema sees integers: `42` and `42.0` are the same integer, so both are
/// accepted; fractions, negatives and values beyond u64 are not.
fn integral_seed<'de, D>(deserializer: D) -> Result<Option<u64>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::Error;
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else {
        return Ok(None);
    };
    if let Some(seed) = number.as_u64() {
        return Ok(Some(seed));
    }
    match number.as_f64() {
        Some(f) if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) => {
            Ok(Some(f as u64))
        }
        _ => Err(D::Error::custom(format!(
            "seed must be a whole number from 0 to {}, got {number}",
            u64::MAX
        ))),
    }
}

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
        .run(move |_| engine::generate(difficulty, seed, symmetry))
        .await?;
    let generated = timed.value.map_err(|e| match e {
        engine::GenerateError::EmptyRange { .. } => Problem::InvalidRequest {
            detail: e.to_string(),
        },
        // The work budget ran out: another try (another seed) usually succeeds.
        engine::GenerateError::NotFound { .. } => Problem::Overloaded {
            retry_after_secs: 1,
        },
    })?;
    let render = |board: &Board| {
        if as_rows {
            BoardText::Rows(board.to_rows())
        } else {
            BoardText::Line(board.to_line())
        }
    };
    Ok(Json(GenerateResponse {
        puzzle: render(&generated.puzzle),
        solution: render(generated.solution.board()),
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
