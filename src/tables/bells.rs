//! The bells that wake a player's followers in this process: one per followed player, rung
//! with its feed's last event after each commit that wrote to it, and the shares of followers
//! a player, a holder (an address, or a site by its key: see [`super::holders`]) and the server
//! may have, so that no one client holds every place.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use dashmap::DashMap;
use tokio::sync::watch;

use super::holders::{Holder, Holdings};
use crate::limits::tables as limits;

/// How many followers of players' feeds the bells take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BellLimits {
    /// Followers of one player's feed at once (its tabs and devices).
    pub per_player: usize,
    /// Followers from one address (an IPv6 address's /64) at once, of every player.
    pub per_address: usize,
    /// Followers from one site (its key) at once, of every player.
    pub per_site: usize,
    /// Followers of all players at once.
    pub in_all: usize,
}

impl Default for BellLimits {
    fn default() -> Self {
        BellLimits {
            per_player: limits::STREAMS_PER_PLAYER,
            per_address: limits::PLAYER_STREAMS_PER_ADDRESS,
            per_site: limits::player_streams_per_site(limits::MAX_PLAYER_STREAMS),
            in_all: limits::MAX_PLAYER_STREAMS,
        }
    }
}

/// Why a follower of a player's feed was refused: each says the cap, and the flag that raises
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BellsFull {
    /// The player's own share.
    #[error(
        "this player follows its feed from {0} places already: the most one player may have \
         (--player-feeds-per-player)"
    )]
    Player(usize),
    /// The share of the address the follower comes from.
    #[error(
        "{0} player feeds are open from this address: the most one address may have \
         (--player-feeds-per-address)"
    )]
    Address(usize),
    /// The share of the site whose key the follower sent.
    #[error(
        "{0} player feeds are open with this site's key: the most one site may have \
         (--player-feeds-per-site)"
    )]
    Site(usize),
    /// The server's.
    #[error(
        "the server follows {0} players' feeds already: the most it keeps (--max-player-feeds)"
    )]
    Server(usize),
}

/// The bells of the players followed in this process: one per followed player, holding the
/// last event known to be committed, made by its first follower and dropped with its last.
#[derive(Debug)]
pub struct Bells {
    bells: DashMap<String, watch::Sender<u64>>,
    open: AtomicUsize,
    /// Followers by holder.
    held: Holdings,
    limits: BellLimits,
}

impl Default for Bells {
    fn default() -> Self {
        Bells::new(BellLimits::default())
    }
}

impl Bells {
    /// Bells taking at most `limits` followers.
    pub fn new(limits: BellLimits) -> Bells {
        Bells {
            bells: DashMap::new(),
            open: AtomicUsize::new(0),
            held: Holdings::default(),
            limits,
        }
    }

    /// Follows player `player_id`'s bell for `holder` (if known), if there is room: in the
    /// server's places, then in the holder's share, then in the player's.
    pub fn follow(
        self: &Arc<Self>,
        player_id: &str,
        holder: Option<Holder>,
    ) -> Result<Listening, BellsFull> {
        let places = self.take_places(holder)?;
        let entry = self
            .bells
            .entry(player_id.to_owned())
            .or_insert_with(|| watch::channel(0).0);
        if entry.receiver_count() >= self.limits.per_player {
            drop(entry);
            // The bell may have been made for this follower alone.
            self.bells
                .remove_if(player_id, |_, bell| bell.receiver_count() == 0);
            return Err(BellsFull::Player(self.limits.per_player));
        }
        let bell = entry.subscribe();
        drop(entry);
        Ok(Listening {
            bell,
            player_id: player_id.to_owned(),
            places,
        })
    }

    /// One of the server's places and one of `holder`'s, each given back if the next is
    /// refused.
    fn take_places(self: &Arc<Self>, holder: Option<Holder>) -> Result<Places, BellsFull> {
        // Counted up only below the cap: a refusal never makes a place look taken meanwhile.
        self.open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.limits.in_all).then_some(n + 1)
            })
            .map_err(BellsFull::Server)?;
        let mut places = Places {
            bells: self.clone(),
            held: None,
        };
        if let Some(holder) = holder {
            let share = holder.share(self.limits.per_address, self.limits.per_site);
            self.held
                .take(&holder, share)
                .map_err(|held| match &holder {
                    Holder::Address(_) => BellsFull::Address(held),
                    Holder::Site(_) => BellsFull::Site(held),
                })?;
            places.held = Some(holder);
        }
        Ok(places)
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

    /// Followers of players' feeds in this process held by `holder`.
    pub fn held_by(&self, holder: &Holder) -> usize {
        self.held.held(holder)
    }
}

