//! The bells that wake a player's followers in this process: one per followed player, rung
//! with its feed's last event after each commit that wrote to it, and the shares of followers
//! a player, and the server, may have.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;
use tokio::sync::watch;

use crate::limits::tables as limits;

/// A player's feed is full: its player, or the server, has as many followers as it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BellsFull {
    /// The player's own share.
    #[error("this player follows its feed from {0} places already")]
    Player(usize),
    /// The server's.
    #[error("the server follows {0} players' feeds already")]
    Server(usize),
}

/// The bells of the players followed in this process: one per followed player, holding the
/// last event known to be committed, made by its first follower and dropped with its last.
#[derive(Debug)]
pub struct Bells {
    bells: DashMap<String, watch::Sender<u64>>,
    open: Arc<AtomicUsize>,
    per_player: usize,
    in_all: usize,
}

impl Default for Bells {
    fn default() -> Self {
        Bells::new(limits::STREAMS_PER_PLAYER, limits::MAX_PLAYER_STREAMS)
    }
}

impl Bells {
    /// Bells taking `per_player` followers of one player, `in_all` of all.
    pub fn new(per_player: usize, in_all: usize) -> Bells {
        Bells {
            bells: DashMap::new(),
            open: Arc::default(),
            per_player,
            in_all,
        }
    }

    /// Follows player `player_id`'s bell, if there is room.
    pub fn follow(self: &Arc<Self>, player_id: &str) -> Result<Listening, BellsFull> {
        if self.open.fetch_add(1, Ordering::AcqRel) >= self.in_all {
            self.open.fetch_sub(1, Ordering::AcqRel);
            return Err(BellsFull::Server(self.in_all));
        }
        let entry = self
            .bells
            .entry(player_id.to_owned())
            .or_insert_with(|| watch::channel(0).0);
        if entry.receiver_count() >= self.per_player {
            drop(entry);
            self.open.fetch_sub(1, Ordering::AcqRel);
            return Err(BellsFull::Player(self.per_player));
        }
        let bell = entry.subscribe();
        drop(entry);
        Ok(Listening {
            bell,
            bells: self.clone(),
            player_id: player_id.to_owned(),
        })
    }

    /// Rings player `player_id`'s bell: its events up to `last` are committed.
    pub fn ring(&self, player_id: &str, last: u64) {
        if let Some(bell) = self.bells.get(player_id) {
            bell.send_if_modified(|known| {
                let later = last > *known;
                *known = (*known).max(last);
                later
            });
        }
    }

    /// Whether player `player_id` has a follower in this process.
    pub fn is_followed(&self, player_id: &str) -> bool {
        self.bells.contains_key(player_id)
    }

    /// Followers of players' feeds in this process.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Acquire)
    }
}

/// A follower's hold on its player's bell: its place is given back when dropped.
#[derive(Debug)]
pub struct Listening {
    bell: watch::Receiver<u64>,
    bells: Arc<Bells>,
    player_id: String,
}

impl Listening {
    /// Waits until the bell rings for an event after `seen`, and answers the last rung.
    pub async fn rung_after(&mut self, seen: u64) -> u64 {
        match self.bell.wait_for(|last| *last > seen).await {
            Ok(last) => *last,
            // The sender lives as long as any follower: not reached.
            Err(_) => std::future::pending().await,
        }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.bells.open.fetch_sub(1, Ordering::AcqRel);
        // This follower's receiver is still counted here.
        self.bells
            .bells
            .remove_if(&self.player_id, |_, bell| bell.receiver_count() <= 1);
    }
}
