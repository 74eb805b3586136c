//! The receivers (hosts) this process delivers to: how many deliveries each has under way
//! (at most its share, [`WebhookLimits::per_host`](super::WebhookLimits::per_host)), and its
//! circuit breaker ([`super::breaker`]). A slow receiver then holds a couple of delivery slots,
//! not all of them, and a dead one is left alone between trials.
//!
//! This is the state of one process: replicas sharing an outbox each keep their own, so each of
//! them finds a dead receiver dead after its own run of failures, and each may make a trial.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::breaker::{Admits, Breaker, BreakerLimits};

/// The most receivers a claim is told about (2 values each, bound in its query): those with
/// deliveries under way come first (never more than the deliveries at once); the events of
/// open-breaker receivers past these are claimed and put back at once, without their attempt.
const MOST_LISTED: usize = 1000;

/// How long a receiver that failed, without opening its breaker, is remembered with no
/// delivery to it.
const FORGET_AFTER: Duration = Duration::from_secs(60 * 60);

/// How a delivery to a receiver went, as its breaker counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A 2xx answer.
    Taken,
    /// Another answer, no answer in time, no connection.
    Failed,
    /// Not posted (the URL was refused before any connection): not the receiver's doing.
    NotPosted,
}

/// A delivery started to a receiver, to be ended with [`Hosts::ended`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Started {
    /// It is the trial of an open breaker.
    pub trial: bool,
}

/// Why a claimed event was not started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotNow {
    /// Its receiver has its share under way: it may go as soon as one ends.
    Full,
    /// Its receiver's breaker is open until then.
    OpenUntil(Instant),
}

#[derive(Debug)]
struct Host {
    under_way: usize,
    breaker: Breaker,
    last_ended: Instant,
}

/// The receivers of one process's deliveries.
#[derive(Debug)]
pub struct Hosts {
    per_host: usize,
    breaker: BreakerLimits,
    hosts: Mutex<HashMap<String, Host>>,
}

impl Hosts {
    /// Receivers taking at most `per_host` deliveries at once each, their breakers under
    /// `breaker`.
    pub fn new(per_host: usize, breaker: BreakerLimits) -> Hosts {
        Hosts {
            per_host: per_host.max(1),
            breaker,
            hosts: Mutex::default(),
        }
    }

