//! Extra regions: their cells shaded a light green (distinct from the diagonals' grey and the
//! windows' blue where they meet), each region one group of squares.

use super::{Canvas, Layer};
use crate::engine::model::constraints::extra_regions::ExtraRegions;

pub(super) fn draw(regions: &ExtraRegions, canvas: &mut Canvas) {
    canvas.group(
        Layer::Shade,
        "extra-regions",
        " fill=\"#dcefd2\"",
        |frame, out| {
            for cells in regions.regions() {
                frame.squares(cells.iter().copied(), out);
            }
        },
    );
}
