//! Line framing and value scanning: any bytes, any read chunking, any record limit.

use std::io::Read;

use fornax_ingest::frame::{
    split_concatenated, Framed, LineFramer, ScannedValue, ValueLayout, ValueScanner,
};
use proptest::prelude::*;

/// A reader that hands out its bytes in the chunk sizes it was given (short reads).
struct Chunky<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    at: usize,
}

impl Read for Chunky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let size = self
            .sizes
            .get(self.at % self.sizes.len().max(1))
            .copied()
            .unwrap_or(7);
        self.at += 1;
        let n = size.max(1).min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..512),
        // JSON-ish text: braces, quotes, escapes, newlines, commas, brackets.
        prop::collection::vec(
            prop::sample::select(b"{}[]\",:\\ \n\r\tab01u".to_vec()),
            0..512
        ),
    ]
}

#[test]
fn line_framing_returns_exact_slices() {
    fornax_fuzz::run(
        "line_framing",
        concat!(env!("CARGO_MANIFEST_DIR"), "/regressions/line_framing.txt"),
        (input(), 1usize..64, prop::collection::vec(1usize..40, 1..5)),
        |(data, max, sizes)| {
            let mut f = LineFramer::new(
                Chunky {
                    data: &data,
                    sizes,
                    at: 0,
                },
                0,
                max,
            );
            let mut last_end = 0u64;
            while let Some(framed) = f
                .next_line()
                .map_err(|e| TestCaseError::fail(e.to_string()))?
            {
                match framed {
                    Framed::Line(line) => {
                        let start = line.start as usize;
                        prop_assert!(start as u64 >= last_end);
                        prop_assert!(line.bytes.len() <= max);
                        prop_assert_eq!(&data[start..start + line.bytes.len()], line.bytes);
                        prop_assert!(!line.bytes.contains(&b'\n'));
                        last_end = line.start + line.bytes.len() as u64;
                        let _ = split_concatenated(line.bytes);
                    }
                    Framed::Oversized { start, end } => {
                        prop_assert!(start <= end && end as usize <= data.len());
                        last_end = end;
                    }
                }
            }
            prop_assert!(f.cursor() as usize <= data.len());
            if let Some(tail) = f.tail() {
                let start = tail.start as usize;
                prop_assert_eq!(&data[start..start + tail.bytes.len()], tail.bytes);
            }
            f.consume_tail();
            prop_assert!(f.cursor() as usize <= data.len());
            Ok(())
        },
    );
}

#[test]
fn value_scanning_returns_exact_slices() {
    fornax_fuzz::run(
        "value_scanning",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/regressions/value_scanning.txt"
        ),
        (
            input(),
            1usize..128,
            any::<bool>(),
            prop::collection::vec(1usize..40, 1..5),
        ),
        |(data, max, array, sizes)| {
            let layout = if array {
                ValueLayout::Elements
            } else {
                ValueLayout::Concatenated
            };
            let mut s = ValueScanner::new(
                Chunky {
                    data: &data,
                    sizes,
                    at: 0,
                },
                layout,
                max,
            );
            let mut last_end = 0u64;
            let mut n = 0;
            while let Some(v) = s
                .next_value()
                .map_err(|e| TestCaseError::fail(e.to_string()))?
            {
                n += 1;
                prop_assert!(n <= data.len() + 1, "no value from nothing");
                match v {
                    ScannedValue::Value { start, bytes } => {
                        prop_assert!(start >= last_end);
                        prop_assert!(bytes.len() <= max && !bytes.is_empty());
                        let at = start as usize;
                        prop_assert_eq!(&data[at..at + bytes.len()], bytes);
                        last_end = start + bytes.len() as u64;
                    }
                    ScannedValue::Oversized { start, end } => {
                        prop_assert!(
                            start >= last_end && start < end && end as usize <= data.len()
                        );
                        last_end = end;
                    }
                }
            }
            prop_assert!(s.end().is_some());
            Ok(())
        },
    );
}

#[test]
fn well_formed_dumps_give_back_every_value() {
    fornax_fuzz::run(
        "dump_round_trip",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/regressions/dump_round_trip.txt"
        ),
        (
            prop::collection::vec(fornax_fuzz::mutate::value(), 0..6),
            any::<bool>(),
            any::<bool>(),
        ),
        |(values, array, pretty)| {
            let text = |v: &serde_json::Value| {
                if pretty {
                    serde_json::to_string_pretty(v).unwrap()
                } else {
                    v.to_string()
                }
            };
            let body = if array {
                text(&serde_json::Value::Array(values.clone()))
            } else {
                values.iter().map(text).collect::<Vec<_>>().join("\n")
            };
            let layout = if array {
                ValueLayout::Elements
            } else {
                ValueLayout::Concatenated
            };
            let mut s = ValueScanner::new(body.as_bytes(), layout, 1 << 20);
            let mut got = Vec::new();
            while let Some(v) = s.next_value().unwrap() {
                if let ScannedValue::Value { bytes, .. } = v {
                    got.push(
                        serde_json::from_slice::<serde_json::Value>(bytes).map_err(|e| {
                            TestCaseError::fail(format!("{e}: {}", String::from_utf8_lossy(bytes)))
                        })?,
                    );
                }
            }
            prop_assert_eq!(got, values);
            Ok(())
        },
    );
}
