//! Decoding lz-string's base64 form (what f-puzzles and SudokuPad links carry) with a limit
//! on what it may produce.
//!
//! Written here rather than taken from `lz-str` (which still does the encoding): the crate
//! has no output limit, and lz-string is a dictionary coder whose output grows with the
//! square of its input. 5,600 base64 characters, well inside a request body, decode to five
//! million characters, and took the crate 6.6 s of the async runtime's CPU and 80 MB per
//! request. This decoder stops at `limit` UTF-16 units, and keeps each dictionary entry as a
//! span of what it already wrote (every entry is one: a literal where it was written, or the
//! previous entry followed by the first unit written after it), so its memory is the output
//! and two integers per entry.

/// Why a string does not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeError {
    /// A character outside base64's alphabet.
    NotBase64,
    /// The data ends before its end mark, or names an entry the dictionary does not have.
    Malformed,
    /// It decodes to more than the limit.
    TooLong,
}

/// The UTF-16 units `text` (lz-string's base64 form) decodes to, at most `limit` of them.
pub fn decode_base64(text: &str, limit: usize) -> Result<Vec<u16>, DecodeError> {
    let mut bits = Bits::new(text.as_bytes())?;
    let mut out: Vec<u16> = Vec::new();
    // Spans of `out`; codes 0, 1 and 2 are the markers (an 8-bit literal, a 16-bit literal,
    // the end), so entries start at 3.
    let mut entries: Vec<(u32, u32)> = vec![(0, 0); 3];
    // The first code is two bits wide and must be a literal (or the end of an empty text).
    match bits.read(2)? {
        code @ (0 | 1) => {
            let unit = bits.read(if code == 0 { 8 } else { 16 })? as u16;
            push(&mut out, unit, limit)?;
        }
        2 => return Ok(out),
        _ => return Err(DecodeError::Malformed),
    }
    entries.push((0, 1));
    let mut previous = (0u32, 1u32);
    let mut width = 3u32;
    // Entries left to add before the code width grows by one bit.
    let mut until_wider = 4u32;
    loop {
        let code = bits.read(width)? as usize;
        let entry = match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 })? as u16;
                push(&mut out, unit, limit)?;
                let span = (out.len() as u32 - 1, 1);
                entries.push(span);
                added(&mut until_wider, &mut width);
                span
            }
            2 => return Ok(out),
            _ if code < entries.len() => {
                let (start, len) = entries[code];
                let at = out.len() as u32;
                copy_within(&mut out, start, len, limit)?;
                (at, len)
            }
            // The entry being defined: the previous one and its own first unit.
            _ if code == entries.len() => {
                let (start, len) = previous;
                let at = out.len() as u32;
                let first = out[start as usize];
                copy_within(&mut out, start, len, limit)?;
                push(&mut out, first, limit)?;
                (at, len + 1)
            }
            _ => return Err(DecodeError::Malformed),
        };
        // The previous entry and the first unit written after it: contiguous in `out`, as
        // `entry` was written right after `previous`.
        entries.push((previous.0, previous.1 + 1));
        added(&mut until_wider, &mut width);
        previous = entry;
    }
}

/// One more dictionary entry: the code width grows by a bit each time the entries double.
fn added(until_wider: &mut u32, width: &mut u32) {
    *until_wider -= 1;
    if *until_wider == 0 {
        *until_wider = 1 << *width;
        *width += 1;
    }
}

fn push(out: &mut Vec<u16>, unit: u16, limit: usize) -> Result<(), DecodeError> {
    if out.len() >= limit {
        return Err(DecodeError::TooLong);
    }
    out.push(unit);
    Ok(())
}

fn copy_within(out: &mut Vec<u16>, start: u32, len: u32, limit: usize) -> Result<(), DecodeError> {
    let (start, len) = (start as usize, len as usize);
    if out.len() + len > limit {
        return Err(DecodeError::TooLong);
    }
    out.extend_from_within(start..start + len);
    Ok(())
}

/// The bits of base64 text, each character's six bits high first.
struct Bits<'a> {
    text: &'a [u8],
    at: usize,
    /// The current character's value, and the mask of its next bit.
    value: u32,
    mask: u32,
}

impl<'a> Bits<'a> {
    fn new(text: &'a [u8]) -> Result<Bits<'a>, DecodeError> {
        if text.iter().any(|&c| sextet(c).is_none() && c != b'=') {
            return Err(DecodeError::NotBase64);
        }
        Ok(Bits {
            text,
            at: 0,
            value: 0,
            mask: 0,
        })
    }

    /// The next `count` bits as a number, the first read the lowest.
    fn read(&mut self, count: u32) -> Result<u32, DecodeError> {
        let mut number = 0;
        for place in 0..count {
            if self.mask == 0 {
                let &c = self.text.get(self.at).ok_or(DecodeError::Malformed)?;
                self.at += 1;
                // `=` is padding: zero bits, as lz-string's own decoder reads it.
                self.value = sextet(c).unwrap_or(0);
                self.mask = 32;
            }
            if self.value & self.mask != 0 {
                number |= 1 << place;
            }
            self.mask >>= 1;
        }
        Ok(number)
    }
}

/// A base64 character's value.
fn sextet(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn decodes_what_the_encoder_wrote() {
        for text in [
            "a",
            "hello, hello, hello",
            "{\"size\":9,\"grid\":[[{},{\"value\":5,\"given\":true}]]}",
            "ünïcödé ✓ 数独",
            &"abcabcabcabd".repeat(300),
            &"a".repeat(10_000),
        ] {
            let encoded = lz_str::compress_to_base64(text);
            assert_eq!(
                decode_base64(&encoded, 1 << 20),
                Ok(wide(text)),
                "{text:.40}"
            );
        }
    }

    #[test]
    fn the_empty_string_decodes_to_nothing() {
        let encoded = lz_str::compress_to_base64("");
        assert_eq!(decode_base64(&encoded, 10), Ok(Vec::new()));
    }

    #[test]
    fn stops_at_the_limit_however_far_the_data_goes() {
        let encoded = lz_str::compress_to_base64("a".repeat(1_000_000).as_str());
        assert!(encoded.len() < 3_000);
        assert_eq!(decode_base64(&encoded, 10_000), Err(DecodeError::TooLong));
        let text = "x".repeat(10_000);
        let exact = lz_str::compress_to_base64(text.as_str());
        assert_eq!(decode_base64(&exact, 10_000), Ok(wide(&text)));
        assert_eq!(decode_base64(&exact, 9_999), Err(DecodeError::TooLong));
    }

    #[test]
    fn refuses_what_is_not_lz_string() {
        assert_eq!(
            decode_base64("not lz-string", 100),
            Err(DecodeError::NotBase64)
        );
        let encoded = lz_str::compress_to_base64("a long enough text to cut short");
        assert_eq!(
            decode_base64(&encoded[..encoded.len() / 2], 100),
            Err(DecodeError::Malformed)
        );
        // A code far beyond the dictionary.
        assert_eq!(decode_base64("////", 100), Err(DecodeError::Malformed));
    }
}
