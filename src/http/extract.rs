//! [`ApiJson`]: the JSON extractor every handler uses, so that every way a body can be wrong
//! (no content type, broken JSON, the wrong shape, too large) becomes a specific
//! [`Problem`] rather than axum's plain-text rejection.

use axum::body::Bytes;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use serde::de::DeserializeOwned;

use super::problem::{Problem, SEND_JSON_HINT};
use super::wire::Object;

/// `axum::Json`, but every rejection is a [`Problem`] with a specific detail, and the body
/// must be a JSON object (every body it reads is one; see [`Object`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    axum::Json<Object<T>>: FromRequest<S, Rejection = JsonRejection>,
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = Problem;

    async fn from_request(request: Request, state: &S) -> Result<Self, Problem> {
        let sent_type = request.headers().get(header::CONTENT_TYPE).cloned();
        // The usual content type in one comparison, then what axum's extractor does after its
        // check (read the body, deserialize): that check parses the type with `mime` on
        // every request, a fiftieth of a solve's instructions. Any other type takes axum's
        // whole path, so its verdict on it stays axum's.
        if sent_type
            .as_ref()
            .is_some_and(|t| t.as_bytes() == b"application/json")
        {
            let read = Bytes::from_request(request, state).await;
            return read
                .map_err(JsonRejection::from)
                .and_then(|body| axum::Json::<Object<T>>::from_bytes(&body))
                .map(|axum::Json(Object(value))| ApiJson(value))
                .map_err(|rejection| rejection_problem(rejection, sent_type.as_ref()));
        }
        match axum::Json::<Object<T>>::from_request(request, state).await {
            Ok(axum::Json(Object(value))) => Ok(ApiJson(value)),
            Err(rejection) => Err(rejection_problem(rejection, sent_type.as_ref())),
        }
    }
}

/// `axum::extract::Query`, but a query that does not fit is a [`Problem`] naming the field.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiQuery<T>
where
    axum::extract::Query<T>: FromRequestParts<S, Rejection = QueryRejection>,
    S: Send + Sync,
{
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Problem> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(ApiQuery(value)),
            Err(rejection) => {
                let text = rejection.body_text();
                let text = text
                    .strip_prefix("Failed to deserialize query string: ")
                    .unwrap_or(&text);
                Err(data_problem(text))
            }
        }
    }
}

pub(super) fn rejection_problem(
    rejection: JsonRejection,
    sent_type: Option<&HeaderValue>,
) -> Problem {
    rejection_problem_taking(rejection, sent_type, &[])
}

/// [`rejection_problem`] for a body that also takes the fields `also`, which the type's own
/// list (serde's) leaves out: they are listed, and suggested for a near miss.
pub(super) fn rejection_problem_taking(
    rejection: JsonRejection,
    sent_type: Option<&HeaderValue>,
    also: &[&str],
) -> Problem {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => Problem::UnsupportedMediaType {
            detail: match sent_type.map(|t| String::from_utf8_lossy(t.as_bytes())) {
                Some(t) => format!("the body was sent as {t:?}; {SEND_JSON_HINT}"),
                None => format!("the body was sent without a Content-Type; {SEND_JSON_HINT}"),
            },
        },
        JsonRejection::JsonSyntaxError(e) => Problem::InvalidJson {
            detail: e.body_text(),
        },
        JsonRejection::JsonDataError(e) => data_problem_taking(&e.body_text(), also),
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            Problem::BodyTooLarge
        }
        other => Problem::InvalidJson {
            detail: other.body_text(),
        },
    }
}

/// What axum says of a body of the wrong shape ("Failed to deserialize the JSON body into the
/// target type: cages[0].sum: invalid type: ...") as a problem naming the field (a JSON
/// pointer) and saying what to send.
pub(super) fn data_problem(text: &str) -> Problem {
    data_problem_taking(text, &[])
}

