//! One client's share of the searches: a rate (`governor`'s keyed GCRA) and a limit on its
//! searches running at once, so that no client can take every permit. Clients are keyed by
//! their IP address, which the server decides (the peer, or a trusted proxy's word).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter};

/// How much one client may ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// Requests allowed in a burst.
    pub burst: u32,
    /// One more request allowed every this long.
    pub every: Duration,
    /// Searches one client may run at once.
    pub running: usize,
}

/// A client: its address, or none (a request with no peer address, as in the tests).
type Client = Option<IpAddr>;

/// `governor`'s keyed GCRA: each client's theoretical arrival time, on `C`.
type Limiter<C> =
    RateLimiter<Client, DashMapStateStore<Client>, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// The clients' shares: each one's rate, and how many searches each runs.
#[derive(Clone)]
pub struct Clients<C: Clock = DefaultClock> {
    share: Share,
    clock: C,
    /// `None` when the share sets no rate (`every` of zero): every request passes.
    rate: Option<Arc<Limiter<C>>>,
    running: Arc<DashMap<Client, usize>>,
}

impl<C: Clock> std::fmt::Debug for Clients<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Clients")
            .field("share", &self.share)
            .field("running", &self.running.len())
            .finish()
    }
}

/// A search counted against its client; given back when dropped.
#[derive(Debug)]
pub struct ClientSlot {
    running: Arc<DashMap<Client, usize>>,
    client: Client,
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        self.running.remove_if_mut(&self.client, |_, n| {
            *n -= 1;
            *n == 0
        });
    }
}

/// Why a client must wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Over its rate: the next request is allowed after this long.
    Rate(Duration),
    /// Its own searches fill its share.
    Running,
}

/// Clients remembered before forgetting those whose burst is whole again.
const PRUNE_AT: usize = 10_000;

impl Clients {
    /// Clients each allowed `share`, their rates kept on the system clock.
    pub fn new(share: Share) -> Self {
        Clients::with_clock(share, DefaultClock::default())
    }
}

impl<C: Clock + Clone> Clients<C> {
    /// Clients whose rate is kept on `clock` (a fake one in tests).
    pub fn with_clock(share: Share, clock: C) -> Self {
        let burst = NonZeroU32::new(share.burst).unwrap_or(NonZeroU32::MIN);
        let rate = Quota::with_period(share.every).map(|quota| {
            Arc::new(RateLimiter::dashmap_with_clock(
                quota.allow_burst(burst),
                clock.clone(),
            ))
        });
        Clients {
            share,
            clock,
            rate,
            running: Arc::new(DashMap::new()),
        }
    }

    /// What each client may ask.
    pub fn share(&self) -> Share {
        self.share
    }

    /// Counts one request of `client` now: allowed, or how long to wait.
    pub fn check_rate(&self, client: Client) -> Result<(), Wait> {
        let Some(rate) = &self.rate else {
            return Ok(());
        };
        if rate.len() >= PRUNE_AT {
            rate.retain_recent();
        }
        rate.check_key(&client)
            .map_err(|not_until| Wait::Rate(not_until.wait_time_from(self.clock.now())))
    }

    /// A slot for one more search of `client`, unless its share is running.
    pub fn start(&self, client: Client) -> Result<ClientSlot, Wait> {
        let mut running = self.running.entry(client).or_insert(0);
        if *running >= self.share.running {
            return Err(Wait::Running);
        }
        *running += 1;
        Ok(ClientSlot {
            running: self.running.clone(),
            client,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;

    fn share() -> Share {
        Share {
            burst: 3,
            every: Duration::from_secs(1),
            running: 1,
        }
    }

    fn clients() -> Clients {
        Clients::new(share())
    }

    #[test]
    fn a_client_over_its_burst_is_refused_until_its_next_token() {
        let clock = FakeRelativeClock::default();
        let clients = Clients::with_clock(share(), clock.clone());
        let me = Some(IpAddr::from([10, 0, 0, 1]));
        for _ in 0..3 {
            assert_eq!(clients.check_rate(me), Ok(()));
        }
        assert_eq!(
            clients.check_rate(me),
            Err(Wait::Rate(Duration::from_secs(1)))
        );
        // Another client is not held up; this one may go on a second later, not before.
        assert_eq!(
            clients.check_rate(Some(IpAddr::from([10, 0, 0, 2]))),
            Ok(())
        );
        clock.advance(Duration::from_millis(400));
        assert_eq!(
            clients.check_rate(me),
            Err(Wait::Rate(Duration::from_millis(600)))
        );
        clock.advance(Duration::from_millis(600));
        assert_eq!(clients.check_rate(me), Ok(()));
        assert!(
            clients.check_rate(me).is_err(),
            "one token came back, not more"
        );
    }

    #[test]
    fn a_share_without_a_period_sets_no_rate() {
        let clients = Clients::new(Share {
            every: Duration::ZERO,
            ..share()
        });
        for _ in 0..100 {
            assert_eq!(clients.check_rate(None), Ok(()));
        }
    }

    #[test]
    fn a_client_runs_its_share_at_once_and_gets_its_slot_back() {
        let clients = clients();
        let me = Some(IpAddr::from([10, 0, 0, 1]));
        let slot = clients.start(me).expect("a first search");
        assert_eq!(clients.start(me).err(), Some(Wait::Running));
        assert!(clients.start(None).is_ok());
        drop(slot);
        assert!(clients.start(me).is_ok());
        assert!(clients.running.is_empty());
    }
}
