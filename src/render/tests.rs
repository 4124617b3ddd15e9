//! The renderer's own checks: each family draws its element, every size renders as XML, the
//! output is stable, user text is escaped and bounded, and the PNG has the size asked for.

use super::*;
use crate::engine::{
    Arrow, Budget, Cage, ClonePair, Direction, Dot, DotKind, Engine, LittleKiller, Negative,
    Outside, Quadruple, RuleSpec, Rules, SandwichClue, Shape, Side, SkyscraperClue, Thermometer,
    Whisper, XSumClue,
};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

fn puzzle(line: &str, spec: RuleSpec) -> Puzzle {
    let grid = Grid::from_line(line).unwrap();
    let rules = Rules::new(grid.shape(), spec).unwrap();
    Puzzle::new(grid, rules).unwrap()
}

fn picture(puzzle: &Puzzle) -> Picture<'_> {
    Picture {
        puzzle,
        show: Show::Puzzle,
        title: None,
        author: None,
    }
}

/// The SVG parsed as XML: a document whose root is an `svg` element.
fn parsed(svg: &str) -> roxmltree::Document<'_> {
    let document = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    assert_eq!(document.root_element().tag_name().name(), "svg");
    document
}

/// The elements of the group of class `class`, or `None` when there is no such group.
fn group_children(document: &roxmltree::Document, class: &str) -> Option<usize> {
    document
        .descendants()
        .find(|n| n.attribute("class") == Some(class))
        .map(|g| g.children().filter(|c| c.is_element()).count())
}

/// A white dot, a black dot of ratio 3, an X and a V, down the first column.
fn one_of_each_dot() -> Vec<Dot> {
    [
        ([(0, 0), (0, 1)], DotKind::White, None),
        ([(1, 0), (1, 1)], DotKind::Black, Some(3)),
        ([(2, 0), (3, 0)], DotKind::X, None),
        ([(4, 0), (4, 1)], DotKind::V, None),
    ]
    .into_iter()
    .map(|(cells, kind, value)| Dot { cells, kind, value })
    .collect()
}

fn empty(side: usize) -> String {
    ".".repeat(side * side)
}

