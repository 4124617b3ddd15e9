//! RFC 9457 problem details: the one shape every error of the service takes.
//!
//! Each kind of error is a variant of [`Problem`] with a stable `type` URI, a title and a status.
//! Handlers return `Result<_, Problem>`; [`as_problem_json`] converts the few error
//! responses that are built outside the handlers (axum's 404/405, body limits, timeouts) so that
//! a client never has to parse a second error format.

use axum::body::Body;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::wire::ConflictJson;
use crate::bank::BankError;
use crate::engine::generate::{range_text, Limit};
use crate::engine::{
    CageError, Cell, Conflict, ConstraintError, Digit, EngineError, Exhausted, GenerateError,
    ParseError, PlayError, PuzzleError, RegionError, RulesError, Stop,
};

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// What a 415 tells a client that forgot the header (plain `curl -d` sends a form type).
pub const SEND_JSON_HINT: &str = "send the body as JSON with the header \
     'Content-Type: application/json' (with curl: -H 'Content-Type: application/json')";

/// Prefix of every problem `type`; the last segment names the kind of error.
const TYPE_PREFIX: &str = "urn:sudoku-service:problem:";

/// Every error the service answers with.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// The body is not JSON at all (syntax error, truncated, not UTF-8).
    InvalidJson { detail: String },
    /// The JSON is well-formed but does not have the request's shape; `pointer` is the JSON
    /// pointer of the field at fault, when one is.
    InvalidRequest {
        detail: String,
        pointer: Option<String>,
    },
    /// The board (or the givens: `field`) has the wrong shape or a bad character.
    InvalidBoard {
        field: &'static str,
        error: ParseError,
    },
    /// Two or more givens clash (in a row, column, box or cage) in `field`.
    ConflictingGivens {
        field: &'static str,
        conflicts: Vec<Conflict>,
    },
    /// The Killer cages are malformed (cell out of range, shared, impossible sum, ...).
    InvalidCages(CageError),
    /// The Jigsaw regions are malformed (wrong count or size, not connected, ...).
    InvalidRegions(RegionError),
    /// A parity cell, thermometer or dot is malformed (off the grid, repeated, not
    /// adjacent, a value no digits meet); the error names its type and pointer.
    InvalidConstraint(ConstraintError),
    /// The player's board lost or changed a given of the puzzle.
    GivenChanged {
        cell: Cell,
        given: Digit,
        found: Option<Digit>,
    },
    /// The operation does not cover this kind of puzzle (or this field); the detail says
    /// what it covers.
    Unsupported {
        detail: String,
        pointer: Option<String>,
    },
    /// The givens obey the rules but no grid completes them.
    NoSolution,
    /// The job used its whole work budget before it was done: a search before it knew the
    /// answer, or (`drawing`) the drawing of a picture of its puzzle.
    BudgetExhausted { work: u64, drawing: bool },
    /// `/generate` found no puzzle in the requested range within its limits; the detail says
    /// what was asked and what to try.
    GenerationFailed { detail: String },
    /// The body was sent without `Content-Type: application/json`.
    UnsupportedMediaType { detail: String },
    /// The `Accept` header names no media type the route answers in (`/v1/render`: SVG or
    /// PNG); the detail lists them.
    NotAcceptable { detail: String },
    /// The body is larger than the configured limit.
    BodyTooLarge,
    /// No such route.
    NotFound { path: String },
    /// The route exists but not for this method.
    MethodNotAllowed,
    /// Every solver slot and queue place is taken: try again shortly.
    Overloaded { retry_after_secs: u64 },
    /// This client sends faster than the configured rate.
    TooManyRequests { retry_after_secs: u64 },
    /// Too many request headers, or too many bytes of them.
    HeadersTooLarge { detail: String },
    /// The request target is longer than the server takes.
    UriTooLong { detail: String },
    /// Not a valid HTTP/1.1 request (a request line or header hyper could not parse, or no
    /// `Host` header).
    MalformedRequest { detail: String },
    /// The request took longer than the configured timeout.
    Timeout,
    /// A generation met its deadline, ahead of the request's time limit, before it found a
    /// puzzle or spent its work budget: the server was short of time (a queue, a loaded
    /// machine), which retrying fixes, so it is a timeout, not `GenerationFailed` (whose
    /// remedy, another seed, would give up a seed that works). The detail says how far it got.
    GenerationTimedOut { detail: String },
    /// The server is draining for shutdown.
    ShuttingDown,
    /// A bug. Never expected; reported without internals.
    Internal,
    /// The problem with one puzzle of a list (`/v1/booklet`'s `puzzles`): its type and
    /// status, its pointer and detail prefixed with the puzzle's place.
    InPuzzle { index: usize, problem: Box<Problem> },
    /// The problem with a rule field translated from an f-puzzles puzzle: its type and
    /// status, pointing at the f-puzzles `key` and `entry` it came from
    /// (`/fpuzzles/thermometer` and `/2/lines/1`; `entry` empty for the key as a whole), the
    /// detail naming the native field it became (`native`, a pointer), which the detail
    /// describes.
    InFpuzzles {
        key: &'static str,
        entry: String,
        native: String,
        problem: Box<Problem>,
    },
    /// The problem with an f-puzzles puzzle sent as a compressed string or a link: its type
    /// and status, pointing at `/fpuzzles` (a string in the body sent, which a pointer cannot
    /// enter), the place in the puzzle it decompresses to (`problem`'s pointer, less
    /// `/fpuzzles`) named in the detail and in `decompressed_pointer`.
    InCompressed { problem: Box<Problem> },
}

