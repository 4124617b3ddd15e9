//! Odd and even cells, as puzzle setters mark them: a grey circle in an odd cell, a grey
//! square in an even one, under the digit.

use super::svg::{put, N};
use super::{Canvas, Layer, CELL};
use crate::engine::model::constraints::parity::Parity;

/// The circle's radius and the square's side, as parts of a cell.
const RADIUS: f64 = 0.4 * CELL;
const SQUARE: f64 = 0.76 * CELL;

pub(super) fn draw(parity: &Parity, canvas: &mut Canvas) {
    canvas.group(Layer::Shade, "parity", " fill=\"#dcdcdc\"", |frame, out| {
        for &cell in parity.odd() {
            let (x, y) = frame.centre(cell);
            put!(
                out,
                "<circle class=\"odd\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                N(x),
                N(y),
                N(RADIUS)
            );
        }
        for &cell in parity.even() {
            let (x, y) = frame.centre(cell);
            put!(
                out,
                "<rect class=\"even\" x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\"/>",
                N(x - SQUARE / 2.0),
                N(y - SQUARE / 2.0),
                s = N(SQUARE)
            );
        }
    });
}
