//! The limits of the computer player on a server, as its flags set them: shared by the API and
//! the play pages, each of which draws its own pieces from them.

use std::time::Duration;

use super::cap::WallCap;
use super::shares::Share;
use moot_ai::Budget;

/// The limits of the computer player on a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiConfig {
    /// The largest `playouts` a request may ask for.
    pub max_playouts: u32,
    /// The largest `millis` a request may ask for.
    pub max_millis: u64,
    /// API searches running at once.
    pub max_evaluations: usize,
    /// The wall-clock cap of every search (API and pages), whatever its budget, in
    /// milliseconds; never below `max_millis`.
    pub search_cap_ms: u64,
    /// Play-page searches (the computer's moves, hints) running at once, apart from the API's.
    pub max_page_evaluations: usize,
    /// Answers kept for repeated requests (0: no cache).
    pub cache_entries: usize,
    /// `evaluate` requests one client (peer IP address) may send in a burst…
    pub client_burst: u32,
    /// …and one more every this many milliseconds.
    pub client_every_ms: u64,
    /// Whether the `Forwarded`/`X-Forwarded-*` headers are believed (true only behind a reverse
    /// proxy that overwrites them): a client is then known by the first forwarded address rather
    /// than the connection's peer, and absolute links take the forwarded scheme and host.
    pub trust_forwarded: bool,
}

impl Default for AiConfig {
    fn default() -> Self {
        AiConfig {
            max_playouts: 20_000,
            max_millis: 2_000,
            max_evaluations: 2,
            search_cap_ms: 2_500,
            max_page_evaluations: 2,
            cache_entries: 1_024,
            client_burst: 10,
            client_every_ms: 500,
            trust_forwarded: false,
        }
    }
}

impl AiConfig {
    /// The wall-clock cap of every search, whatever its budget: never below the longest time
    /// budget, which would otherwise be cut short.
    pub fn wall_cap(&self) -> WallCap {
        WallCap::new(Duration::from_millis(
            self.search_cap_ms.max(self.max_millis),
        ))
    }

    /// How long a search waits in line for a permit before it is refused: two wall-clock
    /// caps, so that a request that arrives just as every permit was taken still gets the
    /// first one freed, searches starting a little late on a loaded machine included.
    pub fn patience(&self) -> Duration {
        self.wall_cap().duration() * 2
    }

    /// `budget` cut down to this server's caps: the play pages' strengths obey them too.
    pub fn capped(&self, budget: Budget) -> Budget {
        match budget {
            Budget::Playouts(n) => Budget::Playouts(n.min(self.max_playouts)),
            Budget::Millis(ms) => Budget::Millis(ms.min(self.max_millis)),
        }
    }

    /// One client's share of `permits` searches at once: the client rate, and fewer searches
    /// than all, so one client cannot hold every permit (at least one).
    pub fn share(&self, permits: usize) -> Share {
        Share {
            burst: self.client_burst.max(1),
            every: Duration::from_millis(self.client_every_ms),
            running: permits.saturating_sub(1).max(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wall_cap_is_never_below_the_longest_time_budget() {
        let config = AiConfig {
            max_millis: 4_000,
            search_cap_ms: 1_000,
            ..AiConfig::default()
        };
        assert_eq!(config.wall_cap().duration(), Duration::from_millis(4_000));
        assert_eq!(
            AiConfig::default().wall_cap().duration(),
            Duration::from_millis(2_500)
        );
    }

    #[test]
    fn a_client_may_run_all_permits_but_one_and_at_least_one() {
        let config = AiConfig::default();
        assert_eq!(config.share(3).running, 2);
        assert_eq!(config.share(1).running, 1);
        assert_eq!(config.share(0).running, 1);
    }
}
