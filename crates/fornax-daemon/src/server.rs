//! The daemon process: the socket's accept loop, connection handlers and the ingest worker.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fornax_ingest::{IngestOptions, Ingestor, Registry, ScanSummary};
use fornax_live::protocol::{
    DaemonStatus, Progress, Request, Response, ScanRequest, StopReport, StoreHealth, StoreState,
};
use fornax_live::{clock, Home};
use fornax_store::{LockWait, Store, StoreError};
use tracing::{info, warn};

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
    Store(#[from] StoreError),
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
    /// Started by a hook (or `daemon start`): leave the starter's session, so a closing
    /// terminal or an agent ending its process group does not end the daemon.
    pub detach: bool,
}

impl std::fmt::Debug for DaemonConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DaemonConfig")
            .field("home", &self.home)
            .field("roots", &self.roots)
            .finish()
    }
}

/// A scan's pass the daemon runs for `fornax scan`.
struct ScanJob {
    request: ScanRequest,
    progress: SyncSender<Progress>,
    done: SyncSender<Result<ScanSummary, String>>,
}

/// Requests to the ingest worker.
enum Work {
    /// Something reached the spool (a hook's poke, or a spool file event).
    Spool,
    /// Something changed under an agent root.
    Roots,
    /// Ingest everything now and answer whether it is stored.
    Flush(SyncSender<bool>),
    /// Ingest the spool now (not the agent roots) and answer whether it is stored: what a
    /// Stop's judgement waits for, within the hook's deadline.
    FlushSpool(SyncSender<bool>),
    Scan(ScanJob),
    /// Ingest everything, answer what was stored and what remains, and end.
    Final(SyncSender<StopReport>),
}

/// Hook events come in bursts (a tool call, its result, the next call): after the first one
/// the worker waits this long and ingests the whole burst in one pass, so the daemon does not
/// compete for the CPU with every hook of the burst.
const SETTLE: Duration = Duration::from_millis(50);

/// Connections served at once; beyond it a client is told it is busy (and retries).
const MAX_CONNECTIONS: usize = 64;
const MAX_REQUEST: u64 = 1024 * 1024;
/// A client sends its request as soon as it connects: an idle connection is closed after this.
const REQUEST_DEADLINE: Duration = Duration::from_secs(1);
/// How long one answer line may take to write before the connection is dropped.
const WRITE_DEADLINE: Duration = Duration::from_secs(5);
/// A pass someone waits for (a flush, a scan, the final pass) waits this long for the lock.
const LOCK_WAIT_FOR_REQUESTS: Duration = Duration::from_secs(30);
/// While another writer holds the store, the worker tries again this often.
const LOCK_RETRY: Duration = Duration::from_millis(250);
const BACKOFF_START: Duration = Duration::from_secs(1);
/// Opening a store is cheap: a store fixed by hand is picked up within seconds, not a minute.
const BACKOFF_MAX: Duration = Duration::from_secs(8);
/// How long a Stop's judgement waits for the spool pass (the hook waits 2.5 s in all).
const DECIDE_FLUSH: Duration = Duration::from_millis(1800);
/// A scan's client sees a progress line at least this often (so its read deadline holds).
const PROGRESS_HEARTBEAT: Duration = Duration::from_millis(500);

