//! The delivery worker: claims the outbox's due events, posts each to its URL, and records
//! whether it was delivered, is to be retried (and when), or is given up. Woken as soon as this
//! process commits an event, and every [`limits::POLL`] otherwise (retries that fall due,
//! other replicas' events), and when a delivery ends (its table's next event may go).
//! Deliveries run at most [`WebhookLimits::concurrency`] at once, each bounded by
//! [`WebhookLimits::timeout`], and at most [`WebhookLimits::per_host`] at once to one receiver
//! (a URL's host and port), whose circuit breaker may hold its events back a while
//! ([`super::hosts`]). Claims take each receiver's share of due events, receivers in turn, so a
//! slow or dead receiver delays only its own tables' events.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::Rng;
use reqwest::header::CONTENT_TYPE;
use tokio::sync::{Notify, Semaphore};
use tokio_util::sync::CancellationToken;

use super::breaker::BreakerLimits;
use super::hosts::{Hosts, NotNow, Outcome};
use super::{signature, target};
use crate::limits::webhooks as limits;
use crate::tables::outbox::ReceiverBacklog;
use crate::tables::{self, Claimed, HostShares, Millis, Tables};

/// What deliveries may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WebhookLimits {
    /// Deliveries at once…
    pub concurrency: usize,
    /// …and to one receiver (a URL's host and port).
    pub per_host: usize,
    /// Failed deliveries in a row that open a receiver's circuit breaker.
    pub breaker_failures: u32,
    /// How long a breaker stays open before its trial, doubled at each failed trial…
    pub breaker_wait: Duration,
    /// …up to this.
    pub breaker_wait_cap: Duration,
    /// The longest one delivery may take.
    pub timeout: Duration,
    /// The wait before the first retry, doubled at each retry…
    pub retry_base: Duration,
    /// …up to this.
    pub retry_cap: Duration,
    /// How long an event is retried before it is given up.
    pub give_up_after: Duration,
    /// How long a claimed event is left to this process.
    pub lease: Duration,
    /// Post to loopback and private addresses too (`--allow-private-webhooks`).
    pub allow_private: bool,
}

impl Default for WebhookLimits {
    fn default() -> Self {
        WebhookLimits {
            concurrency: limits::CONCURRENCY,
            per_host: limits::PER_HOST,
            breaker_failures: limits::BREAKER_FAILURES,
            breaker_wait: limits::BREAKER_WAIT,
            breaker_wait_cap: limits::BREAKER_WAIT_CAP,
            timeout: limits::TIMEOUT,
            retry_base: limits::RETRY_BASE,
            retry_cap: limits::RETRY_CAP,
            give_up_after: limits::GIVE_UP_AFTER,
            lease: limits::LEASE,
            allow_private: false,
        }
    }
}

impl WebhookLimits {
    /// When an event committed at `created` is tried again after its `attempts`-th attempt
    /// failed at `now`: the base wait doubled at each attempt, capped, with ±20 % jitter (so
    /// that a receiver back from an outage is not hit by every retry at once); `None` once the
    /// next attempt would come later than the event may be retried.
    pub fn retry_at(&self, attempts: u32, created: Millis, now: Millis) -> Option<Millis> {
        let doubled = self
            .retry_base
            .saturating_mul(1u32 << attempts.saturating_sub(1).min(30))
            .min(self.retry_cap);
        let wait = doubled.mul_f64(rand::rng().random_range(0.8..1.2));
        let at = now + wait.as_millis() as Millis;
        (at - created <= self.give_up_after.as_millis() as Millis).then_some(at)
    }
}

