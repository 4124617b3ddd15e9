//! Quadruples: a white circle on the corner where the four cells meet, with the digits that
//! must appear among them written small inside.

use super::svg::{put, N};
use super::{Canvas, Layer, CELL};
use crate::engine::model::constraints::quadruples::Quadruples;

const RADIUS: f64 = 0.26 * CELL;
const FONT: f64 = 0.17 * CELL;

pub(super) fn draw(quads: &Quadruples, canvas: &mut Canvas) {
    canvas.group(
        Layer::Marks,
        "quadruples",
        " text-anchor=\"middle\"",
        |frame, out| {
            for (cells, digits) in quads.quadruples() {
                let (x, y) = (frame.x(cells[0].col() + 1), frame.y(cells[0].row() + 1));
                put!(
                    out,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#fff\" stroke=\"#000\" \
                     stroke-width=\"1.5\"/>",
                    N(x),
                    N(y),
                    N(RADIUS)
                );
                // Two digits a row, one or two rows.
                let rows: Vec<&[u8]> = digits.chunks(2).collect();
                for (r, row) in rows.iter().enumerate() {
                    let text: Vec<String> = row.iter().map(u8::to_string).collect();
                    let dy = (r as f64 - (rows.len() as f64 - 1.0) / 2.0) * FONT * 1.1;
                    put!(
                        out,
                        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#000\">{}</text>",
                        N(x),
                        N(y + dy + 0.35 * FONT),
                        N(FONT),
                        text.join(" ")
                    );
                }
            }
        },
    );
}
