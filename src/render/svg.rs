//! The few pieces of SVG text every family's drawing writes: numbers in one fixed form (so the
//! same puzzle is always the same bytes), text escaped for XML, and user text bounded.

use std::fmt;

/// Appends formatted text to a `String`. Writing to a `String` cannot fail, so the
/// `fmt::Result` is dropped here once rather than at every call.
macro_rules! put {
    ($out:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = write!($out, $($arg)*);
    }};
}
pub(super) use put;

/// A coordinate or length as SVG text: an integer when it is one, else one decimal. One
/// decimal is finer than any pixel the sizes served reach, and a fixed form keeps the output
/// byte-for-byte stable (no float printing that depends on how a value was reached).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct N(pub f64);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = (self.0 * 10.0).round() as i64;
        if tenths % 10 == 0 {
            write!(f, "{}", tenths / 10)
        } else {
            let sign = if tenths < 0 { "-" } else { "" };
            let abs = tenths.unsigned_abs();
            write!(f, "{sign}{}.{}", abs / 10, abs % 10)
        }
    }
}

/// The most characters of a title or author line drawn; the rest is cut with an ellipsis.
pub const MAX_TEXT: usize = 100;

/// `text` as one line a picture may show: characters XML 1.0 cannot hold (controls other
/// than tab, line feed and carriage return; U+FFFE and U+FFFF) and line breaks become
/// spaces, the ends are trimmed, and at most [`MAX_TEXT`] characters are kept (an ellipsis
/// marks a cut). Not yet escaped: see [`Escaped`].
pub fn one_line(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .map(|c| match c {
            '\u{0}'..='\u{1f}' | '\u{7f}' | '\u{fffe}' | '\u{ffff}' => ' ',
            c => c,
        })
        .collect();
    let trimmed = cleaned.trim();
    if trimmed.chars().count() <= MAX_TEXT {
        return trimmed.to_string();
    }
    let mut cut: String = trimmed.chars().take(MAX_TEXT - 1).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
}

/// Text written with the five characters XML gives meaning to escaped, safe both as element
/// content and inside a quoted attribute.
pub(super) struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..at])?;
            f.write_str(match rest.as_bytes()[at] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&apos;",
            })?;
            rest = &rest[at + 1..];
        }
        f.write_str(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_integers_or_one_decimal() {
        assert_eq!(N(30.0).to_string(), "30");
        assert_eq!(N(7.25).to_string(), "7.3");
        assert_eq!(N(-2.5).to_string(), "-2.5");
        assert_eq!(N(-0.04).to_string(), "0");
        assert_eq!(N(0.1 + 0.2).to_string(), "0.3");
    }

    #[test]
    fn the_five_xml_characters_are_escaped() {
        let text = Escaped(r#"<a href="x">Tom & Jerry's</a>"#).to_string();
        assert_eq!(
            text,
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;"
        );
        assert_eq!(Escaped("plain — ünïcode").to_string(), "plain — ünïcode");
    }

    #[test]
    fn user_text_becomes_one_bounded_line_of_xml_characters() {
        assert_eq!(
            one_line("  two\nlines\u{0}\u{7}here \u{fffe} "),
            "two lines  here"
        );
        let long = "é".repeat(MAX_TEXT + 50);
        let cut = one_line(&long);
        assert_eq!(cut.chars().count(), MAX_TEXT);
        assert!(cut.ends_with('…'));
        let exact = "a".repeat(MAX_TEXT);
        assert_eq!(one_line(&exact), exact);
    }
}
