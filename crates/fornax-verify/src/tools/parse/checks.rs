//! Build and lint verdicts read from a tool's own output lines: its error lines (and the files
//! or packages they name), its closing totals, its success line.
//!
//! A reader answers only on lines unmistakably its tool's; `None` leaves the run to its exit
//! status (and to the generic reading in [`crate::diagnostics`]).

use std::sync::LazyLock;

use regex::Regex;

pub use crate::diagnostics::Reading;

use super::re;

/// The most failing files or packages a report keeps.
const MAX_FAILING: usize = 64;

/// What a build or lint output says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CheckReport {
    /// The verdict line (quoted in rationales).
    pub reading: Option<Reading>,
    pub errors: Option<u64>,
    pub warnings: Option<u64>,
    /// Files or packages the errors are in, as the tool names them.
    pub failing: Vec<String>,
}

impl CheckReport {
    pub fn failed(&self) -> bool {
        matches!(self.reading, Some(Reading::Failed(_)))
    }

    fn fail_in(&mut self, what: &str) {
        let what = what.trim().trim_start_matches("./");
        if !what.is_empty()
            && self.failing.len() < MAX_FAILING
            && !self.failing.iter().any(|f| f == what)
        {
            self.failing.push(what.to_string());
        }
    }
}

/// A build- or lint-output reader.
pub type CheckParser = fn(&str) -> Option<CheckReport>;

fn shorten(line: &str) -> String {
    let line = line.trim();
    if line.chars().count() <= 160 {
        return line.to_string();
    }
    let mut s: String = line.chars().take(157).collect();
    s.push('…');
    s
}

fn count(c: Option<regex::Match<'_>>) -> u64 {
    c.and_then(|m| m.as_str().parse().ok()).unwrap_or(0)
}

