//! JSON Schemas of the wire types whose `Deserialize` is written by hand (so `schemars` cannot
//! derive theirs), and of the shapes a field takes before the handler checks it. They say what
//! `openapi.yaml` says of the same shapes (`AnyBoard`, `Cage`'s cells, `Regions`, `Seed`,
//! `RatingRange`); the MCP tools' input schemas are derived from the request types with them.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use super::wire::{BoardText, CellInput, RegionLabels};

impl JsonSchema for BoardText {
    fn schema_name() -> Cow<'static, str> {
        "AnyBoard".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A board: rows as strings (\".\" or \"0\" for an empty cell; \
                            digits 1-9 then letters A-P above 9), all cells in one string, \
                            or rows of numbers (0 or null for empty); 4x4 to 25x25.",
            "oneOf": [
                {"type": "array", "minItems": 4, "maxItems": 25, "items": {"type": "string"}},
                {"type": "string", "minLength": 16, "maxLength": 625},
                {
                    "type": "array", "minItems": 4, "maxItems": 25,
                    "items": {
                        "type": "array", "minItems": 4, "maxItems": 25,
                        "items": {"type": ["integer", "null"], "minimum": 0, "maximum": 25}
                    }
                }
            ]
        })
    }
}

impl JsonSchema for CellInput {
    fn schema_name() -> Cow<'static, str> {
        "CellInput".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let index = json_schema!({"type": "integer", "minimum": 0, "maximum": 24});
        json_schema!({
            "description": "A cell, 0-based: {\"row\": r, \"col\": c} or [row, col].",
            "oneOf": [
                {
                    "type": "object", "additionalProperties": false,
                    "required": ["row", "col"],
                    "properties": {"row": index, "col": index}
                },
                {"type": "array", "minItems": 2, "maxItems": 2, "items": index}
            ]
        })
    }
}

impl JsonSchema for RegionLabels {
    fn schema_name() -> Cow<'static, str> {
        "Regions".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Jigsaw regions in place of the boxes: a label per cell, as row \
                            strings (a character per cell), one string of all cells, or rows \
                            of labels (numbers or strings).",
            "oneOf": [
                {"type": "array", "items": {"type": "string"}},
                {"type": "string"},
                {
                    "type": "array",
                    "items": {"type": "array", "items": {"type": ["integer", "string", "null"]}}
                }
            ]
        })
    }
}

/// What `seed` takes: a number up to 2^53 - 1, or a string of digits up to 2^64 - 1. Only a
/// schema: the field is read by the wire type's own deserializer.
pub enum SeedInput {}

impl JsonSchema for SeedInput {
    fn schema_name() -> Cow<'static, str> {
        "Seed".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Same seed, same puzzle: a number up to 2^53 - 1, or a string of \
                            digits up to 2^64 - 1. Omitted: a random one.",
            "oneOf": [
                {"type": "integer", "minimum": 0, "maximum": 9007199254740991u64},
                {"type": "string", "pattern": "^[0-9]{1,20}$"}
            ]
        })
    }
}

/// What `rating` takes: one SE rating, or a range with either end left out. Only a schema:
/// the handler reads the raw value, to give each malformed shape its own message.
pub enum RatingInput {}

impl JsonSchema for RatingInput {
    fn schema_name() -> Cow<'static, str> {
        "RatingRange".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let rating = json_schema!({"type": "number", "minimum": 0.0, "maximum": 20.0});
        json_schema!({
            "description": "Instead of a difficulty: a Sudoku Explainer rating, or a range \
                            {\"min\", \"max\"} (either end may be left out).",
            "oneOf": [
                rating,
                {
                    "type": "object", "additionalProperties": false,
                    "properties": {"min": rating, "max": rating}
                }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::wire::{
        BoardRequest, CandidatesRequest, GenerateRequest, HintRequest, ValidateRequest,
    };
    use serde_json::{json, Value};

    fn schema<T: schemars::JsonSchema>() -> Value {
        schemars::schema_for!(T).to_value()
    }

    #[test]
    fn the_request_schemas_name_every_field_and_refuse_unknown_ones() {
        let board = schema::<BoardRequest>();
        assert_eq!(board["type"], "object");
        assert_eq!(board["additionalProperties"], false);
        assert_eq!(board["required"], json!(["board"]));
        for field in ["board", "cages", "regions", "diagonals", "windows"] {
            assert!(board["properties"].get(field).is_some(), "{field}: {board}");
        }
        let validate = schema::<ValidateRequest>();
        assert!(validate["properties"].get("move").is_some(), "{validate}");
        assert!(schema::<HintRequest>()["properties"]
            .get("spoiler")
            .is_some());
        assert!(schema::<CandidatesRequest>()["properties"]
            .get("techniques")
            .is_some());
        let generate = schema::<GenerateRequest>();
        assert_eq!(generate["required"], Value::Null, "{generate}");
        assert!(generate["$defs"]["Seed"]["oneOf"].is_array(), "{generate}");
    }
}
