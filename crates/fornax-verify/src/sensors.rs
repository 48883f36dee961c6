//! Evidence sensors over canonical events. Each reads one tool output (with the call it
//! answers) and emits canonical [`Evidence`] stamped with an [`EvidenceSource`]:
//!
//! * [`ExitStatusSensor`] - the exit status of a shell call (`exit:<item key>`), structural when
//!   the runtime wrote the number, heuristic when derived from text or from a success flag.
//! * [`TestSummarySensor`] - a test runner's summary (`tests:<item key>`).
//! * [`GitOutcomeSensor`] - commits and pushes (`git:<item key>`, `git:<item key>:<n>`).
//! * [`FileChangeSensor`] - files written by edit tools, patches and shell writes
//!   (`fs:<item key>:<path>`).
//!
//! Sensors are pure: the same items give the same evidence, with the same ids.

use std::sync::LazyLock;

use fornax_types::evidence::{
    ExitCodePayload, FileDiffPayload, GitOutcomePayload, TestSummaryPayload,
};
use fornax_types::shell::parse_invocations;
use fornax_types::{
    ClockSource, CollectionMethod, Evidence, EvidencePayload, EvidenceSensor, EvidenceSource,
    EvidenceStrength, Freshness, Item, RuntimeCapabilities, SemanticValue, SensorInput,
    SensorOutcome, SignalClass, ToolOutputValue, TrustClass,
};
use regex::Regex;

use crate::commands::{self, base_name, effective_invocations};
use crate::fschange::{self, strip_heredocs, FileTarget};
use crate::gitout;
use crate::timeline::shell_command_in;

/// The version stamped on every piece of derived evidence.
pub const COLLECTOR_VERSION: &str = env!("CARGO_PKG_VERSION");

const TAMPER_BOUNDARY: &str =
    "Derived by Fornax from the agent runtime's own record of the tool call and its output; \
the agent process wrote that record and could have altered it.";

const SHELL_SIGNALS: &[SignalClass] = &[SignalClass::ToolInvocation, SignalClass::ToolOutput];
const FILE_SIGNALS: &[SignalClass] = &[SignalClass::ToolInvocation, SignalClass::ToolOutput];

/// The shell command a call item runs, if it is a shell call.
pub fn shell_command(call: &Item) -> Option<String> {
    match &call.semantic.value {
        SemanticValue::ShellCall(c) => Some(c.command.clone()),
        SemanticValue::ToolCall(c) => {
            shell_command_in(&c.name, &c.arguments).map(std::borrow::Cow::into_owned)
        }
        _ => None,
    }
}

fn call_id_of(call: &Item) -> Option<String> {
    match &call.semantic.value {
        SemanticValue::ShellCall(c) => c.call_id.clone(),
        SemanticValue::ToolCall(c) => c.call_id.clone(),
        _ => None,
    }
}

fn cwd_of(call: &Item) -> Option<String> {
    match &call.semantic.value {
        SemanticValue::ShellCall(c) => c.cwd.clone(),
        SemanticValue::ToolCall(c) => c.cwd.clone(),
        _ => None,
    }
}

fn tool_output(item: &Item) -> Option<&ToolOutputValue> {
    match &item.semantic.value {
        SemanticValue::ToolOutput(o) => Some(o),
        _ => None,
    }
}

/// The output as one text: what the model saw, then standard error when kept apart.
/// Borrowed when there is no separate standard error (the common case).
pub fn output_text(o: &ToolOutputValue) -> std::borrow::Cow<'_, str> {
    let out = o.text.as_ref().map_or("", |t| t.text.as_str());
    let err = o.stderr.as_ref().map_or("", |t| t.text.as_str());
    if err.is_empty() {
        return std::borrow::Cow::Borrowed(out);
    }
    let mut s = String::with_capacity(out.len() + 1 + err.len());
    s.push_str(out);
    if !s.is_empty() {
        s.push('\n');
    }
    s.push_str(err);
    std::borrow::Cow::Owned(s)
}