/// Every family of the registry, each with the element that draws it (a group class, or the
/// caption's words).
fn families() -> Vec<(&'static str, RuleSpec, &'static str)> {
    vec![
        ("cells", RuleSpec::default(), "class=\"cells\""),
        ("boxes", RuleSpec::default(), "class=\"regions\""),
        (
            "regions",
            RuleSpec {
                // The boxes, with (0,3) traded into the first region and (2,2) out of it.
                regions: Some(
                    [
                        "111122333",
                        "111222333",
                        "112222333",
                        "444555666",
                        "444555666",
                        "444555666",
                        "777888999",
                        "777888999",
                        "777888999",
                    ]
                    .iter()
                    .map(|row| row.chars().map(|c| Some(c.to_string())).collect())
                    .collect(),
                ),
                ..RuleSpec::default()
            },
            // The border between (0,3) and (0,4), which the boxes do not have.
            "M270 30V90",
        ),
        (
            "cages",
            RuleSpec {
                cages: vec![Cage {
                    sum: Some(3),
                    cells: vec![(0, 0), (0, 1)],
                }],
                ..RuleSpec::default()
            },
            "class=\"cages\"",
        ),
        (
            "diagonals",
            RuleSpec {
                diagonals: true,
                ..RuleSpec::default()
            },
            "class=\"diagonals\"",
        ),
        (
            "windows",
            RuleSpec {
                windows: true,
                ..RuleSpec::default()
            },
            "class=\"windows\"",
        ),
        (
            "anti-king",
            RuleSpec {
                anti_king: true,
                ..RuleSpec::default()
            },
            caption::ANTI_KING,
        ),
        (
            "anti-knight",
            RuleSpec {
                anti_knight: true,
                ..RuleSpec::default()
            },
            caption::ANTI_KNIGHT,
        ),
        (
            "non-consecutive",
            RuleSpec {
                non_consecutive: true,
                ..RuleSpec::default()
            },
            caption::NON_CONSECUTIVE,
        ),
        (
            "parity",
            RuleSpec {
                odd: vec![(0, 0)],
                even: vec![(8, 8)],
                ..RuleSpec::default()
            },
            "class=\"parity\"",
        ),
        (
            "thermometers",
            RuleSpec {
                thermometers: vec![Thermometer {
                    cells: vec![(0, 0), (1, 1), (2, 1)],
                    slow: false,
                }],
                ..RuleSpec::default()
            },
            "<circle class=\"bulb\"",
        ),
        (
            "slow thermometers",
            RuleSpec {
                thermometers: vec![Thermometer {
                    cells: vec![(0, 0), (0, 1)],
                    slow: true,
                }],
                ..RuleSpec::default()
            },
            "<rect class=\"bulb slow\"",
        ),
        (
            "dots",
            RuleSpec {
                dots: one_of_each_dot(),
                ..RuleSpec::default()
            },
            "class=\"dots\"",
        ),
        (
            "negative",
            RuleSpec {
                negative: vec![Negative::White],
                ..RuleSpec::default()
            },
            "All white dots shown",
        ),
        (
            "extra regions",
            RuleSpec {
                extra_regions: vec![vec![(0, 0), (4, 4)]],
                ..RuleSpec::default()
            },
            "class=\"extra-regions\"",
        ),
        (
            "disjoint groups",
            RuleSpec {
                disjoint_groups: true,
                ..RuleSpec::default()
            },
            "Disjoint groups",
        ),
        (
            "whispers",
            RuleSpec {
                whispers: vec![Whisper {
                    cells: vec![(0, 0), (1, 1)],
                    difference: None,
                }],
                ..RuleSpec::default()
            },
            "class=\"whispers\"",
        ),
        (
            "palindromes",
            RuleSpec {
                palindromes: vec![vec![(0, 0), (0, 1), (0, 2)]],
                ..RuleSpec::default()
            },
            "class=\"palindromes\"",
        ),
        (
            "renban",
            RuleSpec {
                renban: vec![vec![(0, 0), (0, 1)]],
                ..RuleSpec::default()
            },
            "class=\"renban\"",
        ),
        (
            "arrows",
            RuleSpec {
                arrows: vec![
                    Arrow {
                        circle: vec![(0, 0)],
                        lines: vec![vec![(1, 1), (2, 1)]],
                    },
                    Arrow {
                        circle: vec![(4, 4), (4, 5)],
                        lines: vec![vec![(5, 6), (6, 6)], vec![(3, 3)]],
                    },
                ],
                ..RuleSpec::default()
            },
            "class=\"arrows\"",
        ),
        (
            "little killers",
            RuleSpec {
                little_killers: vec![LittleKiller {
                    start: (0, 1),
                    direction: Direction::DownRight,
                    sum: 40,
                }],
                ..RuleSpec::default()
            },
            "class=\"little-killers\"",
        ),
        (
            "sandwiches",
            RuleSpec {
                sandwiches: vec![SandwichClue {
                    at: Outside {
                        side: Side::Left,
                        index: 2,
                    },
                    sum: 15,
                }],
                ..RuleSpec::default()
            },
            "class=\"sandwiches\"",
        ),
        (
            "x-sums",
            RuleSpec {
                x_sums: vec![XSumClue {
                    at: Outside {
                        side: Side::Right,
                        index: 4,
                    },
                    sum: 21,
                }],
                ..RuleSpec::default()
            },
            "class=\"x-sums\"",
        ),
        (
            "skyscrapers",
            RuleSpec {
                skyscrapers: vec![SkyscraperClue {
                    at: Outside {
                        side: Side::Bottom,
                        index: 6,
                    },
                    count: 3,
                }],
                ..RuleSpec::default()
            },
            "class=\"skyscrapers\"",
        ),
        (
            "between lines",
            RuleSpec {
                between_lines: vec![vec![(2, 2), (2, 3), (3, 4)]],
                ..RuleSpec::default()
            },
            "class=\"between-lines\"",
        ),
        (
            "region-sum lines",
            RuleSpec {
                region_sum_lines: vec![vec![(1, 1), (1, 2), (1, 3), (1, 4)]],
                ..RuleSpec::default()
            },
            "class=\"region-sum-lines\"",
        ),
        (
            "quadruples",
            RuleSpec {
                quadruples: vec![Quadruple {
                    cells: vec![(6, 6), (6, 7), (7, 6), (7, 7)],
                    digits: vec![1, 2, 3],
                }],
                ..RuleSpec::default()
            },
            "class=\"quadruples\"",
        ),
        (
            "minimum and maximum",
            RuleSpec {
                minimum: vec![(7, 1)],
                maximum: vec![(1, 7)],
                ..RuleSpec::default()
            },
            "class=\"minimum\"",
        ),
        (
            "clones",
            RuleSpec {
                clones: vec![ClonePair {
                    cells: vec![(0, 6), (0, 7)],
                    copy: vec![(8, 0), (8, 1)],
                }],
                ..RuleSpec::default()
            },
            "class=\"clones\"",
        ),
    ]
}

