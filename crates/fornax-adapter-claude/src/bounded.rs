//! A string-keyed map that remembers insertion order and drops its oldest entry past a fixed
//! capacity: the only kind of cross-record table the adapters keep, so state stays bounded
//! whatever the input.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Bounded<V> {
    cap: usize,
    order: VecDeque<String>,
    entries: BTreeMap<String, V>,
}

impl<V> Bounded<V> {
    pub(crate) fn new(cap: usize) -> Self {
        Bounded {
            cap: cap.max(1),
            order: VecDeque::new(),
            entries: BTreeMap::new(),
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        self.entries.get(key)
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.entries.get_mut(key)
    }

    /// Inserts or replaces. A replaced entry keeps its age; a new one may evict the oldest.
    pub(crate) fn insert(&mut self, key: String, value: V) {
        if let Some(slot) = self.entries.get_mut(&key) {
            *slot = value;
            return;
        }
        self.make_room();
        self.order.push_back(key.clone());
        self.entries.insert(key, value);
    }

    pub(crate) fn remove(&mut self, key: &str) -> Option<V> {
        let value = self.entries.remove(key)?;
        if let Some(pos) = self.order.iter().position(|k| k == key) {
            self.order.remove(pos);
        }
        Some(value)
    }

    /// The entry for `key`, created with `make` when absent.
    pub(crate) fn get_or_insert_with(&mut self, key: &str, make: impl FnOnce() -> V) -> &mut V {
        if !self.entries.contains_key(key) {
            self.make_room();
            self.order.push_back(key.to_string());
        }
        self.entries.entry(key.to_string()).or_insert_with(make)
    }

    /// Evicts the oldest entries until one more fits.
    fn make_room(&mut self) {
        while self.entries.len() >= self.cap {
            match self.order.pop_front() {
                Some(old) => {
                    self.entries.remove(&old);
                }
                None => break,
            }
        }
    }

    /// Keys from oldest to newest.
    pub(crate) fn keys(&self) -> Vec<String> {
        self.order
            .iter()
            .filter(|k| self.entries.contains_key(*k))
            .cloned()
            .collect()
    }

    /// Repairs a table restored from a checkpoint: order and entries must agree, and the
    /// capacity must hold.
    pub(crate) fn repair(&mut self, cap: usize) {
        self.cap = cap.max(1);
        let mut seen = std::collections::BTreeSet::new();
        self.order
            .retain(|k| self.entries.contains_key(k) && seen.insert(k.clone()));
        for k in self.entries.keys() {
            if !seen.contains(k) {
                self.order.push_back(k.clone());
            }
        }
        while self.entries.len() > self.cap {
            match self.order.pop_front() {
                Some(old) => {
                    self.entries.remove(&old);
                }
                None => break,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oldest_entry_is_dropped_past_capacity() {
        let mut t = Bounded::new(2);
        t.insert("a".into(), 1);
        t.insert("b".into(), 2);
        t.insert("a".into(), 10);
        t.insert("c".into(), 3);
        assert!(!t.contains("a"));
        assert_eq!(t.get("b"), Some(&2));
        assert_eq!(t.keys(), vec!["b".to_string(), "c".to_string()]);
        assert_eq!(t.remove("b"), Some(2));
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn repair_restores_consistency() {
        let mut t: Bounded<u8> = serde_json::from_value(serde_json::json!({
            "cap": 2, "order": ["x", "x", "gone"], "entries": {"x": 1, "y": 2, "z": 3}
        }))
        .unwrap();
        t.repair(2);
        assert_eq!(t.len(), 2);
        assert_eq!(t.keys().len(), 2);
    }
}