fn io(path: &Path) -> impl Fn(std::io::Error) -> DaemonError + '_ {
    move |source| DaemonError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Structured lines to `daemon.log`; and, when stderr is a terminal (`fornax daemon run` in
/// a shell), the same events in readable form there too.
fn init_logging(home: &Home) {
    use std::io::IsTerminal;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(home.daemon_log())
        .ok()
        .map(|file| {
            tracing_subscriber::fmt::layer()
                .json()
                .with_writer(Mutex::new(file))
                .with_ansi(false)
        });
    let terminal = std::io::stderr().is_terminal().then(|| {
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_target(false)
    });
    let _ = tracing_subscriber::registry()
        .with(file)
        .with(terminal)
        .with(log_filter())
        .try_init();
}

/// What the log keeps: Fornax's own events from `info` up and other crates' warnings, unless
/// `FORNAX_LOG` says otherwise (`FORNAX_LOG=debug`). Without a filter every dependency's trace
/// events (a file watcher's, a poller's) went to `daemon.log`, megabytes a minute.
fn log_filter() -> tracing_subscriber::EnvFilter {
    tracing_subscriber::EnvFilter::try_from_env("FORNAX_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_LOG_FILTER))
}

const DEFAULT_LOG_FILTER: &str =
    "warn,fornax_daemon=info,fornax_ingest=info,fornax_store=info,fornax_live=info";

/// Whether the home is still there: a daemon whose home was removed has nothing left to
/// serve (and a scratch home's daemon must not outlive it).
fn home_exists(home: &Home) -> bool {
    home.daemon_lock().exists()
}

/// Connections that have not sent their request yet, oldest first: at the connection cap the
/// oldest is closed to make room, so idle clients can never lock others out.
#[derive(Default)]
struct IdleConnections {
    next_id: u64,
    waiting: std::collections::VecDeque<(u64, UnixStream)>,
}

impl IdleConnections {
    fn add(&mut self, stream: &UnixStream) -> Option<u64> {
        let clone = stream.try_clone().ok()?;
        self.next_id += 1;
        self.waiting.push_back((self.next_id, clone));
        Some(self.next_id)
    }

    fn remove(&mut self, id: u64) {
        self.waiting.retain(|(i, _)| *i != id);
    }

    /// Closes the oldest idle connection; false when there is none.
    fn evict_oldest(&mut self) -> bool {
        match self.waiting.pop_front() {
            Some((_, stream)) => {
                let _ = stream.shutdown(std::net::Shutdown::Both);
                true
            }
            None => false,
        }
    }
}

/// State shared by the accept loop, the connections and the worker.
struct Shared {
    home: Home,
    started: Instant,
    stop: Arc<AtomicBool>,
    health: Mutex<StoreHealth>,
    last_ingest: Mutex<Option<String>>,
    stored_records: AtomicU64,
    intervene: bool,
    idle: Mutex<IdleConnections>,
}

impl Shared {
    fn set_health(&self, state: StoreState, detail: Option<String>) {
        if let Ok(mut h) = self.health.lock() {
            if h.state != state || h.detail != detail {
                let since = if h.state == state {
                    h.since.clone()
                } else {
                    Some(clock::now_rfc3339())
                };
                *h = StoreHealth {
                    state,
                    detail,
                    since,
                };
            }
        }
    }

    fn health(&self) -> StoreHealth {
        self.health
            .lock()
            .map(|h| h.clone())
            .unwrap_or(StoreHealth {
                state: StoreState::Unavailable,
                detail: Some("state lock poisoned".into()),
                since: None,
            })
    }

    fn status(&self) -> DaemonStatus {
        let spool = self.home.spool_dir();
        let backlog = Store::open_read_only(&self.home.db())
            .ok()
            .and_then(|store| fornax_ingest::spool::backlog(&store, &spool).ok());
        let spool_bytes = fornax_live::spool::spool_bytes(&spool);
        DaemonStatus {
            pid: std::process::id(),
            socket: self.home.socket().display().to_string(),
            uptime_s: self.started.elapsed().as_secs(),
            spool_bytes,
            pending_bytes: backlog.map(|b| b.bytes).unwrap_or(spool_bytes),
            last_ingest: self.last_ingest.lock().ok().and_then(|l| l.clone()),
            stored_records: self.stored_records.load(Ordering::SeqCst),
            store: self.health(),
        }
    }
}

/// Runs the daemon until SIGTERM, SIGINT or a `shutdown` request. Everything received is
/// ingested before it returns (unless another writer holds the store past the final pass's
/// wait; what remains is then reported and left for the next pass or scan).
pub fn run(config: DaemonConfig) -> Result<(), DaemonError> {
    if config.detach {
        // Fails only when already a session leader, which is detached enough.
        let _ = rustix::process::setsid();
    }
    let home = Home::new(&config.home);
    std::fs::create_dir_all(home.root()).map_err(io(home.root()))?;
    let lock_path = home.daemon_lock();
    let lock = File::create(&lock_path).map_err(io(&lock_path))?;
    if lock.try_lock().is_err() {
        return Err(DaemonError::AlreadyRunning(home.root().to_path_buf()));
    }
    init_logging(&home);
    let sock = home.socket();
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
    let pid = std::process::id();
    std::fs::write(home.daemon_pid(), pid.to_string()).map_err(io(home.root()))?;
    info!(pid, socket = %sock.display(), "daemon started");

    let shared = Arc::new(Shared {
        home: home.clone(),
        started: Instant::now(),
        stop: Arc::clone(&stop),
        health: Mutex::new(StoreHealth {
            state: StoreState::Waiting,
            detail: Some("opening the store".into()),
            since: Some(clock::now_rfc3339()),
        }),
        last_ingest: Mutex::new(None),
        stored_records: AtomicU64::new(0),
        intervene: config.intervene,
        idle: Mutex::new(IdleConnections::default()),
    });
    let (work_tx, work_rx) = mpsc::sync_channel::<Work>(256);
    let worker = {
        let shared = Arc::clone(&shared);
        let worker = Worker {
            shared,
            roots: config.roots.clone(),
            registry: config.registry,
            options: config.options.clone(),
            poll: config.poll_interval,
            backoff: BACKOFF_START,
        };
        std::thread::Builder::new()
            .name("fornax-ingest".into())
            .spawn(move || worker.run(work_rx))
            .map_err(io(home.root()))?
    };
    let watcher = watch(&home, &config.roots, work_tx.clone());
    let connections = Arc::new(AtomicUsize::new(0));

    let mut last_home_check = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        if last_home_check.elapsed() >= Duration::from_secs(1) {
            last_home_check = Instant::now();
            if !home_exists(&home) {
                warn!("the home was removed; stopping");
                stop.store(true, Ordering::SeqCst);
                break;
            }
        }
        match listener.accept() {
            Ok((stream, _)) => accept(stream, &shared, &work_tx, &connections),
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
    // A `shutdown` request already asked for the final pass; a signal did not.
    let (done_tx, done_rx) = mpsc::sync_channel(1);
    if work_tx.send(Work::Final(done_tx)).is_ok() {
        if let Ok(report) = done_rx.recv_timeout(LOCK_WAIT_FOR_REQUESTS + Duration::from_secs(90)) {
            log_report(&report);
        }
    }
    drop(work_tx);
    let _ = worker.join();
    // Let answers being written finish (idle connections are closed first).
    if let Ok(mut idle) = shared.idle.lock() {
        while idle.evict_oldest() {}
    }
    let drain = Instant::now() + Duration::from_secs(2);
    while connections.load(Ordering::SeqCst) > 0 && Instant::now() < drain {
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = std::fs::remove_file(&sock);
    let _ = std::fs::remove_file(home.daemon_pid());
    info!("daemon stopped");
    drop(lock);
    Ok(())
}

fn log_report(report: &StopReport) {
    info!(
        stored = report.stored_records,
        remaining_bytes = report.remaining_bytes,
        remaining_segments = report.remaining_segments,
        "final pass done"
    );
}

fn accept(
    stream: UnixStream,
    shared: &Arc<Shared>,
    work: &SyncSender<Work>,
    connections: &Arc<AtomicUsize>,
) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_write_timeout(Some(WRITE_DEADLINE));
    if connections.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
        let evicted = shared
            .idle
            .lock()
            .map(|mut idle| idle.evict_oldest())
            .unwrap_or(false);
        if !evicted {
            let _ = (&stream).write_all(Response::Busy.to_line().as_bytes());
            return;
        }
    }
    connections.fetch_add(1, Ordering::SeqCst);
    let conn = Conn {
        shared: Arc::clone(shared),
        work: work.clone(),
    };
    let counter = Arc::clone(connections);
    let spawned = std::thread::Builder::new()
        .name("fornax-conn".into())
        .spawn(move || {
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| conn.serve(stream)));
            if result.is_err() {
                warn!("a connection handler panicked; the daemon goes on");
            }
            counter.fetch_sub(1, Ordering::SeqCst);
        });
    if spawned.is_err() {
        connections.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Watches the spool and the roots; any event pokes the worker (a full queue means a pass is
/// already due, so dropping the poke loses nothing).
fn watch(
    home: &Home,
    roots: &[PathBuf],
    work: SyncSender<Work>,
) -> Option<notify::RecommendedWatcher> {
    use notify::{RecursiveMode, Watcher};
    let spool = home.spool_dir();
    let _ = std::fs::create_dir_all(&spool);
    let spool_dir = spool.clone();
    let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(event) = res {
            // A pass reads the watched folders: were their opens and reads pokes, every pass
            // would start the next one, for ever.
            if only_read(&event.kind) {
                return;
            }
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

/// Whether a watch event only says something was opened or read (nothing new to ingest). A
/// file closed after writing still counts.
fn only_read(kind: &notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode};
    match kind {
        notify::EventKind::Access(AccessKind::Close(AccessMode::Write)) => false,
        notify::EventKind::Access(_) => true,
        _ => false,
    }
}

/// The ingest worker: the only thread that writes to the store, one pass at a time, holding
/// the store-writer lock only during a pass.
struct Worker {
    shared: Arc<Shared>,
    roots: Vec<PathBuf>,
    registry: Registry,
    options: IngestOptions,
    poll: Duration,
    backoff: Duration,
}

/// Why a pass did not run.
enum PassFailure {
    /// Another writer holds the store.
    Locked(String),
    /// The store cannot be opened or written.
    Failed(String),
}

impl PassFailure {
    fn message(&self) -> &str {
        match self {
            PassFailure::Locked(m) | PassFailure::Failed(m) => m,
        }
    }
}

/// What one loop turn must do.
#[derive(Default)]
struct Due {
    spool: bool,
    full: bool,
    flushes: Vec<SyncSender<bool>>,
    scans: Vec<ScanJob>,
    finals: Vec<SyncSender<StopReport>>,
}

impl Due {
    fn note(&mut self, work: Work) {
        match work {
            Work::Spool => self.spool = true,
            Work::Roots => self.full = true,
            Work::Flush(tx) => {
                self.full = true;
                self.flushes.push(tx);
            }
            Work::FlushSpool(tx) => {
                self.spool = true;
                self.flushes.push(tx);
            }
            Work::Scan(job) => self.scans.push(job),
            Work::Final(tx) => {
                self.full = true;
                self.finals.push(tx);
            }
        }
    }

    fn awaited(&self) -> bool {
        !self.flushes.is_empty() || !self.scans.is_empty() || !self.finals.is_empty()
    }
}

struct ChannelProgress {
    tx: SyncSender<Progress>,
    now: Progress,
}

impl fornax_ingest::Progress for ChannelProgress {
    fn start(&mut self, files: usize, bytes: u64) {
        self.now.files = files as u64;
        self.now.bytes = bytes;
        let _ = self.tx.try_send(self.now);
    }

    fn advance(&mut self, bytes: u64) {
        self.now.files_done += 1;
        self.now.bytes_done += bytes;
        let _ = self.tx.try_send(self.now);
    }
}

impl Worker {
    fn run(mut self, rx: Receiver<Work>) {
        let mut due = Due {
            full: true,
            ..Due::default()
        };
        loop {
            let stopping = self.shared.stop.load(Ordering::SeqCst);
            let pending = due.spool || due.full || due.awaited();
            if pending {
                let retry = self.turn(&mut due);
                if let Some(wait) = retry {
                    // Keep what is due and try again after `wait` (or sooner, for new work).
                    match rx.recv_timeout(wait) {
                        Ok(w) => due.note(w),
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => break,
                    }
                    continue;
                }
                if stopping {
                    // This pass ran after the stop flag: it saw everything received before.
                    break;
                }
            }
            // A quiet period ends in a full pass (the poll covers missed notifications).
            match rx.recv_timeout(self.poll) {
                Ok(w) => {
                    due.note(w);
                    if !due.full && !due.awaited() {
                        std::thread::sleep(SETTLE);
                    }
                    while let Ok(w) = rx.try_recv() {
                        due.note(w);
                    }
                }
                Err(RecvTimeoutError::Timeout) => due.full = true,
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    }

    /// Runs what is due. `Some(wait)`: the store could not be written; try again after `wait`.
    fn turn(&mut self, due: &mut Due) -> Option<Duration> {
        let lock_wait = if due.awaited() {
            LOCK_WAIT_FOR_REQUESTS
        } else {
            Duration::ZERO
        };
        // Scans first: their client waits, and each also covers the spool it names.
        while let Some(job) = due.scans.pop() {
            let paths = job.request.paths.clone();
            let mut options = self.options.clone();
            options.verify = job.request.verify;
            if let Some(m) = job.request.max_record_bytes {
                options.max_record_bytes = m;
            }
            let mut progress = ChannelProgress {
                tx: job.progress.clone(),
                now: Progress {
                    files: 0,
                    bytes: 0,
                    files_done: 0,
                    bytes_done: 0,
                },
            };
            let result = self
                .pass(&paths, options, lock_wait, &mut progress, true)
                .map_err(|f| f.message().to_string());
            let _ = job.done.send(result);
        }
        if !(due.spool || due.full || due.awaited()) {
            return None;
        }
        let mut paths = vec![self.shared.home.spool_dir()];
        if due.full {
            paths.extend(self.roots.iter().cloned());
        }
        match self.pass(&paths, self.options.clone(), lock_wait, &mut (), false) {
            Ok(_) => {
                due.spool = false;
                due.full = false;
                for tx in due.flushes.drain(..) {
                    let _ = tx.send(true);
                }
                let finals: Vec<_> = due.finals.drain(..).collect();
                if !finals.is_empty() {
                    let report = self.stop_report(true, None);
                    for tx in finals {
                        let _ = tx.send(report.clone());
                    }
                }
                None
            }
            Err(failure) => {
                // Those who wait are told now; background work is retried.
                for tx in due.flushes.drain(..) {
                    let _ = tx.send(false);
                }
                let finals: Vec<_> = due.finals.drain(..).collect();
                if !finals.is_empty() {
                    let report = self.stop_report(false, Some(failure.message().to_string()));
                    for tx in finals {
                        let _ = tx.send(report.clone());
                    }
                }
                Some(match failure {
                    PassFailure::Locked(_) => LOCK_RETRY,
                    PassFailure::Failed(_) => {
                        let wait = self.backoff;
                        self.backoff = (self.backoff * 2).min(BACKOFF_MAX);
                        wait
                    }
                })
            }
        }
    }

    fn stop_report(&self, flushed: bool, reason: Option<String>) -> StopReport {
        let spool = self.shared.home.spool_dir();
        let backlog = Store::open_read_only(&self.shared.home.db())
            .map_err(|e| e.to_string())
            .and_then(|store| {
                fornax_ingest::spool::backlog(&store, &spool).map_err(|e| e.to_string())
            });
        let (remaining_bytes, remaining_segments, reason) = match backlog {
            Ok(b) => (b.bytes, b.segments, reason),
            Err(e) => {
                let segments = fornax_live::spool::segments(&spool);
                (
                    segments.iter().map(|s| s.bytes).sum(),
                    segments.len() as u64,
                    reason.or(Some(e)),
                )
            }
        };
        StopReport {
            pid: std::process::id(),
            flushed,
            stored_records: self.shared.stored_records.load(Ordering::SeqCst),
            remaining_bytes,
            remaining_segments,
            reason,
        }
    }

    /// One pass over `paths`, holding the store-writer lock for its length.
    fn pass(
        &mut self,
        paths: &[PathBuf],
        options: IngestOptions,
        lock_wait: Duration,
        progress: &mut dyn fornax_ingest::Progress,
        record_scan: bool,
    ) -> Result<ScanSummary, PassFailure> {
        let db = self.shared.home.db();
        let mut store = match Store::open_with(&db, "daemon", LockWait::up_to(lock_wait)) {
            Ok(store) => store,
            Err(e @ StoreError::Locked { .. }) => {
                let why = e.to_string();
                self.shared
                    .set_health(StoreState::Waiting, Some(why.clone()));
                return Err(PassFailure::Locked(why));
            }
            Err(e) => {
                let why = format!("{e}; retrying in {}s", self.backoff.as_secs());
                warn!(error = %e, "cannot open the store; retrying with back-off");
                self.shared
                    .set_health(StoreState::Unavailable, Some(why.clone()));
                return Err(PassFailure::Failed(e.to_string()));
            }
        };
        let started_at = clock::now_rfc3339();
        let mut ing = Ingestor::new(&mut store, &self.registry, options);
        ing.scan_paths(paths, progress);
        let spool = self.shared.home.spool_dir();
        if paths.iter().any(|p| p == &spool) {
            match ing.retire_spool(&spool, &clock::today(), &mut fornax_ingest::NoArchive) {
                Ok(r) if r.segments > 0 => {
                    info!(
                        segments = r.segments,
                        bytes = r.bytes,
                        "retired stored spool segments"
                    )
                }
                Ok(_) => {}
                Err(e) => warn!(error = %e, "spool retention failed; segments kept"),
            }
        }
        let summary = match ing.finish() {
            Ok(summary) => summary,
            Err(e) => {
                warn!(error = %e, "ingest pass failed");
                self.shared
                    .set_health(StoreState::Unavailable, Some(e.to_string()));
                return Err(PassFailure::Failed(e.to_string()));
            }
        };
        if record_scan {
            if let Ok(json) = serde_json::to_value(&summary) {
                // The summary names files and native shapes: stored redacted, like the rest.
                let json = fornax_redact::Redactor::new()
                    .redact(json, &mut fornax_redact::RedactionCounts::default());
                let _ = store.record_scan(&started_at, &clock::now_rfc3339(), &json);
            }
        }
        store.make_private();
        drop(store);
        self.backoff = BACKOFF_START;
        self.shared.set_health(StoreState::Ok, None);
        self.shared
            .stored_records
            .fetch_add(summary.records, Ordering::SeqCst);
        if summary.records > 0 || !summary.errors.is_empty() {
            info!(
                records = summary.records,
                items = summary.items,
                errors = summary.errors.len(),
                "ingested"
            );
        }
        if let Ok(mut l) = self.shared.last_ingest.lock() {
            *l = Some(clock::now_rfc3339());
        }
        Ok(summary)
    }
}

/// One client connection.
struct Conn {
    shared: Arc<Shared>,
    work: SyncSender<Work>,
}

impl Conn {
    fn serve(&self, stream: UnixStream) {
        let _ = stream.set_read_timeout(Some(REQUEST_DEADLINE));
        let mut writer = match stream.try_clone() {
            Ok(w) => w,
            Err(_) => return,
        };
        let idle_id = self
            .shared
            .idle
            .lock()
            .ok()
            .and_then(|mut i| i.add(&stream));
        let mut reader = BufReader::new(stream.take(MAX_REQUEST));
        let mut line = String::new();
        let read = reader.read_line(&mut line);
        if let (Some(id), Ok(mut idle)) = (idle_id, self.shared.idle.lock()) {
            idle.remove(id);
        }
        if read.is_err() || line.trim().is_empty() {
            return;
        }
        let request = match serde_json::from_str::<Request>(&line) {
            Ok(req) => req,
            Err(_) => {
                let _ = writer.write_all(
                    Response::error("malformed request: expected one request object per line")
                        .to_line()
                        .as_bytes(),
                );
                return;
            }
        };
        let mut send = |answer: &Response| writer.write_all(answer.to_line().as_bytes()).is_ok();
        match request {
            Request::Poke => {
                let _ = self.work.try_send(Work::Spool);
            }
            Request::Status => {
                send(&Response::Status(self.shared.status()));
            }
            Request::Flush => {
                let answer = if self.flush(Duration::from_secs(120)) {
                    Response::Ok
                } else {
                    Response::error(self.why_not_flushed())
                };
                send(&answer);
            }
            Request::Shutdown => {
                let (tx, rx) = mpsc::sync_channel(1);
                let queued = self.work.send(Work::Final(tx)).is_ok();
                self.shared.stop.store(true, Ordering::SeqCst);
                let report = if queued {
                    rx.recv_timeout(LOCK_WAIT_FOR_REQUESTS + Duration::from_secs(90))
                        .ok()
                } else {
                    None
                };
                let report = report.unwrap_or_else(|| StopReport {
                    pid: std::process::id(),
                    flushed: false,
                    stored_records: self.shared.stored_records.load(Ordering::SeqCst),
                    remaining_bytes: fornax_live::spool::spool_bytes(&self.shared.home.spool_dir()),
                    remaining_segments: 0,
                    reason: Some("the final pass did not answer in time".into()),
                });
                send(&Response::Stopping(report));
            }
            Request::Decide {
                session_id,
                stop_hook_active,
                last_message,
            } => {
                send(&self.decide(&session_id, stop_hook_active, last_message.as_deref()));
            }
            Request::Scan(request) => self.scan(request, &mut send),
        }
    }

    fn why_not_flushed(&self) -> String {
        self.shared
            .health()
            .detail
            .unwrap_or_else(|| "the flush did not finish in time".into())
    }

    fn flush(&self, timeout: Duration) -> bool {
        self.flush_with(timeout, Work::Flush)
    }

    fn flush_with(&self, timeout: Duration, work: fn(SyncSender<bool>) -> Work) -> bool {
        let (tx, rx) = mpsc::sync_channel(1);
        match self.work.try_send(work(tx)) {
            Ok(()) => rx.recv_timeout(timeout).unwrap_or(false),
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => false,
        }
    }

    /// Judges a Stop: first stores what the spool holds (the Stop event and its final message
    /// included), then looks at the claims of the turn. The hook waits
    /// `fornax_live::hook` 2.5 s; the spool pass gets [`DECIDE_FLUSH`] of it, and a judgement
    /// that could not see the turn's events is logged as a miss (the turn is allowed).
    fn decide(&self, session: &str, active: bool, last_message: Option<&str>) -> Response {
        if !self.shared.intervene || active {
            return Response::Decision { block: None };
        }
        let started = Instant::now();
        if !self.flush_with(DECIDE_FLUSH, Work::FlushSpool) {
            warn!(
                waited_ms = started.elapsed().as_millis() as u64,
                "a Stop was judged before its events were stored; the judgement may miss them"
            );
        }
        let judged = Store::open_read_only(&self.shared.home.db())
            .map_err(|e| e.to_string())
            .map(|store| {
                crate::decide::decide_stop(
                    self.shared.home.root(),
                    &store,
                    &crate::decide::Stop {
                        session,
                        last_message,
                    },
                )
            });
        let block = match judged {
            Ok(d) => d.map(|d| d.reason),
            Err(e) => {
                warn!(error = %e, "a Stop could not be judged: the store cannot be read");
                None
            }
        };
        info!(
            blocked = block.is_some(),
            elapsed_ms = started.elapsed().as_millis() as u64,
            "judged a Stop"
        );
        Response::Decision { block }
    }

    fn scan(&self, request: ScanRequest, send: &mut dyn FnMut(&Response) -> bool) {
        let (progress_tx, progress_rx) = mpsc::sync_channel::<Progress>(64);
        let (done_tx, done_rx) = mpsc::sync_channel(1);
        let job = ScanJob {
            request,
            progress: progress_tx,
            done: done_tx,
        };
        if self.work.send(Work::Scan(job)).is_err() {
            send(&Response::error("the daemon is stopping"));
            return;
        }
        let mut last: Option<Progress> = None;
        loop {
            match done_rx.try_recv() {
                Ok(Ok(mut summary)) => {
                    summary.via = Some("daemon".into());
                    summary.daemon_pid = Some(std::process::id());
                    send(&Response::Scanned(Box::new(summary)));
                    return;
                }
                Ok(Err(message)) => {
                    send(&Response::Error { message });
                    return;
                }
                Err(mpsc::TryRecvError::Disconnected) => {
                    send(&Response::error("the scan's pass ended without a result"));
                    return;
                }
                Err(mpsc::TryRecvError::Empty) => {}
            }
            match progress_rx.recv_timeout(PROGRESS_HEARTBEAT) {
                Ok(p) => {
                    // Only the latest state matters: skip ahead over queued updates.
                    let mut p = p;
                    while let Ok(next) = progress_rx.try_recv() {
                        p = next;
                    }
                    last = Some(p);
                }
                // The pass is over (its sender is gone): its result is next.
                Err(RecvTimeoutError::Disconnected) => {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            let beat = last.unwrap_or(Progress {
                files: 0,
                bytes: 0,
                files_done: 0,
                bytes_done: 0,
            });
            if !send(&Response::Progress(beat)) {
                // The client went away; the pass goes on and its result is stored anyway.
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{AccessKind, AccessMode, CreateKind, DataChange, ModifyKind};
    use notify::EventKind;

    #[test]
    fn opens_and_reads_start_no_pass() {
        assert!(only_read(&EventKind::Access(AccessKind::Open(
            AccessMode::Any
        ))));
        assert!(only_read(&EventKind::Access(AccessKind::Read)));
        assert!(only_read(&EventKind::Access(AccessKind::Close(
            AccessMode::Read
        ))));
        assert!(!only_read(&EventKind::Access(AccessKind::Close(
            AccessMode::Write
        ))));
        assert!(!only_read(&EventKind::Create(CreateKind::File)));
        assert!(!only_read(&EventKind::Modify(ModifyKind::Data(
            DataChange::Any
        ))));
    }

    #[test]
    fn the_default_log_filter_is_valid() {
        assert!(tracing_subscriber::EnvFilter::builder()
            .parse(DEFAULT_LOG_FILTER)
            .is_ok());
    }
}