#[test]
fn every_family_draws_its_element() {
    let nine = empty(9);
    let cases = families();
    let plain = svg(&picture(&puzzle(&nine, RuleSpec::default())));
    for (family, spec, element) in cases {
        let puzzle = puzzle(&nine, spec.clone());
        let drawn = svg(&picture(&puzzle));
        parsed(&drawn);
        assert!(drawn.contains(element), "{family}: no {element}\n{drawn}");
        if spec != RuleSpec::default() {
            assert!(
                !plain.contains(element),
                "{family}: {element} without the rule"
            );
        }
    }
}

#[test]
fn each_dot_kind_has_its_mark_and_an_unusual_value_is_written_in() {
    let spec = RuleSpec {
        dots: one_of_each_dot(),
        ..RuleSpec::default()
    };
    let puzzle = puzzle(&empty(9), spec);
    let drawn = svg(&picture(&puzzle));
    let document = parsed(&drawn);
    assert_eq!(group_children(&document, "dots"), Some(5), "{drawn}");
    // The white dot sits on the edge between (0,0) and (0,1): x = 30 + 60, y = 30 + 30.
    assert!(drawn.contains("<circle class=\"white\" cx=\"90\" cy=\"60\" r=\"7.2\""));
    assert!(drawn.contains("class=\"black\""));
    assert!(drawn.contains(">3</text>"), "the ratio 3 is written in");
    assert!(drawn.contains(">X</text>") && drawn.contains(">V</text>"));
}

/// A cage of three cells in the top-left corner, summing to 17.
fn corner_cage() -> RuleSpec {
    RuleSpec {
        cages: vec![Cage {
            sum: Some(17),
            cells: vec![(0, 0), (0, 1), (1, 0)],
        }],
        ..RuleSpec::default()
    }
}

#[test]
fn a_cage_draws_its_outline_and_its_sum() {
    let puzzle = puzzle(&empty(9), corner_cage());
    let drawn = svg(&picture(&puzzle));
    let document = parsed(&drawn);
    // One outline, one patch and one sum.
    assert_eq!(group_children(&document, "cages"), Some(3));
    assert!(drawn.contains(">17</text>"));
    assert!(drawn.contains("stroke-dasharray"));
}

/// A classic puzzle of `shape` whose first row holds 1..side: givens that clash with nothing.
fn first_row(shape: Shape) -> Puzzle {
    let side = shape.side();
    let rows: Vec<Vec<Option<i64>>> = (0..side)
        .map(|row| (1..=side as i64).map(|d| (row == 0).then_some(d)).collect())
        .collect();
    let grid = Grid::from_numbers(&rows).unwrap();
    Puzzle::new(grid, Rules::classic(shape)).unwrap()
}

#[test]
fn every_size_renders_its_cells_and_givens() {
    for shape in Shape::ALL {
        let side = shape.side();
        let puzzle = first_row(shape);
        let drawn = svg(&picture(&puzzle));
        let document = parsed(&drawn);
        assert_eq!(
            group_children(&document, "givens"),
            Some(side),
            "{side}x{side}"
        );
        let width = 2.0 * MARGIN + side as f64 * CELL;
        let root = document.root_element();
        assert_eq!(root.attribute("width"), Some(N(width).to_string().as_str()));
        assert!(
            drawn.contains(&format!(">{side}</text>")),
            "{side}x{side}: the largest digit is written as a number"
        );
    }
}

