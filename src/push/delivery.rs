//! The push worker: claims the push outbox's due pushes ([`crate::tables::push`]), seals each
//! for its browser and posts it to its push service, and records how it went. Woken as soon as
//! this process commits a push, and every [`limits::POLL`] otherwise (retries that fall due,
//! other replicas' pushes). At most [`PushLimits::concurrency`] posts at once, each bounded by
//! [`PushLimits::timeout`]; each claim is leased, so that two replicas never post one push
//! twice while both live.
//!
//! How an answer ends a push: 2xx delivered it; 404 or 410 say the browser dropped the
//! subscription, which is deleted with its waiting pushes; 429, 5xx and no answer are retried
//! with exponential backoff and jitter (429's `Retry-After` respected), for a day; any other
//! status (a malformed push, a key the service does not take) is given up at once, since the
//! same push would be refused again.

use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, CONTENT_ENCODING, CONTENT_TYPE, RETRY_AFTER};
use tokio::sync::{Notify, Semaphore};
use tokio_util::sync::CancellationToken;

use super::message::{self, Sealed};
use super::vapid::Vapid;
use crate::limits::push as limits;
use crate::tables::push::ClaimedPush;
use crate::tables::{self, Millis, Tables};
use crate::webhooks::{WebhookLimits, target};

/// What pushes may take, and who the server says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushLimits {
    /// Posts at once.
    pub concurrency: usize,
    /// The longest one post may take.
    pub timeout: Duration,
    /// The wait before the first retry, doubled at each retry…
    pub retry_base: Duration,
    /// …up to this.
    pub retry_cap: Duration,
    /// How long a push is retried before it is given up.
    pub give_up_after: Duration,
    /// How long a claimed push is left to this process.
    pub lease: Duration,
    /// How long the push service keeps a push for an offline browser (`TTL`).
    pub ttl: Duration,
    /// How long each VAPID JWT is valid (at most a day).
    pub jwt_valid: Duration,
    /// VAPID's `sub`: how a push service's operators reach the server's (`--push-contact`).
    pub contact: String,
    /// Post to loopback and private addresses, over plain HTTP too (`--allow-private-webhooks`).
    pub allow_private: bool,
}

impl Default for PushLimits {
    fn default() -> Self {
        PushLimits {
            concurrency: limits::CONCURRENCY,
            timeout: limits::TIMEOUT,
            retry_base: limits::RETRY_BASE,
            retry_cap: limits::RETRY_CAP,
            give_up_after: limits::GIVE_UP_AFTER,
            lease: limits::LEASE,
            ttl: limits::TTL,
            jwt_valid: limits::JWT_VALID,
            contact: super::DEFAULT_CONTACT.to_owned(),
            allow_private: false,
        }
    }
}

impl PushLimits {
    /// When a push written at `created` is tried again after its `attempts`-th attempt failed
    /// at `now`: as a webhook event would be (doubling waits, capped, ±20 % jitter), not
    /// before `not_before` (a 429's `Retry-After`); `None` once that is past the push's time.
    pub fn retry_at(
        &self,
        attempts: u32,
        created: Millis,
        now: Millis,
        not_before: Option<Millis>,
    ) -> Option<Millis> {
        let backoff = WebhookLimits {
            retry_base: self.retry_base,
            retry_cap: self.retry_cap,
            give_up_after: self.give_up_after,
            ..WebhookLimits::default()
        };
        let at = backoff.retry_at(attempts, created, now)?;
        let at = at.max(not_before.unwrap_or(at));
        (at - created <= self.give_up_after.as_millis() as Millis).then_some(at)
    }
}

/// How a push service answered one post.
#[derive(Debug)]
enum Answer {
    /// 2xx: delivered.
    Taken,
    /// 404 or 410: the subscription is gone.
    Gone(StatusCode),
    /// Worth another try, not before the time given, if any.
    Retry(String, Option<Millis>),
    /// Would be refused again.
    Refused(String),
}