impl From<ParseError> for Problem {
    /// A malformed `board`; see [`Problem::in_field`] for the givens.
    fn from(error: ParseError) -> Problem {
        Problem::InvalidBoard {
            field: "board",
            error,
        }
    }
}

impl Problem {
    /// [`Exhausted`] while drawing a picture: out of work is then the picture's size, not
    /// the puzzle's difficulty, and the detail says so.
    pub fn drawing(exhausted: Exhausted) -> Problem {
        match Problem::from(exhausted) {
            Problem::BudgetExhausted { work, .. } => Problem::BudgetExhausted {
                work,
                drawing: true,
            },
            other => other,
        }
    }

    /// A request-shape problem about the field at `pointer`.
    pub fn invalid_at(pointer: impl Into<String>, detail: impl Into<String>) -> Problem {
        Problem::InvalidRequest {
            detail: detail.into(),
            pointer: Some(pointer.into()),
        }
    }

    /// The same board problem, about `field` (e.g. `givens`) instead of `board`.
    pub fn in_field(self, field: &'static str) -> Problem {
        match self {
            Problem::InvalidBoard { error, .. } => Problem::InvalidBoard { field, error },
            Problem::ConflictingGivens { conflicts, .. } => {
                Problem::ConflictingGivens { field, conflicts }
            }
            other => other,
        }
    }

    /// The same `unsupported` problem pointing at `pointer` (another problem unchanged).
    pub fn at_pointer(self, pointer: &str) -> Problem {
        match self {
            Problem::Unsupported { detail, .. } => Problem::Unsupported {
                detail,
                pointer: Some(pointer.to_string()),
            },
            other => other,
        }
    }

    /// The JSON pointer of the request field at fault, when there is one.
    pub fn pointer(&self) -> Option<String> {
        match self {
            Problem::InvalidRequest { pointer, .. } | Problem::Unsupported { pointer, .. } => {
                pointer.clone()
            }
            // A batch item is the board itself (its place in the answer says which): no field.
            Problem::InvalidBoard { field, .. } | Problem::ConflictingGivens { field, .. } => {
                (!field.is_empty()).then(|| format!("/{field}"))
            }
            Problem::GivenChanged { .. } => Some("/board".to_string()),
            Problem::InvalidCages(err) => Some(format!("/cages/{}", err.cage() - 1)),
            Problem::InvalidRegions(_) => Some("/regions".to_string()),
            Problem::InvalidConstraint(err) => Some(err.pointer.clone()),
            Problem::InPuzzle { index, problem } => Some(format!(
                "/puzzles/{index}{}",
                problem.pointer().unwrap_or_default()
            )),
            Problem::InFpuzzles { key, entry, .. } => Some(format!("/fpuzzles/{key}{entry}")),
            Problem::InCompressed { .. } => Some("/fpuzzles".to_string()),
            _ => None,
        }
    }

    /// This problem about an f-puzzles puzzle that was sent compressed: pointing at
    /// `/fpuzzles` when it points inside it (see [`Problem::InCompressed`]), else unchanged.
    pub fn in_compressed(self) -> Problem {
        match self.decompressed_pointer() {
            Some(_) => Problem::InCompressed {
                problem: Box::new(self),
            },
            None => self,
        }
    }

    /// The place inside `/fpuzzles` this problem points at (`/thermometer/2`), if any.
    fn decompressed_pointer(&self) -> Option<String> {
        let pointer = self.pointer()?;
        let inside = pointer.strip_prefix("/fpuzzles")?;
        inside.starts_with('/').then(|| inside.to_string())
    }
}

impl From<CageError> for Problem {
    fn from(err: CageError) -> Problem {
        Problem::InvalidCages(err)
    }
}

impl From<RulesError> for Problem {
    fn from(err: RulesError) -> Problem {
        match err {
            RulesError::Cages(err) => Problem::InvalidCages(err),
            RulesError::Regions(err) => Problem::InvalidRegions(err),
            RulesError::Constraint(err) => Problem::InvalidConstraint(err),
            RulesError::WindowsNeedNine { .. } => Problem::Unsupported {
                detail: err.to_string(),
                pointer: Some("/windows".to_string()),
            },
        }
    }
}

