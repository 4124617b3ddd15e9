//! `POST /v1/generate/batch`: many puzzles from one request, for a site's puzzle bank,
//! streamed as NDJSON one puzzle per line.
//!
//! * **Deterministic**: puzzle `i` is generated from a seed derived from the batch's seed and
//!   `i` ([`puzzle_seed`]), and that seed is its line's `seed`, so `/generate` with it (and the
//!   same options) gives the same puzzle. The same request gives the same lines in the same
//!   order.
//! * **Skips**: a seed whose generation finds no puzzle within the generation work budget, a
//!   puzzle outside `clues`, or (with `distinct`) one whose canonical form an earlier line of
//!   this response had, is skipped: no line, and the next seed is tried. Which seeds are
//!   skipped depends only on the request, never on the machine (a deadline is not a skip: it
//!   ends the stream).
//! * **Resumable**: every line carries a `cursor` (opaque: the next index, the puzzles answered
//!   so far, the batch's seed, and a check of the options). Sent back with the same options
//!   it continues after that line. `distinct` holds within one response: a resumed response
//!   does not know the forms of the ones before it, so a client joining the parts keeps one
//!   puzzle per `canonical_id` (every line carries it).
//! * **Bounded and charged**: each puzzle is one job in the client's generation lane, with the
//!   generation work budget, like a `/generate` call. The whole stream stops at the request's
//!   time limit ([`SolvePool::answer_by`]) with a `timeout` line carrying the cursor to resume
//!   from; a stream that answered all its puzzles ends with `{"done": true, ...}`.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::State;
use axum::response::Response;

use super::batch::{write_json_line, NdjsonStream};
use super::client::Client;
use super::extract::ApiJson;
use super::generate::{make, random_seed, respond, wanted, Asked, Source};
use super::pool::SolvePool;
use super::problem::{Problem, ProblemBody};
use super::wire::{GenerateBatchLine, GenerateBatchRequest, MAX_SAFE_SEED};
use super::AppState;
use crate::engine::stable_hash;

type Line = GenerateBatchLine<ProblemBody>;

/// The fewest givens a classic puzzle with one solution has, and the most any 9x9 puzzle has.
const CLUES: std::ops::RangeInclusive<usize> = 0..=81;

/// The seed of puzzle `index` of a batch seeded `seed`: spread by a hash, so neighbouring
/// indices give unrelated puzzles, and below 2^53 like every seed an answer carries.
pub fn puzzle_seed(seed: u64, index: u64) -> u64 {
    stable_hash(format!("generate batch {seed} puzzle {index}").as_bytes()) & MAX_SAFE_SEED
}

/// Where a batch stands: the next index to try, and the puzzles answered so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Position {
    index: u64,
    answered: u64,
}

/// A batch request, read and checked.
struct Plan {
    asked: Arc<Asked>,
    seed: u64,
    count: u64,
    clues: std::ops::RangeInclusive<usize>,
    distinct: bool,
    /// A hash of everything the lines depend on but the position: a cursor carries it, so a
    /// cursor sent with other options is refused rather than continuing another batch.
    check: u32,
    from: Position,
}

impl Plan {
    fn cursor(&self, at: Position) -> String {
        format!(
            "{}.{}.{}.{:08x}",
            at.index, at.answered, self.seed, self.check
        )
    }
}

/// The check of a batch of `asked`, `seed`, `clues`, `distinct`.
fn check_of(
    asked: &Asked,
    seed: u64,
    clues: &std::ops::RangeInclusive<usize>,
    distinct: bool,
) -> u32 {
    let key = format!(
        "{};seed {seed};clues {}-{};distinct {distinct}",
        asked.key(),
        clues.start(),
        clues.end()
    );
    stable_hash(key.as_bytes()) as u32
}

/// A cursor's parts: the position, the batch's seed and its check.
fn parse_cursor(cursor: &str) -> Option<(Position, u64, u32)> {
    let mut parts = cursor.trim().split('.');
    let index = parts.next()?.parse().ok()?;
    let answered = parts.next()?.parse().ok()?;
    let seed = parts.next()?.parse().ok()?;
    let check = u32::from_str_radix(parts.next()?, 16).ok()?;
    if parts.next().is_some() || answered > index {
        return None;
    }
    Some((Position { index, answered }, seed, check))
}

