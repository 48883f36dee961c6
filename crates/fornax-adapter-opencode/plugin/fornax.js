// Fornax capture plugin for opencode.
//
// Forwards every invocation of the hooks below, as it happens, as one NDJSON line
// {"hook": <name>, "at": <ISO8601>, "payload": <the arguments opencode passed>} to the stdin of one
// long-lived child process, `fornax hook opencode` (binary from $FORNAX_BIN, else `fornax` on PATH).
//
// Invariants:
// * Never breaks opencode: no hook throws, rejects or waits on the child. A missing binary, a child
//   that dies, a broken pipe or a payload that cannot be serialized is swallowed.
// * Never keeps opencode alive: the child and its pipe are unref'd and every timer too. A write
//   the child does not drain within STALL_MS (a stuck child) gets the child abandoned, since a
//   pending write alone would hold the event loop. A dead child is respawned lazily, on a later
//   hook, after a growing back-off.
// * Bounded: lines wait in a capped queue while no child runs and are dropped (oldest first) past
//   the cap; a child that stops reading makes new lines drop instead of piling up in memory.
// * Node built-ins only, and only plugin functions are exported (opencode calls every export).

import { spawn } from "node:child_process";

const QUEUE_LIMIT_BYTES = 4 * 1024 * 1024;
const PIPE_LIMIT_BYTES = 16 * 1024 * 1024;
const STRING_LIMIT = 1024 * 1024;
const BACKOFF_MS = [500, 1000, 2000, 5000, 15000, 30000, 60000];
const STABLE_AFTER_MS = 60000;
const STALL_MS = 3000;

function binary() {
  const configured = process.env.FORNAX_BIN;
  return typeof configured === "string" && configured.trim() !== "" ? configured : "fornax";
}

// JSON.stringify that cannot throw: cycles, BigInt, errors and huge strings are made inert. An
// object shared by two branches (not a cycle) is written twice, as opencode meant it.
function encode(value) {
  const ancestors = [];
  function replacer(_key, v) {
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "string" && v.length > STRING_LIMIT) {
      const half = Math.floor(STRING_LIMIT / 2);
      return `${v.slice(0, half)}\n[… ${v.length - 2 * half} characters elided by the fornax plugin …]\n${v.slice(-half)}`;
    }
    if (v instanceof Error) return { name: v.name, message: v.message };
    if (v === null || typeof v !== "object") return v;
    // `this` is the object holding `v`: unwind the path to it, then look for `v` on that path.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(v)) return "[circular]";
    ancestors.push(v);
    return v;
  }
  try {
    return JSON.stringify(value, replacer);
  } catch {
    return null;
  }
}

function createForwarder() {
  let child = null;
  let startedAt = 0;
  let failures = 0;
  let retryAt = 0;
  let queue = [];
  let queuedBytes = 0;
  let stallTimer = null;
  let drainedSinceCheck = false;

  function enqueue(line) {
    queue.push(line);
    queuedBytes += line.length;
    while (queuedBytes > QUEUE_LIMIT_BYTES && queue.length > 0) {
      queuedBytes -= queue.shift().length;
    }
  }

  function died(which) {
    if (child !== which) return;
    child = null;
    if (stallTimer !== null) {
      clearTimeout(stallTimer);
      stallTimer = null;
    }
    try {
      if (which.stdin) which.stdin.destroy(); // releases the pipe and any write it still holds
    } catch {
      // Already closed.
    }
    if (Date.now() - startedAt > STABLE_AFTER_MS) failures = 0;
    failures += 1;
    retryAt = Date.now() + BACKOFF_MS[Math.min(failures, BACKOFF_MS.length) - 1];
  }

  function start() {
    let proc;
    try {
      proc = spawn(binary(), ["hook", "opencode"], {
        stdio: ["pipe", "ignore", "ignore"],
        windowsHide: true,
      });
    } catch {
      child = null;
      failures += 1;
      retryAt = Date.now() + BACKOFF_MS[Math.min(failures, BACKOFF_MS.length) - 1];
      return;
    }
    child = proc;
    startedAt = Date.now();
    try {
      proc.on("error", () => died(proc));
      proc.on("exit", () => died(proc));
      if (proc.stdin) {
        proc.stdin.on("error", () => died(proc));
        proc.stdin.on("drain", () => {
          drainedSinceCheck = true;
        });
        if (typeof proc.stdin.unref === "function") proc.stdin.unref();
      }
      if (typeof proc.unref === "function") proc.unref();
    } catch {
      // A runtime without these methods still works; it only may wait for the child at exit.
    }
    // Without a pid the spawn failed (for example ENOENT); the error event follows.
    if (typeof proc.pid !== "number" || !proc.stdin) died(proc);
  }

  // A child that stops reading: drop it (and what it did not read) instead of holding opencode.
  function watchForStall(proc) {
    if (stallTimer !== null) return;
    drainedSinceCheck = false;
    stallTimer = setTimeout(() => {
      stallTimer = null;
      if (child !== proc || !proc.stdin || (proc.stdin.writableLength || 0) === 0) return;
      if (drainedSinceCheck) {
        watchForStall(proc); // slow but reading: look again later
        return;
      }
      died(proc);
      try {
        proc.kill();
      } catch {
        // Already gone.
      }
    }, STALL_MS);
    if (typeof stallTimer.unref === "function") stallTimer.unref();
  }

  function write(line) {
    const stdin = child && child.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded) return false;
    if ((stdin.writableLength || 0) > PIPE_LIMIT_BYTES) return true; // dropped: the child lags
    try {
      stdin.write(line);
      if ((stdin.writableLength || 0) > 0) watchForStall(child);
      return true;
    } catch {
      died(child);
      return false;
    }
  }

  return function send(line) {
    if (!child && Date.now() >= retryAt) start();
    if (!child) {
      enqueue(line);
      return;
    }
    while (queue.length > 0) {
      const head = queue[0];
      if (!write(head)) break;
      queue.shift();
      queuedBytes -= head.length;
    }
    if (queue.length > 0 || !write(line)) enqueue(line);
  };
}

let forwarder = null;

function forward(hook, payload) {
  try {
    const body = encode({ hook, at: new Date().toISOString(), payload });
    if (body === null) return;
    if (forwarder === null) forwarder = createForwarder();
    forwarder(`${body}\n`);
  } catch {
    // Capture must never surface in opencode.
  }
}

function relay(hook) {
  return async (input, output) => {
    forward(hook, { input, output });
  };
}

export const FornaxPlugin = async () => ({
  event: async (arg) => {
    forward("event", { event: arg && typeof arg === "object" ? arg.event : undefined });
  },
  "chat.message": relay("chat.message"),
  "tool.execute.before": relay("tool.execute.before"),
  "tool.execute.after": relay("tool.execute.after"),
});