#[test]
fn the_same_picture_is_the_same_bytes() {
    let spec = RuleSpec {
        diagonals: true,
        cages: vec![Cage {
            sum: Some(10),
            cells: vec![(8, 8), (8, 7)],
        }],
        dots: vec![Dot {
            cells: [(4, 4), (4, 5)],
            kind: DotKind::White,
            value: None,
        }],
        ..RuleSpec::default()
    };
    let first = svg(&picture(&puzzle(PUZZLE, spec.clone())));
    let again = svg(&picture(&puzzle(PUZZLE, spec)));
    assert_eq!(first, again);
    let other = svg(&picture(&puzzle(PUZZLE, RuleSpec::default())));
    assert_ne!(first, other);
}

#[test]
fn the_title_and_author_are_escaped_and_bounded() {
    let puzzle = puzzle(PUZZLE, RuleSpec::default());
    let title = format!("</text><script>alert(1)</script> & \"{}\"", "x".repeat(300));
    let drawn = svg(&Picture {
        title: Some(&title),
        author: Some("O'Brien\u{0}"),
        ..picture(&puzzle)
    });
    let document = parsed(&drawn);
    assert!(!drawn.contains("<script>"));
    let text_of = |class: &str| {
        document
            .descendants()
            .find(|n| n.attribute("class") == Some(class))
            .and_then(|n| n.text())
            .unwrap()
            .to_string()
    };
    let shown = text_of("title");
    assert!(shown.starts_with("</text><script>alert(1)</script> & \""));
    assert_eq!(shown.chars().count(), MAX_TEXT);
    assert_eq!(text_of("author"), "O'Brien");
    // A long title is squeezed into the picture's width.
    assert!(drawn.contains("lengthAdjust=\"spacingAndGlyphs\""));
    // The header pushes the grid down.
    let plain = svg(&picture(&puzzle));
    assert!(plain.contains("<rect x=\"30\" y=\"30\""));
    assert!(drawn.contains(&format!(
        "<rect x=\"30\" y=\"{}\"",
        N(MARGIN + TITLE_LINE + AUTHOR_LINE)
    )));
}

#[test]
fn a_solution_is_drawn_lighter_and_candidates_small() {
    let puzzle = puzzle(PUZZLE, RuleSpec::default());
    let counted = Engine::new()
        .count(&puzzle, 1, &Budget::unlimited())
        .unwrap();
    let solution = counted.first.unwrap();
    let drawn = svg(&Picture {
        show: Show::Solution(solution.grid()),
        ..picture(&puzzle)
    });
    let document = parsed(&drawn);
    let givens = puzzle.grid().given_count();
    assert_eq!(group_children(&document, "givens"), Some(givens));
    assert_eq!(group_children(&document, "solution"), Some(81 - givens));
    let marks = Marks::basic(puzzle.grid(), puzzle.rules(), &Budget::unlimited()).unwrap();
    let drawn = svg(&Picture {
        show: Show::Candidates(&marks),
        ..picture(&puzzle)
    });
    let document = parsed(&drawn);
    let count: usize = puzzle
        .shape()
        .all_cells()
        .map(|cell| marks.digits(cell).len())
        .sum();
    assert_eq!(group_children(&document, "candidates"), Some(count));
    assert!(count > 81 - givens, "several marks in some cell");
}

#[test]
fn the_png_has_the_width_asked_and_the_picture_s_proportions() {
    let puzzle = puzzle(PUZZLE, RuleSpec::default());
    let square = svg(&picture(&puzzle));
    let bytes = png(&square, 300).unwrap();
    let image = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    assert_eq!((image.width(), image.height()), (300, 300));
    // Ink where a given is: the 5 of the first cell darkens its centre's neighbourhood.
    let dark = image
        .pixels()
        .iter()
        .filter(|p| p.red() < 100 && p.alpha() == 255)
        .count();
    assert!(dark > 1_000, "lines and digits painted: {dark} dark pixels");
    let titled = svg(&Picture {
        title: Some("Daily"),
        ..picture(&puzzle)
    });
    let image = resvg::tiny_skia::Pixmap::decode_png(&png(&titled, 600).unwrap()).unwrap();
    let expected = png::height_for(600, 600.0, 600.0 + TITLE_LINE as f32);
    assert_eq!((image.width(), image.height()), (600, expected));
}

