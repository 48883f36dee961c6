//! `fornax doctor`: what is connected, whether the store is sound, what the daemon and the
//! spool are doing, and what the last scan could not read. Exits 1 when the store is damaged.

use std::path::Path;

use fornax_live::protocol::StoreState;
use serde_json::{json, Value};

use crate::error::CliError;
use crate::home::Context;
use crate::output;

/// The store's state: its statistics and the result of `PRAGMA quick_check`, or why it could
/// not be read (a damaged file often cannot even be opened).
fn store_report(db: &Path) -> Option<(Value, bool)> {
    if !db.exists() {
        return None;
    }
    let (mut stats, problems) = match fornax_store::Store::open_read_only(db) {
        Ok(store) => {
            let problems = store
                .quick_check(20)
                .unwrap_or_else(|e| vec![e.to_string()]);
            let stats = match store.doctor_stats() {
                Ok(st) => serde_json::to_value(st).unwrap_or_default(),
                Err(e) => json!({"path": db.display().to_string(), "error": e.to_string()}),
            };
            (stats, problems)
        }
        Err(e) => (
            json!({"path": db.display().to_string(), "error": e.to_string()}),
            vec![e.to_string()],
        ),
    };
    let ok = problems.is_empty();
    let db_text = db.display().to_string();
    let recovery = format!(
        "stop the daemon (`fornax daemon stop`), then salvage what SQLite can read: \
         sqlite3 '{db_text}' '.recover' | sqlite3 '{db_text}.recovered' && \
         mv '{db_text}' '{db_text}.corrupt' && mv '{db_text}.recovered' '{db_text}' \
         — or set it aside and rebuild from the agents' files still on disk: \
         mv '{db_text}' '{db_text}.corrupt' && fornax scan"
    );
    if let Some(obj) = stats.as_object_mut() {
        obj.insert(
            "integrity".into(),
            json!({"ok": ok, "problems": problems, "recovery": (!ok).then_some(recovery)}),
        );
    }
    Some((stats, ok))
}

/// The spool's size and age, and what of it the store does not hold yet.
fn spool_report(ctx: &Context) -> Value {
    let segments = fornax_live::spool::segments(&ctx.spool_dir());
    let bytes: u64 = segments.iter().map(|s| s.bytes).sum();
    let pending = fornax_store::Store::open_read_only(&ctx.db_path())
        .ok()
        .and_then(|store| fornax_ingest::spool::backlog(&store, &ctx.spool_dir()).ok())
        .map(|b| b.bytes)
        .unwrap_or(bytes);
    json!({
        "dir": ctx.spool_dir().display().to_string(),
        "segments": segments.len(),
        "bytes": bytes,
        "pending_bytes": pending,
        "oldest": segments.first().map(|s| s.day.clone()),
        "newest": segments.last().map(|s| s.day.clone()),
    })
}

/// Claude Code's settings folder: `CLAUDE_CONFIG_DIR` when set (as Claude Code reads it), else
/// `~/.claude`.
fn claude_dir() -> Option<std::path::PathBuf> {
    match std::env::var_os("CLAUDE_CONFIG_DIR") {
        Some(dir) if !dir.is_empty() => Some(dir.into()),
        _ => dirs::home_dir().map(|h| h.join(".claude")),
    }
}

/// Claude Code deletes transcripts older than this many days unless `cleanupPeriodDays` says
/// otherwise.
const CLAUDE_DEFAULT_CLEANUP_DAYS: i64 = 30;

