//! `fornax doctor`

use serde_json::json;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

fn spool_bytes(ctx: &Context) -> u64 {
    std::fs::read_dir(ctx.spool_dir())
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
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
            "signals": caps.signals,
        }));
    }
    let store = if ctx.db_path().exists() {
        Some(ctx.open_store_read_only()?.doctor_stats()?)
    } else {
        None
    };
    let report = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "home": ctx.home.display().to_string(),
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
    output::heading("Adapters and what each transport can observe");
    for a in &adapters {
        output::line(&format!(
            "  {} ({}, {}, adapter {})",
            a["name"].as_str().unwrap_or(""),
            a["provider"].as_str().unwrap_or(""),
            a["transport"].as_str().unwrap_or(""),
            a["adapter_version"].as_str().unwrap_or("")
        ));
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
