//! Dots on the edge between their two cells: Kropki white (hollow) and black (filled), each
//! with its value written in when it is not the usual one (a difference of 1, a ratio of 2);
//! X and V as bold letters with a white halo, so the line under them stays readable.

use super::svg::{put, N};
use super::{Canvas, Layer, CELL};
use crate::engine::model::constraints::dots::Dots;
use crate::engine::DotKind;

/// A plain dot's radius, and that of a dot with its value written in.
const RADIUS: f64 = 0.12 * CELL;
const VALUED_RADIUS: f64 = 0.17 * CELL;
const VALUE_FONT: f64 = 0.2 * CELL;
const LETTER_FONT: f64 = 0.4 * CELL;

pub(super) fn draw(dots: &Dots, canvas: &mut Canvas) {
    if dots.dots().next().is_none() {
        return;
    }
    canvas.group(
        Layer::Marks,
        "dots",
        " text-anchor=\"middle\"",
        |frame, out| {
            for ([a, b], kind, value) in dots.dots() {
                let ((ax, ay), (bx, by)) = (frame.centre(a), frame.centre(b));
                let (x, y) = ((ax + bx) / 2.0, (ay + by) / 2.0);
                let (ink, paper, usual) = match kind {
                    DotKind::White => ("#000", "#fff", 1),
                    DotKind::Black => ("#fff", "#000", 2),
                    DotKind::X | DotKind::V => {
                        let letter = if kind == DotKind::X { 'X' } else { 'V' };
                        put!(
                            out,
                            "<text class=\"{}\" x=\"{}\" y=\"{}\" font-size=\"{}\" \
                         font-weight=\"700\" fill=\"#000\" stroke=\"#fff\" stroke-width=\"4\" \
                         paint-order=\"stroke\">{letter}</text>",
                            letter.to_ascii_lowercase(),
                            N(x),
                            N(y + 0.35 * LETTER_FONT),
                            N(LETTER_FONT)
                        );
                        continue;
                    }
                };
                let class = if kind == DotKind::White {
                    "white"
                } else {
                    "black"
                };
                let radius = if value == usual {
                    RADIUS
                } else {
                    VALUED_RADIUS
                };
                put!(
                    out,
                    "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{paper}\" \
                 stroke=\"#000\" stroke-width=\"1.5\"/>",
                    N(x),
                    N(y),
                    N(radius)
                );
                if value != usual {
                    put!(
                        out,
                        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{ink}\">{value}</text>",
                        N(x),
                        N(y + 0.35 * VALUE_FONT),
                        N(VALUE_FONT)
                    );
                }
            }
        },
    );
}
