//! Repeated log lines of one kind (refusals: each 4xx status, and 503; `/healthz` answers) kept
//! to at most one a second per kind, the next line counting those left out: a flood of refusals
//! (a client looping an animation over its bound, a scanner's 404s) or of health checks then
//! costs a line a second, not a line a request, and the log still says how many there were.

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

/// The refusals sampled, a kind a status: the client's errors (a client that repeats one gets
/// the same answer each time) and the server's overload. A 500 is never sampled: each is a bug.
const CLIENT_ERRORS: std::ops::Range<u16> = 400..500;
const OVERLOADED: u16 = 503;

/// One slot a client error's status, one for overload, one for health checks.
const SLOTS: usize = CLIENT_ERRORS.end as usize - CLIENT_ERRORS.start as usize + 2;

impl Kind {
    /// The sampled kind of an answer to `route` with `status`, if it is one.
    pub fn of(route: &str, status: u16) -> Option<Kind> {
        if CLIENT_ERRORS.contains(&status) || status == OVERLOADED {
            Some(Kind::Refused(status))
        } else if route == "/healthz" && status == 200 {
            Some(Kind::Health)
        } else {
            None
        }
    }

    fn slot(self) -> usize {
        match self {
            Kind::Refused(status) if CLIENT_ERRORS.contains(&status) => {
                usize::from(status - CLIENT_ERRORS.start)
            }
            Kind::Refused(_) => SLOTS - 2,
            Kind::Health => SLOTS - 1,
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
    slots: Arc<[Slot]>,
}

impl Default for Sampler {
    fn default() -> Self {
        Sampler {
            start: Instant::now(),
            slots: (0..SLOTS).map(|_| Slot::default()).collect(),
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
        let route = "/api/v1/games/{game}/new";
        for status in [400, 404, 408, 413, 414, 422, 429, 499, 503] {
            assert_eq!(Kind::of(route, status), Some(Kind::Refused(status)));
        }
        assert_eq!(Kind::of("/healthz", 200), Some(Kind::Health));
        for status in [200, 303, 304, 500, 501, 502] {
            assert_eq!(Kind::of(route, status), None, "{status}");
        }
    }

    #[test]
    fn each_refused_status_and_health_has_a_slot_of_its_own() {
        let kinds = (400..500)
            .chain([503])
            .map(Kind::Refused)
            .chain([Kind::Health]);
        let slots: std::collections::BTreeSet<usize> = kinds.map(Kind::slot).collect();
        assert_eq!(slots, (0..SLOTS).collect());
    }
}
