//! PDF from the renderer's SVG: each picture is read into usvg's tree (the same tree the PNG
//! is painted from, text laid out in the compiled-in font) and written as PDF drawing
//! operators with pdf-writer; a document places any number of pictures on pages of any size
//! (one picture on a page of its own size for `/v1/render`, a booklet's puzzles on A4 or
//! Letter) and embeds the font once.
//!
//! Text stays text: every glyph is drawn from the embedded font (its CFF outlines, as a
//! CID-keyed font whose CIDs are the glyph ids), with widths and a `ToUnicode` map, so a
//! reader prints it sharp at any size and can search and copy it. The fonts are embedded
//! whole rather than subset (about 60 KB each once compressed, compressed once per process):
//! a subsetter is a large dependency, and a booklet embeds them once for all its pages.
//!
//! Only what the renderer draws is written: groups with transforms, paths filled and
//! stroked in plain colours (dashes, caps, joins), and text. Anything else a tree could hold
//! (gradients, patterns, images, clips, masks, filters, opacity) is a [`PdfError::Unsupported`],
//! never a silently different picture; the renderer's tests convert every family.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::sync::OnceLock;

use pdf_writer::types::{
    CidFontType, FontFlags, LineCapStyle, LineJoinStyle, SystemInfo, UnicodeCmap,
};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};
use resvg::tiny_skia::{PathSegment, Point};
use resvg::usvg::{self, fontdb, Group, LineCap, LineJoin, Node, Paint, PaintOrder, Transform};
use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, GlyphId, MetadataProvider, Tag};

use super::tree;

/// Points per SVG unit on a picture's own page: a CSS pixel is three quarters of a point, so
/// a 9x9 grid of 60-unit cells is 405 points (14.3 cm) wide.
pub const POINTS_PER_UNIT: f32 = 0.75;