/// The number of pages a PDF's page tree counts, and whether it embeds a font program.
fn pdf_pages(bytes: &[u8]) -> (usize, bool) {
    let text = String::from_utf8_lossy(bytes);
    assert!(
        text.starts_with("%PDF-1."),
        "{}",
        &text[..20.min(text.len())]
    );
    assert!(text.trim_end().ends_with("%%EOF"));
    let count = text
        .split("/Count ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .expect("a page tree with a count");
    (count, text.contains("/FontFile3"))
}

/// Two givens away from every family's cells in [`families`].
fn two_givens() -> String {
    let mut line = empty(9).into_bytes();
    line[6 * 9 + 4] = b'5';
    line[7 * 9 + 6] = b'7';
    String::from_utf8(line).unwrap()
}

#[test]
fn every_family_converts_to_a_one_page_pdf_with_its_font() {
    for (family, spec, _) in families() {
        let puzzle = puzzle(&two_givens(), spec);
        let drawn = svg(&Picture {
            title: Some("Title"),
            ..picture(&puzzle)
        });
        let bytes = pdf(&drawn, Some("Title")).unwrap_or_else(|e| panic!("{family}: {e}"));
        assert_eq!(pdf_pages(&bytes), (1, true), "{family}");
    }
}

#[test]
fn a_pdf_page_is_the_picture_s_size_and_the_same_bytes_every_time() {
    let puzzle = puzzle(PUZZLE, RuleSpec::default());
    let drawn = svg(&picture(&puzzle));
    let bytes = pdf(&drawn, None).unwrap();
    assert_eq!(bytes, pdf(&drawn, None).unwrap());
    let text = String::from_utf8_lossy(&bytes);
    // 600 units at three quarters of a point each.
    assert!(text.contains("/MediaBox [0 0 450 450]"), "{text:.400}");
    // The digits are text in the font, with a map back to characters.
    assert!(text.contains("/Identity-H") && text.contains("/ToUnicode"));
    let drawing = pdf::Drawing::new(&drawn).unwrap();
    assert_eq!((drawing.width(), drawing.height()), (600.0, 600.0));
    assert!(!drawing.is_empty());
}

#[test]
fn a_pdf_refuses_what_it_would_not_draw_faithfully() {
    let with = |body: &str| {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">\
             <defs><linearGradient id=\"g\"><stop offset=\"0\" stop-color=\"#000\"/>\
             <stop offset=\"1\" stop-color=\"#fff\"/></linearGradient></defs>{body}</svg>"
        )
    };
    for (body, what) in [
        (
            "<rect width=\"5\" height=\"5\" fill=\"url(#g)\"/>",
            "gradients",
        ),
        (
            "<rect width=\"5\" height=\"5\" opacity=\"0.5\"/>",
            "opacity",
        ),
        (
            "<rect width=\"5\" height=\"5\" fill-opacity=\"0.5\"/>",
            "opacity",
        ),
    ] {
        match pdf::Drawing::new(&with(body)) {
            Err(PdfError::Unsupported(found)) => assert_eq!(found, what, "{body}"),
            other => panic!("{body}: {other:?}"),
        }
    }
    assert!(matches!(pdf("<svg", None), Err(PdfError::Svg(_))));
}

/// `count` copies of the classic puzzle as booklet entries, with its solution.
fn entries(count: usize) -> Vec<booklet::Entry> {
    let puzzle = puzzle(PUZZLE, RuleSpec::default());
    let counted = Engine::new()
        .count(&puzzle, 1, &Budget::unlimited())
        .unwrap();
    let solution = counted.first.unwrap().grid().clone();
    (0..count)
        .map(|n| booklet::Entry {
            puzzle: puzzle.clone(),
            solution: solution.clone(),
            label: format!("{}. Easy", n + 1),
            detail: format!("id {}", puzzle.id()),
        })
        .collect()
}

