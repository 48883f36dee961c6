//! The helper: confines itself, starts the program, supervises it and every descendant.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use landlock::{
    Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope, ABI,
};
use rustix::process::{Pid, Resource, Rlimit, Signal, WaitOptions};

use crate::probe::Report;
use crate::rules::plan_filesystem;
use crate::spec::{Spec, Status};

const MIB: u64 = 1024 * 1024;
/// Exit code when the spec could not be read (nothing ran).
const BAD_SPEC: i32 = 125;

pub fn main(spec_path: &Path) -> i32 {
    let spec: Spec = match std::fs::read(spec_path)
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
    {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "fornax: confinement spec: {e}");
            return BAD_SPEC;
        }
    };
    // Opened before anything is restricted; close-on-exec, so the program never has it.
    let mut status_file = match std::fs::File::create(&spec.status_path) {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "fornax: confinement status: {e}");
            return BAD_SPEC;
        }
    };
    let mut status = Status::default();
    let cgroup = confine(&spec, &mut status.confinement);
    run(&spec, &mut status);
    if let Some(dir) = cgroup {
        leave_cgroup(&dir);
    }
    let _ = status_file.write_all(&serde_json::to_vec(&status).unwrap_or_default());
    let _ = status_file.sync_all();
    match (status.exit_code, status.signal) {
        (Some(code), _) => code,
        (None, Some(sig)) => 128 + sig,
        _ => BAD_SPEC,
    }
}

/// Applies every confinement it can; returns the cgroup it joined, if any.
fn confine(spec: &Spec, report: &mut Report) -> Option<std::path::PathBuf> {
    let root = rustix::process::getuid().is_root();
    let cgroup = join_pids_cgroup(spec, report, root);
    limits(spec, report, cgroup.is_some());
    let netns = if spec.network {
        report.set(
            "network",
            false,
            "allowed: the manifest declares network access",
        );
        false
    } else {
        isolate_network(report, root)
    };
    landlock(spec, report, netns);
    match rustix::process::set_child_subreaper(Some(rustix::process::getpid())) {
        Ok(()) => report.set(
            "descendants",
            true,
            "child subreaper: every descendant is killed when the program ends or at the deadline",
        ),
        Err(e) => report.set("descendants", false, format!("no subreaper: {e}")),
    }
    cgroup
}

fn join_pids_cgroup(spec: &Spec, report: &mut Report, root: bool) -> Option<std::path::PathBuf> {
    let base = ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"]
        .iter()
        .map(Path::new)
        .find(|b| {
            b.join("cgroup.procs").exists()
                && (b.join("pids.max").exists()
                    || b.ends_with("pids")
                    || b.join("cgroup.controllers").exists())
        })?;
    let dir = base.join(&spec.cgroup_name);
    let joined = std::fs::create_dir(&dir)
        .and_then(|()| std::fs::write(dir.join("pids.max"), spec.limits.processes.to_string()))
        .and_then(|()| std::fs::write(dir.join("cgroup.procs"), "0"));
    match joined {
        Ok(()) => {
            report.set(
                "processes",
                true,
                format!(
                    "pids cgroup {}: at most {}",
                    dir.display(),
                    spec.limits.processes
                ),
            );
            Some(dir)
        }
        Err(e) => {
            let _ = std::fs::remove_dir(&dir);
            if root {
                report.set(
                    "processes",
                    false,
                    format!("running as root, which RLIMIT_NPROC does not bind, and no pids cgroup: {e}"),
                );
            }
            None
        }
    }
}

fn leave_cgroup(dir: &Path) {
    if let Some(parent) = dir.parent() {
        let _ = std::fs::write(parent.join("cgroup.procs"), "0");
    }
    let _ = std::fs::remove_dir(dir);
}

