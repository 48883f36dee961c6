#!/usr/bin/env python3
"""Deterministic benchmark corpus of agent sessions in their native on-disk formats.

Writes a fake home directory with Claude Code transcripts, Codex CLI rollouts and Pi v3
session files, laid out where each agent keeps them:

    OUT/home/.claude/projects/<dashed-cwd>/<session-id>.jsonl
    OUT/home/.claude/projects/<dashed-cwd>/<session-id>/subagents/agent-<17 hex>.jsonl
    OUT/home/.codex/sessions/YYYY/MM/DD/rollout-<YYYY-MM-DDThh-mm-ss>-<uuid>.jsonl
    OUT/home/.pi/agent/sessions/--<cwd>--/<ts>_<uuid>.jsonl
    OUT/manifest.json      (what was generated: counts, sizes, planted secrets)

The file-size profile follows a heavy user's history: about 3,100 files per GiB, sizes
p50 ~105 KB, p90 ~650 KB, p99 ~5.4 MB, plus one ~87 MB transcript per GiB. Content is
invented: prompts, file reads, edits, shell commands, test runs that pass and fail, git
commits, claims in the agent's final words (some true, some contradicted by the run
before them) and planted fake secrets of well-known shapes.

The output is a pure function of (--seed, --size): same arguments, same bytes. Nothing
depends on the clock, the locale or the environment; file modification times are set
from the generated timestamps.

Standard library only.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import os
import random
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from typing import Iterator

GIB = 1 << 30
FILES_PER_GIB = 3100
GIANT_BYTES = 87_000_000
# Quantiles of the per-file size distribution (log-linear between points). The last point
# is calibrated so that the files add up to the requested size.
SIZE_QUANTILES = [
    (0.0, 1_500),
    (0.05, 6_000),
    (0.25, 38_000),
    (0.50, 105_000),
    (0.75, 210_000),
    (0.90, 650_000),
    (0.97, 1_200_000),
    (0.99, 5_400_000),
]
PROVIDER_SHARES = [("claude", 0.50), ("claude-sub", 0.08), ("codex", 0.28), ("pi", 0.14)]
BASE_EPOCH = 1_756_684_800  # 2025-09-01T00:00:00Z
HISTORY_SPAN_S = 240 * 86_400

JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False)
dumps = JSON.encode


# ----------------------------------------------------------------------------- sizes


def parse_size(text: str) -> int:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?i?B?)?\s*", text, re.IGNORECASE)
    if not m:
        raise argparse.ArgumentTypeError(f"bad size {text!r} (examples: 64MiB, 1GiB, 500MB)")
    number = float(m.group(1))
    unit = (m.group(2) or "").upper().rstrip("B")
    scale = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "KI": 1 << 10, "MI": 1 << 20, "GI": 1 << 30, "TI": 1 << 40}
    if unit not in scale:
        raise argparse.ArgumentTypeError(f"bad size unit in {text!r}")
    return int(number * scale[unit])


def quantile(u: float, points: list[tuple[float, float]]) -> float:
    for (u0, v0), (u1, v1) in zip(points, points[1:]):
        if u <= u1:
            t = (u - u0) / (u1 - u0)
            return math.exp(math.log(v0) + t * (math.log(v1) - math.log(v0)))
    return points[-1][1]


def plan_sizes(total: int) -> list[int]:
    """Target sizes of every file, largest first decided, then the body of the distribution."""
    count = max(4, round(FILES_PER_GIB * total / GIB))
    giants = total // GIB
    giant_sizes = [GIANT_BYTES] * giants if giants else [max(4_000, int(GIANT_BYTES * total / GIB))]
    rest_count = count - len(giant_sizes)
    rest_total = max(rest_count * 2_000, total - sum(giant_sizes))

    def body(top: float) -> list[float]:
        points = SIZE_QUANTILES + [(1.0, top)]
        return [quantile((i + 0.5) / rest_count, points) for i in range(rest_count)]

    lo, hi = 5_400_001.0, 60_000_000.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if sum(body(mid)) < rest_total:
            lo = mid
        else:
            hi = mid
    sizes = body((lo + hi) / 2)
    # Small corpora cannot reach the tail: scale the body to the requested total instead.
    scale = rest_total / sum(sizes)
    if abs(scale - 1) > 0.01:
        sizes = [s * scale for s in sizes]
    return giant_sizes + [max(1_200, int(s)) for s in sizes]


# ----------------------------------------------------------------------------- text pools

WORDS = (
    "the a an of to in for on with by from as at into over under after before and or but not "
    "this that these those it its we you they our their rounding ledger parser decoder route "
    "planner depot cache index buffer cursor session record token budget limit retry timeout "
    "config schema migration handler request response client server worker queue batch stream "
    "value field column table row query filter sort merge split trim encode decode escape "
    "error failure panic warning check test suite case fixture snapshot assertion expected "
    "actual result output input path file line offset range byte length count total sum mean "
    "slow fast small large empty missing invalid stale fresh closed open pending done update "
    "fix change rename move remove add keep drop skip handle return raise log trace debug "
    "because since when while unless until then also only still already again now later "
    "function method struct enum trait module package crate import export build compile link "
    "release version branch commit diff patch merge rebase tag remote origin upstream local"
).split()

IDENTS = (
    "total amount cents rate items entry entries node nodes edge graph visit seen stack frame "
    "ctx state cfg opts args buf pos idx len acc key val res err out tmp line cols rows spec "
    "plan route depot order user account invoice ledger report parser lexer token span reader "
    "writer cache store index cursor limit window batch chunk worker job task event handler"
).split()

LANG = {
    "rust": {"ext": "rs", "dirs": ["src", "src/bin", "tests", "benches"], "test": ["cargo test", "cargo test --workspace", "cargo test -p core", "cargo nextest run"], "build": "cargo build", "lint": "cargo clippy -- -D warnings"},
    "python": {"ext": "py", "dirs": ["src/app", "app", "tests", "scripts"], "test": ["pytest -q", "python -m pytest tests/", "pytest -x", "uv run pytest"], "build": "python -m build", "lint": "ruff check ."},
    "go": {"ext": "go", "dirs": ["internal/core", "internal/api", "cmd/server", "pkg/util"], "test": ["go test ./...", "go test -race ./...", "go test ./internal/..."], "build": "go build ./...", "lint": "golangci-lint run"},
    "node": {"ext": "ts", "dirs": ["src", "src/lib", "test", "scripts"], "test": ["npm test", "npx jest", "pnpm test", "npx vitest run"], "build": "npm run build", "lint": "npx eslint ."},
    "c": {"ext": "c", "dirs": ["src", "include", "tests", "lib"], "test": ["make test", "make check", "ctest --output-on-failure"], "build": "make", "lint": "make lint"},
}

PROJECT_NAMES = (
    "ledger courier tinyjson harbor quarry lantern orchard beacon meridian tessera kestrel "
    "saltmarsh ironbark driftwood copperleaf foxglove wayfarer nimbus cinder marble halcyon "
    "juniper obsidian pylon quill runnel sextant thimble umber vellum wicket yarrow zephyr "
    "atlas bramble cobalt dovetail emberline fjord gantry"
).split()


def build_prose(rng: random.Random, size: int) -> str:
    out, n = [], 0
    while n < size:
        words = [rng.choice(WORDS) for _ in range(rng.randint(6, 22))]
        s = " ".join(words).capitalize() + rng.choice([".", ".", ".", "?", ":", "."])
        if rng.random() < 0.03:
            s += rng.choice([" — see café.rs", " (naïve approach)", " → done", " ✓", " 数据"])
        out.append(s)
        n += len(s) + 1
        if rng.random() < 0.15:
            out.append("\n")
    return " ".join(out)


def build_code(rng: random.Random, lang: str, size: int) -> str:
    lines, n, depth = [], 0, 0
    while n < size:
        ident = rng.choice(IDENTS)
        other = rng.choice(IDENTS)
        num = rng.randint(0, 4096)
        if lang == "rust":
            choices = [f"let {ident} = {other}.iter().map(|x| x * {num}).sum::<i64>();", f"if {ident}.len() > {num} {{", "}", f"fn {ident}_{other}(&mut self, {other}: &str) -> Result<usize, Error> {{", f"    return Err(Error::Invalid(\"{ident} {other}\".into()));", f"// {rng.choice(WORDS)} {rng.choice(WORDS)} {ident} before {other}", f"{ident}.push({other}.clone());", f"assert_eq!({ident}, {num});"]
        elif lang == "python":
            choices = [f"{ident} = [x * {num} for x in {other}]", f"if len({ident}) > {num}:", f"def {ident}_{other}(self, {other}):", f"    raise ValueError(\"{ident} {other}\")", f"# {rng.choice(WORDS)} {rng.choice(WORDS)} {ident}", f"{ident}.append({other})", f"assert {ident} == {num}", "    return None"]
        elif lang == "go":
            choices = [f"{ident} := make([]int, {num})", f"if len({ident}) > {num} {{", "}", f"func ({ident[0]} *{ident.capitalize()}) {other.capitalize()}(ctx context.Context) error {{", f"\treturn fmt.Errorf(\"{ident}: %w\", err)", f"// {rng.choice(WORDS)} {rng.choice(WORDS)} {ident}", f"{ident} = append({ident}, {other})", "\tif err != nil {"]
        elif lang == "node":
            choices = [f"const {ident} = {other}.map((x) => x * {num});", f"if ({ident}.length > {num}) {{", "}", f"export function {ident}{other.capitalize()}({other}: string): number {{", f"  throw new Error(`{ident} ${{{other}}}`);", f"// {rng.choice(WORDS)} {rng.choice(WORDS)} {ident}", f"{ident}.push({other});", f"expect({ident}).toBe({num});"]
        else:
            choices = [f"int {ident} = {other}[{num % 64}] * {num};", f"if ({ident} > {num}) {{", "}", f"static int {ident}_{other}(const char *{other}, size_t len) {{", f"    return -1; /* {ident} */", f"/* {rng.choice(WORDS)} {rng.choice(WORDS)} {ident} */", f"memcpy({ident}, {other}, len);", f"case '{chr(97 + num % 26)}': out = {num}; break;"]
        line = "    " * depth + rng.choice(choices)
        if line.endswith("{") or line.endswith(":"):
            depth = min(depth + 1, 4)
        elif line.strip() == "}":
            depth = max(depth - 1, 0)
        lines.append(line)
        n += len(line) + 1
    return "\n".join(lines) + "\n"


class Pools:
    """Large blocks of text built once; content is cut from them at random offsets."""

    def __init__(self, seed: int):
        rng = random.Random(f"pools:{seed}")
        self.prose = build_prose(rng, 1_500_000)
        self.code = {lang: build_code(rng, lang, 1_000_000) for lang in LANG}

    @staticmethod
    def cut(rng: random.Random, pool: str, size: int) -> str:
        size = max(1, min(size, len(pool) - 1))
        start = rng.randrange(0, len(pool) - size)
        nl = pool.find("\n", start, start + 200)
        if nl >= 0 and nl + 1 + size <= len(pool):
            start = nl + 1
        return pool[start : start + size]

    def sentence_run(self, rng: random.Random, size: int) -> str:
        text = self.cut(rng, self.prose, size)
        dot = text.find(". ")
        if 0 <= dot < 200 and len(text) > dot + 40:
            text = text[dot + 2 :]
        end = text.rfind(". ")
        if end > len(text) // 2:
            text = text[: end + 1]
        return text.strip()


# ----------------------------------------------------------------------------- secrets

B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
B64URL = B62 + "-_"
UPPER_DIGIT = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def rs(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def make_secret(rng: random.Random) -> tuple[str, str]:
    """A fake secret of a well-known shape and the kind's name."""
    kind = rng.choice(["aws", "github", "anthropic", "openai", "slack", "google", "npm", "stripe", "jwt", "pem", "password", "dburl", "gitlab"])
    if kind == "aws":
        return "AKIA" + rs(rng, UPPER_DIGIT, 16), kind
    if kind == "github":
        return "ghp_" + rs(rng, B62, 36), kind
    if kind == "gitlab":
        return "glpat-" + rs(rng, B64URL, 20), kind
    if kind == "anthropic":
        return "sk-ant-api03-" + rs(rng, B64URL, 80) + "AA", kind
    if kind == "openai":
        return "sk-proj-" + rs(rng, B62, 20) + "T3BlbkFJ" + rs(rng, B62, 20), kind
    if kind == "slack":
        return f"xoxb-{rng.randint(10**10, 10**11)}-{rng.randint(10**12, 10**13)}-{rs(rng, B62, 24)}", kind
    if kind == "google":
        return "AIza" + rs(rng, B64URL, 35), kind
    if kind == "npm":
        return "npm_" + rs(rng, B62, 36), kind
    if kind == "stripe":
        return "sk_live_" + rs(rng, B62, 24), kind
    if kind == "jwt":
        header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
        body = base64.urlsafe_b64encode(dumps({"sub": rs(rng, B62, 10), "iat": rng.randint(1_700_000_000, 1_760_000_000)}).encode()).decode().rstrip("=")
        return f"{header}.{body}.{rs(rng, B64URL, 43)}", kind
    if kind == "pem":
        body = "\n".join(rs(rng, B62 + "+/", 64) for _ in range(rng.randint(8, 25)))
        return f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----", kind
    if kind == "password":
        return rs(rng, B62, 10) + rng.choice("!#%&*") + rs(rng, B62, 6), kind
    return f"postgres://app:{rs(rng, B62, 16)}@db.internal.example:5432/app", kind