/// Deliveries since the start, and the outbox's backlog when last looked at: for `/metrics`.
#[derive(Debug, Default)]
pub struct DeliveryCounts {
    /// Attempts the receiver took.
    pub delivered: AtomicU64,
    /// Attempts that failed and will be retried.
    pub retried: AtomicU64,
    /// Events given up.
    pub given_up: AtomicU64,
    /// Events not yet delivered nor given up.
    pub pending: AtomicU64,
    /// When the oldest of them was committed (0: none).
    pub oldest_pending: AtomicI64,
    /// The same by receiver, the largest backlogs first (a few dozen at most).
    pub receivers: Mutex<Vec<ReceiverBacklog>>,
    /// Receivers whose circuit breaker is open in this process.
    pub breakers_open: AtomicU64,
}

/// The delivery worker of one server process.
#[derive(Clone, Debug)]
pub struct Deliveries {
    tables: Tables,
    limits: WebhookLimits,
    client: reqwest::Client,
    permits: Arc<Semaphore>,
    /// Deliveries under way and breakers, by receiver.
    hosts: Arc<Hosts>,
    /// Rung when a delivery ends.
    ended: Arc<Notify>,
    counts: Arc<DeliveryCounts>,
}

impl Deliveries {
    /// A worker delivering the events of `tables` under `limits`.
    pub fn new(tables: Tables, limits: WebhookLimits) -> Result<Deliveries, reqwest::Error> {
        // A redirect is an answer like any other that is not 2xx.
        let client = target::client(
            limits.timeout,
            limits.allow_private,
            concat!("Moot-Webhooks/", env!("CARGO_PKG_VERSION")),
        )?;
        Ok(Deliveries {
            tables,
            limits,
            client,
            permits: Arc::new(Semaphore::new(limits.concurrency.max(1))),
            hosts: Arc::new(Hosts::new(
                limits.per_host,
                BreakerLimits {
                    failures: limits.breaker_failures,
                    wait: limits.breaker_wait,
                    wait_cap: limits.breaker_wait_cap,
                },
            )),
            ended: Arc::default(),
            counts: Arc::default(),
        })
    }

    /// The counts, shared with the worker.
    pub fn counts(&self) -> Arc<DeliveryCounts> {
        self.counts.clone()
    }

    /// Delivers until `stop` is cancelled (spawned on the server's runtime), then waits for
    /// the deliveries under way to end (each bounded by its timeout) and claims no more: the
    /// worker stops between deliveries, and an event claimed is recorded, not left to its
    /// lease.
    pub async fn run(self, stop: CancellationToken) {
        tokio::select! {
            () = stop.cancelled() => {}
            () = self.deliver_forever() => {}
            () = self.watch_backlog() => {}
        }
        let all = u32::try_from(self.limits.concurrency.max(1)).unwrap_or(u32::MAX);
        let ended = tokio::time::timeout(
            self.limits.timeout + Duration::from_secs(5),
            self.permits.acquire_many(all),
        )
        .await;
        if ended.is_err() {
            tracing::warn!(
                "webhook deliveries still under way at the stop are left to their lease"
            );
        }
    }

    /// Claims and delivers events, for ever.
    async fn deliver_forever(&self) {
        match self.tables.fill_event_hosts().await {
            Ok(0) => {}
            Ok(filled) => tracing::info!(filled, "webhook events were given their receiver"),
            Err(error) => tracing::warn!(%error, "cannot give webhook events their receiver"),
        }
        match self.tables.adopt_waiting_events().await {
            Ok(0) => {}
            Ok(adopted) => tracing::info!(
                adopted,
                "webhook chains written by an older server were given their head"
            ),
            Err(error) => tracing::warn!(%error, "cannot give webhook chains their head"),
        }
        loop {
            let free = self.permits.available_permits();
            if free == 0 {
                // Wait for a delivery to end before claiming more.
                drop(self.permits.acquire().await);
                continue;
            }
            let shares = HostShares {
                per_host: self.hosts.per_host(),
                fewer: self.hosts.fewer(std::time::Instant::now()),
            };
            let claimed = self
                .tables
                .claim_events(
                    tables::now(),
                    self.limits.lease.as_millis() as Millis,
                    free,
                    &shares,
                )
                .await;
            match claimed {
                Ok(events) if !events.is_empty() => {
                    self.start(events).await;
                    continue;
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "cannot claim webhook events"),
            }
            tokio::select! {
                _ = self.tables.event_committed() => {}
                _ = self.ended.notified() => {}
                _ = tokio::time::sleep(limits::POLL) => {}
            }
        }
    }

