//! PNG from the SVG, through resvg (usvg parses, tiny-skia paints). resvg is the maintained
//! pure-Rust SVG rasteriser: no system library, no font lookup on the host; the tree it paints
//! is read with the compiled-in font ([`tree`](super::tree)), so every replica paints the
//! same pixels.
//!
//! The pixmap is encoded here rather than by tiny-skia's `encode_png`, which deflates at the
//! balanced level and keeps the alpha channel: at 600 pixels that took two thirds of the
//! picture's time (about 9 ms of 15). The picture is opaque (the renderer paints a white
//! background), so it is written as RGB, each row filtered adaptively and deflated at level 1:
//! 1.4-3 ms at 600 pixels, for a file 1.3-1.5 times the balanced level's (a 9x9 puzzle 22 KB
//! rather than 14 KB; 16x16 pencil marks 116 KB rather than 81 KB). The png crate's fastest
//! mode was faster still but made files 3-7 times larger.

use resvg::tiny_skia::{Pixmap, Transform};

use std::io::Write;

use png::{BitDepth, ColorType, DeflateCompression, Encoder, Filter};

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
    encode(&pixmap)
}

/// `pixmap` as PNG bytes: RGB when every pixel is opaque, else RGBA (tiny-skia keeps colours
/// premultiplied by alpha; PNG wants them straight). Rows are converted one at a time into a
/// buffer the encoder streams from, rather than into a copy of the whole picture: a second
/// megabyte-sized buffer per picture was a fresh allocation to fault in each time.
fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, PngError> {
    let opaque = pixmap.pixels().iter().all(|p| p.alpha() == u8::MAX);
    let (color, channels) = if opaque {
        (ColorType::Rgb, 3)
    } else {
        (ColorType::Rgba, 4)
    };
    let width = pixmap.width() as usize;
    let mut bytes = Vec::new();
    let mut encoder = Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
    encoder.set_color(color);
    encoder.set_depth(BitDepth::Eight);
    encoder.set_deflate_compression(DeflateCompression::Level(1));
    encoder.set_filter(Filter::Adaptive);
    let encoding = |e: png::EncodingError| PngError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(encoding)?;
    let mut stream = writer.stream_writer().map_err(encoding)?;
    let mut row = Vec::with_capacity(width * channels);
    for pixels in pixmap.pixels().chunks_exact(width) {
        row.clear();
        if opaque {
            for pixel in pixels {
                row.extend_from_slice(&[pixel.red(), pixel.green(), pixel.blue()]);
            }
        } else {
            for pixel in pixels.iter().map(|p| p.demultiply()) {
                row.extend_from_slice(&[pixel.red(), pixel.green(), pixel.blue(), pixel.alpha()]);
            }
        }
        stream
            .write_all(&row)
            .map_err(|e| PngError::Encode(e.to_string()))?;
    }
    stream.finish().map_err(encoding)?;
    writer.finish().map_err(encoding)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use resvg::tiny_skia::{Color, Pixmap};

    use super::encode;

    /// Encodes a pixmap filled with `color` and decodes it back.
    fn round_trip(color: Color) -> (Pixmap, Vec<u8>) {
        let mut pixmap = Pixmap::new(7, 5).unwrap();
        pixmap.fill(color);
        let bytes = encode(&pixmap).unwrap();
        (Pixmap::decode_png(&bytes).unwrap(), bytes)
    }

    #[test]
    fn an_opaque_picture_is_written_without_alpha_and_reads_back_the_same() {
        let (decoded, bytes) = round_trip(Color::from_rgba8(30, 120, 200, 255));
        // The IHDR's colour type byte (offset 25): 2 is RGB.
        assert_eq!(bytes[25], 2);
        assert_eq!((decoded.width(), decoded.height()), (7, 5));
        let pixel = decoded.pixel(3, 2).unwrap();
        assert_eq!(
            (pixel.red(), pixel.green(), pixel.blue(), pixel.alpha()),
            (30, 120, 200, 255)
        );
    }

    #[test]
    fn a_translucent_picture_keeps_its_alpha_and_straight_colours() {
        let (decoded, bytes) = round_trip(Color::from_rgba8(200, 100, 0, 128));
        // 6 is RGBA.
        assert_eq!(bytes[25], 6);
        let straight = decoded.pixel(0, 0).unwrap().demultiply();
        assert_eq!(straight.alpha(), 128);
        // Premultiplying and back loses at most a step of rounding.
        assert!(straight.red().abs_diff(200) <= 1, "{}", straight.red());
        assert!(straight.green().abs_diff(100) <= 1, "{}", straight.green());
        assert_eq!(straight.blue(), 0);
    }
}
