//! Tool calls and their outputs, and the FileDiff evidence of file tools.

use fornax_types::evidence::FileDiffPayload;
use fornax_types::{
    ClockSource, Evidence, EvidencePayload, EvidenceSource, EvidenceStrength, Freshness,
    IngestMessage, Item, Provider, RecordRef, Role, Semantic, SemanticValue, TrustClass,
};
use serde_json::Value;

use super::state::{digest, CallState, SessionState};
use super::{Ctx, Transport, ERROR_TEXT_LIMIT};
use crate::json::short;
use crate::tools::{self, Ending, FileTarget};
use crate::ADAPTER_VERSION;
use fornax_types::kit::time::iso_from_millis;

/// One tool call: the runtime's tool name and its call id (`callID`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Call<'a> {
    pub tool: &'a str,
    pub id: &'a str,
}

/// Where and when a call item or output item sits.
#[derive(Debug, Clone, Copy)]
pub(super) struct Placement<'a> {
    pub loop_pos: Option<u32>,
    pub record: &'a RecordRef,
}

impl SessionState {
    pub(super) fn publish_call(
        &mut self,
        call: Call<'_>,
        input: &Value,
        at: Option<String>,
        place: Placement<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let (role, value) = tools::call_value(call.tool, call.id, input);
        let targets = if tools::is_file_tool(call.tool) {
            tools::file_targets(call.tool, Some(input), None)
        } else {
            Vec::new()
        };
        let state = CallState {
            tool: call.tool.to_string(),
            loop_pos: place.loop_pos,
            targets,
        };
        self.calls.insert(call.id.to_string(), state);
        let item = Item {
            session: self.sref(),
            key: format!("call:{}", call.id),
            loop_position: place.loop_pos,
            at,
            semantic: Semantic::new(role, value, EvidenceStrength::Structural),
            records: vec![place.record.clone()],
        };
        self.publish_item(item, out);
    }

    /// The output item of an ended call and, for file tools, one FileDiff per file it touched
    /// (or tried to).
    pub(super) fn publish_output(
        &mut self,
        call: Call<'_>,
        ending: &Ending<'_>,
        input: Option<&Value>,
        loop_pos: Option<u32>,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let key = format!("out:{}", call.id);
        let runtime_at = ending.end_ms.and_then(iso_from_millis);
        let at = runtime_at
            .clone()
            .or_else(|| ctx.observed_at.map(str::to_string));
        let value = tools::output_value(call.tool, call.id, ending);
        let item = Item {
            session: self.sref(),
            key: key.clone(),
            loop_position: loop_pos,
            at: at.clone(),
            semantic: Semantic::new(
                Role::ToolOutput,
                SemanticValue::ToolOutput(value),
                EvidenceStrength::Structural,
            ),
            records: vec![ctx.record.clone()],
        };
        self.publish_item(item, out);
        if !tools::is_file_tool(call.tool) {
            return;
        }
        let mut targets = tools::file_targets(call.tool, input, ending.metadata);
        if targets.is_empty() {
            targets = self
                .calls
                .get(call.id)
                .map(|c| c.targets.clone())
                .unwrap_or_default();
        }
        let clock = if runtime_at.is_some() {
            ClockSource::RuntimeRecord
        } else if self.transport == Transport::Plugin && ctx.observed_at.is_some() {
            ClockSource::HostClock
        } else {
            ClockSource::RecordOrderOnly
        };
        for target in targets {
            let mut evidence = self.file_diff(call, ending, &target, clock, ctx);
            evidence.item_key = Some(key.clone());
            evidence.loop_position = loop_pos;
            evidence.at = at.clone();
            let published = format!("evidence:{}", evidence.id);
            let d = digest(&(&evidence.payload, &evidence.loop_position, &evidence.at));
            if self.published.get(&published) == Some(&d) {
                continue;
            }
            self.published.insert(published, d);
            out.push(IngestMessage::Evidence(evidence));
        }
    }

    fn file_diff(
        &self,
        call: Call<'_>,
        ending: &Ending<'_>,
        target: &FileTarget,
        clock: ClockSource,
        ctx: &Ctx<'_>,
    ) -> Evidence {
        let succeeded = !ending.failed();
        let payload = FileDiffPayload {
            path: target.path.clone(),
            operation: target.operation,
            succeeded,
            tool: call.tool.to_string(),
            call_id: Some(call.id.to_string()),
            error: if succeeded {
                None
            } else {
                ending.error.map(|e| short(e, ERROR_TEXT_LIMIT))
            },
            lines_added: target.lines_added,
            lines_removed: target.lines_removed,
        };
        let caveat = (clock == ClockSource::HostClock)
            .then(|| "stamped by the fornax plugin when opencode fired the hook".to_string());
        Evidence {
            id: format!("file:{}:{}", call.id, target.path),
            session: self.sref(),
            payload: EvidencePayload::FileDiff(payload),
            source: EvidenceSource {
                sensor_name: "opencode.file_mutation".to_string(),
                trust_class: TrustClass::AgentAdjacent,
                collection_method: self.transport.method(),
                collector_version: ADAPTER_VERSION.to_string(),
                freshness: Freshness { clock, caveat },
                tamper_boundary: self.transport.tamper_boundary().to_string(),
                collected_at: match self.transport {
                    Transport::Plugin => ctx.observed_at.map(str::to_string),
                    Transport::Storage => None,
                },
                provider: Provider::Opencode,
            },
            provenance: format!("opencode:{ADAPTER_VERSION}:{}", ctx.discriminator),
            extension: None,
            item_key: None,
            loop_position: None,
            at: None,
            records: vec![ctx.record.clone()],
        }
    }
}
