//! Between lines: a thin grey line through the centres of its cells with a hollow circle on
//! each end (the bulbs), under the digits.

use super::lines::polyline;
use super::svg::{put, N};
use super::{Canvas, Layer, CELL};
use crate::engine::model::constraints::between_lines::BetweenLines;

const BULB: f64 = 0.38 * CELL;
const STROKE: f64 = 0.05 * CELL;

pub(super) fn draw(lines: &BetweenLines, canvas: &mut Canvas) {
    let attributes = format!(
        " fill=\"none\" stroke=\"#8c8c8c\" stroke-width=\"{}\" stroke-linejoin=\"round\"",
        N(STROKE)
    );
    canvas.group(Layer::Shade, "between-lines", &attributes, |frame, out| {
        for cells in lines.lines() {
            polyline(frame, cells, out);
            for bulb in [cells[0], cells[cells.len() - 1]] {
                let (x, y) = frame.centre(bulb);
                put!(
                    out,
                    "<circle class=\"bulb\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#fff\"/>",
                    N(x),
                    N(y),
                    N(BULB)
                );
            }
        }
    });
}
