//! `fornax export otlp`: sessions as OpenTelemetry traces (GenAI semantic conventions) sent over
//! OTLP/HTTP with protobuf bodies, or appended to a file of length-delimited
//! `ExportTraceServiceRequest` messages.
//!
//! Idempotent and incremental: span ids derive from native ids, and a cursor per endpoint
//! (under `FORNAX_HOME/export/otlp/`) keeps a fingerprint of every span the endpoint accepted,
//! so a second export of unchanged data sends nothing and a grown session sends only the spans
//! that are new or changed.

mod cursor;
#[cfg(feature = "grpc")]
mod grpc;
mod http;
pub mod ids;
mod spans;

use std::io::Write;
use std::path::{Path, PathBuf};

use fornax_store::{SessionFilter, Store};
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{InstrumentationScope, KeyValue};
use opentelemetry_proto::tonic::resource::v1::Resource;
use opentelemetry_proto::tonic::trace::v1::{ResourceSpans, ScopeSpans, Span};
use prost::Message;

pub use cursor::Cursor;
pub use spans::{family_spans, ContentPolicy};

use crate::{load_session, ExportError};

/// Spans per request: receivers commonly cap a request at a few MiB.
const BATCH: usize = 256;

/// Where spans go.
#[derive(Debug, Clone)]
pub enum Target {
    /// An OTLP/HTTP endpoint (`http://host:port`, `/v1/traces` added when no path is given).
    Http(String),
    /// An OTLP/gRPC endpoint (`http://host:4317`; built with the `grpc` feature).
    #[cfg(feature = "grpc")]
    Grpc(String),
    /// A file that length-delimited requests are appended to.
    File(PathBuf),
}

