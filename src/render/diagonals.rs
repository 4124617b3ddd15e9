//! Sudoku X: the cells of both main diagonals shaded, read from the rules' house table.

use super::{Canvas, Layer};
use crate::engine::model::constraints::diagonals::DIAGONAL;
use crate::engine::{Rules, Unit};

pub(super) fn draw(rules: &Rules, canvas: &mut Canvas) {
    let cells: Vec<_> = (0..2)
        .flat_map(|index| {
            rules.cells_of(Unit {
                kind: DIAGONAL,
                index,
            })
        })
        .collect();
    canvas.group(
        Layer::Shade,
        "diagonals",
        " fill=\"#e6e6e6\"",
        |frame, out| {
            frame.squares(cells, out);
        },
    );
}
