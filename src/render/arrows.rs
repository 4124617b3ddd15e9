//! Arrows: a grey circle (or a rounded pill over two or three cells) and, from its edge, a
//! line through the centres of the shaft's cells ending in an arrowhead, under the digits.

use super::svg::{put, N};
use super::{Canvas, Frame, Layer, CELL};
use crate::engine::model::constraints::arrows::Arrows;
use crate::engine::Cell;

const RADIUS: f64 = 0.4 * CELL;
const STROKE: f64 = 0.06 * CELL;
const HEAD: f64 = 0.22 * CELL;

pub(super) fn draw(arrows: &Arrows, canvas: &mut Canvas) {
    let attributes = format!(
        " fill=\"none\" stroke=\"#8c8c8c\" stroke-width=\"{}\" stroke-linecap=\"round\" \
         stroke-linejoin=\"round\"",
        N(STROKE)
    );
    canvas.group(Layer::Shade, "arrows", &attributes, |frame, out| {
        for (circle, lines) in arrows.arrows() {
            pill(frame, circle, out);
            for shaft in lines {
                arrow(frame, circle, shaft, out);
            }
        }
    });
}

/// The circle of one cell, or a rounded rectangle around a straight pill.
fn pill(frame: &Frame, circle: &[Cell], out: &mut String) {
    let (first, last) = (circle[0], circle[circle.len() - 1]);
    let ((x0, y0), (x1, y1)) = (frame.centre(first), frame.centre(last));
    put!(
        out,
        "<rect class=\"circle\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{r}\"/>",
        N(x0 - RADIUS),
        N(y0 - RADIUS),
        N(x1 - x0 + 2.0 * RADIUS),
        N(y1 - y0 + 2.0 * RADIUS),
        r = N(RADIUS)
    );
}

/// The shaft from the edge of the circle cell it starts next to, and its head.
fn arrow(frame: &Frame, circle: &[Cell], shaft: &[Cell], out: &mut String) {
    let start = circle
        .iter()
        .copied()
        .min_by_key(|c| c.row().abs_diff(shaft[0].row()) + c.col().abs_diff(shaft[0].col()))
        .unwrap_or(circle[0]);
    let (sx, sy) = frame.centre(start);
    let (nx, ny) = frame.centre(shaft[0]);
    let length = ((nx - sx).powi(2) + (ny - sy).powi(2)).sqrt();
    let from = (
        sx + (nx - sx) * RADIUS / length,
        sy + (ny - sy) * RADIUS / length,
    );
    put!(
        out,
        "<polyline class=\"shaft\" points=\"{},{}",
        N(from.0),
        N(from.1)
    );
    for &cell in shaft {
        let (x, y) = frame.centre(cell);
        put!(out, " {},{}", N(x), N(y));
    }
    out.push_str("\"/>");
    // The head: two strokes back from the tip, along the last step.
    let tip = frame.centre(shaft[shaft.len() - 1]);
    let before = match shaft.len() {
        1 => from,
        n => frame.centre(shaft[n - 2]),
    };
    let (dx, dy) = (tip.0 - before.0, tip.1 - before.1);
    let norm = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / norm, dy / norm);
    let wing = |turn: f64| {
        (
            tip.0 - HEAD * (ux + turn * uy),
            tip.1 - HEAD * (uy - turn * ux),
        )
    };
    let (l, r) = (wing(1.0), wing(-1.0));
    put!(
        out,
        "<polyline class=\"head\" points=\"{},{} {},{} {},{}\"/>",
        N(l.0),
        N(l.1),
        N(tip.0),
        N(tip.1),
        N(r.0),
        N(r.1)
    );
}