/// How long the agents keep their own history, and what the archive keeps of it: a warning
/// when Claude Code will delete transcripts (`cleanupPeriodDays`, 30 days when unset).
fn history_report(ctx: &Context) -> Value {
    let enabled = ctx.config.archive.enabled();
    let archive = fornax_store::Store::open_read_only(&ctx.db_path())
        .ok()
        .and_then(|store| store.archive_stats().ok());
    let archive_json = archive.as_ref().map(|a| {
        json!({
            "copies": a.blobs,
            "redacted_bytes": a.raw_bytes,
            "stored_bytes": a.stored_bytes,
            "records_archived": a.records_archived,
            "records_not_archived": a.records_unarchived,
            "sessions_archived": a.sessions_archived,
            "sessions": a.sessions,
        })
    });
    let claude = claude_dir().filter(|d| d.is_dir()).map(|dir| {
        let settings = dir.join("settings.json");
        let (days, set, error) = match std::fs::read(&settings) {
            Err(_) => (CLAUDE_DEFAULT_CLEANUP_DAYS, false, None),
            Ok(bytes) => match serde_json::from_slice::<Value>(&bytes) {
                Ok(v) => match v.get("cleanupPeriodDays").and_then(Value::as_i64) {
                    Some(n) => (n, true, None),
                    None => (CLAUDE_DEFAULT_CLEANUP_DAYS, false, None),
                },
                Err(e) => (
                    CLAUDE_DEFAULT_CLEANUP_DAYS,
                    false,
                    Some(format!("{}: {e}", settings.display())),
                ),
            },
        };
        let kept = match &archive {
            Some(a) => format!("{} of {} sessions are archived", a.sessions_archived, a.sessions),
            None => "no sessions are stored yet".to_string(),
        };
        let origin = if set {
            format!("cleanupPeriodDays = {days} in {}", settings.display())
        } else {
            format!("cleanupPeriodDays unset: Claude Code's default of {days} days")
        };
        let warning = if enabled {
            format!("Claude Code deletes transcripts older than {days} days ({origin}); {kept}, so they outlive it")
        } else {
            format!("Claude Code deletes transcripts older than {days} days ({origin}) and the archive is off ([archive] enabled = false): their sessions will keep their items but not their records' bytes; {kept}")
        };
        json!({
            "settings": settings.display().to_string(),
            "cleanup_period_days": days,
            "cleanup_period_set": set,
            "settings_error": error,
            "warning": warning,
        })
    });
    json!({"archive_enabled": enabled, "archive": archive_json, "claude_code": claude})
}

fn print_history(h: &Value) {
    output::heading("History");
    let a = &h["archive"];
    if h["archive_enabled"] == false {
        output::line("  archive: off ([archive] enabled = false): records' bytes are not kept");
    } else if a.is_object() {
        output::line(&format!(
            "  archive: {} of {} sessions archived · {} copies, {} redacted bytes stored in {}{}",
            a["sessions_archived"],
            a["sessions"],
            a["copies"],
            a["redacted_bytes"],
            a["stored_bytes"],
            match a["records_not_archived"].as_u64() {
                Some(0) | None => String::new(),
                Some(n) => format!(" · {n} records stored without a copy"),
            }
        ));
    } else {
        output::line("  archive: on (nothing stored yet)");
    }
    if let Some(c) = h["claude_code"].as_object() {
        if let Some(e) = c["settings_error"].as_str() {
            output::warn(&format!("cannot read Claude Code's settings: {e}"));
        }
        if let Some(w) = c["warning"].as_str() {
            output::warn(w);
        }
    }
}

