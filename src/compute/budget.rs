//! A budget of some resource (bytes of memory) shared by requests: each takes its worst-case
//! cost before its work starts and gives it back when done; a request that does not fit is
//! refused at once rather than queued, so that a burst is answered quickly instead of holding
//! memory and connections while it waits.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// `total` units, taken by weight. Clones share them.
#[derive(Clone, Debug)]
pub struct Budget {
    counts: Arc<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    taken: AtomicUsize,
    refused: AtomicU64,
}

impl Counts {
    /// Takes `weight` more units if they fit under the total; counts a refusal if not.
    fn try_add(&self, weight: usize) -> bool {
        let added = self
            .taken
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |now| {
                now.checked_add(weight).filter(|after| *after <= self.total)
            })
            .is_ok();
        if !added {
            self.refused.fetch_add(1, Ordering::Relaxed);
        }
        added
    }
}

/// Units taken from a [`Budget`]; given back when dropped.
#[derive(Debug)]
pub struct Taken {
    weight: usize,
    counts: Arc<Counts>,
}

impl Taken {
    /// The units of the budget this share is of, in all.
    pub fn total(&self) -> usize {
        self.counts.total
    }

    /// Gives back what this share holds over `weight` (a request that took its bound before
    /// it could know its cost, and knows it now).
    pub fn shrink_to(&mut self, weight: usize) {
        let over = self.weight.saturating_sub(weight);
        self.counts.taken.fetch_sub(over, Ordering::AcqRel);
        self.weight -= over;
    }

    /// Takes `weight` more units into this share if they fit now (a request that learns more
    /// of its cost once its body is read); `false`, counted as a refusal, if not.
    pub fn try_grow(&mut self, weight: usize) -> bool {
        let grown = self.counts.try_add(weight);
        if grown {
            self.weight += weight;
        }
        grown
    }
}

impl Drop for Taken {
    fn drop(&mut self) {
        self.counts.taken.fetch_sub(self.weight, Ordering::AcqRel);
    }
}

impl Budget {
    /// A budget of `total` units.
    pub fn new(total: usize) -> Self {
        Budget {
            counts: Arc::new(Counts {
                total,
                ..Counts::default()
            }),
        }
    }

    /// The units in all.
    pub fn total(&self) -> usize {
        self.counts.total
    }

    /// `weight` units if that many are free now, else `None` (counted as a refusal). A weight
    /// over the whole budget is never given: the caller's bounds keep one request far under it.
    pub fn try_take(&self, weight: usize) -> Option<Taken> {
        self.counts.try_add(weight).then(|| Taken {
            weight,
            counts: self.counts.clone(),
        })
    }

    /// Units taken now.
    pub fn taken(&self) -> usize {
        self.counts.taken.load(Ordering::Acquire)
    }

    /// Requests refused since the budget was made.
    pub fn refused(&self) -> u64 {
        self.counts.refused.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_gives_by_weight_refuses_what_does_not_fit_and_takes_back_on_drop() {
        let budget = Budget::new(10);
        let six = budget.try_take(6).expect("fits");
        assert!(budget.clone().try_take(5).is_none(), "6 + 5 > 10");
        let four = budget.try_take(4).expect("6 + 4 fits");
        assert_eq!((budget.taken(), budget.refused()), (10, 1));
        drop(six);
        assert_eq!(budget.taken(), 4);
        assert!(budget.try_take(11).is_none(), "never more than the whole");
        drop(four);
        assert_eq!(budget.taken(), 0);
    }

    #[test]
    fn a_share_grows_only_while_the_budget_has_room_shrinks_and_gives_all_back_on_drop() {
        let budget = Budget::new(10);
        let mut share = budget.try_take(3).expect("fits");
        assert!(share.try_grow(5), "3 + 5 fits");
        let other = budget.try_take(2).expect("8 + 2 fits");
        assert!(!share.try_grow(1), "10 + 1 does not");
        assert_eq!((budget.taken(), budget.refused()), (10, 1));
        share.shrink_to(6);
        assert_eq!(budget.taken(), 8, "shrunk to 6 of its 8");
        share.shrink_to(7);
        assert_eq!(budget.taken(), 8, "shrinking never grows");
        drop(share);
        assert_eq!(budget.taken(), 2, "the grown share is given back whole");
        drop(other);
        assert_eq!(budget.taken(), 0);
    }
}
