//! Clues outside the grid: sandwich sums, X-sums and skyscraper counts written beside the
//! row or column they face, and little killer sums at the corner their diagonal starts
//! from, with a small arrow along it. The caption names which kind a number is.

use super::svg::{put, N};
use super::{Canvas, Frame, Layer, CELL};
use crate::engine::model::constraints::little_killers::{Direction, LittleKillers};
use crate::engine::{Cell, Outside, Side};

const FONT: f64 = 0.42 * CELL;
const SMALL_FONT: f64 = 0.32 * CELL;

/// Where the clue for `at` is written: the centre of the cell it would be in, one step off
/// the grid.
fn place(frame: &Frame, at: Outside) -> (f64, f64) {
    let side = frame.side;
    let (row, col) = match at.side {
        Side::Left => (at.index as f64, -1.0),
        Side::Right => (at.index as f64, side as f64),
        Side::Top => (-1.0, at.index as f64),
        Side::Bottom => (side as f64, at.index as f64),
    };
    (
        frame.left + (col + 0.5) * CELL,
        frame.top + (row + 0.5) * CELL,
    )
}

/// Writes `clues` (place and number) as the group `class`, and names them in the caption.
pub(super) fn numbers(
    class: &str,
    caption: &'static str,
    clues: impl Iterator<Item = (Outside, u32)>,
    canvas: &mut Canvas,
) {
    canvas.group(
        Layer::Digits,
        class,
        " text-anchor=\"middle\" fill=\"#000\"",
        |frame, out| {
            for (at, value) in clues {
                let (x, y) = place(frame, at);
                put!(
                    out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\">{value}</text>",
                    N(x),
                    N(y + 0.35 * FONT),
                    N(FONT)
                );
            }
        },
    );
    canvas.caption(caption);
}

/// Little killer sums, each at the outside corner before its diagonal's first cell, with an
/// arrow pointing along the diagonal.
pub(super) fn little_killers(clues: &LittleKillers, canvas: &mut Canvas) {
    canvas.group(
        Layer::Digits,
        "little-killers",
        " text-anchor=\"middle\" fill=\"#000\"",
        |frame, out| {
            for (cells, direction, sum) in clues.clues() {
                let start: Cell = cells[0];
                let (dr, dc) = direction.step();
                let (sx, sy) = frame.centre(start);
                let (x, y) = (sx - dc as f64 * CELL, sy - dr as f64 * CELL);
                put!(
                    out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\">{sum}</text>",
                    N(x - dc as f64 * 0.1 * CELL),
                    N(y - dr as f64 * 0.1 * CELL + 0.35 * SMALL_FONT),
                    N(SMALL_FONT)
                );
                let (ax, ay) = (x + dc as f64 * 0.3 * CELL, y + dr as f64 * 0.3 * CELL);
                let (bx, by) = (x + dc as f64 * 0.45 * CELL, y + dr as f64 * 0.45 * CELL);
                let head = arrowhead(direction, (bx, by));
                put!(
                    out,
                    "<path class=\"arrow\" d=\"M{} {}L{} {}{head}\" fill=\"none\" stroke=\"#000\" \
                     stroke-width=\"1.5\"/>",
                    N(ax),
                    N(ay),
                    N(bx),
                    N(by)
                );
            }
        },
    );
    canvas.caption("Little killer sums along the arrows");
}

/// The two short strokes of an arrowhead at `tip`, pointing `direction`.
fn arrowhead(direction: Direction, (x, y): (f64, f64)) -> String {
    let (dr, dc) = direction.step();
    let size = 0.1 * CELL;
    let (back_x, back_y) = (-dc as f64 * size, -dr as f64 * size);
    format!(
        "M{} {}L{} {}L{} {}",
        N(x + back_x),
        N(y),
        N(x),
        N(y),
        N(x),
        N(y + back_y)
    )
}
