//! The renderer's SVG read back by usvg into a tree of paths and laid-out text: what the PNG
//! painter and the PDF writer both draw from. The font is compiled in (Cantarell, SIL OFL 1.1:
//! `assets/fonts/`), so every replica lays out and paints the same glyphs whatever fonts its
//! machine has; images and other files an SVG could name are never loaded (the renderer's SVG
//! names none, and this keeps it so).

use std::sync::{Arc, OnceLock};

use resvg::usvg::{fontdb, ImageHrefResolver, Options, Tree};

/// The font of every text in a picture, regular and bold.
const FONT_REGULAR: &[u8] = include_bytes!("../../assets/fonts/Cantarell-Regular.otf");
const FONT_BOLD: &[u8] = include_bytes!("../../assets/fonts/Cantarell-Bold.otf");

/// The font database: the compiled-in font, loaded once per process. Its face ids are the
/// same for every tree read in the process (every tree shares this database).
pub(crate) fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_font_data(FONT_REGULAR.to_vec());
            db.load_font_data(FONT_BOLD.to_vec());
            db.set_sans_serif_family("Cantarell");
            Arc::new(db)
        })
        .clone()
}

/// `svg` parsed, its text laid out in the compiled-in font.
pub(crate) fn read(svg: &str) -> Result<Tree, resvg::usvg::Error> {
    let options = Options {
        fontdb: fonts(),
        font_family: "Cantarell".into(),
        image_href_resolver: ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..Options::default()
    };
    Tree::from_str(svg, &options)
}
