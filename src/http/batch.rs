//! `POST /solve/batch`: many puzzles in one call, solved in parallel on the solver pool.
//!
//! Input is a JSON array of boards (either form) or `text/plain` with one 81-character puzzle
//! per line (the community file format; blank and `#` lines skipped). The answer uses the
//! request's format, in input order, one result or error per puzzle; with
//! `Accept: application/x-ndjson` it streams one JSON object per line as chunks are solved.
//! A batch takes one place in the pool for its whole life, and its puzzles run on the same
//! solver threads (the CPU bound) as single solves.

use std::convert::Infallible;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};

use super::client::Client;
use super::pool::{Admission, SolvePool};
use super::problem::{Problem, ProblemBody, SEND_JSON_HINT};
use super::wire::{BatchItem, BoardText};
use super::AppState;
use crate::engine::{Budget, Engine, Puzzle, Solution};

/// Most puzzles accepted in one batch.
pub const MAX_BATCH: usize = 10_000;
/// Puzzles solved per step when streaming, so the first lines leave early.
const STREAM_CHUNK: usize = 512;
/// How long past its deadline a stream may wait for a slow reader to take its last lines
/// (the timeout lines of what was left): within the request's time limit.
const STREAM_SLACK: std::time::Duration = std::time::Duration::from_millis(400);

const NDJSON: &str = "application/x-ndjson";
pub(super) const TEXT: &str = "text/plain; charset=utf-8";

/// The formats a batch can come in and go out in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Json,
    Text,
    Ndjson,
}

/// One puzzle's answer: its solution, or its problem as a problem body.
type Item = BatchItem<ProblemBody>;

fn text_line(item: &Item) -> String {
    match item {
        Item::Solved { solution, .. } => solution.to_line(),
        Item::Failed { error, .. } => format!("error: {}", error.detail),
    }
}

/// Solves one board of a batch (any size; a batch has no cages); a failure becomes the item,
/// with the puzzle's id once the board could be read.
fn solve_item(engine: &mut Engine, budget: &Budget, board: &BoardText) -> Item {
    let failed = |id: Option<String>, problem: Problem| Item::Failed {
        id,
        error: problem.body().brief(),
    };
    // Past the batch's deadline an item does not start (thousands may be left).
    if let Err(exhausted) = budget.check() {
        return failed(None, exhausted.into());
    }
    // The item is the board: its problems name no field.
    let whole = |problem: Problem| problem.in_field("");
    let puzzle = match board
        .parse()
        .map_err(|e| whole(e.into()))
        .and_then(|grid| Puzzle::classic(grid).map_err(|e| whole(e.into())))
    {
        Ok(puzzle) => puzzle,
        Err(problem) => return failed(None, problem),
    };
    let id = puzzle.id();
    match solve_puzzle(engine, budget, &puzzle) {
        Ok(solution) => Item::Solved {
            id,
            solution: board.render(solution.0.grid()),
            unique: solution.1,
        },
        Err(problem) => failed(Some(id), problem),
    }
}

/// The first solution of `puzzle`, and whether it is the only one.
fn solve_puzzle(
    engine: &mut Engine,
    budget: &Budget,
    puzzle: &Puzzle,
) -> Result<(Solution, bool), Problem> {
    let counted = engine.count(puzzle, 2, budget)?;
    let unique = counted.is_unique();
    let solution = counted.first.ok_or(Problem::NoSolution)?;
    Ok((solution, unique))
}

