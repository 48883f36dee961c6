//! How opencode's stored documents become ordered sources, one per session.
//!
//! The JSON tree keeps each document in its own file (`session/<project>/<id>.json`,
//! `message/<session>/<id>.json`, `part/<message>/<id>.json`, ...) and `opencode.db` keeps the
//! same documents as rows (ids in columns, the rest in a `data` column). Either way a session's
//! documents are read in this order: the session document, its messages (by creation time),
//! each message's parts (in message order, then by name: opencode's ids grow with time), then
//! the session's side documents (share link, todo list, diff summary).
//!
//! Placement prefers the document's own fields and falls back on its location, so early trees
//! (parts without `sessionID`, or without `messageID` under `part/<message>/`) and unreadable
//! documents still land in the right session, where the adapter counts them.

use std::collections::{BTreeMap, HashMap};

use fornax_types::{DocumentDatabase, DocumentTable, DocumentTree, TreeDoc, TreeGroup};
use serde_json::Value;

use crate::documents::{classify, Doc};
use crate::json::{i64_at, str_at};

const RANK_SESSION: u8 = 0;
const RANK_MESSAGE: u8 = 1;
const RANK_PART: u8 = 2;
const RANK_SIDE: u8 = 3;

/// `opencode.db`: tables `session`, `message` and `part` (schema of opencode's SQLite era).
pub(crate) static DATABASE: DocumentDatabase = DocumentDatabase {
    file_names: &["opencode.db"],
    tables: &[
        DocumentTable {
            name: "session",
            key: "id",
            body: None,
            fields: &[
                ("id", "id"),
                ("project_id", "projectID"),
                ("parent_id", "parentID"),
                ("slug", "slug"),
                ("directory", "directory"),
                ("title", "title"),
                ("version", "version"),
                ("time_created", "time.created"),
                ("time_updated", "time.updated"),
            ],
            required: &["directory"],
        },
        DocumentTable {
            name: "message",
            key: "id",
            body: Some("data"),
            fields: &[("id", "id"), ("session_id", "sessionID")],
            required: &["session_id"],
        },
        DocumentTable {
            name: "part",
            key: "id",
            body: Some("data"),
            fields: &[
                ("id", "id"),
                ("message_id", "messageID"),
                ("session_id", "sessionID"),
            ],
            required: &["message_id"],
        },
    ],
};

/// The storage tree and its database form.
pub(crate) const TREE: DocumentTree = DocumentTree {
    root_marker: &["session", "message", "part"],
    database: Some(&DATABASE),
    place,
    plan,
};

/// Where a member sits: its top-level folder (or table), the folder below it when the member
/// is three levels deep, and its last path component.
struct Location<'a> {
    top: &'a str,
    folder: Option<&'a str>,
    name: &'a str,
}

fn locate(member: &str) -> Location<'_> {
    let parts: Vec<&str> = member.split('/').filter(|p| !p.is_empty()).collect();
    Location {
        top: parts.first().copied().unwrap_or(""),
        folder: (parts.len() >= 3).then(|| parts[parts.len() - 2]),
        name: parts.last().copied().unwrap_or(""),
    }
}

fn stem(name: &str) -> &str {
    name.strip_suffix(".json").unwrap_or(name)
}

/// Places one document of the tree (or one database row).
pub(crate) fn place(member: &str, value: Option<&Value>) -> Option<TreeDoc> {
    let loc = locate(member);
    let kind = value.and_then(|v| classify(v).ok());
    let own = |key: &str| value.and_then(|v| str_at(v, &[key])).map(str::to_string);
    match kind {
        Some(Doc::Session) => Some(TreeDoc {
            rank: RANK_SESSION,
            id: own("id"),
            group: own("id"),
            parent: None,
            sort_key: loc.name.to_string(),
        }),
        Some(Doc::Message) => Some(message_doc(&loc, value, own("id"), own("sessionID"))),
        Some(Doc::Part) => Some(part_doc(
            &loc,
            own("id"),
            own("sessionID"),
            own("messageID"),
        )),
        Some(Doc::Share | Doc::SessionDiff | Doc::Todo | Doc::EmptyList) => side_doc(&loc, value),
        Some(Doc::Project) => None,
        // Unreadable or unknown: the location decides, so the adapter sees (and counts) it
        // within its session.
        None => match loc.top {
            "session" if loc.folder.is_some() => Some(TreeDoc {
                rank: RANK_SESSION,
                id: None,
                group: Some(stem(loc.name).to_string()),
                parent: None,
                sort_key: loc.name.to_string(),
            }),
            "message" => Some(message_doc(&loc, value, None, None)),
            "part" => Some(part_doc(&loc, None, None, None)),
            "session_share" | "session_diff" | "todo" => side_doc(&loc, value),
            _ => None,
        },
    }
}

