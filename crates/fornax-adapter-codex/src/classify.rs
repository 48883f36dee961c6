//! Telling a human request from context Codex injects into the conversation as `role: user`.
//!
//! Codex wraps what it injects in its own fixed markers (`<environment_context>`,
//! `<user_instructions>`, `# AGENTS.md instructions for ...`, `<turn_aborted>`, ...). The
//! markers are the runtime's discriminator, so a match is read at structural strength.

use fornax_types::Role;

/// Opening markers of injected user-role content, with the role they carry.
const INJECTED: &[(&str, Role)] = &[
    ("<environment_context", Role::RuntimeContext),
    ("<user_shell_command", Role::RuntimeContext),
    ("<user_instructions", Role::RuntimeInstructions),
    ("# AGENTS.md instructions for", Role::RuntimeInstructions),
    ("<INSTRUCTIONS>", Role::RuntimeInstructions),
    ("<permissions instructions", Role::RuntimeInstructions),
    ("<developer_instructions", Role::RuntimeInstructions),
    ("<collaboration_mode", Role::RuntimeInstructions),
    ("<skill>", Role::RuntimeInstructions),
    ("<turn_aborted", Role::RuntimeNotice),
    ("<subagent_notification", Role::RuntimeNotice),
    ("<model_switch", Role::RuntimeNotice),
];

/// The runtime role of injected user-role text, or `None` for text a human typed.
pub(crate) fn injected_role(text: &str) -> Option<Role> {
    let t = text.trim_start();
    INJECTED
        .iter()
        .find(|(marker, _)| t.starts_with(marker))
        .map(|(_, role)| *role)
}

/// The role an `event_msg.user_message.kind` states (0.4x–0.5x wrote injected context as user
/// messages with a kind).
pub(crate) fn role_of_user_kind(kind: &str) -> Option<Role> {
    match kind {
        "user_instructions" => Some(Role::RuntimeInstructions),
        "environment_context" => Some(Role::RuntimeContext),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn injected_markers() {
        assert_eq!(
            injected_role("<environment_context>\n  <cwd>/w</cwd>"),
            Some(Role::RuntimeContext)
        );
        assert_eq!(
            injected_role("\n<user_instructions>\n# path"),
            Some(Role::RuntimeInstructions)
        );
        assert_eq!(
            injected_role("# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>"),
            Some(Role::RuntimeInstructions)
        );
        assert_eq!(
            injected_role("<turn_aborted>\nThe user interrupted"),
            Some(Role::RuntimeNotice)
        );
        assert_eq!(injected_role("please run the tests"), None);
        assert_eq!(injected_role("\"<context>\nYour repo"), None);
    }
}