/// rustc through cargo (`cargo build`, `cargo check`, `cargo clippy`): `error[E0308]: ...` and
/// `error: ...` diagnostics located by ` --> file:line:col`, `could not compile `crate``, and
/// `Finished `dev` profile` on success.
pub fn rustc(out: &str) -> Option<CheckReport> {
    static ERROR: LazyLock<Regex> = LazyLock::new(|| re(r"^error(?:\[E\d{4}\])?: (.+)$"));
    static LOCATION: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*--> ([^:]+):\d+:\d+"));
    static CRATE: LazyLock<Regex> = LazyLock::new(|| re(r"^error: could not compile `([^`]+)`"));
    static WARNINGS: LazyLock<Regex> =
        LazyLock::new(|| re(r"^warning: `[^`]+` \([^)]*\) generated (\d+) warnings?"));
    static FINISHED: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s*Finished `?\w+`? profile|^\s*Finished (?:dev|release) \["));
    if !out.contains("error") && !out.contains("Finished") {
        return None;
    }
    let mut r = CheckReport::default();
    let (mut errors, mut warnings) = (0u64, 0u64);
    let mut first_error: Option<String> = None;
    let mut in_error = false;
    let mut finished: Option<String> = None;
    for line in out.lines() {
        if let Some(c) = CRATE.captures(line) {
            r.fail_in(c.get(1).map_or("", |m| m.as_str()));
            first_error.get_or_insert_with(|| shorten(line));
            in_error = false;
        } else if let Some(c) = ERROR.captures(line) {
            let msg = c.get(1).map_or("", |m| m.as_str());
            in_error = !msg.starts_with("aborting") && !msg.starts_with("build failed");
            if in_error {
                errors += 1;
                first_error.get_or_insert_with(|| shorten(line));
            }
        } else if line.starts_with("warning") {
            in_error = false;
            if let Some(c) = WARNINGS.captures(line) {
                warnings += count(c.get(1));
            }
        } else if in_error {
            if let Some(c) = LOCATION.captures(line) {
                r.fail_in(c.get(1).map_or("", |m| m.as_str()));
                in_error = false;
            }
        } else if FINISHED.is_match(line) {
            finished = Some(shorten(line));
        }
    }
    r.warnings = (warnings > 0).then_some(warnings);
    match (first_error, finished) {
        (Some(line), _) => {
            r.errors = Some(errors.max(1));
            r.reading = Some(Reading::Failed(line));
        }
        (None, Some(line)) => {
            r.errors = Some(0);
            r.reading = Some(Reading::Succeeded(line));
        }
        (None, None) => return None,
    }
    Some(r)
}

/// tsc: `src/a.ts(3,9): error TS2322: ...` (or `src/a.ts:3:9 - error TS2322:` with
/// `--pretty`) and `Found N errors`; tsc prints nothing on success.
pub fn tsc(out: &str) -> Option<CheckReport> {
    static ERROR: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(\S+?)(?:\(\d+,\d+\)|:\d+:\d+)\s*[:-] error (TS\d+): .+$"));
    static FOUND: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Found (\d+) errors?(?-u:\b)"));
    // deno check: `TS2322 [ERROR]: ...` then `    at file:///w/a.ts:1:7`.
    static DENO: LazyLock<Regex> = LazyLock::new(|| re(r"^TS\d+ \[ERROR\]: .+$"));
    static DENO_AT: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s+at (?:file://)?(\S+?):\d+:\d+\s*$"));
    let out = super::plain(out);
    if !out.contains("error") && !out.contains("[ERROR]") {
        return None;
    }
    let mut r = CheckReport::default();
    let mut errors = 0u64;
    let mut deno_error = false;
    for line in out.lines() {
        if let Some(c) = ERROR.captures(line.trim_end()) {
            errors += 1;
            r.fail_in(c.get(1).map_or("", |m| m.as_str()));
            if r.reading.is_none() {
                r.reading = Some(Reading::Failed(shorten(line)));
            }
        } else if DENO.is_match(line.trim_end()) {
            errors += 1;
            deno_error = true;
            if r.reading.is_none() {
                r.reading = Some(Reading::Failed(shorten(line)));
            }
        } else if deno_error {
            if let Some(c) = DENO_AT.captures(line) {
                r.fail_in(c.get(1).map_or("", |m| m.as_str()));
                deno_error = false;
            }
        }
    }
    if let Some(c) = FOUND.captures_iter(&out).last() {
        errors = errors.max(count(c.get(1)));
    }
    r.reading.as_ref()?;
    r.errors = Some(errors);
    Some(r)
}

/// `go build` / `go vet`: a `# example.com/pkg` header per failing package, then
/// `file.go:line:col: message` lines.
pub fn go(out: &str) -> Option<CheckReport> {
    static HEADER: LazyLock<Regex> = LazyLock::new(|| re(r"^# (\S+)\s*$"));
    static DIAG: LazyLock<Regex> = LazyLock::new(|| re(r"^(?:\./)?(\S+\.go):\d+(?::\d+)?: .+$"));
    if !out.contains(".go:") {
        return None;
    }
    let mut r = CheckReport::default();
    let mut errors = 0u64;
    let mut package: Option<String> = None;
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(c) = HEADER.captures(line) {
            package = c.get(1).map(|m| m.as_str().to_string());
        } else if DIAG.is_match(line) {
            errors += 1;
            if let Some(p) = package.take() {
                r.fail_in(&p);
            }
            if r.reading.is_none() {
                r.reading = Some(Reading::Failed(shorten(line)));
            }
        }
    }
    r.reading.as_ref()?;
    r.errors = Some(errors);
    Some(r)
}

/// mypy: `src/a.py:3: error: ...`, `Found 2 errors in 1 file (checked 4 source files)`,
/// `Success: no issues found in 4 source files`.
pub fn mypy(out: &str) -> Option<CheckReport> {
    static ERROR: LazyLock<Regex> = LazyLock::new(|| re(r"^(\S+?\.pyi?):\d+(?::\d+)?: error: .+$"));
    static FOUND: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^Found (\d+) errors? in \d+ files?.*$"));
    static SUCCESS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Success: no issues found.*$"));
    let mut r = CheckReport::default();
    if let Some(m) = SUCCESS.find(out) {
        r.errors = Some(0);
        r.reading = Some(Reading::Succeeded(shorten(m.as_str())));
        return Some(r);
    }
    let found = FOUND.captures_iter(out).last()?;
    r.errors = Some(count(found.get(1)));
    for line in out.lines() {
        if let Some(c) = ERROR.captures(line.trim_end()) {
            r.fail_in(c.get(1).map_or("", |m| m.as_str()));
        }
    }
    r.reading = Some(Reading::Failed(shorten(
        found.get(0).map_or("", |m| m.as_str()),
    )));
    Some(r)
}

/// pyright: `  /w/src/a.py:3:12 - error: ...` and `1 error, 0 warnings, 0 informations`.
pub fn pyright(out: &str) -> Option<CheckReport> {
    static TOTALS: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?m)^(\d+) errors?, (\d+) warnings?, (\d+) (?:informations?|notes?)\s*$")
    });
    static ERROR: LazyLock<Regex> = LazyLock::new(|| re(r"^\s+(\S+?\.pyi?):\d+:\d+ - error: .+$"));
    let c = TOTALS.captures_iter(out).last()?;
    let mut r = CheckReport {
        errors: Some(count(c.get(1))),
        warnings: Some(count(c.get(2))),
        ..CheckReport::default()
    };
    for line in out.lines() {
        if let Some(e) = ERROR.captures(line.trim_end()) {
            r.fail_in(e.get(1).map_or("", |m| m.as_str()));
        }
    }
    let line = shorten(c.get(0).map_or("", |m| m.as_str()));
    r.reading = Some(if r.errors == Some(0) {
        Reading::Succeeded(line)
    } else {
        Reading::Failed(line)
    });
    Some(r)
}

