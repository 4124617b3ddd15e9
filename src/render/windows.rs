//! Hyper windows: the four windows' cells shaded (a blue tint, so they read apart from a
//! diagonal's grey where both are played), read from the rules' house table.

use super::{Canvas, Layer};
use crate::engine::model::constraints::windows::WINDOW;
use crate::engine::{Rules, Unit};

pub(super) fn draw(rules: &Rules, canvas: &mut Canvas) {
    let cells: Vec<_> = (0..4)
        .flat_map(|index| {
            rules.cells_of(Unit {
                kind: WINDOW,
                index,
            })
        })
        .collect();
    canvas.group(
        Layer::Shade,
        "windows",
        " fill=\"#d7e5f4\"",
        |frame, out| {
            frame.squares(cells, out);
        },
    );
}