pub async fn solve_batch(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Problem> {
    let input = input_format(&headers)?;
    let boards = match input {
        Format::Text => text_boards(&body)?,
        _ => json_boards(&body)?,
    };
    check_batch_size(boards.len())?;
    let admission = app.pool.admit(client)?;
    let output = if accepts_ndjson(&headers) {
        Format::Ndjson
    } else {
        input
    };
    if output == Format::Ndjson {
        // The request's time limit covers the whole stream, not only the response head that
        // the middleware waits for: a draining server must not stream on past its drain time.
        let deadline = app.pool.answer_by(std::time::Instant::now());
        return Ok(stream_ndjson(app.pool.clone(), admission, boards, deadline));
    }
    // At the time limit the batch answers with what it solved, each other item a timeout.
    let deadline = app.pool.answer_by(std::time::Instant::now());
    let items: Vec<Item> = app
        .pool
        .run_batch(&admission, boards, deadline, solve_item)
        .await?
        .value
        .into_iter()
        .map(|item| item.unwrap_or_else(timed_out))
        .collect();
    Ok(match output {
        Format::Text => {
            let mut text = String::with_capacity(items.len() * 82);
            for item in &items {
                text.push_str(&text_line(item));
                text.push('\n');
            }
            ([(header::CONTENT_TYPE, TEXT)], text).into_response()
        }
        _ => axum::Json(items).into_response(),
    })
}

/// The item of a puzzle not answered by the batch's deadline.
fn timed_out() -> Item {
    Item::Failed {
        id: None,
        error: Problem::Timeout.body().brief(),
    }
}

/// Solves chunk by chunk and sends each chunk's lines as soon as it is done. At `deadline`
/// the items solved are sent and every other item gets a `timeout` line, as in a JSON batch;
/// the stream then ends.
fn stream_ndjson(
    pool: SolvePool,
    admission: Admission,
    boards: Vec<BoardText>,
    deadline: std::time::Instant,
) -> Response {
    let (lines, response) = NdjsonStream::new(deadline);
    tokio::spawn(async move {
        let mut boards = boards.into_iter();
        let mut out_of_time = false;
        loop {
            let chunk: Vec<BoardText> = boards.by_ref().take(STREAM_CHUNK).collect();
            if chunk.is_empty() {
                return;
            }
            let size = chunk.len();
            let items: Vec<Option<Item>> = if out_of_time {
                (0..size).map(|_| None).collect()
            } else {
                match pool
                    .run_batch(&admission, chunk, deadline, solve_item)
                    .await
                {
                    Ok(timed) => timed.value,
                    Err(error) => {
                        let mut out = Vec::new();
                        write_json_line(
                            &mut out,
                            &Item::Failed {
                                id: None,
                                error: Problem::from(error).body(),
                            },
                        );
                        lines.send(out).await;
                        return;
                    }
                }
            };
            out_of_time |= items.iter().any(Option::is_none);
            let mut out = Vec::new();
            for item in items {
                write_json_line(&mut out, &item.unwrap_or_else(timed_out));
            }
            if !lines.send(out).await {
                return;
            }
        }
    });
    response
}

/// A streamed NDJSON answer (`application/x-ndjson`): what a producer task sends its lines
/// through. The response is sent at once and its body is the lines as they come; the stream
/// ends when the producer drops this.
pub(super) struct NdjsonStream {
    lines: tokio::sync::mpsc::Sender<Bytes>,
    deadline: std::time::Instant,
}

impl NdjsonStream {
    /// A stream whose producer must be done by `deadline` (the request's): the stream, and
    /// the response that carries it.
    pub(super) fn new(deadline: std::time::Instant) -> (NdjsonStream, Response) {
        let (lines, mut next) = tokio::sync::mpsc::channel::<Bytes>(2);
        let stream = futures_util::stream::poll_fn(move |cx| {
            next.poll_recv(cx)
                .map(|chunk| chunk.map(Ok::<_, Infallible>))
        });
        let mut response = Body::from_stream(stream).into_response();
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(NDJSON));
        (NdjsonStream { lines, deadline }, response)
    }

    /// Sends `out` (whole lines); false when the client went away, or stopped reading for
    /// longer than the request's time limit allows: the producer then stops working for it.
    /// A reader that stops reading holds the stream (and its place in the pool) only until
    /// the time limit and [`STREAM_SLACK`].
    pub(super) async fn send(&self, out: Vec<u8>) -> bool {
        let limit = tokio::time::Instant::from_std(self.deadline) + STREAM_SLACK;
        let sent = tokio::time::timeout_at(limit, self.lines.send(Bytes::from(out))).await;
        matches!(sent, Ok(Ok(())))
    }
}

pub(super) use crate::shapes::write_json_line;

/// Refuses a batch of more than [`MAX_BATCH`] boards.
pub(super) fn check_batch_size(boards: usize) -> Result<(), Problem> {
    if boards > MAX_BATCH {
        return Err(Problem::invalid_at(
            "",
            format!(
                "a batch holds at most {MAX_BATCH} puzzles, this one has {boards}; send the rest \
                 in another batch"
            ),
        ));
    }
    Ok(())
}

pub(super) fn input_format(headers: &HeaderMap) -> Result<Format, Problem> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let essence = content_type.split(';').next().unwrap_or("").trim();
    match essence {
        "application/json" => Ok(Format::Json),
        "text/plain" => Ok(Format::Text),
        _ => Err(Problem::UnsupportedMediaType {
            detail: format!(
                "a batch is a JSON array of boards or text/plain with one puzzle per line; \
                 got {content_type:?}; {SEND_JSON_HINT}, or 'Content-Type: text/plain'"
            ),
        }),
    }
}

fn accepts_ndjson(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.to_ascii_lowercase().contains(NDJSON))
}

pub(super) fn json_boards(body: &[u8]) -> Result<Vec<BoardText>, Problem> {
    serde_json::from_slice(body).map_err(|err| {
        let detail = format!("the body must be a JSON array of boards: {err}");
        if err.is_data() {
            Problem::invalid_at("", detail)
        } else {
            Problem::InvalidJson { detail }
        }
    })
}

pub(super) fn text_boards(body: &[u8]) -> Result<Vec<BoardText>, Problem> {
    let text = std::str::from_utf8(body)
        .map_err(|err| Problem::invalid_at("", format!("the text body is not UTF-8: {err}")))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| BoardText::Line(line.to_string()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_bodies_skip_blanks_and_comments() {
        let boards = text_boards(b"# header\n\n123\r\n  456  \n").unwrap();
        assert_eq!(
            boards,
            vec![
                BoardText::Line("123".to_string()),
                BoardText::Line("456".to_string())
            ]
        );
    }

    #[test]
    fn json_errors_are_classified() {
        assert!(matches!(
            json_boards(b"[\"a\""),
            Err(Problem::InvalidJson { .. })
        ));
        assert!(matches!(
            json_boards(b"{\"board\": 1}"),
            Err(Problem::InvalidRequest { .. })
        ));
    }
}
