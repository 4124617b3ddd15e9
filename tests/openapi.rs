//! The committed OpenAPI document checked against itself and the crate: every example fits
//! the schema beside it, every operation declares the statuses the edge can answer it with
//! (and their headers), and `info.version` is the crate's.

use jsonschema::{Registry, Resource};
use serde_json::{json, Value};

const SPEC_URI: &str = "urn:sudoku-service:openapi";

fn spec() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml"))
        .expect("openapi.yaml");
    serde_yaml_ng::from_str(&text).expect("openapi.yaml is YAML")
}

/// A JSON pointer token (RFC 6901).
fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// `value` at `pointer`, following one `$ref` to a place in the same document; with the
/// pointer it was found at.
fn resolve<'a>(spec: &'a Value, value: &'a Value, pointer: String) -> (&'a Value, String) {
    match value.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let target = reference.strip_prefix('#').expect("a local $ref");
            let found = spec
                .pointer(target)
                .unwrap_or_else(|| panic!("{reference} resolves"));
            (found, target.to_string())
        }
        None => (value, pointer),
    }
}

/// Every operation as (path, method, operation, its pointer).
fn operations(spec: &Value) -> Vec<(String, String, &Value, String)> {
    let mut found = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let pointer = format!("/paths/{}/{method}", token(path));
            found.push((path.clone(), method.clone(), operation, pointer));
        }
    }
    found
}

/// Every example of a media type object at `pointer`: (name, value, schema pointer).
fn examples_of(spec: &Value, media: &Value, pointer: &str) -> Vec<(String, Value, String)> {
    let schema = format!("{pointer}/schema");
    let mut found = Vec::new();
    if let Some(example) = media.get("example") {
        found.push((
            format!("{pointer}/example"),
            example.clone(),
            schema.clone(),
        ));
    }
    for (name, example) in media
        .get("examples")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let (example, at) = resolve(spec, example, format!("{pointer}/examples/{name}"));
        found.push((at, example["value"].clone(), schema.clone()));
    }
    found
}

/// Every example in the document with the pointer of its schema, and how many operations
/// have a 200 example.
fn all_examples(spec: &Value) -> Vec<(String, Value, String)> {
    let mut found = Vec::new();
    let media_of = |holder: &Value, pointer: String, found: &mut Vec<_>| {
        let (holder, pointer) = resolve(spec, holder, pointer);
        for (kind, media) in holder
            .get("content")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let at = format!("{pointer}/content/{}", token(kind));
            found.extend(examples_of(spec, media, &at));
        }
    };
    for (_, _, operation, pointer) in operations(spec) {
        if let Some(body) = operation.get("requestBody") {
            media_of(body, format!("{pointer}/requestBody"), &mut found);
        }
        for (status, response) in operation["responses"].as_object().unwrap() {
            media_of(
                response,
                format!("{pointer}/responses/{status}"),
                &mut found,
            );
        }
    }
    for (name, response) in spec["components"]["responses"].as_object().unwrap() {
        media_of(
            response,
            format!("/components/responses/{name}"),
            &mut found,
        );
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found.dedup_by(|a, b| a.0 == b.0);
    found
}

#[test]
fn every_example_fits_its_schema() {
    let spec = spec();
    let registry = Registry::new()
        .add(SPEC_URI, Resource::from_contents(spec.clone()))
        .unwrap()
        .prepare()
        .unwrap();
    let examples = all_examples(&spec);
    assert!(
        examples.len() > 40,
        "only {} examples found",
        examples.len()
    );
    let mut failures = Vec::new();
    for (at, example, schema) in &examples {
        let wrapper = json!({ "$ref": format!("{SPEC_URI}#{schema}") });
        let validator = jsonschema::options()
            .with_registry(&registry)
            .build(&wrapper)
            .unwrap_or_else(|e| panic!("{schema}: {e}"));
        for error in validator.iter_errors(example) {
            failures.push(format!("{at}: {error} (at {})", error.instance_path()));
        }
    }
    assert!(
        failures.is_empty(),
        "examples that break their schema:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_operation_has_a_200_example() {
    let spec = spec();
    let examples = all_examples(&spec);
    for (path, method, operation, pointer) in operations(&spec) {
        let (ok, at) = resolve(
            &spec,
            &operation["responses"]["200"],
            format!("{pointer}/responses/200"),
        );
        assert!(ok.is_object(), "{method} {path} has no 200");
        assert!(
            examples
                .iter()
                .any(|(e, _, _)| e.starts_with(&format!("{at}/"))),
            "{method} {path}: no example of its 200 answer"
        );
    }
}

/// The statuses the edge can answer an operation with: the guard's (400 malformed, 413 from
/// `Content-Length`, 414, 431, and 503 for a connection beyond the cap; 429 for all but the
/// probes), a body's (400 invalid JSON, 415, 422), the page's 404 when turned off.
fn expected_statuses(path: &str, method: &str, operation: &Value) -> Vec<&'static str> {
    let probe = ["/healthz", "/readyz", "/metrics"].contains(&path);
    let mut statuses = vec!["200", "400", "413", "414", "431", "503"];
    if !probe {
        statuses.push("429");
    }
    if operation.get("requestBody").is_some() {
        statuses.extend(["415", "422"]);
    }
    if method == "get" && (path.ends_with("/generate") || path.ends_with("/daily")) {
        statuses.push("422");
    }
    if ["/", "/playground.js", "/playground.css", "/docs"].contains(&path) {
        statuses.push("404");
    }
    statuses
}

