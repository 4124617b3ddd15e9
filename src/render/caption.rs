//! The rules a picture cannot draw, named in a caption under the grid: anti-king,
//! anti-knight, non-consecutive, disjoint groups, and the negative constraints of the dots (every dot of a
//! kind is shown, so no other neighbours are in its relation).

use super::Canvas;
use crate::engine::model::constraints::dots::Dots;
use crate::engine::Negative;

pub(super) const ANTI_KING: &str = "Anti-king";
pub(super) const ANTI_KNIGHT: &str = "Anti-knight";
pub(super) const NON_CONSECUTIVE: &str = "Non-consecutive";
pub(super) const DISJOINT_GROUPS: &str = "Disjoint groups";
pub(super) const SANDWICHES: &str = "Sandwich sums between 1 and the largest digit";
pub(super) const X_SUMS: &str = "X-sums";
pub(super) const SKYSCRAPERS: &str = "Skyscrapers";

/// The caption's font size, and the height it adds under the grid.
pub(super) const FONT: f64 = 18.0;
pub(super) const HEIGHT: f64 = 30.0;

/// Names each negative constraint of `dots`.
pub(super) fn negative(dots: &Dots, canvas: &mut Canvas) {
    for kind in dots.negative() {
        canvas.caption(match kind {
            Negative::White => "All white dots shown",
            Negative::Black => "All black dots shown",
            Negative::Xv => "All X and V shown",
        });
    }
}