/// What `request` asks for, or the problem with it (each naming its field).
fn plan(request: &GenerateBatchRequest, max: u64) -> Result<Plan, Problem> {
    if !(1..=max).contains(&request.count) {
        return Err(Problem::invalid_at(
            "/count",
            format!(
                "count must be from 1 to {max} (this server's generate_batch_items); got {}",
                request.count
            ),
        ));
    }
    let asked = wanted(&request.options(), Source::Body)?;
    let distinct = request.distinct.unwrap_or(false);
    if distinct && asked.variant().is_some() {
        return Err(Problem::invalid_at(
            "/distinct",
            "distinct compares canonical forms, which only classic puzzles have for now; \
             leave it out for a variant",
        ));
    }
    let (min, max_clues) = request
        .clues
        .map_or((None, None), |range| (range.min, range.max));
    let clues = min.unwrap_or(*CLUES.start())..=max_clues.unwrap_or(*CLUES.end());
    for (end, at) in [(min, "/clues/min"), (max_clues, "/clues/max")] {
        if end.is_some_and(|n| !CLUES.contains(&n)) {
            return Err(Problem::invalid_at(
                at,
                format!("a clue count is from 0 to 81; got {}", end.unwrap_or(0)),
            ));
        }
    }
    if clues.start() > clues.end() {
        return Err(Problem::invalid_at(
            "/clues",
            format!(
                "clues.min ({}) is above clues.max ({})",
                clues.start(),
                clues.end()
            ),
        ));
    }
    let (from, seed) = match request.cursor.as_deref() {
        None => (
            Position {
                index: 0,
                answered: 0,
            },
            request.seed.unwrap_or_else(random_seed),
        ),
        Some(cursor) => {
            let (at, seed, check) = parse_cursor(cursor).ok_or_else(|| {
                Problem::invalid_at(
                    "/cursor",
                    format!("{cursor:?} is not a cursor: send back a line's `cursor` as it came"),
                )
            })?;
            if request.seed.is_some_and(|s| s != seed)
                || check != check_of(&asked, seed, &clues, distinct)
            {
                return Err(Problem::invalid_at(
                    "/cursor",
                    "this cursor belongs to a batch with other options: resume with the \
                     options (and seed) the batch was started with",
                ));
            }
            if at.answered > request.count {
                return Err(Problem::invalid_at(
                    "/cursor",
                    format!(
                        "this cursor is past {} puzzles, more than count ({})",
                        at.answered, request.count
                    ),
                ));
            }
            (at, seed)
        }
    };
    Ok(Plan {
        check: check_of(&asked, seed, &clues, distinct),
        asked: Arc::new(asked),
        seed,
        count: request.count,
        clues,
        distinct,
        from,
    })
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
/// the module docs for the skips and the end).
async fn stream(
    pool: SolvePool,
    client: Client,
    plan: Plan,
    deadline: Instant,
    lines: NdjsonStream,
) {
    let mut at = plan.from;
    let mut seen = HashSet::new();
    let (mut puzzles, mut skipped) = (0, 0);
    let stopped = |problem: Problem, at: Position| Line::Stopped {
        error: problem.body(),
        cursor: plan.cursor(at),
    };
    while at.answered < plan.count {
        if Instant::now() >= deadline {
            send(&lines, &stopped(Problem::Timeout, at)).await;
            return;
        }
        let seed = puzzle_seed(plan.seed, at.index);
        let asked = Arc::clone(&plan.asked);
        let made = match pool
            .run_generation(client, Some(deadline), move |engine, budget| {
                make(engine, budget, &asked, seed)
            })
            .await
        {
            Ok(timed) => timed.value,
            Err(error) => {
                send(&lines, &stopped(error.into(), at)).await;
                return;
            }
        };
        at.index += 1;
        let made = match made {
            Ok(made) => made,
            // Out of time (or cancelled): this index is tried again on resume. Never a skip,
            // which would make the lines depend on how busy the machine was.
            Err(error) if error.stopped_by_clock() => {
                at.index -= 1;
                send(&lines, &stopped(Problem::Timeout, at)).await;
                return;
            }
            // No puzzle from this seed within the work budget: the same on every run.
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        let repeated = plan.distinct && made.canonical_id().is_some_and(|id| !seen.insert(id));
        if !plan.clues.contains(&made.clues()) || repeated {
            skipped += 1;
            continue;
        }
        at.answered += 1;
        puzzles += 1;
        let line = Line::Puzzle {
            puzzle: Box::new(respond(&made, &plan.asked, seed)),
            cursor: plan.cursor(at),
        };
        if !send(&lines, &line).await {
            return;
        }
    }
    send(
        &lines,
        &Line::Done {
            done: true,
            puzzles,
            skipped,
        },
    )
    .await;
}

async fn send(lines: &NdjsonStream, line: &Line) -> bool {
    let mut out = Vec::new();
    write_json_line(&mut out, line);
    lines.send(out).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_read_back_and_malformed_ones_are_refused() {
        assert_eq!(
            parse_cursor("12.10.42.0000abcd"),
            Some((
                Position {
                    index: 12,
                    answered: 10
                },
                42,
                0xabcd
            ))
        );
        for bad in ["", "1.2.3", "1.2.3.4.5", "x.0.1.ff", "1.2.3.zz", "1.5.3.ff"] {
            assert_eq!(parse_cursor(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn neighbouring_indices_get_unrelated_seeds_below_2_53() {
        let seeds: HashSet<u64> = (0..1000).map(|i| puzzle_seed(7, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert!(seeds.iter().all(|&s| s <= MAX_SAFE_SEED));
        assert_ne!(puzzle_seed(7, 0), puzzle_seed(8, 0));
    }
}