fn limits(spec: &Spec, report: &mut Report, in_cgroup: bool) {
    let l = spec.limits;
    let set = |resource: Resource, value: u64| {
        rustix::process::setrlimit(
            resource,
            Rlimit {
                current: Some(value),
                maximum: Some(value),
            },
        )
    };
    let mut one =
        |name: &str, resource: Resource, value: u64, what: String| match set(resource, value) {
            Ok(()) => report.set(name, true, what),
            Err(e) => report.set(name, false, format!("{what}: not applied ({e})")),
        };
    one(
        "memory",
        Resource::Data,
        l.memory_mb.saturating_mul(MIB),
        format!("RLIMIT_DATA {} MiB per process", l.memory_mb),
    );
    one(
        "cpu",
        Resource::Cpu,
        l.cpu_seconds,
        format!("RLIMIT_CPU {} s per process", l.cpu_seconds),
    );
    one(
        "file_size",
        Resource::Fsize,
        l.file_size_mb.saturating_mul(MIB),
        format!("RLIMIT_FSIZE {} MiB", l.file_size_mb),
    );
    let _ = set(Resource::Core, 0);
    if !in_cgroup && !rustix::process::getuid().is_root() {
        one(
            "processes",
            Resource::Nproc,
            l.processes,
            format!(
                "RLIMIT_NPROC {} (counts every process of this user)",
                l.processes
            ),
        );
    }
}