/// Exit status facts of one shell output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExitFacts {
    pub code: Option<i64>,
    pub strength: EvidenceStrength,
    pub failed: Option<bool>,
    pub interrupted: Option<bool>,
    pub timed_out: Option<bool>,
}

static EXIT_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*(?:Error: )?(?:Exit code:? |Process exited with code |Command exited with code |Exit Code: |exit status |Exited with code )(-?\d+)\s*$")
        .expect("valid regex")
});
static TIMED_OUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?im)^\s*(?:command )?timed out(?-u:\b)|(?-u:\b)command timed out after(?-u:\b)|^\s*timeout: the monitored command dumped core").expect("valid regex")
});

/// The exit status of a shell output: the runtime's number when it wrote one (with the
/// strength it gave), else one read from a conventional line of the output (`Exit code 1`,
/// `Process exited with code 0`, `Command exited with code 2`: heuristic), else 0 assumed from
/// a call the runtime reported as not failed (heuristic).
pub fn exit_facts(o: &ToolOutputValue) -> ExitFacts {
    let text = output_text(o);
    let timed_out = TIMED_OUT.is_match(&text).then_some(true);
    if let Some(code) = o.exit_code {
        return ExitFacts {
            code: Some(code.code),
            strength: code.strength,
            failed: o.failed,
            interrupted: o.interrupted,
            timed_out,
        };
    }
    let lines: Vec<regex::Captures<'_>> = EXIT_LINE.captures_iter(&text).collect();
    // A header line (`Exit code 1` first) wins over a trailer (`Command exited with code 2`).
    let header = lines.iter().find(|c| {
        c.get(0)
            .is_some_and(|m| text[..m.start()].lines().count() <= 3)
    });
    if let Some(c) = header.or(lines.last()) {
        if let Some(code) = c.get(1).and_then(|m| m.as_str().parse::<i64>().ok()) {
            return ExitFacts {
                code: Some(code),
                strength: EvidenceStrength::Heuristic,
                failed: o.failed,
                interrupted: o.interrupted,
                timed_out,
            };
        }
    }
    let code = match o.failed {
        Some(false) if o.interrupted != Some(true) && timed_out.is_none() => Some(0),
        _ => None,
    };
    ExitFacts {
        code,
        strength: EvidenceStrength::Heuristic,
        failed: o.failed,
        interrupted: o.interrupted,
        timed_out,
    }
}

/// Programs whose output merely shows text (a log, a file): a test summary inside it is not a
/// test run.
fn is_viewer(command: &str) -> bool {
    let invs = effective_invocations(&parse_invocations(&strip_heredocs(command)));
    let Some(first) = invs.iter().find(|i| i.program != "cd") else {
        return true;
    };
    let program = base_name(&first.program);
    matches!(
        program,
        "cat"
            | "head"
            | "tail"
            | "less"
            | "more"
            | "grep"
            | "rg"
            | "ag"
            | "awk"
            | "echo"
            | "printf"
            | "ls"
            | "find"
            | "bat"
            | "jq"
            | "wc"
            | "diff"
            | "sort"
            | "uniq"
            | "cut"
            | "tr"
            | "xxd"
            | "od"
            | "nl"
            | "column"
            | "view"
    ) || (program == "sed" && first.argv.iter().any(|a| a == "-n"))
        || (program == "git"
            && first.argv.first().is_some_and(|a| {
                matches!(
                    a.as_str(),
                    "log" | "show" | "diff" | "status" | "blame" | "grep"
                )
            }))
}

