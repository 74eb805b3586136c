//! How the writes of the tables' database went: for `/readyz` (with the probe of
//! [`super::ready`]), for `/metrics` (writes by outcome, their latency), and for the log (one
//! line when writes start failing, one when they work again, not one per request).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use prometheus::{Histogram, HistogramOpts, IntCounterVec, Opts};

use crate::limits::tables as limits;

/// Latency buckets of a write, in seconds: a commit syncs the disk (a millisecond or so),
/// and waits for the writers before it.
const WRITE_BUCKETS: &[f64] = &[
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// How the writes of one database went. Shared by a store's clones.
#[derive(Debug)]
pub struct StoreHealth {
    /// Why the database cannot take writes, and when a write last failed; `None` while it
    /// can.
    failure: Mutex<Option<(String, Instant)>>,
    /// The last readiness probe: when, and what it found (see [`super::ready`]).
    pub(super) probe: tokio::sync::Mutex<Option<(Instant, Result<(), String>)>>,
    /// Writes by outcome: `committed`, `refused` (rolled back: a rule, a stale ply),
    /// `failed` (the database's failure).
    pub writes: IntCounterVec,
    /// The time from a write's start to its durable commit.
    pub write_seconds: Histogram,
}

impl Default for StoreHealth {
    fn default() -> StoreHealth {
        StoreHealth {
            failure: Mutex::default(),
            probe: tokio::sync::Mutex::default(),
            writes: IntCounterVec::new(
                Opts::new(
                    "database_writes_total",
                    "Writes to the tables' database by outcome: committed, refused (rolled back by a rule), failed (the database failed)",
                ),
                &["outcome"],
            )
            .expect("constant, valid names"),
            write_seconds: Histogram::with_opts(
                HistogramOpts::new(
                    "database_write_duration_seconds",
                    "Time from a write's start to its durable commit",
                )
                .buckets(WRITE_BUCKETS.to_vec()),
            )
            .expect("constant, valid names"),
        }
    }
}

impl StoreHealth {
    /// Why the database cannot take writes, if it cannot (as its last write found).
    pub fn failure(&self) -> Option<String> {
        let failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        failure.as_ref().map(|(why, _)| why.clone())
    }

    /// A write committed after `took`. The database takes writes again once none failed for
    /// [`limits::HEALTH_EVERY`]: a full disk lets some commits through (those that fit in the
    /// space its log already has) between failures, and such a database is not ready.
    pub(super) fn committed(&self, took: Duration) {
        self.writes.with_label_values(&["committed"]).inc();
        self.write_seconds.observe(took.as_secs_f64());
        let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if failure
            .as_ref()
            .is_some_and(|(_, last)| last.elapsed() >= limits::HEALTH_EVERY)
        {
            *failure = None;
            tracing::warn!("the tables' database takes writes again");
        }
    }

    /// A write rolled back for a refusal.
    pub(super) fn refused(&self) {
        self.writes.with_label_values(&["refused"]).inc();
    }

    /// A write or a connection failed for `why`.
    pub(super) fn failed(&self, why: String) {
        self.writes.with_label_values(&["failed"]).inc();
        let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if failure.is_none() {
            tracing::error!(error = %why, "the tables' database cannot take writes; changes are refused with 503 storage_unavailable until it can");
        }
        *failure = Some((why, Instant::now()));
    }
}
