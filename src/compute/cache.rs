//! A small bounded cache of answers, counting its hits and misses for the metrics: bounded in
//! entries, and optionally in bytes (by the caller's measure of an answer). What is worth
//! caching (which requests, how large a key) is the caller's policy.

use std::fmt;
use std::hash::Hash;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use dashmap::DashMap;

/// At most `capacity` answers by key, weighing at most `max_weight` together. Clones share
/// the entries and the counts.
pub struct Cache<K, V> {
    capacity: usize,
    max_weight: usize,
    weigh: fn(&V) -> usize,
    entries: Arc<DashMap<K, V>>,
    counts: Arc<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    hits: AtomicU64,
    misses: AtomicU64,
    /// What the entries weigh together.
    weight: AtomicUsize,
}

impl<K, V> Clone for Cache<K, V> {
    fn clone(&self) -> Self {
        Cache {
            capacity: self.capacity,
            max_weight: self.max_weight,
            weigh: self.weigh,
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
        Cache::weighed(capacity, usize::MAX, |_| 0)
    }

    /// A cache of `capacity` entries weighing at most `max_weight` together, each as `weigh`
    /// says (its bytes, say); an answer heavier than `max_weight` alone is not kept.
    pub fn weighed(capacity: usize, max_weight: usize, weigh: fn(&V) -> usize) -> Self {
        Cache {
            capacity,
            max_weight,
            weigh,
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

    /// Keeps `value` under `key`. Full (in entries or in weight), it first drops any entries
    /// until the new one fits: which ones does not matter for a cache of answers, and keeping
    /// an order to choose by would cost every hit.
    pub fn insert(&self, key: K, value: V) {
        let weight = (self.weigh)(&value);
        if self.capacity == 0 || weight > self.max_weight {
            return;
        }
        self.remove(&key);
        while self.entries.len() >= self.capacity
            || self.weight().saturating_add(weight) > self.max_weight
        {
            let Some(victim) = self.entries.iter().next().map(|e| e.key().clone()) else {
                break;
            };
            self.remove(&victim);
        }
        self.counts.weight.fetch_add(weight, Ordering::AcqRel);
        if let Some(replaced) = self.entries.insert(key, value) {
            // Another thread kept the same key meanwhile: its weight is no longer held.
            self.counts
                .weight
                .fetch_sub((self.weigh)(&replaced), Ordering::AcqRel);
        }
    }

    fn remove(&self, key: &K) {
        if let Some((_, value)) = self.entries.remove(key) {
            self.counts
                .weight
                .fetch_sub((self.weigh)(&value), Ordering::AcqRel);
        }
    }

    /// What the answers kept now weigh together.
    pub fn weight(&self) -> usize {
        self.counts.weight.load(Ordering::Acquire)
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
    fn a_weighed_cache_drops_entries_to_stay_under_its_weight_and_refuses_a_heavy_one() {
        let cache: Cache<u8, Vec<u8>> = Cache::weighed(10, 10, Vec::len);
        cache.insert(1, vec![0; 4]);
        cache.insert(2, vec![0; 4]);
        assert_eq!(cache.weight(), 8);
        cache.insert(3, vec![0; 4]);
        assert_eq!(cache.len(), 2, "one entry made room");
        assert_eq!(cache.weight(), 8);
        assert!(cache.get(&3).is_some());
        cache.insert(4, vec![0; 11]);
        assert_eq!(cache.get(&4), None, "heavier than the whole cache");
        cache.insert(3, vec![0; 1]);
        assert_eq!(cache.weight(), 5, "a key kept again replaces its weight");
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