/// The push worker of one server process.
#[derive(Clone, Debug)]
pub struct Pushes {
    tables: Tables,
    limits: Arc<PushLimits>,
    client: reqwest::Client,
    permits: Arc<Semaphore>,
    /// Rung when a post ends.
    ended: Arc<Notify>,
}

impl Pushes {
    /// A worker posting the pushes of `tables` under `limits`.
    pub fn new(tables: Tables, limits: PushLimits) -> Result<Pushes, reqwest::Error> {
        let client = target::client(
            limits.timeout,
            limits.allow_private,
            concat!("Moot-Push/", env!("CARGO_PKG_VERSION")),
        )?;
        Ok(Pushes {
            tables,
            permits: Arc::new(Semaphore::new(limits.concurrency.max(1))),
            limits: Arc::new(limits),
            client,
            ended: Arc::default(),
        })
    }

    /// Posts until `stop` is cancelled (spawned on the server's runtime), then waits for the
    /// posts under way to end and claims no more: a push claimed is recorded, not left to its
    /// lease.
    pub async fn run(self, stop: CancellationToken) {
        tokio::select! {
            () = stop.cancelled() => {}
            () = self.post_forever() => {}
        }
        let all = u32::try_from(self.limits.concurrency.max(1)).unwrap_or(u32::MAX);
        let ended = tokio::time::timeout(
            self.limits.timeout + Duration::from_secs(5),
            self.permits.acquire_many(all),
        )
        .await;
        if ended.is_err() {
            tracing::warn!("pushes still under way at the stop are left to their lease");
        }
    }

    /// The server's VAPID key, waited for while the database cannot give it.
    async fn vapid(&self) -> Arc<Vapid> {
        loop {
            match self.tables.push_key(tables::now()).await {
                Ok(private) => match Vapid::from_private(&private) {
                    Ok(vapid) => return Arc::new(vapid),
                    // A database edited by hand: nothing to push with until it is mended.
                    Err(error) => tracing::error!(%error, "pushes wait for a usable VAPID key"),
                },
                Err(error) => tracing::warn!(%error, "pushes wait for the VAPID key"),
            }
            tokio::time::sleep(limits::POLL).await;
        }
    }

    /// Claims and posts pushes, for ever.
    async fn post_forever(&self) {
        let vapid = self.vapid().await;
        loop {
            let free = self.permits.available_permits();
            if free == 0 {
                drop(self.permits.acquire().await);
                continue;
            }
            let claimed = self
                .tables
                .claim_pushes(tables::now(), self.limits.lease.as_millis() as Millis, free)
                .await;
            match claimed {
                Ok(pushes) if !pushes.is_empty() => {
                    self.start(pushes, &vapid).await;
                    continue;
                }
                Ok(_) => {}
                Err(error) => tracing::warn!(%error, "cannot claim pushes"),
            }
            tokio::select! {
                () = self.tables.push_committed() => {}
                () = self.ended.notified() => {}
                () = tokio::time::sleep(limits::POLL) => {}
            }
        }
    }

    /// Starts posting `pushes`, each with a permit.
    async fn start(&self, pushes: Vec<ClaimedPush>, vapid: &Arc<Vapid>) {
        for push in pushes {
            let Ok(permit) = self.permits.clone().acquire_owned().await else {
                return;
            };
            let worker = self.clone();
            let vapid = vapid.clone();
            tokio::spawn(async move {
                worker.attempt(&push, &vapid).await;
                drop(permit);
                worker.ended.notify_one();
            });
        }
    }

