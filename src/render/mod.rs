//! Pictures of puzzles: an SVG of any size and rule set, and a PNG rasterised from it.
//!
//! The renderer sits beside the HTTP edge, above the engine: it reads a [`Puzzle`] (its grid
//! and its [`Rules`]' constraints) and knows nothing of requests. Each rule family is drawn
//! by one file here, the way puzzle people expect: thin cell lines and thick box or region
//! borders ([`grid`]), dashed Killer cages inset from the cell edge with the sum top-left
//! ([`cages`]), shaded diagonals and windows, thermometers as bulb and tube, dots on the
//! edge between their cells, grey circles and squares for odd and even cells; the rules
//! that have no drawing (anti-king, anti-knight, non-consecutive, negative dots) are named in
//! a caption under the grid ([`caption`]). [`draw`] matches every constraint of the
//! registry, so a family added without a drawing does not compile.
//!
//! The SVG is the service's own text, written in a fixed order with numbers in a fixed form
//! (see [`svg`]): the same picture is always the same bytes, which the ETag relies on. User
//! text (title, author) is cut to one bounded line and escaped. PNG comes from that SVG
//! through resvg ([`png`](mod@png)), with the font compiled in; PDF from the same tree of it
//! ([`pdf`](mod@pdf)), the font embedded.

mod arrows;
mod between_lines;
pub mod booklet;
mod cages;
mod caption;
mod clones;
mod diagonals;
mod digits;
mod dots;
mod extra_regions;
mod extremes;
mod grid;
mod lines;
mod outside;
mod parity;
pub mod pdf;
pub mod png;
mod quadruples;
mod svg;
mod thermometers;
mod tree;
mod windows;

pub use pdf::{pdf, PdfError};
pub use png::{png, PngError};
pub use svg::{one_line, MAX_TEXT};

use crate::engine::model::constraints::Constraint;
use crate::engine::{Cell, Grid, Marks, Puzzle};
use svg::{put, Escaped, N};

/// What the picture shows in the cells besides the givens.
#[derive(Clone, Copy, Debug)]
pub enum Show<'a> {
    /// The givens only.
    Puzzle,
    /// The givens, and the rest of this full grid in a lighter style.
    Solution(&'a Grid),
    /// The givens, and these pencil marks as small digits in the empty cells.
    Candidates(&'a Marks),
}

/// One picture: a puzzle, what to show in its cells, and the lines above the grid.
#[derive(Clone, Copy, Debug)]
pub struct Picture<'a> {
    pub puzzle: &'a Puzzle,
    pub show: Show<'a>,
    /// Drawn above the grid as one line of at most [`MAX_TEXT`] characters.
    pub title: Option<&'a str>,
    /// Drawn under the title, bounded the same way.
    pub author: Option<&'a str>,
}

/// The side of a cell, in SVG user units. Every size uses the same cell, so stroke widths
/// and fonts read the same at any grid size; a 25x25 picture is simply larger (a PNG is
/// scaled to the pixels asked for).
pub(crate) const CELL: f64 = 60.0;
/// The white margin around the grid.
const MARGIN: f64 = 30.0;
/// Font sizes of the title and author lines, and the height each takes.
const TITLE_FONT: f64 = 30.0;
const TITLE_LINE: f64 = 44.0;
const AUTHOR_FONT: f64 = 20.0;
const AUTHOR_LINE: f64 = 30.0;
/// The font every text of the picture names: the one compiled in for PNG (see [`png`]),
/// then whatever a browser has.
const FONT_FAMILY: &str = "Cantarell, sans-serif";

/// Where the grid lies in the picture, and the cell geometry every drawing uses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub side: usize,
    /// The grid's top-left corner.
    pub left: f64,
    pub top: f64,
}

impl Frame {
    /// The x of the left edge of column `col` (`side` for the right edge of the grid).
    pub fn x(&self, col: usize) -> f64 {
        self.left + col as f64 * CELL
    }

    /// The y of the top edge of row `row` (`side` for the bottom edge of the grid).
    pub fn y(&self, row: usize) -> f64 {
        self.top + row as f64 * CELL
    }

    /// The centre of `cell`.
    pub fn centre(&self, cell: Cell) -> (f64, f64) {
        (
            self.x(cell.col()) + CELL / 2.0,
            self.y(cell.row()) + CELL / 2.0,
        )
    }

