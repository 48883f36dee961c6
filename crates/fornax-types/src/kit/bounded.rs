//! A string-keyed map that remembers insertion order and drops its oldest entry past a fixed
//! capacity: the kind of cross-record table an adapter keeps (calls waiting for their output,
//! sessions already announced), so its state stays bounded whatever the input.
//!
//! When the cap is reached the oldest entry goes: a witness that arrives after that starts a
//! new fact instead of joining the old one, which is slower to read but never wrong.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

/// An insertion-ordered map of at most `cap` entries (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoundedMap<V> {
    cap: usize,
    /// Keys oldest first; may hold keys already removed (skipped, and compacted when it
    /// grows past twice the cap).
    order: VecDeque<String>,
    entries: BTreeMap<String, V>,
}

impl<V> BoundedMap<V> {
    /// An empty map keeping at most `cap` entries (at least one).
    pub fn new(cap: usize) -> Self {
        BoundedMap {
            cap: cap.max(1),
            order: VecDeque::new(),
            entries: BTreeMap::new(),
        }
    }

    pub fn cap(&self) -> usize {
        self.cap
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn contains(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.entries.get(key)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.entries.get_mut(key)
    }

    /// Inserts or replaces. A replaced entry keeps its age; a new one may evict the oldest.
    /// Returns the evicted entry, if any.
    pub fn insert(&mut self, key: String, value: V) -> Option<(String, V)> {
        if let Some(slot) = self.entries.get_mut(&key) {
            *slot = value;
            return None;
        }
        let evicted = self.make_room();
        self.order.push_back(key.clone());
        self.entries.insert(key, value);
        evicted
    }

    /// Inserts `key` unless present; returns whether it was new. For "announce once" sets.
    pub fn insert_new(&mut self, key: &str, value: V) -> bool {
        if self.entries.contains_key(key) {
            return false;
        }
        self.insert(key.to_string(), value);
        true
    }

    pub fn remove(&mut self, key: &str) -> Option<V> {
        let value = self.entries.remove(key)?;
        if self.order.len() > self.cap.saturating_mul(2) {
            self.compact();
        }
        Some(value)
    }

    /// The entry for `key`, created with `make` when absent.
    pub fn get_or_insert_with(&mut self, key: &str, make: impl FnOnce() -> V) -> &mut V {
        if !self.entries.contains_key(key) {
            self.make_room();
            self.order.push_back(key.to_string());
        }
        self.entries.entry(key.to_string()).or_insert_with(make)
    }

    /// Keys from oldest to newest.
    pub fn keys(&self) -> Vec<String> {
        self.order
            .iter()
            .filter(|k| self.entries.contains_key(*k))
            .cloned()
            .collect()
    }

    /// Entries from oldest to newest.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.order
            .iter()
            .filter_map(|k| self.entries.get_key_value(k))
            .map(|(k, v)| (k.as_str(), v))
    }

    /// Makes a map restored from a checkpoint consistent: order and entries agree, no key
    /// twice, and at most `cap` entries (the oldest go).
    pub fn repair(&mut self, cap: usize) {
        self.cap = cap.max(1);
        self.compact();
        for k in self.entries.keys() {
            if !self.order.contains(k) {
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

    /// Drops removed and repeated keys from the order.
    fn compact(&mut self) {
        let mut seen = BTreeSet::new();
        let entries = &self.entries;
        self.order
            .retain(|k| entries.contains_key(k) && seen.insert(k.clone()));
    }

    /// Evicts the oldest entries until one more fits; returns the last one evicted.
    fn make_room(&mut self) -> Option<(String, V)> {
        let mut evicted = None;
        while self.entries.len() >= self.cap {
            let old = self.order.pop_front()?;
            if let Some(v) = self.entries.remove(&old) {
                evicted = Some((old, v));
            }
        }
        evicted
    }
}

impl<V> Default for BoundedMap<V> {
    /// A map of 4096 entries, the size of the adapters' pairing tables.
    fn default() -> Self {
        BoundedMap::new(4096)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oldest_entry_is_dropped_past_capacity() {
        let mut t = BoundedMap::new(2);
        assert!(t.insert("a".into(), 1).is_none());
        t.insert("b".into(), 2);
        t.insert("a".into(), 10);
        assert_eq!(t.insert("c".into(), 3), Some(("a".into(), 10)));
        assert!(!t.contains("a"));
        assert_eq!(t.get("b"), Some(&2));
        assert_eq!(t.keys(), vec!["b".to_string(), "c".to_string()]);
        assert_eq!(t.remove("b"), Some(2));
        assert_eq!(t.len(), 1);
        assert!(t.insert_new("d", 4));
        assert!(!t.insert_new("d", 5));
        assert_eq!(t.get("d"), Some(&4));
    }

    #[test]
    fn removals_do_not_grow_the_order() {
        let mut t = BoundedMap::new(4);
        for i in 0..10_000 {
            t.insert(format!("k{i}"), i);
            t.remove(&format!("k{i}"));
        }
        assert!(t.is_empty());
        assert!(t.order.len() <= 9, "{}", t.order.len());
        *t.get_or_insert_with("x", || 1) += 1;
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![("x", &2)]);
    }

    #[test]
    fn repair_restores_consistency() {
        let mut t: BoundedMap<u8> = serde_json::from_value(serde_json::json!({
            "cap": 2, "order": ["x", "x", "gone"], "entries": {"x": 1, "y": 2, "z": 3}
        }))
        .unwrap();
        t.repair(2);
        assert_eq!(t.len(), 2);
        assert_eq!(t.keys(), vec!["y".to_string(), "z".to_string()]);
    }
}
