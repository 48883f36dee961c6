//! The daemon process.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fornax_ingest::{IngestOptions, Ingestor, Registry};
use fornax_store::Store;
use serde_json::{json, Value};
use tracing::{info, warn};

use fornax_hook::client::socket_path;

#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error("another fornax daemon already runs for {0}")]
    AlreadyRunning(PathBuf),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] fornax_store::StoreError),
}

/// Everything the daemon needs; the binary fills it (it alone knows the adapters).
pub struct DaemonConfig {
    pub home: PathBuf,
    /// Agent roots to watch besides the spool.
    pub roots: Vec<PathBuf>,
    pub registry: Registry,
    pub options: IngestOptions,
    /// Fallback polling period when file notifications are unavailable or missed.
    pub poll_interval: Duration,
    pub intervene: bool,
}

impl std::fmt::Debug for DaemonConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DaemonConfig")
            .field("home", &self.home)
            .field("roots", &self.roots)
            .finish()
    }
}

/// Requests to the ingest worker.
enum Work {
    /// Something reached the spool (a hook's poke, or a spool file event).
    Spool,
    /// Something changed under an agent root.
    Roots,
    /// Ingest everything now and answer when done.
    Flush(SyncSender<()>),
}

/// Hook events come in bursts (a tool call, its result, the next call): after the first one
/// the worker waits this long and ingests the whole burst in one pass, so the daemon does not
/// compete for the CPU with every hook of the burst.
const SETTLE: Duration = Duration::from_millis(50);

const MAX_CONNECTIONS: usize = 64;
const MAX_REQUEST: u64 = 1024 * 1024;

fn io(path: &Path) -> impl Fn(std::io::Error) -> DaemonError + '_ {
    move |source| DaemonError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn init_logging(home: &Path) {
    if let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(home.join("daemon.log"))
    {
        let _ = tracing_subscriber::fmt()
            .json()
            .with_writer(std::sync::Mutex::new(file))
            .with_ansi(false)
            .try_init();
    }
}

/// Runs the daemon until SIGTERM, SIGINT or a `shutdown` request. Everything received is
/// ingested before it returns.
pub fn run(config: DaemonConfig) -> Result<(), DaemonError> {
    let home = config.home.clone();
    std::fs::create_dir_all(&home).map_err(io(&home))?;
    let lock_path = home.join("daemon.lock");
    let lock = File::create(&lock_path).map_err(io(&lock_path))?;
    if lock.try_lock().is_err() {
        return Err(DaemonError::AlreadyRunning(home));
    }
    init_logging(&home);
    let sock = socket_path(&home);
    // We hold the lock, so any socket file left here belongs to a dead daemon.
    let _ = std::fs::remove_file(&sock);
    let listener = UnixListener::bind(&sock).map_err(io(&sock))?;
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&sock, std::fs::Permissions::from_mode(0o600))
            .map_err(io(&sock))?;
    }
    listener.set_nonblocking(true).map_err(io(&sock))?;
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, Arc::clone(&stop)).map_err(io(&sock))?;
    }
    let started = Instant::now();
    let pid = std::process::id();
    std::fs::write(home.join("daemon.pid"), pid.to_string()).map_err(io(&home))?;
    info!(pid, socket = %sock.display(), "daemon started");

    let (work_tx, work_rx) = mpsc::sync_channel::<Work>(256);
    let last_ingest = Arc::new(std::sync::Mutex::new(None::<String>));
    let worker = {
        let config_home = home.clone();
        let stop = Arc::clone(&stop);
        let last = Arc::clone(&last_ingest);
        let roots = config.roots.clone();
        let poll = config.poll_interval;
        let options = config.options.clone();
        let registry = config.registry;
        std::thread::Builder::new()
            .name("fornax-ingest".into())
            .spawn(move || {
                ingest_worker(
                    &config_home,
                    &roots,
                    &registry,
                    options,
                    poll,
                    work_rx,
                    &stop,
                    &last,
                )
            })
            .map_err(io(&home))?
    };
    let watcher = watch(&home, &config.roots, work_tx.clone());
    let connections = Arc::new(AtomicUsize::new(0));
    let intervene = config.intervene;

    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                if connections.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
                    let mut s = stream;
                    let _ = s.write_all(b"{\"ok\":false,\"error\":\"busy\"}\n");
                    continue;
                }
                connections.fetch_add(1, Ordering::SeqCst);
                let ctx = ConnCtx {
                    home: home.clone(),
                    work: work_tx.clone(),
                    stop: Arc::clone(&stop),
                    started,
                    last_ingest: Arc::clone(&last_ingest),
                    intervene,
                };
                let counter = Arc::clone(&connections);
                let _ = std::thread::Builder::new()
                    .name("fornax-conn".into())
                    .spawn(move || {
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            ctx.serve(stream)
                        }));
                        if result.is_err() {
                            warn!("a connection handler panicked; the daemon goes on");
                        }
                        counter.fetch_sub(1, Ordering::SeqCst);
                    });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5))
            }
            Err(e) => {
                warn!(error = %e, "accept failed");
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
    info!("shutting down: final ingest");
    drop(watcher);
    let (done_tx, done_rx) = mpsc::sync_channel(1);
    let _ = work_tx.send(Work::Flush(done_tx));
    let _ = done_rx.recv_timeout(Duration::from_secs(120));
    drop(work_tx);
    let _ = worker.join();
    let _ = std::fs::remove_file(&sock);
    let _ = std::fs::remove_file(home.join("daemon.pid"));
    info!("daemon stopped");
    drop(lock);
    Ok(())
}

