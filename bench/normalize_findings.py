#!/usr/bin/env python3
"""normalize_findings.py FOLDER FINDINGS_JSON

Prints the findings of one scorer run one per line, in a fixed order, with the run's own
FOLDER taken out of paths and row ids and clock times left out, so that two runs of two builds
can be compared with `diff` (bench/claims-diff.sh, bench/findings-diff.sh).
"""
import json
import sys

# Row ids depend on insertion order across tables, times on the clock: neither is a finding.
DROP = {"computed_at", "session_id", "id", "row_id", "ran_at", "started_at", "finished_at"}


def strip(value, folder):
    if isinstance(value, str):
        return value.replace(folder + "/", "")
    if isinstance(value, list):
        return [strip(x, folder) for x in value]
    if isinstance(value, dict):
        return {k: strip(x, folder) for k, x in value.items() if k not in DROP}
    return value


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    folder, path = sys.argv[1].rstrip("/"), sys.argv[2]
    with open(path) as f:
        data = json.load(f)
    findings = data.get("findings", []) if isinstance(data, dict) else data
    rows = sorted(json.dumps(strip(f, folder), sort_keys=True, ensure_ascii=False) for f in findings)
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
