//! What a server allows each client of its tables, whether it asks through the API or the
//! pages: tables created at a rate, and wrong seat credentials at a rate at each table, past
//! which the client is barred from that table for a while. A 256-bit credential cannot be
//! guessed: the bar only slows scanning, and never refuses the right credential (a site
//! relaying all its players' moves from one address is not stalled by one player's mistakes).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dashmap::DashMap;
use governor::clock::{Clock, DefaultClock};
use governor::{Quota, RateLimiter};

use super::Tables;
use crate::compute::shares::{Clients, Share, Wait};
use crate::limits::tables as limits;
use crate::site_keys::Client;

/// What a server allows of its clients' tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableLimits {
    /// Tables one client may create in a burst, and one more every `create_every`.
    pub create_burst: u32,
    /// See `create_burst`.
    pub create_every: Duration,
    /// Wrong credentials one client may send at one table in a burst, and one more every
    /// `guess_every`.
    pub guess_burst: u32,
    /// See `guess_burst`.
    pub guess_every: Duration,
    /// Believe a trusted proxy's forwarded address for the client (`--trust-forwarded`).
    pub trust_forwarded: bool,
    /// Let webhooks name loopback and private addresses (`--allow-private-webhooks`).
    pub allow_private_webhooks: bool,
}

impl Default for TableLimits {
    fn default() -> Self {
        TableLimits {
            create_burst: limits::CREATE_BURST,
            create_every: limits::CREATE_EVERY,
            guess_burst: limits::GUESS_BURST,
            guess_every: limits::GUESS_EVERY,
            trust_forwarded: false,
            allow_private_webhooks: false,
        }
    }
}

/// A client guessing at a table: the table's id and the client's address.
type Guesser = (String, Option<IpAddr>);

/// Wrong credentials by table and client (`governor`'s keyed GCRA).
type Guesses = RateLimiter<
    Guesser,
    governor::state::keyed::DashMapStateStore<Guesser>,
    DefaultClock,
    governor::middleware::NoOpMiddleware,
>;

/// Where wrong player credentials are counted, as [`TablePolicy::strike`] counts wrong seat
/// credentials at a table (no table id is spelled so).
pub const PLAYER_KEYS: &str = "player keys";

/// Guessers counted before the forgotten ones are pruned.
const PRUNE_GUESSERS_AT: usize = 10_000;

/// The tables of a server under its limits; made once, cloned into every worker.
#[derive(Clone)]
pub struct TablePolicy {
    tables: Tables,
    limits: TableLimits,
    creations: Clients,
    /// Players made, by address (a site's count against its creations).
    player_creations: Clients,
    /// Requests sent with an `Idempotency-Key`, by address: each keeps its answer a day.
    keys: Clients,
    /// `None` when wrong credentials are not limited (`guess_every` of zero).
    guesses: Option<Arc<Guesses>>,
    /// Clients past their share of wrong credentials at a table, and until when.
    barred: Arc<DashMap<Guesser, Instant>>,
}

impl std::fmt::Debug for TablePolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TablePolicy")
            .field("limits", &self.limits)
            .finish()
    }
}

fn share(burst: u32, every: Duration) -> Share {
    Share {
        burst,
        every,
        running: usize::MAX,
    }
}

impl TablePolicy {
    /// `tables` under `limits`.
    pub fn new(tables: Tables, limits: TableLimits) -> Self {
        TablePolicy {
            creations: Clients::new(share(limits.create_burst, limits.create_every)),
            player_creations: Clients::new(share(limits.create_burst, limits.create_every)),
            keys: Clients::new(share(limits::KEYS_BURST, limits::KEYS_EVERY)),
            guesses: guess_quota(limits).map(|quota| Arc::new(RateLimiter::dashmap(quota))),
            barred: Default::default(),
            tables,
            limits,
        }
    }

    /// The tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The limits.
    pub fn limits(&self) -> &TableLimits {
        &self.limits
    }

    /// Counts a creation by `client`: `Err(wait)` once it is past its share (an address's,
    /// or its site's own).
    pub fn may_create(&self, client: &Client) -> Result<(), Duration> {
        let checked = match client {
            Client::Address(address) => self.creations.check_rate(*address),
            Client::Site(site) => site.creations.check_rate(None),
        };
        match checked {
            Ok(()) => Ok(()),
            Err(Wait::Rate(wait)) => Err(wait),
            Err(Wait::Running) => Err(self.limits.create_every),
        }
    }

    /// Counts a player made by `client`: `Err(wait)` once it is past its share. An address
    /// has a share of players beside its share of tables, as large; a site's players count
    /// against its creations.
    pub fn may_create_player(&self, client: &Client) -> Result<(), Duration> {
        let checked = match client {
            Client::Address(address) => self.player_creations.check_rate(*address),
            Client::Site(site) => site.creations.check_rate(None),
        };
        match checked {
            Ok(()) => Ok(()),
            Err(Wait::Rate(wait)) => Err(wait),
            Err(Wait::Running) => Err(self.limits.create_every),
        }
    }

    /// Counts a request with an `Idempotency-Key` by `client`: `Err(wait)` once an address is
    /// past its share, which bounds the answers kept for it (a day each). A site's requests are
    /// its players', under budgets its operator set: not counted.
    pub fn may_keep_key(&self, client: &Client) -> Result<(), Duration> {
        let Client::Address(address) = client else {
            return Ok(());
        };
        match self.keys.check_rate(*address) {
            Ok(()) => Ok(()),
            Err(Wait::Rate(wait)) => Err(wait),
            Err(Wait::Running) => Err(limits::KEYS_EVERY),
        }
    }

    /// `Some(wait)` while `client` is barred at table `id` for wrong credentials: then only
    /// the right credential may pass, checked by a read rather than a change.
    pub fn barred(&self, id: &str, client: Option<IpAddr>) -> Option<Duration> {
        let guesser = (id.to_owned(), client);
        // Copied out first: the map's guard must be gone before `remove` takes its shard.
        let until = self.barred.get(&guesser).map(|until| *until)?;
        let now = Instant::now();
        if until > now {
            return Some(until - now);
        }
        self.barred.remove(&guesser);
        None
    }

    /// Counts a wrong or missing credential of `client` at table `id`: `Some(wait)` when that
    /// put the client past its share there, and it is now barred from the table for `wait`.
    pub fn strike(&self, id: &str, client: Option<IpAddr>) -> Option<Duration> {
        let guesses = self.guesses.as_ref()?;
        if guesses.len() >= PRUNE_GUESSERS_AT {
            guesses.retain_recent();
            let now = Instant::now();
            self.barred.retain(|_, until| *until > now);
        }
        let guesser = (id.to_owned(), client);
        let not_until = guesses.check_key(&guesser).err()?;
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        self.barred.insert(guesser, Instant::now() + wait);
        Some(wait)
    }
}

/// The quota of wrong credentials at one table; `None` for no limit.
fn guess_quota(limits: TableLimits) -> Option<Quota> {
    let every = (!limits.guess_every.is_zero()).then_some(limits.guess_every)?;
    let burst = std::num::NonZeroU32::new(limits.guess_burst.max(1))?;
    Some(Quota::with_period(every)?.allow_burst(burst))
}
