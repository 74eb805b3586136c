//! Each table's changes as they are committed, to whoever follows the table in this process
//! (the event streams): one broadcast channel per followed table, made by its first follower
//! and dropped with its last. Commits of this process are published here directly; with
//! PostgreSQL, another replica's commits arrive through `LISTEN/NOTIFY` (see
//! [`super::Tables::listen`], in [`super::announce`]) and are published here too.
//!
//! A follower may still miss a change (it lagged behind its channel, or a notification was lost
//! while the listener reconnected): each change carries its [`Committed::seq`], so a follower
//! that sees a gap reads what it missed from the database.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::Committed;

/// Changes a follower may fall behind by before it must read the database to catch up.
const CHANNEL_DEPTH: usize = 16;

/// How many followers the feed takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeedLimits {
    /// Followers of one table at once.
    pub per_table: usize,
    /// Followers of all tables at once.
    pub in_all: usize,
}

impl Default for FeedLimits {
    fn default() -> Self {
        FeedLimits {
            per_table: crate::limits::tables::STREAMS_PER_TABLE,
            in_all: crate::limits::tables::MAX_STREAMS,
        }
    }
}

/// Why a follower was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FeedFull {
    /// The table has as many followers as one table may.
    #[error("this table has {0} followers: the most one table may have")]
    Table(usize),
    /// The server has as many followers as it takes.
    #[error("this server has {0} event streams open: the most it keeps")]
    Server(usize),
}

/// The followed tables of this process. Cheap to clone: clones share the channels.
#[derive(Clone, Debug)]
pub struct Feed {
    channels: Arc<DashMap<String, broadcast::Sender<Arc<Committed>>>>,
    open: Arc<AtomicUsize>,
    limits: FeedLimits,
    /// Cancelled when the server stops: every follower hears the end.
    closing: CancellationToken,
}

/// One follower of one table: its changes as they are published. Leaving (dropping it) frees
/// its place, and the table's channel once nobody follows it.
#[derive(Debug)]
pub struct Follower {
    /// Taken when the follower leaves, so that the count of the channel's receivers is right
    /// when the channel is removed.
    receiver: Option<broadcast::Receiver<Arc<Committed>>>,
    id: String,
    feed: Feed,
}

/// What a follower is told next.
#[derive(Debug)]
pub enum Next {
    /// A change, as committed.
    Change(Arc<Committed>),
    /// Changes were dropped while this follower lagged: read them from the database.
    Missed,
}

impl Feed {
    /// A feed taking at most `limits` followers.
    pub fn new(limits: FeedLimits) -> Feed {
        Feed {
            channels: Arc::default(),
            open: Arc::default(),
            limits,
            closing: CancellationToken::new(),
        }
    }

    /// Followers of every table now.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Follows table `id` from now on, if the limits allow one more follower.
    pub fn follow(&self, id: &str) -> Result<Follower, FeedFull> {
        let open = self.open.fetch_add(1, Ordering::AcqRel);
        if open >= self.limits.in_all {
            self.open.fetch_sub(1, Ordering::AcqRel);
            return Err(FeedFull::Server(open));
        }
        let channel = self
            .channels
            .entry(id.to_owned())
            .or_insert_with(|| broadcast::channel(CHANNEL_DEPTH).0);
        let followers = channel.receiver_count();
        if followers >= self.limits.per_table {
            drop(channel);
            self.open.fetch_sub(1, Ordering::AcqRel);
            return Err(FeedFull::Table(followers));
        }
        let receiver = channel.subscribe();
        drop(channel);
        Ok(Follower {
            receiver: Some(receiver),
            id: id.to_owned(),
            feed: self.clone(),
        })
    }

    /// Tells the table's followers in this process of a change (nobody, if nobody follows it).
    pub fn publish(&self, change: Committed) {
        if let Some(channel) = self.channels.get(&change.table.id) {
            // An error means every follower left meanwhile: nobody to tell.
            let _ = channel.send(Arc::new(change));
        }
    }

    /// Ends every follower's stream, now and from now on: the server is stopping.
    pub fn close(&self) {
        self.closing.cancel();
    }

    /// Whether anyone in this process follows table `id`.
    pub fn is_followed(&self, id: &str) -> bool {
        self.channels.contains_key(id)
    }
}

impl Follower {
    /// The next change published for the table; `None` once the feed is gone or closed.
    pub async fn next(&mut self) -> Option<Next> {
        let receiver = self.receiver.as_mut()?;
        let received = tokio::select! {
            biased;
            () = self.feed.closing.cancelled() => return None,
            received = receiver.recv() => received,
        };
        match received {
            Ok(change) => Some(Next::Change(change)),
            Err(broadcast::error::RecvError::Lagged(_)) => Some(Next::Missed),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.feed.open.fetch_sub(1, Ordering::AcqRel);
        drop(self.receiver.take());
        // Under the map's lock, where a new follower subscribes: the channel goes only when
        // nobody follows it.
        self.feed
            .channels
            .remove_if(&self.id, |_, channel| channel.receiver_count() == 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{Event, Standing, Table};
    use moot_games::Game;
    use moot_games::Seat;
    use moot_games::herfor::Herfor;

    fn change(id: &str, ply: u64) -> Committed {
        Committed {
            table: Table {
                id: id.to_owned(),
                game: "herfor",
                options: serde_json::Value::Null,
                state: serde_json::Value::Null,
                ply,
                standing: Standing::Ongoing {
                    to_act: Seat::First,
                },
                game_status: Herfor::status(&Herfor::new_game(&Default::default()).unwrap()),
                seats: vec![],
                days_per_move: None,
                deadline: None,
                created: 0,
                updated: 0,
                webhook: None,
            },
            event: Event::Resigned { seat: Seat::First },
        }
    }

    #[tokio::test]
    async fn followers_hear_their_table_only_and_leave_no_channel_behind() {
        let feed = Feed::new(FeedLimits {
            per_table: 2,
            in_all: 3,
        });
        let mut a = feed.follow("a").unwrap();
        let b = feed.follow("b").unwrap();
        feed.publish(change("b", 1));
        feed.publish(change("a", 2));
        match a.next().await {
            Some(Next::Change(c)) => assert_eq!(c.table.ply, 2),
            other => panic!("{other:?}"),
        }
        drop(b);
        assert!(!feed.is_followed("b"), "the last follower took the channel");
        assert!(feed.is_followed("a"));
        assert_eq!(feed.open(), 1);
    }

    #[test]
    fn followers_are_bounded_per_table_and_in_all() {
        let feed = Feed::new(FeedLimits {
            per_table: 2,
            in_all: 3,
        });
        let _a1 = feed.follow("a").unwrap();
        let _a2 = feed.follow("a").unwrap();
        assert_eq!(feed.follow("a").unwrap_err(), FeedFull::Table(2));
        let _b = feed.follow("b").unwrap();
        assert_eq!(feed.follow("c").unwrap_err(), FeedFull::Server(3));
        assert_eq!(feed.open(), 3);
    }
}
