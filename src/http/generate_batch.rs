//! `POST /v1/generate/batch`: many puzzles from one request, for a site's puzzle bank,
//! streamed as NDJSON one puzzle per line.
//!
//! The batch itself (its seeds, skips and cursors) is [`crate::bank`]'s, shared with
//! `sudoku-service generate`, which writes the same lines to a file. Here:
//!
//! * **`distinct` per response**: a resumed response does not know the forms of the ones
//!   before it, so a client joining the parts keeps one puzzle per `canonical_id` (every line
//!   carries it).
//! * **Bounded and charged**: each puzzle is one job in the client's generation lane, with the
//!   generation work budget, like a `/generate` call. The whole stream stops at the request's
//!   time limit ([`SolvePool::answer_by`]) with a `timeout` line carrying the cursor to resume
//!   from; a stream that answered all its puzzles ends with `{"done": true, ...}`.

use std::time::Instant;

use axum::extract::State;
use axum::response::Response;

use super::batch::{write_json_line, NdjsonStream};
use super::client::Client;
use super::extract::ApiJson;
use super::generate::{one_of, wanted, Source};
use super::pool::SolvePool;
use super::problem::{Problem, ProblemBody};
use super::wire::{GenerateBatchLine, GenerateBatchRequest};
use super::AppState;
use crate::bank::{make, techniques, BankError, Plan, Request, Role, Run, Teaches, ROLES};

type Line = GenerateBatchLine<ProblemBody>;

/// What `request` asks for, or the problem with it (each naming its field).
pub(super) fn plan(request: &GenerateBatchRequest, max: u64) -> Result<Plan, Problem> {
    let clues = request
        .clues
        .map_or((None, None), |range| (range.min, range.max));
    // The count first: a count out of range says so whatever else is wrong.
    if !(1..=max).contains(&request.count) {
        return Err(BankError::Count {
            max,
            got: request.count,
        }
        .into());
    }
    let asked = wanted(&request.options(), Source::Body)?;
    let technique = teaches(request)?;
    Plan::new(Request {
        asked,
        count: request.count,
        max_count: max,
        clues,
        distinct: request.distinct.unwrap_or(false),
        technique,
        seed: request.seed,
        cursor: request.cursor.as_deref(),
    })
    .map_err(Problem::from)
}

/// The technique `request` asks every puzzle to need, and where.
fn teaches(request: &GenerateBatchRequest) -> Result<Option<Teaches>, Problem> {
    let role = match request.technique_as.as_deref() {
        Some(value) => one_of("technique_as", value, &ROLES)?,
        None => Role::Hardest,
    };
    let Some(name) = request.technique.as_deref() else {
        return match request.technique_as {
            Some(_) => Err(Problem::invalid_at(
                "/technique_as",
                "technique_as says where `technique` must be: send a technique with it",
            )),
            None => Ok(None),
        };
    };
    let technique = one_of("technique", name, &techniques())?;
    Ok(Some(Teaches { technique, role }))
}

pub async fn generate_batch(
    State(app): State<AppState>,
    client: Client,
    ApiJson(request): ApiJson<GenerateBatchRequest>,
) -> Result<Response, Problem> {
    let plan = plan(&request, app.capabilities.limits.generate_batch_items)?;
    let deadline = app.pool.answer_by(Instant::now());
    let (lines, response) = NdjsonStream::new(deadline);
    tokio::spawn(stream(app.pool.clone(), client, plan, deadline, lines));
    Ok(response)
}

/// Generates the plan's puzzles one job at a time and sends each line as it is made (see
/// [`crate::bank`] for the skips); the stream ends at the deadline with a `timeout` line.
async fn stream(
    pool: SolvePool,
    client: Client,
    plan: Plan,
    deadline: Instant,
    lines: NdjsonStream,
) {
    let mut run = Run::new(&plan);
    let stopped = |problem: Problem, run: &Run| Line::Stopped {
        error: problem.body(),
        cursor: run.cursor(),
    };
    while !run.finished() {
        if Instant::now() >= deadline {
            send(&lines, &stopped(Problem::Timeout, &run)).await;
            return;
        }
        let seed = run.seed(0);
        let asked = plan.asked.clone();
        let made = match pool
            .run_generation(client, Some(deadline), move |engine, budget| {
                make(engine, budget, &asked, seed)
            })
            .await
        {
            Ok(timed) => timed.value,
            Err(error) => {
                send(&lines, &stopped(error.into(), &run)).await;
                return;
            }
        };
        match run.take(made) {
            // Out of time (or cancelled): this index is tried again on resume.
            Err(_) => {
                send(&lines, &stopped(Problem::Timeout, &run)).await;
                return;
            }
            Ok(None) => continue,
            Ok(Some(line)) => {
                if !send(&lines, &line).await {
                    return;
                }
            }
        }
    }
    send(&lines, &run.done()).await;
}

async fn send(lines: &NdjsonStream, line: &Line) -> bool {
    let mut out = Vec::new();
    write_json_line(&mut out, line);
    lines.send(out).await
}