#[test]
fn a_booklet_lays_out_its_puzzles_then_six_answers_a_page() {
    use booklet::{Layout, LayoutError, Paper, Section};
    let layout = Layout::new(Paper::A4, 4, 7, true, "").unwrap();
    assert_eq!(layout.pages(), 2 + 2);
    assert_eq!(layout.title(), "Sudoku");
    assert_eq!(layout.section(0), Section::Puzzles(0..4));
    assert_eq!(layout.section(1), Section::Puzzles(4..7));
    assert_eq!(layout.section(2), Section::Answers(0..6));
    assert_eq!(layout.section(3), Section::Answers(6..7));
    assert_eq!(Layout::pages_for(6, 7, false), 2);
    assert_eq!(Layout::pages_for(1, 24, true), 24 + 4);
    assert_eq!(
        Layout::new(Paper::A4, 3, 7, true, "x").unwrap_err(),
        LayoutError::PerPage(3)
    );
    assert_eq!(
        Layout::new(Paper::Letter, 4, 0, true, "x").unwrap_err(),
        LayoutError::Empty
    );
    let entries = entries(7);
    // The header, then one picture per puzzle of the page.
    let svgs = layout.pictures(1, &entries);
    assert_eq!(svgs.len(), 1 + 3);
    assert!(svgs[0].contains("Puzzles · page 2 of 4"));
    assert!(svgs[1].contains("5. Easy"));
    let answers = layout.pictures(3, &entries);
    assert!(answers[0].contains("Answers · page 4 of 4"));
    assert!(answers[1].contains("class=\"solution\""));
}

#[test]
fn a_booklet_places_every_picture_inside_its_page_and_embeds_the_font_once() {
    use booklet::{Layout, Paper};
    let entries = entries(7);
    for paper in [Paper::A4, Paper::Letter] {
        for per_page in booklet::PER_PAGE {
            let layout = Layout::new(paper, per_page, entries.len(), true, "Daily <7>").unwrap();
            let pages: Vec<Vec<pdf::Drawing>> = (0..layout.pages())
                .map(|page| {
                    layout
                        .pictures(page, &entries)
                        .iter()
                        .map(|svg| pdf::Drawing::new(svg).unwrap())
                        .collect()
                })
                .collect();
            let (width, height) = paper.size();
            for (page, drawings) in pages.iter().enumerate() {
                let sheet = layout.place(page, drawings);
                assert_eq!(sheet.placed.len(), drawings.len());
                for placed in &sheet.placed {
                    let right = placed.left + placed.drawing.width() * placed.scale;
                    let bottom = placed.top + placed.drawing.height() * placed.scale;
                    assert!(
                        placed.left >= 0.0 && right <= width + 0.01,
                        "{per_page} {right}"
                    );
                    assert!(
                        placed.top >= 0.0 && bottom <= height + 0.01,
                        "{per_page} {bottom}"
                    );
                }
            }
            let bytes = booklet::document(&layout, &pages).unwrap();
            assert_eq!(pdf_pages(&bytes), (layout.pages(), true));
            let text = String::from_utf8_lossy(&bytes);
            assert_eq!(text.matches("/FontFile3").count(), 2, "each face once");
            assert!(text.contains("/Title (Daily <7>)"));
        }
    }
}

/// Where the reference pictures are kept, and the variable that rewrites them.
const REFERENCES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/render");
const WRITE_REFERENCES: &str = "SUDOKU_WRITE_RENDER_REFERENCES";
/// A pixel differs when a channel moves by more than this (anti-aliasing on another
/// platform's floating point moves edges by a few levels); a picture matches when at most
/// [`CHANGED_PIXELS`] of its pixels differ: 8 of the 40,000 of a square picture, fewer than
/// the smallest mark drawn (a Kropki dot is about 24 pixels at this size).
const CHANNEL_TOLERANCE: u8 = 48;
const CHANGED_PIXELS: f64 = 0.0002;

/// The pixels of `a` and `b` (same size) that differ by more than the tolerance.
fn changed_pixels(a: &resvg::tiny_skia::Pixmap, b: &resvg::tiny_skia::Pixmap) -> usize {
    a.pixels()
        .iter()
        .zip(b.pixels())
        .filter(|(p, q)| {
            [
                (p.red(), q.red()),
                (p.green(), q.green()),
                (p.blue(), q.blue()),
                (p.alpha(), q.alpha()),
            ]
            .iter()
            .any(|&(x, y)| x.abs_diff(y) > CHANNEL_TOLERANCE)
        })
        .count()
}

