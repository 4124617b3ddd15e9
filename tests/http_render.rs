//! Black-box tests of `POST /v1/render` over TCP: SVG that parses as XML, PNG that decodes at
//! the size asked, PDF with its pages and fonts, the format chosen by the body or by `Accept`, the solution and the marks
//! drawn, the same body answering the same bytes (and a 304 to its tag), every bad input a
//! problem, and the paint charged to the work budget.

mod common;

use common::pdf::{inspect, Inspected};
use common::{client, expect_problem, post, TestServer, SEED};
use reqwest::header;
use reqwest::Response;
use serde_json::{json, Value};
use sudoku_service::http::ServeArgs;

/// The body of a 200 of `content_type`, with its headers.
async fn image(response: Response, content_type: &str) -> (header::HeaderMap, Vec<u8>) {
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.bytes().await.unwrap().to_vec();
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(headers[header::CONTENT_TYPE], content_type);
    (headers, body)
}

/// The SVG parsed: the number of `text` elements in the group of class `class`.
fn texts_in(svg: &str, class: &str) -> usize {
    let document = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(document.root_element().tag_name().name(), "svg");
    document
        .descendants()
        .find(|n| n.attribute("class") == Some(class))
        .map_or(0, |g| {
            g.children()
                .filter(|c| c.tag_name().name() == "text")
                .count()
        })
}

/// The width and height of a PNG.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let image = resvg::tiny_skia::Pixmap::decode_png(bytes).expect("a PNG");
    (image.width(), image.height())
}

/// `body` posted to `/v1/render` with `Accept: accept`.
async fn accepting(server: &TestServer, accept: &str, body: Value) -> Response {
    client()
        .post(server.url("/v1/render"))
        .header(header::ACCEPT, accept)
        .json(&body)
        .send()
        .await
        .unwrap()
}

fn givens(line: &str) -> usize {
    line.bytes().filter(u8::is_ascii_digit).count()
}

#[tokio::test]
async fn an_svg_of_the_puzzle_parses_and_is_the_same_every_time() {
    let server = TestServer::start().await;
    let body = json!({"board": SEED, "title": "Daily <puzzle> & more"});
    let (headers, svg) = image(
        post(&server, "/v1/render", body.clone()).await,
        "image/svg+xml",
    )
    .await;
    let svg = String::from_utf8(svg).unwrap();
    assert_eq!(texts_in(&svg, "givens"), givens(SEED));
    assert!(svg.contains("Daily &lt;puzzle&gt; &amp; more"));
    let etag = headers[header::ETAG].to_str().unwrap().to_string();
    let (again, same) = image(
        post(&server, "/v1/render", body.clone()).await,
        "image/svg+xml",
    )
    .await;
    assert_eq!(same, svg.as_bytes());
    assert_eq!(again[header::ETAG], etag.as_str());
    // The client has it: a 304 with the tag, no body.
    let revalidated = client()
        .post(server.url("/v1/render"))
        .header(header::IF_NONE_MATCH, &etag)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
    assert_eq!(revalidated.headers()[header::ETAG], etag.as_str());
    // Another title is another picture.
    let other = post(&server, "/v1/render", json!({"board": SEED})).await;
    assert_ne!(other.headers()[header::ETAG], etag.as_str());
}

#[tokio::test]
async fn a_png_has_the_width_asked_and_accept_can_choose_it() {
    let server = TestServer::start().await;
    let response = post(
        &server,
        "/v1/render",
        json!({"board": SEED, "format": "png", "size": 300}),
    )
    .await;
    let (_, png) = image(response, "image/png").await;
    assert_eq!(png_size(&png), (300, 300));
    // No format: Accept picks PNG, at the default width, and the answer varies by Accept.
    let response = accepting(
        &server,
        "image/svg+xml;q=0.5, image/png",
        json!({"board": SEED}),
    )
    .await;
    let (headers, png) = image(response, "image/png").await;
    assert_eq!(png_size(&png), (600, 600));
    assert_eq!(headers[header::VARY], "accept");
    // A title makes the picture taller than wide.
    let response = post(
        &server,
        "/v1/render",
        json!({"board": SEED, "format": "png", "size": 200, "title": "T", "author": "A"}),
    )
    .await;
    let (width, height) = png_size(&image(response, "image/png").await.1);
    assert_eq!(width, 200);
    assert!(height > 200, "{height}");
}

#[tokio::test]
async fn a_pdf_is_one_page_with_its_fonts_and_accept_can_choose_it() {
    let server = TestServer::start().await;
    let body = json!({"board": SEED, "format": "pdf", "title": "Daily", "show": "solution"});
    let (headers, pdf) = image(
        post(&server, "/v1/render", body.clone()).await,
        "application/pdf",
    )
    .await;
    // Bold givens, regular solution digits: both faces, embedded.
    assert_eq!(inspect(&pdf), Inspected { pages: 1, fonts: 2 });
    assert!(String::from_utf8_lossy(&pdf).contains("/Title (Daily)"));
    let (again, same) = image(post(&server, "/v1/render", body).await, "application/pdf").await;
    assert_eq!((same, &again[header::ETAG]), (pdf, &headers[header::ETAG]));
    let accept = "application/pdf, image/*;q=0.5";
    let answer = accepting(&server, accept, json!({"board": SEED}));
    let (headers, pdf) = image(answer.await, "application/pdf").await;
    assert_eq!(inspect(&pdf).pages, 1);
    assert_eq!(headers[header::VARY], "accept");
    // PDF on a tie with nothing better: the first of SVG, PNG and PDF that is taken.
    let response = accepting(&server, "application/*", json!({"board": SEED})).await;
    image(response, "application/pdf").await;
}