/// Why a PDF could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// The SVG did not parse (never for the renderer's own).
    #[error("the SVG could not be read: {0}")]
    Svg(#[from] usvg::Error),
    /// The SVG holds something the writer does not draw (never for the renderer's own).
    #[error("the SVG uses {0}, which the PDF writer does not draw")]
    Unsupported(&'static str),
    /// A font of the database cannot be embedded (never for the compiled-in one).
    #[error("the font {0} cannot be embedded: {1}")]
    Font(String, &'static str),
}

/// A picture as PDF drawing operators, ready to be placed on a page.
#[derive(Debug, Clone)]
pub struct Drawing {
    /// The picture's size in SVG units.
    width: f32,
    height: f32,
    /// The operators, in SVG units with y pointing down (the placement flips it).
    content: Vec<u8>,
    /// The glyphs drawn, by the font's face index, each with the text it stands for.
    glyphs: Glyphs,
}

/// Glyph ids used, with their text, by face index in the font database.
type Glyphs = BTreeMap<usize, BTreeMap<u16, String>>;

impl Drawing {
    /// `svg` read and converted.
    pub fn new(svg: &str) -> Result<Drawing, PdfError> {
        let tree = tree::read(svg)?;
        let size = tree.size();
        let mut writer = Writer {
            content: Content::new(),
            glyphs: Glyphs::new(),
            fonts: tree.fontdb(),
            font: None,
        };
        writer.group(tree.root())?;
        Ok(Drawing {
            width: size.width(),
            height: size.height(),
            content: writer.content.finish().to_vec(),
            glyphs: writer.glyphs,
        })
    }

    /// The picture's width in SVG units.
    pub fn width(&self) -> f32 {
        self.width
    }

    /// The picture's height in SVG units.
    pub fn height(&self) -> f32 {
        self.height
    }

    /// The size of its operators in bytes: what writing it into a document costs.
    pub fn len(&self) -> usize {
        self.content.len()
    }

    /// Whether it draws nothing at all.
    pub fn is_empty(&self) -> bool {
        self.content.is_empty()
    }
}

/// Walks a tree and writes its operators.
struct Writer<'a> {
    content: Content,
    glyphs: Glyphs,
    fonts: &'a fontdb::Database,
    /// The face of the text object under way, so that a run of glyphs sets it once.
    font: Option<usize>,
}

/// A PDF matrix from a usvg transform.
fn matrix(t: Transform) -> [f32; 6] {
    [t.sx, t.ky, t.kx, t.sy, t.tx, t.ty]
}

/// The colour of a paint, each channel 0 to 1; a gradient or a pattern, or any opacity, is
/// not drawn.
fn colour(paint: &Paint, opacity: f32) -> Result<[f32; 3], PdfError> {
    if opacity < 1.0 {
        return Err(PdfError::Unsupported("opacity"));
    }
    match paint {
        Paint::Color(c) => Ok([c.red, c.green, c.blue].map(|v| f32::from(v) / 255.0)),
        Paint::LinearGradient(_) | Paint::RadialGradient(_) => {
            Err(PdfError::Unsupported("gradients"))
        }
        Paint::Pattern(_) => Err(PdfError::Unsupported("patterns")),
    }
}

/// The name a face goes by in content streams: `F` and its index in the database.
fn font_name(face: usize) -> String {
    format!("F{face}")
}

impl Writer<'_> {
    fn group(&mut self, group: &Group) -> Result<(), PdfError> {
        if group.clip_path().is_some() {
            return Err(PdfError::Unsupported("clip paths"));
        }
        if group.mask().is_some() {
            return Err(PdfError::Unsupported("masks"));
        }
        if !group.filters().is_empty() {
            return Err(PdfError::Unsupported("filters"));
        }
        if group.opacity().get() < 1.0 {
            return Err(PdfError::Unsupported("opacity"));
        }
        let transform = group.transform();
        let moved = !transform.is_identity();
        if moved {
            self.content.save_state();
            self.content.transform(matrix(transform));
        }
        for child in group.children() {
            match child {
                Node::Group(group) => self.group(group)?,
                Node::Path(path) => self.path(path)?,
                Node::Text(text) => self.text(text)?,
                Node::Image(_) => return Err(PdfError::Unsupported("images")),
            }
        }
        if moved {
            self.content.restore_state();
        }
        Ok(())
    }

    fn path(&mut self, path: &usvg::Path) -> Result<(), PdfError> {
        self.paint(path, true)
    }

    /// Draws `path`, its fill only when `filled` (a stroked text's halo has its outlines
    /// stroked here and its glyphs filled as text).
    fn paint(&mut self, path: &usvg::Path, filled: bool) -> Result<(), PdfError> {
        if !path.is_visible() {
            return Ok(());
        }
        let fill = path
            .fill()
            .filter(|_| filled)
            .map(|fill| Ok::<_, PdfError>((colour(fill.paint(), fill.opacity().get())?, fill)))
            .transpose()?;
        let stroke = path.stroke();
        self.content.save_state();
        if let Some(stroke) = stroke {
            let [r, g, b] = colour(stroke.paint(), stroke.opacity().get())?;
            self.content.set_stroke_rgb(r, g, b);
            self.content.set_line_width(stroke.width().get());
            self.content.set_line_cap(match stroke.linecap() {
                LineCap::Butt => LineCapStyle::ButtCap,
                LineCap::Round => LineCapStyle::RoundCap,
                LineCap::Square => LineCapStyle::ProjectingSquareCap,
            });
            self.content.set_line_join(match stroke.linejoin() {
                LineJoin::Miter | LineJoin::MiterClip => LineJoinStyle::MiterJoin,
                LineJoin::Round => LineJoinStyle::RoundJoin,
                LineJoin::Bevel => LineJoinStyle::BevelJoin,
            });
            self.content.set_miter_limit(stroke.miterlimit().get());
            if let Some(dashes) = stroke.dasharray() {
                self.content
                    .set_dash_pattern(dashes.iter().copied(), stroke.dashoffset());
            }
        }
        if let Some(([r, g, b], _)) = fill {
            self.content.set_fill_rgb(r, g, b);
        }
        let even_odd = fill.is_some_and(|(_, f)| f.rule() == usvg::FillRule::EvenOdd);
        match (fill.is_some(), stroke.is_some(), path.paint_order()) {
            (true, true, PaintOrder::StrokeAndFill) => {
                self.outline(path.data());
                self.content.stroke();
                self.outline(path.data());
                self.fill(even_odd);
            }
            (true, true, PaintOrder::FillAndStroke) => {
                self.outline(path.data());
                if even_odd {
                    self.content.fill_even_odd_and_stroke();
                } else {
                    self.content.fill_nonzero_and_stroke();
                }
            }
            (true, false, _) => {
                self.outline(path.data());
                self.fill(even_odd);
            }
            (false, true, _) => {
                self.outline(path.data());
                self.content.stroke();
            }
            (false, false, _) => {}
        }
        self.content.restore_state();
        Ok(())
    }

    fn fill(&mut self, even_odd: bool) {
        if even_odd {
            self.content.fill_even_odd();
        } else {
            self.content.fill_nonzero();
        }
    }

    /// The path's segments; quadratic curves become the cubic ones PDF has.
    fn outline(&mut self, data: &resvg::tiny_skia::Path) {
        let mut last = Point::zero();
        let mut start = Point::zero();
        for segment in data.segments() {
            match segment {
                PathSegment::MoveTo(p) => {
                    self.content.move_to(p.x, p.y);
                    (last, start) = (p, p);
                }
                PathSegment::LineTo(p) => {
                    self.content.line_to(p.x, p.y);
                    last = p;
                }
                PathSegment::QuadTo(q, p) => {
                    let third = |from: Point| {
                        Point::from_xy(
                            from.x + 2.0 / 3.0 * (q.x - from.x),
                            from.y + 2.0 / 3.0 * (q.y - from.y),
                        )
                    };
                    let (c1, c2) = (third(last), third(p));
                    self.content.cubic_to(c1.x, c1.y, c2.x, c2.y, p.x, p.y);
                    last = p;
                }
                PathSegment::CubicTo(c1, c2, p) => {
                    self.content.cubic_to(c1.x, c1.y, c2.x, c2.y, p.x, p.y);
                    last = p;
                }
                PathSegment::Close => {
                    self.content.close_path();
                    last = start;
                }
            }
        }
    }

    /// Text as glyphs of the embedded font, each placed by the transform usvg laid it out
    /// with (so anchors, squeezed titles and kerning come out as in the PNG).
    fn text(&mut self, text: &usvg::Text) -> Result<(), PdfError> {
        let spans = text.layouted();
        // A stroke under the glyphs (a halo: `paint-order="stroke"`) is drawn first, from the
        // glyph outlines usvg made; one over them, last.
        let stroked = spans.iter().any(|s| s.visible && s.stroke.is_some());
        let under = spans
            .iter()
            .all(|s| s.stroke.is_none() || s.paint_order == PaintOrder::StrokeAndFill);
        if stroked && under {
            self.strokes(text.flattened())?;
        }
        for span in spans {
            if !span.visible {
                continue;
            }
            for line in [&span.overline, &span.underline, &span.line_through]
                .into_iter()
                .flatten()
            {
                self.path(line)?;
            }
            let Some(fill) = &span.fill else { continue };
            let [r, g, b] = colour(fill.paint(), fill.opacity().get())?;
            self.content.begin_text();
            self.content.set_fill_rgb(r, g, b);
            self.font = None;
            for glyph in &span.positioned_glyphs {
                let (face, units) = self.face(glyph.font)?;
                // Identity-H codes are two bytes: the glyph id itself.
                let id = u16::try_from(glyph.id.0)
                    .map_err(|_| PdfError::Unsupported("glyph ids above 65535"))?;
                if self.font != Some(face) {
                    self.content.set_font(Name(font_name(face).as_bytes()), 1.0);
                    self.font = Some(face);
                }
                // One text space unit is `units` font units (the font program's own matrix):
                // the glyph's outline transform, scaled up by that much.
                let placed = glyph.outline_transform().pre_scale(units, units);
                self.content.set_text_matrix(matrix(placed));
                self.content.show(Str(&id.to_be_bytes()));
                self.glyphs
                    .entry(face)
                    .or_default()
                    .entry(id)
                    .or_insert_with(|| glyph.text.clone());
            }
            self.content.end_text();
        }
        if stroked && !under {
            self.strokes(text.flattened())?;
        }
        Ok(())
    }

    /// The strokes of the paths of `group` (a text's outlines), without their fills.
    fn strokes(&mut self, group: &Group) -> Result<(), PdfError> {
        let transform = group.transform();
        self.content.save_state();
        self.content.transform(matrix(transform));
        for child in group.children() {
            match child {
                Node::Group(group) => self.strokes(group)?,
                Node::Path(path) => self.paint(path, false)?,
                Node::Text(_) | Node::Image(_) => {}
            }
        }
        self.content.restore_state();
        Ok(())
    }

    /// The face index and units per em of the face `id`.
    fn face(&self, id: fontdb::ID) -> Result<(usize, f32), PdfError> {
        let index = self
            .fonts
            .faces()
            .position(|face| face.id == id)
            .ok_or(PdfError::Unsupported("a font outside the database"))?;
        let embedded = embedded(index)?;
        Ok((index, embedded.units_per_em))
    }
}

