#!/usr/bin/env bash
# claims-diff.sh A B
#
# Shows every difference in what two builds of Fornax extracted and judged, from the output
# folders of two runs of the same scorer (bench/verify-bench.sh SET FORNAX A, or
# verify-bench/real/score-real.sh FORNAX A): their findings.json, with each run's own folder
# taken out of the source paths, row ids and clock times left out, and the findings
# in a fixed order. A folder may also hold claims.txt, every assertion and claim of the
# extraction bench's texts (`FORNAX_CLAIMS_DUMP=A/claims.txt cargo bench -p fornax-bench
# --bench claims`), compared line by line. Prints nothing and exits 0 when the two agree;
# prints the differences and exits 1 otherwise.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "$0")" && pwd)"

usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h|--help|"") usage; [ -n "${1:-}" ]; exit $? ;; esac
[ $# -eq 2 ] || { usage >&2; exit 2; }

normalize() { python3 "$BENCH_DIR/normalize_findings.py" "$1" "$1/findings.json"; }

status=0
for d in "$1" "$2"; do
  [ -f "$d/findings.json" ] || { echo "claims-diff.sh: no findings.json in $d" >&2; exit 2; }
done
diff <(normalize "$1") <(normalize "$2") || status=1
if [ -f "$1/claims.txt" ] || [ -f "$2/claims.txt" ]; then
  diff "$1/claims.txt" "$2/claims.txt" || status=1
fi
exit $status
