//! The spool reader and the JSON repairs it relies on.

use fornax_live::json;
use fornax_live::spool::{envelope_line, read_line, SpoolLine};
use proptest::prelude::*;

#[test]
fn the_spool_reader_takes_any_line() {
    fornax_fuzz::run(
        "spool_reader",
        concat!(env!("CARGO_MANIFEST_DIR"), "/regressions/spool_reader.txt"),
        prop_oneof![
            prop::collection::vec(any::<u8>(), 0..256),
            "\\{\"fornax_spool\":1,\"adapter\":\"[a-z-]{0,8}\",\"payload\":\\PC{0,40}\\}"
                .prop_map(String::into_bytes),
            "[\\\\ud800-\\\\udfff\"a{}\\\\u]{0,64}".prop_map(String::into_bytes),
        ],
        |line| {
            let _ = read_line(&line);
            if let Some((fixed, n)) = json::repair_surrogates(&line) {
                prop_assert!(n > 0);
                prop_assert_eq!(fixed.len(), line.len());
            }
            Ok(())
        },
    );
}

#[test]
fn what_the_hook_writes_reads_back_as_it_was() {
    fornax_fuzz::run(
        "spool_round_trip",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/regressions/spool_round_trip.txt"
        ),
        (fornax_fuzz::mutate::value(), "[a-z-]{1,16}", any::<bool>()),
        |(payload, adapter, pretty)| {
            let mut bytes = if pretty {
                serde_json::to_vec_pretty(&payload).unwrap()
            } else {
                serde_json::to_vec(&payload).unwrap()
            };
            json::flatten_line_breaks(&mut bytes);
            let text = String::from_utf8(bytes).unwrap();
            let line = envelope_line(&adapter, "2026-01-01T00:00:00.000Z", &text);
            prop_assert_eq!(line.matches('\n').count(), 1);
            let (read, repaired) = read_line(line.trim_end().as_bytes())
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(repaired, 0);
            match read {
                SpoolLine::Event(e) => {
                    prop_assert_eq!(e.adapter, adapter);
                    prop_assert_eq!(e.payload, payload);
                }
                SpoolLine::Header { .. } => return Err(TestCaseError::fail("not a header")),
            }
            Ok(())
        },
    );
}
