//! `POST /v1/render`: a picture of any puzzle the other endpoints take (board and rule fields,
//! or `fpuzzles`), as SVG, PNG or PDF, with the givens alone, the solution, or the pencil
//! marks. The format is the body's `format`, else the best of SVG, PNG and PDF that `Accept`
//! takes.
//!
//! The drawing (and the solve or the marks it shows) runs on the solver pool under the work
//! budget like every engine job: the SVG is charged by its length, the PNG by its pixels
//! before it is painted and the PDF by the SVG it is written from, so a picture too large for
//! the budget is refused before the paint.
//! The same body always draws the same bytes, so the answer's `ETag` is a hash of the SVG and
//! the format, and a client revalidating with `If-None-Match` gets a 304 without a paint.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::client::Client;
use super::fpuzzles::{PuzzleBody, PuzzleJson};
use super::generate::{if_none_match, weak_match};
use super::problem::Problem;
use super::wire::{BoardText, HasRules, ImageFormat, RenderRequest, ShowJson};
use super::AppState;
use crate::engine::{stable_hash, Budget, Engine, Puzzle};
use crate::render::{self, Picture, Show, MAX_TEXT};

impl PuzzleBody for RenderRequest {
    const TAKES_GIVENS: bool = false;
    fn board(&self) -> &BoardText {
        &self.board
    }
}

/// The narrowest PNG drawn: below it no digit is legible.
pub const MIN_SIZE: u32 = 64;

/// SVG bytes written per work unit (about a microsecond: 180-200 bytes a microsecond in
/// `examples/render_timing.rs`, BENCHMARKS.md).
pub(super) const SVG_BYTES_PER_UNIT: u64 = 200;
/// A PNG costs about a microsecond per byte of SVG (parsing, and shaping and filling the
/// text, which dominates for pencil marks: 0.9-1.2 us a byte) plus one per 80 pixels painted
/// and encoded (80-140 pixels a microsecond on a 9x9: 80 at 600 pixels with every cell's
/// digit, 140 at 2048), measured by the same benchmark. A 9x9 PNG of the largest default
/// size, 2048 pixels, is charged about 75,000: within the default budget.
const PARSED_BYTES_PER_UNIT: u64 = 1;
const PIXELS_PER_UNIT: u64 = 80;
/// A PDF costs about a microsecond per this many bytes of SVG (reading it back, laying out
/// its text, writing the operators): 0.5 us a byte for a 9x9, 0.7-1.0 for pencil marks on
/// 16x16 and 25x25, in the same benchmark, so a 25x25 PDF of pencil marks (550 KB of SVG)
/// is beyond the default budget, as its PNG is.
pub const PDF_SVG_BYTES_PER_UNIT: u64 = 1;
/// The tallest a picture is for its width (a 4x4 grid with a title, an author and a
/// caption): the pixels a PNG is charged for before its height is known.
const MAX_ASPECT: f64 = 1.35;

pub async fn render(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    PuzzleJson(request, _): PuzzleJson<RenderRequest>,
) -> Result<Response, Problem> {
    let negotiated = request.format.is_none();
    let format = match request.format {
        Some(format) => format,
        None => negotiate(&headers)?,
    };
    let width = png_width(format, request.size, app.render_max_size)?;
    for (field, text) in [("title", &request.title), ("author", &request.author)] {
        if text.as_ref().is_some_and(|t| t.chars().count() > MAX_TEXT) {
            return Err(Problem::invalid_at(
                format!("/{field}"),
                format!("{field} is drawn as one line of at most {MAX_TEXT} characters"),
            ));
        }
    }
    let puzzle = request.puzzle_of(&request.board)?;
    let known: Vec<String> = if_none_match(&headers).map(str::to_string).collect();
    let job = Job {
        puzzle,
        show: request.show,
        title: request.title,
        author: request.author,
        format,
        width,
        known,
    };
    let drawn = app
        .pool
        .run(client, move |engine, budget| job.run(engine, budget))
        .await?
        .value?;
    let mut response = picture_response(drawn.body, format);
    let out = response.headers_mut();
    out.insert(header::ETAG, drawn.etag);
    // The same body always draws the same picture: a client may keep it and revalidate.
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if negotiated {
        out.insert(header::VARY, HeaderValue::from_static("accept"));
    }
    Ok(response)
}

/// A picture's bytes as a 200 of its media type; a 304 when the client has them (`None`).
pub(super) fn picture_response(body: Option<Vec<u8>>, format: ImageFormat) -> Response {
    match body {
        Some(body) => {
            let mut response = body.into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static(format.media_type()),
            );
            response
        }
        None => StatusCode::NOT_MODIFIED.into_response(),
    }
}