/// ruff: `Found 2 errors.` with each diagnostic located by ` --> src/a.py:1:8` (or, in the
/// concise format, `src/a.py:1:8: F401 ...`), `All checks passed!`; `ruff format --check`:
/// `Would reformat: src/a.py`, `1 file would be reformatted`, `3 files already formatted`.
pub fn ruff(out: &str) -> Option<CheckReport> {
    static FOUND: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Found (\d+) errors?\b.*$"));
    static LOCATION: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(?:\s*--> )?(\S+?\.pyi?):\d+:\d+(?::| [A-Z]|$)"));
    static REFORMAT: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?m)^(?:Would reformat: (\S+)|(\d+) files? would be reformatted.*)$")
    });
    static OK: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^(?:All checks passed!|\d+ files? already formatted|\d+ files? left unchanged)\s*$",
        )
    });
    let mut r = CheckReport::default();
    if let Some(found) = FOUND.captures_iter(out).last() {
        r.errors = Some(count(found.get(1)));
        for line in out.lines() {
            if let Some(c) = LOCATION.captures(line) {
                r.fail_in(c.get(1).map_or("", |m| m.as_str()));
            }
        }
        r.reading = Some(Reading::Failed(shorten(
            found.get(0).map_or("", |m| m.as_str()),
        )));
        return Some(r);
    }
    let mut any = false;
    for c in REFORMAT.captures_iter(out) {
        any = true;
        if let Some(f) = c.get(1) {
            r.fail_in(f.as_str());
        }
        if r.reading.is_none() {
            r.reading = Some(Reading::Failed(shorten(
                c.get(0).map_or("", |m| m.as_str()),
            )));
        }
    }
    if any {
        return Some(r);
    }
    let m = OK.find(out)?;
    r.errors = Some(0);
    r.reading = Some(Reading::Succeeded(shorten(m.as_str())));
    Some(r)
}