def secret_context(rng: random.Random, secret: str, kind: str) -> str:
    """Puts a secret in a line of the kind of text it leaks through."""
    if kind == "pem":
        return secret
    if kind == "password":
        return rng.choice([f"DB_PASSWORD={secret}", f"password: \"{secret}\"", f"export ADMIN_PASSWORD='{secret}'"])
    if kind == "dburl":
        return rng.choice([f"DATABASE_URL={secret}", f"  url: {secret}"])
    if kind == "jwt":
        return rng.choice([f"Authorization: Bearer {secret}", f"curl -H 'Authorization: Bearer {secret}' https://api.internal.example/v1/me"])
    names = {"aws": "AWS_ACCESS_KEY_ID", "github": "GITHUB_TOKEN", "gitlab": "GITLAB_TOKEN", "anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY", "slack": "SLACK_BOT_TOKEN", "google": "GOOGLE_API_KEY", "npm": "NPM_TOKEN", "stripe": "STRIPE_SECRET_KEY"}
    name = names[kind]
    return rng.choice([f"{name}={secret}", f"export {name}=\"{secret}\"", f"  {name.lower()}: {secret}"])


# ----------------------------------------------------------------------------- scenario


@dataclass
class Action:
    """One tool use in provider-neutral terms."""

    kind: str  # read | edit | write | bash | grep
    path: str = ""
    command: str = ""
    content: str = ""
    old: str = ""
    new: str = ""
    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0
    test: str = ""  # "", "pass", "fail"
    commit: str = ""  # short sha of a successful commit