    /// One attempt to post `push`, recorded.
    async fn attempt(&self, push: &ClaimedPush, vapid: &Vapid) {
        let answer = match target::check(&push.endpoint, self.limits.allow_private) {
            Ok(endpoint) => {
                match message::seal(
                    push,
                    &endpoint,
                    vapid,
                    &self.limits.contact,
                    self.limits.jwt_valid,
                ) {
                    Ok(sealed) => self.post(endpoint, sealed).await,
                    Err(error) => Answer::Refused(error),
                }
            }
            Err(refused) => Answer::Refused(format!("the endpoint is refused: {refused}")),
        };
        let now = tables::now();
        let recorded = match answer {
            Answer::Taken => self.tables.push_delivered(push, now).await,
            Answer::Gone(status) => {
                tracing::info!(push = %push.id, %status, "a push subscription is gone; deleted");
                self.tables.push_gone(push, now).await
            }
            Answer::Retry(error, not_before) => {
                let retry_at = self
                    .limits
                    .retry_at(push.attempts, push.created, now, not_before);
                match retry_at {
                    Some(_) => {
                        tracing::info!(push = %push.id, attempts = push.attempts, %error, "a push failed; it will be retried")
                    }
                    None => {
                        tracing::warn!(push = %push.id, attempts = push.attempts, %error, "a push is given up")
                    }
                }
                self.tables.push_failed(push, &error, retry_at, now).await
            }
            Answer::Refused(error) => {
                tracing::warn!(push = %push.id, %error, "a push is given up: it would be refused again");
                self.tables.push_failed(push, &error, None, now).await
            }
        };
        if let Err(error) = recorded {
            // The lease runs out and the push is claimed again: posted twice at worst.
            tracing::warn!(push = %push.id, %error, "cannot record a push");
        }
    }

    /// Posts `sealed` to `endpoint`; answers how the push service took it.
    async fn post(&self, endpoint: reqwest::Url, sealed: Sealed) -> Answer {
        let mut request = self
            .client
            .post(endpoint)
            .header(CONTENT_TYPE, "application/octet-stream")
            .header(CONTENT_ENCODING, "aes128gcm")
            .header("TTL", self.limits.ttl.as_secs().to_string())
            .header("Urgency", "normal")
            .header(AUTHORIZATION, sealed.authorization);
        if let Some(topic) = sealed.topic {
            request = request.header("Topic", topic);
        }
        let sent = request.body(sealed.body).send().await;
        let response = match sent {
            Ok(response) => response,
            Err(error) => return Answer::Retry(self.describe(error), None),
        };
        let status = response.status();
        let said = format!("the push service answered {status}");
        match status.as_u16() {
            200..=299 => Answer::Taken,
            404 | 410 => Answer::Gone(status),
            429 => {
                let wait = response
                    .headers()
                    .get(RETRY_AFTER)
                    .and_then(|value| value.to_str().ok())
                    .and_then(|text| text.trim().parse::<u64>().ok());
                let not_before = wait.map(|seconds| {
                    tables::now().saturating_add((seconds.min(86_400) * 1000) as Millis)
                });
                Answer::Retry(said, not_before)
            }
            500..=599 => Answer::Retry(said, None),
            _ => Answer::Refused(said),
        }
    }

    /// Why a request failed, in words for the log (never the endpoint: a capability).
    fn describe(&self, error: reqwest::Error) -> String {
        if error.is_timeout() {
            return format!("no answer within {} s", self.limits.timeout.as_secs_f64());
        }
        let what = if error.is_connect() {
            "cannot connect"
        } else {
            "the request failed"
        };
        let mut last = None;
        let mut source = std::error::Error::source(&error);
        while let Some(cause) = source {
            last = Some(cause.to_string());
            source = cause.source();
        }
        match last {
            Some(cause) => format!("{what}: {cause}"),
            None => what.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_waits_for_retry_after_and_never_past_a_day() {
        let limits = PushLimits::default();
        let created = 1_000_000;
        let soon = limits.retry_at(1, created, created, None).unwrap() - created;
        assert!((800..=1200).contains(&soon), "{soon} ms");
        let later = created + 120_000;
        assert_eq!(
            limits.retry_at(1, created, created, Some(later)),
            Some(later)
        );
        let day = 24 * 60 * 60 * 1000;
        assert_eq!(limits.retry_at(1, created, created + day, None), None);
        assert_eq!(
            limits.retry_at(1, created, created, Some(created + day + 1)),
            None
        );
    }
}
