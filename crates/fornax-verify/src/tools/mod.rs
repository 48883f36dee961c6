//! The tool table: everything the engine knows about a tool, declared once.
//!
//! Each [`Tool`] entry says what the tool is (id, family, kind), how its invocations look
//! after launchers are unwrapped (its programs and a recogniser that reads the subcommand and
//! the flags that select a subset), how to read its output (a test-report parser or a
//! build/lint reader, with a real output fixture under `tests/fixtures/tools/<id>/`), and the
//! names people use for it in prose. Command classification ([`crate::commands`]), the claim
//! vocabulary ([`prose_names`]) and evidence parsing ([`parse_tests`], [`read_check`]) all
//! derive from [`TOOLS`]; adding a runner is one entry plus its fixtures.
//!
//! # Invariants
//!
//! * Pure and bounded: no I/O; every pattern is compiled once; a parser reads at most the last
//!   [`parse::MAX_PARSED`] bytes of an output and keeps at most [`report::MAX_SCOPES`] scopes.
//! * A parser answers only on its tool's own closing lines; absent is `None`, never zero.

use std::collections::HashMap;
use std::sync::LazyLock;

use fornax_types::Invocation;

use crate::commands::{base_name, CommandClass, CommandKind};

pub mod identity;
pub mod parse;
pub mod recognise;
pub mod report;
pub mod startup;
mod table;

pub use identity::{coverage, identify, Coverage, Identity};
pub use parse::{CheckReport, Reading, TestParser};
pub use recognise::{Args, Use};
pub use report::TestReport;
pub use table::TOOLS;

/// What a tool is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ToolKind {
    Test,
    Build,
    Lint,
    /// Version control (`git`): commits and pushes.
    Vcs,
    /// Package managers and task runners (npm, make, tox): what a run is for comes from the
    /// script or target it names.
    Package,
}

impl ToolKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ToolKind::Test => "test",
            ToolKind::Build => "build",
            ToolKind::Lint => "lint",
            ToolKind::Vcs => "vcs",
            ToolKind::Package => "package",
        }
    }
}

/// How a tool's output is read.
#[derive(Debug, Clone, Copy)]
pub enum Output {
    /// A test report; `runner` is the name the parser stamps on it.
    Tests {
        parse: TestParser,
        runner: &'static str,
    },
    /// A build or lint verdict.
    Check(parse::checks::CheckParser),
    /// Git's commit and push lines ([`crate::gitout`]).
    Git,
    /// A package manager's script header, or its "missing script" error ([`startup`]).
    Script,
    /// No parser of its own: judged by its exit status and the generic build/lint reading.
    ExitStatus,
}

/// One tool.
#[derive(Debug, Clone, Copy)]
pub struct Tool {
    /// Stable id (`cargo-test`, `pytest`, `npm`); runners' classes are `<id>:<task>`.
    pub id: &'static str,
    /// Tools whose results answer the same claims (`nextest` and `cargo-test`).
    pub family: &'static str,
    pub kind: ToolKind,
    /// Program base names that may invoke it (after launchers are unwrapped).
    pub programs: &'static [&'static str],
    /// Whether an invocation of one of `programs` is this tool's, and what for.
    pub recognise: fn(&Args<'_>) -> Option<Use>,
    /// Flags that select a subset of what the tool checks.
    pub filters: &'static [&'static str],
    pub output: Output,
    /// Names people use for it in prose, lower case (`cargo test`, `pytest`).
    pub prose: &'static [&'static str],
    /// An invocation the table test requires to be recognised as this tool.
    pub example: &'static str,
}

impl Tool {
    pub fn test_parser(&self) -> Option<TestParser> {
        match self.output {
            Output::Tests { parse, .. } => Some(parse),
            _ => None,
        }
    }

    pub fn check_parser(&self) -> Option<parse::checks::CheckParser> {
        match self.output {
            Output::Check(p) => Some(p),
            _ => None,
        }
    }
}

static BY_PROGRAM: LazyLock<HashMap<&'static str, Vec<&'static Tool>>> = LazyLock::new(|| {
    let mut map: HashMap<&'static str, Vec<&'static Tool>> = HashMap::new();
    for tool in TOOLS {
        for p in tool.programs {
            map.entry(*p).or_default().push(tool);
        }
    }
    map
});

/// The entry with this id.
pub fn by_id(id: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.id == id)
}

/// The family of a tool id, a runner class (`npm:test`) or a parser's runner name (`cargo`).
pub fn family_of(id: &str) -> &str {
    if let Some(t) = by_id(id) {
        return t.family;
    }
    TOOLS
        .iter()
        .find(|t| matches!(t.output, Output::Tests { runner, .. } if runner == id))
        .map_or(id, |t| t.family)
}

/// The tool an (unwrapped) invocation runs, and what for: the first entry for its program
/// whose recogniser accepts it.
pub fn recognise(inv: &Invocation) -> Option<(&'static Tool, Use)> {
    let program = base_name(&inv.program);
    let candidates = BY_PROGRAM.get(program)?;
    let argv: Vec<&str> = inv.argv.iter().map(String::as_str).collect();
    let args = Args {
        program,
        argv: &argv,
    };
    candidates
        .iter()
        .find_map(|t| (t.recognise)(&args).map(|u| (*t, u)))
        .filter(|(_, u)| u.kind != CommandKind::Other)
}

/// The classification of one invocation, from the table.
pub fn classify(inv: &Invocation) -> Option<CommandClass> {
    let (tool, u) = recognise(inv)?;
    let id = match (&u.task, u.id) {
        (_, Some(id)) => id.to_string(),
        (Some(task), None) if tool.kind == ToolKind::Package => format!("{}:{task}", tool.id),
        _ => tool.id.to_string(),
    };
    Some(CommandClass {
        kind: u.kind,
        tool: Some(id),
        filtered: u.filtered,
        wrapper: tool.kind == ToolKind::Package,
    })
}

/// Every prose name in the table with the tool id it names, longest first (so that `cargo
/// test` is found before `cargo`).
pub fn prose_names() -> &'static [(&'static str, &'static str)] {
    static NAMES: LazyLock<Vec<(&'static str, &'static str)>> = LazyLock::new(|| {
        let mut v: Vec<(&'static str, &'static str)> = TOOLS
            .iter()
            .flat_map(|t| t.prose.iter().map(move |p| (*p, t.id)))
            .collect();
        v.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        v.dedup_by(|a, b| a.0 == b.0);
        v
    });
    &NAMES
}

/// Every program the table knows.
pub fn known_program(program: &str) -> bool {
    BY_PROGRAM.contains_key(program)
}

/// Parses a test run's output: with the parser of `tool` first when it has one, else (or when
/// it does not recognise the output) with every test parser in table order, skipping those
/// whose tool's output could not be in it.
pub fn parse_tests(output: &str, tool: Option<&Tool>) -> Option<TestReport> {
    if output.is_empty() {
        return None;
    }
    let output = parse::bounded(output);
    if let Some(p) = tool.and_then(Tool::test_parser) {
        if let Some(r) = p(output) {
            return Some(r);
        }
    }
    table::TEST_PARSERS.iter().find_map(|p| p(output))
}

/// Reads a build or lint output with `tool`'s own reader.
pub fn read_check(output: &str, tool: &Tool) -> Option<CheckReport> {
    let p = tool.check_parser()?;
    p(parse::bounded(output))
}

#[cfg(test)]
mod tests;
