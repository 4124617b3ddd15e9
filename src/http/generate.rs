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
use super::wire::{
    BoardText, GenerateRequest, GenerateResponse, GradeJson, RulesJson, SeedJson, MAX_SAFE_SEED,
};
use super::AppState;
use std::ops::RangeInclusive;
use std::sync::Arc;

use serde_json::Value;

use crate::engine::{
    stable_hash, Budget, Difficulty, Engine, EngineError, Grade, Grid, Puzzle, Rating, Symmetry,
    Variant, GENERATOR_VERSION,
};

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

pub(super) fn random_seed() -> u64 {
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
    Ok(Json(answer(&app, client, request, Source::Body).await?))
}

/// `GET /generate?difficulty=hard&seed=42`: the same answer, cacheable when seeded. The ETag
/// is derived from the request (what was asked, and the generator's version), not from the
/// puzzle, so a cache revalidating with `If-None-Match` gets its 304 without a generation.
pub async fn generate_get(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    ApiQuery(request): ApiQuery<GenerateRequest>,
) -> Result<Response, Problem> {
    let cache = |seeded: bool| {
        HeaderValue::from_static(if seeded {
            "public, max-age=31536000, immutable"
        } else {
            "no-store"
        })
    };
    let etag = match request.seed {
        Some(seed) => Some(request_etag(&request, seed, Source::Query)?),
        None => None,
    };
    let matches = |any: bool| {
        etag.as_ref().is_some_and(|etag| {
            if_none_match(&headers)
                .any(|tag| (any && tag == "*") || weak_match(tag, etag.to_str().unwrap_or("")))
        })
    };
    let mut response = if matches(false) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let generated = answer(&app, client, request, Source::Query).await?;
        // "*" matches any current answer: there is one once it is made.
        if matches(true) {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            Json(generated).into_response()
        }
    };
    let out = response.headers_mut();
    out.insert(header::CACHE_CONTROL, cache(etag.is_some()));
    if let Some(etag) = etag {
        out.insert(header::ETAG, etag);
    }
    Ok(response)
}

/// The entity tags of every `If-None-Match` header, trimmed.
pub(super) fn if_none_match(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
}

/// RFC 9110's weak comparison, which `If-None-Match` uses: the opaque tags are equal, whether
/// either is marked weak (`W/"..."`) or not.
pub(super) fn weak_match(a: &str, b: &str) -> bool {
    let opaque = |tag: &str| tag.strip_prefix("W/").unwrap_or(tag).to_string();
    opaque(a) == opaque(b)
}

/// The ETag of a seeded generation: a hash of [`Asked::key`] and the seed. Invalid requests
/// are refused here as they would be by the generation itself.
fn request_etag(
    request: &GenerateRequest,
    seed: u64,
    source: Source,
) -> Result<HeaderValue, Problem> {
    let key = format!("{};seed {seed}", wanted(request, source)?.key());
    let tag = format!("\"g{:016x}\"", stable_hash(key.as_bytes()));
    HeaderValue::from_str(&tag).map_err(|_| Problem::Internal)
}

/// The highest rating a range may name: beyond anything Sudoku Explainer gives a 9x9 puzzle.
const MAX_RATING_TENTHS: u16 = 200;

/// The ratings the request asks for: a level's band, or an explicit range; exactly one of the
/// two.
fn wanted_ratings(
    request: &GenerateRequest,
    source: Source,
) -> Result<RangeInclusive<Rating>, Problem> {
    let difficulties = Difficulty::ALL.map(|d| (d.name(), d));
    match (request.difficulty.as_deref(), &request.rating) {
        (Some(value), None) => Ok(one_of("difficulty", value, &difficulties)?.ratings()),
        (None, Some(rating)) => rating_range(rating, source),
        (Some(_), Some(_)) => Err(Problem::invalid_at(
            "/rating",
            "send either difficulty or rating, not both",
        )),
        (None, None) => Err(Problem::invalid_at(
            "/difficulty",
            format!(
                "missing field `difficulty`: send one of {}, or a rating range such as \
                 {{\"rating\": {{\"min\": 6.5, \"max\": 7.5}}}}",
                names(&difficulties).join(", ")
            ),
        )),
    }
}

/// Where a request came from: a query string has only strings.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    Body,
    Query,
}

