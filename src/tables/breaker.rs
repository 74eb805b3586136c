//! A breaker on PostgreSQL's connections. While the server cannot be reached, every request
//! that needs it would wait for a connection the whole `--database-wait-ms` before its 503;
//! a proxy that gives up sooner sees timeouts instead of refusals. So one probe, on a
//! connection of its own, pings the database every [`PROBE_EVERY`]: once a probe fails the
//! breaker opens and requests are refused at once (503 `storage_unavailable`), and the first
//! probe that succeeds closes it. The probe, not a request, decides: a pool whose connections
//! are all busy under load is not a database that is down.
//!
//! An SQLite file has no server to lose: its breaker is never probed and stays closed.

use std::sync::Mutex;
use std::time::Duration;

use sqlx::postgres::PgPoolOptions;
use tokio_util::sync::CancellationToken;

use super::{Backend, TableError, Tables};

/// How often the database is pinged.
pub const PROBE_EVERY: Duration = Duration::from_secs(1);

/// Whether the database is known to be down, and why.
#[derive(Debug, Default)]
pub struct Breaker {
    open: Mutex<Option<String>>,
}

impl Breaker {
    /// `Err` at once while the database is known to be down.
    pub fn check(&self) -> Result<(), TableError> {
        match &*self.open.lock().unwrap_or_else(|e| e.into_inner()) {
            None => Ok(()),
            Some(why) => Err(TableError::DatabaseDown(why.clone())),
        }
    }

    /// Whether requests are refused at once now.
    pub fn is_open(&self) -> bool {
        self.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// A probe failed for `why`: requests are refused from now on.
    fn trip(&self, why: String) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.is_none() {
            tracing::error!(error = %why, "the database cannot be reached; requests that need it are refused at once with 503 storage_unavailable until a probe reaches it");
        }
        *open = Some(why);
    }

    /// A probe reached the database: requests may use it again.
    fn reset(&self) {
        if self
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .is_some()
        {
            tracing::warn!("the database can be reached again");
        }
    }
}

impl Tables {
    /// Until `stop`: pings the PostgreSQL database at `url` every [`PROBE_EVERY`], giving each
    /// ping the wait a request is given, and opens or closes the store's breaker on what it
    /// finds. Spawned on the server's runtime; returns at once on SQLite.
    pub async fn watch_database(self, url: String, stop: CancellationToken) {
        if self.store.backend != Backend::Postgres {
            return;
        }
        let wait = self.store.wait;
        // A pool of one connection of its own, tested before each use: a connection the
        // database dropped (a restart) is replaced, not reported as an outage twice.
        let probe = match PgPoolOptions::new()
            .max_connections(1)
            .acquire_timeout(wait)
            .test_before_acquire(true)
            .connect_lazy(&url)
        {
            Ok(pool) => pool,
            Err(error) => {
                tracing::error!(%error, "cannot probe the database");
                return;
            }
        };
        let mut every = tokio::time::interval(PROBE_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = stop.cancelled() => break,
                _ = every.tick() => {}
            }
            let ping = sqlx::query("SELECT 1").execute(&probe);
            match tokio::time::timeout(wait, ping).await {
                Ok(Ok(_)) => self.store.breaker.reset(),
                Ok(Err(error)) => self.store.breaker.trip(error.to_string()),
                Err(_) => self.store.breaker.trip(format!(
                    "no answer to a ping within {} ms",
                    wait.as_millis()
                )),
            }
        }
        probe.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tripped_breaker_refuses_at_once_until_reset() {
        let breaker = Breaker::default();
        assert!(breaker.check().is_ok());
        breaker.trip("connection refused".into());
        assert!(breaker.is_open());
        match breaker.check() {
            Err(error @ TableError::DatabaseDown(_)) => {
                assert!(error.is_storage(), "answered 503, not 500");
                assert!(error.to_string().contains("connection refused"));
            }
            other => panic!("{other:?}"),
        }
        breaker.reset();
        assert!(breaker.check().is_ok());
    }
}