/// ESLint: a file header line then `  3:10  error  message  rule` lines; `✖ 3 problems (2
/// errors, 1 warning)`, `ESLint found too many warnings (maximum: 0).`; nothing on success.
pub fn eslint(out: &str) -> Option<CheckReport> {
    static TOTAL: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^✖ (\d+) problems? \((\d+) errors?, (\d+) warnings?\)"));
    static TOO_MANY: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^ESLint found too many warnings.*$"));
    static DIAG: LazyLock<Regex> = LazyLock::new(|| re(r"^\s+\d+:\d+\s+(error|warning)\s"));
    let out = super::plain(out);
    let c = TOTAL.captures_iter(&out).last()?;
    let mut r = CheckReport {
        errors: Some(count(c.get(2))),
        warnings: Some(count(c.get(3))),
        ..CheckReport::default()
    };
    let mut file: Option<&str> = None;
    for line in out.lines() {
        if let Some(d) = DIAG.captures(line) {
            if d.get(1).map(|m| m.as_str()) == Some("error") {
                if let Some(f) = file {
                    r.fail_in(f);
                }
            }
        } else if !line.starts_with(' ') && !line.trim().is_empty() && !line.starts_with('✖') {
            file = Some(line.trim());
        }
    }
    let too_many = TOO_MANY.find(&out);
    r.reading = Some(match too_many {
        Some(m) => Reading::Failed(shorten(m.as_str())),
        None if r.errors > Some(0) => Reading::Failed(shorten(c.get(0).map_or("", |m| m.as_str()))),
        // Warnings alone do not fail ESLint.
        None => return Some(CheckReport { reading: None, ..r }),
    });
    Some(r)
}

/// ktlint: `src/main/kotlin/A.kt:3:1: Unexpected blank line(s) (standard:no-blank-lines)`;
/// nothing on success.
pub fn ktlint(out: &str) -> Option<CheckReport> {
    static DIAG: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(\S+?\.kts?):\d+:\d+: .+ \(([\w-]+:)?[\w-]+\)\s*$"));
    file_diagnostics(out, &DIAG)
}

/// detekt: `Build failed with N weighted issues.` (or `... issues`), each finding located as
/// `/w/src/A.kt:3:5: message [RuleName]`.
pub fn detekt(out: &str) -> Option<CheckReport> {
    static FAILED: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^.*Build failed with (\d+) (?:weighted )?issues?\.?.*$"));
    static DIAG: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s*(\S+?\.kts?):\d+:\d+: .+ \[\w+\]\s*$"));
    let c = FAILED.captures_iter(out).last()?;
    let mut r = CheckReport {
        errors: Some(count(c.get(1))),
        ..CheckReport::default()
    };
    for line in out.lines() {
        if let Some(d) = DIAG.captures(line) {
            r.fail_in(d.get(1).map_or("", |m| m.as_str()));
        }
    }
    r.reading = Some(Reading::Failed(shorten(
        c.get(0).map_or("", |m| m.as_str()),
    )));
    Some(r)
}

/// golangci-lint: `internal/a.go:12:2: message (errcheck)` per issue, then `3 issues:` (v2)
/// or nothing (v1); `0 issues.` on success.
pub fn golangci_lint(out: &str) -> Option<CheckReport> {
    static ISSUES: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^(\d+) issues?[.:]?\s*$"));
    static DIAG: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(\S+?\.go):\d+(?::\d+)?: .+ \([\w-]+\)\s*$"));
    let mut r = file_diagnostics(out, &DIAG).unwrap_or_default();
    if let Some(c) = ISSUES.captures_iter(out).last() {
        let n = count(c.get(1));
        r.errors = Some(n);
        let line = shorten(c.get(0).map_or("", |m| m.as_str()));
        r.reading = Some(if n == 0 {
            Reading::Succeeded(line)
        } else {
            Reading::Failed(line)
        });
    }
    r.reading.is_some().then_some(r)
}

