//! File-mutation evidence from Claude Code's file tools (`Write`, `Edit`, `MultiEdit`): the only
//! evidence this adapter emits, because only the adapter can read these results. Exit codes,
//! test summaries and git outcomes are derived by core sensors from the canonical items.

use fornax_types::evidence::{FileDiffPayload, FileOperation};
use fornax_types::{
    ClockSource, CollectionMethod, Evidence, EvidencePayload, EvidenceSource, Freshness, Provider,
    RecordRef, SessionRef, TrustClass,
};
use serde_json::Value;

use crate::common::{get_str, get_text, line_count, strip_tool_use_error, ADAPTER_VERSION};

/// Longest error text kept in a failed attempt's payload.
const ERROR_LIMIT: usize = 500;

pub(crate) fn is_file_tool(name: &str) -> bool {
    matches!(name, "Write" | "Edit" | "MultiEdit")
}

/// Where and how the observation was made.
pub(crate) struct DiffSite<'a> {
    pub session: &'a SessionRef,
    pub record: &'a RecordRef,
    pub at: Option<&'a str>,
    pub loop_position: Option<u32>,
    pub method: CollectionMethod,
    /// The native shape, for the provenance breadcrumb (`user.tool_result`, `PostToolUse`).
    pub discriminator: &'a str,
}

/// What the file tool was asked and what it answered.
pub(crate) struct DiffAttempt<'a> {
    pub tool: &'a str,
    pub call_id: Option<&'a str>,
    /// The tool output item this evidence is about.
    pub item_key: &'a str,
    /// The path from the call's input, when the result does not restate it.
    pub input_path: Option<&'a str>,
    /// The content a `Write` was asked to write, when the result does not restate it.
    pub input_content_lines: Option<u64>,
    /// The tool's result object (`toolUseResult` / `tool_response`), on success.
    pub result: Option<&'a Value>,
    /// The runtime's error text, on failure.
    pub error: Option<&'a str>,
}

/// Added and removed lines of a `structuredPatch` (`[{lines: ["+a", "-b", " c"]}]`).
fn patch_counts(patch: &Value) -> Option<(u64, u64)> {
    let hunks = patch.as_array()?;
    let (mut added, mut removed) = (0u64, 0u64);
    for hunk in hunks {
        for line in hunk
            .get("lines")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            match line.as_str().and_then(|l| l.chars().next()) {
                Some('+') => added += 1,
                Some('-') => removed += 1,
                _ => {}
            }
        }
    }
    Some((added, removed))
}

fn shorten(text: &str) -> String {
    let t = strip_tool_use_error(text);
    if t.len() <= ERROR_LIMIT {
        return t.to_string();
    }
    let mut end = ERROR_LIMIT;
    while !t.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &t[..end])
}

/// The payload of one attempt, or `None` when no path is known.
pub(crate) fn payload(attempt: &DiffAttempt<'_>) -> Option<FileDiffPayload> {
    let result = attempt.result.filter(|r| r.is_object());
    let path = result
        .and_then(|r| get_text(r, "filePath"))
        .or(attempt.input_path)
        .filter(|p| !p.trim().is_empty())?;
    let succeeded = attempt.error.is_none();
    let operation = match (attempt.tool, result.and_then(|r| get_str(r, "type"))) {
        ("Write", Some("create")) => FileOperation::Create,
        _ => FileOperation::Update,
    };
    let (mut lines_added, mut lines_removed) = (None, None);
    if let Some((a, r)) = result
        .and_then(|r| r.get("structuredPatch"))
        .and_then(patch_counts)
    {
        if a > 0 || r > 0 || operation != FileOperation::Create {
            lines_added = Some(a);
            lines_removed = Some(r);
        }
    }
    if succeeded && operation == FileOperation::Create && lines_added.is_none() {
        // A created file's patch is empty: its size is the content written.
        lines_added = result
            .and_then(|r| get_str(r, "content"))
            .map(line_count)
            .or(attempt.input_content_lines);
        lines_removed = Some(0);
    }
    Some(FileDiffPayload {
        path: path.to_string(),
        operation,
        succeeded,
        tool: attempt.tool.to_string(),
        call_id: attempt.call_id.map(str::to_string),
        error: attempt.error.map(shorten),
        lines_added,
        lines_removed,
    })
}