/// The server's place a follower holds, and its holder's: given back when dropped.
#[derive(Debug)]
struct Places {
    bells: Arc<Bells>,
    held: Option<Holder>,
}

impl Drop for Places {
    fn drop(&mut self) {
        self.bells.open.fetch_sub(1, Ordering::AcqRel);
        if let Some(holder) = &self.held {
            self.bells.held.give_back(holder);
        }
    }
}

/// A follower's hold on its player's bell: its place is given back when dropped.
#[derive(Debug)]
pub struct Listening {
    bell: watch::Receiver<u64>,
    player_id: String,
    /// Given back once the bell is left.
    places: Places,
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
    /// Leaves the bell (dropping it with its last follower); then `Places` gives back the
    /// server's place and the holder's.
    fn drop(&mut self) {
        // This follower's receiver is still counted here.
        self.places
            .bells
            .bells
            .remove_if(&self.player_id, |_, bell| bell.receiver_count() <= 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bells(limits: BellLimits) -> Arc<Bells> {
        Arc::new(Bells::new(limits))
    }

    fn roomy() -> BellLimits {
        BellLimits {
            per_player: 100,
            per_address: 100,
            per_site: 100,
            in_all: 100,
        }
    }

    fn address(text: &str) -> Option<Holder> {
        Some(Holder::Address(text.parse().unwrap()))
    }

    #[test]
    fn a_player_has_a_share_of_followers_given_back_as_they_leave() {
        let bells = bells(BellLimits {
            per_player: 2,
            ..roomy()
        });
        let first = bells.follow("ann", None).unwrap();
        let _second = bells.follow("ann", None).unwrap();
        assert_eq!(bells.follow("ann", None).unwrap_err(), BellsFull::Player(2));
        let _bo = bells.follow("bo", None).unwrap();
        drop(first);
        let _again = bells.follow("ann", None).unwrap();
        assert_eq!(bells.open(), 3);
    }

    #[test]
    fn an_address_has_a_share_of_every_players_feeds() {
        let bells = bells(BellLimits {
            per_address: 2,
            ..roomy()
        });
        let here = address("192.0.2.1");
        let first = bells.follow("ann", here.clone()).unwrap();
        let _second = bells.follow("bo", here.clone()).unwrap();
        assert_eq!(
            bells.follow("cy", here.clone()).unwrap_err(),
            BellsFull::Address(2)
        );
        // Another address still follows.
        let _there = bells.follow("cy", address("192.0.2.2")).unwrap();
        drop(first);
        let _again = bells.follow("cy", here.clone()).unwrap();
        assert_eq!(bells.held_by(here.as_ref().unwrap()), 2);
        assert_eq!(bells.open(), 3);
    }

    #[test]
    fn a_sites_feeds_count_against_the_site_not_its_address() {
        let bells = bells(BellLimits {
            per_address: 1,
            per_site: 3,
            ..roomy()
        });
        let club = || Some(Holder::Site("club".into()));
        let mut held: Vec<_> = ["ann", "bo", "cy"]
            .into_iter()
            .map(|player| bells.follow(player, club()).unwrap())
            .collect();
        assert_eq!(bells.follow("dee", club()).unwrap_err(), BellsFull::Site(3));
        let _other = bells
            .follow("dee", Some(Holder::Site("other".into())))
            .unwrap();
        held.pop();
        let _again = bells.follow("dee", club()).unwrap();
        assert_eq!(bells.held_by(&Holder::Site("club".into())), 3);
    }

    #[test]
    fn the_server_has_a_cap_and_a_refusal_gives_back_what_it_took() {
        let bells = bells(BellLimits {
            per_player: 1,
            in_all: 2,
            ..roomy()
        });
        let here = address("192.0.2.1");
        let _ann = bells.follow("ann", here.clone()).unwrap();
        // Refused by the player's share, after the server's and the address's places.
        assert_eq!(
            bells.follow("ann", here.clone()).unwrap_err(),
            BellsFull::Player(1)
        );
        assert_eq!(
            (bells.open(), bells.held_by(here.as_ref().unwrap())),
            (1, 1)
        );
        let bo = bells.follow("bo", None).unwrap();
        assert_eq!(
            bells.follow("cy", here.clone()).unwrap_err(),
            BellsFull::Server(2)
        );
        assert!(
            !bells.is_followed("cy"),
            "a refused follower leaves no bell"
        );
        assert_eq!(bells.held_by(here.as_ref().unwrap()), 1);
        drop(bo);
        let _cy = bells.follow("cy", here).unwrap();
        assert!(!bells.is_followed("bo"), "its last follower took the bell");
    }
}
