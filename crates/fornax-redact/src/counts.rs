//! How many secrets of each kind were replaced: counts only, never the secrets.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::SecretKind;

/// Redactions per kind name (`"github_token" -> 2`). Serializes as a plain JSON object.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct RedactionCounts {
    by_kind: BTreeMap<&'static str, u64>,
}

impl RedactionCounts {
    /// Total redactions of every kind.
    pub fn total(&self) -> u64 {
        self.by_kind
            .values()
            .fold(0u64, |sum, n| sum.saturating_add(*n))
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &RedactionCounts) {
        for (kind, n) in &other.by_kind {
            let slot = self.by_kind.entry(kind).or_insert(0);
            *slot = slot.saturating_add(*n);
        }
    }

    /// `(kind name, count)` in kind-name order; kinds never seen are absent.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.by_kind.iter().map(|(kind, n)| (*kind, *n))
    }

    /// The count for one kind (0 when none was seen).
    pub fn get(&self, kind: SecretKind) -> u64 {
        self.by_kind.get(kind.as_str()).copied().unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.by_kind.is_empty()
    }

    pub(crate) fn add(&mut self, kind: SecretKind) {
        let slot = self.by_kind.entry(kind.as_str()).or_insert(0);
        *slot = slot.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_and_total_sums() {
        let mut a = RedactionCounts::default();
        a.add(SecretKind::Jwt);
        a.add(SecretKind::Jwt);
        let mut b = RedactionCounts::default();
        b.add(SecretKind::GithubToken);
        b.add(SecretKind::Jwt);
        a.merge(&b);
        assert_eq!(a.get(SecretKind::Jwt), 3);
        assert_eq!(a.get(SecretKind::GithubToken), 1);
        assert_eq!(a.get(SecretKind::NpmToken), 0);
        assert_eq!(a.total(), 4);
        let listed: Vec<_> = a.iter().collect();
        assert_eq!(listed, vec![("github_token", 1), ("jwt", 3)]);
    }

    #[test]
    fn serializes_as_a_plain_object() {
        let mut c = RedactionCounts::default();
        c.add(SecretKind::HighEntropy);
        assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"high_entropy":1}"#);
        assert_eq!(
            serde_json::to_string(&RedactionCounts::default()).unwrap(),
            "{}"
        );
    }
}