fn tamper_boundary(method: CollectionMethod) -> &'static str {
    match method {
        CollectionMethod::HookCallback => {
            "Claude Code's own report of the file tool's result, handed to a hook command on \
             stdin; the agent process that made the edit also wrote this report"
        }
        _ => {
            "Claude Code's own record of the file tool's result, read from its transcript file; \
             any process with write access to the file could have altered it"
        }
    }
}

/// FileDiff evidence for one attempt, keyed deterministically by call and path.
pub(crate) fn evidence(site: &DiffSite<'_>, attempt: &DiffAttempt<'_>) -> Option<Evidence> {
    let payload = payload(attempt)?;
    let anchor = attempt.call_id.unwrap_or(attempt.item_key);
    Some(Evidence {
        id: format!("file:{anchor}:{}", payload.path),
        session: site.session.clone(),
        payload: EvidencePayload::FileDiff(payload),
        source: EvidenceSource {
            sensor_name: "claude.file_mutation".to_string(),
            trust_class: TrustClass::AgentAdjacent,
            collection_method: site.method,
            collector_version: ADAPTER_VERSION.to_string(),
            freshness: Freshness {
                clock: if site.at.is_some() {
                    ClockSource::RuntimeRecord
                } else {
                    ClockSource::RecordOrderOnly
                },
                caveat: None,
            },
            tamper_boundary: tamper_boundary(site.method).to_string(),
            collected_at: None,
            provider: Provider::ClaudeCode,
        },
        provenance: format!(
            "{}:{ADAPTER_VERSION}:{}:{}",
            Provider::ClaudeCode,
            site.discriminator,
            attempt.tool
        ),
        extension: None,
        item_key: Some(attempt.item_key.to_string()),
        loop_position: site.loop_position,
        at: site.at.map(str::to_string),
        records: vec![site.record.clone()],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn attempt<'a>(
        tool: &'a str,
        result: Option<&'a Value>,
        error: Option<&'a str>,
    ) -> DiffAttempt<'a> {
        DiffAttempt {
            tool,
            call_id: Some("toolu_1"),
            item_key: "out:toolu_1",
            input_path: Some("/w/a.rs"),
            input_content_lines: Some(3),
            result,
            error,
        }
    }

    #[test]
    fn write_create_counts_content_lines() {
        let r = json!({"type": "create", "filePath": "/w/new.py", "content": "a\nb\n", "structuredPatch": []});
        let p = payload(&attempt("Write", Some(&r), None)).unwrap();
        assert_eq!(p.operation, FileOperation::Create);
        assert_eq!(p.path, "/w/new.py");
        assert_eq!((p.lines_added, p.lines_removed), (Some(2), Some(0)));
        assert!(p.succeeded);
    }

    #[test]
    fn edit_counts_patch_lines() {
        let r = json!({"filePath": "/w/a.rs", "structuredPatch": [{"lines": [" x", "-y", "+z", "+w"]}]});
        let p = payload(&attempt("Edit", Some(&r), None)).unwrap();
        assert_eq!(p.operation, FileOperation::Update);
        assert_eq!((p.lines_added, p.lines_removed), (Some(2), Some(1)));
    }

    #[test]
    fn failed_edit_keeps_the_reason() {
        let err =
            "<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>";
        let p = payload(&attempt("Edit", None, Some(err))).unwrap();
        assert!(!p.succeeded);
        assert_eq!(p.path, "/w/a.rs");
        assert!(p.error.unwrap().starts_with("String to replace not found"));
    }

    #[test]
    fn no_path_no_evidence() {
        let mut a = attempt("Edit", None, Some("x"));
        a.input_path = None;
        assert!(payload(&a).is_none());
    }
}
