//! Ordering a session family's items into one timeline.
//!
//! Each session's items are already in record order. A family (a session and its subagent
//! sessions, written to different files) is merged by the runtime's timestamps; an item
//! without a timestamp keeps the position of the item before it in its own session.

use fornax_types::Item;

/// Merges per-session item lists (root first) into one timeline.
pub fn merge_timelines(lists: &[Vec<Item>]) -> Vec<&Item> {
    let total = lists.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(total);
    let mut heads = vec![0usize; lists.len()];
    // The effective timestamp of each list's head: its own, or the last one seen in the list.
    let mut carried: Vec<Option<&str>> = vec![None; lists.len()];
    loop {
        let mut best: Option<(usize, Option<&str>)> = None;
        for (i, list) in lists.iter().enumerate() {
            let Some(item) = list.get(heads[i]) else {
                continue;
            };
            let key = item.at.as_deref().or(carried[i]);
            best = match best {
                None => Some((i, key)),
                Some((bi, bk)) => match (key, bk) {
                    (Some(k), Some(b)) if k < b => Some((i, key)),
                    (Some(_), None) => Some((bi, bk)),
                    _ => Some((bi, bk)),
                },
            };
        }
        let Some((i, _)) = best else { break };
        let item = &lists[i][heads[i]];
        if item.at.is_some() {
            carried[i] = item.at.as_deref();
        }
        heads[i] += 1;
        out.push(item);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use fornax_types::*;

    fn item(session: &str, key: &str, at: Option<&str>) -> Item {
        Item {
            session: SessionRef::new(Provider::ClaudeCode, session),
            key: key.into(),
            loop_position: None,
            at: at.map(str::to_string),
            semantic: Semantic::new(
                Role::AgentCommentary,
                SemanticValue::Text(TextValue::full("x")),
                EvidenceStrength::Structural,
            ),
            records: vec![RecordRef::new(SourceId::new("s"), 0)],
        }
    }

    #[test]
    fn merges_by_time_and_keeps_untimed_in_place() {
        let parent = vec![
            item("p", "a", Some("2026-01-01T00:00:01Z")),
            item("p", "b", None),
            item("p", "c", Some("2026-01-01T00:00:09Z")),
        ];
        let child = vec![item("c", "x", Some("2026-01-01T00:00:05Z"))];
        let lists = [parent, child];
        let keys: Vec<&str> = merge_timelines(&lists)
            .iter()
            .map(|i| i.key.as_str())
            .collect();
        assert_eq!(keys, vec!["a", "b", "x", "c"]);
    }
}
