//! Each committed change told to whoever follows its table: this process's followers at the
//! commit, and, with PostgreSQL, the other replicas' through a `NOTIFY` sent just after the
//! commit (see [`super::notifier`]), which each replica hears on a `LISTEN` and passes to its
//! own followers. The notices of deadlines and of seats (not kept to be read) are sent in
//! their own transactions. Players' feeds are rung the same way (see [`super::player_feed`]),
//! on a channel of their own.

use sqlx::PgPool;
use sqlx::postgres::{PgListener, PgPoolOptions};
use tokio_util::sync::CancellationToken;

use super::deadlines::DeadlineNotice;
use super::outbox::Hooks;
use super::player_feed::PLAYERS_CHANNEL;
use super::rows::seat_of;
use super::seat_notice::{SeatNotice, SeatNoticeKind};
use super::store::Backend;
use super::write::Write;
use super::{CatchUp, Committed, Millis, TableError, Tables};

/// The PostgreSQL channel of committed changes: `<replica> <table id> <seq>`.
const CHANGES_CHANNEL: &str = "moot_table_changes";

impl Tables {
    /// In a deadline notice's transaction: on PostgreSQL, tells the other replicas (at the
    /// commit), as `<replica> <table id> <seq> <kind> <deadline> <seat to act> <ply>`.
    pub(super) async fn notify_deadline(
        &self,
        tx: &mut Write,
        notice: &DeadlineNotice,
    ) -> Result<(), TableError> {
        let payload = format!(
            "{} {} {} {} {} {} {}",
            self.replica,
            notice.table_id,
            notice.seq,
            notice.kind(),
            notice.deadline,
            notice.to_act.index(),
            notice.ply
        );
        self.notify_notice(tx, payload).await
    }

    /// In a seat's notice's transaction: writes it for the table's `hooks` (its webhook, its
    /// site's; the caller rings the delivery worker's bell after the commit) and, on PostgreSQL, tells the
    /// other replicas (at the commit), as `<replica> <table id> <seq> <kind> <seat> <ply>
    /// <seat to act> <deadline, or ->`.
    pub(super) async fn tell_seat_notice(
        &self,
        tx: &mut Write,
        hooks: &Hooks,
        notice: &SeatNotice,
    ) -> Result<(), TableError> {
        if hooks.any() {
            self.enqueue_seat_notice(tx, hooks, notice).await?;
        }
        let payload = format!(
            "{} {} {} {} {} {} {} {}",
            self.replica,
            notice.table_id,
            notice.seq,
            notice.kind.name(),
            notice.by.index(),
            notice.ply,
            notice.to_act.index(),
            notice
                .deadline
                .map_or_else(|| "-".to_owned(), |d| d.to_string())
        );
        self.notify_notice(tx, payload).await
    }