#[tokio::test]
async fn the_solution_and_the_candidates_are_drawn() {
    let server = TestServer::start().await;
    let response = post(
        &server,
        "/v1/render",
        json!({"board": SEED, "show": "solution"}),
    )
    .await;
    let svg = String::from_utf8(image(response, "image/svg+xml").await.1).unwrap();
    assert_eq!(texts_in(&svg, "givens"), givens(SEED));
    assert_eq!(texts_in(&svg, "solution"), 81 - givens(SEED));
    let response = post(
        &server,
        "/v1/render",
        json!({"board": SEED, "show": "candidates"}),
    )
    .await;
    let svg = String::from_utf8(image(response, "image/svg+xml").await.1).unwrap();
    assert!(texts_in(&svg, "candidates") > 81 - givens(SEED));
    // No solution (the first row's last cell needs the 9 its column has): no picture of one.
    let unsolvable = "12345678.........9".to_string() + &".".repeat(63);
    let response = post(
        &server,
        "/v1/render",
        json!({"board": unsolvable, "show": "solution"}),
    )
    .await;
    expect_problem(response, 422, "no-solution").await;
}

#[tokio::test]
async fn every_size_and_rule_family_renders_and_f_puzzles_bodies_too() {
    let server = TestServer::start().await;
    for side in [4usize, 6, 9, 16, 25] {
        let response = post(
            &server,
            "/v1/render",
            json!({"board": ".".repeat(side * side), "format": "png", "size": 256}),
        )
        .await;
        let (width, height) = png_size(&image(response, "image/png").await.1);
        assert_eq!((width, height), (256, 256), "{side}x{side}");
    }
    let every = json!({
        "board": ".".repeat(81),
        "cages": [{"sum": 10, "cells": [{"row": 0, "col": 0}, {"row": 0, "col": 1}]}],
        "diagonals": true,
        "windows": true,
        "anti_king": true,
        "odd": [{"row": 8, "col": 8}],
        "even": [{"row": 8, "col": 7}],
        "thermometers": [{"cells": [{"row": 2, "col": 2}, {"row": 3, "col": 3}]}],
        "dots": [{"cells": [{"row": 5, "col": 5}, {"row": 5, "col": 6}], "kind": "black"}],
        "negative": ["white"],
    });
    let response = post(&server, "/v1/render", every).await;
    let svg = String::from_utf8(image(response, "image/svg+xml").await.1).unwrap();
    for class in [
        "cages",
        "diagonals",
        "windows",
        "parity",
        "thermometers",
        "dots",
    ] {
        assert!(svg.contains(&format!("class=\"{class}\"")), "{class}");
    }
    assert!(svg.contains("Anti-king · All white dots shown"));
    // An f-puzzles 4x4 with a given and a cage.
    let mut grid = vec![vec![json!({}); 4]; 4];
    grid[0][0] = json!({"value": 1, "given": true});
    let fpuzzles = json!({
        "size": 4,
        "grid": grid,
        "killercage": [{"cells": ["R4C3", "R4C4"], "value": "7"}],
    });
    let response = post(&server, "/v1/render", json!({"fpuzzles": fpuzzles})).await;
    let svg = String::from_utf8(image(response, "image/svg+xml").await.1).unwrap();
    assert_eq!(texts_in(&svg, "givens"), 1);
    assert!(svg.contains(">7</text>"), "the cage's sum");
}

#[tokio::test]
async fn bad_formats_sizes_and_texts_are_problems() {
    let server = TestServer::start().await;
    let cases = [
        (json!({"board": SEED, "format": "jpeg"}), "/format"),
        (json!({"board": SEED, "size": 600}), "/size"),
        (
            json!({"board": SEED, "format": "pdf", "size": 600}),
            "/size",
        ),
        (
            json!({"board": SEED, "format": "png", "size": 5000}),
            "/size",
        ),
        (json!({"board": SEED, "format": "png", "size": 0}), "/size"),
        (json!({"board": SEED, "format": "png", "size": -3}), "/size"),
        (json!({"board": SEED, "show": "everything"}), "/show"),
        (json!({"board": SEED, "title": "x".repeat(101)}), "/title"),
        (json!({"board": SEED, "author": 7}), "/author"),
        (json!({"board": SEED, "colour": "red"}), "/colour"),
    ];
    for (body, pointer) in cases {
        let response = post(&server, "/v1/render", body.clone()).await;
        let problem = expect_problem(response, 422, "invalid-request").await;
        assert_eq!(problem["pointer"], pointer, "{body}: {problem}");
    }
    let clash = "11".to_string() + &".".repeat(79);
    let response = post(&server, "/v1/render", json!({"board": clash})).await;
    expect_problem(response, 422, "conflicting-givens").await;
    let response = accepting(&server, "application/json", json!({"board": SEED})).await;
    let problem: Value = expect_problem(response, 406, "not-acceptable").await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("image/png") && detail.contains("application/pdf"));
}

