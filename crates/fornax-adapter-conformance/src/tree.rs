//! Properties of a descriptor's document tree (`docs/specs/adapter.md`, "Document trees").

use std::panic::{catch_unwind, AssertUnwindSafe};

use fornax_types::{DocumentTree, TreeDoc};
use serde_json::{json, Value};

use crate::Report;

/// Checks that `place` and `plan` are total and that `plan` is a partition of what it groups:
/// hostile member names and documents never panic, every planned index is in range, and no
/// document is planned twice. `natives` are real documents of the format, placed under each
/// of `members` (paths as the runtime lays them out).
pub fn check_document_tree(tree: &DocumentTree, natives: &[Value], members: &[&str]) -> Report {
    let mut report = Report::default();
    let hostile_members = [
        "",
        "/",
        "//",
        "a",
        "../../etc/passwd",
        "x/y/z/w/v.json",
        "\u{0}",
        "é/é/é.json",
    ];
    let hostile_values = [
        json!(null),
        json!([]),
        json!({}),
        json!("text"),
        json!({"id": 5, "sessionID": [], "messageID": {}, "role": 1, "type": null}),
        json!({"id": "x".repeat(100_000)}),
    ];
    let mut placed: Vec<TreeDoc> = Vec::new();
    let mut place = |member: &str, value: Option<&Value>, report: &mut Report| match catch_unwind(
        AssertUnwindSafe(|| (tree.place)(member, value)),
    ) {
        Ok(Some(doc)) => placed.push(doc),
        Ok(None) => {}
        Err(_) => report.violate("tree_place_total", format!("place panicked on {member:?}")),
    };
    for member in hostile_members.iter().chain(members) {
        place(member, None, &mut report);
        for value in hostile_values.iter().chain(natives) {
            place(member, Some(value), &mut report);
        }
    }
    match catch_unwind(AssertUnwindSafe(|| (tree.plan)(&placed))) {
        Err(_) => report.violate("tree_plan_total", "plan panicked"),
        Ok(groups) => {
            let mut seen = vec![false; placed.len()];
            for group in &groups {
                for &i in &group.members {
                    match seen.get_mut(i) {
                        None => report.violate(
                            "tree_plan_partition",
                            format!(
                                "group {:?} names document {i} of {}",
                                group.name,
                                placed.len()
                            ),
                        ),
                        Some(true) => report
                            .violate("tree_plan_partition", format!("document {i} planned twice")),
                        Some(slot) => *slot = true,
                    }
                }
            }
            report.messages = groups.len();
        }
    }
    if let Err(_) | Ok(false) = catch_unwind(|| (tree.plan)(&[]).is_empty()) {
        report.violate("tree_plan_total", "plan of nothing is not empty");
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use fornax_types::TreeGroup;

    fn place_by_folder(member: &str, _value: Option<&Value>) -> Option<TreeDoc> {
        let group = member.split('/').next().filter(|g| !g.is_empty())?;
        Some(TreeDoc {
            group: Some(group.to_string()),
            sort_key: member.to_string(),
            ..TreeDoc::default()
        })
    }

    fn plan_one_group(docs: &[TreeDoc]) -> Vec<TreeGroup> {
        if docs.is_empty() {
            return Vec::new();
        }
        vec![TreeGroup {
            name: "all".into(),
            members: (0..docs.len()).collect(),
        }]
    }

    fn plan_twice(docs: &[TreeDoc]) -> Vec<TreeGroup> {
        let mut groups = plan_one_group(docs);
        groups.extend(plan_one_group(docs));
        groups
    }

    fn place_panics(member: &str, _value: Option<&Value>) -> Option<TreeDoc> {
        let first = member.as_bytes()[0];
        Some(TreeDoc {
            rank: first,
            ..TreeDoc::default()
        })
    }

    fn tree(
        place: fn(&str, Option<&Value>) -> Option<TreeDoc>,
        plan: fn(&[TreeDoc]) -> Vec<TreeGroup>,
    ) -> DocumentTree {
        DocumentTree {
            root_marker: &["a"],
            database: None,
            place,
            plan,
        }
    }

    #[test]
    fn a_sound_tree_passes_and_broken_ones_are_caught() {
        let natives = [json!({"id": "1"})];
        let ok = check_document_tree(
            &tree(place_by_folder, plan_one_group),
            &natives,
            &["a/1.json"],
        );
        assert!(ok.is_ok(), "{:?}", ok.violations);
        let twice =
            check_document_tree(&tree(place_by_folder, plan_twice), &natives, &["a/1.json"]);
        assert!(twice.has("tree_plan_partition"));
        let panics = check_document_tree(&tree(place_panics, plan_one_group), &natives, &[]);
        assert!(panics.has("tree_place_total"));
    }
}
