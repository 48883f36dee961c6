//! Ordering a session family's items into one timeline.
//!
//! Each session's items are already in record order. A family (a session and its subagent
//! sessions, often written to different files) is merged by the runtime's timestamps. Where a
//! timestamp is missing (hook payloads carry none), the store's arrival order decides: a hook
//! stream's events arrive in firing order, whichever session they belong to. Without arrival
//! order, an item without a timestamp keeps the position of the item before it in its own
//! session.

use std::cmp::Ordering;

use fornax_types::Item;

/// Merges per-session item lists (root first) into one timeline. `seqs`, when given, holds
/// each item's arrival order in the store (per list, per item).
pub fn merge_timelines<'a>(lists: &'a [Vec<Item>], seqs: &[Vec<i64>]) -> Vec<&'a Item> {
    let total = lists.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(total);
    let mut heads = vec![0usize; lists.len()];
    // The effective timestamp of each list's head: its own, or the last one seen in the list.
    let mut carried: Vec<Option<&str>> = vec![None; lists.len()];
    let seq = |list: usize, at: usize| seqs.get(list).and_then(|s| s.get(at)).copied();
    loop {
        let mut best: Option<usize> = None;
        for (i, list) in lists.iter().enumerate() {
            let Some(item) = list.get(heads[i]) else {
                continue;
            };
            let Some(b) = best else {
                best = Some(i);
                continue;
            };
            let other = &lists[b][heads[b]];
            let order = match (item.at.as_deref(), other.at.as_deref()) {
                (Some(x), Some(y)) if x != y => x.cmp(y),
                _ => match (seq(i, heads[i]), seq(b, heads[b])) {
                    (Some(p), Some(q)) => p.cmp(&q),
                    _ => match (
                        item.at.as_deref().or(carried[i]),
                        other.at.as_deref().or(carried[b]),
                    ) {
                        (Some(k), Some(o)) if k < o => Ordering::Less,
                        _ => Ordering::Greater,
                    },
                },
            };
            if order == Ordering::Less {
                best = Some(i);
            }
        }
        let Some(i) = best else { break };
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
        let keys: Vec<&str> = merge_timelines(&lists, &[])
            .iter()
            .map(|i| i.key.as_str())
            .collect();
        assert_eq!(keys, vec!["a", "b", "x", "c"]);
        // With arrival order the same timeline comes out.
        let keys: Vec<&str> = merge_timelines(&lists, &[vec![1, 2, 3], vec![4]])
            .iter()
            .map(|i| i.key.as_str())
            .collect();
        assert_eq!(keys, vec!["a", "b", "x", "c"]);
    }

    #[test]
    fn untimed_events_follow_their_arrival_order() {
        // A hook stream: a parent delegates, the subagent runs, the parent answers.
        let parent = vec![item("p", "delegate", None), item("p", "relay", None)];
        let child = vec![item("c", "run", None), item("c", "report", None)];
        let lists = [parent, child];
        let keys: Vec<&str> = merge_timelines(&lists, &[vec![1, 4], vec![2, 3]])
            .iter()
            .map(|i| i.key.as_str())
            .collect();
        assert_eq!(keys, vec!["delegate", "run", "report", "relay"]);
    }
}
