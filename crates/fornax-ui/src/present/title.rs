//! What to call a session and its project in a listing.

use super::text::{one_line, shorten, width};

/// The session's title: the runtime's own title when it has a real one, else its first
/// prompt, on one line and at most `max` columns. `None` when it has neither.
pub fn session_title(name: Option<&str>, first_prompt: Option<&str>, max: usize) -> Option<String> {
    let pick = |s: Option<&str>| {
        s.map(one_line)
            .filter(|s| !s.is_empty() && !is_placeholder(s))
    };
    pick(name)
        .or_else(|| pick(first_prompt.map(strip_wrapper)))
        .map(|t| shorten(&t, max))
}

/// Text some runtimes and fixtures leave where a title would be (opencode names every new
/// session `New session - <date>` until it titles it).
fn is_placeholder(s: &str) -> bool {
    (s.starts_with('[') && s.ends_with(']'))
        || s == "New session"
        || s.starts_with("New session - ")
}

/// A prompt that opens with a runtime's wrapper tag (`<context>`, `<command-message>`) is
/// titled by what follows the tag.
fn strip_wrapper(prompt: &str) -> &str {
    let p = prompt.trim_start().trim_start_matches('"');
    if let Some(rest) = p.strip_prefix('<') {
        if let Some(end) = rest.find('>') {
            let tag = &rest[..end];
            if !tag.is_empty()
                && tag
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                let after = rest[end + 1..].trim_start_matches("\\n").trim_start();
                if !after.is_empty() {
                    return after;
                }
            }
        }
    }
    prompt
}

/// The project for a listing: the working directory, shortened from the left so that its
/// last components (the part that names the project) survive.
pub fn project_label(cwd: Option<&str>, max: usize) -> String {
    let Some(cwd) = cwd.map(str::trim).filter(|c| !c.is_empty()) else {
        return "-".to_string();
    };
    let cwd = cwd.trim_end_matches('/');
    if width(cwd) <= max || max < 4 {
        return cwd.to_string();
    }
    let mut tail: Vec<&str> = Vec::new();
    let mut used = 1; // the leading `…`
    for part in cwd.rsplit('/') {
        let w = width(part) + 1;
        if used + w > max {
            break;
        }
        used += w;
        tail.push(part);
    }
    if tail.is_empty() {
        let last = cwd.rsplit('/').next().unwrap_or(cwd);
        return shorten(last, max);
    }
    tail.reverse();
    format!("…/{}", tail.join("/"))
}

/// A short form of a session id for listings (the first 8 characters are enough to resolve
/// it again in practice; any unique prefix works).
pub fn short_id(native_id: &str) -> String {
    native_id.chars().take(8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_native_title_wins_then_the_first_prompt() {
        assert_eq!(
            session_title(Some("OpenCode Small"), Some("Hello"), 40).as_deref(),
            Some("OpenCode Small")
        );
        assert_eq!(
            session_title(
                None,
                Some("add myapp directory\nand create myapp/hoge.py"),
                30
            )
            .as_deref(),
            Some("add myapp directory and…")
        );
        assert_eq!(
            session_title(Some("[trimmed for fixture]"), Some("List the files"), 30).as_deref(),
            Some("List the files")
        );
        assert_eq!(session_title(None, None, 30), None);
        assert_eq!(
            session_title(
                Some("New session - 2026-03-01T12:00:00.000Z"),
                Some("Fix it"),
                30
            )
            .as_deref(),
            Some("Fix it")
        );
        assert_eq!(session_title(Some("  "), Some(""), 30), None);
    }

    #[test]
    fn a_wrapper_tag_does_not_become_the_title() {
        assert_eq!(
            session_title(
                None,
                Some("<context>\\nYour current working repo is blosc"),
                60
            )
            .as_deref(),
            Some("Your current working repo is blosc")
        );
        assert_eq!(
            session_title(None, Some("<b>"), 60).as_deref(),
            Some("<b>"),
            "a bare tag is all there is"
        );
    }

    #[test]
    fn projects_keep_their_last_components() {
        assert_eq!(
            project_label(Some("/home/dev/ledger"), 30),
            "/home/dev/ledger"
        );
        assert_eq!(
            project_label(Some("/source/seokhyeon/motion-jepa/motion-jepa-v2"), 28),
            "…/motion-jepa/motion-jepa-v2"
        );
        assert_eq!(project_label(None, 20), "-");
        assert_eq!(
            width(&project_label(
                Some("/x/averyveryveryverylongprojectname"),
                12
            )),
            12
        );
    }
}
