//! `GET /v1/daily?date=YYYY-MM-DD&level=...&variant=...&tz=Area/City`: the puzzle of the day.
//!
//! The puzzle is `/generate`'s for a seed derived from the date, the level and the variant, so
//! every replica and every restart serves the same one for that date. With a daily secret set
//! (`--daily-secret`, `SUDOKU_DAILY_SECRET`) the seed is an HMAC-SHA256 of those under the
//! secret: nobody without it can work out a day's puzzle in advance. Without one it is a plain
//! hash (predictable, but still the same everywhere).
//!
//! `date` defaults to today in `tz` (an IANA name; UTC when left out), read from the time
//! zone database compiled into the binary (jiff's bundled copy), so replicas on machines with
//! different system databases still agree. A defaulted date is cacheable until the next
//! midnight in `tz`; an explicit date's answer never changes and is cacheable for a year. The
//! `ETag` is made from the seed and the request, so `If-None-Match` gets its 304 without a
//! generation.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use hmac::{KeyInit, Mac};
use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::client::Client;
use super::extract::ApiQuery;
use super::generate::{answer, if_none_match, wanted, weak_match, Source};
use super::problem::Problem;
use super::wire::{GenerateRequest, GenerateResponse, MAX_SAFE_SEED};
use super::AppState;
use crate::engine::stable_hash;

/// The query of `/v1/daily`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DailyQuery {
    /// `YYYY-MM-DD`; default: today in `tz`.
    #[serde(default)]
    pub date: Option<String>,
    /// A level, as `/generate`'s `difficulty`; default `medium`.
    #[serde(default)]
    pub level: Option<String>,
    #[serde(default)]
    pub variant: Option<String>,
    /// An IANA time zone name (`Europe/Paris`); default UTC.
    #[serde(default)]
    pub tz: Option<String>,
    #[serde(default)]
    pub format: Option<String>,
}

/// The answer: the date it is the puzzle of, and the puzzle as `/generate` answers it.
#[derive(Debug, Serialize)]
pub struct DailyResponse {
    pub date: String,
    #[serde(flatten)]
    pub puzzle: GenerateResponse,
}

/// The time zone named `name`, or UTC; a problem at `/tz` for a name the database lacks.
fn time_zone(name: Option<&str>) -> Result<TimeZone, Problem> {
    match name.map(str::trim) {
        None | Some("") => Ok(TimeZone::UTC),
        Some(name) => TimeZone::get(name).map_err(|_| {
            Problem::invalid_at(
                "/tz",
                format!("tz must be an IANA time zone name such as Europe/Paris; got {name:?}"),
            )
        }),
    }
}

/// `text` as a date written `YYYY-MM-DD`, or a problem at `/date`.
fn date_of(text: &str) -> Result<Date, Problem> {
    let refuse = || {
        Problem::invalid_at(
            "/date",
            format!(
                "date must be a calendar date written YYYY-MM-DD, such as 2026-12-02; got {text:?}"
            ),
        )
    };
    let shaped = text.len() == 10
        && text.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !shaped {
        return Err(refuse());
    }
    text.parse().map_err(|_| refuse())
}

/// The seed of the puzzle of `date` at `level` of `variant`: an HMAC-SHA256 under `secret`
/// when there is one, else a plain hash; below 2^53 like every seed an answer carries.
pub fn daily_seed(secret: Option<&str>, date: Date, level: &str, variant: &str) -> u64 {
    let message = format!("daily puzzle {date};level {level};variant {variant}");
    let hash = match secret {
        Some(secret) => {
            let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes())
                .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
            mac.update(message.as_bytes());
            let bytes = mac.finalize().into_bytes();
            let mut first = [0u8; 8];
            first.copy_from_slice(&bytes[..8]);
            u64::from_le_bytes(first)
        }
        None => stable_hash(message.as_bytes()),
    };
    hash & MAX_SAFE_SEED
}

