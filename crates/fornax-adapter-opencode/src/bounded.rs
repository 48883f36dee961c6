//! A map with a fixed capacity that forgets its oldest entries first: every table an adapter
//! keeps across records is one of these, so state stays bounded however long a stream runs.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Bounded<V> {
    cap: usize,
    map: BTreeMap<String, V>,
    /// Keys in insertion order.
    order: VecDeque<String>,
}

impl<V> Bounded<V> {
    pub(crate) fn new(cap: usize) -> Self {
        Bounded {
            cap: cap.max(1),
            map: BTreeMap::new(),
            order: VecDeque::new(),
        }
    }

    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        self.map.get(key)
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.map.get_mut(key)
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    pub(crate) fn insert(&mut self, key: String, value: V) {
        if !self.map.contains_key(&key) {
            self.order.push_back(key.clone());
        }
        self.map.insert(key, value);
        while self.map.len() > self.cap {
            match self.order.pop_front() {
                Some(old) => {
                    self.map.remove(&old);
                }
                None => break,
            }
        }
    }

    /// The entry for `key`, created by `make` when absent (forgetting the oldest entry first
    /// when the map is full).
    pub(crate) fn get_or_insert_with(&mut self, key: &str, make: impl FnOnce() -> V) -> &mut V {
        if !self.map.contains_key(key) {
            while self.map.len() >= self.cap {
                if self.pop_oldest().is_none() {
                    break;
                }
            }
            self.order.push_back(key.to_string());
        }
        self.map.entry(key.to_string()).or_insert_with(make)
    }

    /// Removes and returns the oldest entry.
    pub(crate) fn pop_oldest(&mut self) -> Option<(String, V)> {
        while let Some(key) = self.order.pop_front() {
            if let Some(v) = self.map.remove(&key) {
                return Some((key, v));
            }
        }
        None
    }

    pub(crate) fn values(&self) -> impl Iterator<Item = &V> {
        self.map.values()
    }

    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.map.values_mut()
    }

    /// Values in insertion order (oldest first).
    pub(crate) fn ordered_keys(&self) -> Vec<String> {
        self.order
            .iter()
            .filter(|k| self.map.contains_key(*k))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forgets_oldest_first() {
        let mut b = Bounded::new(2);
        b.insert("a".into(), 1);
        b.insert("b".into(), 2);
        b.insert("a".into(), 3);
        b.insert("c".into(), 4);
        assert!(!b.contains("a"));
        assert_eq!(b.get("b"), Some(&2));
        assert_eq!(b.get("c"), Some(&4));
        assert_eq!(b.len(), 2);
    }
}
