//! `POST /generate` and `GET /generate`: a new puzzle with exactly one solution at the
//! requested difficulty. The GET form is for caches: with a seed the answer never changes, so
//! it is served with a year's `Cache-Control` and the puzzle's id as `ETag` (a site can put
//! "the daily puzzle" behind a CDN by URL); without a seed it is random and `no-store`. With
//! `format=svg`, `png` or `pdf` the GET answers a picture of the puzzle instead (drawn as
//! `/v1/render` draws it, charged the same way), so an `<img src>` can point at it.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::client::Client;
use super::extract::{ApiJson, ApiQuery};
use super::problem::Problem;
use super::render::{picture_response, png_width, Job};
use super::wire::{GenerateRequest, GenerateResponse, ImageFormat, ShowJson};
use super::AppState;
use std::ops::RangeInclusive;
use std::sync::Arc;

use serde_json::Value;

use crate::bank::{
    make, random_seed, respond, Asked, Made, PatternConflict, Wanted, FORMATS, SYMMETRIES,
};
use crate::engine::{stable_hash, Difficulty, Pattern, Rating, Variant};

/// The one of `choices` named `value`, in any case; a problem naming the field and listing
/// the choices otherwise.
pub(super) fn one_of<T: Copy>(
    field: &str,
    value: &str,
    choices: &[(&str, T)],
) -> Result<T, Problem> {
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
    ApiQuery(mut request): ApiQuery<GenerateRequest>,
) -> Result<Response, Problem> {
    let picture = picture(&mut request, app.render_max_size)?;
    let cache = |seeded: bool| {
        HeaderValue::from_static(if seeded {
            "public, max-age=31536000, immutable"
        } else {
            "no-store"
        })
    };
    let etag = match request.seed {
        Some(seed) => Some(request_etag(&request, seed, picture)?),
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
    } else if let Some((format, width)) = picture {
        let (asked, seed) = (wanted(&request, Source::Query)?, seed_of(&request));
        let made = generated(&app, client, Arc::new(asked), seed).await?;
        let job = Job {
            puzzle: made.puzzle().clone(),
            show: ShowJson::Puzzle,
            title: None,
            author: None,
            format,
            width,
            known: Vec::new(),
        };
        let drawn = app
            .pool
            .run(client, move |engine, budget| job.run(engine, budget))
            .await?
            .value?;
        if matches(true) {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            picture_response(drawn.body, format)
        }
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

/// A picture's format and PNG width, when `format` names one (`svg`, `png`, `pdf`): taken out
/// of `request`, which then asks for the puzzle alone. `size` without a picture is a problem.
fn picture(
    request: &mut GenerateRequest,
    max: u32,
) -> Result<Option<(ImageFormat, Option<u32>)>, Problem> {
    let named = request.format.as_deref().map(str::trim);
    let Some(format) = ImageFormat::ALL
        .into_iter()
        .find(|f| named.is_some_and(|n| n.eq_ignore_ascii_case(f.name())))
    else {
        return Ok(None);
    };
    let width = png_width(format, request.size.take(), max)?;
    request.format = None;
    Ok(Some((format, width)))
}

/// The ETag of a seeded generation: a hash of [`Asked::key`], the seed and the picture asked
/// for (if any). Invalid requests are refused here as they would be by the generation itself.
fn request_etag(
    request: &GenerateRequest,
    seed: u64,
    picture: Option<(ImageFormat, Option<u32>)>,
) -> Result<HeaderValue, Problem> {
    let mut key = format!("{};seed {seed}", wanted(request, Source::Query)?.key());
    if let Some((format, width)) = picture {
        key = format!("{key};picture {} {width:?}", format.name());
    }
    let tag = format!("\"g{:016x}\"", stable_hash(key.as_bytes()));
    HeaderValue::from_str(&tag).map_err(|_| Problem::Internal)
}

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
                 {}",
                names(&difficulties).join(", "),
                source.range_example()
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

impl Source {
    /// How a rating range is written in a request from here.
    fn range_example(self) -> &'static str {
        match self {
            Source::Body => "{\"rating\": {\"min\": 6.5, \"max\": 7.5}}",
            Source::Query => "rating=6.5-7.5 (or 6.5-, -7.5, 7.2)",
        }
    }
}

/// A rating range from `{"min": a, "max": b}` or a number (JSON), or `"a-b"`, `"a-"`, `"-b"`,
/// `"a"` (a query string); a missing end open, each end moved inward to a rating (see
/// [`Rating::between`]).
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
                Some(v) => rating_end(v.as_f64(), &format!("rating.{name}"), source).map(Some),
            };
            (end("min")?, end("max")?)
        }
        Value::Number(n) => {
            let exact = rating_end(n.as_f64(), "rating", source)?;
            (Some(exact), Some(exact))
        }
        Value::String(text) if source == Source::Query && !text.trim().is_empty() => {
            let end = |part: &str, name: &str| match part.trim() {
                "" => Ok(None),
                part => rating_end(part.parse().ok(), name, source).map(Some),
            };
            match text.split_once('-') {
                Some((low, high)) => (end(low, "rating.min")?, end(high, "rating.max")?),
                None => {
                    let exact = end(text, "rating")?;
                    (exact, exact)
                }
            }
        }
        _ => (None, Some(rating_end(None, "rating", source)?)),
    };
    if let (Some(low), Some(high)) = (min, max) {
        if low > high {
            return Err(Problem::invalid_at(
                "/rating",
                format!("rating.min ({low}) is above rating.max ({high})"),
            ));
        }
    }
    Rating::between(min, max).ok_or_else(|| {
        let asked = match (min, max) {
            (Some(low), Some(high)) if low == high => format!("{low}"),
            (low, high) => format!(
                "{} to {}",
                low.map_or("0".into(), |v| v.to_string()),
                high.map_or("20".into(), |v| v.to_string())
            ),
        };
        Problem::invalid_at(
            "/rating",
            format!(
                "no rating lies in {asked}: Sudoku Explainer ratings have one decimal (such \
                 as 2.6 or 2.7)"
            ),
        )
    })
}

