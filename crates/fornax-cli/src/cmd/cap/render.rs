//! The sentences `fornax cap …` prints for a person: one function per report of the
//! capability library, which itself never formats text.

use std::fmt::Write as _;

use fornax_capability::lifecycle::Direction;
use fornax_capability::report::{
    InitReport, InspectReport, LifecycleReport, ListReport, RunReport, TrustListReport,
    TrustReport, UntrustReport,
};
use fornax_capability::{CapReport, DoctorReport};
use serde_json::Value;

/// The text for one report (empty when there is nothing to say).
pub fn report(report: &CapReport) -> String {
    let mut out = String::new();
    match report {
        CapReport::List(r) => list(r, &mut out),
        CapReport::Inspect(r) => inspect(r, &mut out),
        CapReport::Run(r) => run(r, &mut out),
        CapReport::Init(r) => init(r, &mut out),
        CapReport::Lifecycle(r) => lifecycle(r, &mut out),
        CapReport::Trust(r) => trust(r, &mut out),
        CapReport::Untrust(r) => untrust(r, &mut out),
        CapReport::TrustList(r) => trust_list(r, &mut out),
        CapReport::Doctor(r) => doctor(r, &mut out),
    }
    out
}

fn list(r: &ListReport, out: &mut String) {
    let width = r.shown.iter().map(|c| c.id.len()).max().unwrap_or(0);
    for c in &r.shown {
        let _ = writeln!(
            out,
            "{:<width$}  {:<8}  {}",
            c.id,
            c.lifecycle.as_str(),
            c.summary
        );
    }
    if r.shown.is_empty() {
        let _ = writeln!(out, "no capabilities");
    }
    if r.hidden > 0 {
        let _ = writeln!(
            out,
            "{} not active and hidden: use --all to show them",
            r.hidden
        );
    }
    if r.rejected > 0 {
        let _ = writeln!(
            out,
            "{} manifest(s) rejected: run `fornax cap doctor`",
            r.rejected
        );
    }
}

fn inspect(r: &InspectReport, out: &mut String) {
    let _ = writeln!(out, "{}  ({})", r.id, r.lifecycle.as_str());
    let _ = writeln!(out, "  {}", r.summary);
    let _ = writeln!(out, "  origin: {}", r.origin.describe());
    let _ = writeln!(out, "  provider: {}  owner: {}", r.provider, r.owner);
    match &r.adapters {
        Err(e) => {
            let _ = writeln!(out, "  adapters: error: {e}");
        }
        Ok(a) => {
            let _ = writeln!(
                out,
                "  type adapter: {} ({})",
                a.type_adapter,
                a.type_adapter_path.as_deref().unwrap_or("built-in")
            );
            if let Some((name, path)) = &a.provider_adapter {
                let _ = writeln!(
                    out,
                    "  provider adapter: {name} ({})",
                    path.as_deref().unwrap_or("built-in")
                );
            }
        }
    }
    let _ = writeln!(out, "  sideEffects: {}", r.side_effects.join(", "));
    let policies = if r.policies.is_empty() {
        "(none)".to_string()
    } else {
        r.policies.join(", ")
    };
    let _ = writeln!(out, "  policies: {policies}");
    for e in &r.policy_errors {
        let _ = writeln!(out, "  policy error: {e}");
    }
    for w in &r.policy_warnings {
        let _ = writeln!(out, "  policy warning: {w}");
    }
    for arg in &r.args {
        let _ = writeln!(
            out,
            "  arg {}: {}{}{}",
            arg.name,
            arg.kind.as_deref().unwrap_or("any"),
            if arg.required { " (required)" } else { "" },
            arg.description
                .as_deref()
                .map(|d| format!(" — {d}"))
                .unwrap_or_default()
        );
    }
}

fn run(r: &RunReport, out: &mut String) {
    if r.ok {
        match &r.data {
            Value::String(s) => out.push_str(s),
            Value::Null => {}
            other => out.push_str(&serde_json::to_string_pretty(other).unwrap_or_default()),
        }
        if !out.ends_with('\n') && !out.is_empty() {
            out.push('\n');
        }
    } else {
        let _ = writeln!(out, "error: {}", r.error.as_deref().unwrap_or("failed"));
    }
    for w in &r.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
}

