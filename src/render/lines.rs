//! Lines whose rule is in their colour, the way setters draw them: German whispers green,
//! renban purple, palindromes grey-blue, region-sum lines blue; a thick stroke through the centres of the cells,
//! under the digits. Thermometers, which also need a bulb, are in `thermometers.rs`.

use super::svg::{put, N};
use super::{Canvas, Frame, Layer, CELL};
use crate::engine::Cell;

const STROKE: f64 = 0.22 * CELL;

/// A kind of line: its class in the SVG and its colour.
pub(super) struct Kind {
    class: &'static str,
    colour: &'static str,
}

pub(super) const WHISPERS: Kind = Kind {
    class: "whispers",
    colour: "#67c46e",
};
pub(super) const RENBAN: Kind = Kind {
    class: "renban",
    colour: "#d9a6ef",
};
pub(super) const PALINDROMES: Kind = Kind {
    class: "palindromes",
    colour: "#a9bcd6",
};
pub(super) const REGION_SUM: Kind = Kind {
    class: "region-sum-lines",
    colour: "#7fb0e6",
};

/// Draws each of `lines` as a polyline of `kind`.
pub(super) fn draw<'a>(kind: &Kind, lines: impl Iterator<Item = &'a [Cell]>, canvas: &mut Canvas) {
    let attributes = format!(
        " fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\" \
         stroke-linejoin=\"round\"",
        kind.colour,
        N(STROKE)
    );
    canvas.group(Layer::Shade, kind.class, &attributes, |frame, out| {
        for cells in lines {
            polyline(frame, cells, out);
        }
    });
}

/// A polyline through the centres of `cells`, styled by its group.
pub(super) fn polyline(frame: &Frame, cells: &[Cell], out: &mut String) {
    out.push_str("<polyline points=\"");
    for (k, &cell) in cells.iter().enumerate() {
        let (x, y) = frame.centre(cell);
        let gap = if k == 0 { "" } else { " " };
        put!(out, "{gap}{},{}", N(x), N(y));
    }
    out.push_str("\"/>");
}
