//! Short words for the model's names: roles, claim subjects, agents.

use fornax_types::{ClaimSubject, Provider, Role};

/// What an item is, in a word or two (`prompt`, `agent`, `shell`, `output`, ...).
pub fn role(role: &str) -> &str {
    match Role::parse(role) {
        Some(Role::HumanRequest) => "prompt",
        Some(Role::HumanSteering) => "steering",
        Some(Role::AgentCommentary) => "agent",
        Some(Role::AgentFinalAnswer) => "answer",
        Some(Role::AgentReasoning) => "thinking",
        Some(Role::AgentToolCall) => "tool call",
        Some(Role::AgentToolCallShell) => "shell",
        Some(Role::AgentDelegation) => "delegation",
        Some(Role::ToolOutput) => "output",
        Some(Role::SubagentActivity) => "subagent",
        Some(Role::SubagentReport) => "subagent report",
        Some(Role::RuntimeInstructions) => "instructions",
        Some(Role::RuntimeContext) => "context",
        Some(Role::RuntimeState) => "state",
        Some(Role::RuntimeNotice) => "notice",
        Some(Role::RuntimeCompactionSummary) => "compaction",
        Some(Role::RuntimeUnknown) => "unknown",
        None => role,
    }
}

/// What a claim is about, in a word or two (`tests`, `build`, `commit`, ...).
pub fn subject(subject: &str) -> &str {
    let parsed = ClaimSubject::ALL
        .into_iter()
        .find(|s| s.as_str() == subject);
    match parsed {
        Some(ClaimSubject::TestResult) => "tests",
        Some(ClaimSubject::BuildResult) => "build",
        Some(ClaimSubject::LintResult) => "lint",
        Some(ClaimSubject::CommandExecuted) => "command run",
        Some(ClaimSubject::CommandSucceeded) => "command result",
        Some(ClaimSubject::FileWritten) => "file written",
        Some(ClaimSubject::FileDeleted) => "file deleted",
        Some(ClaimSubject::GitCommit) => "commit",
        Some(ClaimSubject::GitPush) => "push",
        None => subject,
    }
}

/// An agent's name as people write it.
pub fn agent(provider: &str) -> &str {
    match Provider::parse(provider) {
        Provider::ClaudeCode => "Claude Code",
        Provider::Codex => "Codex",
        Provider::Pi => "Pi",
        Provider::Opencode => "opencode",
        Provider::Gemini => "Gemini CLI",
        Provider::Copilot => "Copilot CLI",
        Provider::Cursor => "Cursor",
        Provider::Fornax => "Fornax",
        Provider::Other(_) => provider,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_and_subject_has_a_word() {
        for r in Role::ALL {
            assert!(!role(r.as_str()).contains('.'), "{r:?}");
        }
        for s in ClaimSubject::ALL {
            assert!(!subject(s.as_str()).contains('_'), "{s:?}");
        }
        assert_eq!(role("future.role"), "future.role");
        assert_eq!(agent("claude"), "Claude Code");
        assert_eq!(agent("newcomer"), "newcomer");
    }
}