/// Watches the spool and the roots; any event pokes the worker (a full queue means a pass is
/// already due, so dropping the poke loses nothing).
fn watch(
    home: &Path,
    roots: &[PathBuf],
    work: SyncSender<Work>,
) -> Option<notify::RecommendedWatcher> {
    use notify::{RecursiveMode, Watcher};
    let spool = home.join("spool");
    let _ = std::fs::create_dir_all(&spool);
    let spool_dir = spool.clone();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(event) = res {
            let in_spool = event.paths.iter().all(|p| p.starts_with(&spool_dir));
            let _ = work.try_send(if in_spool { Work::Spool } else { Work::Roots });
        }
    })
    .ok()?;
    let _ = watcher.watch(&spool, RecursiveMode::NonRecursive);
    for r in roots {
        if r.exists() {
            if let Err(e) = watcher.watch(r, RecursiveMode::Recursive) {
                warn!(root = %r.display(), error = %e, "cannot watch; polling covers it");
            }
        }
    }
    Some(watcher)
}

#[allow(clippy::too_many_arguments)]
fn ingest_worker(
    home: &Path,
    roots: &[PathBuf],
    registry: &Registry,
    options: IngestOptions,
    poll: Duration,
    rx: Receiver<Work>,
    stop: &AtomicBool,
    last: &std::sync::Mutex<Option<String>>,
) {
    let db = home.join("fornax.db");
    let mut store = match Store::open(&db) {
        Ok(s) => s,
        Err(e) => {
            warn!(error = %e, "cannot open the store; the daemon will not ingest");
            return;
        }
    };
    let spool = vec![home.join("spool")];
    let mut everything: Vec<PathBuf> = spool.clone();
    everything.extend(roots.iter().cloned());
    let pass = |store: &mut Store, paths: &[PathBuf]| {
        let files = fornax_ingest::discover(paths, registry);
        let mut ing = Ingestor::new(store, registry, options.clone());
        ing.ingest_files(&files, &mut ());
        match ing.finish() {
            Ok(summary) => {
                if summary.records > 0 || !summary.errors.is_empty() {
                    info!(
                        records = summary.records,
                        items = summary.items,
                        errors = summary.errors.len(),
                        "ingested"
                    );
                }
                if let Ok(mut l) = last.lock() {
                    *l = Some(fornax_ingest::clock::now_rfc3339());
                }
            }
            Err(e) => warn!(error = %e, "ingest pass failed"),
        }
        store.make_private();
    };
    pass(&mut store, &everything);
    loop {
        // A quiet period ends in a full pass (the poll covers missed notifications).
        let (first, mut full) = match rx.recv_timeout(poll) {
            Ok(w) => (Some(w), false),
            Err(RecvTimeoutError::Timeout) => (None, true),
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let mut flushes = Vec::new();
        let mut note = |w: Work, full: &mut bool| match w {
            Work::Spool => {}
            Work::Roots => *full = true,
            Work::Flush(tx) => {
                *full = true;
                flushes.push(tx);
            }
        };
        if let Some(w) = first {
            note(w, &mut full);
        }
        if !full {
            std::thread::sleep(SETTLE);
        }
        // Coalesce everything queued into one pass.
        while let Ok(w) = rx.try_recv() {
            note(w, &mut full);
        }
        // Read the flag before the pass: when it was already set, this pass saw everything
        // received before the stop, so the worker may end after it.
        let stopping = stop.load(Ordering::SeqCst);
        // Hook events only touch the spool: a pass over it alone skips walking the roots.
        pass(&mut store, if full { &everything } else { &spool });
        for f in flushes {
            let _ = f.send(());
        }
        if stopping {
            break;
        }
    }
}

struct ConnCtx {
    home: PathBuf,
    work: SyncSender<Work>,
    stop: Arc<AtomicBool>,
    started: Instant,
    last_ingest: Arc<std::sync::Mutex<Option<String>>>,
    intervene: bool,
}

impl ConnCtx {
    fn serve(&self, stream: UnixStream) {
        let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
        let mut writer = match stream.try_clone() {
            Ok(w) => w,
            Err(_) => return,
        };
        let mut reader = BufReader::new(stream.take(MAX_REQUEST));
        let mut line = String::new();
        if reader.read_line(&mut line).is_err() {
            return;
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Ok(req) => self.handle(&req),
            Err(_) => {
                json!({"ok": false, "error": "malformed request: expected one JSON object per line"})
            }
        };
        let mut out = answer.to_string();
        out.push('\n');
        let _ = writer.write_all(out.as_bytes());
    }

    fn flush(&self, timeout: Duration) -> bool {
        let (tx, rx) = mpsc::sync_channel(1);
        match self.work.try_send(Work::Flush(tx)) {
            Ok(()) => rx.recv_timeout(timeout).is_ok(),
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => false,
        }
    }

    fn handle(&self, req: &Value) -> Value {
        match req.get("op").and_then(Value::as_str) {
            Some("poke") => {
                let _ = self.work.try_send(Work::Spool);
                json!({"ok": true})
            }
            Some("status") => {
                let spool_bytes: u64 = fornax_ingest::spool::spool_bytes(&self.home.join("spool"));
                json!({
                    "ok": true,
                    "running": true,
                    "pid": std::process::id(),
                    "socket": socket_path(&self.home).display().to_string(),
                    "spool_bytes": spool_bytes,
                    "uptime_s": self.started.elapsed().as_secs(),
                    "last_ingest": self.last_ingest.lock().ok().and_then(|l| l.clone()),
                })
            }
            Some("flush") => json!({"ok": self.flush(Duration::from_secs(120))}),
            Some("shutdown") => {
                let flushed = self.flush(Duration::from_secs(120));
                self.stop.store(true, Ordering::SeqCst);
                json!({"ok": true, "flushed": flushed})
            }
            Some("decide") => {
                if !self.intervene {
                    return json!({"ok": true, "decision": null});
                }
                self.flush(Duration::from_millis(1500));
                let session = req.get("session_id").and_then(Value::as_str).unwrap_or("");
                let active = req
                    .get("stop_hook_active")
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                let decision = Store::open_read_only(&self.home.join("fornax.db"))
                    .ok()
                    .and_then(|store| {
                        crate::decide::decide_stop(&self.home, &store, session, active)
                    });
                match decision {
                    Some(d) => json!({"ok": true, "decision": "block", "reason": d.reason}),
                    None => json!({"ok": true, "decision": null}),
                }
            }
            Some(other) => json!({"ok": false, "error": format!("unknown op {other:?}")}),
            None => json!({"ok": false, "error": "request has no op"}),
        }
    }
}
