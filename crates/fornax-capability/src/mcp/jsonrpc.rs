//! JSON-RPC 2.0 framing as MCP's stdio transport uses it: one message per line.
//!
//! Every line the client sends becomes an [`Incoming`]; nothing a client writes makes the
//! server stop. Malformed JSON is answered with `-32700`, a message that is not a request
//! with `-32600` (id `null` when no usable id could be read), and both keep the server
//! serving.

use std::io::BufRead;

use serde_json::{json, Map, Value};

/// Invalid JSON was received.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON sent is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters (MCP also uses it for an unknown tool).
pub const INVALID_PARAMS: i64 = -32602;
/// An error inside the server.
pub const INTERNAL_ERROR: i64 = -32603;

/// The longest line read as one message; a longer one is refused and skipped, so a runaway
/// client cannot make the server hold unbounded memory.
pub const MAX_MESSAGE_BYTES: usize = 4 << 20;

/// What one line from the client is.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A request: it is answered with a result or an error carrying the same id.
    Request {
        id: Value,
        method: String,
        params: Map<String, Value>,
    },
    /// A notification: never answered.
    Notification { method: String },
    /// A response to a request of ours (the server sends none): ignored.
    Response,
    /// Something that must be answered with an error and then forgotten.
    Invalid {
        id: Value,
        code: i64,
        message: String,
    },
}

/// One line as read from the transport.
#[derive(Debug)]
pub enum Line {
    Message(Vec<u8>),
    /// The line was longer than [`MAX_MESSAGE_BYTES`]; its bytes were skipped.
    TooLong(usize),
    End,
}

/// Reads the next line (without its newline), skipping blank ones; bounded by
/// [`MAX_MESSAGE_BYTES`].
pub fn read_line(reader: &mut impl BufRead) -> std::io::Result<Line> {
    loop {
        let mut line = Vec::new();
        let mut skipped = 0usize;
        let mut saw_any = false;
        loop {
            let chunk = reader.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            saw_any = true;
            let (part, done) = match memchr(chunk) {
                Some(i) => (&chunk[..i], Some(i + 1)),
                None => (chunk, None),
            };
            if skipped > 0 || line.len() + part.len() > MAX_MESSAGE_BYTES {
                skipped += line.len() + part.len();
                line = Vec::new();
            } else {
                line.extend_from_slice(part);
            }
            let used = done.unwrap_or(chunk.len());
            reader.consume(used);
            if done.is_some() {
                break;
            }
        }
        if skipped > 0 {
            return Ok(Line::TooLong(skipped));
        }
        if !saw_any {
            return Ok(Line::End);
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        return Ok(Line::Message(line));
    }
}

fn memchr(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// Classifies one message.
pub fn parse(bytes: &[u8]) -> Incoming {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            return Incoming::Invalid {
                id: Value::Null,
                code: PARSE_ERROR,
                message: format!("parse error: the message is not valid JSON ({e})"),
            }
        }
    };
    let Value::Object(mut obj) = value else {
        let what = if value.is_array() {
            "a batch (an array); MCP sends one message per line"
        } else {
            "not an object"
        };
        return Incoming::Invalid {
            id: Value::Null,
            code: INVALID_REQUEST,
            message: format!("invalid request: the message is {what}"),
        };
    };
    let id = obj.remove("id");
    let usable_id = match &id {
        Some(v @ (Value::String(_) | Value::Number(_))) => Some(v.clone()),
        _ => None,
    };
    let invalid = |message: String| Incoming::Invalid {
        id: usable_id.clone().unwrap_or(Value::Null),
        code: INVALID_REQUEST,
        message: format!("invalid request: {message}"),
    };
    if obj.get("jsonrpc") != Some(&Value::String("2.0".to_string())) {
        return invalid("\"jsonrpc\" must be \"2.0\"".to_string());
    }
    let method = match obj.remove("method") {
        Some(Value::String(m)) => m,
        Some(_) => return invalid("\"method\" must be a string".to_string()),
        None if id.is_some() && (obj.contains_key("result") || obj.contains_key("error")) => {
            return Incoming::Response
        }
        None => return invalid("no \"method\"".to_string()),
    };
    let params = match obj.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m,
        Some(_) => return invalid("\"params\" must be an object".to_string()),
    };
    match id {
        None => Incoming::Notification { method },
        Some(_) => match usable_id.clone() {
            Some(id) => Incoming::Request { id, method, params },
            None => invalid("\"id\" must be a string or a number".to_string()),
        },
    }
}

/// A success response.
pub fn result(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error response.
pub fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(i: Incoming) -> i64 {
        match i {
            Incoming::Invalid { code, .. } => code,
            other => panic!("not invalid: {other:?}"),
        }
    }

    #[test]
    fn malformed_and_invalid_messages_get_their_codes() {
        assert_eq!(code(parse(b"{\"jsonrpc\": \"2.0\", ")), PARSE_ERROR);
        assert_eq!(code(parse(b"[1, 2]")), INVALID_REQUEST);
        assert_eq!(code(parse(b"42")), INVALID_REQUEST);
        assert_eq!(
            code(parse(br#"{"id": 1, "method": "ping"}"#)),
            INVALID_REQUEST
        );
        assert_eq!(
            code(parse(br#"{"jsonrpc": "2.0", "id": 1, "method": 7}"#)),
            INVALID_REQUEST
        );
        assert_eq!(
            code(parse(br#"{"jsonrpc": "2.0", "id": {}, "method": "ping"}"#)),
            INVALID_REQUEST
        );
        match parse(br#"{"jsonrpc": "2.0", "id": 9, "method": "x", "params": [1]}"#) {
            Incoming::Invalid { id, code, .. } => {
                assert_eq!((id, code), (json!(9), INVALID_REQUEST));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn requests_notifications_and_responses_are_told_apart() {
        assert!(matches!(
            parse(br#"{"jsonrpc": "2.0", "id": "a", "method": "ping"}"#),
            Incoming::Request { method, .. } if method == "ping"
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#),
            Incoming::Notification { .. }
        ));
        assert_eq!(
            parse(br#"{"jsonrpc": "2.0", "id": 3, "result": {}}"#),
            Incoming::Response
        );
    }

    #[test]
    fn lines_are_bounded_and_blank_lines_skipped() {
        let mut input = Vec::new();
        input.extend_from_slice(b"\n  \n{\"a\":1}\n");
        input.extend(std::iter::repeat_n(b'x', MAX_MESSAGE_BYTES + 10));
        input.extend_from_slice(b"\n{\"b\":2}");
        let mut reader = std::io::BufReader::with_capacity(1024, &input[..]);
        assert!(matches!(read_line(&mut reader).unwrap(), Line::Message(m) if m == b"{\"a\":1}"));
        assert!(
            matches!(read_line(&mut reader).unwrap(), Line::TooLong(n) if n == MAX_MESSAGE_BYTES + 10)
        );
        assert!(matches!(read_line(&mut reader).unwrap(), Line::Message(m) if m == b"{\"b\":2}"));
        assert!(matches!(read_line(&mut reader).unwrap(), Line::End));
    }
}
