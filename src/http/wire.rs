//! The JSON shapes on the wire, and the JSON extractor that turns every rejection into a
//! [`Problem`]. Boards come in two forms (9 row strings, or one 81-character line) and answers
//! go back in the form the client used.

use std::fmt;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use super::problem::Problem;
use crate::engine::{Board, Conflict, ParseError};

/// What a 415 tells a client that forgot the header (plain `curl -d` sends a form type).
pub const SEND_JSON_HINT: &str = "send the body as JSON with the header \
     'Content-Type: application/json' (with curl: -H 'Content-Type: application/json')";

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

/// The body of `/solve` and `/validate` (and, without cages, of `/grade`).
#[derive(Debug, Clone, Deserialize)]
pub struct BoardRequest {
    pub board: BoardText,
    /// Killer Sudoku cages; `/solve` and `/validate` only.
    #[serde(default)]
    pub cages: Option<Vec<super::variant::CageJson>>,
}

/// A board as the client sent it, before parsing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardText {
    /// `["9.7.....6", ...]`
    Rows(Vec<String>),
    /// `"9.7.....6..."`
    Line(String),
}

impl BoardText {
    pub fn parse(&self) -> Result<Board, ParseError> {
        match self {
            BoardText::Rows(rows) => Board::from_rows(rows),
            BoardText::Line(line) => Board::from_line(line),
        }
    }

    /// Writes `board` back in the same form as this one.
    pub fn render(&self, board: &Board) -> BoardText {
        match self {
            BoardText::Rows(_) => BoardText::Rows(board.to_rows()),
            BoardText::Line(_) => BoardText::Line(board.to_line()),
        }
    }
}

impl Serialize for BoardText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            BoardText::Rows(rows) => rows.serialize(serializer),
            BoardText::Line(line) => line.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for BoardText {
    /// Hand-written rather than `#[serde(untagged)]`, whose error ("did not match any variant")
    /// would not tell the client what a board looks like.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BoardVisitor;

        impl<'de> Visitor<'de> for BoardVisitor {
            type Value = BoardText;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of 9 row strings or one 81-character string")
            }

            fn visit_str<E: de::Error>(self, line: &str) -> Result<BoardText, E> {
                Ok(BoardText::Line(line.to_string()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<BoardText, A::Error> {
                let mut rows = Vec::with_capacity(9);
                while let Some(row) = seq.next_element::<String>()? {
                    rows.push(row);
                }
                Ok(BoardText::Rows(rows))
            }
        }

        deserializer.deserialize_any(BoardVisitor)
    }
}

/// A cell position in JSON, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CellJson {
    pub row: usize,
    pub col: usize,
}

/// A repeated digit in JSON: `{"unit": "row", "index": 0, "digit": 5, "cells": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConflictJson {
    pub unit: &'static str,
    pub index: usize,
    pub digit: u8,
    pub cells: Vec<CellJson>,
}

impl From<&Conflict> for ConflictJson {
    fn from(conflict: &Conflict) -> Self {
        ConflictJson {
            unit: conflict.unit.kind.name(),
            index: conflict.unit.index,
            digit: conflict.digit.get(),
            cells: conflict
                .cells
                .iter()
                .map(|p| CellJson {
                    row: p.row(),
                    col: p.col(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_board_forms_deserialize() {
        let rows: BoardRequest = serde_json::from_str(r#"{"board": ["a", "b"]}"#).unwrap();
        assert_eq!(
            rows.board,
            BoardText::Rows(vec!["a".to_string(), "b".to_string()])
        );
        let line: BoardRequest = serde_json::from_str(r#"{"board": "abc"}"#).unwrap();
        assert_eq!(line.board, BoardText::Line("abc".to_string()));
    }

    #[test]
    fn wrong_board_type_says_what_a_board_is() {
        let err = serde_json::from_str::<BoardRequest>(r#"{"board": 5}"#).unwrap_err();
        assert!(err
            .to_string()
            .contains("expected an array of 9 row strings or one 81-character string"));
        let err = serde_json::from_str::<BoardRequest>(r#"{"board": [1]}"#).unwrap_err();
        assert!(err.to_string().contains("expected a string"), "{err}");
    }
}