/// Every rule family (and every size), painted 200 pixels wide, against the picture checked
/// in under `tests/render/`: what a person saw and approved stays what is drawn.
/// `SUDOKU_WRITE_RENDER_REFERENCES=1 cargo test --lib render::tests::every_rule_set` rewrites
/// them after a change meant to alter the drawing (look at them before committing).
#[test]
fn every_rule_set_matches_its_reference_picture() {
    let mut cases: Vec<(String, Puzzle)> = families()
        .into_iter()
        .map(|(family, spec, _)| (family.replace(' ', "-"), puzzle(&two_givens(), spec)))
        .collect();
    for shape in Shape::ALL {
        let side = shape.side();
        cases.push((format!("{side}x{side}"), first_row(shape)));
    }
    let write = std::env::var_os(WRITE_REFERENCES).is_some();
    let mut failures = Vec::new();
    for (name, puzzle) in cases {
        let bytes = png(&svg(&picture(&puzzle)), 200).unwrap();
        let path = format!("{REFERENCES}/{name}.png");
        if write {
            std::fs::create_dir_all(REFERENCES).unwrap();
            std::fs::write(&path, &bytes).unwrap();
            continue;
        }
        let reference = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}; {WRITE_REFERENCES}=1 writes it"));
        let expected = resvg::tiny_skia::Pixmap::decode_png(&reference).unwrap();
        let drawn = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        if (drawn.width(), drawn.height()) != (expected.width(), expected.height()) {
            failures.push(format!("{name}: {}x{}", drawn.width(), drawn.height()));
            continue;
        }
        let changed = changed_pixels(&drawn, &expected);
        let allowed = (CHANGED_PIXELS * (drawn.width() * drawn.height()) as f64) as usize;
        if changed > allowed {
            failures.push(format!(
                "{name}: {changed} pixels differ (at most {allowed})"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "pictures unlike their references in {REFERENCES} (if the change is meant, rewrite \
         them with {WRITE_REFERENCES}=1 and look at them): {failures:?}"
    );
}

#[test]
fn the_reference_comparison_sees_a_missing_mark() {
    // The comparison the reference test makes must fail on a real change: the same puzzle
    // with and without one black dot.
    let plain = puzzle(&two_givens(), RuleSpec::default());
    let dotted = puzzle(
        &two_givens(),
        RuleSpec {
            dots: vec![Dot {
                cells: [(4, 4), (4, 5)],
                kind: DotKind::Black,
                value: None,
            }],
            ..RuleSpec::default()
        },
    );
    let paint = |puzzle: &Puzzle| {
        resvg::tiny_skia::Pixmap::decode_png(&png(&svg(&picture(puzzle)), 200).unwrap()).unwrap()
    };
    let (a, b) = (paint(&plain), paint(&dotted));
    assert_eq!(changed_pixels(&a, &a), 0);
    let allowed = (CHANGED_PIXELS * 200.0 * 200.0) as usize;
    assert!(
        changed_pixels(&a, &b) > allowed,
        "{}",
        changed_pixels(&a, &b)
    );
}

#[test]
fn pencil_marks_keep_clear_of_a_cage_sum() {
    let puzzle = puzzle(&empty(9), corner_cage());
    let marks = Marks::basic(puzzle.grid(), puzzle.rules(), &Budget::unlimited()).unwrap();
    let drawn = svg(&Picture {
        show: Show::Candidates(&marks),
        ..picture(&puzzle)
    });
    let document = parsed(&drawn);
    let baselines: Vec<f64> = document
        .descendants()
        .find(|n| n.attribute("class") == Some("candidates"))
        .unwrap()
        .children()
        .filter(|c| c.is_element())
        .map(|t| t.attribute("y").unwrap().parse().unwrap())
        .collect();
    // The first cell's top row of marks (its first three) lies below the sum's patch, which
    // ends 2 + 14 units under the grid's top (30); the next cell's is as usual.
    let small = 0.8 * (CELL - 8.0) / 3.0;
    assert!(
        baselines[..3]
            .iter()
            .all(|&y| y - 0.7 * small > 30.0 + 16.0),
        "{baselines:?}"
    );
    assert!(baselines[9] < baselines[0], "{baselines:?}");
}