/// A problem with the level as this query names it: `level`, where `/generate` says
/// `difficulty`.
fn as_level(problem: Problem) -> Problem {
    match problem {
        Problem::InvalidRequest {
            detail,
            pointer: Some(pointer),
        } if pointer == "/difficulty" => {
            Problem::invalid_at("/level", detail.replace("difficulty", "level"))
        }
        other => other,
    }
}

/// A name as the generator reads it: trimmed, in lower case.
fn name(value: Option<&str>, default: &str) -> String {
    value.map_or(default, str::trim).to_ascii_lowercase()
}

pub async fn daily(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery<DailyQuery>,
) -> Result<Response, Problem> {
    let tz = time_zone(query.tz.as_deref())?;
    let now = Timestamp::now().to_zoned_datetime(tz.clone());
    let date = match query.date.as_deref() {
        Some(text) => date_of(text.trim())?,
        None => now.date(),
    };
    let level = name(query.level.as_deref(), "medium");
    let variant = name(query.variant.as_deref(), "classic");
    let seed = daily_seed(app.daily_secret.as_deref(), date, &level, &variant);
    let request = GenerateRequest {
        variant: Some(variant),
        difficulty: Some(level),
        rating: None,
        seed: Some(seed),
        symmetry: None,
        format: query.format,
        pattern: None,
        size: None,
    };
    let asked = wanted(&request, Source::Query).map_err(as_level)?;
    let key = format!("daily;{};seed {seed}", asked.key());
    let etag = HeaderValue::from_str(&format!("\"d{:016x}\"", stable_hash(key.as_bytes())))
        .map_err(|_| Problem::Internal)?;
    let cache = match query.date {
        Some(_) => "public, max-age=31536000, immutable".to_string(),
        None => {
            let midnight = date
                .tomorrow()
                .and_then(|next| next.to_zoned_datetime(tz))
                .map_err(|_| Problem::Internal)?;
            let left = midnight.timestamp().as_second() - now.timestamp().as_second();
            format!("public, max-age={}", left.max(0))
        }
    };
    let matches = |any: bool| {
        if_none_match(&headers)
            .any(|tag| (any && tag == "*") || weak_match(tag, etag.to_str().unwrap_or("")))
    };
    let mut response = if matches(true) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let puzzle = answer(&app, client, request, Source::Query).await?;
        Json(DailyResponse {
            date: date.to_string(),
            puzzle,
        })
        .into_response()
    };
    let out = response.headers_mut();
    out.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_str(&cache).map_err(|_| Problem::Internal)?,
    );
    out.insert(header::ETAG, etag);
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_read_strictly_and_zones_by_name() {
        assert_eq!(date_of("2026-12-02").unwrap().to_string(), "2026-12-02");
        for bad in [
            "2026-13-01",
            "2026-02-30",
            "26-12-02",
            "2026/12/02",
            "2026-12-2",
            "x",
        ] {
            assert_eq!(
                date_of(bad).unwrap_err().pointer().as_deref(),
                Some("/date"),
                "{bad}"
            );
        }
        assert!(time_zone(Some("Europe/Paris")).is_ok());
        assert_eq!(time_zone(None).unwrap(), TimeZone::UTC);
        assert_eq!(
            time_zone(Some("Mars/Olympus"))
                .unwrap_err()
                .pointer()
                .as_deref(),
            Some("/tz")
        );
    }

    #[test]
    fn the_seed_depends_on_every_input_and_the_secret_keys_it() {
        let day = date_of("2026-12-02").unwrap();
        let next = date_of("2026-12-03").unwrap();
        let plain = daily_seed(None, day, "hard", "classic");
        assert_eq!(plain, daily_seed(None, day, "hard", "classic"));
        assert_ne!(plain, daily_seed(None, next, "hard", "classic"));
        assert_ne!(plain, daily_seed(None, day, "easy", "classic"));
        assert_ne!(plain, daily_seed(None, day, "hard", "x"));
        let keyed = daily_seed(Some("s3cret"), day, "hard", "classic");
        assert_ne!(keyed, plain);
        assert_ne!(keyed, daily_seed(Some("other"), day, "hard", "classic"));
        assert!(keyed <= MAX_SAFE_SEED);
    }
}