/// `python -m py_compile` / `compileall`: `*** Error compiling 'src/a.py'...`, or a
/// `SyntaxError` after `  File "src/a.py", line 1`.
pub fn py_compile(out: &str) -> Option<CheckReport> {
    static COMPILING: LazyLock<Regex> = LazyLock::new(|| re(r"^\*\*\* Error compiling '([^']+)'"));
    static FILE: LazyLock<Regex> = LazyLock::new(|| re(r#"^\s*File "([^"]+)", line \d+"#));
    static ERROR: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^(?:SyntaxError|IndentationError|TabError|py_compile\.PyCompileError): .*$")
    });
    if !out.contains("Error") {
        return None;
    }
    let mut r = CheckReport::default();
    let mut file: Option<String> = None;
    let mut errors = 0u64;
    for line in out.lines() {
        if let Some(c) = COMPILING.captures(line) {
            r.fail_in(c.get(1).map_or("", |m| m.as_str()));
        } else if let Some(c) = FILE.captures(line) {
            file = c.get(1).map(|m| m.as_str().to_string());
        } else if ERROR.is_match(line) {
            errors += 1;
            if let Some(f) = file.take() {
                r.fail_in(&f);
            }
            if r.reading.is_none() {
                r.reading = Some(Reading::Failed(shorten(line)));
            }
        }
    }
    r.reading.as_ref()?;
    r.errors = Some(errors);
    Some(r)
}

/// Gradle builds: `BUILD SUCCESSFUL` / `BUILD FAILED`, compiler errors (`e: file:///w/A.kt:3:5
/// ...`, `A.java:3: error: ...`) and failed tasks (`> Task :app:compileKotlin FAILED`).
pub fn gradle(out: &str) -> Option<CheckReport> {
    static KOTLIN: LazyLock<Regex> =
        LazyLock::new(|| re(r"^e: (?:file://)?(\S+?\.kts?)(?::\d+:\d+|: \(\d+, \d+\)):? .+$"));
    static JAVA: LazyLock<Regex> = LazyLock::new(|| re(r"^(\S+?\.java):\d+: error: .+$"));
    static TASK: LazyLock<Regex> = LazyLock::new(|| re(r"^> Task :(?:(\S+):)?\w+ FAILED\s*$"));
    if !out.contains("BUILD ") {
        return None;
    }
    let mut r = CheckReport::default();
    let mut errors = 0u64;
    let mut first: Option<String> = None;
    let mut result: Option<Reading> = None;
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(c) = KOTLIN.captures(line).or_else(|| JAVA.captures(line)) {
            errors += 1;
            r.fail_in(c.get(1).map_or("", |m| m.as_str()));
            first.get_or_insert_with(|| shorten(line));
        } else if let Some(c) = TASK.captures(line) {
            if let Some(p) = c.get(1) {
                r.fail_in(p.as_str());
            }
            first.get_or_insert_with(|| shorten(line));
        } else if line.starts_with("BUILD SUCCESSFUL") {
            result = Some(Reading::Succeeded(shorten(line)));
        } else if line.starts_with("BUILD FAILED") || line.starts_with("FAILURE: Build failed") {
            result = Some(Reading::Failed(shorten(line)));
        }
    }
    r.reading = match (result, first) {
        (Some(Reading::Failed(l)), first) => Some(Reading::Failed(first.unwrap_or(l))),
        (Some(ok), _) => Some(ok),
        (None, Some(first)) => Some(Reading::Failed(first)),
        (None, None) => return None,
    };
    r.errors = Some(errors);
    Some(r)
}

