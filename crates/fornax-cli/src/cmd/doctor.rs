//! `fornax doctor`

use serde_json::json;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

fn spool_bytes(ctx: &Context) -> u64 {
    fornax_ingest::spool::spool_bytes(&ctx.spool_dir())
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
    let store = if ctx.db_path().exists() {
        Some(ctx.open_store_read_only()?.doctor_stats()?)
    } else {
        None
    };
    let exe = std::env::current_exe().ok();
    let daemon = fornax_daemon::request(
        &ctx.home,
        &json!({"op": "status"}),
        std::time::Duration::from_secs(1),
    )
    .ok();
    let socket = fornax_daemon::socket_path(&ctx.home);
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
    let report = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "home": ctx.home.display().to_string(),
        "binary": exe.as_ref().map(|p| p.display().to_string()),
        "binary_valid": exe.as_ref().is_some_and(|p| p.is_file()),
        "agents": super::install::agent_states(),
        "daemon": {
            "running": daemon.is_some(),
            "status": daemon,
            "socket": socket.display().to_string(),
            "socket_mode": socket_mode,
        },
        "last_event_received": last_event,
        "adapters": adapters,
        "store": store,
        "spool_bytes": spool_bytes(ctx),
    });
    if ctx.json {
        output::json(&report);
        return Ok(());
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
    match &report["daemon"]["status"] {
        serde_json::Value::Null => output::line(
            "  daemon: not running (hooks spool; `fornax scan` or `fornax daemon start` ingests)",
        ),
        s => output::line(&format!(
            "  daemon: running, pid {} · socket {} mode {}",
            s["pid"],
            report["daemon"]["socket"].as_str().unwrap_or(""),
            report["daemon"]["socket_mode"].as_str().unwrap_or("?")
        )),
    }
    output::line(&format!(
        "  last event received: {}",
        report["last_event_received"].as_str().unwrap_or("none")
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
            let names = |v: &serde_json::Value| {
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
        Some(s) => {
            output::heading("Store");
            output::line(&format!(
                "  {} ({} KiB, schema v{})",
                s.path,
                s.size_bytes / 1024,
                s.schema_version
            ));
            let by_status: Vec<String> = s
                .sources_by_status
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            output::line(&format!(
                "  sources: {} · sessions {} · records {} · items {} · malformed {} · oversized {}",
                if by_status.is_empty() {
                    "none".to_string()
                } else {
                    by_status.join(", ")
                },
                s.sessions,
                s.records,
                s.items,
                s.malformed,
                s.oversized
            ));
            if let Some(last) = &s.last_scan {
                output::line(&format!(
                    "  last scan: {} records, {} ms",
                    last["records"].as_u64().unwrap_or(0),
                    last["elapsed_ms"].as_u64().unwrap_or(0)
                ));
            }
            if s.drift.is_empty() {
                output::line("  drift: no unrecognized native shapes");
            } else {
                output::heading("Drift (unrecognized native shapes)");
                for d in &s.drift {
                    output::line(&format!(
                        "  {}:{}:{}  {} ×{}",
                        d.provider, d.runtime_version, d.discriminator, d.adapter, d.count
                    ));
                }
            }
        }
    }
    output::line(&format!(
        "Spool: {} bytes waiting or kept",
        spool_bytes(ctx)
    ));
    Ok(())
}