    /// The grid's width and height.
    pub fn span(&self) -> f64 {
        self.side as f64 * CELL
    }

    /// A path of the squares of `cells`, one closed square each (for shading).
    pub fn squares(&self, cells: impl IntoIterator<Item = Cell>, out: &mut String) {
        out.push_str("<path d=\"");
        for cell in cells {
            put!(
                out,
                "M{} {}h{c}v{c}h-{c}z",
                N(self.x(cell.col())),
                N(self.y(cell.row())),
                c = N(CELL)
            );
        }
        out.push_str("\"/>");
    }
}

/// The layers of a picture, bottom first: shading under the lines (diagonals, windows, odd and
/// even cells, thermometers), the grid's lines, marks on the lines (cages, dots), the digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layer {
    Shade,
    Lines,
    Marks,
    Digits,
}

/// The picture as it is drawn: one text per layer, and the caption's words.
pub(crate) struct Canvas {
    pub frame: Frame,
    layers: [String; 4],
    /// Rules that have no drawing, named under the grid, in registry order.
    caption: Vec<&'static str>,
    /// Cells whose top-left corner holds a label (a cage's sum): pencil marks there keep
    /// clear of it.
    pub labelled: Vec<Cell>,
}

impl Canvas {
    /// Appends a group of class `class` to `layer`, its elements written by `draw` (its
    /// attributes, if any, start with a space).
    pub fn group(
        &mut self,
        layer: Layer,
        class: &str,
        attributes: &str,
        draw: impl FnOnce(&Frame, &mut String),
    ) {
        let frame = self.frame;
        let out = &mut self.layers[layer as usize];
        put!(out, "<g class=\"{class}\"{attributes}>");
        draw(&frame, out);
        out.push_str("</g>");
    }

    /// Names a rule that has no drawing in the caption.
    pub fn caption(&mut self, words: &'static str) {
        self.caption.push(words);
    }
}

/// Draws `constraint`, each family by its own file. The match has no catch-all arm: a new
/// family must say here how it is drawn.
fn draw(constraint: &Constraint, picture: &Picture, canvas: &mut Canvas) {
    let rules = picture.puzzle.rules();
    match constraint {
        Constraint::Lines(_) => grid::cells(canvas),
        Constraint::Boxes(_) | Constraint::Regions(_) => grid::regions(rules, canvas),
        Constraint::Cages(cages) => cages::draw(cages, canvas),
        Constraint::Diagonals(_) => diagonals::draw(rules, canvas),
        Constraint::Windows(_) => windows::draw(rules, canvas),
        Constraint::AntiKing(_) => canvas.caption(caption::ANTI_KING),
        Constraint::AntiKnight(_) => canvas.caption(caption::ANTI_KNIGHT),
        Constraint::NonConsecutive(_) => canvas.caption(caption::NON_CONSECUTIVE),
        Constraint::Parity(parity) => parity::draw(parity, canvas),
        Constraint::Thermometers(thermometers) => thermometers::draw(thermometers, canvas),
        Constraint::Dots(dots) => {
            dots::draw(dots, canvas);
            caption::negative(dots, canvas);
        }
        Constraint::ExtraRegions(regions) => extra_regions::draw(regions, canvas),
        Constraint::DisjointGroups(_) => canvas.caption(caption::DISJOINT_GROUPS),
        Constraint::Whispers(whispers) => lines::draw(&lines::WHISPERS, whispers.lines(), canvas),
        Constraint::Renban(renban) => lines::draw(&lines::RENBAN, renban.lines(), canvas),
        Constraint::Palindromes(palindromes) => {
            lines::draw(&lines::PALINDROMES, palindromes.lines(), canvas)
        }
        Constraint::Arrows(arrows) => arrows::draw(arrows, canvas),
        Constraint::LittleKillers(clues) => outside::little_killers(clues, canvas),
        Constraint::Sandwiches(clues) => outside::numbers(
            "sandwiches",
            caption::SANDWICHES,
            clues.clues().iter().map(|c| (c.at, c.sum)),
            canvas,
        ),
        Constraint::XSums(clues) => outside::numbers(
            "x-sums",
            caption::X_SUMS,
            clues.clues().iter().map(|c| (c.at, c.sum)),
            canvas,
        ),
        Constraint::Skyscrapers(clues) => outside::numbers(
            "skyscrapers",
            caption::SKYSCRAPERS,
            clues.clues().iter().map(|c| (c.at, c.count)),
            canvas,
        ),
        Constraint::BetweenLines(lines) => between_lines::draw(lines, canvas),
        Constraint::RegionSumLines(lines) => lines::draw(&lines::REGION_SUM, lines.lines(), canvas),
        Constraint::Quadruples(quads) => quadruples::draw(quads, canvas),
        Constraint::Extremes(extremes) => extremes::draw(extremes, canvas),
        Constraint::Clones(clones) => clones::draw(clones, canvas),
    }
}