fn init(r: &InitReport, out: &mut String) {
    for p in &r.created {
        let _ = writeln!(out, "created {}", p.display());
    }
    let _ = writeln!(
        out,
        "hint: it is a draft; edit it, check it with `fornax cap doctor`, promote it deliberately"
    );
}

fn lifecycle(r: &LifecycleReport, out: &mut String) {
    let verb = match r.direction {
        Direction::Promote => "promoted",
        Direction::Demote => "demoted",
    };
    let _ = writeln!(out, "{verb} {}: {} → {} ({})", r.id, r.from, r.to, r.path);
}

fn trust(r: &TrustReport, out: &mut String) {
    if r.files.is_empty() {
        let _ = writeln!(out, "nothing to trust under {}", r.target.display());
        return;
    }
    let _ = writeln!(
        out,
        "trusted {} file(s) as they are now (recorded in {}):",
        r.files.len(),
        r.store.display()
    );
    for f in &r.files {
        let _ = writeln!(out, "  {}  {}", f.path.display(), f.hash);
        if let Some(what) = &f.defines {
            let _ = writeln!(out, "      {what}");
        }
    }
    let _ = writeln!(
        out,
        "a file that changes is untrusted again until you trust it anew"
    );
}

fn untrust(r: &UntrustReport, out: &mut String) {
    let _ = writeln!(
        out,
        "untrusted {} file(s) under {}",
        r.removed.len(),
        r.target.display()
    );
    for p in &r.removed {
        let _ = writeln!(out, "  {}", p.display());
    }
}

fn trust_list(r: &TrustListReport, out: &mut String) {
    for rec in &r.records {
        let _ = writeln!(
            out,
            "{}  {}  (trusted {})",
            rec.path.display(),
            rec.state.as_str(),
            rec.trusted_at
        );
    }
    if r.records.is_empty() {
        out.push_str("nothing is trusted\n");
    }
    if let Some(p) = &r.problem {
        let _ = writeln!(out, "warning: {p}");
    }
}

