//! PNG from the SVG, through resvg (usvg parses, tiny-skia paints). resvg is the maintained
//! pure-Rust SVG rasteriser: no system library, no font lookup on the host; the tree it paints
//! is read with the compiled-in font ([`tree`](super::tree)), so every replica paints the
//! same pixels.

use resvg::tiny_skia::{Pixmap, Transform};

use super::tree;

/// Why a PNG could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG did not parse (never for the renderer's own).
    #[error("the SVG could not be read: {0}")]
    Svg(#[from] resvg::usvg::Error),
    /// The picture would be wider or taller than a pixmap can be (or zero pixels).
    #[error("a picture of {width}x{height} pixels cannot be made")]
    Size { width: u32, height: u32 },
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
}

/// The height of a picture `width` pixels wide whose SVG is `svg_width` by `svg_height`
/// units: the same scale both ways, rounded up.
pub fn height_for(width: u32, svg_width: f32, svg_height: f32) -> u32 {
    (svg_height * width as f32 / svg_width).ceil() as u32
}

/// `svg` painted `width` pixels wide (the height in proportion), as PNG bytes.
pub fn png(svg: &str, width: u32) -> Result<Vec<u8>, PngError> {
    let tree = tree::read(svg)?;
    let size = tree.size();
    let height = height_for(width, size.width(), size.height());
    let mut pixmap = Pixmap::new(width, height).ok_or(PngError::Size { width, height })?;
    let scale = width as f32 / size.width();
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}
