//! Answers that fit an agent's context: a byte budget per answer, pages that stop when the
//! budget is spent (with a cursor to the rest), and long texts cut with a marker that says
//! how to read more.
//!
//! Sizes are measured as the answer is sent: the page's compact JSON, escaped once more as
//! the text of the MCP content block. The server checks the whole response line against
//! `max_bytes` before it sends it.

use serde_json::{Map, Value};

/// The budget of an answer when the caller gives none.
pub const DEFAULT_MAX_BYTES: usize = 32 * 1024;
/// The smallest budget accepted (room for an envelope, a cursor and a marker).
pub const MIN_MAX_BYTES: usize = 1024;
/// The largest budget accepted.
pub const MAX_MAX_BYTES: usize = 1 << 20;
/// What the JSON-RPC envelope and the content block around the page may take.
pub const ENVELOPE_BYTES: usize = 256;
/// The longest a text inside a listed row may be before it is cut.
pub const ROW_TEXT_BYTES: usize = 2048;
/// Below this, a text is not worth cutting further: the row is left out instead.
const MIN_TEXT_BYTES: usize = 64;

/// The `max_bytes` argument, validated.
pub fn max_bytes(args: &Map<String, Value>) -> Result<usize, String> {
    match args.get("max_bytes") {
        None | Some(Value::Null) => Ok(DEFAULT_MAX_BYTES),
        Some(v) => match v.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) if (MIN_MAX_BYTES..=MAX_MAX_BYTES).contains(&n) => Ok(n),
            _ => Err(format!(
                "\"max_bytes\" must be an integer from {MIN_MAX_BYTES} to {MAX_MAX_BYTES}, got {v}"
            )),
        },
    }
}

/// The `cursor` argument: an offset this server handed out as `next_cursor`.
pub fn cursor(args: &Map<String, Value>) -> Result<usize, String> {
    match args.get("cursor") {
        None | Some(Value::Null) => Ok(0),
        Some(Value::String(s)) if s.is_empty() => Ok(0),
        Some(Value::String(s)) => s.parse::<usize>().map_err(|_| {
            format!("\"cursor\" {s:?} is not one this server gave; pass the \"next_cursor\" of the previous answer")
        }),
        Some(other) => Err(format!(
            "\"cursor\" must be the string \"next_cursor\" gave, got {other}"
        )),
    }
}

/// The bytes `s` takes inside a JSON string (without the quotes).
pub fn escaped_len(s: &str) -> usize {
    s.chars()
        .map(|c| match c {
            '"' | '\\' | '\n' | '\r' | '\t' | '\u{08}' | '\u{0c}' => 2,
            c if (c as u32) < 0x20 => 6,
            c => c.len_utf8(),
        })
        .sum()
}

/// The bytes `c` takes once escaped inside a JSON string that is itself escaped into another
/// (a text inside the page, inside the content block).
pub fn nested_escaped_len(c: char) -> usize {
    match c {
        '"' | '\\' => 4,
        '\n' | '\r' | '\t' | '\u{08}' | '\u{0c}' => 3,
        c if (c as u32) < 0x20 => 7,
        c => c.len_utf8(),
    }
}

/// The bytes `value` takes in the answer: compact JSON, escaped as the content's text.
pub fn answer_len(value: &Value) -> usize {
    escaped_len(&value.to_string())
}

/// The largest char boundary of `s` at or below `at`.
pub fn floor_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Cuts every string in `value` longer than `cap` bytes, appending the marker `more(len)`
/// gives for a string of `len` bytes. Returns whether anything was cut.
pub fn cap_strings(value: &mut Value, cap: usize, more: &dyn Fn(usize, usize) -> String) -> bool {
    match value {
        Value::String(s) if s.len() > cap => {
            let keep = floor_boundary(s, cap);
            let marker = more(keep, s.len());
            s.truncate(keep);
            s.push_str(&marker);
            true
        }
        Value::Array(items) => {
            let mut cut = false;
            for v in items {
                cut |= cap_strings(v, cap, more);
            }
            cut
        }
        Value::Object(map) => {
            let mut cut = false;
            for v in map.values_mut() {
                cut |= cap_strings(v, cap, more);
            }
            cut
        }
        _ => false,
    }
}

/// The generic marker for a cut text.
pub fn generic_marker(hint: &str) -> impl Fn(usize, usize) -> String + '_ {
    move |kept, len| format!(" …[cut: {kept} of {len} bytes shown; {hint}]")
}

/// Makes `row` fit in `room` bytes by cutting its texts harder and harder. `None` when even
/// the shortest texts do not fit.
pub fn fit_row(
    mut row: Value,
    room: usize,
    start_cap: usize,
    more: &dyn Fn(usize, usize) -> String,
) -> Option<Value> {
    let mut cap = start_cap;
    cap_strings(&mut row, cap, more);
    loop {
        if answer_len(&row) < room {
            return Some(row);
        }
        if cap <= MIN_TEXT_BYTES {
            return None;
        }
        cap = (cap / 2).max(MIN_TEXT_BYTES);
        cap_strings(&mut row, cap, more);
    }
}