/// The rating end `value`, or a problem at the field `name` (`rating.min` is `/rating/min`)
/// when it is not a number from 0 to [`Rating::HIGHEST`].
fn rating_end(value: Option<f64>, name: &str, source: Source) -> Result<f64, Problem> {
    let highest = Rating::HIGHEST;
    match value {
        Some(v) if (0.0..=highest.value()).contains(&v) => Ok(v),
        _ => Err(Problem::invalid_at(
            format!("/{}", name.replace('.', "/")),
            format!(
                "{name} must be a Sudoku Explainer rating from 0 to {}, such as 6.5; a range \
                 is written {}",
                highest.value(),
                source.range_example()
            ),
        )),
    }
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

/// What `request` asks for, or the problem with it.
pub(super) fn wanted(request: &GenerateRequest, source: Source) -> Result<Asked, Problem> {
    if request.size.is_some() {
        return Err(Problem::invalid_at(
            "/size",
            "size is the width of a PNG picture: GET /v1/generate with format=png",
        ));
    }
    let picture = request.format.as_deref().is_some_and(|name| {
        ImageFormat::ALL
            .iter()
            .any(|f| name.trim().eq_ignore_ascii_case(f.name()))
    });
    if picture {
        return Err(Problem::invalid_at(
            "/format",
            "format svg, png or pdf is a picture of the puzzle, which GET /v1/generate \
             answers (for an <img src>); here format is rows or line",
        ));
    }
    let variant = wanted_variant(request)?;
    let leveled = request.difficulty.is_some() || request.rating.is_some();
    let what = match variant {
        // A variant without a level: its minimal puzzle, as fast as it comes.
        Some(variant) if !leveled => Wanted::Unrated(variant),
        _ => Wanted::Rated(variant, wanted_ratings(request, source)?),
    };
    let symmetry = one_of(
        "symmetry",
        request.symmetry.as_deref().unwrap_or("none"),
        &SYMMETRIES,
    )?;
    let as_rows = one_of(
        "format",
        request.format.as_deref().unwrap_or("rows"),
        &FORMATS,
    )?;
    let asked = Asked::new(what, symmetry, as_rows)?;
    let Some(text) = request.pattern.as_deref() else {
        return Ok(asked);
    };
    let pattern =
        Pattern::parse(text.trim()).map_err(|e| Problem::invalid_at("/pattern", e.to_string()))?;
    asked.with_pattern(pattern).map_err(|conflict| {
        let pointer = match conflict {
            PatternConflict::Variant => "/variant",
            PatternConflict::Symmetry => "/symmetry",
            // Like every range no generator reaches: `unsupported`, not a malformed request.
            PatternConflict::Rating { .. } => {
                return Problem::Unsupported {
                    detail: conflict.to_string(),
                    pointer: Some("/rating".into()),
                };
            }
        };
        Problem::invalid_at(pointer, conflict.to_string())
    })
}

/// `/generate`'s answer to `request`, generated in `client`'s generation lane.
pub(super) async fn answer(
    app: &AppState,
    client: Client,
    request: GenerateRequest,
    source: Source,
) -> Result<GenerateResponse, Problem> {
    let asked = Arc::new(wanted(&request, source)?);
    let seed = seed_of(&request);
    let made = generated(app, client, Arc::clone(&asked), seed).await?;
    Ok(respond(&made, &asked, seed))
}

/// The request's seed, or a random one.
fn seed_of(request: &GenerateRequest) -> u64 {
    request.seed.unwrap_or_else(random_seed)
}

/// What `asked` and `seed` make, generated in `client`'s generation lane.
async fn generated(
    app: &AppState,
    client: Client,
    asked: Arc<Asked>,
    seed: u64,
) -> Result<Made, Problem> {
    let timed = app
        .pool
        .run_generation(client, None, move |engine, budget| {
            make(engine, budget, &asked, seed)
        })
        .await?;
    Ok(timed.value?)
}
