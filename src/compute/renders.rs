//! The pictures' governance: drawing a picture or an animation takes a core for up to a
//! second and megabytes of memory, so at most a few are drawn at once, and finished answers
//! are kept (a link's picture never changes) within a bound in bytes. Knows nothing of what
//! is drawn: the API keys the answers and answers a refusal.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;

use super::cache::Cache;
use super::pool::{Permit, Pool};

/// Pictures drawn at once on a server: one per core of a small machine.
pub const RENDERS_AT_ONCE: usize = 2;
/// Finished answers kept at most, in entries…
pub const CACHED_ANSWERS: usize = 256;
/// …and in bytes together (16 MiB).
pub const CACHED_BYTES: usize = 16 << 20;

/// Render permits, the cache of finished answers, and how many were drawn. Clones share them.
#[derive(Clone, Debug)]
pub struct Renders {
    pool: Pool,
    cache: Cache<u64, Bytes>,
    drawn: Arc<AtomicU64>,
}

impl Default for Renders {
    fn default() -> Self {
        Renders::new(RENDERS_AT_ONCE, CACHED_ANSWERS, CACHED_BYTES)
    }
}

impl Renders {
    /// `at_once` drawings at a time; `entries` answers weighing `bytes` together kept.
    pub fn new(at_once: usize, entries: usize, bytes: usize) -> Self {
        Renders {
            pool: Pool::new(at_once),
            cache: Cache::weighed(entries, bytes, Bytes::len),
            drawn: Arc::default(),
        }
    }

    /// The answer kept under `tag`, if any.
    pub fn cached(&self, tag: u64) -> Option<Bytes> {
        self.cache.get(&tag)
    }

    /// The right to draw one picture, if fewer than the limit are being drawn; hold it while
    /// drawing.
    pub fn try_acquire(&self) -> Option<Permit> {
        self.pool.try_acquire()
    }

    /// Counts a picture drawn and keeps its answer under `tag`.
    pub fn drawn(&self, tag: u64, answer: Bytes) {
        self.drawn.fetch_add(1, Ordering::Relaxed);
        self.cache.insert(tag, answer);
    }

    /// The permits: how many draw at once, how many run now, how many were refused.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The finished answers kept.
    pub fn cache(&self) -> &Cache<u64, Bytes> {
        &self.cache
    }

    /// Pictures drawn since the server started.
    pub fn count(&self) -> u64 {
        self.drawn.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_share_their_permits_count_drawings_and_keep_answers() {
        let renders = Renders::new(1, 4, 10);
        let held = renders.try_acquire().expect("a permit");
        assert!(
            renders.clone().try_acquire().is_none(),
            "a clone shares them"
        );
        drop(held);
        renders.drawn(7, Bytes::from_static(b"picture"));
        assert_eq!(renders.count(), 1);
        assert_eq!(renders.cached(7), Some(Bytes::from_static(b"picture")));
        renders.drawn(8, Bytes::from_static(b"far too large"));
        assert_eq!(renders.cached(8), None, "over the bytes kept");
    }
}
