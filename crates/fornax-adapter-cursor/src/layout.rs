//! What Cursor leaves to its file layout: the conversation a transcript belongs to is its
//! file name (`agent-transcripts/<id>.txt`, `agent-transcripts/<id>/<id>.jsonl`), and a
//! subagent's transcript sits under its parent's folder
//! (`agent-transcripts/<parent>/subagents/<child>.jsonl`). Hook payloads confirm the first
//! (`transcript_path` names `<conversation_id>/<conversation_id>.jsonl`).

/// Where a transcript belongs.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct Place {
    /// The conversation's native id (for a subagent: `<parent>/<child>`).
    pub native_id: String,
    /// The parent conversation, for a subagent transcript.
    pub parent: Option<String>,
    /// The subagent's own id (its file name), for a subagent transcript.
    pub agent: Option<String>,
}

fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(s, _)| s)
}

/// Whether `s` is a UUID (`8-4-4-4-12` hex digits).
pub(crate) fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// The place of a transcript, from its path when it sits in Cursor's layout, else from the
/// file stem alone when that is a conversation id. `None` when neither names one.
pub(crate) fn place(location: Option<&str>, hint: &str) -> Option<Place> {
    if let Some(path) = location {
        let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
        if let Some(at) = parts.iter().rposition(|p| *p == "agent-transcripts") {
            let rest = &parts[at + 1..];
            match rest {
                [file] => return Some(main(stem(file))),
                [dir, file] if stem(file) == *dir => return Some(main(dir)),
                [dir, "subagents", file] => {
                    let child = stem(file);
                    return Some(Place {
                        native_id: format!("{dir}/{child}"),
                        parent: Some((*dir).to_string()),
                        agent: Some(child.to_string()),
                    });
                }
                [dir, _] => return Some(main(dir)),
                _ => {}
            }
        }
    }
    is_uuid(hint).then(|| main(hint))
}

fn main(id: &str) -> Place {
    Place {
        native_id: id.to_string(),
        parent: None,
        agent: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "5778024b-6f82-44e9-bc8d-cd46db7e25d5";

    #[test]
    fn every_layout_generation() {
        let old = format!("/h/.cursor/projects/Users-x/agent-transcripts/{ID}.txt");
        assert_eq!(place(Some(&old), "x").unwrap().native_id, ID);
        let new = format!("/h/.cursor/projects/Users-x/agent-transcripts/{ID}/{ID}.jsonl");
        assert_eq!(place(Some(&new), "x").unwrap().native_id, ID);
        let sub = format!("/h/.cursor/projects/Users-x/agent-transcripts/{ID}/subagents/c1.jsonl");
        let p = place(Some(&sub), "c1").unwrap();
        assert_eq!(p.native_id, format!("{ID}/c1"));
        assert_eq!(p.parent.as_deref(), Some(ID));
        assert_eq!(p.agent.as_deref(), Some("c1"));
        assert_eq!(place(None, ID).unwrap().native_id, ID);
        assert_eq!(place(Some("/tmp/notes/session.jsonl"), "session"), None);
        assert_eq!(place(None, "conformance-session"), None);
    }
}
