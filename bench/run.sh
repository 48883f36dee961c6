#!/usr/bin/env bash
# Fornax performance harness.
#
#   bench/run.sh [--smoke] [--size 64MiB|1GiB|...] [--runs N] [--seed N] [--hooks N]
#                [--scale-items N] [--no-trace-index] [--debug] [--only hooks|usage]
#
# Builds `fornax` and `fornax-hook` (release; --smoke uses the dev build CI already has),
# generates the seeded corpus under bench/out/ (reused when present), measures cold scan, warm
# rescan, rescan after a one-line append, hook latency (`fornax hook claude` and `fornax-hook claude`, daemon
# down and up, interleaved with spawning /bin/true), search and query latency (again
# after growing the index with further corpora to --scale-items items, default 1,000,000), then
# installs trace-index into bench/out/tools when missing and measures it on the same corpus.
# Tables go to stdout and bench/out/report.md; every sample to bench/out/results.json.
#
# --smoke: tiny corpus, 1 run, 20 hook calls, no trace-index; a check that every command
# works, with no thresholds. --only hooks: the hook latency alone (no corpus, no trace-index),
# to bench/out/report-hooks.md. --only usage: `fornax usage` on an index of the corpus (scanned
# once and kept), to bench/out/report-usage.md. Exits non-zero only when a command fails.
set -euo pipefail
cd "$(dirname "$0")/.."

size=64MiB runs=5 seed=1 hooks=1000 reps=5 trace=auto profile=release smoke=0 scale=1000000 only=
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1 size=4MiB runs=1 hooks=20 reps=1 trace=skip profile=dev scale=0 ;;
    --size) size="$2"; shift ;;
    --runs) runs="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --hooks) hooks="$2"; shift ;;
    --scale-items) scale="$2"; shift ;;
    --no-trace-index) trace=skip ;;
    --debug) profile=dev ;;
    --only) only="$2"; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

python=$(command -v python3.11 || command -v python3 || true)
if [ -z "$python" ]; then
  echo "python3 is required" >&2
  exit 1
fi

target_dir="${CARGO_TARGET_DIR:-target}"
if [ "$profile" = release ]; then
  cargo build --release -p fornax-cli  # both binaries: fornax and fornax-hook
  bin="$target_dir/release/fornax"
else
  cargo build -p fornax-cli
  bin="$target_dir/debug/fornax"
fi

out="bench/out"
[ "$smoke" = 1 ] && out="bench/out/smoke"
mkdir -p "$out"
{
  echo "# machine"
  echo "nproc: $(nproc)"
  free -h 2>/dev/null || true
  lscpu 2>/dev/null | head -n 15 || true
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "profile: $profile"
} > "$out/machine.txt"

exec "$python" bench/run.py --fornax "$bin" --size "$size" --runs "$runs" --seed "$seed" \
  --hooks "$hooks" --lookup-reps "$reps" --trace-index "$trace" --scale-items "$scale" --out "$out" \
  ${only:+--only "$only"}
