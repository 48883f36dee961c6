//! Canonical JSONL: one JSON object per line, each with a `type` (`export`, `session`, `loop`,
//! `item`, `finding`); the first line names the schema and its version. Items are the canonical
//! model's `Item` as it serializes. Output is deterministic (no export time), so two exports of
//! the same data are byte-identical.

use std::io::Write;

use serde_json::{json, Map, Value};

use crate::SessionExport;

/// Bumped on any change that could make an old reader misread a line.
pub const SCHEMA_VERSION: u32 = 1;
/// The `$id` of `docs/schema/fornax-export-v1.schema.json`.
pub const SCHEMA_ID: &str = "https://fornax.invalid/schema/fornax-export-v1.schema.json";

pub(super) fn write(export: &SessionExport, out: &mut dyn Write) -> std::io::Result<()> {
    line(
        out,
        json!({
            "type": "export",
            "schema": SCHEMA_ID,
            "version": SCHEMA_VERSION,
            "root": {"provider": export.session.provider, "native_id": export.session.native_id},
        }),
    )?;
    for s in export.walk() {
        let sref = json!({"provider": s.session.provider, "native_id": s.session.native_id});
        line(
            out,
            json!({
                "type": "session",
                "provider": s.session.provider,
                "native_id": s.session.native_id,
                "parent_native_id": s.session.parent_native_id,
                "cwd": s.session.cwd,
                "name": s.session.name,
                "created_at": s.session.created_at,
                "last_activity": s.session.last_activity,
                "runtime_version": s.session.runtime_version,
            }),
        )?;
        for l in &s.loops {
            line(
                out,
                json!({
                    "type": "loop",
                    "session": sref,
                    "position": l.position,
                    "native_id": l.native_id,
                    "started_at": l.started_at,
                    "ended_at": l.ended_at,
                    "outcome": l.outcome,
                    "model": l.model,
                    "usage": {
                        "input_tokens": l.input_tokens,
                        "cached_input_tokens": l.cached_input_tokens,
                        "output_tokens": l.output_tokens,
                        "reasoning_output_tokens": l.reasoning_output_tokens,
                    },
                }),
            )?;
        }
        for item in &s.items {
            let mut v = match serde_json::to_value(item) {
                Ok(Value::Object(m)) => m,
                _ => Map::new(),
            };
            v.insert("type".into(), Value::String("item".into()));
            line(out, Value::Object(v))?;
        }
        for f in &s.findings {
            line(
                out,
                json!({
                    "type": "finding",
                    "session": sref,
                    "item_key": f.item_key,
                    "loop_position": f.loop_position,
                    "at": f.at,
                    "claim": f.claim,
                    "verdict": f.verdict,
                    "rationale": f.rationale,
                    "evidence": f.evidence,
                    "rule": f.rule,
                    "computed_at": f.computed_at,
                }),
            )?;
        }
    }
    Ok(())
}

fn line(out: &mut dyn Write, v: Value) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, &v)?;
    out.write_all(b"\n")
}