/// What a document needs of a face, read and compressed once per process.
#[derive(Debug)]
struct Embedded {
    post_script_name: String,
    units_per_em: f32,
    /// Advance widths of every glyph, in thousandths of an em.
    widths: Vec<f32>,
    /// Bounding box, ascent, descent and cap height, in thousandths of an em.
    bbox: [f32; 4],
    ascent: f32,
    descent: f32,
    cap_height: f32,
    italic_angle: f32,
    /// The `CFF ` table, deflated.
    cff: Vec<u8>,
}

/// Face `index` of the compiled-in font database, ready to embed.
fn embedded(index: usize) -> Result<&'static Embedded, PdfError> {
    static FACES: OnceLock<Vec<Result<Embedded, PdfError>>> = OnceLock::new();
    let faces = FACES.get_or_init(|| {
        let fonts = tree::fonts();
        fonts
            .faces()
            .map(|face| {
                fonts
                    .with_face_data(face.id, read_face)
                    .unwrap_or(Err("no data"))
                    .map_err(|why| PdfError::Font(face.post_script_name.clone(), why))
            })
            .collect()
    });
    match faces.get(index) {
        Some(Ok(face)) => Ok(face),
        Some(Err(PdfError::Font(name, why))) => Err(PdfError::Font(name.clone(), why)),
        _ => Err(PdfError::Unsupported("a font outside the database")),
    }
}

