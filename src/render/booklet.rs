//! A booklet: puzzles laid out 1, 2, 4 or 6 to a page of A4 or Letter, each picture headed
//! by its label (number, level, id), then the answers six to a page, every page with a
//! header line (the booklet's title, the section, the page number).
//!
//! Split so the caller can bound and spread the work: [`Layout`] says what goes on each
//! page; [`Layout::pictures`] writes one page's SVGs (cheap); each becomes a
//! [`Drawing`](super::pdf::Drawing) (the costly part: reading the SVG back and laying out its
//! text), which [`Layout::place`] puts in its slot; [`document`] writes the pages and
//! embeds the font once. Nothing here knows of budgets or threads.

use std::ops::Range;

use super::pdf::{self, Drawing, PdfError, Placed, Sheet};
use super::svg::{one_line, put, Escaped, N};
use super::{Picture, Show, FONT_FAMILY};
use crate::engine::{Grid, Puzzle};

/// A paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    /// Width and height, portrait, in points.
    pub fn size(self) -> (f32, f32) {
        match self {
            // 210 x 297 mm.
            Paper::A4 => (595.28, 841.89),
            // 8.5 x 11 in.
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// The puzzles a page may hold.
pub const PER_PAGE: [usize; 4] = [1, 2, 4, 6];
/// Answers per page: a key is read, not solved on, so its grids may be small.
pub const ANSWERS_PER_PAGE: usize = 6;

/// The white border of every page, in points (half an inch).
const MARGIN: f32 = 36.0;
/// The header line: its font size and the height it takes above the pictures.
const HEADER_FONT: f32 = 10.0;
const HEADER_HEIGHT: f32 = 28.0;
/// The space between two pictures.
const GAP: f32 = 14.0;

/// One puzzle of a booklet: the puzzle, its solution, and the two lines over its picture.
#[derive(Debug, Clone)]
pub struct Entry {
    pub puzzle: Puzzle,
    pub solution: Grid,
    /// Its number and level, for instance `3. Hard`.
    pub label: String,
    /// A smaller line under the label: its id.
    pub detail: String,
}

/// What a page holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Section {
    /// These puzzles (indices into the entries).
    Puzzles(Range<usize>),
    /// The solutions of these puzzles.
    Answers(Range<usize>),
}

/// Where everything of a booklet goes.
#[derive(Debug, Clone)]
pub struct Layout {
    paper: Paper,
    per_page: usize,
    count: usize,
    answers: bool,
    title: String,
}

/// Why a booklet cannot be laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("a page holds 1, 2, 4 or 6 puzzles; got {0}")]
    PerPage(usize),
    #[error("a booklet holds at least one puzzle")]
    Empty,
}

