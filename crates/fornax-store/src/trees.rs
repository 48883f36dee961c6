//! State kept for document trees and foreign databases (ADR 0006): the fingerprint of a whole
//! tree as last ingested, and what was learned of each of its documents, so that a changed
//! tree is re-read only where its files changed.

use std::collections::HashMap;

use fornax_types::TreeDoc;
use rusqlite::{params, OptionalExtension};

use crate::{Store, StoreError};

/// One document of a tree as last read: valid while its size, mtime and inode hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeMemberState {
    pub size: u64,
    pub mtime_ns: i64,
    pub inode: u64,
    /// BLAKE3 of the document's bytes (zeros when it was too large to read).
    pub fingerprint: [u8; 32],
    pub oversized: bool,
    /// Where the adapter placed it; `None`: it belongs to no session.
    pub placed: Option<TreeDoc>,
}

impl Store {
    /// The fingerprint last recorded for a whole document tree or database.
    pub fn tree_fingerprint(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT fingerprint FROM tree_state WHERE tree_key = ?1",
                [key],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Records a tree's fingerprint once every one of its groups is stored, so that an
    /// unchanged tree is skipped without reading its documents.
    pub fn set_tree_fingerprint(
        &self,
        key: &str,
        fingerprint: &[u8],
        now: &str,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO tree_state (tree_key, fingerprint, updated_at) VALUES (?1, ?2, ?3)
             ON CONFLICT(tree_key) DO UPDATE SET fingerprint = excluded.fingerprint,
                 updated_at = excluded.updated_at",
            params![key, fingerprint, now],
        )?;
        Ok(())
    }

    /// Every document state recorded for a tree, by member.
    pub fn tree_members(&self, key: &str) -> Result<HashMap<String, TreeMemberState>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT member, size, mtime_ns, inode, fingerprint, oversized, placed, rank, doc_id,
                    grp, parent, sort_key
             FROM tree_member WHERE tree_key = ?1",
        )?;
        let rows = stmt.query_map([key], |r| {
            let fp: Vec<u8> = r.get(4)?;
            let mut fingerprint = [0u8; 32];
            if fp.len() == 32 {
                fingerprint.copy_from_slice(&fp);
            }
            let placed = r.get::<_, bool>(6)?.then(|| -> rusqlite::Result<TreeDoc> {
                Ok(TreeDoc {
                    rank: r.get::<_, Option<u8>>(7)?.unwrap_or(0),
                    id: r.get(8)?,
                    group: r.get(9)?,
                    parent: r.get(10)?,
                    sort_key: r.get::<_, Option<String>>(11)?.unwrap_or_default(),
                })
            });
            Ok((
                r.get::<_, String>(0)?,
                TreeMemberState {
                    size: r.get::<_, i64>(1)? as u64,
                    mtime_ns: r.get(2)?,
                    inode: r.get::<_, i64>(3)? as u64,
                    fingerprint,
                    oversized: r.get(5)?,
                    placed: placed.transpose()?,
                },
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records the documents read anew and forgets those gone, in one transaction.
    pub fn update_tree_members(
        &mut self,
        key: &str,
        changed: &[(String, TreeMemberState)],
        removed: &[String],
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        {
            let mut upsert = tx.prepare_cached(
                "INSERT OR REPLACE INTO tree_member (tree_key, member, size, mtime_ns, inode,
                     fingerprint, oversized, placed, rank, doc_id, grp, parent, sort_key)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?;
            for (member, st) in changed {
                let doc = st.placed.as_ref();
                upsert.execute(params![
                    key,
                    member,
                    st.size as i64,
                    st.mtime_ns,
                    st.inode as i64,
                    &st.fingerprint[..],
                    st.oversized,
                    doc.is_some(),
                    doc.map(|d| d.rank),
                    doc.and_then(|d| d.id.as_deref()),
                    doc.and_then(|d| d.group.as_deref()),
                    doc.and_then(|d| d.parent.as_deref()),
                    doc.map(|d| d.sort_key.as_str()),
                ])?;
            }
            let mut delete =
                tx.prepare_cached("DELETE FROM tree_member WHERE tree_key = ?1 AND member = ?2")?;
            for member in removed {
                delete.execute(params![key, member])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_states_round_trip_and_are_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("f.db")).unwrap();
        let placed = TreeMemberState {
            size: 10,
            mtime_ns: 1_700_000_000_123_456_789,
            inode: 42,
            fingerprint: [7; 32],
            oversized: false,
            placed: Some(TreeDoc {
                rank: 2,
                id: Some("prt_1".into()),
                group: None,
                parent: Some("msg_1".into()),
                sort_key: "prt_1.json".into(),
            }),
        };
        let outside = TreeMemberState {
            placed: None,
            oversized: true,
            ..placed.clone()
        };
        store
            .update_tree_members(
                "tree:/t",
                &[("a".into(), placed.clone()), ("b".into(), outside.clone())],
                &[],
            )
            .unwrap();
        let got = store.tree_members("tree:/t").unwrap();
        assert_eq!(got.get("a"), Some(&placed));
        assert_eq!(got.get("b"), Some(&outside));
        assert!(store.tree_members("tree:/other").unwrap().is_empty());
        store
            .update_tree_members("tree:/t", &[], &["a".to_string()])
            .unwrap();
        assert_eq!(store.tree_members("tree:/t").unwrap().len(), 1);
    }
}