/// Maven: `[INFO] BUILD SUCCESS` / `[INFO] BUILD FAILURE`, compiler errors as `[ERROR]
/// /w/src/main/java/A.java:[3,5] ...`, failed modules in the reactor summary.
pub fn maven(out: &str) -> Option<CheckReport> {
    static ERROR: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\[ERROR\] (\S+?\.(?:java|kt|scala)):\[\d+,\d+\] .+$"));
    static MODULE: LazyLock<Regex> = LazyLock::new(|| re(r"^\[INFO\] (\S+).*? \.+ FAILURE \["));
    if !out.contains("BUILD ") {
        return None;
    }
    let mut r = CheckReport::default();
    let mut errors = 0u64;
    let mut first: Option<String> = None;
    let mut result: Option<Reading> = None;
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(c) = ERROR.captures(line) {
            errors += 1;
            r.fail_in(c.get(1).map_or("", |m| m.as_str()));
            first.get_or_insert_with(|| shorten(line));
        } else if let Some(c) = MODULE.captures(line) {
            r.fail_in(c.get(1).map_or("", |m| m.as_str()));
        } else if line.ends_with("BUILD SUCCESS") {
            result = Some(Reading::Succeeded(shorten(line)));
        } else if line.ends_with("BUILD FAILURE") {
            result = Some(Reading::Failed(
                first.clone().unwrap_or_else(|| shorten(line)),
            ));
        }
    }
    r.reading = Some(result?);
    r.errors = Some(errors);
    Some(r)
}

/// `dotnet build` / MSBuild: `Build succeeded.` / `Build FAILED.`, `N Error(s)`, errors as
/// `/w/src/A.cs(3,5): error CS1002: ; expected [/w/src/App.csproj]`.
pub fn msbuild(out: &str) -> Option<CheckReport> {
    static ERROR: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s*(\S+?)\(\d+,\d+\): error [A-Z]+\d+: .+$"));
    static COUNT: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) Error\(s\)"));
    if !out.contains("Build succeeded")
        && !out.contains("Build FAILED")
        && !out.contains(": error ")
    {
        return None;
    }
    let mut r = CheckReport::default();
    let mut first: Option<String> = None;
    for line in out.lines() {
        if let Some(c) = ERROR.captures(line) {
            r.fail_in(c.get(1).map_or("", |m| m.as_str()));
            first.get_or_insert_with(|| shorten(line));
        }
    }
    r.errors = COUNT.captures_iter(out).last().map(|c| count(c.get(1)));
    r.reading = if let Some(line) = first {
        Some(Reading::Failed(line))
    } else if out.contains("Build FAILED") {
        Some(Reading::Failed("Build FAILED.".into()))
    } else if out.contains("Build succeeded") {
        Some(Reading::Succeeded("Build succeeded.".into()))
    } else {
        None
    };
    r.reading.is_some().then_some(r)
}

/// make: `make: *** [Makefile:2: test] Error 1` (a recipe failed), `make: *** No rule to make
/// target` (see [`crate::tools::startup`]), `make: Nothing to be done for 'all'.`
pub fn make(out: &str) -> Option<CheckReport> {
    static FAILED: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^g?make(?:\[\d+\])?: \*\*\* \[([^\]]*)\] Error \d+.*$"));
    static NOTHING: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?m)^g?make(?:\[\d+\])?: (?:Nothing to be done for|'[^']+' is up to date).*$")
    });
    let mut r = CheckReport::default();
    if let Some(c) = FAILED.captures_iter(out).last() {
        r.fail_in(c.get(1).map_or("", |m| m.as_str()));
        r.reading = Some(Reading::Failed(shorten(
            c.get(0).map_or("", |m| m.as_str()),
        )));
        return Some(r);
    }
    let m = NOTHING.find(out)?;
    r.reading = Some(Reading::Succeeded(shorten(m.as_str())));
    Some(r)
}

/// Lines `file:line:col: message` of one tool: each a failure in that file.
fn file_diagnostics(out: &str, diag: &Regex) -> Option<CheckReport> {
    let mut r = CheckReport::default();
    let mut errors = 0u64;
    for line in out.lines() {
        if let Some(c) = diag.captures(line.trim_end()) {
            errors += 1;
            r.fail_in(c.get(1).map_or("", |m| m.as_str()));
            if r.reading.is_none() {
                r.reading = Some(Reading::Failed(shorten(line)));
            }
        }
    }
    (errors > 0).then(|| {
        r.errors = Some(errors);
        r
    })
}