    /// Starts delivering `events`, each with a permit and a place in its receiver's share; puts
    /// back those whose receiver has no room (its breaker opened since the claim).
    async fn start(&self, events: Vec<Claimed>) {
        for event in events {
            let Ok(permit) = self.permits.clone().acquire_owned().await else {
                return;
            };
            let started = match self.hosts.start(&event.host, std::time::Instant::now()) {
                Ok(started) => started,
                Err(not_now) => {
                    drop(permit);
                    self.put_back(&event, not_now).await;
                    continue;
                }
            };
            let worker = self.clone();
            tokio::spawn(async move {
                let (posted, outcome) = worker.attempt(&event).await;
                // The receiver's place is free once the post has ended: recording it is the
                // outbox's work, not the receiver's, and its next event may go meanwhile.
                let opened =
                    worker
                        .hosts
                        .ended(&event.host, started, outcome, std::time::Instant::now());
                worker.ended.notify_one();
                worker.record(&event, posted).await;
                if let Some(until) = opened {
                    worker.hold(&event.host, until).await;
                }
                worker
                    .counts
                    .breakers_open
                    .store(worker.hosts.open() as u64, Ordering::Relaxed);
                drop(permit);
                worker.ended.notify_one();
            });
        }
    }

    /// Holds back the due events of `host`, whose breaker just opened, until `until`: they are
    /// not scanned at every claim meanwhile (their attempts stay as they are).
    async fn hold(&self, host: &str, until: std::time::Instant) {
        let wait = until.saturating_duration_since(std::time::Instant::now());
        tracing::info!(
            host,
            wait_ms = wait.as_millis() as u64,
            "a webhook receiver failed in a row: left alone until a trial"
        );
        if let Err(error) = self.tables.hold_receiver(host, millis_at(until)).await {
            // Its events stay due; claims pass them over while the breaker is open.
            tracing::warn!(%error, "cannot hold back a webhook receiver's events");
        }
    }

    /// Puts back `event`, claimed but not started: due again when its receiver may take it, its
    /// attempt not counted (a breaker never brings an event closer to being given up).
    async fn put_back(&self, event: &Claimed, not_now: NotNow) {
        let now = tables::now();
        let at = match not_now {
            NotNow::Full => now,
            NotNow::OpenUntil(until) => millis_at(until),
        };
        if let Err(error) = self.tables.event_released(event, at).await {
            // The lease runs out and the event is claimed again, its attempt counted.
            tracing::warn!(event = %event.event_id, %error, "cannot put back a webhook event");
        }
    }

    /// One attempt to deliver `event`: whether the receiver took it (or why not), and how it
    /// went for the receiver.
    async fn attempt(&self, event: &Claimed) -> (Result<(), String>, Outcome) {
        match target::check(&event.url, self.limits.allow_private) {
            Ok(url) => {
                let posted = self.post(url, event).await;
                let how = if posted.is_ok() {
                    Outcome::Taken
                } else {
                    Outcome::Failed
                };
                (posted, how)
            }
            Err(refused) => (
                Err(format!("the URL is refused: {refused}")),
                Outcome::NotPosted,
            ),
        }
    }