pub fn run(ctx: &Context) -> Result<(), CliError> {
    let registry = crate::registry::registry();
    let mut adapters = Vec::new();
    for d in registry.descriptors() {
        let adapter = (d.create)();
        let caps = adapter.probe();
        adapters.push(json!({
            "name": d.name,
            "provider": d.provider.as_str(),
            "transport": d.transport.as_str(),
            "adapter_version": adapter.adapter_version(),
            "default_roots": d.default_roots,
            "document_tree": d.tree.map(|t| json!({
                "root_marker": t.root_marker,
                "database": t.database.map(|db| db.file_names),
            })),
            "signals": caps.signals,
        }));
    }
    let store = store_report(&ctx.db_path());
    let healthy = store.as_ref().is_none_or(|(_, ok)| *ok);
    let store = store.map(|(v, _)| v);
    let exe = std::env::current_exe().ok();
    let daemon = super::daemon::status(&ctx.home);
    let socket = fornax_live::client::socket_path(&ctx.home);
    let socket_mode = {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(&socket)
            .ok()
            .map(|m| format!("{:o}", m.permissions().mode() & 0o777))
    };
    let last_event = std::fs::read_dir(ctx.spool_dir())
        .ok()
        .and_then(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok()?.modified().ok())
                .max()
        })
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| fornax_ingest::clock::format_unix_millis(d.as_millis() as i64));
    let spool = spool_report(ctx);
    let agents = super::install::agent_states();
    let hooked = agents.iter().any(|a| {
        matches!(a["agent"].as_str(), Some("claude" | "opencode" | "cursor"))
            && a["installed"] == true
    });
    let live = super::status::live(ctx, || hooked);
    let live_json = live_report(&live);
    let report = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "home": ctx.home.display().to_string(),
        "binary": exe.as_ref().map(|p| p.display().to_string()),
        "binary_valid": exe.as_ref().is_some_and(|p| p.is_file()),
        "agents": agents,
        "live": live_json,
        "daemon": {
            "running": daemon.is_some(),
            "ingesting": daemon.as_ref().is_some_and(|d| d.ingesting()),
            "status": daemon.as_ref().map(super::daemon::status_json),
            "socket": socket.display().to_string(),
            "socket_mode": socket_mode,
        },
        "last_event_received": last_event,
        "adapters": adapters,
        "store": store,
        "spool": spool,
        "spool_bytes": spool["bytes"],
        "capture_exclude": ctx.config.capture.excluded(),
        "history": history_report(ctx),
    });
    if ctx.json {
        output::json(&report);
        return if healthy {
            Ok(())
        } else {
            Err(CliError::Exit(1))
        };
    }
    output::heading(&format!(
        "fornax {} · home {}",
        env!("CARGO_PKG_VERSION"),
        ctx.home.display()
    ));
    output::heading("Agents");
    for a in report["agents"].as_array().into_iter().flatten() {
        output::line(&format!(
            "  {:<9} {:<40} {}",
            a["agent"].as_str().unwrap_or(""),
            a["transport"].as_str().unwrap_or(""),
            if a["installed"] == true {
                "connected".to_string()
            } else {
                format!(
                    "not installed (fornax install {})",
                    a["agent"].as_str().unwrap_or("")
                )
            }
        ));
    }
    output::line(&format!(
        "  binary {} ({})",
        report["binary"].as_str().unwrap_or("?"),
        if report["binary_valid"] == true {
            "ok"
        } else {
            "missing"
        }
    ));
    output::line(&format!(
        "  live capture: {}",
        report["live"]["summary"].as_str().unwrap_or("")
    ));
    if let Some(fix) = report["live"]["fix"].as_str() {
        output::line(&format!("    fix: {fix}"));
    }
    match &daemon {
        None => output::line(
            "  daemon: not running (hooks spool; `fornax scan` or `fornax daemon start` ingests)",
        ),
        Some(s) => {
            output::line(&format!(
                "  daemon: running, pid {} · {} · socket {} mode {}",
                s.pid,
                super::daemon::describe_store(s),
                report["daemon"]["socket"].as_str().unwrap_or(""),
                report["daemon"]["socket_mode"].as_str().unwrap_or("?")
            ));
            if s.store.state != StoreState::Ok {
                output::warn(
                    "the daemon receives events but cannot store them yet; they wait in the spool",
                );
            }
        }
    }
    output::line(&format!(
        "  last event received: {}",
        report["last_event_received"].as_str().unwrap_or("none")
    ));
    let excluded = ctx.config.capture.excluded();
    output::line(&format!(
        "  never captured ([capture] exclude): {}",
        if excluded.is_empty() {
            "nothing".to_string()
        } else {
            excluded.join(", ")
        }
    ));
    output::heading("Adapters and what each transport can observe");
    for a in &adapters {
        output::line(&format!(
            "  {} ({}, {}, adapter {})",
            a["name"].as_str().unwrap_or(""),
            a["provider"].as_str().unwrap_or(""),
            a["transport"].as_str().unwrap_or(""),
            a["adapter_version"].as_str().unwrap_or("")
        ));
        if let Some(tree) = a["document_tree"].as_object() {
            let names = |v: &Value| {
                v.as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|n| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let db = names(&tree["database"]);
            output::line(&format!(
                "      reads a document tree (folders {}){}; one source per session",
                names(&tree["root_marker"]),
                if db.is_empty() {
                    String::new()
                } else {
                    format!(" or the database {db} (read-only)")
                }
            ));
        }
        if let Some(signals) = a["signals"].as_object() {
            for (class, sig) in signals {
                output::line(&format!(
                    "      {:<20} {:<12} {}",
                    class,
                    sig["availability"].as_str().unwrap_or(""),
                    output::dim(sig["detail"].as_str().unwrap_or(""))
                ));
            }
        }
    }
    match &store {
        None => output::line("Store: none yet (run `fornax scan`)"),
        Some(s) => print_store(s),
    }
    print_spool(&spool);
    print_history(&report["history"]);
    if healthy {
        Ok(())
    } else {
        Err(CliError::Exit(1))
    }
}

/// Live capture's state with the fix, as the status line words it.
fn live_report(live: &super::status::Live) -> Value {
    use super::status::{describe_waiting, Live};
    let (state, waiting, fix) = match live {
        Live::Capturing => ("capturing", None, None),
        Live::NotStoring(_, w) => (
            "not_storing",
            Some(w),
            Some("see the daemon's store state below; stop the other writer or repair the store"),
        ),
        Live::Spooling(w) => (
            "spooling",
            Some(w),
            Some("`fornax daemon start` (or `fornax install claude --service` to keep it running); `fornax scan` stores the spool once"),
        ),
        Live::NotInstalled => (
            "not_installed",
            None,
            Some("`fornax install claude` (or opencode, cursor) connects an agent's hooks"),
        ),
    };
    let summary = match (state, waiting) {
        ("capturing", _) => "capturing (the daemon stores events as they arrive)".to_string(),
        ("not_storing", Some(w)) => format!(
            "NOT storing: the daemon cannot write the store; {}",
            describe_waiting(w)
        ),
        ("spooling", Some(w)) => format!(
            "spooling: no daemon runs; {} in the spool",
            describe_waiting(w)
        ),
        _ => "not installed: no agent's hooks or plugin send events".to_string(),
    };
    json!({
        "state": state,
        "summary": summary,
        "waiting_events": waiting.map(|w| w.events),
        "waiting_exact": waiting.map(|w| w.exact),
        "waiting_since": waiting.and_then(|w| w.oldest.clone()),
        "fix": fix,
    })
}