    /// A receiver's share when nothing is under way.
    pub fn per_host(&self) -> usize {
        self.per_host
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Host>> {
        // A panic while the lock was held left counts, not broken invariants: go on with them.
        self.hosts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn room(&self, host: &Host, now: Instant) -> usize {
        let free = self.per_host.saturating_sub(host.under_way);
        match host.breaker.admits(now) {
            Admits::All => free,
            Admits::Trial => free.min(1),
            Admits::NoneUntil(_) => 0,
        }
    }

    /// The receivers that may take fewer than their share now, with what each may take: what a
    /// claim is told. Forgets the receivers there is nothing left to remember of.
    pub fn fewer(&self, now: Instant) -> Vec<(String, usize)> {
        let mut hosts = self.lock();
        hosts.retain(|_, host| {
            host.under_way > 0
                || host.breaker.is_open()
                || (!host.breaker.is_clear()
                    && now.saturating_duration_since(host.last_ended) < FORGET_AFTER)
        });
        let mut fewer: Vec<(String, usize, usize)> = hosts
            .iter()
            .map(|(name, host)| (name.clone(), self.room(host, now), host.under_way))
            .filter(|(_, room, _)| *room < self.per_host)
            .collect();
        fewer.sort_by_key(|(_, _, under_way)| std::cmp::Reverse(*under_way));
        fewer.truncate(MOST_LISTED);
        fewer
            .into_iter()
            .map(|(name, room, _)| (name, room))
            .collect()
    }

    /// Starts a delivery to `host` at `now` if it has room.
    pub fn start(&self, host: &str, now: Instant) -> Result<Started, NotNow> {
        let mut hosts = self.lock();
        let entry = hosts.entry(host.to_owned()).or_insert_with(|| Host {
            under_way: 0,
            breaker: Breaker::default(),
            last_ended: now,
        });
        if self.room(entry, now) == 0 {
            return Err(match entry.breaker.admits(now) {
                Admits::NoneUntil(until) => NotNow::OpenUntil(until),
                Admits::All | Admits::Trial => NotNow::Full,
            });
        }
        entry.under_way += 1;
        Ok(Started {
            trial: entry.breaker.started(now),
        })
    }

    /// A delivery to `host` ended at `now` with `outcome`; answers until when its breaker is
    /// open, if this ending opened it.
    pub fn ended(
        &self,
        host: &str,
        started: Started,
        outcome: Outcome,
        now: Instant,
    ) -> Option<Instant> {
        let mut hosts = self.lock();
        let entry = hosts.get_mut(host)?;
        entry.under_way = entry.under_way.saturating_sub(1);
        entry.last_ended = now;
        let opened = match outcome {
            Outcome::Taken => {
                entry.breaker.succeeded();
                None
            }
            Outcome::Failed => entry.breaker.failed(started.trial, now, &self.breaker),
            Outcome::NotPosted => {
                entry.breaker.not_posted(started.trial);
                None
            }
        };
        if entry.under_way == 0 && entry.breaker.is_clear() {
            hosts.remove(host);
        }
        opened
    }

    /// How many receivers' breakers are open.
    pub fn open(&self) -> usize {
        self.lock()
            .values()
            .filter(|host| host.breaker.is_open())
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BREAKER: BreakerLimits = BreakerLimits {
        failures: 2,
        wait: Duration::from_secs(10),
        wait_cap: Duration::from_secs(60),
    };

    #[test]
    fn a_receiver_takes_its_share_and_no_more() {
        let hosts = Hosts::new(2, BREAKER);
        let now = Instant::now();
        let first = hosts.start("slow:80", now).unwrap();
        hosts.start("slow:80", now).unwrap();
        assert_eq!(hosts.start("slow:80", now), Err(NotNow::Full));
        assert!(hosts.start("quick:80", now).is_ok(), "another has its own");
        let mut fewer = hosts.fewer(now);
        fewer.sort();
        assert_eq!(
            fewer,
            [("quick:80".to_owned(), 1), ("slow:80".to_owned(), 0)]
        );
        hosts.ended("slow:80", first, Outcome::Taken, now);
        assert!(hosts.start("slow:80", now).is_ok());
    }

    #[test]
    fn an_open_breaker_admits_nothing_until_its_trial() {
        let hosts = Hosts::new(2, BREAKER);
        let now = Instant::now();
        let first = hosts.start("dead:80", now).unwrap();
        assert_eq!(hosts.ended("dead:80", first, Outcome::Failed, now), None);
        let second = hosts.start("dead:80", now).unwrap();
        assert_eq!(
            hosts.ended("dead:80", second, Outcome::Failed, now),
            Some(now + BREAKER.wait),
            "opened by the second failure in a row"
        );
        assert_eq!(hosts.open(), 1);
        assert_eq!(
            hosts.start("dead:80", now),
            Err(NotNow::OpenUntil(now + BREAKER.wait))
        );
        assert_eq!(hosts.fewer(now), [("dead:80".to_owned(), 0)]);
        let later = now + BREAKER.wait;
        assert_eq!(hosts.fewer(later), [("dead:80".to_owned(), 1)], "a trial");
        let trial = hosts.start("dead:80", later).unwrap();
        assert!(trial.trial);
        assert!(hosts.start("dead:80", later).is_err(), "one trial");
        hosts.ended("dead:80", trial, Outcome::Taken, later);
        assert_eq!(hosts.open(), 0);
        assert!(hosts.fewer(later).is_empty(), "forgotten once healthy");
    }

    #[test]
    fn a_refused_url_does_not_count_against_its_receiver() {
        let hosts = Hosts::new(2, BREAKER);
        let now = Instant::now();
        for _ in 0..5 {
            let started = hosts.start("h:80", now).unwrap();
            hosts.ended("h:80", started, Outcome::NotPosted, now);
        }
        assert_eq!(hosts.open(), 0);
    }
}