/// A rating range from `{"min": a, "max": b}` or a number (JSON), or `"a-b"`, `"a-"`, `"-b"`,
/// `"a"` (a query string); each end rounded to one decimal, a missing one open.
fn rating_range(value: &Value, source: Source) -> Result<RangeInclusive<Rating>, Problem> {
    let (min, max) = match value {
        Value::Object(fields) => {
            if let Some(other) = fields.keys().find(|k| *k != "min" && *k != "max") {
                return Err(Problem::invalid_at(
                    format!("/rating/{other}"),
                    format!("unknown field `{other}` in rating: expected `min` and/or `max`"),
                ));
            }
            let end = |name: &str| match fields.get(name) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => tenths(v.as_f64(), &format!("rating.{name}")).map(Some),
            };
            (end("min")?, end("max")?)
        }
        Value::Number(n) => {
            let exact = tenths(n.as_f64(), "rating")?;
            (Some(exact), Some(exact))
        }
        Value::String(text) if source == Source::Query && !text.trim().is_empty() => {
            let end = |part: &str, name: &str| match part.trim() {
                "" => Ok(None),
                part => tenths(part.parse().ok(), name).map(Some),
            };
            match text.split_once('-') {
                Some((low, high)) => (end(low, "rating.min")?, end(high, "rating.max")?),
                None => {
                    let exact = end(text, "rating")?;
                    (exact, exact)
                }
            }
        }
        _ => (None, Some(tenths(None, "rating")?)),
    };
    let (min, max) = (min.unwrap_or(0), max.unwrap_or(u16::MAX));
    if min > max {
        return Err(Problem::invalid_at(
            "/rating",
            format!(
                "rating.min ({}) is above rating.max ({})",
                Rating::from_tenths(min),
                Rating::from_tenths(max)
            ),
        ));
    }
    Ok(Rating::from_tenths(min)..=Rating::from_tenths(max))
}

/// The rating `value` in tenths, or a problem at the field `name` (`rating.min` is
/// `/rating/min`) when it is not a number from 0 to 20.
fn tenths(value: Option<f64>, name: &str) -> Result<u16, Problem> {
    let highest = f64::from(MAX_RATING_TENTHS) / 10.0;
    match value {
        Some(v) if (0.0..=highest).contains(&v) => Ok((v * 10.0).round() as u16),
        _ => Err(Problem::invalid_at(
            format!("/{}", name.replace('.', "/")),
            format!(
                "{name} must be a Sudoku Explainer rating from 0 to {highest}, such as 6.5, \
                 or rating an object such as {{\"min\": 6.5, \"max\": 7.5}}"
            ),
        )),
    }
}

/// What to generate: a puzzle of a variant (classic: `None`) in a rating range, or a
/// variant's minimal puzzle without a grade (no level asked for).
enum Wanted {
    Rated(Option<Variant>, RangeInclusive<Rating>),
    Unrated(Variant),
}

/// The variant asked for; `None` for classic.
fn wanted_variant(request: &GenerateRequest) -> Result<Option<Variant>, Problem> {
    let mut variants = vec![("classic", None)];
    variants.extend(Variant::ALL.map(|v| (v.name(), Some(v))));
    one_of(
        "variant",
        request.variant.as_deref().unwrap_or("classic"),
        &variants,
    )
}

/// A generation request, read and checked: what to make, how, and in which board form.
pub(super) struct Asked {
    what: Wanted,
    symmetry: Symmetry,
    as_rows: bool,
}

impl Asked {
    /// The variant asked for; `None` for classic.
    pub(super) fn variant(&self) -> Option<Variant> {
        match &self.what {
            Wanted::Rated(variant, _) => *variant,
            Wanted::Unrated(variant) => Some(*variant),
        }
    }

    /// Everything a seeded answer depends on besides the seed, as text: the variant, the
    /// ratings asked for, the symmetry and the board form, each as the generator reads it (so
    /// `difficulty=hard` and `rating=2.6-4.0` have the same key), and the generator's
    /// version, which changes whenever a seed may give another puzzle.
    pub(super) fn key(&self) -> String {
        let asked = match &self.what {
            Wanted::Rated(variant, ratings) => format!(
                "{};{}-{}",
                variant.map_or("classic", Variant::name),
                ratings.start().tenths(),
                ratings.end().tenths()
            ),
            Wanted::Unrated(variant) => format!("{};unrated", variant.name()),
        };
        format!(
            "generator {GENERATOR_VERSION};{asked};{:?};rows {};canonical",
            self.symmetry, self.as_rows
        )
    }
}

