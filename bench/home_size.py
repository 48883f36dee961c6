#!/usr/bin/env python3
"""What a Fornax home is made of: every file under FORNAX_HOME, and the database's pages by
table (its indexes and full-text shadow tables counted with it), read through `fornax query`
from SQLite's `dbstat`. Prints a Markdown table; `--json` prints the numbers.

    python3 bench/home_size.py --fornax target/release/fornax --home H [--corpus-bytes N]
"""

import argparse
import json
import os
import subprocess
import sys

# Which table an index or shadow table belongs to, for the names SQLite gives them.
GROUPS = [
    ("text_fts", "full-text index (text_fts_*)"),
    ("sqlite_autoindex_text_store", "text"),
    ("sqlite_autoindex_text", "text"),
    ("text_store", "text"),
    ("text", "text"),
    ("archive_blob", "archive (archive_blob)"),
    ("sqlite_autoindex_archive_blob", "archive (archive_blob)"),
    ("item_record", "item_record"),
    ("item", "item"),
    ("sqlite_autoindex_item", "item"),
    ("evidence", "evidence"),
    ("sqlite_autoindex_evidence", "evidence"),
    ("source", "source"),
    ("sqlite_autoindex_source", "source"),
    ("record", "record"),
    ("sqlite_autoindex_record", "record"),
    ("usage", "usage"),
    ("sqlite_autoindex_usage", "usage"),
]


def group_of(name: str) -> str:
    for prefix, group in GROUPS:
        if name == prefix or name.startswith(prefix + "_"):
            return group
    return "other tables"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fornax", required=True)
    ap.add_argument("--home", required=True)
    ap.add_argument("--corpus-bytes", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    env = dict(os.environ, FORNAX_HOME=args.home, FORNAX_DAEMON_AUTOSTART="0", NO_COLOR="1")
    sql = "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"
    out = subprocess.run([args.fornax, "query", sql, "--json"], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        print(f"`fornax query` failed: {out.stderr.strip()}", file=sys.stderr)
        return 1
    rows = json.loads(out.stdout)["rows"]
    groups: dict[str, int] = {}
    for name, size in rows:
        groups[group_of(name)] = groups.get(group_of(name), 0) + int(size)
    files = {}
    for root, _, names in os.walk(args.home):
        for n in names:
            p = os.path.join(root, n)
            files[os.path.relpath(p, args.home)] = os.path.getsize(p)
    total = sum(files.values())
    result = {"groups": groups, "files": files, "total": total, "corpus_bytes": args.corpus_bytes}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print("| part | MB | share |")
    print("| --- | ---: | ---: |")
    for g, size in sorted(groups.items(), key=lambda kv: -kv[1]):
        print(f"| {g} | {size / 1e6:.1f} | {100 * size / max(total, 1):.0f} % |")
    for f, size in sorted(files.items()):
        if f != "fornax.db":
            print(f"| file `{f}` | {size / 1e6:.1f} | {100 * size / max(total, 1):.0f} % |")
    ratio = f" = {total / args.corpus_bytes:.2f}× the corpus" if args.corpus_bytes else ""
    print(f"| **home** | **{total / 1e6:.1f}** | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
