//! Whether the tables' database takes writes now: a probe that writes one row, for `/readyz`
//! (a load balancer leaves a replica that cannot keep a move), and a watch that checks the
//! database's file and, while writes fail, probes, so that the log and `/readyz` tell of an
//! outage and of its end when no request comes.

use std::time::Instant;

use super::write::Write;
use super::{TableError, Tables};
use crate::limits::tables as limits;

impl Tables {
    /// Whether the database takes writes now: a write of one row, its answer reused for
    /// [`limits::PROBE_REUSED_FOR`] (and shared by the probes waiting for it).
    pub async fn ready(&self) -> Result<(), String> {
        let mut last = self.store.health.probe.lock().await;
        if let Some((at, outcome)) = &*last
            && at.elapsed() < limits::PROBE_REUSED_FOR
        {
            return outcome.clone();
        }
        // A probe that commits between failures does not make the database ready.
        let outcome = match self.probe().await {
            Ok(()) => self.store.health.failure().map_or(Ok(()), Err),
            Err(error) => Err(error.to_string()),
        };
        *last = Some((Instant::now(), outcome.clone()));
        outcome
    }

    /// Writes this replica's probe row.
    async fn probe(&self) -> Result<(), TableError> {
        let mut write = Write::begin(&self.store).await?;
        let outcome = sqlx::query(
            "INSERT INTO moot_probe (replica, at_ms) VALUES ($1, $2) \
             ON CONFLICT (replica) DO UPDATE SET at_ms = excluded.at_ms",
        )
        .bind(&self.replica)
        .bind(super::now())
        .execute(&mut *write)
        .await
        .map(drop)
        .map_err(TableError::from);
        write.finish(outcome).await
    }

    /// For as long as the server runs: every [`limits::HEALTH_EVERY`], checks the database's
    /// file, and while writes fail, probes, so that the log and `/readyz` tell of an outage
    /// and of its end when no request comes (spawned on the server's runtime).
    pub async fn watch_health(self) {
        let mut every = tokio::time::interval(limits::HEALTH_EVERY);
        loop {
            every.tick().await;
            if let Err(lost) = self.store.check_file() {
                self.store.failed(lost);
            } else if self.store.health.failure().is_some() {
                let _ = self.ready().await;
            }
        }
    }
}
