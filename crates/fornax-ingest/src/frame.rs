//! Bounded record framing.
//!
//! [`LineFramer`] streams complete lines out of a reader starting at a byte offset. Memory is
//! bounded by the largest record allowed: a longer line is counted as oversized and skipped
//! without being buffered. A last line without its newline is not a record yet: the cursor
//! stops before it, so an append that completes it is read next time.

use std::io::{BufRead, BufReader, Read};

/// One complete line, without its terminator (`\n` or `\r\n`).
#[derive(Debug)]
pub struct Line<'a> {
    /// Byte offset of the first byte of the line.
    pub start: u64,
    pub bytes: &'a [u8],
}

#[derive(Debug)]
pub enum Framed<'a> {
    Line(Line<'a>),
    /// A line longer than the limit, skipped. `start..end` is its range.
    Oversized {
        start: u64,
        end: u64,
    },
}

pub struct LineFramer<R: Read> {
    reader: BufReader<R>,
    /// Offset of the next unread byte.
    offset: u64,
    /// Offset just past the last complete line (the cursor).
    consumed: u64,
    max_record: usize,
    buf: Vec<u8>,
}

impl<R: Read> std::fmt::Debug for LineFramer<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineFramer")
            .field("offset", &self.offset)
            .field("consumed", &self.consumed)
            .finish()
    }
}

impl<R: Read> LineFramer<R> {
    /// `offset` is where `reader` is positioned in the underlying file.
    pub fn new(reader: R, offset: u64, max_record: usize) -> Self {
        LineFramer {
            reader: BufReader::with_capacity(256 * 1024, reader),
            offset,
            consumed: offset,
            max_record,
            buf: Vec::new(),
        }
    }

    /// Offset just past the last complete line returned so far.
    pub fn cursor(&self) -> u64 {
        self.consumed
    }

    /// The next complete line, or `None` at end of input (an unterminated tail is left unread).
    pub fn next_line(&mut self) -> std::io::Result<Option<Framed<'_>>> {
        self.buf.clear();
        let start = self.consumed;
        let mut oversized = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                // End of input: whatever is buffered is an unterminated line, not a record.
                return Ok(None);
            }
            match memchr::memchr(b'\n', available) {
                Some(i) => {
                    if !oversized {
                        if self.buf.len() + i > self.max_record {
                            oversized = true;
                            self.buf.clear();
                        } else {
                            self.buf.extend_from_slice(&available[..i]);
                        }
                    }
                    self.reader.consume(i + 1);
                    self.offset += (i + 1) as u64;
                    self.consumed = self.offset;
                    if oversized {
                        return Ok(Some(Framed::Oversized {
                            start,
                            end: self.offset - 1,
                        }));
                    }
                    if self.buf.last() == Some(&b'\r') {
                        self.buf.pop();
                    }
                    return Ok(Some(Framed::Line(Line {
                        start,
                        bytes: &self.buf,
                    })));
                }
                None => {
                    let n = available.len();
                    if !oversized {
                        if self.buf.len() + n > self.max_record {
                            oversized = true;
                            self.buf = Vec::new();
                        } else {
                            self.buf.extend_from_slice(available);
                        }
                    }
                    self.reader.consume(n);
                    self.offset += n as u64;
                }
            }
        }
    }
}

/// Splits a line that holds several JSON values back to back (a known writer defect) into
/// the values and their byte ranges within the line. `None` when the line is not exactly a
/// sequence of two or more JSON values.
pub fn split_concatenated(
    bytes: &[u8],
) -> Option<Vec<(serde_json::Value, std::ops::Range<usize>)>> {
    let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<serde_json::Value>();
    let mut out = Vec::new();
    let mut last_end = 0usize;
    while let Some(next) = stream.next() {
        let value = next.ok()?;
        let end = stream.byte_offset();
        let start = last_end
            + bytes[last_end..end]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        out.push((value, start..end));
        last_end = end;
    }
    if out.len() >= 2 && bytes[last_end..].iter().all(|b| b.is_ascii_whitespace()) {
        Some(out)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> (Vec<String>, u64) {
        let mut f = LineFramer::new(input, 0, max);
        let mut out = Vec::new();
        while let Some(l) = f.next_line().unwrap() {
            match l {
                Framed::Line(l) => {
                    out.push(format!("{}:{}", l.start, String::from_utf8_lossy(l.bytes)))
                }
                Framed::Oversized { start, end } => out.push(format!("oversized {start}..{end}")),
            }
        }
        (out, f.cursor())
    }

    #[test]
    fn unterminated_tail_is_not_a_record() {
        let (l, cursor) = lines(b"{\"a\":1}\n{\"b\":", 100);
        assert_eq!(l, vec!["0:{\"a\":1}"]);
        assert_eq!(cursor, 8);
    }

    #[test]
    fn crlf_is_stripped() {
        let (l, _) = lines(b"a\r\nb\n", 100);
        assert_eq!(l, vec!["0:a", "3:b"]);
    }

    #[test]
    fn oversized_lines_are_skipped_not_buffered() {
        let mut input = vec![b'x'; 1000];
        input.push(b'\n');
        input.extend_from_slice(b"ok\n");
        let (l, cursor) = lines(&input, 10);
        assert_eq!(l, vec!["oversized 0..1000", "1001:ok"]);
        assert_eq!(cursor, 1004);
    }

    #[test]
    fn concatenated_objects_are_split() {
        let parts = split_concatenated(br#"{"a":1}{"b":2}"#).unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].1, 0..7);
        assert_eq!(parts[1].1, 7..14);
        assert!(split_concatenated(br#"{"a":1}"#).is_none());
        assert!(split_concatenated(br#"{"a":1}{"b""#).is_none());
    }
}
