//! The grid itself: thin lines between cells (rows and columns, every puzzle's first family),
//! and thick borders wherever two neighbouring cells lie in different boxes or Jigsaw regions,
//! read from the rules' `region_of`, so boxes and regions are one drawing.

use super::svg::{put, N};
use super::{Canvas, Layer};
use crate::engine::{Cell, Rules};

/// Stroke widths: a cell line, a box or region border (the outer border too).
const THIN: f64 = 1.0;
const THICK: f64 = 3.5;

/// Every line between two cells, as one path.
pub(super) fn cells(canvas: &mut Canvas) {
    let attributes = format!(
        " fill=\"none\" stroke=\"#777\" stroke-width=\"{}\"",
        N(THIN)
    );
    canvas.group(Layer::Lines, "cells", &attributes, |frame, out| {
        out.push_str("<path d=\"");
        for i in 1..frame.side {
            put!(
                out,
                "M{} {}V{}M{} {}H{}",
                N(frame.x(i)),
                N(frame.y(0)),
                N(frame.y(frame.side)),
                N(frame.x(0)),
                N(frame.y(i)),
                N(frame.x(frame.side))
            );
        }
        out.push_str("\"/>");
    });
}

/// The outer border and every cell edge between two regions (boxes or Jigsaw regions), as
/// one path; runs of edges along a line are joined into one segment.
pub(super) fn regions(rules: &Rules, canvas: &mut Canvas) {
    let attributes = format!(
        " fill=\"none\" stroke=\"#000\" stroke-width=\"{}\" stroke-linecap=\"square\"",
        N(THICK)
    );
    canvas.group(Layer::Lines, "regions", &attributes, |frame, out| {
        let side = frame.side;
        let region = |row: usize, col: usize| rules.region_of(Cell::at(row, col));
        put!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\"/>",
            N(frame.x(0)),
            N(frame.y(0)),
            s = N(frame.span())
        );
        out.push_str("<path d=\"");
        // Vertical borders: between columns `col - 1` and `col`, a run of rows.
        for col in 1..side {
            let border = |row: usize| region(row, col - 1) != region(row, col);
            for (start, end) in runs(side, border) {
                put!(
                    out,
                    "M{} {}V{}",
                    N(frame.x(col)),
                    N(frame.y(start)),
                    N(frame.y(end))
                );
            }
        }
        // Horizontal borders: between rows `row - 1` and `row`, a run of columns.
        for row in 1..side {
            let border = |col: usize| region(row - 1, col) != region(row, col);
            for (start, end) in runs(side, border) {
                put!(
                    out,
                    "M{} {}H{}",
                    N(frame.x(start)),
                    N(frame.y(row)),
                    N(frame.x(end))
                );
            }
        }
        out.push_str("\"/>");
    });
}

/// The runs `start..end` of consecutive indices below `len` for which `on` holds.
fn runs(len: usize, on: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut start = None;
    for i in 0..=len {
        match (i < len && on(i), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                found.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::runs;

    #[test]
    fn runs_join_consecutive_edges() {
        assert_eq!(runs(9, |i| (3..6).contains(&i)), vec![(3, 6)]);
        assert_eq!(runs(4, |i| i != 1), vec![(0, 1), (2, 4)]);
        assert!(runs(5, |_| false).is_empty());
    }
}