/// A network namespace of its own (loopback down): no address is reachable, loopback
/// included. Unprivileged, a user namespace mapping the same ids comes with it.
fn isolate_network(report: &mut Report, root: bool) -> bool {
    use rustix::thread::UnshareFlags;
    let (uid, gid) = (
        rustix::process::getuid().as_raw(),
        rustix::process::getgid().as_raw(),
    );
    let flags = if root {
        UnshareFlags::NEWNET
    } else {
        UnshareFlags::NEWUSER | UnshareFlags::NEWNET
    };
    // Sound: the helper is single-threaded here and unshares only namespaces, never the file
    // descriptor table (the hazard that made rustix deprecate this wrapper).
    #[allow(deprecated)]
    let result = rustix::thread::unshare(flags).and_then(|()| {
        if !root {
            let w = |f: &str, v: String| {
                std::fs::write(f, v).map_err(|e| {
                    rustix::io::Errno::from_io_error(&e).unwrap_or(rustix::io::Errno::IO)
                })
            };
            w("/proc/self/setgroups", "deny".into())?;
            w("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
            w("/proc/self/gid_map", format!("{gid} {gid} 1"))?;
        }
        Ok(())
    });
    match result {
        Ok(()) => {
            report.set(
                "network",
                true,
                "own network namespace: no interface up, loopback included",
            );
            true
        }
        Err(e) => {
            report.set(
                "network",
                false,
                format!(
                    "no network namespace ({e}); TCP is denied by Landlock where the kernel allows"
                ),
            );
            false
        }
    }
}

fn landlock(spec: &Spec, report: &mut Report, netns: bool) {
    let abi = ABI::V6;
    let mut writable = spec.writable.clone();
    writable.extend(
        [
            "/dev/null",
            "/dev/zero",
            "/dev/full",
            "/dev/tty",
            "/dev/shm",
            "/dev/pts",
            "/dev/ptmx",
        ]
        .iter()
        .map(std::path::PathBuf::from),
    );
    let plan = plan_filesystem(&writable, &spec.denied);
    let result = (|| -> Result<RulesetStatus, landlock::RulesetError> {
        let mut ruleset = Ruleset::default()
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(AccessFs::from_all(abi))?
            .scope(Scope::AbstractUnixSocket | Scope::Signal)?;
        if !spec.network {
            ruleset = ruleset.handle_access(AccessNet::from_all(abi))?;
        }
        let mut created = ruleset.create()?;
        for (paths, access) in [
            (&plan.read, AccessFs::from_read(abi)),
            (&plan.write, AccessFs::from_all(abi)),
        ] {
            for p in paths {
                let Ok(fd) = PathFd::new(p) else { continue };
                let access = if p.is_dir() {
                    access
                } else {
                    access & AccessFs::from_file(abi)
                };
                created = created.add_rule(PathBeneath::new(fd, access))?;
            }
        }
        Ok(created.restrict_self()?.ruleset)
    })();
    let denied: Vec<String> = spec
        .denied
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    match result {
        Ok(RulesetStatus::FullyEnforced) => report.set(
            "filesystem",
            true,
            format!("Landlock: read-only outside {} writable place(s); unreadable: {}", spec.writable.len(), denied.join(", ")),
        ),
        Ok(RulesetStatus::PartiallyEnforced) => report.set(
            "filesystem",
            true,
            format!("Landlock (partly: this kernel lacks some rights): read-only outside the writable places; unreadable: {}", denied.join(", ")),
        ),
        Ok(RulesetStatus::NotEnforced) => report.set("filesystem", false, "this kernel has no Landlock"),
        Err(e) => report.set("filesystem", false, format!("Landlock: {e}")),
    }
    if !netns && !spec.network && report.is_active("filesystem") {
        report.set(
            "network",
            true,
            "Landlock denies TCP connect and bind (no network namespace)",
        );
    }
}

fn run(spec: &Spec, status: &mut Status) {
    let Some(program) = spec.argv.first() else {
        status.spawn_error = Some("no command to run".into());
        return;
    };
    let mut command = Command::new(program);
    command
        .args(&spec.argv[1..])
        .current_dir(&spec.cwd)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null());
    let start = Instant::now();
    let child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            status.spawn_error = Some(format!("could not start {program:?}: {e}"));
            return;
        }
    };
    status.started = true;
    let target = Pid::from_raw(child.id() as i32);
    let deadline = Duration::from_millis(spec.timeout_ms);
    let mut pause = Duration::from_millis(1);
    loop {
        match rustix::process::waitpid(None, WaitOptions::NOHANG) {
            Ok(Some((pid, ws))) if Some(pid) == target => {
                status.exit_code = ws.exit_status();
                status.signal = ws.terminating_signal();
                break;
            }
            Ok(Some(_)) => continue, // an orphaned descendant, reaped
            Ok(None) => {}
            Err(_) => break,
        }
        if start.elapsed() >= deadline {
            status.timed_out = true;
            break;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
    status.killed_descendants = kill_descendants();
    drop(child);
}

/// Kills every descendant of this process until none is left; returns how many there were.
fn kill_descendants() -> u32 {
    let me = rustix::process::getpid().as_raw_nonzero().get();
    let mut killed = 0u32;
    for _ in 0..64 {
        let pids = descendants(me);
        if pids.is_empty() {
            break;
        }
        for pid in &pids {
            if let Some(p) = Pid::from_raw(*pid) {
                if rustix::process::kill_process(p, Signal::KILL).is_ok() {
                    killed += 1;
                }
            }
        }
        // Reap what died (orphans are ours: this process is their subreaper).
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            match rustix::process::waitpid(None, WaitOptions::NOHANG) {
                Ok(Some(_)) => {}
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => break,
            }
        }
    }
    killed
}

/// Every process whose parent chain leads to `root`, read from `/proc`.
fn descendants(root: i32) -> Vec<i32> {
    let mut parent_of: HashMap<i32, i32> = HashMap::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    for e in entries.filter_map(Result::ok) {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: comm may hold spaces and parentheses.
        let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        if let Some(ppid) = rest.split_whitespace().nth(1).and_then(|p| p.parse().ok()) {
            parent_of.insert(pid, ppid);
        }
    }
    let mut out = Vec::new();
    let mut frontier = vec![root];
    while let Some(p) = frontier.pop() {
        for (&child, &parent) in &parent_of {
            if parent == p && !out.contains(&child) {
                out.push(child);
                frontier.push(child);
            }
        }
    }
    out
}
