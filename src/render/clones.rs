//! Clones: both groups of a clone shaded in the same light colour, each clone its own
//! colour from a small palette, under the digits.

use super::svg::put;
use super::{Canvas, Layer};
use crate::engine::model::constraints::clones::Clones;

const PALETTE: [&str; 4] = ["#fbe8b0", "#d7ecf7", "#e7dcf3", "#d9f0dc"];

pub(super) fn draw(clones: &Clones, canvas: &mut Canvas) {
    canvas.group(Layer::Shade, "clones", "", |frame, out| {
        for (k, (cells, copy)) in clones.pairs().enumerate() {
            put!(out, "<g fill=\"{}\">", PALETTE[k % PALETTE.len()]);
            frame.squares(cells.iter().chain(copy).copied(), out);
            out.push_str("</g>");
        }
    });
}