/// Whether `constraint` writes clues outside the grid, which need a margin a cell wide.
fn writes_outside(constraint: &Constraint) -> bool {
    matches!(
        constraint,
        Constraint::LittleKillers(_)
            | Constraint::Sandwiches(_)
            | Constraint::XSums(_)
            | Constraint::Skyscrapers(_)
    )
}

/// The SVG of `picture`: a standalone document (XML declaration, `svg` root with its size and
/// view box), the same bytes for the same picture.
pub fn svg(picture: &Picture) -> String {
    let puzzle = picture.puzzle;
    let side = puzzle.shape().side();
    let title = picture.title.map(one_line).filter(|t| !t.is_empty());
    let author = picture.author.map(one_line).filter(|t| !t.is_empty());
    let header =
        title.as_ref().map_or(0.0, |_| TITLE_LINE) + author.as_ref().map_or(0.0, |_| AUTHOR_LINE);
    let margin = if puzzle.rules().constraints().iter().any(writes_outside) {
        CELL
    } else {
        MARGIN
    };
    let frame = Frame {
        side,
        left: margin,
        top: margin + header,
    };
    let mut canvas = Canvas {
        frame,
        layers: Default::default(),
        caption: Vec::new(),
        labelled: Vec::new(),
    };
    for constraint in puzzle.rules().constraints() {
        draw(constraint, picture, &mut canvas);
    }
    digits::draw(puzzle.grid(), picture.show, &mut canvas);
    let width = frame.span() + 2.0 * margin;
    let caption_height = if canvas.caption.is_empty() {
        0.0
    } else {
        caption::HEIGHT
    };
    let height = frame.top + frame.span() + margin + caption_height;
    // About 60 bytes a cell for the lines and digits, more with marks and constraints.
    let mut out = String::with_capacity(1024 + 80 * side * side);
    put!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\">",
        w = N(width),
        h = N(height),
    );
    // The accessible name: the title when there is one, else what the puzzle is.
    let name = title.clone().unwrap_or_else(|| puzzle.kind());
    put!(out, "<title>{}</title>", Escaped(&name));
    put!(
        out,
        "<rect class=\"background\" width=\"{}\" height=\"{}\" fill=\"#fff\"/>",
        N(width),
        N(height)
    );
    let mut baseline = margin;
    for (text, class, font, line, weight) in [
        (&title, "title", TITLE_FONT, TITLE_LINE, "700"),
        (&author, "author", AUTHOR_FONT, AUTHOR_LINE, "400"),
    ] {
        if let Some(text) = text {
            baseline += font;
            heading(&mut out, text, class, width, baseline, font, weight);
            baseline += line - font;
        }
    }
    for layer in &canvas.layers {
        out.push_str(layer);
    }
    if !canvas.caption.is_empty() {
        let words = canvas.caption.join(" · ");
        // Below the clues outside the grid, when the wider margin holds some.
        let y = frame.top + frame.span() + margin - MARGIN / 2.0 + caption::FONT;
        heading(&mut out, &words, "caption", width, y, caption::FONT, "400");
    }
    out.push_str("</svg>\n");
    out
}

/// One centred line of text at baseline `y`, squeezed to the picture's width when it would
/// run past it (estimated at 0.6 em a character: a little wider than the font's average).
fn heading(out: &mut String, text: &str, class: &str, width: f64, y: f64, font: f64, weight: &str) {
    let room = width - 2.0 * MARGIN / 3.0;
    let estimate = text.chars().count() as f64 * 0.6 * font;
    let fit = if estimate > room {
        format!(
            " textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"",
            N(room)
        )
    } else {
        String::new()
    };
    put!(
        out,
        "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-size=\"{}\" font-weight=\"{weight}\" \
         text-anchor=\"middle\"{fit}>{}</text>",
        N(width / 2.0),
        N(y),
        N(font),
        Escaped(text)
    );
}

#[cfg(test)]
mod tests;
