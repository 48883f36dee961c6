#!/usr/bin/env python3
"""Fornax performance harness: measures the `fornax` binary on a generated corpus and, in
the same run, the peer `trace-index` on the same corpus. Called by bench/run.sh, which
builds the binary first; see `bench/run.sh --help`.

Every measurement is a median of N runs with min and max. Wall time comes from a monotonic
clock around the child process; user+sys time comes from the child's own rusage (os.wait4).
Peak RSS is each measured command's own, reported by GNU time (`/usr/bin/time -f %M`) wrapped
around it: on Linux a child's ru_maxrss starts at the high-water mark of the process that
forked it (exec keeps the larger of the two), so wait4 from this harness would report the
harness's own peak for any command smaller than it. The corpus generator runs in its own
process for the same reason.

Writes OUT/results.json (every sample) and OUT/report.md (the tables), and prints the
tables. Exits non-zero only when a measured command fails.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen_corpus  # noqa: E402


class CommandFailed(Exception):
    pass


@dataclass
class Sample:
    wall: float  # seconds
    user: float
    sys: float
    rss_kb: int
    stdout: bytes
    code: int


def gnu_time() -> str | None:
    """GNU time, when installed and really GNU's (it must take -f and -o)."""
    path = shutil.which("time", path="/usr/bin:/bin") or None
    if path is None:
        return None
    probe = subprocess.run([path, "-f", "%M", "-o", os.devnull, "true"], capture_output=True)
    return path if probe.returncode == 0 else None


GNU_TIME = gnu_time()
RSS_SOURCE = "GNU time %M (the command's own peak)" if GNU_TIME else "wait4 ru_maxrss (no GNU time: at least the harness's own peak)"


