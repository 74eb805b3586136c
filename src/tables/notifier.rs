//! The other replicas told of each committed change of a table, on PostgreSQL: after the
//! commit, many changes in one statement.
//!
//! Why not in the change's own transaction: PostgreSQL commits a transaction that sent a
//! `NOTIFY` under one lock for the whole cluster, held through the commit's flush to disk, so
//! moves that notified committed one at a time, each waiting for the disk alone. Told after
//! the commit instead, the moves' flushes are grouped, and the notices of all the changes
//! that waited meanwhile cost one commit. A notice lost (the process stopped between a commit
//! and its notice, or the database failing the notice) is made good by the other replicas'
//! event streams, which read the database at each heartbeat; a change is never told before
//! it is committed.

use std::sync::{Arc, Mutex, MutexGuard};

use sqlx::AnyPool;
use tokio::sync::Notify;
use tokio::task::JoinHandle;

/// The notices waiting to be sent, and the bell of the task that sends them.
#[derive(Debug, Default)]
pub(super) struct Notifier {
    /// What waits, and the task that sends it.
    queue: Mutex<Queue>,
    /// Rung when a payload is added.
    bell: Notify,
}

/// Payloads not yet sent, oldest first, and the sending task once started.
#[derive(Debug, Default)]
struct Queue {
    waiting: Vec<String>,
    task: Option<JoinHandle<()>>,
}

impl Notifier {
    /// Sends `payload` on `channel` through `pool` soon, with whatever else waits by then.
    /// The sending task starts with the first notice, on the runtime of its caller, and again
    /// if that runtime stopped (a server's worker restarted).
    pub(super) fn send(self: &Arc<Self>, pool: &AnyPool, channel: &'static str, payload: String) {
        let mut queue = self.queue();
        queue.waiting.push(payload);
        if queue.task.as_ref().is_none_or(JoinHandle::is_finished) {
            queue.task = Some(tokio::spawn(self.clone().run(pool.clone(), channel)));
        }
        drop(queue);
        self.bell.notify_one();
    }

    /// The queue, locked (a panic while it was held left nothing half done).
    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// For as long as the runtime runs: sends every waiting payload in one statement each time
    /// the bell rings. A failure is logged once until a batch goes through again.
    async fn run(self: Arc<Self>, pool: AnyPool, channel: &'static str) {
        let mut failing = false;
        loop {
            self.bell.notified().await;
            let batch = std::mem::take(&mut self.queue().waiting);
            if batch.is_empty() {
                continue;
            }
            // One parameter, one line a payload (a payload is words without a line break).
            let sent = sqlx::query(
                "SELECT pg_notify($1, payload) FROM unnest(string_to_array($2, E'\\n')) AS payload",
            )
            .bind(channel)
            .bind(batch.join("\n"))
            .execute(&pool)
            .await;
            match sent {
                Ok(_) if failing => {
                    failing = false;
                    tracing::warn!("telling the other replicas of changes again");
                }
                Ok(_) => {}
                Err(error) if !failing => {
                    failing = true;
                    tracing::warn!(%error, lost = batch.len(), "the other replicas could not be told of changes; their followers will read them from the database");
                }
                Err(_) => {}
            }
        }
    }
}