fn source(sensor: &str, item: &Item) -> EvidenceSource {
    EvidenceSource {
        sensor_name: sensor.to_string(),
        trust_class: TrustClass::AgentAdjacent,
        collection_method: CollectionMethod::CanonicalDerivation,
        collector_version: COLLECTOR_VERSION.to_string(),
        freshness: match item.at {
            Some(_) => Freshness {
                clock: ClockSource::RuntimeRecord,
                caveat: None,
            },
            None => Freshness {
                clock: ClockSource::RecordOrderOnly,
                caveat: Some(
                    "the runtime wrote no timestamp; ordered by record position".to_string(),
                ),
            },
        },
        tamper_boundary: TAMPER_BOUNDARY.to_string(),
        collected_at: None,
        provider: item.session.provider.clone(),
    }
}

fn evidence(
    sensor: &str,
    id: String,
    payload: EvidencePayload,
    input: &SensorInput<'_>,
) -> Evidence {
    let item = input.item;
    let mut records = item.records.clone();
    if let Some(call) = input.call {
        for r in &call.records {
            if !records.contains(r) {
                records.push(r.clone());
            }
        }
    }
    Evidence {
        id,
        session: item.session.clone(),
        payload,
        source: source(sensor, item),
        provenance: format!("fornax-verify:{COLLECTOR_VERSION}:{sensor}"),
        extension: None,
        item_key: Some(item.key.clone()),
        loop_position: item.loop_position,
        at: item.at.clone(),
        records,
    }
}

/// The shell output and command a sensor input carries, if it is one.
fn shell_input<'a>(input: &SensorInput<'a>) -> Option<(&'a ToolOutputValue, &'a Item, String)> {
    let output = tool_output(input.item)?;
    let call = input.call?;
    let command = shell_command(call)?;
    Some((output, call, command))
}

/// Exit status of every shell call.
#[derive(Debug, Clone, Copy, Default)]
pub struct ExitStatusSensor;

impl EvidenceSensor for ExitStatusSensor {
    fn name(&self) -> &'static str {
        "exit_status"
    }

    fn required_capabilities(&self) -> &'static [SignalClass] {
        SHELL_SIGNALS
    }

    fn trust_class(&self) -> TrustClass {
        TrustClass::AgentAdjacent
    }

    fn collect(&self, input: &SensorInput<'_>, _caps: &RuntimeCapabilities) -> SensorOutcome {
        let Some((output, call, command)) = shell_input(input) else {
            return SensorOutcome::nothing();
        };
        let facts = exit_facts(output);
        let payload = ExitCodePayload {
            command,
            call_id: output.call_id.clone().or_else(|| call_id_of(call)),
            cwd: cwd_of(call),
            exit_code: facts.code,
            strength: facts.strength,
            failed: facts.failed,
            interrupted: facts.interrupted,
            timed_out: facts.timed_out,
            duration_ms: output.duration_ms,
        };
        let id = format!("exit:{}", input.item.key);
        SensorOutcome::collected(vec![evidence(
            self.name(),
            id,
            EvidencePayload::ExitCode(payload),
            input,
        )])
    }
}

/// Test-runner summaries in shell output.
#[derive(Debug, Clone, Copy, Default)]
pub struct TestSummarySensor;

