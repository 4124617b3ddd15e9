//! [`ApiJson`]: the JSON extractor every handler uses, so that every way a body can be wrong
//! (no content type, broken JSON, the wrong shape, too large) becomes a specific
//! [`Problem`] rather than axum's plain-text rejection.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};

use super::problem::{Problem, SEND_JSON_HINT};

/// `axum::Json`, but every rejection is a [`Problem`] with a specific detail.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    axum::Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = Problem;

    async fn from_request(request: Request, state: &S) -> Result<Self, Problem> {
        let sent_type = request
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        match axum::Json::<T>::from_request(request, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(rejection_problem(rejection, sent_type)),
        }
    }
}

fn rejection_problem(rejection: JsonRejection, sent_type: Option<String>) -> Problem {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => Problem::UnsupportedMediaType {
            detail: match sent_type {
                Some(t) => format!("the body was sent as {t:?}; {SEND_JSON_HINT}"),
                None => format!("the body was sent without a Content-Type; {SEND_JSON_HINT}"),
            },
        },
        JsonRejection::JsonSyntaxError(e) => Problem::InvalidJson {
            detail: e.body_text(),
        },
        JsonRejection::JsonDataError(e) => Problem::InvalidRequest {
            detail: e.body_text(),
        },
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            Problem::BodyTooLarge
        }
        other => Problem::InvalidJson {
            detail: other.body_text(),
        },
    }
}