impl From<PuzzleError> for Problem {
    fn from(err: PuzzleError) -> Problem {
        match err {
            PuzzleError::Board(err) => err.into(),
            PuzzleError::Rules(err) => err.into(),
            PuzzleError::Conflicts(conflicts) => Problem::ConflictingGivens {
                field: "board",
                conflicts,
            },
        }
    }
}

impl From<PlayError> for Problem {
    fn from(err: PlayError) -> Problem {
        match err {
            PlayError::GivenChanged { cell, given, found } => {
                Problem::GivenChanged { cell, given, found }
            }
            PlayError::SizeMismatch { .. } => Problem::invalid_at(
                "/givens",
                format!("{err}; send the givens of the puzzle the board is a position of"),
            ),
            PlayError::MoveOnGiven { .. }
            | PlayError::MoveOffGrid { .. }
            | PlayError::MoveDigit { .. } => Problem::invalid_at(
                "/move",
                format!(
                    "{err}; send a move as {{\"row\", \"col\", \"digit\"}}, 0-based, on an \
                     empty or entered cell"
                ),
            ),
        }
    }
}

impl From<Exhausted> for Problem {
    /// Out of work is the puzzle's fault (422, reproducible); a deadline or a cancellation
    /// is the request's time limit (503, try again).
    fn from(exhausted: Exhausted) -> Problem {
        match exhausted.stop {
            Stop::Work => Problem::BudgetExhausted {
                work: exhausted.work,
                drawing: false,
            },
            Stop::Deadline | Stop::Cancelled => Problem::Timeout,
        }
    }
}

/// A batch's option, at its field; the count names the setting that bounds it.
impl From<BankError> for Problem {
    fn from(err: BankError) -> Problem {
        let detail = match err {
            BankError::Count { max, got } => format!(
                "count must be from 1 to {max} (this server's generate_batch_items); got {got}"
            ),
            ref other => other.to_string(),
        };
        Problem::invalid_at(format!("/{}", err.field().replace('.', "/")), detail)
    }
}

impl From<EngineError> for Problem {
    fn from(err: EngineError) -> Problem {
        match err {
            EngineError::Exhausted(exhausted) => exhausted.into(),
            EngineError::Unsupported { .. } => Problem::Unsupported {
                detail: format!(
                    "{err}; /solve, /validate, /hint and /candidates take every size and rule set"
                ),
                pointer: Some("/board".to_string()),
            },
            EngineError::NoCanonicalForm { .. } => Problem::Unsupported {
                detail: err.to_string(),
                pointer: None,
            },
            EngineError::NotGenerated(GenerateError::EmptyRange { .. }) => {
                Problem::invalid_at("/rating", err.to_string())
            }
            EngineError::NotGenerated(GenerateError::NotFound {
                min,
                max,
                ratings,
                work,
                limit: Limit::Time,
            }) => Problem::GenerationTimedOut {
                detail: format!(
                    "no puzzle rated {} was found before this server's time limit for a \
                     generation ({ratings} candidate puzzles rated, {work} units of its work \
                     budget spent): the server was busy; retry after 1 s (the same seed gives \
                     the same puzzle)",
                    range_text(min, max)
                ),
            },
            EngineError::NotGenerated(GenerateError::NotFound {
                min,
                max,
                ratings,
                work,
                limit,
            }) => {
                let range = range_text(min, max);
                Problem::GenerationFailed {
                    detail: format!(
                        "no puzzle rated {range} was found within this server's generation \
                         {limit} ({ratings} candidate puzzles rated, {work} units of work); try \
                         another seed (or none), or a wider range"
                    ),
                }
            }
            EngineError::NotGenerated(GenerateError::Unreachable { highest, .. }) => {
                Problem::Unsupported {
                    detail: format!(
                        "{err}; ask for a range that starts at {highest} or below (or for a \
                         level)"
                    ),
                    pointer: Some("/rating".into()),
                }
            }
            EngineError::NotGenerated(GenerateError::Stopped(exhausted)) => exhausted.into(),
            EngineError::SizeMismatch { .. } => Problem::invalid_at(
                "/givens",
                format!("{err}; send the givens of the puzzle the board is a position of"),
            ),
        }
    }
}

/// "board: ..." for a problem about a named field; the bare message for one about the whole
/// item (a board of a batch).
fn named(field: &str, message: &dyn std::fmt::Display) -> String {
    if field.is_empty() {
        message.to_string()
    } else {
        format!("{field}: {message}")
    }
}

/// The JSON body of a problem (also embedded per item in batch answers).
#[derive(Debug, Serialize)]
pub struct ProblemBody {
    #[serde(rename = "type")]
    kind: String,
    title: &'static str,
    status: u16,
    pub detail: String,
    /// 0-based row at fault, for board errors that point at one.
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<usize>,
    /// 0-based column at fault, for board errors that point at one.
    #[serde(skip_serializing_if = "Option::is_none")]
    col: Option<usize>,
    /// JSON pointer (RFC 6901) of the request field at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conflicts: Option<Vec<ConflictJson>>,
    /// Conflicts left out of `conflicts` (a batch item lists only the first few).
    #[serde(skip_serializing_if = "Option::is_none")]
    conflicts_omitted: Option<usize>,
    /// Work units used, for a search that ran out of budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    work: Option<u64>,
    /// JSON pointer inside the puzzle `fpuzzles` decompresses to, when it was sent as a
    /// compressed string or a link (`pointer` is then `/fpuzzles`).
    #[serde(skip_serializing_if = "Option::is_none")]
    decompressed_pointer: Option<String>,
}

