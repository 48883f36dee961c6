//! Which hook events exist and what each becomes: mapped, documented but not projected, or
//! unknown.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Event {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    PermissionRequest,
    Notification,
    Stop,
    SubagentStart,
    SubagentStop,
    PreCompact,
    SessionEnd,
}

/// What a hook event name is to this adapter.
pub(super) enum Known {
    Mapped(Event),
    /// Documented by Claude Code, deliberately not translated (yet).
    Unmapped(&'static str),
}

pub(super) fn event_of(name: &str) -> Option<Known> {
    use Event::*;
    Some(match name {
        "SessionStart" => Known::Mapped(SessionStart),
        "UserPromptSubmit" => Known::Mapped(UserPromptSubmit),
        "PreToolUse" => Known::Mapped(PreToolUse),
        "PostToolUse" => Known::Mapped(PostToolUse),
        "PostToolUseFailure" => Known::Mapped(PostToolUseFailure),
        "PermissionRequest" => Known::Mapped(PermissionRequest),
        "Notification" => Known::Mapped(Notification),
        "Stop" => Known::Mapped(Stop),
        "SubagentStart" => Known::Mapped(SubagentStart),
        "SubagentStop" => Known::Mapped(SubagentStop),
        "PreCompact" => Known::Mapped(PreCompact),
        "SessionEnd" => Known::Mapped(SessionEnd),
        "StopFailure" => {
            Known::Unmapped("turn ended by an API error; no real payload confirms its fields")
        }
        "PostCompact" => {
            Known::Unmapped("compaction finished; the summary is read from the transcript")
        }
        "PermissionDenied" => {
            Known::Unmapped("permission decision; the tool outcome arrives as its own event")
        }
        "Elicitation" | "ElicitationResult" => {
            Known::Unmapped("MCP elicitation exchange, not projected")
        }
        "TaskCreated" | "TaskCompleted" | "TeammateIdle" => {
            Known::Unmapped("task-list and team bookkeeping, not projected")
        }
        "Setup" | "ConfigChange" | "InstructionsLoaded" => {
            Known::Unmapped("configuration lifecycle, not projected")
        }
        "WorktreeCreate" | "WorktreeRemove" | "CwdChanged" | "FileChanged" | "DirectoryAdded" => {
            Known::Unmapped("workspace change notification, not projected")
        }
        "MessageDisplay" | "UserPromptExpansion" | "PostToolBatch" => {
            Known::Unmapped("display or batching notification, not projected")
        }
        _ => return None,
    })
}

/// Why a mapped event published nothing (its session was already published).
pub(super) fn empty_reason(event: Event) -> &'static str {
    match event {
        Event::UserPromptSubmit => "prompt submission without prompt text",
        Event::PreToolUse => "tool call without a tool_name",
        Event::Notification => "notification without a message",
        Event::Stop => {
            "Stop without last_assistant_message (before 2.1.47) and no loop position to close"
        }
        _ => "hook payload without content to project",
    }
}