impl Layout {
    /// `count` puzzles, `per_page` to a page of `paper`, then their answers when `answers`,
    /// under `title` (one line; "Sudoku" when empty).
    pub fn new(
        paper: Paper,
        per_page: usize,
        count: usize,
        answers: bool,
        title: &str,
    ) -> Result<Layout, LayoutError> {
        if !PER_PAGE.contains(&per_page) {
            return Err(LayoutError::PerPage(per_page));
        }
        if count == 0 {
            return Err(LayoutError::Empty);
        }
        let title = Some(one_line(title))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| "Sudoku".to_string());
        Ok(Layout {
            paper,
            per_page,
            count,
            answers,
            title,
        })
    }

    /// The pages `count` puzzles take, `per_page` to a page, with their answers when
    /// `answers`: what a request is bounded by before anything is made.
    pub fn pages_for(per_page: usize, count: usize, answers: bool) -> usize {
        let answer_pages = if answers {
            count.div_ceil(ANSWERS_PER_PAGE)
        } else {
            0
        };
        count.div_ceil(per_page.max(1)) + answer_pages
    }

    /// How many pages the booklet has.
    pub fn pages(&self) -> usize {
        Layout::pages_for(self.per_page, self.count, self.answers)
    }

    /// The booklet's title, as its header lines and metadata show it.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// What page `page` (from 0) holds.
    pub fn section(&self, page: usize) -> Section {
        let puzzle_pages = self.count.div_ceil(self.per_page);
        let span = |page: usize, per: usize| (page * per)..((page + 1) * per).min(self.count);
        if page < puzzle_pages {
            Section::Puzzles(span(page, self.per_page))
        } else {
            Section::Answers(span(page - puzzle_pages, ANSWERS_PER_PAGE))
        }
    }

    /// The SVGs of page `page`: its header line, then each picture, in the order
    /// [`Layout::place`] takes them.
    pub fn pictures(&self, page: usize, entries: &[Entry]) -> Vec<String> {
        let (width, _) = self.paper.size();
        let (name, range, answers) = match self.section(page) {
            Section::Puzzles(range) => ("Puzzles", range, false),
            Section::Answers(range) => ("Answers", range, true),
        };
        let words = format!("{name} · page {} of {}", page + 1, self.pages());
        let mut svgs = vec![header(&self.title, &words, width - 2.0 * MARGIN)];
        for entry in entries.get(range).unwrap_or_default() {
            let show = if answers {
                Show::Solution(&entry.solution)
            } else {
                Show::Puzzle
            };
            svgs.push(super::svg(&Picture {
                puzzle: &entry.puzzle,
                show,
                title: Some(&entry.label),
                author: Some(&entry.detail),
            }));
        }
        svgs
    }

    /// Page `page`'s drawings (the header first, as [`Layout::pictures`] wrote them) placed
    /// on it: the header across the top, each picture as large as its slot allows, centred
    /// in it.
    pub fn place<'a>(&self, page: usize, drawings: &'a [Drawing]) -> Sheet<'a> {
        let (width, height) = self.paper.size();
        let per_page = match self.section(page) {
            Section::Puzzles(_) => self.per_page,
            Section::Answers(_) => ANSWERS_PER_PAGE,
        };
        let (columns, rows) = match per_page {
            1 => (1, 1),
            2 => (1, 2),
            4 => (2, 2),
            _ => (2, 3),
        };
        let top = MARGIN + HEADER_HEIGHT;
        let slot_width = (width - 2.0 * MARGIN - GAP * (columns - 1) as f32) / columns as f32;
        let slot_height = (height - top - MARGIN - GAP * (rows - 1) as f32) / rows as f32;
        let mut placed = Vec::with_capacity(drawings.len());
        if let Some((header, pictures)) = drawings.split_first() {
            placed.push(Placed {
                drawing: header,
                left: MARGIN,
                top: MARGIN,
                scale: 1.0,
            });
            for (slot, drawing) in pictures.iter().enumerate() {
                let (column, row) = (slot % columns, slot / columns);
                let scale = (slot_width / drawing.width()).min(slot_height / drawing.height());
                let left = MARGIN
                    + column as f32 * (slot_width + GAP)
                    + (slot_width - drawing.width() * scale) / 2.0;
                let top = top
                    + row as f32 * (slot_height + GAP)
                    + (slot_height - drawing.height() * scale) / 2.0;
                placed.push(Placed {
                    drawing,
                    left,
                    top,
                    scale,
                });
            }
        }
        Sheet {
            width,
            height,
            placed,
        }
    }
}

/// A header line `width` points wide (one SVG unit a point): `title` on the left, `words`
/// on the right, a thin rule under them.
fn header(title: &str, words: &str, width: f32) -> String {
    let height = HEADER_HEIGHT - 8.0;
    let baseline = HEADER_FONT + 2.0;
    let (width, height) = (f64::from(width), f64::from(height));
    let mut out = String::with_capacity(600);
    put!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \
         width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\" \
         font-size=\"{f}\" fill=\"#000\"><text class=\"booklet-title\" x=\"0\" y=\"{b}\" \
         font-weight=\"700\">{}</text><text class=\"page\" x=\"{w}\" y=\"{b}\" \
         text-anchor=\"end\">{}</text><path d=\"M0 {r}H{w}\" stroke=\"#000\" \
         stroke-width=\"0.5\"/></svg>\n",
        Escaped(title),
        Escaped(words),
        w = N(width),
        h = N(height),
        f = N(f64::from(HEADER_FONT)),
        b = N(f64::from(baseline)),
        r = N(height - 0.5),
    );
    out
}

/// The booklet of `layout`: its pages' drawings, each page's as [`Layout::pictures`] wrote
/// them, placed and written with the font embedded once.
pub fn document(layout: &Layout, pages: &[Vec<Drawing>]) -> Result<Vec<u8>, PdfError> {
    let sheets: Vec<Sheet> = pages
        .iter()
        .enumerate()
        .map(|(page, drawings)| layout.place(page, drawings))
        .collect();
    pdf::document(&sheets, Some(layout.title()))
}
