//! Render latency: p50 / p99 / max microseconds of the SVG of a puzzle (`render::svg`), of
//! its PNG 600 pixels wide (`render::png`, from that SVG: what `POST /v1/render` runs) and of
//! its PDF (`render::pdf`), for a classic 9x9, a Killer, an empty 9x9 with every drawn family
//! at once, and empty 16x16 and 25x25 grids with their pencil marks; then the booklet of 24
//! classic puzzles with their answers at each count a page (`POST /v1/booklet`'s drawing, on
//! one thread): the pages' pictures written and converted, and the document written, with
//! the bytes each step's work charge counts. With a directory, also writes each picture there
//! (SVG, PNG, PDF, and the booklets) to look at.
//!
//! ```text
//! cargo run --release --example render_timing -- [ROUNDS=200] [OUT_DIR]
//! ```

use std::time::{Duration, Instant};

use sudoku_service::engine::{
    Budget, Cage, Dot, DotKind, Engine, Grid, Marks, Negative, Puzzle, RuleSpec, Rules, Shape,
    Thermometer,
};
use sudoku_service::render::booklet::{self, Entry, Layout, Paper, PER_PAGE};
use sudoku_service::render::pdf::Drawing;
use sudoku_service::render::{pdf, png, svg, Picture, Show};

const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// A 9x9 with every family the renderer draws: cages, diagonals, windows, odd and even
/// cells, thermometers (strict and slow), each kind of dot, and the caption's rules.
fn every_family() -> RuleSpec {
    RuleSpec {
        diagonals: true,
        windows: true,
        anti_king: true,
        non_consecutive: false,
        odd: vec![(0, 8), (2, 6)],
        even: vec![(8, 0), (6, 2)],
        thermometers: vec![
            Thermometer {
                cells: vec![(4, 1), (3, 2), (2, 3), (2, 4)],
                slow: false,
            },
            Thermometer {
                cells: vec![(6, 6), (6, 7), (7, 7)],
                slow: true,
            },
        ],
        dots: vec![
            Dot {
                cells: [(4, 4), (4, 5)],
                kind: DotKind::White,
                value: None,
            },
            Dot {
                cells: [(5, 4), (5, 5)],
                kind: DotKind::Black,
                value: None,
            },
            Dot {
                cells: [(3, 6), (3, 7)],
                kind: DotKind::White,
                value: Some(3),
            },
            Dot {
                cells: [(7, 3), (8, 3)],
                kind: DotKind::X,
                value: None,
            },
            Dot {
                cells: [(8, 4), (8, 5)],
                kind: DotKind::V,
                value: None,
            },
        ],
        negative: vec![Negative::Black],
        cages: vec![
            Cage {
                sum: Some(15),
                cells: vec![(0, 0), (0, 1), (1, 0)],
            },
            Cage {
                sum: Some(17),
                cells: vec![(7, 0), (7, 1), (8, 1), (8, 2)],
            },
        ],
        ..RuleSpec::default()
    }
}