fn message_doc(
    loc: &Location<'_>,
    value: Option<&Value>,
    id: Option<String>,
    session: Option<String>,
) -> TreeDoc {
    let created = value.and_then(|v| i64_at(v, &["time", "created"]));
    // Zero-padded so that byte order is time order; undated messages sort after dated ones.
    let sort_key = match created {
        Some(t) if t >= 0 => format!("{t:020}/{}", loc.name),
        _ => format!("~/{}", loc.name),
    };
    TreeDoc {
        rank: RANK_MESSAGE,
        id,
        group: session.or_else(|| loc.folder.map(str::to_string)),
        parent: None,
        sort_key,
    }
}

fn part_doc(
    loc: &Location<'_>,
    id: Option<String>,
    session: Option<String>,
    message: Option<String>,
) -> TreeDoc {
    TreeDoc {
        rank: RANK_PART,
        id,
        group: session,
        parent: message.or_else(|| loc.folder.map(str::to_string)),
        sort_key: loc.name.to_string(),
    }
}

/// `session_share/<session>.json`, `todo/<session>.json`, `session_diff/<session>.json`.
fn side_doc(loc: &Location<'_>, value: Option<&Value>) -> Option<TreeDoc> {
    if !matches!(loc.top, "session_share" | "session_diff" | "todo") {
        return None;
    }
    let named = value.and_then(|v| str_at(v, &["sessionID"]));
    Some(TreeDoc {
        rank: RANK_SIDE,
        id: None,
        group: Some(named.unwrap_or(stem(loc.name)).to_string()),
        parent: None,
        sort_key: loc.name.to_string(),
    })
}

/// Groups documents by session and orders each group for the storage adapter.
pub(crate) fn plan(docs: &[TreeDoc]) -> Vec<TreeGroup> {
    // A part without a session belongs to its message's session.
    let mut message_session: HashMap<&str, &str> = HashMap::new();
    for d in docs.iter().filter(|d| d.rank == RANK_MESSAGE) {
        if let (Some(id), Some(group)) = (&d.id, &d.group) {
            message_session.insert(id.as_str(), group.as_str());
        }
    }
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, d) in docs.iter().enumerate() {
        let group = d.group.as_deref().or_else(|| {
            d.parent
                .as_deref()
                .and_then(|p| message_session.get(p).copied())
        });
        if let Some(g) = group {
            groups.entry(g).or_default().push(i);
        }
    }
    groups
        .into_iter()
        .map(|(name, mut members)| {
            order_group(docs, &mut members);
            TreeGroup {
                name: name.to_string(),
                members,
            }
        })
        .collect()
}

