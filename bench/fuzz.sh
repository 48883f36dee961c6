#!/usr/bin/env bash
# Fornax fuzzing: every property-based fuzz target of crates/fornax-fuzz, each for a set time.
#
#   bench/fuzz.sh [--secs N | --rounds N] [--seed N] [--debug] [--only TEST_FILE]
#
# --secs N   seconds per target (default 600: ten minutes each, as when run by hand)
# --rounds N exactly N rounds of 256 cases per target, however fast the machine (CI)
# --seed N   repeatable cases: round r draws from seed N + r (CI); default: new cases each run
# --debug    build with the dev profile (CI reuses the test build); default is --release
# --only F   only the targets of crates/fornax-fuzz/tests/F.rs (framing, spool, adapters, text, sql)
#
# Targets: line framing, value scanning, dump round trip, the spool reader, the spool round
# trip, every adapter's normalize (real fixture and corpus seeds, mutated), redaction, claim
# extraction and the read-only SQL surface. A failure is shrunk, printed, and kept in
# crates/fornax-fuzz/regressions/ (replayed first by every later run, including
# `cargo test --workspace`): commit that file with the fix. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=600 rounds= seed="${FORNAX_FUZZ_SEED:-}" profile=--release only=
while [ $# -gt 0 ]; do
  case "$1" in
    --secs) secs="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    --debug) profile= ;;
    --only) only="$2"; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

files=(framing spool adapters text sql)
[ -n "$only" ] && files=("$only")

cargo test $profile -p fornax-fuzz --no-run --quiet
started=$(date +%s)
if [ -n "$rounds" ]; then per="$rounds rounds"; else per="${secs}s"; fi
per="$per per target"
[ -n "$seed" ] && per="$per, seed $seed"
for f in "${files[@]}"; do
  echo "== fuzz $f ($per)"
  FORNAX_FUZZ_SECS="$secs" FORNAX_FUZZ_ROUNDS="$rounds" FORNAX_FUZZ_SEED="$seed" \
    cargo test $profile -p fornax-fuzz --test "$f" --quiet -- --test-threads=1 --nocapture
done
echo "== fuzzing done in $(( $(date +%s) - started ))s: 0 failures"