fn killer() -> RuleSpec {
    RuleSpec {
        cages: vec![
            Cage {
                sum: Some(8),
                cells: vec![(0, 0), (0, 1)],
            },
            Cage {
                sum: Some(23),
                cells: vec![(0, 2), (1, 2), (1, 1)],
            },
            Cage {
                sum: Some(19),
                cells: vec![(3, 3), (3, 4), (4, 3), (4, 4)],
            },
        ],
        ..RuleSpec::default()
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(200);
    let out_dir = args.next();
    let mut engine = Engine::new();
    let nine = |spec: RuleSpec| {
        let grid = Grid::from_line(CLASSIC).expect("a 9x9 line");
        let rules = Rules::new(Shape::NINE, spec).expect("valid rules");
        Puzzle::new(grid, rules).expect("no clash")
    };
    let empty =
        |shape: Shape| Puzzle::new(Grid::empty(shape), Rules::classic(shape)).expect("empty");
    let cases: Vec<(&str, Puzzle, &str)> = vec![
        ("classic", nine(RuleSpec::default()), "solution"),
        ("killer", nine(killer()), "puzzle"),
        (
            "every-family",
            Puzzle::new(
                Grid::empty(Shape::NINE),
                Rules::new(Shape::NINE, every_family()).expect("valid rules"),
            )
            .expect("no givens"),
            "puzzle",
        ),
        ("16x16", empty(Shape::SIXTEEN), "candidates"),
        ("25x25", empty(Shape::TWENTY_FIVE), "candidates"),
    ];
    println!(
        "{:<14} {:>10} {:>9} {:>9} {:>9} {:>8}",
        "puzzle", "show", "p50 us", "p99 us", "max us", "bytes"
    );
    let mut first = None;
    for (name, puzzle, show) in &cases {
        let solution = engine
            .count(puzzle, 1, &Budget::unlimited())
            .ok()
            .and_then(|c| c.first);
        let marks =
            Marks::basic(puzzle.grid(), puzzle.rules(), &Budget::unlimited()).expect("unlimited");
        let show = match (*show, &solution) {
            ("solution", Some(solution)) => Show::Solution(solution.grid()),
            ("candidates", _) => Show::Candidates(&marks),
            _ => Show::Puzzle,
        };
        let picture = Picture {
            puzzle,
            show,
            title: Some("Render benchmark"),
            author: Some("sudoku-service"),
        };
        let drawn = svg(&picture);
        let svg_times = time(rounds, || {
            std::hint::black_box(svg(&picture));
        });
        let image = png(&drawn, 600).expect("renders");
        let png_times = time(rounds.div_ceil(10).max(5), || {
            std::hint::black_box(png(&drawn, 600).expect("renders"));
        });
        let document = pdf(&drawn, None).expect("converts");
        let pdf_times = time(rounds.div_ceil(10).max(5), || {
            std::hint::black_box(pdf(&drawn, None).expect("converts"));
        });
        let label = match show {
            Show::Puzzle => "puzzle",
            Show::Solution(_) => "solution",
            Show::Candidates(_) => "candidates",
        };
        for (format, times, bytes) in [
            ("svg", svg_times, drawn.len()),
            ("png 600", png_times, image.len()),
            ("pdf", pdf_times, document.len()),
        ] {
            let [p50, p99, max] = percentiles(times);
            println!(
                "{:<14} {:>10} {:>9} {:>9} {:>9} {:>8}  {format}",
                name, label, p50, p99, max, bytes
            );
        }
        if let Some(dir) = &out_dir {
            std::fs::create_dir_all(dir).expect("output directory");
            std::fs::write(format!("{dir}/{name}.svg"), &drawn).expect("write svg");
            std::fs::write(format!("{dir}/{name}.png"), &image).expect("write png");
            std::fs::write(format!("{dir}/{name}.pdf"), &document).expect("write pdf");
        }
        first.get_or_insert_with(|| (puzzle.clone(), solution.map(|s| s.grid().clone())));
    }
    let Some((puzzle, Some(solution))) = first else {
        panic!("the classic puzzle has a solution");
    };
    booklets(
        &puzzle,
        &solution,
        rounds.div_ceil(40).max(3),
        out_dir.as_deref(),
    );
}

/// The booklet of 24 copies of `puzzle` with their answers, at each count a page: the median
/// of `rounds` runs of drawing its pages and of writing the document, in milliseconds, with
/// the SVG bytes converted and the content bytes compressed (what the work charges count).
fn booklets(puzzle: &Puzzle, solution: &Grid, rounds: usize, out_dir: Option<&str>) {
    let entries: Vec<Entry> = (0..24)
        .map(|n| Entry {
            puzzle: puzzle.clone(),
            solution: solution.clone(),
            label: format!("{}. Easy", n + 1),
            detail: format!("id {}", puzzle.id()),
        })
        .collect();
    println!(
        "\n{:<18} {:>6} {:>10} {:>11} {:>9} {:>11} {:>9} {:>9}",
        "booklet of 24", "pages", "draw ms", "svg bytes", "pdf ms", "content", "total ms", "bytes"
    );
    for per_page in PER_PAGE {
        let layout =
            Layout::new(Paper::A4, per_page, entries.len(), true, "Benchmark").expect("a layout");
        let draw = || -> (Vec<Vec<Drawing>>, usize) {
            let mut svg_bytes = 0;
            let pages = (0..layout.pages())
                .map(|page| {
                    let svgs = layout.pictures(page, &entries);
                    svg_bytes += svgs.iter().map(String::len).sum::<usize>();
                    svgs.iter()
                        .map(|svg| Drawing::new(svg).expect("converts"))
                        .collect()
                })
                .collect();
            (pages, svg_bytes)
        };
        let (pages, svg_bytes) = draw();
        let content: usize = pages.iter().flatten().map(Drawing::len).sum();
        let document = booklet::document(&layout, &pages).expect("a document");
        let draw_ms = median(time(rounds, || {
            std::hint::black_box(draw());
        }));
        let pdf_ms = median(time(rounds, || {
            std::hint::black_box(booklet::document(&layout, &pages).expect("a document"));
        }));
        println!(
            "{:<18} {:>6} {:>10.1} {:>11} {:>9.1} {:>11} {:>9.1} {:>9}",
            format!("{per_page} a page"),
            layout.pages(),
            draw_ms,
            svg_bytes,
            pdf_ms,
            content,
            draw_ms + pdf_ms,
            document.len()
        );
        if let Some(dir) = out_dir {
            std::fs::write(format!("{dir}/booklet-{per_page}.pdf"), &document)
                .expect("write booklet");
        }
    }
}

/// The median of `times`, in milliseconds.
fn median(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1000.0
}

/// `rounds` timings of `run`, after one untimed run (fonts loaded, caches warm).
fn time(rounds: usize, mut run: impl FnMut()) -> Vec<Duration> {
    run();
    (0..rounds)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .collect()
}

/// p50, p99 and max, in microseconds.
fn percentiles(mut times: Vec<Duration>) -> [u128; 3] {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize].as_micros();
    [at(0.5), at(0.99), at(1.0)]
}
