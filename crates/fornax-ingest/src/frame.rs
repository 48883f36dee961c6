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
    /// The unterminated bytes at the end of the input were over the limit.
    tail_oversized: bool,
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
            tail_oversized: false,
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
                // End of input: whatever is buffered is an unterminated line, not a record
                // (unless the caller takes it: see `take_tail`).
                self.tail_oversized = oversized;
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

impl<R: Read> LineFramer<R> {
    /// Once [`LineFramer::next_line`] returned `None`: the final line of the input that has no
    /// newline, when it holds something and is within the limit. A caller that takes it (the
    /// line is complete: the file is quiet, or a scan reads what is there) calls
    /// [`LineFramer::consume_tail`]; an append that later adds just its newline then reads as an
    /// empty line.
    pub fn tail(&self) -> Option<Line<'_>> {
        if self.tail_oversized || self.buf.is_empty() || self.offset == self.consumed {
            return None;
        }
        let bytes = match self.buf.last() {
            Some(b'\r') => &self.buf[..self.buf.len() - 1],
            _ => &self.buf[..],
        };
        Some(Line {
            start: self.consumed,
            bytes,
        })
    }

    /// Moves the cursor past the tail [`LineFramer::tail`] offered.
    pub fn consume_tail(&mut self) {
        if self.tail().is_some() {
            self.consumed = self.offset;
            self.buf.clear();
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
    fn the_tail_can_be_taken_once_complete() {
        let input = b"{\"a\":1}\n{\"b\":2}";
        let mut f = LineFramer::new(&input[..], 0, 100);
        assert!(matches!(f.next_line().unwrap(), Some(Framed::Line(_))));
        assert!(f.next_line().unwrap().is_none());
        let tail = f.tail().unwrap();
        assert_eq!((tail.start, tail.bytes), (8, &b"{\"b\":2}"[..]));
        assert_eq!(f.cursor(), 8, "offered, not taken");
        f.consume_tail();
        assert_eq!(f.cursor(), input.len() as u64);
        assert!(f.tail().is_none(), "taken once");
        // An oversized tail is not offered.
        let mut f = LineFramer::new(&b"ok\nxxxxxxxxxxxxxxxxxxxx"[..], 0, 5);
        while f.next_line().unwrap().is_some() {}
        assert!(f.tail().is_none());
        assert_eq!(f.cursor(), 3);
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

/// How a file holds its JSON values when they are not one per line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueLayout {
    /// One top-level array; its elements are the records (`[{...}, {...}]`, as dumped by hook
    /// logging scripts).
    Elements,
    /// Values written back to back, pretty-printed or not (`{...}\n{...}`).
    Concatenated,
}

/// One value found by [`ValueScanner`].
#[derive(Debug)]
pub enum ScannedValue<'a> {
    /// A value and the offset of its first byte.
    Value { start: u64, bytes: &'a [u8] },
    /// A value longer than the limit, skipped (`start..end`).
    Oversized { start: u64, end: u64 },
}

/// How a scan ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanEnd {
    /// Every value was whole (and, for [`ValueLayout::Elements`], the array was closed).
    Complete,
    /// The input stopped inside a value or before the array was closed (a file still being
    /// written, or cut short).
    Truncated,
    /// A byte that cannot start a value (or, in an array, separate two) at this offset.
    Invalid(u64),
}

/// Streams the top-level values of a file that is not one value per line, with their byte
/// ranges, without parsing them: memory is bounded by the largest value allowed, and a longer
/// value is skipped unbuffered. Each value's bytes are then parsed on their own, so a bad one
/// costs only itself.
pub struct ValueScanner<R: Read> {
    reader: BufReader<R>,
    layout: ValueLayout,
    offset: u64,
    max_record: usize,
    buf: Vec<u8>,
    /// Inside the top-level array (elements layout).
    opened: bool,
    end: Option<ScanEnd>,
}

impl<R: Read> std::fmt::Debug for ValueScanner<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ValueScanner")
            .field("layout", &self.layout)
            .field("offset", &self.offset)
            .finish()
    }
}

impl<R: Read> ValueScanner<R> {
    /// `reader` is positioned at the start of the file.
    pub fn new(reader: R, layout: ValueLayout, max_record: usize) -> Self {
        ValueScanner {
            reader: BufReader::with_capacity(256 * 1024, reader),
            layout,
            offset: 0,
            max_record,
            buf: Vec::new(),
            opened: false,
            end: None,
        }
    }

    /// How the scan ended (once [`ValueScanner::next_value`] returned `None`).
    pub fn end(&self) -> Option<ScanEnd> {
        self.end
    }