    /// Records how the attempt to deliver `event` went: delivered (its chain's next event
    /// becomes due), to be retried, or given up.
    async fn record(&self, event: &Claimed, outcome: Result<(), String>) {
        let now = tables::now();
        let recorded = match outcome {
            Ok(()) => {
                self.counts.delivered.fetch_add(1, Ordering::Relaxed);
                self.tables.event_delivered(event, now).await
            }
            Err(error) => {
                let retry_at = self.limits.retry_at(event.attempts, event.created, now);
                if retry_at.is_some() {
                    self.counts.retried.fetch_add(1, Ordering::Relaxed);
                    tracing::info!(event = %event.event_id, attempts = event.attempts, %error, "a webhook delivery failed; it will be retried");
                } else {
                    self.counts.given_up.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(event = %event.event_id, attempts = event.attempts, %error, "a webhook event is given up");
                }
                self.tables.event_failed(event, &error, retry_at, now).await
            }
        };
        if let Err(error) = recorded {
            // The lease runs out and the event is claimed again: delivered twice at worst.
            tracing::warn!(event = %event.event_id, %error, "cannot record a webhook delivery");
        }
    }

    /// Posts `event` to `url`, signed; `Err` says why it was not taken.
    async fn post(&self, url: reqwest::Url, event: &Claimed) -> Result<(), String> {
        let timestamp = tables::now() / 1000;
        let response = self
            .client
            .post(url)
            .header(CONTENT_TYPE, "application/json")
            .header(
                signature::HEADER,
                signature::sign(&event.secret, timestamp, &event.body),
            )
            // A site's copy is sent as the event it copies: receivers deduplicate by it.
            .header("Moot-Event-Id", event.sent_id())
            .header("Moot-Event", &event.kind)
            .body(event.body.clone())
            .send()
            .await
            .map_err(|e| self.describe(e))?;
        let status = response.status();
        if status.is_success() {
            Ok(())
        } else {
            Err(format!("the receiver answered {status}"))
        }
    }

    /// Why a request failed, in words a table's reader may see (never the URL).
    fn describe(&self, error: reqwest::Error) -> String {
        if error.is_timeout() {
            return format!("no answer within {} s", self.limits.timeout.as_secs_f64());
        }
        let what = if error.is_connect() {
            "cannot connect"
        } else {
            "the request failed"
        };
        let mut causes = Vec::new();
        let mut source = std::error::Error::source(&error);
        while let Some(cause) = source {
            causes.push(cause.to_string());
            source = cause.source();
        }
        match causes.last() {
            Some(cause) => format!("{what}: {cause}"),
            None => what.to_owned(),
        }
    }

    /// Counts the outbox's backlog for `/metrics` every [`limits::GAUGE_EVERY`], whatever the
    /// deliveries are doing: the gauges are never older than that (read from the index of
    /// pending events, on a reading connection).
    async fn watch_backlog(&self) {
        let mut every = tokio::time::interval(limits::GAUGE_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            match self.tables.backlog().await {
                Ok(backlog) => {
                    self.counts
                        .pending
                        .store(backlog.pending, Ordering::Relaxed);
                    self.counts
                        .oldest_pending
                        .store(backlog.oldest.unwrap_or(0), Ordering::Relaxed);
                    *self
                        .counts
                        .receivers
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = backlog.receivers;
                }
                Err(error) => tracing::warn!(%error, "cannot read the webhook outbox"),
            }
        }
    }
}

/// The outbox's clock (milliseconds since the epoch) at the instant `at`.
fn millis_at(at: std::time::Instant) -> Millis {
    let wait = at.saturating_duration_since(std::time::Instant::now());
    tables::now() + wait.as_millis() as Millis
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_double_with_jitter_and_stop_after_a_day() {
        let limits = WebhookLimits::default();
        let created = 1_000_000;
        for attempts in 1..=8 {
            let wait = limits.retry_at(attempts, created, created).unwrap() - created;
            let doubled = 1000 * (1 << (attempts - 1));
            assert!(
                (doubled * 8 / 10..=doubled * 12 / 10).contains(&wait),
                "attempt {attempts}: {wait} ms"
            );
        }
        let capped = limits.retry_at(30, created, created).unwrap() - created;
        assert!(
            capped <= 72 * 60 * 1000,
            "capped at an hour, ±20 %: {capped}"
        );
        let day = 24 * 60 * 60 * 1000;
        assert_eq!(limits.retry_at(30, created, created + day), None);
    }
}
