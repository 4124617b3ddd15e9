//! `POST /v1/booklet`: many puzzles as one printable PDF: 1, 2, 4 or 6 to a page of A4 or
//! Letter, each labelled with its number, level and id, the answers six to a page at the end,
//! the font embedded. The puzzles are a list (any puzzle body `/v1/render` takes) or a
//! generation (a `/v1/generate/batch` body: the booklet holds the puzzles that batch answers).
//!
//! Bounded and charged like the endpoints it combines:
//! * **Pages**: at most `--booklet-max-pages` (answer pages included), checked from the
//!   counts before anything is made; more puzzles than fit are a 422 naming the setting.
//! * **Work**: a listed puzzle is solved and graded as one item of a batch (`/solve/batch`:
//!   its own work budget, in the client's batch lane; once one fails, the booklet's answer
//!   is its problem, and the puzzles listed after it not yet started are not searched); a
//!   generated one is one generation job
//!   (`/generate/batch`: the generation budget, one at a time in the client's generation
//!   lane). Each page is then drawn as one batch item, charged by its SVGs (written, then
//!   read back for the PDF, as `/v1/render` charges a PDF) before they are converted, and the
//!   document is written as one job charged by the bytes it compresses.
//! * **Time**: everything stops at the point [`SolvePool::answer_by`] gives, so the answer
//!   (or the problem saying what did not finish) comes before the request's time limit.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};

use super::client::Client;
use super::extract::ApiJson;
use super::fpuzzles::puzzle_in_list;
use super::generate_batch::plan;
use super::problem::Problem;
use super::render::{PDF_SVG_BYTES_PER_UNIT, SVG_BYTES_PER_UNIT};
use super::wire::{BookletPuzzle, BookletRequest, GenerateBatchRequest, HasRules, PaperJson};
use super::AppState;
use crate::bank::{make, Run};
use crate::engine::{Budget, Engine, EngineError, Grid, Puzzle};
use crate::render::booklet::{self, Entry, Layout, Paper, PER_PAGE};
use crate::render::pdf::Drawing;
use crate::render::MAX_TEXT;

#[cfg(doc)]
use super::pool::SolvePool;

/// Puzzles per page unless the body says.
pub const DEFAULT_PER_PAGE: usize = 4;

/// Bytes of page content per work unit when the document is written: compressing and
/// writing ran at 63-140 bytes a microsecond (`examples/render_timing.rs`, release build,
/// BENCHMARKS.md), so 50 keeps the charge at or above the time.
const DOCUMENT_BYTES_PER_UNIT: u64 = 50;

pub async fn booklet(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<BookletRequest>,
) -> Result<Response, Problem> {
    let deadline = app.pool.answer_by(Instant::now());
    let per_page = per_page(request.per_page)?;
    let answers = request.answers.unwrap_or(true);
    let title = request.title.unwrap_or_default();
    too_long("/title", &title)?;
    let paper = match request.paper.unwrap_or_default() {
        PaperJson::A4 => Paper::A4,
        PaperJson::Letter => Paper::Letter,
    };
    let max_pages = app.capabilities.limits.booklet_max_pages;
    let most = most_puzzles(per_page, answers, max_pages);
    let entries = match (request.puzzles, request.generate) {
        (Some(puzzles), None) => {
            let limit = (most, per_page);
            listed(&app, client, puzzles, limit, deadline).await?
        }
        (None, Some(generate)) => {
            let limit = (most, per_page);
            generated(&app, client, generate, limit, deadline).await?
        }
        (Some(_), Some(_)) => {
            return Err(Problem::invalid_at(
                "/generate",
                "send either puzzles (a list) or generate (a batch to generate), not both",
            ))
        }
        (None, None) => {
            return Err(Problem::invalid_at(
                "/puzzles",
                "missing field `puzzles`: send a list of puzzles, or `generate` with a \
                 /v1/generate/batch body such as {\"count\": 12, \"difficulty\": \"hard\"}",
            ))
        }
    };
    let layout = Layout::new(paper, per_page, entries.len(), answers, &title)
        .map_err(|err| Problem::invalid_at("/per_page", err.to_string()))?;
    let pages = draw(&app, client, &layout, entries, deadline).await?;
    let pdf = app
        .pool
        .run(client, move |_: &mut Engine, budget: &Budget| {
            let bytes: usize = pages.iter().flatten().map(Drawing::len).sum();
            budget
                .charge(bytes as u64 / DOCUMENT_BYTES_PER_UNIT)
                .map_err(Problem::drawing)?;
            booklet::document(&layout, &pages).map_err(|err| {
                tracing::error!(error = %err, "a booklet did not convert to PDF");
                Problem::Internal
            })
        })
        .await?
        .value?;
    let mut response = pdf.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/pdf"),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_static("inline; filename=\"booklet.pdf\""),
    );
    Ok(response)
}

