//! Killer cages: a dashed outline inset from the cell edges (so neighbouring cages and the
//! box borders stay apart), the sum small in the top-left corner of the cage's first cell on
//! a white patch that interrupts the dashes.

use super::svg::{put, N};
use super::{Canvas, Frame, Layer, CELL};
use crate::engine::Cages;
use crate::engine::Cell;

/// How far the outline lies inside the cells' edges.
const INSET: f64 = 5.0;
/// The sum's font size.
pub(super) const SUM_FONT: f64 = 13.0;

pub(super) fn draw(cages: &Cages, canvas: &mut Canvas) {
    if cages.is_empty() {
        return;
    }
    canvas.labelled.extend(
        cages
            .cages()
            .iter()
            .filter_map(|cage| cage.cells().first().copied()),
    );
    let attributes = " fill=\"none\" stroke=\"#000\" stroke-width=\"1.2\" stroke-dasharray=\"4 3\"";
    canvas.group(Layer::Marks, "cages", attributes, |frame, out| {
        for cage in cages.cages() {
            let cells = cage.cells();
            out.push_str("<path d=\"");
            outline(frame, cells, out);
            out.push_str("\"/>");
        }
        // The sums after every outline, so that no outline crosses a sum's patch.
        for cage in cages.cages() {
            // A cage without a sum is its outline alone.
            let (Some(&first), Some(sum)) = (cage.cells().first(), cage.sum()) else {
                continue;
            };
            let sum = sum.to_string();
            let (x, y) = (frame.x(first.col()) + 2.0, frame.y(first.row()) + 2.0);
            let width = sum.len() as f64 * 0.62 * SUM_FONT + 3.0;
            put!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fff\" \
                 stroke=\"none\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"#000\" \
                 stroke=\"none\">{sum}</text>",
                N(x),
                N(y),
                N(width),
                N(SUM_FONT + 1.0),
                N(x + 1.5),
                N(y + SUM_FONT * 0.9),
                N(SUM_FONT)
            );
        }
    });
}

/// The cage's outline, `INSET` inside its boundary, as path segments: for each cell edge
/// on the boundary a segment along it, ending short of a convex corner, running through to
/// the neighbour's segment along a straight boundary, and reaching past the edge into a
/// concave corner, where it meets the perpendicular segment of the cell diagonally across.
fn outline(frame: &Frame, cells: &[Cell], out: &mut String) {
    let inside = |row: isize, col: isize| {
        row >= 0 && col >= 0 && cells.contains(&Cell::at(row as usize, col as usize))
    };
    // How far a segment's end moves past the cell's corner: inward at a convex corner,
    // outward at a concave one, not at all along a straight boundary.
    let end = |along: bool, diagonal: bool| match (along, diagonal) {
        (false, _) => INSET,
        (true, true) => -INSET,
        (true, false) => 0.0,
    };
    for &cell in cells {
        let (r, c) = (cell.row() as isize, cell.col() as isize);
        let (left, top) = (frame.x(cell.col()), frame.y(cell.row()));
        let (right, bottom) = (left + CELL, top + CELL);
        // Each side: the outside neighbour's offset, and the two ends' neighbours along it.
        if !inside(r - 1, c) {
            let a = left + end(inside(r, c - 1), inside(r - 1, c - 1));
            let b = right - end(inside(r, c + 1), inside(r - 1, c + 1));
            put!(out, "M{} {}H{}", N(a), N(top + INSET), N(b));
        }
        if !inside(r + 1, c) {
            let a = left + end(inside(r, c - 1), inside(r + 1, c - 1));
            let b = right - end(inside(r, c + 1), inside(r + 1, c + 1));
            put!(out, "M{} {}H{}", N(a), N(bottom - INSET), N(b));
        }
        if !inside(r, c - 1) {
            let a = top + end(inside(r - 1, c), inside(r - 1, c - 1));
            let b = bottom - end(inside(r + 1, c), inside(r + 1, c - 1));
            put!(out, "M{} {}V{}", N(left + INSET), N(a), N(b));
        }
        if !inside(r, c + 1) {
            let a = top + end(inside(r - 1, c), inside(r - 1, c + 1));
            let b = bottom - end(inside(r + 1, c), inside(r + 1, c + 1));
            put!(out, "M{} {}V{}", N(right - INSET), N(a), N(b));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> Frame {
        Frame {
            side: 9,
            left: 0.0,
            top: 0.0,
        }
    }

    #[test]
    fn a_single_cell_is_a_square_inset_on_every_side() {
        let mut out = String::new();
        outline(&frame(), &[Cell::at(0, 0)], &mut out);
        assert_eq!(out, "M5 5H55M5 55H55M5 5V55M55 5V55");
    }

    #[test]
    fn a_straight_boundary_runs_through_and_a_concave_corner_reaches_across() {
        // An L: (0,0), (1,0), (1,1). The top of (1,1) meets the right side of (0,0) at the
        // concave corner (55, 65).
        let cells = [Cell::at(0, 0), Cell::at(1, 0), Cell::at(1, 1)];
        let mut out = String::new();
        outline(&frame(), &cells, &mut out);
        assert!(out.contains("M55 5V65"), "{out}");
        assert!(out.contains("M55 65H115"), "{out}");
        // The bottom of (1,0) runs on into (1,1)'s: no gap at x = 60.
        assert!(out.contains("M5 115H60"), "{out}");
        assert!(out.contains("M60 115H115"), "{out}");
    }
}
