#!/usr/bin/env bash
# findings-diff.sh BASE NEW [OUTDIR] [DIR...]
#
# Shows every difference in the findings of two Fornax binaries on the same inputs: the
# verify-bench set (bench/verify-bench.sh: scan, hook and plugin replay), the shared real
# corpus (verify-bench/real/score-real.sh) and each extra DIR (one `fornax scan DIR` into a
# fresh FORNAX_HOME). Each binary gets its own fresh homes. Findings are compared on what they
# say — verdict, claim, rationale, reason, evidence, rule, sources — with each run's own folder
# taken out of paths and the row ids and the times Fornax computed things left out.
#   BASE, NEW  the two fornax binaries
#   OUTDIR     where homes, logs and normalized findings go (default: a new temp folder)
#   DIR        more folders to scan (read only)
# Finds the shared material via FORNAX_SHARED_DIR (default: ../shared beside the checkout).
# Prints a line per input and the differences; exits 0 when every input agrees, 1 otherwise.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "$0")" && pwd)"

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h|--help|"") usage; [ -n "${1:-}" ]; exit $? ;; esac
[ $# -ge 2 ] || { usage >&2; exit 2; }

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${FORNAX_SHARED_DIR:-$ROOT/../shared}"
BASE="$(command -v "$1")" || { echo "findings-diff.sh: no binary $1" >&2; exit 2; }
NEW="$(command -v "$2")" || { echo "findings-diff.sh: no binary $2" >&2; exit 2; }
OUTDIR="${3:-}"
shift 2
[ $# -gt 0 ] && shift
[ -n "$OUTDIR" ] || OUTDIR="$(mktemp -d "${TMPDIR:-/tmp}/findings-diff.XXXXXX")"
mkdir -p "$OUTDIR"
OUTDIR="$(cd "$OUTDIR" && pwd)"
export FORNAX_DAEMON_AUTOSTART=0

# normalize FOLDER FINDINGS_JSON: one finding per line, in a fixed order.
normalize() { python3 "$BENCH_DIR/normalize_findings.py" "$1" "$2"; }

# run TAG BIN: every input through BIN, normalized findings in OUTDIR/TAG/*.txt
run() {
  local tag="$1" bin="$2" out="$OUTDIR/$1"
  rm -rf "$out"
  mkdir -p "$out"
  bash "$ROOT/bench/verify-bench.sh" "$SHARED/verify-bench" "$bin" "$out/bench" >"$out/bench.log" 2>&1 || true
  normalize "$out/bench" "$out/bench/findings.json" >"$out/bench.txt"
  bash "$SHARED/verify-bench/real/score-real.sh" "$bin" "$out/real" >"$out/real.log" 2>&1 || true
  normalize "$out/real" "$out/real/findings.json" >"$out/real.txt"
  local i=0 dir
  for dir in "${EXTRA[@]}"; do
    i=$((i + 1))
    mkdir -p "$out/extra$i/home"
    FORNAX_HOME="$out/extra$i/home" "$bin" scan "$dir" >"$out/extra$i/scan.log" 2>&1 || true
    FORNAX_HOME="$out/extra$i/home" "$bin" findings --json >"$out/extra$i/findings.json" 2>/dev/null ||
      echo '[]' >"$out/extra$i/findings.json"
    normalize "$out/extra$i" "$out/extra$i/findings.json" >"$out/extra$i.txt"
  done
}

EXTRA=("$@")
run base "$BASE"
run new "$NEW"

status=0
names=(bench real)
for i in $(seq 1 ${#EXTRA[@]}); do names+=("extra$i"); done
for name in "${names[@]}"; do
  n_base=$(wc -l <"$OUTDIR/base/$name.txt")
  n_new=$(wc -l <"$OUTDIR/new/$name.txt")
  if diff -q "$OUTDIR/base/$name.txt" "$OUTDIR/new/$name.txt" >/dev/null; then
    echo "$name: same ($n_base findings)"
  else
    echo "$name: DIFFERENT (base $n_base, new $n_new findings)"
    diff "$OUTDIR/base/$name.txt" "$OUTDIR/new/$name.txt" | head -n 40 || true
    status=1
  fi
done
[ "$n_base" -gt 0 ] || { echo "findings-diff.sh: no findings at all; is the shared material there?" >&2; status=2; }
echo "outputs: $OUTDIR"
exit $status
