//! Thermometers: a round bulb on the first cell and a tube through the centres of the rest,
//! grey under the digits; a slow thermometer (digits never decrease) has a square bulb, so
//! the two kinds read apart.

use super::lines::polyline;
use super::svg::{put, N};
use super::{Canvas, Layer, CELL};
use crate::engine::model::constraints::thermometers::Thermometers;

const BULB: f64 = 0.38 * CELL;
const TUBE: f64 = 0.3 * CELL;

pub(super) fn draw(thermometers: &Thermometers, canvas: &mut Canvas) {
    let attributes = format!(
        " fill=\"none\" stroke=\"#c4c4c4\" stroke-width=\"{}\" stroke-linecap=\"round\" \
         stroke-linejoin=\"round\"",
        N(TUBE)
    );
    canvas.group(Layer::Shade, "thermometers", &attributes, |frame, out| {
        for (cells, slow) in thermometers.lines() {
            polyline(frame, cells, out);
            let Some(&bulb) = cells.first() else {
                continue;
            };
            let (x, y) = frame.centre(bulb);
            if slow {
                put!(
                    out,
                    "<rect class=\"bulb slow\" x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" \
                     rx=\"{}\" fill=\"#c4c4c4\" stroke=\"none\"/>",
                    N(x - BULB),
                    N(y - BULB),
                    N(BULB / 3.0),
                    s = N(2.0 * BULB)
                );
            } else {
                put!(
                    out,
                    "<circle class=\"bulb\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#c4c4c4\" \
                     stroke=\"none\"/>",
                    N(x),
                    N(y),
                    N(BULB)
                );
            }
        }
    });
}
