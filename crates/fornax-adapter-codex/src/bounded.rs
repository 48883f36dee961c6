//! A small insertion-ordered map that keeps at most `CAP` entries.
//!
//! Pairing tables (calls waiting for outputs, outputs waiting for more witnesses) live across
//! records; a rollout with millions of calls must not grow them without limit. When the cap is
//! reached the oldest entry is dropped: a witness that arrives after that simply starts a new
//! fact instead of joining the old one.

use std::collections::{HashMap, VecDeque};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone)]
pub(crate) struct Bounded<V, const CAP: usize> {
    order: VecDeque<String>,
    map: HashMap<String, V>,
}

impl<V, const CAP: usize> Default for Bounded<V, CAP> {
    fn default() -> Self {
        Bounded {
            order: VecDeque::new(),
            map: HashMap::new(),
        }
    }
}

impl<V, const CAP: usize> Bounded<V, CAP> {
    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        self.map.get(key)
    }

    /// Inserts or replaces. A new key past the cap evicts the oldest entry.
    pub(crate) fn insert(&mut self, key: String, value: V) {
        if let Some(slot) = self.map.get_mut(&key) {
            *slot = value;
            return;
        }
        while self.order.len() >= CAP.max(1) {
            match self.order.pop_front() {
                Some(oldest) => {
                    self.map.remove(&oldest);
                }
                None => break,
            }
        }
        self.order.push_back(key.clone());
        self.map.insert(key, value);
    }

    pub(crate) fn remove(&mut self, key: &str) -> Option<V> {
        let value = self.map.remove(key)?;
        self.order.retain(|k| k != key);
        Some(value)
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}

impl<V: Serialize, const CAP: usize> Serialize for Bounded<V, CAP> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.order.len()))?;
        for key in &self.order {
            if let Some(value) = self.map.get(key) {
                seq.serialize_element(&(key, value))?;
            }
        }
        seq.end()
    }
}

impl<'de, V: Deserialize<'de>, const CAP: usize> Deserialize<'de> for Bounded<V, CAP> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let entries: Vec<(String, V)> = Vec::deserialize(d)?;
        let mut out = Bounded::default();
        for (k, v) in entries {
            out.insert(k, v);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oldest_entry_is_dropped_at_the_cap() {
        let mut b: Bounded<u32, 2> = Bounded::default();
        b.insert("a".into(), 1);
        b.insert("b".into(), 2);
        b.insert("a".into(), 10);
        b.insert("c".into(), 3);
        assert_eq!(b.len(), 2);
        assert_eq!(b.get("a"), None);
        assert_eq!(b.get("b"), Some(&2));
        assert_eq!(b.get("c"), Some(&3));
    }

    #[test]
    fn round_trips_in_order() {
        let mut b: Bounded<u32, 4> = Bounded::default();
        b.insert("x".into(), 1);
        b.insert("y".into(), 2);
        let json = serde_json::to_string(&b).unwrap();
        assert_eq!(json, r#"[["x",1],["y",2]]"#);
        let back: Bounded<u32, 4> = serde_json::from_str(&json).unwrap();
        assert_eq!(back.get("y"), Some(&2));
        assert_eq!(back.remove_clone("x"), Some(1));
    }

    impl<V: Clone, const CAP: usize> Bounded<V, CAP> {
        fn remove_clone(&self, key: &str) -> Option<V> {
            self.get(key).cloned()
        }
    }
}