/// Puzzles per page, 1, 2, 4 or 6 ([`DEFAULT_PER_PAGE`] when absent).
fn per_page(asked: Option<u64>) -> Result<usize, Problem> {
    let Some(asked) = asked else {
        return Ok(DEFAULT_PER_PAGE);
    };
    PER_PAGE
        .into_iter()
        .find(|&n| n as u64 == asked)
        .ok_or_else(|| {
            Problem::invalid_at(
                "/per_page",
                format!("per_page must be 1, 2, 4 or 6; got {asked}"),
            )
        })
}

/// A problem at `pointer` when `text` is longer than a picture's line holds.
fn too_long(pointer: &str, text: &str) -> Result<(), Problem> {
    if text.chars().count() > MAX_TEXT {
        return Err(Problem::invalid_at(
            pointer,
            format!(
                "{} is one line of at most {MAX_TEXT} characters",
                &pointer[1..]
            ),
        ));
    }
    Ok(())
}

/// The most puzzles a booklet of `max_pages` holds at `per_page` (with their answers).
pub fn most_puzzles(per_page: usize, answers: bool, max_pages: usize) -> usize {
    let mut most = 0;
    while Layout::pages_for(per_page, most + 1, answers) <= max_pages {
        most += 1;
    }
    most
}

/// The problem of a booklet of `count` puzzles when only `most` fit, at `pointer`.
fn too_many(pointer: &str, count: u64, most: usize, per_page: usize) -> Problem {
    Problem::invalid_at(
        pointer,
        format!(
            "a booklet holds 1 to {most} puzzles at {per_page} a page (this server's \
             booklet_max_pages, answer pages included); got {count}"
        ),
    )
}

/// The puzzles of `list`, read, solved and graded (each a batch item with its own budget).
async fn listed(
    app: &AppState,
    client: Client,
    list: Vec<serde_json::Value>,
    (most, per_page): (usize, usize),
    deadline: Instant,
) -> Result<Vec<Entry>, Problem> {
    if list.is_empty() || list.len() > most {
        return Err(too_many("/puzzles", list.len() as u64, most, per_page));
    }
    let mut read = Vec::with_capacity(list.len());
    for (index, value) in list.into_iter().enumerate() {
        let in_puzzle = |problem: Problem| Problem::InPuzzle {
            index,
            problem: Box::new(problem),
        };
        let item: BookletPuzzle = puzzle_in_list(value).map_err(in_puzzle)?;
        let title = item.title.clone().unwrap_or_default();
        too_long("/title", &title).map_err(in_puzzle)?;
        let puzzle = item
            .puzzle_of(&item.board)
            .map_err(|err| in_puzzle(err.into()))?;
        read.push((puzzle, title));
    }
    let puzzles: Vec<Puzzle> = read.iter().map(|(puzzle, _)| puzzle.clone()).collect();
    let admission = app.pool.admit(client)?;
    // One puzzle that fails fails the booklet, so the puzzles listed after the first known
    // failure are not searched: forty copies of a puzzle that spends its whole budget would
    // otherwise take forty budgets, past the request's time limit, and answer `timeout`
    // instead of the 422. Chunks run side by side, so a later puzzle may fail first; the
    // ones listed before it still run, and the answer names the first listed failure.
    let first_failed = Arc::new(AtomicUsize::new(usize::MAX));
    let numbered: Vec<(usize, Puzzle)> = puzzles.into_iter().enumerate().collect();
    let answered = app
        .pool
        .run_batch(
            &admission,
            numbered,
            deadline,
            move |engine, budget, (index, puzzle)| {
                if *index > first_failed.load(Ordering::Relaxed) {
                    return None;
                }
                let answer = answer(engine, budget, puzzle);
                // Out of time is not the puzzle's failure: the request's answer is then the
                // timeout, unless a puzzle failed on its own.
                if matches!(&answer, Err(problem) if *problem != Problem::Timeout) {
                    first_failed.fetch_min(*index, Ordering::Relaxed);
                }
                Some(answer)
            },
        )
        .await?
        .value;
    if let Some((index, Some(Some(Err(problem))))) = answered
        .iter()
        .enumerate()
        .find(|(_, answer)| matches!(answer, Some(Some(Err(p))) if *p != Problem::Timeout))
    {
        return Err(Problem::InPuzzle {
            index,
            problem: Box::new(problem.clone()),
        });
    }
    read.into_iter()
        .zip(answered)
        .enumerate()
        .map(|(index, ((puzzle, title), answer))| {
            // Not answered in time (a skipped puzzle follows a failed one, returned above).
            let Some(Some(Ok((solution, level)))) = answer else {
                return Err(Problem::Timeout);
            };
            let level = level.unwrap_or_else(|| puzzle.kind());
            Ok(entry(index, puzzle, solution, &level, &title))
        })
        .collect()
}

