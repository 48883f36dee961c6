//! A small OTLP/HTTP client: one `POST` of a protobuf body per request over a plain TCP
//! connection (`http://` only; put a local collector in front of a TLS endpoint).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceResponse;
use prost::Message;

use crate::ExportError;

const TIMEOUT: Duration = Duration::from_secs(30);
/// The largest response read (a receiver's answer is small).
const MAX_RESPONSE: u64 = 1 << 20;

/// The traces URL for what the user gave: `/v1/traces` is added to a bare `http://host:port`.
pub fn traces_url(endpoint: &str) -> String {
    let trimmed = endpoint.trim_end_matches('/');
    let rest = trimmed.strip_prefix("http://").unwrap_or(trimmed);
    if rest.contains('/') {
        trimmed.to_string()
    } else {
        format!("{trimmed}/v1/traces")
    }
}

/// Posts one request body; returns how many spans the receiver rejected.
pub fn post(endpoint: &str, body: &[u8]) -> Result<i64, ExportError> {
    let url = traces_url(endpoint);
    let err = |detail: String| ExportError::Endpoint {
        endpoint: url.clone(),
        detail,
    };
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| err("only http:// endpoints are supported".into()))?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/v1/traces"),
    };
    let addr = if authority.contains(':') {
        authority.to_string()
    } else {
        format!("{authority}:80")
    };
    let sock = addr
        .to_socket_addrs()
        .map_err(|e| err(format!("cannot resolve {addr}: {e}")))?
        .next()
        .ok_or_else(|| err(format!("{addr} resolves to no address")))?;
    let mut stream =
        TcpStream::connect_timeout(&sock, TIMEOUT).map_err(|e| err(format!("connect: {e}")))?;
    stream
        .set_read_timeout(Some(TIMEOUT))
        .and_then(|_| stream.set_write_timeout(Some(TIMEOUT)))
        .map_err(|e| err(e.to_string()))?;
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/x-protobuf\r\n\
         Content-Length: {}\r\nConnection: close\r\nUser-Agent: fornax/{}\r\n\r\n",
        body.len(),
        env!("CARGO_PKG_VERSION")
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|_| stream.write_all(body))
        .map_err(|e| err(format!("send: {e}")))?;
    let mut response = Vec::new();
    stream
        .take(MAX_RESPONSE)
        .read_to_end(&mut response)
        .map_err(|e| err(format!("read response: {e}")))?;
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| err("response has no header end".into()))?;
    let header = String::from_utf8_lossy(&response[..split]);
    let status: u16 = header
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| err(format!("bad status line: {:?}", header.lines().next())))?;
    let payload = &response[split + 4..];
    if !(200..300).contains(&status) {
        let text = String::from_utf8_lossy(&payload[..payload.len().min(300)]).into_owned();
        return Err(err(format!("HTTP {status}: {}", text.trim())));
    }
    let protobuf = header.lines().any(|l| {
        l.to_ascii_lowercase()
            .starts_with("content-type: application/x-protobuf")
    });
    let chunked = header.lines().any(|l| {
        l.to_ascii_lowercase()
            .starts_with("transfer-encoding: chunked")
    });
    if protobuf && !chunked && !payload.is_empty() {
        if let Ok(r) = ExportTraceServiceResponse::decode(payload) {
            return Ok(r.partial_success.map(|p| p.rejected_spans).unwrap_or(0));
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_endpoints_get_the_traces_path() {
        assert_eq!(traces_url("http://h:4318"), "http://h:4318/v1/traces");
        assert_eq!(traces_url("http://h:4318/"), "http://h:4318/v1/traces");
        assert_eq!(
            traces_url("http://h:6006/v1/traces"),
            "http://h:6006/v1/traces"
        );
    }

    #[test]
    fn https_is_refused_with_the_endpoint_named() {
        let e = post("https://example.invalid", b"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("https://example.invalid"), "{e}");
    }
}