/// [`data_problem`] for a body that also takes the fields `also` (see
/// [`rejection_problem_taking`]).
pub(super) fn data_problem_taking(text: &str, also: &[&str]) -> Problem {
    let message = text
        .strip_prefix("Failed to deserialize the JSON body into the target type: ")
        .unwrap_or(text);
    // serde_path_to_error puts the path first ("." for the root), then the error.
    let (path, error) = match message.split_once(": ") {
        Some((path, error)) if !path.contains(' ') => (path, error),
        _ => (".", message),
    };
    // An unknown, missing or repeated field is named in the message; the path may or may
    // not end in it already. Taken off the path as it is written and put back as one
    // segment, so that a name with a dot (`rating.min` in a query string) stays one field.
    let named = ["unknown field `", "missing field `", "duplicate field `"]
        .into_iter()
        .find_map(|prefix| quoted_after(error, prefix));
    let pointer = match named {
        Some(field) => {
            let parent = match path.strip_suffix(field) {
                Some("") => ".",
                Some(rest) if rest.ends_with('.') => rest,
                _ => path,
            };
            format!("{}{}", json_pointer(parent), segment(field))
        }
        None => json_pointer(path),
    };
    let detail = explain_unknown_field(error, also);
    let detail = match quoted_after(error, "missing field `") {
        Some("board") => format!("{detail}: send `board` as row strings, one string of all cells, or rows of numbers (0 or null for empty)"),
        Some("difficulty") => format!("{detail}: send `difficulty`, one of easy, medium, hard, expert"),
        Some(field) => format!("{detail}: send `{field}`"),
        None => detail,
    };
    Problem::invalid_at(pointer, detail)
}

/// "cages[0].sum" as a JSON pointer: "/cages/0/sum"; the root (".") is "".
fn json_pointer(path: &str) -> String {
    if path == "." {
        return String::new();
    }
    path.replace('[', ".")
        .replace(']', "")
        .split('.')
        .filter(|part| !part.is_empty())
        .map(segment)
        .collect()
}

/// One JSON pointer segment, `/` and `~` escaped.
fn segment(name: &str) -> String {
    format!("/{}", name.replace('~', "~0").replace('/', "~1"))
}

/// The text between `prefix` and the next back quote.
fn quoted_after<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = &text[text.find(prefix)? + prefix.len()..];
    rest.split('`').next()
}

/// serde's "unknown field `Cages`, expected `board` or `cages`" made into a sentence that says
/// what to send instead: the closest accepted name when there is one, and the whole list.
fn explain_unknown_field(text: &str, also: &[&str]) -> String {
    let Some(at) = text.find("unknown field `") else {
        return text.to_string();
    };
    let rest = &text[at + "unknown field `".len()..];
    let Some(end) = rest.find('`') else {
        return text.to_string();
    };
    let unknown = &rest[..end];
    // The accepted names are the other back-quoted words of the message.
    let mut accepted: Vec<&str> = rest[end + 1..].split('`').skip(1).step_by(2).collect();
    if !accepted.is_empty() {
        accepted.extend(also);
    }
    let list = accepted
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ");
    match closest(unknown, &accepted) {
        Some(name) => {
            format!("unknown field `{unknown}`: did you mean `{name}`? This endpoint takes {list}")
        }
        None if accepted.is_empty() => format!("unknown field `{unknown}`"),
        // A player's position (as `POST /v1/fpuzzles` answers a grid with entries) sent where
        // only a puzzle is read: say where a position goes, and what to send here.
        None if unknown == "givens" && accepted.contains(&"board") => format!(
            "unknown field `givens`: a player's position (`board` with `givens`) goes to \
             /v1/validate, /v1/hint or /v1/candidates; here, send the puzzle's givens as \
             `board`. This endpoint takes {list}"
        ),
        None => format!("unknown field `{unknown}`: this endpoint takes {list}"),
    }
}

