#!/usr/bin/env bash
# verify-bench.sh SET [FORNAX] [OUTDIR]
#
# Scores a Fornax binary against a labeled verify-bench set (a folder with labels.json,
# score.py and sessions/), following the set's own procedure:
#   1. scan the file-based sessions into a fresh FORNAX_HOME;
#   2. replay every Claude Code hook stream line by line into `fornax hook claude`
#      (one process per line), with the daemon up;
#   3. pipe every opencode plugin stream whole into one `fornax hook opencode`;
#   4. stop the daemon (it returns once everything received is stored);
#   5. `fornax findings --json`, then the set's score.py.
#   SET     the set folder (its score.py is used; labels.json beside it)
#   FORNAX  the fornax binary (default: target/release/fornax, else `fornax` on PATH)
#   OUTDIR  where the FORNAX_HOME, logs and findings.json go (default: a new temp folder)
# The set is only read. The last line printed is the scorer's SCORE line.
set -euo pipefail

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h|--help|"") usage; [ -n "${1:-}" ]; exit $? ;; esac

SET="$(cd "$1" && pwd)"
FORNAX="${2:-}"
OUTDIR="${3:-}"
if [ -z "$FORNAX" ]; then
  ROOT="$(cd "$(dirname "$0")/.." && pwd)"
  if [ -x "$ROOT/target/release/fornax" ]; then FORNAX="$ROOT/target/release/fornax"; else FORNAX=fornax; fi
fi
if ! command -v "$FORNAX" >/dev/null 2>&1; then
  echo "verify-bench.sh: fornax binary not found: $FORNAX" >&2
  exit 2
fi
FORNAX="$(command -v "$FORNAX")"
for f in "$SET/labels.json" "$SET/score.py"; do
  [ -f "$f" ] || { echo "verify-bench.sh: missing $f" >&2; exit 2; }
done
[ -d "$SET/sessions" ] || { echo "verify-bench.sh: missing $SET/sessions" >&2; exit 2; }

if [ -z "$OUTDIR" ]; then
  OUTDIR="$(mktemp -d "${TMPDIR:-/tmp}/verify-bench.XXXXXX")"
fi
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
rm -rf "$OUTDIR/home"
mkdir -p "$OUTDIR/home"
export FORNAX_HOME="$OUTDIR/home"

echo "fornax:  $FORNAX ($("$FORNAX" --version 2>/dev/null || echo 'version unknown'))"
echo "set:     $SET"
echo "home:    $FORNAX_HOME"
echo

"$FORNAX" scan "$SET/sessions" >"$OUTDIR/scan.log" 2>&1 || {
  echo "fornax scan failed (see $OUTDIR/scan.log):"
  tail -n 20 "$OUTDIR/scan.log"
}

stop_daemon() { "$FORNAX" daemon stop >>"$OUTDIR/daemon.log" 2>&1 || true; }
"$FORNAX" daemon start >"$OUTDIR/daemon.log" 2>&1
trap stop_daemon EXIT

shopt -s nullglob
hook_lines=0
for f in "$SET"/sessions/*/*.hooks.ndjson; do
  while IFS= read -r line || [ -n "$line" ]; do
    printf '%s\n' "${line//\$\{BENCH_DIR\}/$SET}" | "$FORNAX" hook claude >/dev/null 2>>"$OUTDIR/hook.log" || true
    hook_lines=$((hook_lines + 1))
  done <"$f"
done
plugin_streams=0
for f in "$SET"/sessions/*/*.opencode.ndjson; do
  sed "s|\${BENCH_DIR}|$SET|g" "$f" | "$FORNAX" hook opencode >/dev/null 2>>"$OUTDIR/hook.log" || true
  plugin_streams=$((plugin_streams + 1))
done
stop_daemon
trap - EXIT
echo "replayed: $hook_lines hook line(s), $plugin_streams plugin stream(s)"

if ! "$FORNAX" findings --json >"$OUTDIR/findings.json" 2>"$OUTDIR/findings.err"; then
  echo "fornax findings --json failed (see $OUTDIR/findings.err); scoring an empty findings list"
  echo '[]' >"$OUTDIR/findings.json"
fi
echo "findings: $OUTDIR/findings.json"
echo

python3 "$SET/score.py" "$SET/labels.json" "$OUTDIR/findings.json"