#[tokio::test]
async fn painting_is_charged_to_the_work_budget_and_bounded_by_the_size_setting() {
    let server = TestServer::with(ServeArgs {
        work_budget: 15_000,
        render_max_size: 1000,
        ..ServeArgs::default()
    })
    .await;
    // The SVG and a small PNG fit in 15,000 units; a 1000-pixel paint does not.
    let response = post(&server, "/v1/render", json!({"board": SEED})).await;
    image(response, "image/svg+xml").await;
    let response = post(
        &server,
        "/v1/render",
        json!({"board": SEED, "format": "png", "size": 200}),
    )
    .await;
    image(response, "image/png").await;
    let response = post(
        &server,
        "/v1/render",
        json!({"board": SEED, "format": "png", "size": 1000}),
    )
    .await;
    // Out of work while painting: the detail blames the picture, not the puzzle.
    let problem = expect_problem(response, 422, "budget-exhausted").await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(detail.contains("while drawing"), "{detail}");
    let response = post(
        &server,
        "/v1/render",
        json!({"board": SEED, "format": "png", "size": 1001}),
    )
    .await;
    let problem = expect_problem(response, 422, "invalid-request").await;
    assert!(problem["detail"].as_str().unwrap().contains("1000"));
    let capabilities = server.get_json("/v1/capabilities").await;
    assert_eq!(capabilities["limits"]["render_max_size"], 1000);
}

#[tokio::test]
async fn get_generate_answers_a_cacheable_picture_for_an_img_src() {
    let server = TestServer::start().await;
    let get = |query: &str| {
        client()
            .get(server.url(&format!("/v1/generate?difficulty=easy&seed=5&{query}")))
            .send()
    };
    let (headers, svg) = image(get("format=svg").await.unwrap(), "image/svg+xml").await;
    let svg = String::from_utf8(svg).unwrap();
    // The puzzle of the JSON answer, drawn: its givens.
    let json: Value = get("format=line").await.unwrap().json().await.unwrap();
    let line = json["board"].as_str().unwrap();
    assert_eq!(texts_in(&svg, "givens"), givens(line));
    assert_eq!(
        headers[header::CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    let etag = headers[header::ETAG].to_str().unwrap().to_string();
    let (png_headers, png) = image(get("format=png&size=200").await.unwrap(), "image/png").await;
    assert_eq!(png_size(&png), (200, 200));
    assert_ne!(
        png_headers[header::ETAG],
        etag.as_str(),
        "each picture its tag"
    );
    let (_, pdf) = image(get("format=PDF").await.unwrap(), "application/pdf").await;
    assert_eq!(inspect(&pdf), Inspected { pages: 1, fonts: 1 });
    // A cache revalidating gets its 304 without a generation.
    let revalidated = client()
        .get(server.url("/v1/generate?difficulty=easy&seed=5&format=svg"))
        .header(header::IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
    for (query, pointer) in [
        ("format=svg&size=300", "/size"),
        ("size=300", "/size"),
        ("format=png&size=9999", "/size"),
        ("format=gif", "/format"),
    ] {
        let problem = expect_problem(get(query).await.unwrap(), 422, "invalid-request").await;
        assert_eq!(problem["pointer"], pointer, "{query}: {problem}");
    }
    // A picture is a GET's: the POST answers JSON.
    let response = post(
        &server,
        "/v1/generate",
        json!({"difficulty": "easy", "format": "png"}),
    );
    let problem = expect_problem(response.await, 422, "invalid-request").await;
    assert_eq!(problem["pointer"], "/format");
}

/// The largest picture a default server paints: a 9x9 of pencil marks at the widest size
/// (2048 pixels, charged before the paint by its SVG and its pixels) fits the default budget;
/// a 25x25 of pencil marks is refused by its charge alone, before any painting.
#[tokio::test]
async fn the_widest_png_fits_the_default_budget_and_pencil_marks_of_25x25_do_not() {
    let server = TestServer::start().await;
    let response = post(
        &server,
        "/v1/render",
        json!({"board": SEED, "format": "png", "size": 2048, "show": "candidates"}),
    )
    .await;
    let (_, bytes) = image(response, "image/png").await;
    let picture = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    assert_eq!(picture.width(), 2048);
    let empty = ".".repeat(625);
    let response = post(
        &server,
        "/v1/render",
        json!({"board": empty, "format": "png", "size": 600, "show": "candidates"}),
    )
    .await;
    expect_problem(response, 422, "budget-exhausted").await;
    server.shutdown().await;
}
