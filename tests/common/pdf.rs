//! What the black-box tests check of a PDF without a PDF library: the header and trailer, the
//! pages (page objects, and the page tree's count agreeing), and that every font is embedded
//! (each font descriptor has its font program). `pdfinfo` and `pdffonts` say the same of the
//! service's PDFs (README, ARCHITECTURE); these checks keep it so without them installed.

/// A PDF's page count and how many fonts it describes, each embedded; panics when the bytes
/// are no complete PDF, the counts disagree, or a font is not embedded.
pub fn inspect(bytes: &[u8]) -> Inspected {
    let text = String::from_utf8_lossy(bytes);
    assert!(
        text.starts_with("%PDF-1."),
        "no PDF header: {:?}",
        &text[..20.min(text.len())]
    );
    assert!(text.trim_end().ends_with("%%EOF"), "no PDF trailer");
    assert!(text.contains("startxref"), "no cross-reference table");
    let objects = |kind: &str| {
        text.match_indices(&format!("/Type /{kind}"))
            .filter(|(at, found)| {
                // `/Type /Page` must not count `/Type /Pages`.
                !text[at + found.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
            })
            .count()
    };
    let pages = objects("Page");
    let counted: usize = text
        .split("/Count ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .expect("a page tree with a /Count");
    assert_eq!(pages, counted, "page objects and the page tree's /Count");
    let fonts = objects("FontDescriptor");
    let programs = ["/FontFile ", "/FontFile2 ", "/FontFile3 "]
        .iter()
        .map(|key| text.matches(key).count())
        .sum::<usize>();
    assert_eq!(
        fonts, programs,
        "every font descriptor embeds its font program"
    );
    Inspected { pages, fonts }
}

/// What [`inspect`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inspected {
    pub pages: usize,
    pub fonts: usize,
}