    /// On PostgreSQL, a notice's `payload` sent to the other replicas at the commit of `tx`
    /// (nothing to send with SQLite: one process).
    async fn notify_notice(&self, tx: &mut Write, payload: String) -> Result<(), TableError> {
        if self.store.backend != Backend::Postgres {
            return Ok(());
        }
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANGES_CHANNEL)
            .bind(payload)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// Tells this process's followers of table `id` of another replica's notice `kind` (a
    /// deadline's, a seat's)
    /// following change `seq`, the rest of its payload in `words`.
    fn publish_heard<'w>(
        &self,
        id: &str,
        seq: u64,
        kind: &str,
        mut words: impl Iterator<Item = &'w str>,
    ) {
        let seat = |word: Option<&str>| {
            word.and_then(|s| s.parse::<i64>().ok())
                .and_then(|s| seat_of(s).ok())
        };
        match kind {
            kind if SeatNoticeKind::parse(kind).is_some() => {
                let (Some(kind), Some(by), Some(Ok(ply)), Some(to_act), Some(deadline)) = (
                    SeatNoticeKind::parse(kind),
                    seat(words.next()),
                    words.next().map(str::parse::<u64>),
                    seat(words.next()),
                    words.next(),
                ) else {
                    return;
                };
                self.feed.publish_seat_notice(SeatNotice {
                    table_id: id.to_owned(),
                    seq,
                    kind,
                    by,
                    ply,
                    to_act,
                    deadline: deadline.parse().ok(),
                    time: super::now(),
                });
            }
            _ => {
                let (Some(Ok(deadline)), Some(to_act)) =
                    (words.next().map(str::parse::<Millis>), seat(words.next()))
                else {
                    return;
                };
                self.feed.publish_deadline(DeadlineNotice {
                    table_id: id.to_owned(),
                    seq,
                    // Its ply (its change number where no ply was taken back).
                    ply: words.next().and_then(|ply| ply.parse().ok()).unwrap_or(seq),
                    to_act,
                    deadline,
                    passed: kind == "deadline_passed",
                    time: super::now(),
                });
            }
        }
    }

    /// Tells the followers of the table of a committed change: this process's now, the other
    /// replicas' (on PostgreSQL) by a notice sent soon.
    pub(super) fn told(&self, committed: Committed) -> Committed {
        if self.store.backend == Backend::Postgres {
            let payload = format!(
                "{} {} {}",
                self.replica,
                committed.table.id,
                committed.seq()
            );
            self.notifier
                .send(&self.store.pool, CHANGES_CHANNEL, payload);
        }
        if self.feed.is_followed(&committed.table.id) {
            self.feed.publish(committed.change());
        }
        committed
    }

    /// With PostgreSQL (`url`), until `stop` is cancelled: hears the other replicas'
    /// changes and tells this process's followers of them. A notification lost while the
    /// connection was down is made good by the followers, who check the database now and
    /// then. Spawned on the server's runtime; returns at once on SQLite (one process). Its
    /// connection is closed before it returns.
    pub async fn listen(self, url: String, stop: CancellationToken) {
        if self.store.backend != Backend::Postgres {
            return;
        }
        // A pool of the listener's own, so that its connection can be closed at the stop
        // (sqlx gives back a dropped listener's connection in a task of its own).
        let pool = match PgPoolOptions::new().max_connections(1).connect_lazy(&url) {
            Ok(pool) => pool,
            Err(error) => {
                tracing::error!(%error, "cannot listen for other replicas' changes");
                return;
            }
        };
        tokio::select! {
            () = stop.cancelled() => {}
            () = self.hear(&pool) => {}
        }
        pool.close().await;
    }

    /// Hears the other replicas' changes on `pool`'s connection, for ever: reconnects after a
    /// failure, said once per outage.
    async fn hear(&self, pool: &PgPool) {
        let mut failing = false;
        let mut listener = loop {
            match PgListener::connect_with(pool).await {
                Ok(mut listener) => match listener
                    .listen_all([CHANGES_CHANNEL, PLAYERS_CHANNEL])
                    .await
                {
                    Ok(()) => break listener,
                    Err(error) if !failing => {
                        failing = true;
                        tracing::warn!(%error, "cannot listen for other replicas' changes; retrying every second")
                    }
                    Err(_) => {}
                },
                Err(error) if !failing => {
                    failing = true;
                    tracing::warn!(%error, "cannot listen for other replicas' changes; retrying every second")
                }
                Err(_) => {}
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        };
        loop {
            let notification = match listener.recv().await {
                Ok(notification) => {
                    if std::mem::take(&mut failing) {
                        tracing::warn!("listening for other replicas' changes again");
                    }
                    notification
                }
                Err(error) => {
                    if !failing {
                        failing = true;
                        tracing::warn!(%error, "listening for other replicas' changes failed; retrying every second");
                    }
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    continue;
                }
            };
            let mut words = notification.payload().split(' ');
            if notification.channel() == PLAYERS_CHANNEL {
                // Each player's followers read what they have not seen themselves.
                if words.next() != Some(self.replica.as_str()) {
                    while let (Some(player), Some(Ok(last))) =
                        (words.next(), words.next().map(str::parse::<u64>))
                    {
                        self.bells.ring(player, last);
                    }
                }
                continue;
            }
            let (Some(replica), Some(id), Some(seq)) = (words.next(), words.next(), words.next())
            else {
                continue;
            };
            let Ok(seq) = seq.parse::<u64>() else {
                continue;
            };
            // A notice (a deadline's, a takeback's): told as it was heard (it is not kept to
            // be read).
            if let Some(kind) = words.next() {
                if replica != self.replica && self.feed.is_followed(id) {
                    self.publish_heard(id, seq, kind, words);
                }
                continue;
            }
            if replica == self.replica || !self.feed.is_followed(id) {
                continue;
            }
            // One change, read lightly; a follower that sees a gap reads the rest itself.
            match self.catch_up(id, seq.saturating_sub(1), 1).await {
                Ok(CatchUp::Changes(changes)) => {
                    changes.into_iter().for_each(|c| self.feed.publish(c))
                }
                // Too far for one change (a takeback): the followers read where they are.
                Ok(CatchUp::Reset(_)) => self.feed.publish_missed(id),
                Err(error) => tracing::warn!(%error, "cannot read another replica's change"),
            }
        }
    }
}