/// The width of the PNG asked for (`None` for SVG and PDF, which have no size in pixels),
/// checked against the server's limit.
pub(super) fn png_width(
    format: ImageFormat,
    size: Option<u32>,
    max: u32,
) -> Result<Option<u32>, Problem> {
    match (format, size) {
        (ImageFormat::Svg | ImageFormat::Pdf, None) => Ok(None),
        (ImageFormat::Svg | ImageFormat::Pdf, Some(_)) => Err(Problem::invalid_at(
            "/size",
            format!(
                "size is the width in pixels of a PNG; {} scales to any size (send \
                 format png with it, or no size)",
                if format == ImageFormat::Svg {
                    "an SVG"
                } else {
                    "a PDF"
                }
            ),
        )),
        (ImageFormat::Png, size) => {
            let width = size.unwrap_or(DEFAULT_SIZE.min(max));
            if (MIN_SIZE..=max).contains(&width) {
                Ok(Some(width))
            } else {
                Err(Problem::invalid_at(
                    "/size",
                    format!(
                        "size must be {MIN_SIZE} to {max} pixels (this server's \
                         --render-max-size); got {width}"
                    ),
                ))
            }
        }
    }
}

/// A PNG's width when the body names none.
pub const DEFAULT_SIZE: u32 = 600;

/// The best format `Accept` takes: SVG, PNG or PDF, by quality, the first of them on a tie
/// (SVG is smaller and sharp at any size); SVG when there is no `Accept`. A 406 when it takes
/// none.
fn negotiate(headers: &HeaderMap) -> Result<ImageFormat, Problem> {
    let mut ranges = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(media_range)
        .filter(|(range, _)| !range.is_empty())
        .peekable();
    if ranges.peek().is_none() {
        return Ok(ImageFormat::Svg);
    }
    let ranges: Vec<(String, f32)> = ranges.collect();
    // The quality of `format`: that of the most specific range that matches it.
    let quality = |format: ImageFormat| {
        let exact = format.media_type();
        let family = format!("{}/*", exact.split('/').next().unwrap_or(""));
        [exact, family.as_str(), "*/*"]
            .iter()
            .find_map(|wanted| {
                ranges
                    .iter()
                    .find(|(range, _)| range == wanted)
                    .map(|&(_, q)| q)
            })
            .unwrap_or(0.0)
    };
    // The first of the best: `max_by` would keep the last.
    let (best, q) = ImageFormat::ALL
        .into_iter()
        .map(|format| (format, quality(format)))
        .fold((ImageFormat::Svg, 0.0), |best, this| {
            if this.1 > best.1 {
                this
            } else {
                best
            }
        });
    if q > 0.0 {
        Ok(best)
    } else {
        Err(Problem::NotAcceptable {
            detail: "this route answers image/svg+xml, image/png or application/pdf; send an \
                     Accept header that takes one (or none), or \"format\" in the body"
                .into(),
        })
    }
}

/// One media range of `Accept`, lower case, and its quality (1 unless `q=` says; a `q` that
/// does not parse counts as 0, as a range the client did not mean to offer).
fn media_range(part: &str) -> (String, f32) {
    let mut pieces = part.split(';');
    let range = pieces.next().unwrap_or("").trim().to_ascii_lowercase();
    let quality = pieces
        .filter_map(|p| p.split_once('='))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("q"))
        .map_or(1.0, |(_, q)| q.trim().parse().unwrap_or(0.0));
    (range, quality)
}

/// A picture to draw on the solver pool.
pub(super) struct Job {
    pub puzzle: Puzzle,
    pub show: ShowJson,
    pub title: Option<String>,
    pub author: Option<String>,
    pub format: ImageFormat,
    /// PNG only.
    pub width: Option<u32>,
    /// The request's `If-None-Match` tags.
    pub known: Vec<String>,
}

/// A drawn picture: its tag, and its bytes unless the client has them.
pub(super) struct Drawn {
    pub etag: HeaderValue,
    pub body: Option<Vec<u8>>,
}

