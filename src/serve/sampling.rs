//! Repeated log lines of one kind (refusals: 408, 413, 414, 429, 503; `/healthz` answers) kept
//! to at most one a second per kind, the next line counting those left out: a flood of refusals
//! or of health checks then costs a line a second, not a line a request, and the log still
//! says how many there were.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The kinds of line sampled; every other request gets its own line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A refusal of the client's request with this status, which the client may well repeat.
    Refused(u16),
    /// A health check answered.
    Health,
}

/// The refusals sampled: a client that repeats one gets the same answer each time.
const REFUSALS: [u16; 5] = [408, 413, 414, 429, 503];

impl Kind {
    /// The sampled kind of an answer to `route` with `status`, if it is one.
    pub fn of(route: &str, status: u16) -> Option<Kind> {
        if REFUSALS.contains(&status) {
            Some(Kind::Refused(status))
        } else if route == "/healthz" && status == 200 {
            Some(Kind::Health)
        } else {
            None
        }
    }

    fn slot(self) -> usize {
        match self {
            Kind::Refused(status) => REFUSALS.iter().position(|s| *s == status).unwrap_or(0),
            Kind::Health => REFUSALS.len(),
        }
    }
}

/// One kind's second last logged, and the lines left out since.
#[derive(Debug, Default)]
struct Slot {
    /// The second (since the sampler was made, plus one) of the last line logged; 0: none yet.
    logged: AtomicU64,
    left_out: AtomicU64,
}

/// Decides which sampled lines are written. Clones share the counts.
#[derive(Clone, Debug)]
pub struct Sampler {
    start: Instant,
    slots: Arc<[Slot; REFUSALS.len() + 1]>,
}

impl Default for Sampler {
    fn default() -> Self {
        Sampler {
            start: Instant::now(),
            slots: Arc::default(),
        }
    }
}

impl Sampler {
    /// Whether a line of `kind` is written now: `Some(n)` with the `n` lines of its kind left
    /// out since the last one written, or `None` to leave this one out.
    pub fn admit(&self, kind: Kind) -> Option<u64> {
        self.admit_at(kind, self.start.elapsed().as_secs())
    }

    /// [`Sampler::admit`] at second `now` since the sampler was made.
    pub fn admit_at(&self, kind: Kind, now: u64) -> Option<u64> {
        let slot = &self.slots[kind.slot()];
        let second = now + 1;
        let last = slot.logged.load(Ordering::Acquire);
        if last < second
            && slot
                .logged
                .compare_exchange(last, second, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            Some(slot.left_out.swap(0, Ordering::AcqRel))
        } else {
            slot.left_out.fetch_add(1, Ordering::AcqRel);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_a_second_per_kind_and_the_next_counts_those_left_out() {
        let sampler = Sampler::default();
        let busy = Kind::Refused(503);
        assert_eq!(sampler.admit_at(busy, 0), Some(0));
        assert_eq!(sampler.admit_at(busy, 0), None);
        assert_eq!(sampler.admit_at(busy, 0), None);
        assert_eq!(
            sampler.admit_at(Kind::Refused(429), 0),
            Some(0),
            "another kind has its own second"
        );
        assert_eq!(
            sampler.clone().admit_at(busy, 1),
            Some(2),
            "a clone shares the counts"
        );
        assert_eq!(sampler.admit_at(busy, 1), None);
        assert_eq!(sampler.admit_at(busy, 5), Some(1));
    }

    #[test]
    fn only_refusals_and_health_checks_are_sampled() {
        assert_eq!(
            Kind::of("/api/v1/games/{game}/new", 503),
            Some(Kind::Refused(503))
        );
        assert_eq!(Kind::of("/healthz", 200), Some(Kind::Health));
        assert_eq!(Kind::of("/api/v1/games/{game}/new", 200), None);
        assert_eq!(Kind::of("/api/v1/games/{game}/new", 422), None);
        assert_eq!(Kind::of("/api/v1/games/{game}/new", 500), None);
    }
}
