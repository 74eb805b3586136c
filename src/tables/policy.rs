//! What a server allows each client of its tables, whether it asks through the API or the
//! pages: tables created at a rate, and wrong seat credentials at a rate, past which the client
//! is barred for a while (a credential cannot be guessed by trying).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dashmap::DashMap;

use super::Tables;
use crate::compute::shares::{Clients, Share, Wait};
use crate::limits::tables as limits;

/// What a server allows of its clients' tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableLimits {
    /// Tables one client may create in a burst, and one more every `create_every`.
    pub create_burst: u32,
    /// See `create_burst`.
    pub create_every: Duration,
    /// Wrong credentials one client may send in a burst, and one more every `guess_every`.
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

/// The tables of a server under its limits; made once, cloned into every worker.
#[derive(Clone)]
pub struct TablePolicy {
    tables: Tables,
    limits: TableLimits,
    creations: Clients,
    guesses: Clients,
    /// Clients past their share of wrong credentials, and until when.
    barred: Arc<DashMap<Option<IpAddr>, Instant>>,
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
            guesses: Clients::new(share(limits.guess_burst, limits.guess_every)),
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

    /// Counts a creation by `client`: `Err(wait)` once it is past its share.
    pub fn may_create(&self, client: Option<IpAddr>) -> Result<(), Duration> {
        match self.creations.check_rate(client) {
            Ok(()) => Ok(()),
            Err(Wait::Rate(wait)) => Err(wait),
            Err(Wait::Running) => Err(self.limits.create_every),
        }
    }

    /// `Err(wait)` while `client` is barred for wrong credentials; checked before a credential
    /// is read.
    pub fn not_barred(&self, client: Option<IpAddr>) -> Result<(), Duration> {
        // Copied out first: the map's guard must be gone before `remove` takes its shard.
        let barred = self.barred.get(&client).map(|until| *until);
        if let Some(until) = barred {
            let now = Instant::now();
            if until > now {
                return Err(until - now);
            }
            self.barred.remove(&client);
        }
        Ok(())
    }

    /// Counts a wrong or missing credential of `client`: `Some(wait)` when that put the client
    /// past its share, and it is now barred for `wait`.
    pub fn strike(&self, client: Option<IpAddr>) -> Option<Duration> {
        match self.guesses.check_rate(client) {
            Ok(()) => None,
            Err(wait) => {
                let wait = match wait {
                    Wait::Rate(wait) => wait,
                    Wait::Running => self.limits.guess_every,
                };
                self.barred.insert(client, Instant::now() + wait);
                Some(wait)
            }
        }
    }
}