#[test]
fn every_operation_declares_each_status_it_can_answer_with_its_headers() {
    let spec = spec();
    for (path, method, operation, pointer) in operations(&spec) {
        let responses = operation["responses"].as_object().unwrap();
        for status in expected_statuses(&path, &method, operation) {
            let response = responses
                .get(status)
                .unwrap_or_else(|| panic!("{method} {path} does not declare {status}"));
            let (response, _) = resolve(&spec, response, pointer.clone());
            let headers = &response["headers"];
            assert!(
                headers.get("RateLimit-Policy").is_some(),
                "{method} {path} {status}: no RateLimit-Policy"
            );
            if !["/healthz", "/readyz", "/metrics"].contains(&path.as_str()) || status != "200" {
                assert!(
                    headers.get("RateLimit").is_some(),
                    "{method} {path} {status}: no RateLimit"
                );
            }
            if ["429", "503"].contains(&status) {
                assert!(
                    headers.get("Retry-After").is_some(),
                    "{method} {path} {status}: no Retry-After"
                );
            }
            if status != "200" && status != "304" {
                let problem = &response["content"]["application/problem+json"]["schema"]["$ref"];
                assert_eq!(
                    problem, "#/components/schemas/Problem",
                    "{method} {path} {status}"
                );
            }
        }
    }
}

#[test]
fn info_version_is_the_crate_version() {
    assert_eq!(spec()["info"]["version"], env!("CARGO_PKG_VERSION"));
    let changelog =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/CHANGELOG.md")).unwrap();
    assert!(
        changelog.contains(&format!("\n## {}\n", env!("CARGO_PKG_VERSION"))),
        "CHANGELOG.md has no section for {}",
        env!("CARGO_PKG_VERSION")
    );
}

#[test]
fn no_optional_field_has_a_default() {
    // openapi-typescript makes a field with a `default` required in the generated type, so
    // a request body that leaves it out (as the README's do) would not type-check.
    fn walk(value: &Value, at: &str, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if map.contains_key("default") && map.contains_key("type") {
                    found.push(at.to_string());
                }
                for (key, inner) in map {
                    walk(inner, &format!("{at}/{}", token(key)), found);
                }
            }
            Value::Array(items) => {
                for (i, inner) in items.iter().enumerate() {
                    walk(inner, &format!("{at}/{i}"), found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(&spec(), "", &mut found);
    assert!(found.is_empty(), "schemas with a default: {found:?}");
}

/// `openapi.json` is the YAML document as JSON (served at `/openapi.json` without a YAML
/// parser in the binary). `SUDOKU_WRITE_OPENAPI_JSON=1 cargo test --test openapi` rewrites it.
#[test]
fn openapi_json_is_the_yaml_document() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");
    let expected = serde_json::to_string_pretty(&spec()).unwrap() + "\n";
    if std::env::var_os("SUDOKU_WRITE_OPENAPI_JSON").is_some() {
        std::fs::write(path, &expected).unwrap();
    }
    let committed = std::fs::read_to_string(path).unwrap();
    assert!(
        committed == expected,
        "openapi.json differs from openapi.yaml: run SUDOKU_WRITE_OPENAPI_JSON=1 cargo test \
         --test openapi"
    );
}

/// Each unversioned path is an alias of its `/v1` twin: the same operations, parameters,
/// body and answers, marked deprecated, with its own operation id.
#[test]
fn every_unversioned_path_is_a_deprecated_alias_of_v1() {
    let spec = spec();
    let paths = spec["paths"].as_object().unwrap();
    let mut aliases = 0;
    for (path, item) in paths {
        let Some(unversioned) = path.strip_prefix("/v1") else {
            continue;
        };
        // Paths added after the unversioned ones were deprecated exist only under /v1.
        if [
            "/capabilities",
            "/canonical",
            "/canonical/batch",
            "/generate/batch",
            "/daily",
            "/fpuzzles",
            "/render",
            "/booklet",
        ]
        .contains(&unversioned)
        {
            assert!(
                !paths.contains_key(unversioned),
                "{unversioned} is new in v1"
            );
            continue;
        }
        let alias = paths
            .get(unversioned)
            .unwrap_or_else(|| panic!("{unversioned}: no alias of {path}"));
        for (method, operation) in item.as_object().unwrap() {
            let twin = &alias[method];
            assert_eq!(twin["deprecated"], true, "{method} {unversioned}");
            assert_eq!(twin["tags"], json!(["unversioned aliases"]));
            assert_eq!(
                twin["operationId"],
                format!("{}Unversioned", operation["operationId"].as_str().unwrap())
            );
            for part in ["parameters", "requestBody", "responses"] {
                assert_eq!(
                    twin.get(part),
                    operation.get(part),
                    "{method} {unversioned} {part}"
                );
            }
            assert!(operation.get("deprecated").is_none(), "{method} {path}");
            aliases += 1;
        }
    }
    assert_eq!(aliases, 8, "every API operation has its alias");
    // Every operation is in a group, so generated clients get one class per group.
    for (_, method, operation, path) in operations(&spec) {
        assert!(
            operation["tags"].as_array().is_some_and(|t| t.len() == 1),
            "{method} {path}"
        );
    }
}

/// The technique names the document lists are the service's own: `Technique` every name a
/// grade or hint can give, `TargetTechnique` exactly those a batch can target (so a client
/// generated from the document never sends a name the service refuses).
#[test]
fn the_technique_enums_are_the_names_the_service_gives_and_takes() {
    let spec = spec();
    let listed = |schema: &str| -> Vec<String> {
        spec["components"]["schemas"][schema]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("{schema} has an enum"))
            .iter()
            .map(|name| name.as_str().unwrap().to_string())
            .collect()
    };
    let targets: Vec<String> = sudoku_service::bank::techniques()
        .into_iter()
        .map(|(name, _)| name.to_string())
        .collect();
    assert_eq!(listed("TargetTechnique"), targets);
    let mut every = targets;
    every.push("constraint".to_string());
    assert_eq!(listed("Technique"), every);
}