/// What `request` asks for, or the problem with it.
pub(super) fn wanted(request: &GenerateRequest, source: Source) -> Result<Asked, Problem> {
    let variant = wanted_variant(request)?;
    let leveled = request.difficulty.is_some() || request.rating.is_some();
    let what = match variant {
        // A variant without a level: its minimal puzzle, as fast as it comes.
        Some(variant) if !leveled => Wanted::Unrated(variant),
        _ => {
            let ratings = wanted_ratings(request, source)?;
            Engine::check_reachable(variant, &ratings)?;
            Wanted::Rated(variant, ratings)
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
    Ok(Asked {
        what,
        symmetry,
        as_rows,
    })
}

/// A generation's result, before it is rendered: the puzzle, its solution, its grade (absent
/// for a variant generated without a level) and, for a classic puzzle, its canonical form.
pub(super) struct Made {
    puzzle: Puzzle,
    solution: Grid,
    grade: Option<Grade>,
    canonical: Option<Puzzle>,
}

impl Made {
    /// How many cells are given.
    pub(super) fn clues(&self) -> usize {
        self.puzzle.grid().given_count()
    }

    /// The id of the canonical form (classic puzzles only).
    pub(super) fn canonical_id(&self) -> Option<String> {
        self.canonical.as_ref().map(Puzzle::id)
    }
}

/// Generates what `asked` wants from `seed`, on a solver thread; a classic puzzle's canonical
/// form is found in the same job (tens of microseconds beside the generation).
pub(super) fn make(
    engine: &mut Engine,
    budget: &Budget,
    asked: &Asked,
    seed: u64,
) -> Result<Made, EngineError> {
    let (puzzle, solution, grade) = match &asked.what {
        Wanted::Unrated(variant) => engine
            .generate_variant(*variant, seed, asked.symmetry, budget)
            .map(|made| (made.puzzle, made.solution, None))?,
        Wanted::Rated(variant, ratings) => engine
            .generate(*variant, ratings.clone(), seed, asked.symmetry, budget)
            .map(|made| {
                let puzzle = Puzzle::new(made.puzzle, made.rules)
                    .unwrap_or_else(|_| unreachable!("a generated puzzle has no clash"));
                (puzzle, made.solution.grid().clone(), Some(made.grade))
            })?,
    };
    let canonical = match asked.variant() {
        None => Some(engine.canonical(&puzzle, budget)?),
        Some(_) => None,
    };
    Ok(Made {
        puzzle,
        solution,
        grade,
        canonical,
    })
}

/// `made` as `/generate` answers it.
pub(super) fn respond(made: &Made, asked: &Asked, seed: u64) -> GenerateResponse {
    let render = |grid: &Grid| {
        if asked.as_rows {
            BoardText::Rows(grid.to_rows())
        } else {
            BoardText::Line(grid.to_line())
        }
    };
    let Made {
        puzzle,
        solution,
        grade,
        canonical,
    } = made;
    GenerateResponse {
        id: puzzle.id(),
        variant: asked.variant().map_or("classic", Variant::name),
        board: render(puzzle.grid()),
        solution: render(solution),
        canonical: canonical.as_ref().map(|form| render(form.grid())),
        canonical_id: canonical.as_ref().map(Puzzle::id),
        difficulty: grade
            .as_ref()
            .and_then(|g| g.difficulty())
            .map(|d| d.name()),
        seed: SeedJson(seed),
        symmetry: match asked.symmetry {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
        },
        clues: puzzle.grid().given_count(),
        grade: grade.as_ref().map(GradeJson::from),
        rules: RulesJson::new(puzzle.rules(), asked.as_rows),
    }
}

/// `/generate`'s answer to `request`, generated in `client`'s generation lane.
pub(super) async fn answer(
    app: &AppState,
    client: Client,
    request: GenerateRequest,
    source: Source,
) -> Result<GenerateResponse, Problem> {
    let asked = Arc::new(wanted(&request, source)?);
    let seed = request.seed.unwrap_or_else(random_seed);
    let job = Arc::clone(&asked);
    let timed = app
        .pool
        .run_generation(client, None, move |engine, budget| {
            make(engine, budget, &job, seed)
        })
        .await?;
    let made = timed.value?;
    Ok(respond(&made, &asked, seed))
}