impl EvidenceSensor for TestSummarySensor {
    fn name(&self) -> &'static str {
        "test_summary"
    }

    fn required_capabilities(&self) -> &'static [SignalClass] {
        SHELL_SIGNALS
    }

    fn trust_class(&self) -> TrustClass {
        TrustClass::AgentAdjacent
    }

    fn collect(&self, input: &SensorInput<'_>, _caps: &RuntimeCapabilities) -> SensorOutcome {
        let Some((output, call, command)) = shell_input(input) else {
            return SensorOutcome::nothing();
        };
        if is_viewer(&command) {
            return SensorOutcome::nothing();
        }
        let invocations = effective_invocations(&parse_invocations(&strip_heredocs(&command)));
        // The run's own test tool reads its output first; any runner's format after that.
        let tool = invocations
            .iter()
            .filter_map(crate::tools::recognise)
            .find(|(t, u)| u.kind == commands::CommandKind::Test && t.test_parser().is_some())
            .map(|(t, _)| t);
        let Some(summary) = crate::tools::parse_tests(&output_text(output), tool) else {
            return SensorOutcome::nothing();
        };
        let class = commands::classify(&parse_invocations(&strip_heredocs(&command)));
        let filtered = (class.kind == commands::CommandKind::Test && class.filtered)
            || summary.reports_filter();
        let payload = TestSummaryPayload {
            runner: summary.runner.to_string(),
            command: Some(command),
            call_id: output.call_id.clone().or_else(|| call_id_of(call)),
            passed: summary.passed,
            failed: summary.failed,
            skipped: summary.skipped,
            filtered_out: summary.filtered_out,
            filtered: Some(filtered),
            scopes: summary.scopes,
            scopes_truncated: summary.scopes_truncated.then_some(true),
        };
        let id = format!("tests:{}", input.item.key);
        SensorOutcome::collected(vec![evidence(
            self.name(),
            id,
            EvidencePayload::TestSummary(payload),
            input,
        )])
    }
}

/// Git commits and pushes in shell output.
#[derive(Debug, Clone, Copy, Default)]
pub struct GitOutcomeSensor;

impl EvidenceSensor for GitOutcomeSensor {
    fn name(&self) -> &'static str {
        "git_outcome"
    }

    fn required_capabilities(&self) -> &'static [SignalClass] {
        SHELL_SIGNALS
    }

    fn trust_class(&self) -> TrustClass {
        TrustClass::AgentAdjacent
    }

    fn collect(&self, input: &SensorInput<'_>, _caps: &RuntimeCapabilities) -> SensorOutcome {
        let Some((output, call, command)) = shell_input(input) else {
            return SensorOutcome::nothing();
        };
        let call_id = output.call_id.clone().or_else(|| call_id_of(call));
        let mut out = Vec::new();
        for (n, outcome) in gitout::parse_all(&command, &output_text(output))
            .into_iter()
            .enumerate()
        {
            let payload = GitOutcomePayload {
                call_id: call_id.clone(),
                ..outcome
            };
            let id = if n == 0 {
                format!("git:{}", input.item.key)
            } else {
                format!("git:{}:{n}", input.item.key)
            };
            out.push(evidence(
                self.name(),
                id,
                EvidencePayload::GitOutcome(payload),
                input,
            ));
        }
        SensorOutcome::collected(out)
    }
}

/// Files written by edit tools, patches and shell commands.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileChangeSensor;

/// The files a call writes and whether the write happened (`None`: not known).
pub fn file_changes(
    call: &Item,
    output: Option<&ToolOutputValue>,
) -> Vec<(FileTarget, Option<bool>, Option<String>)> {
    let text = output.map(output_text).unwrap_or_default();
    if let Some(command) = shell_command(call) {
        let stripped = strip_heredocs(&command);
        let targets = fschange::shell_targets(&command, &parse_invocations(&stripped));
        if targets.is_empty() {
            return Vec::new();
        }
        let succeeded = output.and_then(|o| {
            let facts = exit_facts(o);
            match (facts.code, facts.failed) {
                (Some(code), _) => Some(code == 0),
                (None, Some(failed)) => Some(!failed),
                (None, None) => None,
            }
        });
        let error = (succeeded == Some(false)).then(|| first_line(&text));
        // A lone `rm` that failed names the paths it could not remove; the others are gone.
        let invocations = effective_invocations(&parse_invocations(&stripped));
        let lone_rm =
            invocations.len() == 1 && matches!(base_name(&invocations[0].program), "rm" | "unlink");
        if succeeded == Some(false) && lone_rm {
            let failures = fschange::rm_failures(&text);
            if !failures.is_empty() {
                return targets
                    .into_iter()
                    .map(|t| {
                        match failures
                            .iter()
                            .find(|(p, _)| crate::paths::same_file(&t.path, p))
                        {
                            Some((p, why)) => {
                                let error = format!("rm: cannot remove '{p}': {why}");
                                (t, Some(false), Some(error))
                            }
                            None => (t, Some(true), None),
                        }
                    })
                    .collect();
            }
        }
        return targets
            .into_iter()
            .map(|t| (t, succeeded, error.clone()))
            .collect();
    }
    let (name, arguments) = match &call.semantic.value {
        SemanticValue::ToolCall(c) => (c.name.as_str(), &c.arguments),
        _ => return Vec::new(),
    };
    let Some(mut targets) = fschange::tool_call_targets(name, arguments) else {
        return Vec::new();
    };
    if targets.is_empty() {
        targets = fschange::patch_output_targets(&text, name);
    }
    let succeeded = output.map(|o| {
        let failed = match (o.failed, o.exit_code) {
            (Some(true), _) => true,
            (_, Some(code)) if code.code != 0 => true,
            (Some(false), _) => {
                fschange::edit_output_failed(&text) && text.contains("<tool_use_error>")
            }
            (None, _) => fschange::edit_output_failed(&text),
        };
        !failed
    });
    let error = (succeeded == Some(false)).then(|| first_line(&text));
    targets
        .into_iter()
        .map(|t| (t, succeeded, error.clone()))
        .collect()
}