/// `cap doctor`: lines starting `error:` or `warning:` are the findings.
fn doctor(r: &DoctorReport, out: &mut String) {
    match &r.confinement {
        Some(report) => {
            let _ = writeln!(out, "confinement of capability processes on this machine:");
            for c in &report.items {
                let _ = writeln!(
                    out,
                    "  {} {:<11} {}",
                    if c.active { "on " } else { "OFF" },
                    c.name,
                    c.detail
                );
            }
            for c in report.inactive() {
                let _ = writeln!(out, "warning: not confined: {}: {}", c.name, c.detail);
            }
        }
        None => {
            let _ = writeln!(
                out,
                "warning: capability processes run unconfined (no confinement helper)"
            );
        }
    }
    let _ = writeln!(
        out,
        "capabilities: {} loaded, {} rejected",
        r.loaded.len(),
        r.rejected_capabilities.len()
    );
    let _ = writeln!(out, "  home: {}", r.home);
    let _ = writeln!(
        out,
        "  workspace: {}",
        r.workspace.as_deref().unwrap_or("(none)")
    );
    for r in &r.rejected_capabilities {
        let _ = writeln!(
            out,
            "error: rejected {}{}",
            r.location,
            r.id.as_ref().map(|i| format!(" ({i})")).unwrap_or_default()
        );
        for p in &r.problems {
            let _ = writeln!(out, "  - {p}");
        }
    }
    let count = |kind: &str, prov: &str| {
        r.adapters
            .iter()
            .filter(|a| a["kind"] == kind && a["provenance"]["kind"] == prov)
            .count()
    };
    let _ = writeln!(
        out,
        "adapters: type {} built-in / {} global / {} toolspace; provider {} built-in / {} global / {} toolspace; {} rejected",
        count("type-adapter", "builtin"),
        count("type-adapter", "global"),
        count("type-adapter", "toolspace"),
        count("provider", "builtin"),
        count("provider", "global"),
        count("provider", "toolspace"),
        r.rejected_adapters.len()
    );
    for a in r
        .adapters
        .iter()
        .filter(|a| a["provenance"]["kind"] != "builtin")
    {
        let _ = writeln!(
            out,
            "  {} {} ({}) {}",
            a["kind"].as_str().unwrap_or_default(),
            a["name"].as_str().unwrap_or_default(),
            a["lifecycleState"].as_str().unwrap_or_default(),
            a["provenance"]["path"].as_str().unwrap_or_default()
        );
    }
    for r in &r.rejected_adapters {
        let _ = writeln!(out, "error: rejected adapter {}", r.location);
        for p in &r.problems {
            let _ = writeln!(out, "  - {p}");
        }
    }
    for m in &r.missing {
        let who = m["capability"]
            .as_str()
            .or_else(|| m["adapter"].as_str())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "error: {who}: {}",
            m["problem"].as_str().unwrap_or_default()
        );
    }
    for o in &r.orphaned {
        let _ = writeln!(
            out,
            "warning: orphaned toolspace adapters {} ({})",
            o["path"].as_str().unwrap_or_default(),
            o["reason"].as_str().unwrap_or_default()
        );
    }
    for s in &r.shadowing {
        let _ = writeln!(
            out,
            "warning: toolspace {} adapter {:?} shadows {}",
            s["toolspace"].as_str().unwrap_or_default(),
            s["adapter"].as_str().unwrap_or_default(),
            s["shadows"].as_str().unwrap_or_default()
        );
    }
    for p in &r.policies {
        let level = if p["status"] == "unknown" {
            "error"
        } else {
            "warning"
        };
        let _ = writeln!(
            out,
            "{level}: {} declares {} policy {:?}",
            p["capability"].as_str().unwrap_or_default(),
            p["status"].as_str().unwrap_or_default(),
            p["policy"].as_str().unwrap_or_default()
        );
    }
    if !r.has_errors() {
        let _ = writeln!(out, "ok");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fornax_capability::report::{ListedCapability, TrustRecordState, TrustState};
    use fornax_capability::LifecycleState;
    use serde_json::json;

    #[test]
    fn doctor_names_shadowing_and_orphans_as_warnings() {
        let doctor = DoctorReport {
            home: "/h".into(),
            shadowing: vec![
                json!({"toolspace": "ci", "adapter": "wrap", "shadows": "global wrap"}),
            ],
            orphaned: vec![json!({"path": "/w/toolspaces/ghost/adapters", "reason": "no mount"})],
            ..DoctorReport::default()
        };
        let text = report(&CapReport::Doctor(Box::new(doctor)));
        assert!(
            text.contains("warning: toolspace ci adapter \"wrap\" shadows global wrap"),
            "{text}"
        );
        assert!(
            text.contains(
                "warning: orphaned toolspace adapters /w/toolspaces/ghost/adapters (no mount)"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_list_aligns_ids_and_says_what_it_hid() {
        let cap = |id: &str| ListedCapability {
            id: id.into(),
            lifecycle: LifecycleState::Active,
            summary: "s".into(),
        };
        let text = report(&CapReport::List(ListReport {
            shown: vec![cap("workspace.a.x"), cap("global.bb.yy")],
            hidden: 2,
            rejected: 1,
        }));
        assert_eq!(
            text,
            "workspace.a.x  active    s\nglobal.bb.yy   active    s\n\
             2 not active and hidden: use --all to show them\n\
             1 manifest(s) rejected: run `fornax cap doctor`\n"
        );
    }

    #[test]
    fn a_failed_run_starts_with_error_and_keeps_its_warnings() {
        let text = report(&CapReport::Run(RunReport {
            ok: false,
            data: Value::Null,
            error: Some("`ls` exited with status 2".into()),
            warnings: vec!["ran unconfined".into()],
        }));
        assert_eq!(
            text,
            "error: `ls` exited with status 2\nwarning: ran unconfined\n"
        );
    }

    #[test]
    fn trust_states_read_as_words() {
        let text = report(&CapReport::TrustList(TrustListReport {
            records: vec![TrustRecordState {
                path: "/w/.fornax/capabilities/t.json".into(),
                hash: "h".into(),
                trusted_at: "2026-12-01T00:00:00Z".into(),
                state: TrustState::Changed,
            }],
            problem: None,
        }));
        assert_eq!(
            text,
            "/w/.fornax/capabilities/t.json  changed since trusted  (trusted 2026-12-01T00:00:00Z)\n"
        );
    }
}
