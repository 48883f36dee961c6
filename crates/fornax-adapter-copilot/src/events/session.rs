//! Session identity and the runtime's own events: start, resume, model changes, notices,
//! truncation, compaction and the shutdown's totals.

use super::*;

impl CopilotEventsAdapter {
    pub(super) fn session_start(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(id) = text_at(ev.data, "sessionId") else {
            return Handled::Ignored("session start without a session id");
        };
        if self.st.session.as_deref().is_some_and(|known| known != id) {
            return Handled::Ignored("a second session start naming another session");
        }
        self.st.session = Some(id.to_string());
        self.st.cwd = ev
            .data
            .get("context")
            .and_then(|c| text_at(c, "cwd"))
            .map(str::to_string);
        self.st.version = text_at(ev.data, "copilotVersion").map(str::to_string);
        if let Some(model) = text_at(ev.data, "selectedModel") {
            self.st.model = Some(model.to_string());
        }
        if let Some(s) = self.session_record(ev, None) {
            ev.out.push(IngestMessage::Session(s));
        }
        self.announce(id.to_string(), ev);
        Handled::Done
    }

    pub(super) fn session_record(&self, ev: &Ev<'_>, name: Option<String>) -> Option<Session> {
        let id = self.st.session.clone()?;
        Some(Session {
            id: SessionRef::new(Provider::Copilot, id),
            identity_record: ev.record.clone(),
            cwd: self.st.cwd.clone(),
            name,
            created_at: text_at(ev.data, "startTime")
                .map(str::to_string)
                .or_else(|| ev.at.clone()),
            forked_from: None,
            delegated_from: None,
            runtime_version: self.st.version.clone(),
        })
    }

    pub(super) fn republish_session(&mut self, ev: &mut Ev<'_>) {
        if let Some(s) = self.session_record(ev, None) {
            ev.out.push(IngestMessage::Session(Session {
                created_at: None,
                ..s
            }));
        }
    }

    /// Capabilities of a session, once.
    pub(super) fn announce(&mut self, native_id: String, ev: &mut Ev<'_>) {
        if self.st.announced.insert_new(&native_id, ()) {
            ev.out.push(IngestMessage::Capabilities(
                capabilities::session_log().stamped(&native_id, ADAPTER_VERSION),
            ));
        }
    }

    /// The session an event's facts go to: a subagent's, or the main one.
    pub(super) fn session_of(&self, ev: &Ev<'_>) -> Option<String> {
        match &ev.agent {
            Some(agent) => Some(
                self.st
                    .children
                    .get(agent)
                    .map(|c| c.native_id.clone())
                    .unwrap_or_else(|| child_id(self.st.session.as_deref(), agent)),
            ),
            None => self.st.session.clone(),
        }
    }

    pub(super) fn loop_position(&self, ev: &Ev<'_>) -> Option<u32> {
        if ev.agent.is_some() {
            return None;
        }
        self.st.open.as_ref().map(|o| o.position)
    }

    pub(super) fn item(&self, ev: &Ev<'_>, session: &str, key: String, semantic: Semantic) -> Item {
        Item {
            session: SessionRef::new(Provider::Copilot, session),
            key,
            loop_position: self.loop_position(ev),
            at: ev.at.clone(),
            semantic,
            records: vec![ev.record.clone()],
        }
    }

    /// A runtime text item keyed by the event id.
    pub(super) fn state_item(&mut self, ev: &mut Ev<'_>, role: Role, text: String) -> Handled {
        let Some(session) = self.session_of(ev) else {
            return Handled::Ignored("event before the session is known");
        };
        let semantic = Semantic::new(
            role,
            SemanticValue::Text(capped(&text)),
            EvidenceStrength::Structural,
        );
        let item = self.item(ev, &session, format!("event:{}", ev.id), semantic);
        ev.out.push(IngestMessage::Item(item));
        Handled::Done
    }

    pub(super) fn compaction(&mut self, ev: &mut Ev<'_>) -> Handled {
        if let Some(summary) = text_at(ev.data, "summaryContent") {
            let text = summary.to_string();
            return self.state_item(ev, Role::RuntimeCompactionSummary, text);
        }
        let mut text = match ev.data.get("success").and_then(Value::as_bool) {
            Some(false) => format!(
                "context compaction failed: {}",
                text_at(ev.data, "error").unwrap_or("no reason given")
            ),
            _ => "context compacted".to_string(),
        };
        if let Some(n) = u64_at(ev.data, "tokensRemoved") {
            text.push_str(&format!(" ({n} tokens removed)"));
        }
        self.state_item(ev, Role::RuntimeState, text)
    }

    pub(super) fn shutdown(&mut self, ev: &mut Ev<'_>) -> Handled {
        self.close_loop(ev, None);
        let text = shutdown_text(ev.data);
        self.state_item(ev, Role::RuntimeState, text)
    }
}

pub(super) fn truncation_text(data: &Value) -> String {
    let tokens =
        u64_at(data, "tokensRemovedDuringTruncation").or_else(|| u64_at(data, "droppedTokens"));
    let messages = u64_at(data, "messagesRemovedDuringTruncation");
    let mut text = "context truncated".to_string();
    match (tokens, messages) {
        (Some(t), Some(m)) => text.push_str(&format!(": {t} tokens in {m} messages removed")),
        (Some(t), None) => text.push_str(&format!(": {t} tokens removed")),
        (None, Some(m)) => text.push_str(&format!(": {m} messages removed")),
        (None, None) => {}
    }
    if let Some(reason) = text_at(data, "reason").or_else(|| text_at(data, "performedBy")) {
        text.push_str(&format!(" ({reason})"));
    }
    text
}

/// The session's end with what Copilot totals there: requests, per-model tokens, changes.
pub(super) fn shutdown_text(data: &Value) -> String {
    let mut text = format!(
        "session ended ({})",
        text_at(data, "shutdownType").unwrap_or("unknown reason")
    );
    if let Some(n) = data.get("totalPremiumRequests").and_then(Value::as_f64) {
        text.push_str(&format!("; premium requests: {n}"));
    }
    if let Some(models) = data.get("modelMetrics").and_then(Value::as_object) {
        for (model, m) in models {
            let requests = m
                .get("requests")
                .and_then(|r| r.get("count").or(Some(r)))
                .and_then(Value::as_u64);
            let usage = m.get("usage");
            let n = |k: &str| usage.and_then(|u| u64_at(u, k));
            text.push_str(&format!("\n{model}:"));
            if let Some(r) = requests {
                text.push_str(&format!(" {r} requests"));
            }
            if let (Some(i), Some(o)) = (n("inputTokens"), n("outputTokens")) {
                text.push_str(&format!(", {i} input / {o} output tokens"));
            }
            if let (Some(r), Some(w)) = (n("cacheReadTokens"), n("cacheWriteTokens")) {
                text.push_str(&format!(" (cache read {r}, written {w})"));
            }
        }
    }
    if let Some(changes) = data.get("codeChanges") {
        let files = changes
            .get("filesModified")
            .and_then(Value::as_array)
            .map(Vec::len);
        if let (Some(a), Some(r)) = (
            u64_at(changes, "linesAdded"),
            u64_at(changes, "linesRemoved"),
        ) {
            text.push_str(&format!(
                "\ncode changes: +{a} −{r}, files modified: {}",
                files.unwrap_or(0)
            ));
        }
    }
    if let Some(at) = data.get("sessionStartTime").and_then(iso_from_epoch) {
        text.push_str(&format!("\nstarted {at}"));
    }
    text
}