fn first_line(text: &str) -> String {
    let line = text
        .lines()
        .map(|l| {
            l.trim()
                .trim_start_matches("<tool_use_error>")
                .trim_end_matches("</tool_use_error>")
        })
        .find(|l| !l.is_empty())
        .unwrap_or("");
    line.chars().take(200).collect()
}

impl EvidenceSensor for FileChangeSensor {
    fn name(&self) -> &'static str {
        "file_change"
    }

    fn required_capabilities(&self) -> &'static [SignalClass] {
        FILE_SIGNALS
    }

    fn trust_class(&self) -> TrustClass {
        TrustClass::AgentAdjacent
    }

    fn collect(&self, input: &SensorInput<'_>, _caps: &RuntimeCapabilities) -> SensorOutcome {
        let (Some(output), Some(call)) = (tool_output(input.item), input.call) else {
            return SensorOutcome::nothing();
        };
        let call_id = output.call_id.clone().or_else(|| call_id_of(call));
        let mut seen: Vec<String> = Vec::new();
        let mut out = Vec::new();
        for (t, succeeded, error) in file_changes(call, Some(output)) {
            let Some(succeeded) = succeeded else { continue };
            if t.path.is_empty() || seen.contains(&t.path) {
                continue;
            }
            seen.push(t.path.clone());
            let payload = FileDiffPayload {
                path: t.path.clone(),
                operation: t.operation,
                succeeded,
                tool: t.tool.clone(),
                call_id: call_id.clone(),
                error,
                lines_added: None,
                lines_removed: None,
            };
            let id = format!("fs:{}:{}", input.item.key, t.path);
            out.push(evidence(
                self.name(),
                id,
                EvidencePayload::FileDiff(payload),
                input,
            ));
        }
        SensorOutcome::collected(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::*;
    use fornax_types::{Provider, SourceKind};

    fn caps() -> RuntimeCapabilities {
        RuntimeCapabilities::new(Provider::ClaudeCode, SourceKind::File)
    }

    #[test]
    fn exit_status_from_runtime_text_and_flag() {
        let call = shell_call("c1", Some("t1"), "cargo test");
        let out = output(
            "o1",
            Some("t1"),
            "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out",
            Some(0),
            None,
        );
        let got = ExitStatusSensor.collect(
            &SensorInput {
                item: &out,
                call: Some(&call),
            },
            &caps(),
        );
        assert_eq!(got.evidence.len(), 1);
        let ev = &got.evidence[0];
        assert_eq!(ev.id, "exit:o1");
        let p = ev.payload.exit_code().unwrap();
        assert_eq!(
            (p.exit_code, p.strength),
            (Some(0), EvidenceStrength::Structural)
        );
        assert_eq!(ev.source.sensor_name, "exit_status");
        assert_eq!(
            ev.source.collection_method,
            CollectionMethod::CanonicalDerivation
        );
        assert_eq!(ev.source.freshness.clock, ClockSource::RecordOrderOnly);

        let failed = output(
            "o2",
            Some("t1"),
            "Exit code 101\n   Compiling x\nerror[E0308]: mismatched types",
            None,
            Some(true),
        );
        let got = ExitStatusSensor.collect(
            &SensorInput {
                item: &failed,
                call: Some(&call),
            },
            &caps(),
        );
        let p = got.evidence[0].payload.exit_code().unwrap();
        assert_eq!(
            (p.exit_code, p.strength),
            (Some(101), EvidenceStrength::Heuristic)
        );

        let quiet = output("o3", Some("t1"), "", None, Some(false));
        let got = ExitStatusSensor.collect(
            &SensorInput {
                item: &quiet,
                call: Some(&call),
            },
            &caps(),
        );
        let p = got.evidence[0].payload.exit_code().unwrap();
        assert_eq!(
            (p.exit_code, p.strength),
            (Some(0), EvidenceStrength::Heuristic)
        );

        let trailer = output(
            "o4",
            Some("t1"),
            "2 passed, 1 failed\n\nCommand exited with code 2",
            None,
            Some(true),
        );
        assert_eq!(
            exit_facts(match &trailer.semantic.value {
                SemanticValue::ToolOutput(o) => o,
                _ => unreachable!(),
            })
            .code,
            Some(2)
        );
    }

    #[test]
    fn summaries_skip_file_viewers() {
        let text = "1 failed, 9 passed in 0.40s";
        let run = shell_call("c1", Some("a"), "python -m pytest -q 2>&1 | tail -n 5");
        let out = output("o1", Some("a"), text, None, Some(false));
        let got = TestSummarySensor.collect(
            &SensorInput {
                item: &out,
                call: Some(&run),
            },
            &caps(),
        );
        let p = got.evidence[0].payload.test_summary().unwrap();
        assert_eq!(
            (p.runner.as_str(), p.failed, p.filtered),
            ("pytest", Some(1), Some(false))
        );
        let view = shell_call("c2", Some("b"), "cat ci.log");
        let out = output("o2", Some("b"), text, Some(0), None);
        assert!(TestSummarySensor
            .collect(
                &SensorInput {
                    item: &out,
                    call: Some(&view)
                },
                &caps()
            )
            .evidence
            .is_empty());
    }

    #[test]
    fn git_and_file_changes() {
        let call = shell_call(
            "c1",
            Some("g"),
            "git add -A && git commit -m 'x' && git push",
        );
        let out = output("o1", Some("g"), "[main 1a2b3c4] x\n 1 file changed\nTo github.com:a/b.git\n   0000001..1a2b3c4  main -> main", Some(0), None);
        let got = GitOutcomeSensor.collect(
            &SensorInput {
                item: &out,
                call: Some(&call),
            },
            &caps(),
        );
        let ids: Vec<&str> = got.evidence.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, vec!["git:o1", "git:o1:1"]);

        let edit = tool_call(
            "c2",
            Some("e"),
            "Edit",
            serde_json::json!({"file_path": "/p/src/a.js"}),
        );
        let bad = output(
            "o2",
            Some("e"),
            "<tool_use_error>String to replace not found in file.</tool_use_error>",
            None,
            Some(true),
        );
        let got = FileChangeSensor.collect(
            &SensorInput {
                item: &bad,
                call: Some(&edit),
            },
            &caps(),
        );
        let p = got.evidence[0].payload.file_diff().unwrap();
        assert_eq!(got.evidence[0].id, "fs:o2:/p/src/a.js");
        assert!(!p.succeeded);
        assert_eq!(
            p.error.as_deref(),
            Some("String to replace not found in file.")
        );
    }
}