fn order_group(docs: &[TreeDoc], members: &mut [usize]) {
    let mut messages: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&i| docs[i].rank == RANK_MESSAGE)
        .collect();
    messages.sort_by(|&a, &b| docs[a].sort_key.cmp(&docs[b].sort_key).then(a.cmp(&b)));
    let position: HashMap<&str, usize> = messages
        .iter()
        .enumerate()
        .filter_map(|(pos, &i)| docs[i].id.as_deref().map(|id| (id, pos)))
        .collect();
    // Parts follow their message's order; parts of an unknown message come last.
    let part_rank = |d: &TreeDoc| {
        d.parent
            .as_deref()
            .and_then(|p| position.get(p).copied())
            .unwrap_or(usize::MAX)
    };
    members.sort_by(|&a, &b| {
        let (da, db) = (&docs[a], &docs[b]);
        da.rank
            .cmp(&db.rank)
            .then_with(|| {
                if da.rank == RANK_PART {
                    part_rank(da)
                        .cmp(&part_rank(db))
                        .then_with(|| da.parent.cmp(&db.parent))
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .then_with(|| da.sort_key.cmp(&db.sort_key))
            .then(a.cmp(&b))
    });
}

/// Context the storage adapter restores from a document's location: a legacy part under
/// `part/<message>/` names no message, a message under `message/<session>/` may name no session.
pub(crate) fn folder_of(member: &str, top: &str) -> Option<String> {
    let loc = locate(member);
    (loc.top == top)
        .then_some(loc.folder)
        .flatten()
        .map(stem)
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn placed(items: &[(&str, Value)]) -> Vec<TreeDoc> {
        items
            .iter()
            .map(|(m, v)| place(m, Some(v)).expect("placed"))
            .collect()
    }

    #[test]
    fn orders_a_session_like_the_adapter_expects() {
        let docs = placed(&[
            (
                "part/msg_b/prt_2.json",
                json!({"id": "prt_2", "sessionID": "ses_1", "messageID": "msg_b", "type": "text", "text": "done"}),
            ),
            (
                "part/msg_a/prt_1.json",
                json!({"id": "prt_1", "messageID": "msg_a", "type": "text", "text": "hi"}),
            ),
            (
                "message/ses_1/msg_b.json",
                json!({"id": "msg_b", "sessionID": "ses_1", "role": "assistant", "time": {"created": 20}}),
            ),
            (
                "session/proj/ses_1.json",
                json!({"id": "ses_1", "projectID": "proj", "directory": "/w", "time": {"created": 1}}),
            ),
            (
                "message/ses_1/msg_a.json",
                json!({"id": "msg_a", "sessionID": "ses_1", "role": "user", "time": {"created": 10}}),
            ),
            ("todo/ses_1.json", json!([])),
        ]);
        let groups = plan(&docs);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].name, "ses_1");
        assert_eq!(groups[0].members, vec![3, 4, 2, 1, 0, 5]);
    }

    #[test]
    fn messages_order_by_time_then_name_and_parts_follow_their_message() {
        let docs = placed(&[
            (
                "message/s/m_user.json",
                json!({"id": "m_user", "sessionID": "s", "role": "user", "time": {"created": 1}}),
            ),
            (
                "message/s/m_assistant.json",
                json!({"id": "m_assistant", "sessionID": "s", "role": "assistant", "time": {"created": 2}}),
            ),
            (
                "part/m_assistant/001.json",
                json!({"id": "p_tool", "messageID": "m_assistant", "type": "tool"}),
            ),
            (
                "part/m_user/001.json",
                json!({"id": "p_text", "type": "text", "text": "Hello"}),
            ),
            (
                "part/m_assistant/002.json",
                json!({"id": "p_a_text", "messageID": "m_assistant", "type": "text"}),
            ),
        ]);
        let groups = plan(&docs);
        assert_eq!(groups[0].members, vec![0, 1, 3, 2, 4]);
    }

    #[test]
    fn database_rows_and_unreadable_files_are_placed() {
        let row = place(
            "part/prt_9",
            Some(
                &json!({"id": "prt_9", "messageID": "msg_1", "sessionID": "ses_1", "type": "text"}),
            ),
        )
        .unwrap();
        assert_eq!(row.group.as_deref(), Some("ses_1"));
        let broken = place("part/msg_1/prt_3.json", None).unwrap();
        assert_eq!(
            (broken.rank, broken.parent.as_deref()),
            (RANK_PART, Some("msg_1"))
        );
        let broken_message = place("message/ses_1/msg_4.json", None).unwrap();
        assert_eq!(broken_message.group.as_deref(), Some("ses_1"));
        assert!(place(
            "project/abc.json",
            Some(&json!({"id": "abc", "worktree": "/w"}))
        )
        .is_none());
        assert!(place("migration", Some(&json!(2))).is_none());
    }

    #[test]
    fn orphans_stay_out_of_every_group() {
        let docs = placed(&[(
            "part/msg_gone/prt_1.json",
            json!({"id": "prt_1", "messageID": "msg_gone", "type": "text"}),
        )]);
        assert!(plan(&docs).is_empty());
    }

    #[test]
    fn folders_give_back_missing_ids() {
        assert_eq!(
            folder_of("part/m_user/001.json", "part").as_deref(),
            Some("m_user")
        );
        assert_eq!(folder_of("part/prt_1.json", "part"), None);
        assert_eq!(
            folder_of("message/ses_1/msg.json", "message").as_deref(),
            Some("ses_1")
        );
        assert_eq!(folder_of("message/ses_1/msg.json", "part"), None);
    }
}