def run(cmd: list[str], env: dict | None = None, stdin: bytes | None = None, check: bool = True) -> Sample:
    """Runs one child and measures it alone: user+sys from its own rusage, peak RSS from GNU
    time wrapped around it (see the module doc for why wait4's ru_maxrss is not enough)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as inp, tempfile.NamedTemporaryFile(prefix="rss-") as rss:
        if stdin is not None:
            inp.write(stdin)
            inp.seek(0)
        argv = [GNU_TIME, "-f", "%M", "-o", rss.name, *cmd] if GNU_TIME else cmd
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=inp if stdin is not None else subprocess.DEVNULL, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
        rss_kb = usage.ru_maxrss
        if GNU_TIME:
            # GNU time writes "Command exited with non-zero status N" before the value.
            lines = open(rss.name, encoding="utf-8", errors="replace").read().split()
            rss_kb = int(lines[-1]) if lines and lines[-1].isdigit() else -1
    if check and proc.returncode != 0:
        tail = stderr.decode("utf-8", "replace")[-2000:]
        raise CommandFailed(f"`{' '.join(cmd)}` exited {proc.returncode}\n{tail}")
    return Sample(wall, usage.ru_utime, usage.ru_stime, rss_kb, stdout, proc.returncode)


def spawn(cmd: list[str], env: dict | None = None, stdin: bytes = b"") -> tuple[float, int]:
    """Wall time of one short-lived child with as little harness overhead as possible:
    posix_spawn, stdin from a pipe already holding the payload, output to /dev/null."""
    if len(stdin) > 60_000:  # would not fit in the pipe before the child reads it
        s = run(cmd, env=env, stdin=stdin, check=False)
        return s.wall, s.code
    r, w = os.pipe()
    os.write(w, stdin)
    os.close(w)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        actions = [(os.POSIX_SPAWN_DUP2, r, 0), (os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
        t0 = time.perf_counter()
        pid = os.posix_spawn(cmd[0], cmd, env if env is not None else os.environ, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        wall = time.perf_counter() - t0
    finally:
        os.close(r)
        os.close(devnull)
    return wall, os.waitstatus_to_exitcode(status)


def timed(cmd: list[str], env: dict | None = None, stdin: bytes = b"") -> float:
    """`spawn`, raising CommandFailed (with the child's stderr) when it exits non-zero."""
    wall, code = spawn(cmd, env, stdin)
    if code != 0:
        run(cmd, env=env, stdin=stdin)  # re-run to capture stderr for the error
        raise CommandFailed(f"`{' '.join(cmd)}` exited {code}")
    return wall


def stats(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def latency(values: list[float]) -> dict:
    ms = [v * 1000 for v in values]
    return {"p50_ms": percentile(ms, 0.5), "p99_ms": percentile(ms, 0.99), "min_ms": min(ms), "max_ms": max(ms), "n": len(ms)}


def describe(samples: list[Sample], nbytes: int) -> dict:
    return {
        "wall_s": stats([s.wall for s in samples]),
        "cpu_s": stats([s.user + s.sys for s in samples]),
        "mb_per_s": stats([nbytes / 1e6 / s.wall for s in samples]),
        "mb_per_cpu_s": stats([nbytes / 1e6 / max(1e-9, s.user + s.sys) for s in samples]),
        "peak_rss_mb": stats([s.rss_kb / 1024 for s in samples]),
    }


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- corpus


def ensure_corpus(out: str, seed: int, size: int) -> tuple[str, dict]:
    folder = os.path.join(out, f"corpus-{size}-s{seed}")
    manifest_path = os.path.join(folder, "manifest.json")
    if os.path.exists(manifest_path):
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        if manifest.get("seed") == seed and manifest.get("size_requested") == size:
            log(f"corpus: reusing {folder}")
            return folder, manifest
    log(f"corpus: generating {size / (1 << 20):.0f} MiB with seed {seed} into {folder}")
    t0 = time.monotonic()
    # In its own process: the generator peaks at ~0.4 GB, which this process must not keep.
    gen = [sys.executable, os.path.join(HERE, "gen_corpus.py"), "--seed", str(seed), "--size", str(size), "--out", folder, "--quiet"]
    if subprocess.call(gen) != 0:
        raise SystemExit(f"`{' '.join(gen)}` failed")
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    log(f"corpus: {manifest['files']} files, {manifest['bytes'] / 1e6:.1f} MB in {time.monotonic() - t0:.1f}s")
    return folder, manifest


def append_target(home: str) -> str:
    """A mid-sized Claude transcript (the file a live session keeps appending to)."""
    files = []
    for root, _, names in os.walk(os.path.join(home, ".claude", "projects")):
        files += [os.path.join(root, n) for n in names if n.endswith(".jsonl") and "subagents" not in root]
    files.sort()
    files.sort(key=os.path.getsize)
    return files[len(files) // 2]


def append_line(path: str, n: int) -> None:
    """Appends one user prompt line that continues the file's last line's chain."""
    with open(path, "rb") as f:
        f.seek(max(0, os.path.getsize(path) - 65536))
        last = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    prev = json.loads(last)
    line = {
        "parentUuid": prev.get("uuid"),
        "isSidechain": False,
        "userType": "external",
        "cwd": prev.get("cwd", "/home/dev/bench"),
        "sessionId": prev.get("sessionId", "bench"),
        "version": prev.get("version", "2.1.119"),
        "gitBranch": "main",
        "type": "user",
        "uuid": f"00000000-0000-4000-8000-{n:012d}",
        "timestamp": "2026-04-01T00:00:%02d.000Z" % (n % 60),
        "message": {"role": "user", "content": f"Appended prompt {n}: run the tests again and commit."},
    }
    with open(path, "ab") as f:
        f.write((json.dumps(line, separators=(",", ":")) + "\n").encode())


# ----------------------------------------------------------------------------- fornax


class Fornax:
    def __init__(self, binary: str, home: str):
        self.binary, self.home = binary, home
        # HOME too: nothing (the daemon's default roots included) may see the real user's files.
        fake_home = home.rstrip("/") + "-user"
        os.makedirs(fake_home, exist_ok=True)
        self.env = dict(os.environ, FORNAX_HOME=home, HOME=fake_home, NO_COLOR="1")

    def __call__(self, *args: str, stdin: bytes | None = None, check: bool = True) -> Sample:
        return run([self.binary, *args], env=self.env, stdin=stdin, check=check)

    def reset(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)
        os.makedirs(self.home, exist_ok=True)

    def timed(self, *args: str, stdin: bytes = b"") -> float:
        return timed([self.binary, *args], self.env, stdin)

    def has(self, *subcommand: str) -> bool:
        return run([self.binary, *subcommand, "--help"], env=self.env, check=False).code == 0


def scan_json(sample: Sample) -> dict:
    try:
        return json.loads(sample.stdout)
    except ValueError:
        return {}


def measure_scans(fx: Fornax, home: str, runs: int, corpus_bytes: int) -> dict:
    result: dict = {}
    cold, summaries = [], []
    for i in range(runs):
        fx.reset()
        s = fx("scan", home, "--json")
        cold.append(s)
        summaries.append(scan_json(s))
        log(f"fornax cold scan {i + 1}/{runs}: {s.wall:.2f}s, {s.rss_kb / 1024:.1f} MB peak")
    result["cold"] = describe(cold, corpus_bytes)
    last = summaries[-1]
    result["summary"] = last
    shares = {}
    for key in ("redaction_ms", "verification_ms"):
        vals = [sm[key] / sm["elapsed_ms"] for sm in summaries if sm.get(key) is not None and sm.get("elapsed_ms")]
        if vals:
            shares[key.replace("_ms", "_share")] = stats(vals)
    result["shares"] = shares

    warm = []
    for i in range(runs):
        s = fx("scan", home, "--json")
        warm.append(s)
        log(f"fornax warm rescan {i + 1}/{runs}: {s.wall * 1000:.0f} ms")
    result["warm"] = describe(warm, corpus_bytes)
    result["warm_summary"] = scan_json(warm[-1])

    target = append_target(home)
    appended = []
    for i in range(runs):
        append_line(target, i)
        s = fx("scan", home, "--json")
        appended.append(s)
        log(f"fornax rescan after append {i + 1}/{runs}: {s.wall * 1000:.0f} ms")
    result["append"] = describe(appended, corpus_bytes)
    result["append_summary"] = scan_json(appended[-1])
    result["append_file"] = os.path.relpath(target, home)
    return result


def hook_payloads(n: int, transcript: str, cwd: str) -> list[bytes]:
    rng = random.Random(f"hooks:{n}")
    out = []
    for i in range(n):
        kind = rng.random()
        if kind < 0.5:
            tool_input = {"command": rng.choice(["cargo test", "git status --short", "ls -la", "pytest -q"])}
            response = {"stdout": "test result: ok. 12 passed; 0 failed\n" * rng.randint(1, 20), "stderr": "", "interrupted": False, "isImage": False}
            name = "Bash"
        elif kind < 0.8:
            tool_input = {"file_path": f"{cwd}/src/lib.rs", "old_string": "a", "new_string": "b"}
            response = {"filePath": f"{cwd}/src/lib.rs", "oldString": "a", "newString": "b", "structuredPatch": [], "userModified": False, "replaceAll": False}
            name = "Edit"
        else:
            tool_input = {"file_path": f"{cwd}/README.md"}
            response = {"type": "text", "file": {"filePath": f"{cwd}/README.md", "content": "# bench\n" * rng.randint(1, 200), "numLines": 1, "startLine": 1, "totalLines": 1}}
            name = "Read"
        payload = {
            "session_id": "b3c1d2e4-0000-4000-8000-000000000001",
            "transcript_path": transcript,
            "cwd": cwd,
            "permission_mode": "default",
            "hook_event_name": "PostToolUse",
            "tool_name": name,
            "tool_input": tool_input,
            "tool_response": response,
            "tool_use_id": f"toolu_bench{i:06d}",
        }
        out.append(json.dumps(payload).encode())
    return out


def elf_link(path: str) -> str:
    """`static` when an ELF executable names no interpreter (PT_INTERP), else `dynamic`;
    `unknown` when it is not a 64-bit little-endian ELF file."""
    import struct
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if head[:4] != b"\x7fELF" or head[4] != 2 or head[5] != 1:
                return "unknown"
            phoff, = struct.unpack_from("<Q", head, 0x20)
            phentsize, phnum = struct.unpack_from("<HH", head, 0x36)
            f.seek(phoff)
            table = f.read(phentsize * phnum)
    except OSError:
        return "unknown"
    types = [struct.unpack_from("<I", table, i * phentsize)[0] for i in range(phnum)]
    return "dynamic" if 3 in types else "static"


def measure_hooks(fx: Fornax, n: int, out: str, hook_bin: str | None) -> dict:
    """Hook latency, daemon down then up. Each loop interleaves, payload by payload, spawning
    /bin/true, `fornax hook claude` and (when built) `fornax-hook claude`, so that every
    configuration sees the same machine noise; the ratios between them are the signal."""
    work = os.path.join(out, "hook-work")
    os.makedirs(work, exist_ok=True)
    transcript = os.path.join(work, "b3c1d2e4-0000-4000-8000-000000000001.jsonl")
    open(transcript, "a").close()
    payloads = hook_payloads(n, transcript, "/home/dev/bench")
    result: dict = {"warmup_calls": WARMUP, "hook_binary": hook_bin, "hook_binary_link": elf_link(hook_bin) if hook_bin else None}
    true_bin = shutil.which("true") or "/bin/true"
    commands = {"fornax": [fx.binary, "hook", "claude"]}
    if hook_bin:
        commands["fornax_hook"] = [hook_bin, "claude"]

    def hook_loop(state: str) -> None:
        for p in payloads[:WARMUP]:
            for cmd in commands.values():
                timed(cmd, fx.env, p)
        samples: dict[str, list[float]] = {"true": [], **{k: [] for k in commands}}
        for p in payloads:
            samples["true"].append(timed([true_bin], stdin=p))
            for k, cmd in commands.items():
                samples[k].append(timed(cmd, fx.env, p))
        names = {"true": "spawn_true", "fornax": "daemon", "fornax_hook": "hook_binary_daemon"}
        for k, values in samples.items():
            key = names[k] if k == "true" and state == "down" else f"{names[k]}_{state}"
            result[key] = latency(values)
        msg = ", ".join(f"{k} p50 {latency(v)['p50_ms']:.2f} ms p99 {latency(v)['p99_ms']:.2f} ms" for k, v in samples.items())
        log(f"hooks, daemon {state}: {msg}")

    # Down means down: a hook that finds no daemon would start one (`[daemon] autostart`), so
    # the down loop runs with autostart off (each hook then also reads the config: the
    # costliest down path); the up loop restores the default.
    config = os.path.join(fx.home, "config.toml")
    os.makedirs(fx.home, exist_ok=True)
    with open(config, "w") as f:
        f.write("[daemon]\nautostart = false\n")
    try:
        hook_loop("down")
    finally:
        os.remove(config)
    if fx.has("daemon"):
        start = fx("daemon", "start", check=False)
        if start.code == 0:
            time.sleep(1.0)
            try:
                hook_loop("up")
            finally:
                fx("daemon", "stop", check=False)
        else:
            err = {"error": f"`fornax daemon start` exited {start.code}: {start.stdout[-300:]!r}"}
            result["daemon_up"] = err
            if hook_bin:
                result["hook_binary_daemon_up"] = err
    else:
        err = {"error": "no `fornax daemon` subcommand in this build"}
        result["daemon_up"] = err
        if hook_bin:
            result["hook_binary_daemon_up"] = err
    return result


WARMUP = 5  # uncounted calls before each latency loop (page cache, daemon connection)
SEARCH_TERMS = ["rounding", "cursor stale", "cargo test", "FAILED", "committed", "depot", "timeout retry", "AssertionError", "migration schema", "panic", "snapshot", "route planner"]
QUERIES = [
    "SELECT count(*) FROM item",
    "SELECT provider, count(*) FROM session GROUP BY provider",
    "SELECT kind, count(*) FROM item GROUP BY kind ORDER BY 2 DESC LIMIT 20",
    "SELECT * FROM session ORDER BY rowid DESC LIMIT 50",
    "SELECT count(*) FROM claim",
]


USAGE_REPORTS = [[], ["monthly"], ["session"], ["blocks"], ["daily", "--breakdown"]]


def item_count(fx: Fornax) -> int:
    s = fx("query", "SELECT count(*) FROM item", "--json", check=False)
    try:
        return int(json.loads(s.stdout)["rows"][0][0])
    except (ValueError, KeyError, IndexError, TypeError):
        return -1


def measure_usage(fx: Fornax, reps: int) -> dict:
    """`fornax usage` answers from the index (it must not re-read files): each report, with
    the number of model calls it sums so the time can be read against the table's size."""
    usage: dict = {}
    for report in USAGE_REPORTS:
        cmd = [fx.binary, "usage", *report, "--json"]
        timed(cmd, fx.env)
        usage[" ".join(report) or "daily"] = latency([timed(cmd, fx.env) for _ in range(max(reps, 3) * 2)])
    calls = fx("query", "SELECT count(*) FROM usage", "--json", check=False)
    try:
        usage["usage_rows"] = int(json.loads(calls.stdout)["rows"][0][0])
    except (ValueError, KeyError, IndexError, TypeError):
        usage["usage_rows"] = None
    # What the reports read: the store's hourly rollup (absent before schema 9).
    rollup = fx("query", "SELECT count(*) FROM usage_hour", "--json", check=False)
    try:
        usage["rollup_rows"] = int(json.loads(rollup.stdout)["rows"][0][0])
    except (ValueError, KeyError, IndexError, TypeError):
        usage["rollup_rows"] = None
    log("fornax usage: " + ", ".join(f"{k} p50 {v['p50_ms']:.1f} ms" for k, v in usage.items() if isinstance(v, dict)))
    return usage


def measure_lookups(fx: Fornax, reps: int) -> dict:
    result: dict = {}
    for term in SEARCH_TERMS[:WARMUP]:
        fx.timed("search", term, "--json")
    search = [fx.timed("search", term, "--json") for _ in range(reps) for term in SEARCH_TERMS]
    result["search"] = latency(search)
    log(f"fornax search: p50 {result['search']['p50_ms']:.1f} ms p99 {result['search']['p99_ms']:.1f} ms")
    query, failed = [], []
    for _ in range(reps):
        for sql in QUERIES:
            wall, code = spawn([fx.binary, "query", sql, "--json"], fx.env)
            if code == 0:
                query.append(wall)
            elif sql not in failed:
                failed.append(sql)
    if query:
        result["query"] = latency(query)
        log(f"fornax query: p50 {result['query']['p50_ms']:.1f} ms p99 {result['query']['p99_ms']:.1f} ms")
    if failed:
        result["query_failed"] = failed
        if not query:
            raise CommandFailed(f"every `fornax query` failed: {failed}")
    # The status line Claude Code runs after every turn (budget: 20 ms), for sessions that
    # have findings, read from this index.
    ids = fx("query", "SELECT s.native_id FROM session s WHERE EXISTS (SELECT 1 FROM finding f WHERE f.session_id = s.id) LIMIT 10", "--json", check=False)
    try:
        native_ids = [r[0] for r in json.loads(ids.stdout)["rows"]]
    except (ValueError, KeyError, TypeError):
        native_ids = []
    if native_ids:
        payloads = [json.dumps({"session_id": sid, "hook_event_name": "Status"}).encode() for sid in native_ids]
        spawn([fx.binary, "status", "--statusline"], fx.env, payloads[0])
        line = [spawn([fx.binary, "status", "--statusline"], fx.env, p)[0] for _ in range(reps * 4) for p in payloads]
        result["statusline"] = latency(line)
        log(f"fornax status --statusline: p50 {result['statusline']['p50_ms']:.1f} ms p99 {result['statusline']['p99_ms']:.1f} ms")
    if fx.has("usage"):
        result["usage"] = measure_usage(fx, reps)
    counts = fx("query", "SELECT (SELECT count(*) FROM item) AS items, (SELECT count(*) FROM session) AS sessions, (SELECT count(*) FROM claim) AS claims", "--json", check=False)
    try:
        result["index_counts"] = dict(zip(*(lambda d: (d["columns"], d["rows"][0]))(json.loads(counts.stdout))))
    except (ValueError, KeyError, IndexError, TypeError):
        result["index_counts"] = counts.stdout.decode("utf-8", "replace")[:500]
    db = os.path.join(fx.home, "fornax.db")
    if os.path.exists(db):
        result["index_bytes"] = os.path.getsize(db)
    return result


def grow_index(fx: Fornax, args: argparse.Namespace, want_items: int) -> dict:
    """Scans further corpora (same size, next seeds) into the same index until it holds
    `want_items` items, so that search is measured on an index of the size the target names."""
    grown = {"extra_corpora": [], "items_before": item_count(fx)}
    items = grown["items_before"]
    seed = args.seed
    while 0 <= items < want_items and len(grown["extra_corpora"]) < 4:
        seed += 1
        folder, manifest = ensure_corpus(args.out, seed, args.size)
        s = fx("scan", os.path.join(folder, "home"), "--json")
        items = item_count(fx)
        grown["extra_corpora"].append({"seed": seed, "bytes": manifest["bytes"], "scan_wall_s": s.wall, "peak_rss_mb": s.rss_kb / 1024, "items_after": items})
        log(f"index grown with seed {seed}: {items} items ({s.wall:.1f}s, {s.rss_kb / 1024:.1f} MB peak)")
    grown["items_after"] = items
    return grown


# ----------------------------------------------------------------------------- trace-index


def ensure_trace_index(tools: str) -> tuple[str | None, str]:
    binary = os.path.join(tools, "bin", "trace-index")
    if os.path.exists(binary):
        return binary, "present"
    log(f"trace-index: installing into {tools} (cargo install --locked trace-index)")
    os.makedirs(tools, exist_ok=True)
    logfile = os.path.join(tools, "install.log")
    with open(logfile, "wb") as f:
        code = subprocess.call(["cargo", "install", "--locked", "trace-index", "--root", tools], stdout=f, stderr=subprocess.STDOUT)
    if code != 0 or not os.path.exists(binary):
        with open(logfile, encoding="utf-8", errors="replace") as f:
            tail = f.read()[-1500:]
        return None, f"`cargo install --locked trace-index --root {tools}` exited {code}:\n{tail}"
    return binary, "installed"


def measure_trace_index(binary: str, home: str, out: str, runs: int, corpus_bytes: int) -> dict:
    work = os.path.join(out, "trace-index-work")
    db = os.path.join(work, "trace-index.db")

    def sync() -> tuple[Sample, dict]:
        s = run([binary, "--db", db, "index", "sync", home, "--progress", "off"])
        try:
            data = json.loads(s.stdout).get("data", {})
        except ValueError:
            data = {}
        return s, data

    cold, datas = [], []
    for i in range(runs):
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        s, d = sync()
        cold.append(s)
        datas.append(d)
        log(f"trace-index cold sync {i + 1}/{runs}: {s.wall:.2f}s, {s.rss_kb / 1024:.1f} MB peak")
    result = {"cold": describe(cold, corpus_bytes)}
    d = datas[-1]
    keep = ["discovered_files", "indexed_files", "skipped_files", "failed_files", "indexed_records", "indexed_items", "malformed_records", "oversized_records"]
    result["summary"] = {k: d.get(k) for k in keep}
    result["summary"]["processed_bytes"] = d.get("metrics", {}).get("processed_bytes")
    skipped = {}
    for src in d.get("source_results", []) or []:
        if src.get("action") == "skipped" and src.get("error"):
            reason = src["error"].split(": ", 1)[-1]
            skipped[reason] = skipped.get(reason, 0) + 1
    result["skip_reasons"] = skipped
    warm = []
    for i in range(runs):
        s, _ = sync()
        warm.append(s)
        log(f"trace-index warm sync {i + 1}/{runs}: {s.wall * 1000:.0f} ms")
    result["warm"] = describe(warm, corpus_bytes)
    target = append_target(home)
    appended = []
    for i in range(runs):
        append_line(target, 1000 + i)
        s, _ = sync()
        appended.append(s)
        log(f"trace-index sync after append {i + 1}/{runs}: {s.wall * 1000:.0f} ms")
    result["append"] = describe(appended, corpus_bytes)
    version = run([binary, "--version"], check=False).stdout.decode().strip()
    result["version"] = version
    return result


# ----------------------------------------------------------------------------- report


def fmt_stat(st: dict, unit: str = "", scale: float = 1.0, digits: int = 2) -> str:
    f = f"{{:.{digits}f}}"
    return f"{f.format(st['median'] * scale)}{unit} ({f.format(st['min'] * scale)}–{f.format(st['max'] * scale)})"


def fmt_lat(lt: dict) -> str:
    if "error" in lt:
        return f"not measured: {lt['error']}"
    return f"p50 {lt['p50_ms']:.2f} ms, p99 {lt['p99_ms']:.2f} ms (min {lt['min_ms']:.2f}, max {lt['max_ms']:.2f}, n={lt['n']})"


def hook_rows(h: dict | None, row) -> None:
    if not h:
        return
    row("spawn /bin/true (same harness)", fmt_lat(h["spawn_true"]))
    if "spawn_true_up" in h:
        row("spawn /bin/true (same harness, daemon-up loop)", fmt_lat(h["spawn_true_up"]))
    row("`fornax hook claude`, daemon down", fmt_lat(h["daemon_down"]))
    row("`fornax hook claude`, daemon up", fmt_lat(h["daemon_up"]))
    if "hook_binary_daemon_down" in h:
        link = f" ({h['hook_binary_link']} binary)" if h.get("hook_binary_link") else ""
        row(f"`fornax-hook claude`{link}, daemon down", fmt_lat(h["hook_binary_daemon_down"]))
        row(f"`fornax-hook claude`{link}, daemon up", fmt_lat(h["hook_binary_daemon_up"]))
        # The target is relative to spawning /bin/true in the same loop.
        ratios = []
        for state, true_key in (("down", "spawn_true"), ("up", "spawn_true_up")):
            hook, true = h.get(f"hook_binary_daemon_{state}", {}), h.get(true_key, {})
            if "p50_ms" in hook and true.get("p50_ms"):
                ratios.append(f"daemon {state} {hook['p50_ms'] / true['p50_ms']:.2f}×")
        if ratios:
            row("`fornax-hook` p50 ÷ `/bin/true` p50", ", ".join(ratios))


def hooks_report(res: dict) -> str:
    """The report of a `--only hooks` run."""
    lines = [
        f"## Hook latency {res['date']}",
        "",
        f"Load average (1 min) at start {res['load'][0]:.1f}, at end {res.get('load_end', [0])[0]:.1f} on {os.cpu_count()} CPUs.",
        "",
        f"Commit `{res['commit']}`, {res['machine']}. Each loop interleaves the commands payload by payload.",
        "",
        "| measurement | latency |",
        "| --- | --- |",
    ]
    hook_rows(res["fornax"].get("hooks"), lambda name, a, *_: lines.append(f"| {name} | {a} |"))
    lines.append("")
    return "\n".join(lines)


def report(res: dict) -> str:
    m, fx = res["corpus"], res["fornax"]
    lines = [
        f"## Run {res['date']} — corpus {m['bytes'] / 1e6:.1f} MB ({m['files']} files, seed {m['seed']}), {res['runs']} runs per measurement",
        "",
        f"Load average (1 min) at start {res['load'][0]:.1f}, at end {res.get('load_end', [0])[0]:.1f} on {os.cpu_count()} CPUs: other work shares the machine, so wall times carry its noise; user+sys is steadier.",
        "",
        f"Commit `{res['commit']}`, {res['machine']}. Medians with (min–max) in brackets; page cache warm, index cold for cold scans. Peak RSS: {res.get('rss_source', 'wait4 ru_maxrss')}.",
        "",
        "| measurement | fornax | trace-index | fornax ÷ trace-index |",
        "| --- | --- | --- | --- |",
    ]
    ti = res.get("trace_index") or {}
    have_ti = "cold" in ti

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}×" if b else "–"

    c = fx["scans"]
    row = lambda name, a, b="–", r="–": lines.append(f"| {name} | {a} | {b} | {r} |")
    row("cold scan wall", fmt_stat(c["cold"]["wall_s"], " s"), fmt_stat(ti["cold"]["wall_s"], " s") if have_ti else "–", ratio(c["cold"]["wall_s"]["median"], ti["cold"]["wall_s"]["median"]) + " of its time" if have_ti else "–")
    row("cold scan user+sys", fmt_stat(c["cold"]["cpu_s"], " s"), fmt_stat(ti["cold"]["cpu_s"], " s") if have_ti else "–", ratio(c["cold"]["cpu_s"]["median"], ti["cold"]["cpu_s"]["median"]) + " of its CPU" if have_ti else "–")
    row("cold scan throughput (corpus bytes / wall)", fmt_stat(c["cold"]["mb_per_s"], " MB/s", digits=1), fmt_stat(ti["cold"]["mb_per_s"], " MB/s", digits=1) if have_ti else "–", ratio(c["cold"]["mb_per_s"]["median"], ti["cold"]["mb_per_s"]["median"]) if have_ti else "–")
    row("cold scan throughput (corpus bytes / user+sys)", fmt_stat(c["cold"]["mb_per_cpu_s"], " MB/cpu-s", digits=1), fmt_stat(ti["cold"]["mb_per_cpu_s"], " MB/cpu-s", digits=1) if have_ti else "–", ratio(c["cold"]["mb_per_cpu_s"]["median"], ti["cold"]["mb_per_cpu_s"]["median"]) if have_ti else "–")
    if have_ti and ti["summary"].get("processed_bytes"):
        pb = ti["summary"]["processed_bytes"]
        ti_proc = pb / 1e6 / ti["cold"]["wall_s"]["median"]
        row("cold scan throughput (bytes each tool indexed / wall)", f"{c['cold']['mb_per_s']['median']:.1f} MB/s", f"{ti_proc:.1f} MB/s ({pb / 1e6:.1f} MB indexed)", ratio(c["cold"]["mb_per_s"]["median"], ti_proc))
    row("cold scan peak RSS", fmt_stat(c["cold"]["peak_rss_mb"], " MB", digits=1), fmt_stat(ti["cold"]["peak_rss_mb"], " MB", digits=1) if have_ti else "–", ratio(c["cold"]["peak_rss_mb"]["median"], ti["cold"]["peak_rss_mb"]["median"]) if have_ti else "–")
    row("warm rescan (unchanged)", fmt_stat(c["warm"]["wall_s"], " ms", 1000, 0), fmt_stat(ti["warm"]["wall_s"], " ms", 1000, 0) if have_ti else "–", ratio(c["warm"]["wall_s"]["median"], ti["warm"]["wall_s"]["median"]) + " of its time" if have_ti else "–")
    row("warm rescan user+sys", fmt_stat(c["warm"]["cpu_s"], " ms", 1000, 0), fmt_stat(ti["warm"]["cpu_s"], " ms", 1000, 0) if have_ti else "–", ratio(c["warm"]["cpu_s"]["median"], ti["warm"]["cpu_s"]["median"]) + " of its CPU" if have_ti else "–")
    row("warm rescan peak RSS", fmt_stat(c["warm"]["peak_rss_mb"], " MB", digits=1), fmt_stat(ti["warm"]["peak_rss_mb"], " MB", digits=1) if have_ti else "–")
    row("rescan after appending 1 line to 1 file", fmt_stat(c["append"]["wall_s"], " ms", 1000, 0), fmt_stat(ti["append"]["wall_s"], " ms", 1000, 0) if have_ti else "–", ratio(c["append"]["wall_s"]["median"], ti["append"]["wall_s"]["median"]) + " of its time" if have_ti else "–")
    row("rescan after append, user+sys", fmt_stat(c["append"]["cpu_s"], " ms", 1000, 0), fmt_stat(ti["append"]["cpu_s"], " ms", 1000, 0) if have_ti else "–", ratio(c["append"]["cpu_s"]["median"], ti["append"]["cpu_s"]["median"]) + " of its CPU" if have_ti else "–")
    sh = c.get("shares", {})
    if "redaction_share" in sh:
        row("share of cold scan in redaction", f"{sh['redaction_share']['median'] * 100:.1f}% ({sh['redaction_share']['min'] * 100:.1f}–{sh['redaction_share']['max'] * 100:.1f}%)")
    if "verification_share" in sh:
        row("share of cold scan in verification", f"{sh['verification_share']['median'] * 100:.1f}% ({sh['verification_share']['min'] * 100:.1f}–{sh['verification_share']['max'] * 100:.1f}%)")
    hook_rows(fx.get("hooks"), row)
    lk = fx.get("lookups", {})
    if "search" in lk:
        row("`fornax search`", fmt_lat(lk["search"]))
    if "query" in lk:
        row("`fornax query`", fmt_lat(lk["query"]))
    if "statusline" in lk:
        row("`fornax status --statusline`", fmt_lat(lk["statusline"]))
    for name, lt in lk.get("usage", {}).items():
        if isinstance(lt, dict):
            row(f"`fornax usage {name} --json` ({lk['usage'].get('usage_rows')} model calls)", fmt_lat(lt))
    big = fx.get("lookups_big")
    if big:
        n = fx["grown"]["items_after"]
        row(f"`fornax search`, index grown to {n:,} items", fmt_lat(big["search"]))
        if "query" in big:
            row(f"`fornax query`, index grown to {n:,} items", fmt_lat(big["query"]))
        if "statusline" in big:
            row(f"`fornax status --statusline`, index grown to {n:,} items", fmt_lat(big["statusline"]))
    lines.append("")
    s = c.get("summary", {})
    lines.append(f"fornax cold scan summary: records {s.get('records')}, items {s.get('items')}, bytes_read {s.get('bytes_read')}, sources {json.dumps(s.get('sources'))}.")
    ws, aps = c.get("warm_summary", {}), c.get("append_summary", {})
    lines.append(f"warm rescan sources {json.dumps(ws.get('sources'))}; after append sources {json.dumps(aps.get('sources'))} (file `{c.get('append_file')}`).")
    if lk.get("index_counts"):
        lines.append(f"index: {json.dumps(lk['index_counts'])[:400]}, fornax.db {lk.get('index_bytes', 0) / 1e6:.1f} MB.")
    if big:
        g = fx["grown"]
        lines.append(f"grown index: {json.dumps(big.get('index_counts'))}, fornax.db {big.get('index_bytes', 0) / 1e6:.1f} MB; extra corpora {json.dumps(g['extra_corpora'])}.")
    if have_ti:
        lines.append(f"trace-index {ti.get('version', '')}: {json.dumps(ti['summary'])}; skipped: {json.dumps(ti.get('skip_reasons'))}.")
    elif ti:
        lines.append(f"trace-index: {ti.get('error')}")
    lines.append("")
    return "\n".join(lines)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            mem = f"{int(f.readline().split()[1]) / (1 << 20):.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    return f"{os.cpu_count()} CPUs ({cpu}), {mem}, {platform.system()} {platform.release()}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fornax", required=True, help="path of the fornax binary")
    ap.add_argument("--fornax-hook", help="path of the fornax-hook binary (default: next to --fornax, when there)")
    ap.add_argument("--only", choices=["hooks", "usage"], help="measure only this part, without trace-index: hooks (no corpus), usage (one scan of the corpus, kept for later runs, then `fornax usage`)")
    ap.add_argument("--size", type=gen_corpus.parse_size, default=gen_corpus.parse_size("64MiB"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--hooks", type=int, default=1000, help="hook invocations per configuration (0 skips)")
    ap.add_argument("--lookup-reps", type=int, default=5, help="passes over the search terms and queries")
    ap.add_argument("--scale-items", type=int, default=0, help="after the main measurements, grow the index with more corpora (next seeds) to this many items and measure search and query again")
    ap.add_argument("--commit", help="describe the measured binary's source when it is not the checkout's HEAD")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--trace-index", choices=["auto", "skip"], default="auto")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    if args.fornax_hook is None:
        sibling = os.path.join(os.path.dirname(os.path.abspath(args.fornax)), "fornax-hook")
        args.fornax_hook = sibling if os.access(sibling, os.X_OK) else None
    elif not os.access(args.fornax_hook, os.X_OK):
        log(f"--fornax-hook {args.fornax_hook} is not an executable")
        return 2
    if args.only == "hooks":
        return measure_only_hooks(args)
    if args.only == "usage":
        return measure_only_usage(args)
    corpus_dir, manifest = ensure_corpus(args.out, args.seed, args.size)
    home = os.path.join(corpus_dir, "home")
    res = base_result(args)
    res["corpus"] = manifest
    # The append measurements grow one file; it is put back afterwards so that the corpus
    # stays the pure function of (seed, size) that a later run reuses.
    target = append_target(home)
    with open(target, "rb") as f:
        original = f.read()
    try:
        return measure_all(args, res, home, manifest)
    finally:
        with open(target, "wb") as f:
            f.write(original)


def base_result(args: argparse.Namespace) -> dict:
    commit = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "commit": args.commit or (commit + (" (+ uncommitted changes)" if dirty else "")),
        "machine": machine(),
        "runs": args.runs,
        "load": list(os.getloadavg()),
        "rss_source": RSS_SOURCE,
        "fornax": {},
    }


def measure_only_hooks(args: argparse.Namespace) -> int:
    res = base_result(args)
    fx = Fornax(os.path.abspath(args.fornax), os.path.join(args.out, "fornax-home-hooks"))
    fx.reset()
    failure = None
    try:
        res["fornax"]["hooks"] = measure_hooks(fx, max(args.hooks, 1), args.out, args.fornax_hook)
    except CommandFailed as e:
        failure = str(e)
        log(f"FAILED: {failure}")
    res["load_end"] = list(os.getloadavg())
    with open(os.path.join(args.out, "results-hooks.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, indent=2)
    if failure is not None:
        return 1
    text = hooks_report(res)
    with open(os.path.join(args.out, "report-hooks.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text)
    return 0


def measure_only_usage(args: argparse.Namespace) -> int:
    """`fornax usage` on an index of the corpus: scanned once (the index is kept in
    OUT/fornax-home-usage-SIZE-sSEED and reused while its corpus is), then each report timed.
    Only a scan that finished is reused: an interrupted one leaves a `fornax.db` holding part
    of the corpus, so the marker is written after the scan exits 0 and checked before reuse."""
    corpus_dir, manifest = ensure_corpus(args.out, args.seed, args.size)
    res = base_result(args)
    res["corpus"] = manifest
    fx = Fornax(os.path.abspath(args.fornax), os.path.join(args.out, f"fornax-home-usage-{args.size}-s{args.seed}"))
    marker = os.path.join(fx.home, "bench-scan-complete.json")
    try:
        if os.path.exists(marker):
            with open(marker, encoding="utf-8") as f:
                res["scan"] = json.load(f)
            log(f"fornax usage: reusing the finished scan in {fx.home}")
        else:
            fx.reset()
            s = fx("scan", os.path.join(corpus_dir, "home"), "--json")
            res["scan"] = {"wall_s": s.wall, "cpu_s": s.user + s.sys, "peak_rss_mb": s.rss_kb / 1024, "load": list(os.getloadavg())}
            with open(marker, "w", encoding="utf-8") as f:
                json.dump(res["scan"], f)
            log(f"fornax scan for usage: {s.wall:.1f}s, {s.user + s.sys:.1f} s CPU, {s.rss_kb / 1024:.1f} MB peak")
        res["fornax"]["usage"] = measure_usage(fx, args.lookup_reps)
    except CommandFailed as e:
        log(f"FAILED: {e}")
        return 1
    res["load_end"] = list(os.getloadavg())
    with open(os.path.join(args.out, "results-usage.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, indent=2)
    u = res["fornax"]["usage"]
    lines = [
        f"## `fornax usage` {res['date']} — corpus {manifest['bytes'] / 1e6:.1f} MB (seed {manifest['seed']}), {u.get('usage_rows')} model calls in the index ({u.get('rollup_rows')} rollup rows)",
        "",
        f"Load average (1 min) at start {res['load'][0]:.1f}, at end {res['load_end'][0]:.1f} on {os.cpu_count()} CPUs. Commit `{res['commit']}`, {res['machine']}.",
        "",
    ]
    sc = res.get("scan")
    if sc:
        lines += [f"Index (`fornax scan`, cold): {sc['wall_s']:.1f} s wall, {sc['cpu_s']:.1f} s CPU, {sc['peak_rss_mb']:.1f} MB peak RSS.", ""]
    lines += [
        "| report | latency |",
        "| --- | --- |",
    ]
    lines += [f"| `fornax usage {k} --json` | {fmt_lat(v)} |" for k, v in u.items() if isinstance(v, dict)]
    lines.append("")
    text = "\n".join(lines)
    with open(os.path.join(args.out, "report-usage.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text)
    return 0


def measure_all(args: argparse.Namespace, res: dict, home: str, manifest: dict) -> int:
    failure = None
    fx = Fornax(os.path.abspath(args.fornax), os.path.join(args.out, f"fornax-home-{args.size}-s{args.seed}"))
    try:
        res["fornax"]["scans"] = measure_scans(fx, home, args.runs, manifest["bytes"])
        if args.hooks > 0:
            res["fornax"]["hooks"] = measure_hooks(fx, args.hooks, args.out, args.fornax_hook)
        res["fornax"]["lookups"] = measure_lookups(fx, args.lookup_reps)
        if args.scale_items and item_count(fx) < args.scale_items:
            res["fornax"]["grown"] = grow_index(fx, args, args.scale_items)
            res["fornax"]["lookups_big"] = measure_lookups(fx, args.lookup_reps)
    except CommandFailed as e:
        failure = str(e)
        log(f"FAILED: {failure}")
    if args.trace_index == "auto" and failure is None:
        binary, how = ensure_trace_index(os.path.join(args.out, "tools"))
        if binary is None:
            res["trace_index"] = {"error": how}
            log(f"trace-index unavailable: {how}")
        else:
            try:
                # Same corpus, fresh copy of the appended-to file's state is not needed: both tools
                # see the same bytes, appends included.
                res["trace_index"] = measure_trace_index(binary, home, args.out, args.runs, manifest["bytes"])
                res["trace_index"]["install"] = how
            except CommandFailed as e:
                res["trace_index"] = {"error": str(e)}
                log(f"trace-index failed: {e}")
    res["load_end"] = list(os.getloadavg())
    with open(os.path.join(args.out, "results.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, indent=2, default=lambda o: o.decode("utf-8", "replace") if isinstance(o, bytes) else str(o))
    if failure is None:
        text = report(res)
        with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
            f.write(text)
        print(text)
        return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