/// The accepted name nearest to `unknown` (ignoring case), if it is near enough to be a typo:
/// at most two edits, and fewer than half the name.
fn closest<'a>(unknown: &str, accepted: &[&'a str]) -> Option<&'a str> {
    let unknown = unknown.to_lowercase();
    accepted
        .iter()
        .map(|&name| (edit_distance(&unknown, &name.to_lowercase()), name))
        .filter(|&(d, name)| d <= 2 && d * 2 < name.len().max(2))
        .min_by_key(|&(d, _)| d)
        .map(|(_, name)| name)
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelled_field_gets_the_name_it_meant() {
        let text = "Failed to deserialize the JSON body into the target type: unknown field \
                    `Cages`, expected `board` or `cages` at line 1 column 9";
        assert_eq!(
            explain_unknown_field(text, &[]),
            "unknown field `Cages`: did you mean `cages`? This endpoint takes `board`, `cages`"
        );
        let text = "unknown field `bord`, expected one of `board`, `givens`, `cages`";
        assert!(explain_unknown_field(text, &[]).contains("did you mean `board`?"));
        let text = "unknown field `colour`, expected `board` or `cages`";
        assert_eq!(
            explain_unknown_field(text, &[]),
            "unknown field `colour`: this endpoint takes `board`, `cages`"
        );
        let text = "unknown field `givens`, expected `board` or `cages`";
        assert!(explain_unknown_field(text, &[])
            .starts_with("unknown field `givens`: a player's position (`board` with `givens`)"));
        // Where there is no board to send the givens as, no such advice.
        let text = "unknown field `givens`, expected `size` or `difficulty`";
        assert_eq!(
            explain_unknown_field(text, &[]),
            "unknown field `givens`: this endpoint takes `size`, `difficulty`"
        );
        assert_eq!(
            explain_unknown_field("missing field `board`", &[]),
            "missing field `board`"
        );
    }

    #[test]
    fn data_errors_name_their_field_as_a_json_pointer() {
        let problem = data_problem(
            "Failed to deserialize the JSON body into the target type: cages[1].sum: invalid \
             type: string \"3\", expected u32 at line 1 column 40",
        );
        assert_eq!(problem.pointer().as_deref(), Some("/cages/1/sum"));
        let problem = data_problem(
            "Failed to deserialize the JSON body into the target type: missing field \
             `difficulty` at line 1 column 2",
        );
        assert_eq!(problem.pointer().as_deref(), Some("/difficulty"));
        assert!(problem
            .body()
            .detail
            .contains("one of easy, medium, hard, expert"));
        let problem = data_problem(
            "Failed to deserialize the JSON body into the target type: unknown field `Cages`, \
             expected `board` or `cages` at line 1 column 9",
        );
        assert_eq!(problem.pointer().as_deref(), Some("/Cages"));
        // The name is one segment whether the path ends in it or not, dots and all.
        for (message, pointer) in [
            (
                "rating.min: unknown field `rating.min`, expected `seed`",
                "/rating.min",
            ),
            (
                "cages[0].colour: unknown field `colour`, expected `sum`",
                "/cages/0/colour",
            ),
            ("cages[0]: missing field `sum`", "/cages/0/sum"),
            (".: duplicate field `seed` at line 1 column 36", "/seed"),
            ("duplicate field `difficulty`", "/difficulty"),
        ] {
            let problem = data_problem(message);
            assert_eq!(problem.pointer().as_deref(), Some(pointer), "{message}");
        }
        assert_eq!(json_pointer("."), "");
        assert_eq!(json_pointer("a/b.c[2]"), "/a~1b/c/2");
    }

    #[test]
    fn edit_distance_counts_single_changes() {
        assert_eq!(edit_distance("cages", "cages"), 0);
        assert_eq!(edit_distance("cage", "cages"), 1);
        assert_eq!(edit_distance("gvens", "givens"), 1);
        assert_eq!(edit_distance("abc", "xyz"), 3);
        assert_eq!(closest("seeds", &["seed", "symmetry"]), Some("seed"));
        assert_eq!(closest("x", &["board"]), None);
    }
}
