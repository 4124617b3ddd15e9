//! Minimum and maximum cells: a light shade with a small chevron on each side pointing to
//! the neighbours (outward for a maximum, which is larger than they are; inward for a
//! minimum), under the digit.

use super::svg::{put, N};
use super::{Canvas, Layer, CELL};
use crate::engine::model::constraints::extremes::Extremes;

const ARM: f64 = 0.1 * CELL;
const INSET: f64 = 0.12 * CELL;

pub(super) fn draw(extremes: &Extremes, canvas: &mut Canvas) {
    for (class, cells, fill, outward) in [
        ("minimum", extremes.minimum(), "#dde8f5", false),
        ("maximum", extremes.maximum(), "#f5dede", true),
    ] {
        if cells.is_empty() {
            continue;
        }
        canvas.group(Layer::Shade, class, "", |frame, out| {
            put!(out, "<g fill=\"{fill}\">");
            frame.squares(cells.iter().copied(), out);
            out.push_str("</g><path fill=\"none\" stroke=\"#555\" stroke-width=\"2\" d=\"");
            for &cell in cells {
                chevrons(frame.centre(cell), outward, out);
            }
            out.push_str("\"/>");
        });
    }
}

/// Four chevrons around the centre `(x, y)`, one near each edge.
fn chevrons((x, y): (f64, f64), outward: bool, out: &mut String) {
    let reach = CELL / 2.0 - INSET;
    for (dx, dy) in [(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)] {
        // The chevron's point and the way it points.
        let sign = if outward { 1.0 } else { -1.0 };
        let (px, py) = (x + dx * reach, y + dy * reach);
        let (bx, by) = (px - sign * dx * ARM, py - sign * dy * ARM);
        put!(
            out,
            "M{} {}L{} {}L{} {}",
            N(bx - dy * ARM),
            N(by - dx * ARM),
            N(px),
            N(py),
            N(bx + dy * ARM),
            N(by + dx * ARM)
        );
    }
}