/// Conflicts a batch item lists; the rest are counted. One broken board can repeat a digit in
/// dozens of units, and a batch holds thousands: bounded items keep a batch answer near the
/// size of its request.
pub const BRIEF_CONFLICTS: usize = 3;

impl ProblemBody {
    /// The body cut to size for one item of many: at most [`BRIEF_CONFLICTS`] conflicts
    /// (with the count of the others), and a detail naming the first.
    pub fn brief(mut self) -> ProblemBody {
        if let Some(conflicts) = self.conflicts.as_mut() {
            if conflicts.len() > BRIEF_CONFLICTS {
                let omitted = conflicts.len() - BRIEF_CONFLICTS;
                conflicts.truncate(BRIEF_CONFLICTS);
                self.conflicts_omitted = Some(omitted);
            }
            if let Some(first) = self.detail.split("; ").next() {
                let more = self.detail.matches("; ").count();
                if more > 0 {
                    self.detail = format!("{first} (and {more} more)");
                }
            }
        }
        self
    }
}

impl Problem {
    /// The stable last segment of the `type` URI.
    pub fn slug(&self) -> &'static str {
        match self {
            Problem::InvalidJson { .. } => "invalid-json",
            Problem::InvalidRequest { .. } => "invalid-request",
            Problem::InvalidBoard { .. } => "invalid-board",
            Problem::InvalidCages(_) => "invalid-cages",
            Problem::InvalidRegions(_) => "invalid-regions",
            Problem::InvalidConstraint(err) => err.problem,
            Problem::GivenChanged { .. } => "given-changed",
            Problem::Unsupported { .. } => "unsupported",
            Problem::ConflictingGivens { .. } => "conflicting-givens",
            Problem::NoSolution => "no-solution",
            Problem::BudgetExhausted { .. } => "budget-exhausted",
            Problem::GenerationFailed { .. } => "generation-failed",
            Problem::UnsupportedMediaType { .. } => "unsupported-media-type",
            Problem::NotAcceptable { .. } => "not-acceptable",
            Problem::BodyTooLarge => "body-too-large",
            Problem::NotFound { .. } => "not-found",
            Problem::MethodNotAllowed => "method-not-allowed",
            Problem::Overloaded { .. } => "overloaded",
            Problem::TooManyRequests { .. } => "too-many-requests",
            Problem::HeadersTooLarge { .. } => "headers-too-large",
            Problem::UriTooLong { .. } => "uri-too-long",
            Problem::MalformedRequest { .. } => "malformed-request",
            Problem::Timeout | Problem::GenerationTimedOut { .. } => "timeout",
            Problem::ShuttingDown => "shutting-down",
            Problem::Internal => "internal",
            Problem::InPuzzle { problem, .. }
            | Problem::InFpuzzles { problem, .. }
            | Problem::InCompressed { problem } => problem.slug(),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Problem::InvalidJson { .. } | Problem::MalformedRequest { .. } => {
                StatusCode::BAD_REQUEST
            }
            Problem::InvalidRequest { .. }
            | Problem::InvalidBoard { .. }
            | Problem::InvalidCages(_)
            | Problem::InvalidRegions(_)
            | Problem::InvalidConstraint(_)
            | Problem::GivenChanged { .. }
            | Problem::Unsupported { .. }
            | Problem::ConflictingGivens { .. }
            | Problem::NoSolution
            | Problem::BudgetExhausted { .. }
            | Problem::GenerationFailed { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Problem::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Problem::NotAcceptable { .. } => StatusCode::NOT_ACCEPTABLE,
            Problem::BodyTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Problem::NotFound { .. } => StatusCode::NOT_FOUND,
            Problem::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Problem::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Problem::HeadersTooLarge { .. } => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            Problem::UriTooLong { .. } => StatusCode::URI_TOO_LONG,
            Problem::Overloaded { .. }
            | Problem::Timeout
            | Problem::GenerationTimedOut { .. }
            | Problem::ShuttingDown => StatusCode::SERVICE_UNAVAILABLE,
            Problem::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Problem::InPuzzle { problem, .. }
            | Problem::InFpuzzles { problem, .. }
            | Problem::InCompressed { problem } => problem.status(),
        }
    }