fn print_store(s: &Value) {
    output::heading("Store");
    let integrity = &s["integrity"];
    if integrity["ok"] == false {
        output::error(
            &format!(
                "the database is damaged: {}",
                integrity["problems"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .take(3)
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            integrity["recovery"].as_str(),
        );
    }
    if let Some(e) = s["error"].as_str() {
        output::line(&format!(
            "  {}: cannot read it: {e}",
            s["path"].as_str().unwrap_or("")
        ));
        return;
    }
    output::line(&format!(
        "  {} ({} KiB, schema v{}, integrity {})",
        s["path"].as_str().unwrap_or(""),
        s["size_bytes"].as_u64().unwrap_or(0) / 1024,
        s["schema_version"],
        if integrity["ok"] == true {
            "ok"
        } else {
            "DAMAGED"
        }
    ));
    let by_status: Vec<String> = s["sources_by_status"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    output::line(&format!(
        "  sources: {} · sessions {} · records {} · items {} · malformed {} · oversized {}",
        if by_status.is_empty() {
            "none".to_string()
        } else {
            by_status.join(", ")
        },
        s["sessions"],
        s["records"],
        s["items"],
        s["malformed"],
        s["oversized"]
    ));
    let last = &s["last_scan"];
    let not_read = last["skipped_files_total"].as_u64().unwrap_or(0);
    if last.is_object() {
        output::line(&format!(
            "  last scan: {} records, {} ms, {} source{} failed, {} file{} not read",
            last["records"].as_u64().unwrap_or(0),
            last["elapsed_ms"].as_u64().unwrap_or(0),
            last["errors"].as_array().map_or(0, Vec::len),
            if last["errors"].as_array().map_or(0, Vec::len) == 1 {
                ""
            } else {
                "s"
            },
            not_read,
            if not_read == 1 { "" } else { "s" },
        ));
        for e in last["errors"].as_array().into_iter().flatten().take(5) {
            output::line(&format!(
                "    failed: {} ({})",
                e["path"].as_str().unwrap_or(""),
                e["error"].as_str().unwrap_or("")
            ));
        }
        for f in last["skipped_files"]
            .as_array()
            .into_iter()
            .flatten()
            .take(10)
        {
            output::line(&format!(
                "    not read: {} ({})",
                f["path"].as_str().unwrap_or(""),
                f["reason"].as_str().unwrap_or("")
            ));
        }
        if not_read > 10 {
            output::line(&output::dim(&format!(
                "    … and {} more (`fornax scan --json` lists them)",
                not_read - 10
            )));
        }
    }
    let drift = s["drift"].as_array().cloned().unwrap_or_default();
    if drift.is_empty() {
        output::line(&format!(
            "  drift: no unrecognized native shapes in what was read{}",
            if not_read > 0 {
                " (some files were not read: see above)"
            } else {
                ""
            }
        ));
    } else {
        output::heading("Drift (unrecognized native shapes)");
        for d in &drift {
            output::line(&format!(
                "  {}:{}:{}  {} ×{}",
                d["provider"].as_str().unwrap_or(""),
                d["runtime_version"].as_str().unwrap_or(""),
                d["discriminator"].as_str().unwrap_or(""),
                d["adapter"].as_str().unwrap_or(""),
                d["count"]
            ));
        }
    }
}

fn print_spool(spool: &Value) {
    let bytes = spool["bytes"].as_u64().unwrap_or(0);
    if bytes == 0 {
        output::line("Spool: empty");
        return;
    }
    output::line(&format!(
        "Spool: {} bytes in {} segment{} (oldest {}, newest {}), {} bytes not stored yet",
        bytes,
        spool["segments"],
        if spool["segments"] == 1 { "" } else { "s" },
        spool["oldest"].as_str().unwrap_or("?"),
        spool["newest"].as_str().unwrap_or("?"),
        spool["pending_bytes"]
    ));
}