    fn peek(&mut self) -> std::io::Result<Option<u8>> {
        loop {
            match self.reader.fill_buf() {
                Ok(b) => return Ok(b.first().copied()),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    fn bump(&mut self) {
        self.reader.consume(1);
        self.offset += 1;
    }

    /// Skips whitespace (and, between array elements, one comma). `None` at end of input.
    fn skip_separators(&mut self) -> std::io::Result<Option<u8>> {
        let mut comma = false;
        loop {
            let Some(b) = self.peek()? else {
                return Ok(None);
            };
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.bump(),
                // A byte-order mark before the first value.
                0xEF | 0xBB | 0xBF if self.offset < 3 && !self.opened => self.bump(),
                b',' if self.layout == ValueLayout::Elements && self.opened && !comma => {
                    comma = true;
                    self.bump();
                }
                _ => return Ok(Some(b)),
            }
        }
    }

    /// The next value, or `None` at the end (see [`ValueScanner::end`]).
    pub fn next_value(&mut self) -> std::io::Result<Option<ScannedValue<'_>>> {
        if self.end.is_some() {
            return Ok(None);
        }
        let Some(first) = self.skip_separators()? else {
            let complete = self.layout == ValueLayout::Concatenated;
            self.end = Some(if complete {
                ScanEnd::Complete
            } else {
                ScanEnd::Truncated
            });
            return Ok(None);
        };
        if self.layout == ValueLayout::Elements {
            if !self.opened {
                if first != b'[' {
                    self.end = Some(ScanEnd::Invalid(self.offset));
                    return Ok(None);
                }
                self.opened = true;
                self.bump();
                return self.next_value();
            }
            if first == b']' {
                self.bump();
                // Only whitespace may follow the array.
                self.end = Some(match self.skip_separators()? {
                    None => ScanEnd::Complete,
                    Some(_) => ScanEnd::Invalid(self.offset),
                });
                return Ok(None);
            }
        }
        if matches!(first, b']' | b'}' | b',' | b':') {
            self.end = Some(ScanEnd::Invalid(self.offset));
            return Ok(None);
        }
        let start = self.offset;
        self.buf.clear();
        let mut oversized = false;
        match self.scan_value(&mut oversized)? {
            true => {}
            false => {
                self.end = Some(ScanEnd::Truncated);
                return Ok(None);
            }
        }
        if oversized {
            return Ok(Some(ScannedValue::Oversized {
                start,
                end: self.offset,
            }));
        }
        Ok(Some(ScannedValue::Value {
            start,
            bytes: &self.buf,
        }))
    }

    fn keep(&mut self, b: u8, oversized: &mut bool) {
        if *oversized {
            return;
        }
        if self.buf.len() >= self.max_record {
            *oversized = true;
            self.buf = Vec::new();
        } else {
            self.buf.push(b);
        }
    }

    /// Consumes one value. False when the input ends inside it.
    fn scan_value(&mut self, oversized: &mut bool) -> std::io::Result<bool> {
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        let mut scalar = false;
        loop {
            let Some(b) = self.peek()? else {
                // A bare scalar may end at the end of input.
                return Ok(scalar && !in_string);
            };
            if scalar && !in_string {
                if matches!(
                    b,
                    b' ' | b'\t' | b'\n' | b'\r' | b',' | b']' | b'}' | b'{' | b'[' | b'"'
                ) {
                    return Ok(true);
                }
                self.keep(b, oversized);
                self.bump();
                continue;
            }
            self.keep(b, oversized);
            self.bump();
            if in_string {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b'"' {
                    in_string = false;
                    if depth == 0 {
                        return Ok(true);
                    }
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(true);
                    }
                }
                _ if depth == 0 => scalar = true,
                _ => {}
            }
        }
    }
}

/// How a file that is not one JSON value per line holds its values, from its first bytes:
/// `[` opens an array of records; anything else is read as values back to back.
pub fn value_layout(first_byte: u8) -> ValueLayout {
    if first_byte == b'[' {
        ValueLayout::Elements
    } else {
        ValueLayout::Concatenated
    }
}

#[cfg(test)]
mod value_tests {
    use super::*;

    fn values(input: &[u8], layout: ValueLayout, max: usize) -> (Vec<String>, Option<ScanEnd>) {
        let mut s = ValueScanner::new(input, layout, max);
        let mut out = Vec::new();
        while let Some(v) = s.next_value().unwrap() {
            out.push(match v {
                ScannedValue::Value { start, bytes } => {
                    format!("{start}:{}", String::from_utf8_lossy(bytes))
                }
                ScannedValue::Oversized { start, end } => format!("oversized {start}..{end}"),
            });
        }
        (out, s.end())
    }

    #[test]
    fn elements_of_an_array_with_their_offsets() {
        let input = b"[\n  {\"a\": \"x]}\\\"\"},\n  [1, 2],\n  \"s\", 12, true\n]\n";
        let (v, end) = values(input, ValueLayout::Elements, 100);
        assert_eq!(
            v,
            vec![
                "4:{\"a\": \"x]}\\\"\"}",
                "22:[1, 2]",
                "32:\"s\"",
                "37:12",
                "41:true"
            ]
        );
        assert_eq!(end, Some(ScanEnd::Complete));
        for line in &v {
            let (start, text) = line.split_once(':').unwrap();
            let start: usize = start.parse().unwrap();
            assert_eq!(&input[start..start + text.len()], text.as_bytes());
        }
    }

    #[test]
    fn concatenated_pretty_values() {
        let input = b"{\n  \"a\": 1\n}\n{\n  \"b\": {\"c\": []}\n}[3]";
        let (v, end) = values(input, ValueLayout::Concatenated, 100);
        assert_eq!(v.len(), 3);
        assert!(v[1].starts_with("13:{"));
        assert_eq!(end, Some(ScanEnd::Complete));
    }

    #[test]
    fn truncated_invalid_and_oversized_inputs() {
        let (v, end) = values(b"[{\"a\":1}, {\"b\":", ValueLayout::Elements, 100);
        assert_eq!((v.len(), end), (1, Some(ScanEnd::Truncated)));
        let (v, end) = values(b"[{\"a\":1}] trailing", ValueLayout::Elements, 100);
        assert_eq!((v.len(), end), (1, Some(ScanEnd::Invalid(10))));
        let (v, end) = values(b"{\"a\":1}}", ValueLayout::Concatenated, 100);
        assert_eq!((v.len(), end), (1, Some(ScanEnd::Invalid(7))));
        let (v, _) = values(
            b"[{\"long\":\"xxxxxxxxxxxx\"},{\"b\":2}]",
            ValueLayout::Elements,
            8,
        );
        assert_eq!(v, vec!["oversized 1..24", "25:{\"b\":2}"]);
        let (v, end) = values(b"  ", ValueLayout::Elements, 8);
        assert_eq!((v.len(), end), (0, Some(ScanEnd::Truncated)));
    }
}
