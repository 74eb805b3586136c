//! A bounded pool of permits: how many searches of one kind run at once, so that searches
//! cannot take every core whatever is asked.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// At most `limit` permits out at once. Clones share the permits and the counts.
#[derive(Clone, Debug)]
pub struct Pool {
    limit: usize,
    counts: Arc<Counts>,
}

/// Counted since the pool was made, for the metrics.
#[derive(Debug, Default)]
struct Counts {
    running: AtomicUsize,
    refused: AtomicU64,
    started: AtomicU64,
}

/// The right to run one search; given back when dropped.
#[derive(Debug)]
pub struct Permit(Arc<Counts>);

impl Drop for Permit {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Pool {
    /// A pool of `limit` permits; a limit of 0 switches its searches off.
    pub fn new(limit: usize) -> Self {
        Pool {
            limit,
            counts: Arc::new(Counts::default()),
        }
    }

    /// The most permits out at once.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A permit, if fewer than the limit are out. A refusal is counted unless the limit is 0:
    /// a pool of none is switched off, not busy.
    pub fn try_acquire(&self) -> Option<Permit> {
        let counts = &self.counts;
        let taken = counts
            .running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.limit).then_some(n + 1)
            })
            .is_ok();
        if taken {
            counts.started.fetch_add(1, Ordering::Relaxed);
            Some(Permit(counts.clone()))
        } else {
            if self.limit > 0 {
                counts.refused.fetch_add(1, Ordering::Relaxed);
            }
            None
        }
    }

    /// Permits out now.
    pub fn running(&self) -> usize {
        self.counts.running.load(Ordering::Acquire)
    }

    /// Permits refused since the pool was made, the limit being out.
    pub fn refused(&self) -> u64 {
        self.counts.refused.load(Ordering::Relaxed)
    }

    /// Permits given since the pool was made.
    pub fn started(&self) -> u64 {
        self.counts.started.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_refuses_past_its_limit_and_frees_a_permit_on_drop() {
        let pool = Pool::new(2);
        let first = pool.try_acquire().expect("a first permit");
        let _second = pool.clone().try_acquire().expect("a clone shares the pool");
        assert!(pool.try_acquire().is_none());
        assert_eq!((pool.running(), pool.refused(), pool.started()), (2, 1, 2));
        drop(first);
        assert_eq!(pool.running(), 1);
        assert!(pool.try_acquire().is_some());
        assert_eq!((pool.refused(), pool.started()), (1, 3));
    }

    #[test]
    fn a_pool_of_none_refuses_every_permit_without_counting_a_refusal() {
        let off = Pool::new(0);
        assert!(off.try_acquire().is_none());
        assert_eq!((off.running(), off.refused(), off.started()), (0, 0, 0));
    }
}
