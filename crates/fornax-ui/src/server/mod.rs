//! `fornax ui`: a local, read-only web dashboard of the index.
//!
//! Pages are rendered on the server from the store's read API (each request opens its own
//! read-only connection in a blocking task) and enhanced by a small script: evidence opens in
//! a side panel, outputs expand, subagent timelines load when opened, long timelines load page
//! by page while never holding more than [`timeline::MAX_ROWS`] item rows, and server-sent
//! events announce what the daemon (or a scan) adds so pages refresh themselves.
//!
//! Security (see [`guard`]): loopback only; a per-home token in the address, exchanged for a
//! cookie; `Host`, `Origin` and `Sec-Fetch-Site` checked against DNS rebinding and other
//! sites; a strict content security policy; every asset compiled in.

mod assets;
mod diff;
mod guard;
mod html;
mod live;
mod pages;
mod timeline;
mod token;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::routing::get;
use axum::Router;
use fornax_store::{RecordLocation, Store, StoreError};
use fornax_types::Provider;

/// Reads a record's native bytes back from its source and checks them against the stored
/// fingerprint. The binary provides it: only it knows every adapter (foreign databases).
pub trait RecordSource: Send + Sync + 'static {
    fn read(&self, location: &RecordLocation) -> RawRecord;
}

/// A record read back: `status` is `verified` when the bytes match the fingerprint; bytes
/// are present only then.
#[derive(Debug, Clone)]
pub struct RawRecord {
    pub status: String,
    pub bytes: Option<Vec<u8>>,
}

#[derive(Debug, thiserror::Error)]
pub enum UiError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind { port: u16, source: std::io::Error },
    #[error("no randomness for the token: {0}")]
    Random(String),
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
}

/// How to serve.
pub struct Options {
    /// Fornax's home (its database is `fornax.db` there; the token is kept there too).
    pub home: PathBuf,
    /// 0 picks a free port.
    pub port: u16,
    /// A new token instead of the kept one.
    pub renew_token: bool,
    /// The providers this build reads (for validating filters).
    pub providers: Vec<Provider>,
    pub records: Arc<dyn RecordSource>,
    /// How often the index is checked for additions (live updates).
    pub poll: Duration,
    /// The price table the usage page prices with (the caller reads any override file).
    pub prices: fornax_usage::PriceTable,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("home", &self.home)
            .field("port", &self.port)
            .finish_non_exhaustive()
    }
}

/// What a started server tells its caller.
#[derive(Debug, Clone)]
pub struct Started {
    pub addr: SocketAddr,
    /// The address to open, token included.
    pub url: String,
}

pub(crate) struct AppState {
    pub db: PathBuf,
    pub token: String,
    pub port: u16,
    pub providers: Vec<Provider>,
    pub records: Arc<dyn RecordSource>,
    pub live: tokio::sync::watch::Receiver<fornax_store::ChangeMarker>,
    pub prices: fornax_usage::PriceTable,
}

impl AppState {
    /// A read-only connection for one request.
    pub fn store(&self) -> Result<Store, StoreError> {
        Store::open_read_only(&self.db)
    }
}

/// Serves until Ctrl-C or SIGTERM. `ready` is called once the port is bound.
pub fn serve(options: Options, ready: impl FnOnce(&Started)) -> Result<(), UiError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(UiError::Serve)?;
    runtime.block_on(run(options, ready))
}

async fn run(options: Options, ready: impl FnOnce(&Started)) -> Result<(), UiError> {
    let token = token::load_or_create(&options.home, options.renew_token)?;
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", options.port))
        .await
        .map_err(|source| UiError::Bind {
            port: options.port,
            source,
        })?;
    let addr = listener.local_addr().map_err(UiError::Serve)?;
    let db = options.home.join("fornax.db");
    let live = live::watch(db.clone(), options.poll);
    let state = Arc::new(AppState {
        db,
        token: token.clone(),
        port: addr.port(),
        providers: options.providers,
        records: options.records,
        live,
        prices: options.prices,
    });
    let app = router(state);
    ready(&Started {
        addr,
        url: format!("http://127.0.0.1:{}/?token={token}", addr.port()),
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown())
        .await
        .map_err(UiError::Serve)
}

fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(pages::overview::page))
        .route("/sessions", get(pages::sessions::page))
        .route("/s/{id}", get(pages::session::page))
        .route("/s/{id}/items", get(pages::session::items))
        .route("/s/{id}/text/{key}", get(pages::session::full_text))
        .route("/f/{id}/{claim}", get(pages::evidence::page))
        .route("/findings", get(pages::findings::page))
        .route("/search", get(pages::search::page))
        .route("/usage", get(pages::usage::page))
        .route("/r/{id}", get(pages::record::page))
        .route("/raw", get(pages::record::by_ref))
        .route("/events", get(live::events))
        .route("/assets/{name}", get(assets::asset))
        .fallback(pages::not_found)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::guard,
        ))
        .with_state(state)
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// The path of a home's database (for callers that check it before serving).
pub fn database(home: &Path) -> PathBuf {
    home.join("fornax.db")
}