    fn title(&self) -> &'static str {
        match self {
            Problem::InvalidJson { .. } => "Request body is not valid JSON",
            Problem::InvalidRequest { .. } => "Request does not match the expected shape",
            Problem::InvalidBoard { .. } => "Board is malformed",
            Problem::InvalidCages(_) => "Cages are malformed",
            Problem::InvalidRegions(_) => "Regions are malformed",
            Problem::InvalidConstraint(_) => "A rule field is malformed",
            Problem::GivenChanged { .. } => "Board changed a given",
            Problem::Unsupported { .. } => "Not supported for this puzzle",
            Problem::ConflictingGivens { .. } => "Board breaks the rules",
            Problem::NoSolution => "Puzzle has no solution",
            Problem::BudgetExhausted { .. } => "Work budget exhausted",
            Problem::GenerationFailed { .. } => "No puzzle generated",
            Problem::UnsupportedMediaType { .. } => "Unsupported media type",
            Problem::NotAcceptable { .. } => "No acceptable media type",
            Problem::BodyTooLarge => "Request body too large",
            Problem::NotFound { .. } => "Not found",
            Problem::MethodNotAllowed => "Method not allowed",
            Problem::Overloaded { .. } => "Service overloaded",
            Problem::TooManyRequests { .. } => "Too many requests",
            Problem::HeadersTooLarge { .. } => "Request headers too large",
            Problem::UriTooLong { .. } => "Request target too long",
            Problem::MalformedRequest { .. } => "Malformed HTTP request",
            Problem::Timeout | Problem::GenerationTimedOut { .. } => "Request timed out",
            Problem::ShuttingDown => "Service shutting down",
            Problem::Internal => "Internal error",
            Problem::InPuzzle { problem, .. }
            | Problem::InFpuzzles { problem, .. }
            | Problem::InCompressed { problem } => problem.title(),
        }
    }

    fn detail(&self) -> String {
        match self {
            Problem::InvalidJson { detail }
            | Problem::InvalidRequest { detail, .. }
            | Problem::Unsupported { detail, .. }
            | Problem::HeadersTooLarge { detail }
            | Problem::UriTooLong { detail }
            | Problem::MalformedRequest { detail }
            | Problem::GenerationFailed { detail }
            | Problem::GenerationTimedOut { detail }
            | Problem::UnsupportedMediaType { detail }
            | Problem::NotAcceptable { detail } => detail.clone(),
            Problem::InvalidBoard { field, error } => named(field, error),
            Problem::InvalidCages(err) => err.to_string(),
            Problem::InvalidRegions(err) => err.to_string(),
            Problem::InvalidConstraint(err) => err.to_string(),
            Problem::GivenChanged { cell, given, found } => {
                let found = found.map_or("nothing".to_string(), |d| d.to_char().to_string());
                format!(
                    "{cell} holds the given {} but the board has {found} there; send the \
                     board with every given of the puzzle unchanged",
                    given.to_char()
                )
            }
            Problem::ConflictingGivens { field, conflicts } => named(
                field,
                &conflicts
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
            Problem::NoSolution => {
                "the givens do not clash, but no grid completes them".to_string()
            }
            Problem::BudgetExhausted {
                work,
                drawing: false,
            } => format!(
                "gave up after {work} units of work; the puzzle is too ambiguous or too hard \
                 for this server's limit"
            ),
            Problem::BudgetExhausted {
                work,
                drawing: true,
            } => format!(
                "gave up after {work} units of work while drawing: the picture is too large \
                 for this server's limit (fewer constraints or a smaller width draw sooner)"
            ),
            Problem::BodyTooLarge => "the request body exceeds this server's size limit".into(),
            Problem::NotFound { path } => format!("no route for {path}"),
            Problem::MethodNotAllowed => {
                "this route does not accept that method; see the Allow header".into()
            }
            Problem::Overloaded { retry_after_secs } => format!(
                "all solver slots and queue places are taken; retry after {retry_after_secs} s"
            ),
            Problem::TooManyRequests { retry_after_secs } => format!(
                "this client sends more requests than the server's rate limit allows; retry \
                 after {retry_after_secs} s"
            ),
            Problem::Timeout => {
                "the request did not complete within the server's time limit".into()
            }
            Problem::ShuttingDown => "the server is draining for shutdown".into(),
            Problem::Internal => "an unexpected error occurred".into(),
            Problem::InPuzzle { index, problem } => {
                format!("puzzles[{index}]: {}", problem.detail())
            }
            Problem::InFpuzzles {
                key,
                native,
                problem,
                ..
            } => format!("f-puzzles `{key}` (as `{native}`): {}", problem.detail()),
            Problem::InCompressed { problem } => format!(
                "in the puzzle `fpuzzles` decompresses to, at `{}`: {}",
                problem.decompressed_pointer().unwrap_or_default(),
                problem.detail()
            ),
        }
    }

    /// The JSON body.
    pub fn body(&self) -> ProblemBody {
        if let Problem::InPuzzle { problem, .. }
        | Problem::InFpuzzles { problem, .. }
        | Problem::InCompressed { problem } = self
        {
            let inner = problem.body();
            return ProblemBody {
                kind: format!("{TYPE_PREFIX}{}", self.slug()),
                detail: self.detail(),
                pointer: self.pointer(),
                decompressed_pointer: match self {
                    Problem::InCompressed { problem } => problem.decompressed_pointer(),
                    _ => inner.decompressed_pointer.clone(),
                },
                ..inner
            };
        }
        let (row, col) = match self {
            Problem::InvalidBoard { error, .. } => {
                let (row, col) = error.location();
                (row.map(|r| r - 1), col.map(|c| c - 1))
            }
            Problem::GivenChanged { cell, .. } => (Some(cell.row()), Some(cell.col())),
            Problem::InvalidRegions(err) => match err.cell() {
                Some(cell) => (Some(cell.row()), Some(cell.col())),
                None => (None, None),
            },
            _ => (None, None),
        };
        ProblemBody {
            kind: format!("{TYPE_PREFIX}{}", self.slug()),
            title: self.title(),
            status: self.status().as_u16(),
            detail: self.detail(),
            row,
            col,
            pointer: self.pointer(),
            conflicts: match self {
                Problem::ConflictingGivens { conflicts, .. } => {
                    Some(conflicts.iter().map(ConflictJson::from).collect())
                }
                _ => None,
            },
            conflicts_omitted: None,
            work: match self {
                Problem::BudgetExhausted { work, .. } => Some(*work),
                _ => None,
            },
            decompressed_pointer: None,
        }
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = serde_json::to_vec(&self.body()).unwrap_or_else(|_| b"{}".to_vec());
        let mut response = (self.status(), body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        let retry_after = match self {
            Problem::Overloaded { retry_after_secs }
            | Problem::TooManyRequests { retry_after_secs } => Some(retry_after_secs),
            Problem::Timeout | Problem::GenerationTimedOut { .. } | Problem::ShuttingDown => {
                Some(1)
            }
            _ => None,
        };
        if let Some(secs) = retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// The answer that replaces one of hyper's own error responses, as the raw HTTP/1.1 bytes to
/// send: hyper answers a request it cannot parse (a request line it cannot read, a target
/// over 64 KiB, more headers than it takes) before any handler runs, with an empty body.
/// The connection closes after it. `None` for a status hyper does not answer that way.
pub fn answer_for_unparsed(status: u16) -> Option<Vec<u8>> {
    let problem = match status {
        400 => Problem::MalformedRequest {
            detail: "the request is not valid HTTP/1.1 (its request line or a header could \
                     not be read)"
                .into(),
        },
        414 => Problem::UriTooLong {
            detail: "the request target is longer than the 64 KiB this server reads".into(),
        },
        // hyper's 431: more headers than its count, or a head beyond its buffer.
        431 => Problem::HeadersTooLarge {
            detail: format!(
                "the request has more than {} headers or about 400 KB of head; \
                 this server takes at most {} headers and {} bytes of them",
                super::server::MAX_HEADERS,
                super::guard::MAX_REQUEST_HEADERS,
                super::guard::MAX_HEADER_BYTES
            ),
        },
        _ => return None,
    };
    let body = serde_json::to_vec(&problem.body()).ok()?;
    let status = problem.status();
    let mut out = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: {PROBLEM_JSON}\r\nconnection: close\r\n\
         content-length: {}\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    Some(out)
}

/// An error response that is not problem+json yet (axum's own 404/405, a body limit, a
/// timeout) becomes the matching [`Problem`], keeping its headers (`Allow`). `path` is the
/// request's, for the 404 detail. Called by the request middleware on every answer.
pub fn as_problem_json(response: Response, path: &str) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_problem_json(&response) {
        return response;
    }
    let problem = match status {
        StatusCode::NOT_FOUND => Problem::NotFound {
            path: path.to_string(),
        },
        StatusCode::METHOD_NOT_ALLOWED => Problem::MethodNotAllowed,
        StatusCode::PAYLOAD_TOO_LARGE => Problem::BodyTooLarge,
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => Problem::HeadersTooLarge {
            detail: "the request headers are too large".into(),
        },
        StatusCode::URI_TOO_LONG => Problem::UriTooLong {
            detail: "the request target is too long".into(),
        },
        StatusCode::REQUEST_TIMEOUT | StatusCode::GATEWAY_TIMEOUT => Problem::Timeout,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => Problem::UnsupportedMediaType {
            detail: SEND_JSON_HINT.to_string(),
        },
        StatusCode::SERVICE_UNAVAILABLE => Problem::Overloaded {
            retry_after_secs: 1,
        },
        s if s.is_client_error() => Problem::InvalidRequest {
            detail: s.canonical_reason().unwrap_or("bad request").to_string(),
            pointer: None,
        },
        _ => Problem::Internal,
    };
    let (mut parts, _) = response.into_parts();
    let replacement = problem.into_response();
    parts.status = replacement.status();
    for (name, value) in replacement.headers() {
        parts.headers.insert(name, value.clone());
    }
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::new(replacement.into_body()))
}

fn is_problem_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with(PROBLEM_JSON))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_errors_point_at_the_cell_zero_based() {
        let body = Problem::from(ParseError::IllegalChar {
            row: 2,
            col: 5,
            found: 'x',
            side: 9,
        })
        .in_field("givens")
        .body();
        assert_eq!(body.pointer.as_deref(), Some("/givens"));
        assert!(
            body.detail.starts_with("givens: row 2, column 5"),
            "{}",
            body.detail
        );
        assert_eq!((body.row, body.col), (Some(1), Some(4)));
        assert_eq!(body.status, 422);
        assert_eq!(body.kind, "urn:sudoku-service:problem:invalid-board");
        assert!(body.detail.contains("row 2, column 5"));
    }

    #[test]
    fn a_brief_body_lists_a_few_conflicts_and_counts_the_rest() {
        let board = crate::engine::Grid::from_line(&"1".repeat(81)).unwrap();
        let found = crate::engine::conflicts(&board, &crate::engine::Rules::classic(board.shape()));
        assert_eq!(found.len(), 27);
        let full = Problem::ConflictingGivens {
            field: "board",
            conflicts: found,
        }
        .body();
        let brief = full.brief();
        assert_eq!(brief.conflicts.as_ref().unwrap().len(), BRIEF_CONFLICTS);
        assert_eq!(brief.conflicts_omitted, Some(24));
        assert!(
            brief
                .detail
                .starts_with("board: digit 1 repeats in row 1: "),
            "{}",
            brief.detail
        );
        assert!(brief.detail.ends_with(" (and 26 more)"), "{}", brief.detail);
        assert!(serde_json::to_string(&brief).unwrap().len() < 1_500);
    }

    /// The body of a response, as JSON.
    async fn json_of(response: Response) -> serde_json::Value {
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    #[tokio::test]
    async fn plain_error_responses_become_the_matching_problem() {
        // Sent status, answered status, problem type.
        let cases = [
            (404, 404, "not-found"),
            (405, 405, "method-not-allowed"),
            (413, 413, "body-too-large"),
            (431, 431, "headers-too-large"),
            (414, 414, "uri-too-long"),
            (408, 503, "timeout"),
            (504, 503, "timeout"),
            (415, 415, "unsupported-media-type"),
            (503, 503, "overloaded"),
            (418, 422, "invalid-request"),
            (502, 500, "internal"),
        ];
        for (sent, answered, slug) in cases {
            let status = StatusCode::from_u16(sent).unwrap();
            let mut plain = (status, "plain text").into_response();
            plain
                .headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET"));
            let response = as_problem_json(plain, "/nowhere");
            assert_eq!(response.status().as_u16(), answered, "{status}");
            assert_eq!(response.headers()[header::CONTENT_TYPE], PROBLEM_JSON);
            assert_eq!(response.headers()[header::ALLOW], "GET", "{status}");
            let body = json_of(response).await;
            assert_eq!(body["type"], format!("{TYPE_PREFIX}{slug}"), "{status}");
            assert_eq!(body["status"], answered);
        }
        let body = json_of(as_problem_json(
            StatusCode::NOT_FOUND.into_response(),
            "/nowhere",
        ))
        .await;
        assert_eq!(body["detail"], "no route for /nowhere");
        let body = json_of(as_problem_json(
            StatusCode::IM_A_TEAPOT.into_response(),
            "/",
        ))
        .await;
        assert_eq!(body["detail"], "I'm a teapot");
    }

    #[tokio::test]
    async fn answers_that_need_no_conversion_pass_unchanged() {
        for status in [StatusCode::OK, StatusCode::NO_CONTENT, StatusCode::FOUND] {
            let response = as_problem_json((status, "as is").into_response(), "/");
            assert_eq!(response.status(), status);
            assert!(
                response.headers().get(header::CONTENT_TYPE)
                    != Some(&HeaderValue::from_static(PROBLEM_JSON))
            );
        }
        // Already a problem: kept as it is, not rewritten as another kind.
        let problem = Problem::NoSolution.into_response();
        let response = as_problem_json(problem, "/solve");
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            json_of(response).await["type"],
            format!("{TYPE_PREFIX}no-solution")
        );
        let mut with_charset = (StatusCode::NOT_FOUND, "{}").into_response();
        with_charset.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json; charset=utf-8"),
        );
        let kept = as_problem_json(with_charset, "/x");
        assert_eq!(json_of(kept).await, serde_json::json!({}));
    }

    #[test]
    fn every_kind_has_its_own_title_and_retry_after_only_when_it_helps() {
        let kinds = [
            Problem::InvalidJson { detail: "d".into() },
            Problem::invalid_at("/board", "d"),
            Problem::NoSolution,
            Problem::BudgetExhausted {
                work: 7,
                drawing: false,
            },
            Problem::BodyTooLarge,
            Problem::NotFound { path: "/x".into() },
            Problem::MethodNotAllowed,
            Problem::Overloaded {
                retry_after_secs: 3,
            },
            Problem::TooManyRequests {
                retry_after_secs: 4,
            },
            Problem::Timeout,
            Problem::ShuttingDown,
            Problem::Internal,
        ];
        let titles: std::collections::BTreeSet<&str> = kinds.iter().map(Problem::title).collect();
        assert_eq!(titles.len(), kinds.len(), "{titles:?}");
        let retry: Vec<Option<String>> = kinds
            .into_iter()
            .map(|p| {
                p.into_response()
                    .headers()
                    .get(header::RETRY_AFTER)
                    .map(|v| v.to_str().unwrap().to_string())
            })
            .collect();
        let expected = [
            None,
            None,
            None,
            None,
            None,
            None,
            None,
            Some("3"),
            Some("4"),
            Some("1"),
            Some("1"),
            None,
        ];
        assert_eq!(retry, expected.map(|r| r.map(String::from)));
    }

    #[test]
    fn a_generation_out_of_time_is_a_timeout_and_out_of_work_a_failure() {
        let not_found = |limit| {
            Problem::from(EngineError::NotGenerated(GenerateError::NotFound {
                min: crate::engine::Rating::from_tenths(92),
                max: crate::engine::Rating::from_tenths(u16::MAX),
                ratings: 4,
                work: 256,
                limit,
            }))
        };
        let late = not_found(Limit::Time);
        assert_eq!(
            (late.status(), late.slug()),
            (StatusCode::SERVICE_UNAVAILABLE, "timeout")
        );
        let detail = late.detail();
        assert!(
            detail.contains("9.2 or more") && detail.contains("retry"),
            "{detail}"
        );
        let response = late.into_response();
        assert_eq!(response.headers()[header::RETRY_AFTER], "1");
        for limit in [Limit::Work, Limit::Ratings] {
            let spent = not_found(limit);
            assert_eq!(spent.status(), StatusCode::UNPROCESSABLE_ENTITY);
            assert_eq!(spent.slug(), "generation-failed");
            assert!(spent.detail().contains("another seed"));
        }
    }

    #[test]
    fn a_brief_body_of_few_conflicts_is_the_full_body() {
        for n in [1, BRIEF_CONFLICTS] {
            // Digit d + 1 in columns d and d + 3 of row 1 (d < 3): n repeats in the row, none
            // in a box or column.
            let mut line = ".".repeat(81);
            for d in 0..n {
                let digit = (d + 1).to_string();
                line.replace_range(d..d + 1, &digit);
                line.replace_range(d + 3..d + 4, &digit);
            }
            let board = crate::engine::Grid::from_line(&line).unwrap();
            let found =
                crate::engine::conflicts(&board, &crate::engine::Rules::classic(board.shape()));
            assert_eq!(found.len(), n, "{line}");
            let full = Problem::ConflictingGivens {
                field: "board",
                conflicts: found,
            }
            .body();
            let detail = full.detail.clone();
            let brief = full.brief();
            assert_eq!(brief.conflicts.as_ref().unwrap().len(), n);
            assert_eq!(brief.conflicts_omitted, None);
            if n == 1 {
                assert_eq!(brief.detail, detail);
            } else {
                assert!(brief.detail.ends_with(&format!(" (and {} more)", n - 1)));
            }
        }
    }

    #[test]
    fn overload_carries_retry_after() {
        let response = Problem::Overloaded {
            retry_after_secs: 2,
        }
        .into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "2");
        assert_eq!(response.headers()[header::CONTENT_TYPE], PROBLEM_JSON);
    }

    /// Inside a compressed `fpuzzles` the pointer stops at the string, the inner place beside
    /// it; a problem about the string itself, or outside it, is left as it is, and wrapping
    /// twice changes nothing.
    #[test]
    fn a_problem_inside_a_compressed_puzzle_points_at_the_string() {
        let inner = Problem::invalid_at("/fpuzzles/killercage/1/value", "too large");
        let wrapped = inner.clone().in_compressed();
        let body = wrapped.body();
        assert_eq!(body.pointer.as_deref(), Some("/fpuzzles"));
        assert_eq!(
            body.decompressed_pointer.as_deref(),
            Some("/killercage/1/value")
        );
        assert_eq!(
            body.detail,
            "in the puzzle `fpuzzles` decompresses to, at `/killercage/1/value`: too large"
        );
        assert_eq!(wrapped.clone().in_compressed(), wrapped);
        let listed = Problem::InPuzzle {
            index: 2,
            problem: Box::new(wrapped),
        };
        assert_eq!(
            listed.body().pointer.as_deref(),
            Some("/puzzles/2/fpuzzles")
        );
        assert_eq!(
            listed.body().decompressed_pointer.as_deref(),
            Some("/killercage/1/value")
        );
        for other in [
            Problem::invalid_at("/fpuzzles", "does not decompress"),
            Problem::invalid_at("/fpuzzlesx/1", "another field"),
            Problem::invalid_at("/board", "not the puzzle's"),
        ] {
            assert_eq!(other.clone().in_compressed(), other);
        }
    }
}