@dataclass
class Stats:
    files: dict = field(default_factory=dict)
    bytes: dict = field(default_factory=dict)
    lines: int = 0
    turns: int = 0
    tool_calls: int = 0
    tests_pass: int = 0
    tests_fail: int = 0
    commits: int = 0
    claims_true: int = 0
    claims_false: int = 0
    secrets: dict = field(default_factory=dict)


class Scenario:
    """Invents the work of one session: a project, prompts, tool uses, outcomes and claims."""

    def __init__(self, rng: random.Random, pools: Pools, stats: Stats, project: str, lang: str):
        self.rng, self.pools, self.stats = rng, pools, stats
        self.project, self.lang = project, lang
        self.cwd = f"/home/dev/{project}"
        spec = LANG[lang]
        self.files = [f"{rng.choice(spec['dirs'])}/{rng.choice(IDENTS)}_{rng.choice(IDENTS)}.{spec['ext']}" for _ in range(rng.randint(4, 14))]
        self.test_cmd = rng.choice(spec["test"])
        self.secret_rate = 0.012
        self.room = lambda: 1 << 40  # bytes left in the file being written; set by the writer

    def pick_size(self, median: float, cap: int, sigma: float = 1.1) -> int:
        # Content never takes more than half of what is left of the file's size budget.
        cap = min(cap, max(48, self.room() // 2))
        return int(min(cap, max(16, self.rng.lognormvariate(math.log(median), sigma))))

    def maybe_secret(self) -> str:
        if self.rng.random() >= self.secret_rate:
            return ""
        secret, kind = make_secret(self.rng)
        self.stats.secrets[kind] = self.stats.secrets.get(kind, 0) + 1
        return secret_context(self.rng, secret, kind)

    def prose(self, median: int, cap: int) -> str:
        return self.pools.sentence_run(self.rng, self.pick_size(median, cap, 0.8))

    def code(self, size: int) -> str:
        return self.pools.cut(self.rng, self.pools.code[self.lang], size)

    def prompt(self) -> str:
        rng = self.rng
        target = rng.choice(self.files)
        opener = rng.choice([
            f"The {rng.choice(IDENTS)} handling in {target} is wrong.",
            f"Please refactor {target} so that {rng.choice(IDENTS)} is computed once.",
            f"Tests started failing after the last change to {target}.",
            f"Add a {rng.choice(IDENTS)} option to the {rng.choice(IDENTS)} command.",
            f"Why does {rng.choice(IDENTS)} return {rng.randint(0, 99)} instead of {rng.randint(100, 999)}?",
        ])
        text = opener + " " + self.prose(160, 2_000)
        if rng.random() < 0.4:
            text += f" Run `{self.test_cmd}` and commit when it passes."
        secret = self.maybe_secret()
        if secret:
            text += f"\nUse these credentials for the staging run:\n{secret}"
        return text

    def test_output(self, passed: bool) -> tuple[str, int]:
        rng, lang = self.rng, self.lang
        n = rng.randint(3, 400)
        failed = 0 if passed else rng.randint(1, min(6, n))
        names = [f"{rng.choice(IDENTS)}_{rng.choice(IDENTS)}_{i}" for i in range(min(n, 60))]
        if lang == "rust":
            body = [f"running {n} tests"] + [f"test {rng.choice(IDENTS)}::tests::{nm} ... ok" for nm in names]
            if failed:
                body += [f"test {rng.choice(IDENTS)}::tests::{names[0]} ... FAILED", "", "failures:", "", f"---- {names[0]} stdout ----", "assertion `left == right` failed", f"  left: {rng.randint(0, 9999)}", f" right: {rng.randint(0, 9999)}", "", "failures:", f"    {names[0]}", "", f"test result: FAILED. {n - failed} passed; {failed} failed; 0 ignored; 0 measured; 0 filtered out; finished in {rng.random():.2f}s", "", "error: test failed, to rerun pass `--lib`"]
            else:
                body += ["", f"test result: ok. {n} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in {rng.random():.2f}s"]
        elif lang == "python":
            dots = "".join(rng.choice("....") for _ in range(min(n, 80)))
            body = ["============================= test session starts ==============================", f"platform linux -- Python 3.12.{rng.randint(0, 9)}, pytest-8.3.{rng.randint(0, 5)}", f"collected {n} items", "", f"tests/test_{rng.choice(IDENTS)}.py {dots}"]
            if failed:
                body += ["", "=================================== FAILURES ===================================", f"____________________________ test_{names[0]} ____________________________", f"E       AssertionError: assert {rng.randint(0, 99)} == {rng.randint(100, 200)}", "=========================== short test summary info ============================", f"FAILED tests/test_{rng.choice(IDENTS)}.py::test_{names[0]} - AssertionError", f"{failed} failed, {n - failed} passed in {rng.random() * 9:.2f}s"]
            else:
                body += [f"{n} passed in {rng.random() * 9:.2f}s"]
        elif lang == "go":
            pkgs = [f"github.com/dev/{self.project}/{d}" for d in LANG["go"]["dirs"]]
            if failed:
                body = [f"--- FAIL: Test{names[0].title().replace('_', '')} (0.00s)", f"    {rng.choice(IDENTS)}_test.go:{rng.randint(10, 300)}: got {rng.randint(0, 99)}, want {rng.randint(100, 200)}", "FAIL", f"FAIL\t{pkgs[0]}\t{rng.random():.3f}s"] + [f"ok  \t{p}\t{rng.random():.3f}s" for p in pkgs[1:]] + ["FAIL"]
            else:
                body = [f"ok  \t{p}\t{rng.random():.3f}s" for p in pkgs]
        elif lang == "node":
            body = [f"> {self.project}@1.{rng.randint(0, 9)}.0 test", "> jest", ""] + [f"PASS src/{nm}.test.ts" for nm in names[:20]]
            if failed:
                body += [f"FAIL src/{names[0]}.test.ts", f"  ● {names[0]} › returns the {rng.choice(IDENTS)}", "", f"    expect(received).toBe(expected)", "", f"Tests:       {failed} failed, {n - failed} passed, {n} total", f"Time:        {rng.random() * 20:.3f} s"]
            else:
                body += [f"Tests:       {n} passed, {n} total", f"Time:        {rng.random() * 20:.3f} s"]
        else:
            body = [f"cc -O2 -o test_{names[0]} tests/test_{names[0]}.c src/{rng.choice(IDENTS)}.c", f"./test_{names[0]}"]
            if failed:
                body += [f"FAIL {names[0]}: expected {rng.randint(0, 9)} got {rng.randint(10, 99)}", f"{failed} of {n} checks failed", f"make: *** [Makefile:{rng.randint(5, 40)}: test] Error 1"]
            else:
                body += [f"all {n} checks passed"]
        return "\n".join(body) + "\n", (0 if passed else (1 if lang != "c" else 2))

    def action(self) -> Action:
        rng = self.rng
        roll = rng.random()
        path = f"{self.cwd}/{rng.choice(self.files)}"
        if roll < 0.30:
            content = self.code(self.pick_size(5_000, 110_000, 1.3))
            secret = self.maybe_secret()
            if secret:
                cut = content.find("\n", len(content) // 2) + 1
                content = content[:cut] + secret + "\n" + content[cut:]
            return Action("read", path=path, content=content)
        if roll < 0.48:
            return Action("edit", path=path, old=self.code(self.pick_size(180, 4_000)), new=self.code(self.pick_size(220, 6_000)))
        if roll < 0.53:
            return Action("write", path=path, content=self.code(self.pick_size(2_500, 40_000)))
        if roll < 0.60:
            pattern = rng.choice(IDENTS)
            hits = [f"{self.cwd}/{rng.choice(self.files)}:{rng.randint(1, 900)}:{self.code(rng.randint(20, 90)).split(chr(10))[0]}" for _ in range(rng.randint(1, 40))]
            return Action("grep", path=self.cwd, command=pattern, stdout="\n".join(hits) + "\n")
        if roll < 0.80:
            passed = rng.random() < 0.62
            out, code = self.test_output(passed)
            if passed:
                self.stats.tests_pass += 1
            else:
                self.stats.tests_fail += 1
            cmd = self.test_cmd if rng.random() < 0.8 else f"{self.test_cmd} 2>&1 | tail -{rng.choice([20, 40, 80])}"
            return Action("bash", command=cmd, stdout=out, exit_code=code, test="pass" if passed else "fail")
        if roll < 0.86:
            if rng.random() < 0.85:
                sha = rs(rng, "0123456789abcdef", 7)
                msg = f"{rng.choice(IDENTS)}: {rng.choice(WORDS)} {rng.choice(IDENTS)} {rng.choice(WORDS)}"
                self.stats.commits += 1
                return Action("bash", command=f'git commit -am "{msg}"', stdout=f"[main {sha}] {msg}\n {rng.randint(1, 9)} files changed, {rng.randint(1, 300)} insertions(+), {rng.randint(0, 120)} deletions(-)\n", commit=sha)
            return Action("bash", command='git commit -am "wip"', stdout="On branch main\nnothing to commit, working tree clean\n", exit_code=1)
        cmd, out, err, code = self.misc_command()
        return Action("bash", command=cmd, stdout=out, stderr=err, exit_code=code)

    def misc_command(self) -> tuple[str, str, str, int]:
        rng = self.rng
        roll = rng.random()
        secret = self.maybe_secret()
        if secret and roll < 0.5:
            return rng.choice(["cat .env", "env | grep -i key", "cat config/local.yaml"]), f"# local settings\n{secret}\nLOG_LEVEL=debug\n", "", 0
        if roll < 0.25:
            return "git status --short", "\n".join(f" M {f}" for f in rng.sample(self.files, min(3, len(self.files)))) + "\n", "", 0
        if roll < 0.45:
            diff = self.code(self.pick_size(1_500, 30_000))
            return "git diff", "".join(("+" if rng.random() < 0.5 else "-") + ln + "\n" for ln in diff.splitlines()), "", 0
        if roll < 0.60:
            return f"ls -la {rng.choice(LANG[self.lang]['dirs'])}", "\n".join(f"-rw-r--r-- 1 dev dev {rng.randint(100, 90000):>6} Mar {rng.randint(1, 28):>2} 10:{rng.randint(10, 59)} {f.split('/')[-1]}" for f in self.files) + "\n", "", 0
        if roll < 0.80:
            spec = LANG[self.lang]
            ok = rng.random() < 0.75
            cmd = rng.choice([spec["build"], spec["lint"]])
            if ok:
                return cmd, f"Finished in {rng.random() * 30:.2f}s\n", "", 0
            return cmd, "", f"error[E{rng.randint(100, 999)}]: {self.prose(80, 300)}\n  --> {rng.choice(self.files)}:{rng.randint(1, 500)}:{rng.randint(1, 80)}\n", 1
        if secret:
            return f"curl -s https://api.internal.example/v1/status -H 'X-Token: {secret.split('=')[-1]}'", '{"status":"ok"}\n', "", 0
        out = self.pools.sentence_run(rng, self.pick_size(3_000, 29_000, 1.4))
        return rng.choice(["./scripts/run.sh --verbose", "docker compose logs app", "tail -n 200 logs/app.log"]), out + "\n", "", 0

    def final(self, last_test: str, commit: str) -> str:
        """The agent's closing words. Claims follow the last test run, or contradict it."""
        rng = self.rng
        summary = self.prose(220, 3_000)
        claims = []
        if last_test:
            lie = rng.random() < 0.15
            if (last_test == "pass") != lie:
                claims.append(rng.choice([f"All tests pass now (`{self.test_cmd}`).", "The full test suite is green.", f"`{self.test_cmd}` passes."]))
            else:
                claims.append(rng.choice([f"One test still fails in `{self.test_cmd}`; see the output above.", "The remaining failure is unrelated to this change."]))
            if lie:
                self.stats.claims_false += 1
            else:
                self.stats.claims_true += 1
        if commit:
            claims.append(f"I committed the change as {commit}.")
            self.stats.claims_true += 1
        elif rng.random() < 0.05:
            claims.append("I committed the change.")
            self.stats.claims_false += 1
        if rng.random() < 0.2:
            claims.append("The linter is clean.")
        return summary + " " + " ".join(claims)

    def turn(self, full) -> Iterator[tuple[str, object]]:
        """Yields the steps of one turn, then ("final", text). `full()` says the file has
        reached its size: the turn then wraps up with its closing words."""
        rng = self.rng
        last_test, commit = "", ""
        for _ in range(rng.choice([1, 2, 3, 4, 5, 6, 8, 10, 14, 20])):
            if full():
                break
            if rng.random() < 0.5:
                yield "think", self.prose(600, 6_000)
            if rng.random() < 0.35:
                yield "say", self.prose(140, 1_200)
            act = self.action()
            self.stats.tool_calls += 1
            if act.test:
                last_test = act.test
            if act.commit:
                commit = act.commit
            yield "tool", act
        self.stats.turns += 1
        yield "final", self.final(last_test, commit)


# ----------------------------------------------------------------------------- writers


class Clock:
    def __init__(self, rng: random.Random, start: float):
        self.rng, self.t = rng, start

    def tick(self, lo: float = 0.2, hi: float = 20.0) -> float:
        self.t += self.rng.uniform(lo, hi)
        return self.t

    def iso(self) -> str:
        ms = int(self.t * 1000)
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}Z"

    def ms(self) -> int:
        return int(self.t * 1000)


def uuid4(rng: random.Random) -> str:
    h = "%032x" % rng.getrandbits(128)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:32]}"


