//! The digits: givens bold and black, a solution's other digits lighter (regular weight, a
//! blue ink), pencil marks small in a little grid inside their cell, digit `d` always in the
//! same place. Digits above 9 are written as numbers (10-25), as 16x16 and 25x25 puzzles
//! print them.

use super::svg::{put, N};
use super::{Canvas, Frame, Layer, Show, CELL};
use crate::engine::{Cell, Digit, Grid};

/// How much of a cell one digit's height takes: one character, or two (10-25).
const DIGIT_FONT: f64 = 0.6 * CELL;
const WIDE_DIGIT_FONT: f64 = 0.48 * CELL;
/// The baseline lies this many font sizes below the centre (the font's figures are about 0.7
/// em tall), so a digit looks centred in every renderer, whatever its baseline support.
const BASELINE: f64 = 0.35;
/// What a cell's label (a cage's sum) takes off the top of its pencil marks' grid.
const LABEL_ROOM: f64 = super::cages::SUM_FONT - 2.0;

pub(super) fn draw(givens: &Grid, show: Show, canvas: &mut Canvas) {
    let side = givens.shape().side();
    let font = if side > 9 {
        WIDE_DIGIT_FONT
    } else {
        DIGIT_FONT
    };
    let cells: Vec<(Cell, Digit)> = givens.givens().collect();
    let attributes = format!(
        " font-size=\"{}\" font-weight=\"700\" fill=\"#000\" text-anchor=\"middle\"",
        N(font)
    );
    canvas.group(Layer::Digits, "givens", &attributes, |frame, out| {
        write_digits(frame, cells, font, out);
    });
    match show {
        Show::Puzzle => {}
        Show::Solution(solution) => {
            let entries: Vec<(Cell, Digit)> = solution
                .givens()
                .filter(|&(cell, _)| givens.get(cell).is_none())
                .collect();
            let attributes = format!(
                " font-size=\"{}\" font-weight=\"400\" fill=\"#3465a4\" text-anchor=\"middle\"",
                N(font)
            );
            canvas.group(Layer::Digits, "solution", &attributes, |frame, out| {
                write_digits(frame, entries, font, out);
            });
        }
        Show::Candidates(marks) => {
            // A little grid of k x k places: 2 for 4x4, 3 up to 9x9, 4 and 5 beyond.
            let k = (1..=5).find(|k| k * k >= side).unwrap_or(5);
            let place = (CELL - 8.0) / k as f64;
            let small = if side > 9 { 0.62 * place } else { 0.8 * place };
            let attributes = format!(
                " font-size=\"{}\" fill=\"#555\" text-anchor=\"middle\"",
                N(small)
            );
            let labelled = canvas.labelled.clone();
            canvas.group(Layer::Digits, "candidates", &attributes, |frame, out| {
                for cell in givens.shape().all_cells() {
                    if givens.get(cell).is_some() {
                        continue;
                    }
                    let (left, mut top) = (frame.x(cell.col()) + 4.0, frame.y(cell.row()) + 4.0);
                    // Under a cage's sum the rows close up below it.
                    let mut rows = place;
                    if labelled.contains(&cell) {
                        top += LABEL_ROOM;
                        rows = (CELL - 8.0 - LABEL_ROOM) / k as f64;
                    }
                    for digit in marks.digits(cell) {
                        let i = usize::from(digit.get()) - 1;
                        let x = left + (i % k) as f64 * place + place / 2.0;
                        let y = top + (i / k) as f64 * rows + rows / 2.0 + BASELINE * small;
                        put!(out, "<text x=\"{}\" y=\"{}\">{digit}</text>", N(x), N(y));
                    }
                }
            });
        }
    }
}

/// One `text` per digit, centred in its cell.
fn write_digits(frame: &Frame, digits: Vec<(Cell, Digit)>, font: f64, out: &mut String) {
    for (cell, digit) in digits {
        let (x, y) = frame.centre(cell);
        put!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            N(x),
            N(y + BASELINE * font),
            digit.get()
        );
    }
}
