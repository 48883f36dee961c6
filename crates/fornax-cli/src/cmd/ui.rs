//! `fornax ui`: the local web dashboard.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct UiArgs {
    /// The port on 127.0.0.1 to listen on (default: any free port).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Open the dashboard in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Make a new token: addresses (and cookies) with the old one stop working.
    #[arg(long)]
    pub new_token: bool,
}

/// Records read back through the same check as `fornax record verify`.
struct Records;

impl fornax_ui::server::RecordSource for Records {
    fn read(&self, location: &fornax_store::RecordLocation) -> fornax_ui::server::RawRecord {
        let (status, bytes) = super::record::check(location);
        fornax_ui::server::RawRecord {
            status: status.to_string(),
            bytes,
        }
    }
}

pub fn run(ctx: &Context, args: UiArgs) -> Result<(), CliError> {
    let options = fornax_ui::server::Options {
        home: ctx.home.clone(),
        port: args.port,
        renew_token: args.new_token,
        providers: super::filters::providers(),
        records: Arc::new(Records),
        poll: Duration::from_millis(500),
        prices: super::usage::price_table(ctx)?,
    };
    let json = ctx.json;
    let open = args.open;
    fornax_ui::server::serve(options, |started| {
        if json {
            output::json(&serde_json::json!({
                "url": started.url,
                "port": started.addr.port(),
            }));
        } else {
            output::line(&format!("Fornax UI: {}", started.url));
            output::line(&output::dim(
                "(only this machine can reach it; the address carries this home's token · Ctrl-C stops)",
            ));
        }
        let _ = std::io::stdout().flush();
        if open {
            open_browser(&started.url);
        }
    })
    .map_err(|e| CliError::from(anyhow::Error::new(e)))
}

fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        output::warn(&format!(
            "could not start {opener}: {e}; open the address yourself"
        ));
    }
}
