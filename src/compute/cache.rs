//! A small bounded cache of answers, counting its hits and misses for the metrics. What is
//! worth caching (which requests, how large a key) is the caller's policy.

use std::fmt;
use std::hash::Hash;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use dashmap::DashMap;

/// At most `capacity` answers by key. Clones share the entries and the counts.
pub struct Cache<K, V> {
    capacity: usize,
    entries: Arc<DashMap<K, V>>,
    counts: Arc<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    hits: AtomicU64,
    misses: AtomicU64,
}

impl<K, V> Clone for Cache<K, V> {
    fn clone(&self) -> Self {
        Cache {
            capacity: self.capacity,
            entries: self.entries.clone(),
            counts: self.counts.clone(),
        }
    }
}

impl<K: Eq + Hash, V> fmt::Debug for Cache<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cache")
            .field("capacity", &self.capacity)
            .field("entries", &self.entries.len())
            .field("counts", &self.counts)
            .finish()
    }
}

impl<K: Eq + Hash + Clone, V: Clone> Cache<K, V> {
    /// A cache of `capacity` entries (0: it keeps nothing, and every look-up misses).
    pub fn new(capacity: usize) -> Self {
        Cache {
            capacity,
            entries: Arc::new(DashMap::new()),
            counts: Arc::new(Counts::default()),
        }
    }

    /// The answer kept under `key`, counted as a hit or a miss.
    pub fn get(&self, key: &K) -> Option<V> {
        let found = self.entries.get(key).map(|entry| entry.value().clone());
        let count = match found {
            Some(_) => &self.counts.hits,
            None => &self.counts.misses,
        };
        count.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// Keeps `value` under `key`. Full, it first drops any one entry: which one does not
    /// matter for a cache of answers, and keeping an order to choose by would cost every hit.
    pub fn insert(&self, key: K, value: V) {
        if self.capacity == 0 {
            return;
        }
        while self.entries.len() >= self.capacity {
            let Some(victim) = self.entries.iter().next().map(|e| e.key().clone()) else {
                break;
            };
            self.entries.remove(&victim);
        }
        self.entries.insert(key, value);
    }

    /// Answers kept now.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no answer is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Look-ups that found their answer, since the cache was made.
    pub fn hits(&self) -> u64 {
        self.counts.hits.load(Ordering::Relaxed)
    }

    /// Look-ups that did not, since the cache was made.
    pub fn misses(&self) -> u64 {
        self.counts.misses.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_cache_drops_one_entry_to_keep_the_new_one() {
        let cache = Cache::new(2);
        cache.insert(1, "one");
        cache.insert(2, "two");
        cache.insert(3, "three");
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get(&3), Some("three"));
        let kept = [1, 2].iter().filter(|k| cache.get(k).is_some()).count();
        assert_eq!(kept, 1, "one of the older entries made room");
    }

    #[test]
    fn a_cache_counts_its_hits_and_misses() {
        let cache = Cache::new(4);
        assert_eq!(cache.get(&"k"), None);
        cache.clone().insert("k", 7);
        assert_eq!(cache.get(&"k"), Some(7), "a clone shares the entries");
        assert_eq!(cache.get(&"k"), Some(7));
        assert_eq!((cache.hits(), cache.misses()), (2, 1));
    }

    #[test]
    fn a_cache_of_no_entries_keeps_nothing_and_counts_misses() {
        let cache = Cache::new(0);
        cache.insert("k", 7);
        assert!(cache.is_empty());
        assert_eq!(cache.get(&"k"), None);
        assert_eq!((cache.hits(), cache.misses()), (0, 1));
    }
}