/// A page being filled within a budget.
#[derive(Debug)]
pub struct Page {
    room: usize,
    pub rows: Vec<Value>,
    /// Rows read from the source (taken or not), counted from the page's first offset.
    pub consumed: usize,
    pub full: bool,
    /// Rows whose texts were cut to fit.
    pub cut: usize,
}

impl Page {
    /// A page for an answer of `max_bytes`, of which `fixed` bytes are taken by the rest of
    /// the answer (its header, the cursor, the notes).
    pub fn new(max_bytes: usize, fixed: usize) -> Page {
        Page {
            room: max_bytes.saturating_sub(ENVELOPE_BYTES + fixed),
            rows: Vec::new(),
            consumed: 0,
            full: false,
            cut: 0,
        }
    }

    /// Offers the next row. Returns false (and marks the page full) when it no longer fits;
    /// the row is then not consumed and the next page starts with it. A first row too large
    /// even with its texts cut short is replaced by a note, so paging always moves on.
    pub fn offer(
        &mut self,
        row: Value,
        start_cap: usize,
        more: &dyn Fn(usize, usize) -> String,
        too_large: impl FnOnce() -> Value,
    ) -> bool {
        if self.full {
            return false;
        }
        let mut row = row;
        if cap_strings(&mut row, start_cap, more) {
            self.cut += 1;
        }
        let len = answer_len(&row) + 1;
        if len <= self.room {
            self.take(row);
            return true;
        }
        if !self.rows.is_empty() {
            // The rest of this page is left unused rather than filled with rows cut shorter.
            self.full = true;
            return false;
        }
        let row = fit_row(row, self.room, start_cap, more).unwrap_or_else(too_large);
        self.take(row);
        true
    }

    fn take(&mut self, row: Value) {
        self.room = self.room.saturating_sub(answer_len(&row) + 1);
        self.rows.push(row);
        self.consumed += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escaped_length_matches_serde() {
        for s in [
            "plain",
            "quote \" and \\ back",
            "tab\tnew\nline\u{1}",
            "ünïcødé ✓",
        ] {
            let value = Value::String(s.to_string());
            assert_eq!(escaped_len(s) + 2, value.to_string().len(), "{s:?}");
        }
        for c in ['a', '"', '\\', '\n', '\u{1}', 'é'] {
            let once = Value::String(c.to_string()).to_string();
            let twice = Value::String(once).to_string();
            assert_eq!(nested_escaped_len(c), twice.len() - 6, "{c:?}");
        }
        let row = json!({"a": "x\"y", "b": [1, "z\n"]});
        assert_eq!(
            answer_len(&row),
            Value::String(row.to_string()).to_string().len() - 2
        );
    }

    #[test]
    fn strings_are_cut_on_char_boundaries_with_a_marker() {
        let mut v = json!({"t": "ééééé", "n": 3});
        assert!(cap_strings(&mut v, 5, &generic_marker("ask for less")));
        assert_eq!(v["t"], "éé …[cut: 4 of 10 bytes shown; ask for less]");
        assert_eq!(v["n"], 3);
    }

    #[test]
    fn a_page_stops_at_its_budget_and_always_moves_on() {
        let marker = generic_marker("more");
        let mut page = Page::new(2048, 0);
        let mut offered = 0;
        while page.offer(
            json!({"i": offered, "text": "x".repeat(300)}),
            ROW_TEXT_BYTES,
            &marker,
            || json!({"omitted": true}),
        ) {
            offered += 1;
        }
        assert!(page.full && page.consumed == offered && offered > 1);
        let total: usize = page.rows.iter().map(|r| answer_len(r) + 1).sum();
        assert!(total <= 2048 - ENVELOPE_BYTES, "{total}");

        let mut page = Page::new(1024, 0);
        assert!(page.offer(
            json!({"text": "y".repeat(100_000)}),
            ROW_TEXT_BYTES,
            &marker,
            || json!({"omitted": true}),
        ));
        assert_eq!(page.cut, 1);
        assert!(page.rows[0]["text"].as_str().unwrap().contains("[cut: "));
    }

    #[test]
    fn bad_arguments_are_refused_with_the_accepted_forms() {
        let args = |v: Value| v.as_object().unwrap().clone();
        assert_eq!(max_bytes(&args(json!({}))).unwrap(), DEFAULT_MAX_BYTES);
        assert!(max_bytes(&args(json!({"max_bytes": 10})))
            .unwrap_err()
            .contains("from 1024"));
        assert!(max_bytes(&args(json!({"max_bytes": "big"}))).is_err());
        assert_eq!(cursor(&args(json!({"cursor": "40"}))).unwrap(), 40);
        assert!(cursor(&args(json!({"cursor": "abc"})))
            .unwrap_err()
            .contains("next_cursor"));
    }
}