impl Target {
    /// The cursor's key: the same target always resumes from the same cursor.
    pub fn key(&self) -> String {
        match self {
            Target::Http(u) => http::traces_url(u),
            #[cfg(feature = "grpc")]
            Target::Grpc(u) => format!("grpc:{u}"),
            Target::File(p) => format!("file:{}", p.display()),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct OtlpOptions {
    /// Only sessions active at or after this ISO time.
    pub since: Option<String>,
    /// Only this session (row id) and its subagents.
    pub session: Option<i64>,
    /// Ignore the cursor: send every span again.
    pub full: bool,
    pub content: ContentPolicy,
    /// Resource attribute `service.name`.
    pub service_name: Option<String>,
    /// More resource attributes (for example a receiver's project name).
    pub resource: Vec<(String, String)>,
}

/// What one export did.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct OtlpReport {
    pub target: String,
    pub sessions: usize,
    pub spans_built: usize,
    pub spans_sent: usize,
    pub requests: usize,
    /// Spans the receiver said it rejected (partial success).
    pub spans_rejected: i64,
}

/// Exports the selected sessions to `target`, keeping the cursor under `home`.
pub fn export(
    store: &Store,
    home: &Path,
    target: &Target,
    opts: &OtlpOptions,
) -> Result<OtlpReport, ExportError> {
    let mut cursor = if opts.full {
        Cursor::empty(home, &target.key())
    } else {
        Cursor::load(home, &target.key())?
    };
    let roots = roots(store, opts)?;
    let mut report = OtlpReport {
        target: target.key(),
        ..OtlpReport::default()
    };
    let mut pending: Vec<(Span, [u8; 16])> = Vec::new();
    for root in roots {
        let export = load_session(store, root)?;
        report.sessions += 1;
        for span in family_spans(&export, opts.content) {
            report.spans_built += 1;
            let fp = fingerprint(&span);
            if cursor.is_sent(&span.span_id, &fp) {
                continue;
            }
            pending.push((span, fp));
            if pending.len() >= BATCH {
                send(target, opts, &mut pending, &mut cursor, &mut report)?;
            }
        }
    }
    send(target, opts, &mut pending, &mut cursor, &mut report)?;
    Ok(report)
}

/// Root sessions to export (a subagent selected by the filter exports its whole family).
fn roots(store: &Store, opts: &OtlpOptions) -> Result<Vec<i64>, ExportError> {
    let ids: Vec<i64> = match opts.session {
        Some(id) => vec![id],
        None => store
            .list_sessions(&SessionFilter {
                since: opts.since.clone(),
                ..SessionFilter::default()
            })?
            .into_iter()
            .map(|s| s.id)
            .collect(),
    };
    let mut roots = Vec::new();
    for id in ids {
        let r = store.family_root(id)?;
        if !roots.contains(&r) {
            roots.push(r);
        }
    }
    // Oldest first, so that an interrupted export resumes where it stopped.
    roots.sort_unstable();
    Ok(roots)
}

fn send(
    target: &Target,
    opts: &OtlpOptions,
    pending: &mut Vec<(Span, [u8; 16])>,
    cursor: &mut Cursor,
    report: &mut OtlpReport,
) -> Result<(), ExportError> {
    if pending.is_empty() {
        return Ok(());
    }
    let batch: Vec<(Span, [u8; 16])> = std::mem::take(pending);
    let (spans, fps): (Vec<Span>, Vec<[u8; 16]>) = batch.into_iter().unzip();
    let ids: Vec<Vec<u8>> = spans.iter().map(|s| s.span_id.clone()).collect();
    let request = request(
        spans,
        opts.service_name.as_deref().unwrap_or("fornax"),
        &opts.resource,
    );
    match target {
        Target::Http(url) => {
            report.spans_rejected += http::post(url, &request.encode_to_vec())?;
        }
        #[cfg(feature = "grpc")]
        Target::Grpc(url) => {
            report.spans_rejected += grpc::export(url, request)?;
        }
        Target::File(path) => {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| ExportError::io(path, e))?;
            f.write_all(&request.encode_length_delimited_to_vec())
                .and_then(|_| f.sync_data())
                .map_err(|e| ExportError::io(path, e))?;
        }
    }
    report.requests += 1;
    report.spans_sent += ids.len();
    for (id, fp) in ids.iter().zip(fps) {
        cursor.mark(id, fp);
    }
    cursor.save()
}

/// One request: a resource (`service.name` and the given attributes), one scope (`fornax`), the spans.
pub fn request(
    spans: Vec<Span>,
    service_name: &str,
    resource: &[(String, String)],
) -> ExportTraceServiceRequest {
    let attr = |k: &str, v: &str| KeyValue {
        key: k.into(),
        value: Some(opentelemetry_proto::tonic::common::v1::AnyValue {
            value: Some(
                opentelemetry_proto::tonic::common::v1::any_value::Value::StringValue(v.into()),
            ),
        }),
        ..Default::default()
    };
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            resource: Some(Resource {
                attributes: std::iter::once(attr("service.name", service_name))
                    .chain(resource.iter().map(|(k, v)| attr(k, v)))
                    .collect(),
                ..Default::default()
            }),
            scope_spans: vec![ScopeSpans {
                scope: Some(InstrumentationScope {
                    name: "fornax".into(),
                    version: env!("CARGO_PKG_VERSION").into(),
                    ..Default::default()
                }),
                spans,
                schema_url: String::new(),
            }],
            schema_url: String::new(),
        }],
    }
}

fn fingerprint(span: &Span) -> [u8; 16] {
    let mut out = [0u8; 16];
    out.copy_from_slice(&blake3::hash(&span.encode_to_vec()).as_bytes()[..16]);
    out
}

/// Reads a file written by the file target back into requests (for checks and tools).
pub fn read_file(path: &Path) -> Result<Vec<ExportTraceServiceRequest>, ExportError> {
    let bytes = std::fs::read(path).map_err(|e| ExportError::io(path, e))?;
    let mut buf = bytes.as_slice();
    let mut out = Vec::new();
    while !buf.is_empty() {
        let req = ExportTraceServiceRequest::decode_length_delimited(&mut buf).map_err(|e| {
            ExportError::io(
                path,
                std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
            )
        })?;
        out.push(req);
    }
    Ok(out)
}
