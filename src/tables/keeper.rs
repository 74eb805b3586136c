//! The tables of one server ([`Tables`]) and what their operations share: the write
//! transaction (its start here, its end in [`super::write`]). The operations are `impl Tables` blocks of their own, one job a file
//! ([`super::create`], [`super::read`], [`super::play`], [`super::sweep`], [`super::outbox`];
//! [`super::announce`] tells each change to its followers), generic over the game and over the
//! database (one code path for SQLite and PostgreSQL). Each change is one transaction: load,
//! check, apply with the engine, write; it returns the [`Committed`] change with its [`Event`]
//! once the commit is durable. A change sent with an `Idempotency-Key` has its answer written
//! in the same transaction (see [`super::idempotency`]).
//!
//! Each committed change is told to the table's followers (see [`super::feed`]): in this
//! process directly, and with PostgreSQL to the other replicas by a `NOTIFY` sent in the
//! change's own transaction (so only committed changes are told). A table with a webhook has
//! the change's event written to the outbox in that transaction too (see [`super::outbox`]).
//!
//! Races: a move is written as the row `(table, ply)` and the table is updated only where it
//! still has the ply the client saw, so of two writers of one ply (two requests, or two
//! replicas sharing PostgreSQL) one commits and the other is told `StalePly`.
//!
//! [`Committed`]: super::Committed
//! [`Event`]: super::Event

use std::sync::Arc;

use tokio::sync::Semaphore;

use super::TableError;
use super::feed::{Feed, FeedLimits};
use super::idempotency::Remembering;
use super::notifier::Notifier;
use super::outbox::Outbox;
use super::player_feed::{BellLimits, Bells};
use super::push::PushShared;
use super::recent::Recent;
use super::secret;
use super::store::Store;
use super::write::Write;
use crate::limits::tables as limits;

/// The tables of one server: its database, the cap on open tables, and the feed of their
/// changes. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The database.
    pub(super) store: Store,
    /// The most tables kept ongoing at once.
    pub(super) max_open: u64,
    /// The most plies a table may have: the move that reaches it ends the table, drawn.
    pub(super) ply_cap: u64,
    /// Whoever follows a table in this process.
    pub(super) feed: Feed,
    /// This process among the replicas: its own notifications come back to it, and are
    /// skipped (it told its followers at the commit).
    pub(super) replica: String,
    /// Where the events of tables with a webhook are written; `None` refuses webhooks.
    pub(super) outbox: Option<Outbox>,
    /// The key under which the next change's answer is remembered, if any (see
    /// [`Tables::remembering`]).
    pub(super) remembering: Option<Arc<Remembering>>,
    /// Turns taken by the followers reading the database to catch up (see [`super::changes`]).
    pub(super) catching_up: Arc<Semaphore>,
    /// Whoever follows a player's feed in this process (see [`super::player_feed`]).
    pub(super) bells: Arc<Bells>,
    /// The VAPID key once read, and the push worker's bell (see [`super::push`]).
    pub(super) push: Arc<PushShared>,
    /// The other replicas' notices of this one's changes, sent after their commits.
    pub(super) notifier: Arc<Notifier>,
    /// The tables this process last wrote, to play their next move without reading them.
    pub(super) recent: Arc<Recent>,
}

impl Tables {
    /// The tables kept in `store`, at most `max_open` of them ongoing at once.
    pub fn new(store: Store, max_open: u64) -> Tables {
        Tables {
            store,
            max_open,
            ply_cap: crate::limits::tables::MAX_PLIES,
            feed: Feed::new(FeedLimits::default()),
            replica: secret::table_id(),
            outbox: None,
            remembering: None,
            catching_up: Arc::new(Semaphore::new(limits::CATCH_UP_READS)),
            bells: Arc::default(),
            push: Arc::default(),
            notifier: Arc::default(),
            recent: Arc::default(),
        }
    }

    /// The same tables, each ended (drawn, `ply_limit`) by the move that brings it to
    /// `plies` (at least 1).
    pub fn with_ply_cap(self, plies: u64) -> Tables {
        Tables {
            ply_cap: plies.max(1),
            ..self
        }
    }

    /// The same tables, their followers bounded by `limits`.
    pub fn with_feed(self, limits: FeedLimits) -> Tables {
        Tables {
            feed: Feed::new(limits),
            ..self
        }
    }

    /// The same tables, the followers of players' feeds bounded by `limits`.
    pub fn with_player_feeds(self, limits: BellLimits) -> Tables {
        Tables {
            bells: Arc::new(Bells::new(limits)),
            ..self
        }
    }

    /// The feed of the tables' changes, to follow a table.
    pub fn feed(&self) -> &Feed {
        &self.feed
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// A transaction for a change, ended by [`Write::finish`] with the change's outcome; on
    /// SQLite it waits for this process's other writers first (see [`Store`]).
    pub(super) async fn write(&self) -> Result<Write, TableError> {
        Write::begin(&self.store).await
    }

    /// A transaction of the outbox's bookkeeping, its commit not synced ([`Write::bookkeeping`]).
    pub(super) async fn bookkeeping_write(&self) -> Result<Write, TableError> {
        Write::bookkeeping(&self.store).await
    }

    /// The same for a change that may be written in one statement ([`Write::deferred`]).
    pub(super) async fn deferred_write(&self) -> Result<Write, TableError> {
        Write::deferred(&self.store).await
    }
}