/// The metrics and outlines of a face of `data`.
fn read_face(data: &[u8], index: u32) -> Result<Embedded, &'static str> {
    let font = FontRef::from_index(data, index).map_err(|_| "not a font")?;
    let cff = font
        .table_data(Tag::new(b"CFF "))
        .ok_or("no CFF outlines")?;
    let metrics = font.metrics(Size::unscaled(), LocationRef::default());
    let units = f32::from(metrics.units_per_em);
    let milli = |v: f32| v * 1000.0 / units;
    let advances = font.glyph_metrics(Size::unscaled(), LocationRef::default());
    let widths = (0..metrics.glyph_count)
        .map(|g| milli(advances.advance_width(GlyphId::from(g)).unwrap_or(0.0)))
        .collect();
    let bbox = metrics.bounds.map_or(
        [0.0, milli(metrics.descent), 1000.0, milli(metrics.ascent)],
        |b| {
            [
                milli(b.x_min),
                milli(b.y_min),
                milli(b.x_max),
                milli(b.y_max),
            ]
        },
    );
    let name = font
        .localized_strings(skrifa::string::StringId::POSTSCRIPT_NAME)
        .english_or_first()
        .map(|s| {
            s.chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect::<String>()
        })
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("Font{index}"));
    Ok(Embedded {
        post_script_name: name,
        units_per_em: units,
        widths,
        bbox,
        ascent: milli(metrics.ascent),
        descent: milli(metrics.descent),
        cap_height: milli(metrics.cap_height.unwrap_or(metrics.ascent)),
        italic_angle: metrics.italic_angle,
        cff: deflate(cff.as_bytes()),
    })
}

/// `data` deflated (zlib, as PDF's `FlateDecode` reads it).
fn deflate(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(data.len() / 2),
        flate2::Compression::default(),
    );
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(data);
    encoder.finish().unwrap_or_default()
}

/// One page: its size in points and the drawings on it.
#[derive(Debug, Clone, Default)]
pub struct Sheet<'a> {
    pub width: f32,
    pub height: f32,
    pub placed: Vec<Placed<'a>>,
}

/// A drawing on a page: its top-left corner, in points from the page's top-left corner, and
/// the points per SVG unit it is drawn at.
#[derive(Debug, Clone, Copy)]
pub struct Placed<'a> {
    pub drawing: &'a Drawing,
    pub left: f32,
    pub top: f32,
    pub scale: f32,
}