/// A listed puzzle's solution and level: graded when the logic covers it (9x9 of every rule
/// set), else solved and named by its kind.
fn answer(
    engine: &mut Engine,
    budget: &Budget,
    puzzle: &Puzzle,
) -> Result<(Grid, Option<String>), Problem> {
    let (counted, level) = match engine.grade(puzzle, budget) {
        Ok((counted, grade)) => {
            let level = grade.and_then(|g| g.difficulty()).map(|d| d.name());
            (counted, level.map(capitalised))
        }
        Err(EngineError::Unsupported { .. }) => (engine.count(puzzle, 1, budget)?, None),
        Err(err) => return Err(err.into()),
    };
    let solution = counted.first.ok_or(Problem::NoSolution)?;
    Ok((solution.grid().clone(), level))
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Puzzle `index` as a booklet entry: its label `3. Hard` (and its title), its id under it.
fn entry(index: usize, puzzle: Puzzle, solution: Grid, level: &str, title: &str) -> Entry {
    let mut label = format!("{}. {level}", index + 1);
    if !title.trim().is_empty() {
        label = format!("{label} · {}", title.trim());
    }
    Entry {
        detail: format!("id {}", puzzle.id()),
        puzzle,
        solution,
        label,
    }
}

/// The puzzles the batch `request` answers, generated one job at a time in the client's
/// generation lane, skipped as the batch skips them.
async fn generated(
    app: &AppState,
    client: Client,
    request: GenerateBatchRequest,
    (most, per_page): (usize, usize),
    deadline: Instant,
) -> Result<Vec<Entry>, Problem> {
    if !(1..=most as u64).contains(&request.count) {
        return Err(too_many("/generate/count", request.count, most, per_page));
    }
    // The generation's fields sit under `generate` here; a problem keeps its kind (a range
    // out of reach is `unsupported` as on `/generate`).
    let plan = plan(&request, most as u64).map_err(|problem| match problem {
        Problem::InvalidRequest { detail, pointer } => Problem::InvalidRequest {
            detail,
            pointer: pointer.map(|p| format!("/generate{p}")),
        },
        Problem::Unsupported { detail, pointer } => Problem::Unsupported {
            detail,
            pointer: pointer.map(|p| format!("/generate{p}")),
        },
        other => match other.pointer() {
            Some(p) => Problem::invalid_at(format!("/generate{p}"), other.body().detail),
            None => other,
        },
    })?;
    let mut run = Run::new(&plan);
    let mut entries = Vec::new();
    let unfinished = |made: usize| Problem::GenerationFailed {
        detail: format!(
            "{made} of the {} puzzles asked for were generated before the time limit; ask for \
             fewer, or an easier level",
            plan.count
        ),
    };
    while !run.finished() {
        if Instant::now() >= deadline {
            return Err(unfinished(entries.len()));
        }
        let (asked, seed) = (plan.asked.clone(), run.seed(0));
        let made = app
            .pool
            .run_generation(client, Some(deadline), move |engine, budget| {
                make(engine, budget, &asked, seed)
            })
            .await?
            .value;
        match run.keep(made) {
            Err(_) => return Err(unfinished(entries.len())),
            Ok(None) => {}
            Ok(Some(made)) => {
                let level = match made.grade().and_then(|g| g.difficulty()) {
                    Some(difficulty) => capitalised(difficulty.name()),
                    None => made.puzzle().kind(),
                };
                let index = entries.len();
                let (puzzle, solution) = (made.puzzle().clone(), made.solution().clone());
                entries.push(entry(index, puzzle, solution, &level, ""));
            }
        }
    }
    Ok(entries)
}

/// Every page of `layout` drawn, each as one batch item charged for its SVGs.
async fn draw(
    app: &AppState,
    client: Client,
    layout: &Layout,
    entries: Vec<Entry>,
    deadline: Instant,
) -> Result<Vec<Vec<Drawing>>, Problem> {
    let shared = Arc::new((layout.clone(), entries));
    let pages: Vec<usize> = (0..layout.pages()).collect();
    let admission = app.pool.admit(client)?;
    let drawn = app
        .pool
        .run_batch(&admission, pages, deadline, move |_, budget, &page| {
            let (layout, entries) = &*shared;
            draw_page(layout, entries, page, budget)
        })
        .await?
        .value;
    drawn
        .into_iter()
        .map(|page| page.ok_or(Problem::Timeout)?)
        .collect()
}

/// Page `page`'s pictures, each charged before it is converted.
fn draw_page(
    layout: &Layout,
    entries: &[Entry],
    page: usize,
    budget: &Budget,
) -> Result<Vec<Drawing>, Problem> {
    layout
        .pictures(page, entries)
        .iter()
        .map(|svg| {
            let bytes = svg.len() as u64;
            budget
                .charge(bytes / SVG_BYTES_PER_UNIT + bytes / PDF_SVG_BYTES_PER_UNIT)
                .map_err(Problem::drawing)?;
            Drawing::new(svg).map_err(|err| {
                tracing::error!(error = %err, "a booklet page did not convert to PDF");
                Problem::Internal
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_most_puzzles_fill_the_pages_with_their_answers() {
        // 4 a page and 6 answers a page: 16 puzzles take 4 + 3 pages, 18 take 5 + 3 and 19
        // take 5 + 4.
        assert_eq!(most_puzzles(4, true, 7), 16);
        assert_eq!(most_puzzles(4, true, 8), 18);
        assert_eq!(most_puzzles(6, false, 3), 18);
        assert_eq!(most_puzzles(1, true, 1), 0);
        assert_eq!(most_puzzles(1, true, 2), 1);
    }

    #[test]
    fn per_page_is_one_of_four_counts() {
        assert_eq!(per_page(None).unwrap(), DEFAULT_PER_PAGE);
        for n in PER_PAGE {
            assert_eq!(per_page(Some(n as u64)).unwrap(), n);
        }
        for n in [0, 3, 5, 7, u64::MAX] {
            let problem = per_page(Some(n)).unwrap_err();
            assert_eq!(problem.pointer().as_deref(), Some("/per_page"), "{n}");
        }
    }

    #[test]
    fn a_level_is_capitalised_for_its_label() {
        assert_eq!(capitalised("hard"), "Hard");
        assert_eq!(capitalised(""), "");
        let puzzle = Puzzle::new(
            Grid::from_line(&".".repeat(16)).unwrap(),
            crate::engine::Rules::classic(crate::engine::Shape::ALL[0]),
        )
        .unwrap();
        let solution = puzzle.grid().clone();
        let entry = entry(2, puzzle, solution, "Hard", " Sunday ");
        assert_eq!(entry.label, "3. Hard · Sunday");
        assert!(entry.detail.starts_with("id "));
    }
}