def uuid7(rng: random.Random, ms: int) -> str:
    h = "%012x" % (ms & 0xFFFFFFFFFFFF) + "%020x" % rng.getrandbits(80)
    return f"{h[:8]}-{h[8:12]}-7{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:32]}"


class Sink:
    """Collects a file's lines and counts bytes."""

    def __init__(self):
        self.parts: list[str] = []
        self.size = 0

    def put(self, obj) -> None:
        line = dumps(obj) + "\n"
        self.parts.append(line)
        self.size += len(line)  # chars; close enough to bytes for pacing


def numbered(content: str) -> str:
    return "\n".join(f"{i:>6}\u2192{ln}" for i, ln in enumerate(content.split("\n"), 1))


def claude_file(sc: Scenario, clock: Clock, target: int, session_id: str, agent_id: str | None) -> Sink:
    rng, sink = sc.rng, Sink()
    sc.room = lambda: target - sink.size
    full = lambda: sink.size >= target
    version = rng.choice(["2.0.37", "2.1.34", "2.1.119", "2.1.152"])
    model = rng.choice(["claude-sonnet-4-5", "claude-opus-4-5", "claude-opus-4-6", "claude-haiku-4-5"])
    branch = rng.choice(["main", "main", "dev", f"fix/{rng.choice(IDENTS)}"])
    parent = None
    msg_n = 0

    def env(kind: str) -> dict:
        nonlocal parent
        uid = uuid4(rng)
        base = {"parentUuid": parent, "isSidechain": agent_id is not None, "userType": "external", "cwd": sc.cwd, "sessionId": session_id, "version": version, "gitBranch": branch}
        if agent_id:
            base["agentId"] = agent_id
        base.update({"type": kind, "uuid": uid, "timestamp": clock.iso()})
        parent = uid
        return base

    def usage() -> dict:
        return {"input_tokens": rng.randint(3, 900), "cache_creation_input_tokens": rng.randint(0, 9000), "cache_read_input_tokens": rng.randint(0, 180000), "output_tokens": rng.randint(10, 4000), "service_tier": "standard"}

    # Real transcripts open with different line types: a file-history snapshot (interactive
    # 2.x), the first prompt, or a queue operation (headless runs).
    opening = "user" if agent_id else rng.choices(["snapshot", "user", "queue"], [0.45, 0.40, 0.15])[0]
    if opening == "queue":
        sink.put({"type": "queue-operation", "operation": "dequeue", "timestamp": clock.iso(), "sessionId": session_id})
    first_turn = True
    while sink.size < target:
        prompt = sc.prompt()
        clock.tick(30, 3_000)
        first_uuid = uuid4(rng)
        snapshot = agent_id is None and (opening == "snapshot" or not first_turn)
        first_turn = False
        if snapshot:
            sink.put({"type": "file-history-snapshot", "messageId": first_uuid, "snapshot": {"messageId": first_uuid, "trackedFileBackups": {}, "timestamp": clock.iso()}, "isSnapshotUpdate": False})
        line = env("user")
        line["message"] = {"role": "user", "content": prompt}
        line["promptId"] = uuid4(rng)
        sink.put(line)
        for kind, payload in sc.turn(full):
            clock.tick()
            msg_n += 1
            msg_id = "msg_01" + rs(rng, B62, 22)
            req_id = "req_011" + rs(rng, B62, 21)
            if kind == "think":
                block = {"type": "thinking", "thinking": payload, "signature": base64.b64encode(rng.randbytes(rng.randint(200, 900))).decode()}
            elif kind in ("say", "final"):
                block = {"type": "text", "text": payload}
            else:
                act: Action = payload
                tool_id = "toolu_01" + rs(rng, B62, 22)
                name, tool_input = claude_tool(act, sc)
                block = {"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}
            line = env("assistant")
            line["requestId"] = req_id
            line["message"] = {"id": msg_id, "type": "message", "role": "assistant", "model": model, "content": [block], "stop_reason": "end_turn" if kind == "final" else ("tool_use" if kind == "tool" else None), "stop_sequence": None, "usage": usage()}
            assistant_uuid = parent
            sink.put(line)
            if kind != "tool":
                continue
            clock.tick(0.05, 60)
            content, result, is_error = claude_result(act, rng)
            line = env("user")
            tr = {"tool_use_id": tool_id, "type": "tool_result", "content": content}
            if is_error:
                tr["is_error"] = True
            line["message"] = {"role": "user", "content": [tr]}
            line["toolUseResult"] = result
            line["sourceToolAssistantUUID"] = assistant_uuid
            sink.put(line)
        if rng.random() < 0.3:
            line = env("system")
            line.update({"subtype": "turn_duration", "durationMs": rng.randint(2_000, 900_000), "isMeta": False})
            sink.put(line)
    return sink


def claude_tool(act: Action, sc: Scenario) -> tuple[str, dict]:
    if act.kind == "read":
        return "Read", {"file_path": act.path}
    if act.kind == "edit":
        return "Edit", {"file_path": act.path, "old_string": act.old, "new_string": act.new}
    if act.kind == "write":
        return "Write", {"file_path": act.path, "content": act.content}
    if act.kind == "grep":
        return "Grep", {"pattern": act.command, "path": act.path, "output_mode": "content", "-n": True}
    return "Bash", {"command": act.command, "description": sc.rng.choice(["Run the test suite", "Commit the change", "Check the working tree", "Run command"])}


def claude_result(act: Action, rng: random.Random) -> tuple[object, object, bool]:
    if act.kind == "read":
        lines = act.content.count("\n") + 1
        return numbered(act.content), {"type": "text", "file": {"filePath": act.path, "content": act.content, "numLines": lines, "startLine": 1, "totalLines": lines}}, False
    if act.kind == "edit":
        patch = [{"oldStart": rng.randint(1, 400), "oldLines": act.old.count("\n") + 1, "newStart": rng.randint(1, 400), "newLines": act.new.count("\n") + 1, "lines": ["-" + ln for ln in act.old.split("\n")] + ["+" + ln for ln in act.new.split("\n")]}]
        return f"The file {act.path} has been updated successfully.", {"filePath": act.path, "oldString": act.old, "newString": act.new, "structuredPatch": patch, "userModified": False, "replaceAll": False}, False
    if act.kind == "write":
        return f"File created successfully at: {act.path}", {"type": "create", "filePath": act.path, "content": act.content, "structuredPatch": []}, False
    if act.kind == "grep":
        return act.stdout, {"mode": "content", "numFiles": act.stdout.count("\n"), "filenames": [], "content": act.stdout, "numLines": act.stdout.count("\n")}, False
    text = (act.stdout + act.stderr)[:30_000]
    if act.exit_code != 0:
        return f"Exit code {act.exit_code}\n{text}", f"Error: Exit code {act.exit_code}\n{text}", True
    return text, {"stdout": act.stdout[:30_000], "stderr": act.stderr, "interrupted": False, "isImage": False}, False


def codex_file(sc: Scenario, clock: Clock, target: int, session_id: str) -> Sink:
    rng, sink = sc.rng, Sink()
    sc.room = lambda: target - sink.size
    full = lambda: sink.size >= target
    version = rng.choice(["0.98.0", "0.118.0", "0.128.0"])
    model = rng.choice(["gpt-5.2-codex", "gpt-5.2", "gpt-5.1-codex-max"])

    def put(kind: str, payload: dict) -> None:
        sink.put({"timestamp": clock.iso(), "type": kind, "payload": payload})

    put("session_meta", {"id": session_id, "timestamp": clock.iso(), "cwd": sc.cwd, "originator": "codex_cli_rs", "cli_version": version, "source": "cli", "model_provider": "openai", "base_instructions": {"text": sc.prose(3_000, 9_000)}, "git": {"commit_hash": rs(rng, "0123456789abcdef", 40), "branch": "main"}})
    put("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"<environment_context>\n  <cwd>{sc.cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>"}]})
    instructions = sc.prose(1_500, 5_000)
    turn_n = 0
    while sink.size < target:
        prompt = sc.prompt()
        turn_n += 1
        turn_id = f"turn-{turn_n}"
        last_message = ""
        clock.tick(30, 3_000)
        put("event_msg", {"type": "task_started", "turn_id": turn_id, "model_context_window": 272000})
        put("turn_context", {"turn_id": turn_id, "cwd": sc.cwd, "approval_policy": "on-request", "sandbox_policy": {"type": "workspace-write", "network_access": False}, "model": model, "effort": rng.choice(["low", "medium", "high"]), "summary": "auto", "collaboration_mode": {"mode": "default", "settings": {"model": model, "reasoning_effort": "medium", "developer_instructions": instructions}}})
        put("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]})
        put("event_msg", {"type": "user_message", "message": prompt, "images": []})
        for kind, payload in sc.turn(full):
            clock.tick()
            if kind == "think":
                put("response_item", {"type": "reasoning", "id": "rs_" + rs(rng, "0123456789abcdef", 48), "summary": [{"type": "summary_text", "text": payload[:400]}], "content": None, "encrypted_content": base64.b64encode(rng.randbytes(len(payload))).decode()})
                put("event_msg", {"type": "agent_reasoning", "text": payload[:400]})
                continue
            if kind in ("say", "final"):
                phase = "final_answer" if kind == "final" else "commentary"
                if kind == "final":
                    last_message = payload
                put("response_item", {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": payload}], "phase": phase})
                put("event_msg", {"type": "agent_message", "message": payload, "phase": phase})
                continue
            act: Action = payload
            call_id = "call_" + rs(rng, B62, 24)
            if act.kind in ("edit", "write"):
                if act.kind == "edit":
                    body = "\n".join(["@@"] + ["-" + ln for ln in act.old.split("\n")] + ["+" + ln for ln in act.new.split("\n")])
                    patch = f"*** Begin Patch\n*** Update File: {act.path}\n{body}\n*** End Patch\n"
                else:
                    patch = f"*** Begin Patch\n*** Add File: {act.path}\n" + "\n".join("+" + ln for ln in act.content.split("\n")) + "\n*** End Patch\n"
                put("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": call_id, "name": "apply_patch", "input": patch})
                clock.tick(0.05, 2)
                out = {"output": f"Success. Updated the following files:\n{'M' if act.kind == 'edit' else 'A'} {act.path}\n", "metadata": {"exit_code": 0, "duration_seconds": 0.0}}
                put("response_item", {"type": "custom_tool_call_output", "call_id": call_id, "output": dumps(out)})
                continue
            if act.kind == "read":
                cmd, output = f"sed -n '1,400p' {act.path}", act.content[:24_000]
            elif act.kind == "grep":
                cmd, output = f"rg -n {act.command} {act.path}", act.stdout
            else:
                cmd, output = act.command, act.stdout + act.stderr
            put("response_item", {"type": "function_call", "name": "exec_command", "arguments": dumps({"cmd": cmd, "workdir": sc.cwd}), "call_id": call_id})
            clock.tick(0.05, 60)
            tokens = len(output) // 4
            if len(output) > 40_000:
                output = output[:20_000] + f"\n…{tokens - 10_000} tokens truncated…\n" + output[-20_000:]
            header = f"Chunk ID: {rs(rng, '0123456789abcdef', 4)}\nWall time: {rng.random() * 30:.1f} seconds\nProcess exited with code {act.exit_code}\nOriginal token count: {tokens}\nOutput:\n"
            put("response_item", {"type": "function_call_output", "call_id": call_id, "output": header + output})
        total = rng.randint(5_000, 250_000)
        put("event_msg", {"type": "token_count", "info": {"total_token_usage": {"input_tokens": total, "cached_input_tokens": total // 2, "output_tokens": total // 20, "reasoning_output_tokens": total // 50, "total_tokens": total + total // 20}, "last_token_usage": {"input_tokens": total // 4, "cached_input_tokens": total // 8, "output_tokens": 700, "reasoning_output_tokens": 300, "total_tokens": total // 4 + 700}, "model_context_window": 272000}, "rate_limits": None})
        put("event_msg", {"type": "task_complete", "turn_id": turn_id, "last_agent_message": last_message, "duration_ms": rng.randint(2_000, 900_000)})
    return sink


def pi_file(sc: Scenario, clock: Clock, target: int, session_id: str) -> Sink:
    rng, sink = sc.rng, Sink()
    sc.room = lambda: target - sink.size
    full = lambda: sink.size >= target
    provider, model = rng.choice([("anthropic", "claude-sonnet-4-5"), ("openai", "gpt-5.2"), ("google", "gemini-2.5-pro")])
    parent = None

    def entry(kind: str, **fields) -> None:
        nonlocal parent
        eid = "%08x" % rng.getrandbits(32)
        obj = {"type": kind, "id": eid, "parentId": parent, "timestamp": clock.iso()}
        obj.update(fields)
        parent = eid
        sink.put(obj)

    def usage() -> dict:
        i, o = rng.randint(100, 90_000), rng.randint(10, 4_000)
        return {"input": i, "output": o, "cacheRead": rng.randint(0, 50_000), "cacheWrite": 0, "totalTokens": i + o, "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}

    def assistant(content: list, stop: str) -> None:
        entry("message", message={"role": "assistant", "content": content, "api": {"anthropic": "anthropic-messages", "openai": "openai-responses"}.get(provider, "google-generative-ai"), "provider": provider, "model": model, "usage": usage(), "stopReason": stop, "timestamp": clock.ms()})

    sink.put({"type": "session", "version": 3, "id": session_id, "timestamp": clock.iso(), "cwd": sc.cwd})
    entry("model_change", provider=provider, modelId=model)
    entry("thinking_level_change", thinkingLevel=rng.choice(["off", "low", "medium", "high"]))
    while sink.size < target:
        prompt = sc.prompt()
        clock.tick(30, 3_000)
        entry("message", message={"role": "user", "content": [{"type": "text", "text": prompt}], "timestamp": clock.ms()})
        pending = []
        for kind, payload in sc.turn(full):
            clock.tick()
            if kind == "think":
                pending.append({"type": "thinking", "thinking": payload, "thinkingSignature": base64.b64encode(rng.randbytes(120)).decode()})
                continue
            if kind in ("say", "final"):
                pending.append({"type": "text", "text": payload})
                if kind == "final":
                    assistant(pending, "stop")
                    pending = []
                continue
            act: Action = payload
            call_id = "toolu_" + rs(rng, B62, 24)
            if act.kind == "read":
                name, args, text = "read", {"path": act.path}, act.content[:50_000]
            elif act.kind == "edit":
                name, args, text = "edit", {"path": act.path, "oldText": act.old, "newText": act.new}, f"Successfully replaced text in {act.path}."
            elif act.kind == "write":
                name, args, text = "write", {"path": act.path, "content": act.content}, f"Successfully wrote {len(act.content)} bytes to {act.path}"
            elif act.kind == "grep":
                name, args, text = "grep", {"pattern": act.command, "path": act.path}, act.stdout
            else:
                name, args = "bash", {"command": act.command}
                text = (act.stdout + act.stderr)[-50_000:]
                if act.exit_code:
                    text += f"\n\nCommand exited with code {act.exit_code}"
            pending.append({"type": "toolCall", "id": call_id, "name": name, "arguments": args})
            assistant(pending, "toolUse")
            pending = []
            clock.tick(0.05, 60)
            entry("message", message={"role": "toolResult", "toolCallId": call_id, "toolName": name, "content": [{"type": "text", "text": text}], "isError": act.exit_code != 0, "timestamp": clock.ms()})
    return sink


# ----------------------------------------------------------------------------- driver


def write_file(path: str, sink: Sink, mtime: float) -> int:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = "".join(sink.parts).encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)
    os.utime(path, (mtime, mtime))
    return len(data)


def dashed(cwd: str) -> str:
    return cwd.replace("/", "-")


def generate(seed: int, total: int, out: str, quiet: bool) -> dict:
    home = os.path.join(out, "home")
    if os.path.exists(home):
        shutil.rmtree(home)
    pools = Pools(seed)
    sizes = plan_sizes(total)
    plan_rng = random.Random(f"plan:{seed}:{total}")
    order = list(range(len(sizes)))
    plan_rng.shuffle(order)
    providers = []
    for i in range(len(sizes)):
        u, acc = plan_rng.random(), 0.0
        for name, share in PROVIDER_SHARES:
            acc += share
            if u <= acc:
                break
        providers.append(name)
    for i in range(max(1, total // GIB)):
        providers[i] = "claude"  # the giant files are long Claude Code transcripts
    stats = Stats()
    written_sizes = []
    claude_sessions: list[tuple[str, str, str, str]] = []  # (dir, session id, project, lang)
    started = time.monotonic()
    done_bytes = 0
    for n, idx in enumerate(order):
        target = sizes[idx]
        kind = providers[idx]
        rng = random.Random(f"file:{seed}:{total}:{n}")
        project = rng.choice(PROJECT_NAMES)
        lang = rng.choice(list(LANG))
        if kind == "claude-sub" and not claude_sessions:
            kind = "claude"
        if kind == "claude-sub":
            parent_dir, parent_id, project, lang = claude_sessions[rng.randrange(len(claude_sessions))]
        sc = Scenario(rng, pools, stats, project, lang)
        start = BASE_EPOCH + rng.uniform(0, HISTORY_SPAN_S)
        clock = Clock(rng, start)
        if kind == "claude":
            sid = uuid4(rng)
            folder = os.path.join(home, ".claude", "projects", dashed(sc.cwd))
            path = os.path.join(folder, f"{sid}.jsonl")
            sink = claude_file(sc, clock, target, sid, None)
            claude_sessions.append((folder, sid, project, lang))
        elif kind == "claude-sub":
            agent = rs(rng, "0123456789abcdef", 17)
            path = os.path.join(parent_dir, parent_id, "subagents", f"agent-a{agent[1:]}.jsonl")
            sink = claude_file(sc, clock, target, parent_id, "a" + agent[1:])
        elif kind == "codex":
            sid = uuid7(rng, int(start * 1000))
            stamp = time.strftime("%Y-%m-%dT%H-%M-%S", time.gmtime(start))
            day = time.strftime("%Y/%m/%d", time.gmtime(start))
            path = os.path.join(home, ".codex", "sessions", day, f"rollout-{stamp}-{sid}.jsonl")
            sink = codex_file(sc, clock, target, sid)
        else:
            sid = uuid4(rng)
            stamp = time.strftime("%Y-%m-%dT%H-%M-%S", time.gmtime(start)) + f"-{int(start * 1000) % 1000:03d}Z"
            folder = "--" + sc.cwd.strip("/").replace("/", "-") + "--"
            path = os.path.join(home, ".pi", "agent", "sessions", folder, f"{stamp}_{sid}.jsonl")
            sink = pi_file(sc, clock, target, sid)
        size = write_file(path, sink, clock.t)
        label = "claude" if kind.startswith("claude") else kind
        stats.files[label] = stats.files.get(label, 0) + 1
        stats.bytes[label] = stats.bytes.get(label, 0) + size
        stats.lines += len(sink.parts)
        written_sizes.append(size)
        done_bytes += size
        if not quiet and (n % 200 == 0 or n == len(order) - 1):
            rate = done_bytes / max(1e-9, time.monotonic() - started) / 1e6
            print(f"  {n + 1}/{len(order)} files, {done_bytes / 1e6:.0f} MB, {rate:.1f} MB/s", file=sys.stderr)
    written_sizes.sort()

    def pct(p: float) -> int:
        return written_sizes[min(len(written_sizes) - 1, int(p * len(written_sizes)))]

    manifest = {
        "generator": "bench/gen_corpus.py",
        "seed": seed,
        "size_requested": total,
        "bytes": sum(written_sizes),
        "files": len(written_sizes),
        "root": "home",
        "files_by_provider": stats.files,
        "bytes_by_provider": stats.bytes,
        "lines": stats.lines,
        "file_size": {"p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": written_sizes[-1], "min": written_sizes[0]},
        "turns": stats.turns,
        "tool_calls": stats.tool_calls,
        "test_runs": {"pass": stats.tests_pass, "fail": stats.tests_fail},
        "commits": stats.commits,
        "claims": {"consistent_with_evidence": stats.claims_true, "contradicted_by_evidence": stats.claims_false},
        "planted_secrets": dict(sorted(stats.secrets.items())),
    }
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--size", type=parse_size, default=parse_size("64MiB"), help="total size, e.g. 8MiB, 64MiB, 1GiB (default 64MiB)")
    ap.add_argument("--out", required=True, help="output folder (its home/ subfolder is replaced)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    t0 = time.monotonic()
    manifest = generate(args.seed, args.size, args.out, args.quiet)
    if not args.quiet:
        print(f"wrote {manifest['files']} files, {manifest['bytes'] / 1e6:.1f} MB in {time.monotonic() - t0:.1f}s to {args.out}/home", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