/// A document of `sheets`, each a page, with `title` in its metadata; the fonts its drawings
/// use embedded once. The same sheets are always the same bytes (no dates, no random ids).
pub fn document(sheets: &[Sheet], title: Option<&str>) -> Result<Vec<u8>, PdfError> {
    let mut pdf = Pdf::new();
    let mut next = 0;
    let mut id = || {
        next += 1;
        Ref::new(next)
    };
    let (catalog, tree, info) = (id(), id(), id());
    // Every glyph of every drawing, by face.
    let mut used = Glyphs::new();
    for placed in sheets.iter().flat_map(|s| &s.placed) {
        for (face, glyphs) in &placed.drawing.glyphs {
            let all = used.entry(*face).or_default();
            for (glyph, text) in glyphs {
                all.entry(*glyph).or_insert_with(|| text.clone());
            }
        }
    }
    let fonts: Vec<(usize, Ref)> = used.keys().map(|&face| (face, id())).collect();
    let pages: Vec<(Ref, Ref)> = sheets.iter().map(|_| (id(), id())).collect();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids(pages.iter().map(|&(page, _)| page))
        .count(pages.len() as i32);
    let mut meta = pdf.document_info(info);
    meta.producer(TextStr("sudoku-service"));
    if let Some(title) = title {
        meta.title(TextStr(title));
    }
    meta.finish();
    for (sheet, &(page_id, content_id)) in sheets.iter().zip(&pages) {
        let mut page = pdf.page(page_id);
        page.parent(tree)
            .media_box(Rect::new(0.0, 0.0, sheet.width, sheet.height))
            .contents(content_id);
        let mut resources = page.resources();
        let mut names = resources.fonts();
        for &(face, font) in &fonts {
            names.pair(Name(font_name(face).as_bytes()), font);
        }
        names.finish();
        resources.finish();
        page.finish();
        let mut content = Vec::new();
        for placed in &sheet.placed {
            // Flip y and scale: the drawing's top-left corner lands at (left, top).
            let mut head = Content::new();
            head.save_state().transform([
                placed.scale,
                0.0,
                0.0,
                -placed.scale,
                placed.left,
                sheet.height - placed.top,
            ]);
            content.extend_from_slice(&head.finish());
            content.push(b'\n');
            content.extend_from_slice(&placed.drawing.content);
            content.push(b'\n');
            let mut tail = Content::new();
            tail.restore_state();
            content.extend_from_slice(&tail.finish());
            content.push(b'\n');
        }
        pdf.stream(content_id, &deflate(&content))
            .filter(Filter::FlateDecode);
    }
    for (&(face, font), glyphs) in fonts.iter().zip(used.values()) {
        embed(&mut pdf, &mut id, face, font, glyphs)?;
    }
    Ok(pdf.finish())
}

/// Writes face `face` as the Type 0 font `font`: a CID-keyed font over its CFF outlines
/// (the CIDs are glyph ids), the widths of the glyphs drawn, and their text for readers.
fn embed(
    pdf: &mut Pdf,
    id: &mut impl FnMut() -> Ref,
    face: usize,
    font: Ref,
    glyphs: &BTreeMap<u16, String>,
) -> Result<(), PdfError> {
    let embedded = embedded(face)?;
    let (cid, descriptor, file, cmap) = (id(), id(), id(), id());
    let name = Name(embedded.post_script_name.as_bytes());
    let system = SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"Identity"),
        supplement: 0,
    };
    pdf.type0_font(font)
        .base_font(name)
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid)
        .to_unicode(cmap);
    let mut cid_font = pdf.cid_font(cid);
    cid_font
        .subtype(CidFontType::Type0)
        .base_font(name)
        .system_info(system)
        .font_descriptor(descriptor)
        .default_width(0.0);
    let mut widths = cid_font.widths();
    for &glyph in glyphs.keys() {
        let width = embedded
            .widths
            .get(usize::from(glyph))
            .copied()
            .unwrap_or(0.0);
        widths.consecutive(glyph, [width]);
    }
    widths.finish();
    cid_font.finish();
    let [x0, y0, x1, y1] = embedded.bbox;
    pdf.font_descriptor(descriptor)
        .name(name)
        .flags(FontFlags::NON_SYMBOLIC)
        .bbox(Rect::new(x0, y0, x1, y1))
        .italic_angle(embedded.italic_angle)
        .ascent(embedded.ascent)
        .descent(embedded.descent)
        .cap_height(embedded.cap_height)
        .stem_v(80.0)
        .font_file3(file);
    pdf.stream(file, &embedded.cff)
        .filter(Filter::FlateDecode)
        .pair(Name(b"Subtype"), Name(b"CIDFontType0C"));
    let mut unicode = UnicodeCmap::new(Name(b"Custom"), system);
    for (&glyph, text) in glyphs {
        if !text.is_empty() {
            unicode.pair_with_multiple(glyph, text.chars());
        }
    }
    pdf.cmap(cmap, &deflate(&unicode.finish()))
        .filter(Filter::FlateDecode);
    Ok(())
}

/// `svg` on a page of its own size ([`POINTS_PER_UNIT`]), titled `title` in its metadata.
pub fn pdf(svg: &str, title: Option<&str>) -> Result<Vec<u8>, PdfError> {
    let drawing = Drawing::new(svg)?;
    let sheet = Sheet {
        width: drawing.width * POINTS_PER_UNIT,
        height: drawing.height * POINTS_PER_UNIT,
        placed: vec![Placed {
            drawing: &drawing,
            left: 0.0,
            top: 0.0,
            scale: POINTS_PER_UNIT,
        }],
    };
    document(&[sheet], title)
}
