//! A circuit breaker for one receiver (host): after a run of failed deliveries the host is left
//! alone for a while, then tried with one delivery; a success closes the breaker, a failure
//! opens it again for twice as long (up to a cap). A dead receiver then costs a trial now and
//! then instead of a delivery slot for every one of its events, and its events keep their
//! attempts (they are not posted while the breaker is open, so not counted as tried).

use std::time::{Duration, Instant};

/// When a breaker opens and how long it stays open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakerLimits {
    /// Failures in a row that open it.
    pub failures: u32,
    /// The first wait before a trial; each failed trial doubles it…
    pub wait: Duration,
    /// …up to this.
    pub wait_cap: Duration,
}

/// Whether a host may be posted to now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admits {
    /// As many deliveries as its share allows.
    All,
    /// One delivery, the trial.
    Trial,
    /// None until this instant.
    NoneUntil(Instant),
}

/// One host's breaker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breaker {
    /// Failures since the last success.
    failures: u32,
    /// Set while open: when the next trial may go.
    open_until: Option<Instant>,
    /// The wait it last opened for (zero: never opened since the last success).
    last_wait: Duration,
    /// A trial is under way.
    trying: bool,
}

impl Breaker {
    /// What the host may take at `now`.
    pub fn admits(&self, now: Instant) -> Admits {
        match self.open_until {
            None => Admits::All,
            Some(until) if now < until => Admits::NoneUntil(until),
            Some(until) if self.trying => Admits::NoneUntil(until),
            Some(_) => Admits::Trial,
        }
    }

    /// Whether it is open (including while a trial is awaited or under way).
    pub fn is_open(&self) -> bool {
        self.open_until.is_some()
    }

    /// Whether it is as a host that never failed has it.
    pub fn is_clear(&self) -> bool {
        *self == Breaker::default()
    }

    /// A delivery starts at `now`; answers whether it is the trial.
    pub fn started(&mut self, now: Instant) -> bool {
        let trial = self.admits(now) == Admits::Trial;
        if trial {
            self.trying = true;
        }
        trial
    }

    /// A delivery started at the host was not posted after all (its URL refused): a trial
    /// that was not made leaves the next one free.
    pub fn not_posted(&mut self, trial: bool) {
        if trial {
            self.trying = false;
        }
    }

    /// A delivery to the host succeeded: closed.
    pub fn succeeded(&mut self) {
        *self = Breaker::default();
    }

    /// A delivery to the host failed at `now` (`trial`: it was the trial): opens the breaker
    /// after `limits.failures` in a row, and again, for twice as long, after a failed trial.
    /// Answers until when, if this failure opened it.
    pub fn failed(&mut self, trial: bool, now: Instant, limits: &BreakerLimits) -> Option<Instant> {
        self.failures = self.failures.saturating_add(1);
        if trial {
            self.trying = false;
            Some(self.open(now, (self.last_wait * 2).min(limits.wait_cap), limits))
        } else if self.open_until.is_none() && self.failures >= limits.failures.max(1) {
            Some(self.open(now, limits.wait, limits))
        } else {
            None
        }
    }

    fn open(&mut self, now: Instant, wait: Duration, limits: &BreakerLimits) -> Instant {
        let wait = wait.max(limits.wait).min(limits.wait_cap.max(limits.wait));
        self.last_wait = wait;
        let until = now + wait;
        self.open_until = Some(until);
        until
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: BreakerLimits = BreakerLimits {
        failures: 3,
        wait: Duration::from_secs(30),
        wait_cap: Duration::from_secs(100),
    };

    #[test]
    fn a_run_of_failures_opens_it_until_a_trial_closes_it() {
        let t0 = Instant::now();
        let mut breaker = Breaker::default();
        for _ in 0..2 {
            breaker.failed(false, t0, &LIMITS);
            assert_eq!(breaker.admits(t0), Admits::All, "not yet");
        }
        breaker.failed(false, t0, &LIMITS);
        let reopens = t0 + LIMITS.wait;
        assert_eq!(breaker.admits(t0), Admits::NoneUntil(reopens));
        assert!(breaker.is_open());
        assert_eq!(breaker.admits(reopens), Admits::Trial);
        assert!(breaker.started(reopens), "the trial");
        assert_eq!(
            breaker.admits(reopens),
            Admits::NoneUntil(reopens),
            "one trial at a time"
        );
        breaker.succeeded();
        assert_eq!(breaker.admits(reopens), Admits::All);
        assert!(breaker.is_clear());
    }

    #[test]
    fn a_failed_trial_doubles_the_wait_up_to_its_cap() {
        let mut now = Instant::now();
        let mut breaker = Breaker::default();
        for _ in 0..3 {
            breaker.failed(false, now, &LIMITS);
        }
        let mut waits = Vec::new();
        for _ in 0..4 {
            let Admits::NoneUntil(until) = breaker.admits(now) else {
                panic!("open")
            };
            waits.push((until - now).as_secs());
            now = until;
            assert!(breaker.started(now));
            breaker.failed(true, now, &LIMITS);
        }
        assert_eq!(waits, [30, 60, 100, 100]);
    }

    #[test]
    fn failures_of_deliveries_under_way_when_it_opened_do_not_extend_it() {
        let t0 = Instant::now();
        let mut breaker = Breaker::default();
        for _ in 0..3 {
            breaker.failed(false, t0, &LIMITS);
        }
        let later = t0 + Duration::from_secs(5);
        breaker.failed(false, later, &LIMITS);
        assert_eq!(breaker.admits(later), Admits::NoneUntil(t0 + LIMITS.wait));
    }

    #[test]
    fn a_success_between_failures_starts_the_count_again() {
        let t0 = Instant::now();
        let mut breaker = Breaker::default();
        breaker.failed(false, t0, &LIMITS);
        breaker.failed(false, t0, &LIMITS);
        breaker.succeeded();
        breaker.failed(false, t0, &LIMITS);
        breaker.failed(false, t0, &LIMITS);
        assert_eq!(breaker.admits(t0), Admits::All);
    }
}