impl Job {
    pub(super) fn run(self, engine: &mut Engine, budget: &Budget) -> Result<Drawn, Problem> {
        let puzzle = &self.puzzle;
        let solution;
        let marks;
        let show = match self.show {
            ShowJson::Puzzle => Show::Puzzle,
            ShowJson::Solution => {
                let counted = engine.count(puzzle, 1, budget)?;
                solution = counted.first.ok_or(Problem::NoSolution)?;
                Show::Solution(solution.grid())
            }
            ShowJson::Candidates => {
                marks = engine.candidates(puzzle.grid(), puzzle.rules(), false, budget)?;
                Show::Candidates(&marks)
            }
        };
        let svg = render::svg(&Picture {
            puzzle,
            show,
            title: self.title.as_deref(),
            author: self.author.as_deref(),
        });
        budget
            .charge(svg.len() as u64 / SVG_BYTES_PER_UNIT)
            .map_err(Problem::drawing)?;
        let key = format!("{svg}\n{:?} {:?}", self.format, self.width);
        let tag = format!("\"r{:016x}\"", stable_hash(key.as_bytes()));
        let etag = HeaderValue::from_str(&tag).map_err(|_| Problem::Internal)?;
        if self.known.iter().any(|t| t == "*" || weak_match(t, &tag)) {
            return Ok(Drawn { etag, body: None });
        }
        let body = match (self.format, self.width) {
            (ImageFormat::Png, Some(width)) => {
                let pixels = u64::from(width) * (f64::from(width) * MAX_ASPECT).ceil() as u64;
                budget
                    .charge(svg.len() as u64 / PARSED_BYTES_PER_UNIT + pixels / PIXELS_PER_UNIT)
                    .map_err(Problem::drawing)?;
                render::png(&svg, width).map_err(|err| {
                    tracing::error!(error = %err, "a rendered SVG did not paint");
                    Problem::Internal
                })?
            }
            (ImageFormat::Pdf, _) => {
                budget
                    .charge(svg.len() as u64 / PDF_SVG_BYTES_PER_UNIT)
                    .map_err(Problem::drawing)?;
                let title = self.title.as_deref().map(render::one_line);
                render::pdf(&svg, title.as_deref()).map_err(|err| {
                    tracing::error!(error = %err, "a rendered SVG did not convert to PDF");
                    Problem::Internal
                })?
            }
            _ => svg.into_bytes(),
        };
        Ok(Drawn {
            etag,
            body: Some(body),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn accept_picks_the_better_image_type_and_svg_on_a_tie() {
        assert_eq!(negotiate(&HeaderMap::new()).unwrap(), ImageFormat::Svg);
        assert_eq!(negotiate(&accept("image/png")).unwrap(), ImageFormat::Png);
        assert_eq!(
            negotiate(&accept("image/svg+xml;q=0.5, image/png")).unwrap(),
            ImageFormat::Png
        );
        assert_eq!(
            negotiate(&accept("image/png;q=0.4, image/*;q=0.9")).unwrap(),
            ImageFormat::Svg
        );
        assert_eq!(negotiate(&accept("*/*")).unwrap(), ImageFormat::Svg);
        assert_eq!(
            negotiate(&accept("application/pdf")).unwrap(),
            ImageFormat::Pdf
        );
        assert_eq!(
            negotiate(&accept("application/pdf;q=0.9, image/*;q=0.8")).unwrap(),
            ImageFormat::Pdf
        );
        assert_eq!(
            negotiate(&accept("application/pdf;q=0.5, image/png;q=0.5")).unwrap(),
            ImageFormat::Png
        );
        assert_eq!(
            negotiate(&accept("text/html, image/PNG; q=0.8")).unwrap(),
            ImageFormat::Png
        );
        let refused = negotiate(&accept("application/json")).unwrap_err();
        assert_eq!(refused.status(), StatusCode::NOT_ACCEPTABLE);
        let refused = negotiate(&accept("image/png;q=0, image/svg+xml;q=0")).unwrap_err();
        assert_eq!(refused.slug(), "not-acceptable");
    }

    #[test]
    fn a_png_width_is_bounded_and_an_svg_takes_none() {
        assert_eq!(png_width(ImageFormat::Svg, None, 2048).unwrap(), None);
        assert!(png_width(ImageFormat::Svg, Some(600), 2048).is_err());
        assert_eq!(png_width(ImageFormat::Pdf, None, 2048).unwrap(), None);
        assert!(png_width(ImageFormat::Pdf, Some(600), 2048).is_err());
        assert_eq!(
            png_width(ImageFormat::Png, None, 2048).unwrap(),
            Some(DEFAULT_SIZE)
        );
        assert_eq!(png_width(ImageFormat::Png, None, 300).unwrap(), Some(300));
        assert_eq!(
            png_width(ImageFormat::Png, Some(2048), 2048).unwrap(),
            Some(2048)
        );
        for size in [0, MIN_SIZE - 1, 2049, u32::MAX] {
            let problem = png_width(ImageFormat::Png, Some(size), 2048).unwrap_err();
            assert_eq!(problem.pointer().as_deref(), Some("/size"), "{size}");
        }
    }
}
