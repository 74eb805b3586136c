//! Per-client fairness for searches: a rate limit (GCRA, the token bucket's arithmetic) and a
//! limit on searches running at once, both keyed by the peer's IP address.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dashmap::DashMap;

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

/// The clients' shares: when each may next ask, and how many searches each runs.
#[derive(Clone, Debug)]
pub struct Clients {
    share: Share,
    /// GCRA: the theoretical arrival time of each client's next request.
    next: Arc<DashMap<Option<IpAddr>, Instant>>,
    running: Arc<DashMap<Option<IpAddr>, usize>>,
}

/// A search counted against its client; given back when dropped.
#[derive(Debug)]
pub struct ClientSlot {
    running: Arc<DashMap<Option<IpAddr>, usize>>,
    client: Option<IpAddr>,
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

/// Entries kept before forgetting the clients whose bucket is full again.
const PRUNE_AT: usize = 10_000;

impl Clients {
    pub fn new(share: Share) -> Self {
        Clients {
            share,
            next: Arc::new(DashMap::new()),
            running: Arc::new(DashMap::new()),
        }
    }

    pub fn share(&self) -> Share {
        self.share
    }

    /// Counts one request of `client` at `now`: allowed, or how long to wait.
    pub fn check_rate(&self, client: Option<IpAddr>, now: Instant) -> Result<(), Wait> {
        let every = self.share.every;
        let tolerance = every * self.share.burst.saturating_sub(1);
        if self.next.len() >= PRUNE_AT {
            self.next.retain(|_, next| *next > now);
        }
        let mut next = self.next.entry(client).or_insert(now);
        let arrival = (*next).max(now);
        if arrival > now + tolerance {
            return Err(Wait::Rate(arrival - tolerance - now));
        }
        *next = arrival + every;
        Ok(())
    }

    /// A slot for one more search of `client`, unless its share is running.
    pub fn start(&self, client: Option<IpAddr>) -> Result<ClientSlot, Wait> {
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

/// The address a client's share is kept under: the connection's peer, or, when the server
/// trusts its reverse proxy (`--trust-forwarded`), the first `Forwarded`/`X-Forwarded-For`
/// address; behind a proxy every peer is the proxy, so all clients would share one share.
pub fn client_of(request: &actix_web::HttpRequest, trust_forwarded: bool) -> Option<IpAddr> {
    let peer = request.peer_addr().map(|peer| peer.ip());
    if !trust_forwarded {
        return peer;
    }
    let info = request.connection_info();
    let forwarded = info.realip_remote_addr().and_then(|addr| {
        addr.parse::<IpAddr>()
            .ok()
            .or_else(|| addr.parse::<std::net::SocketAddr>().ok().map(|a| a.ip()))
    });
    forwarded.or(peer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clients() -> Clients {
        Clients::new(Share {
            burst: 3,
            every: Duration::from_secs(1),
            running: 1,
        })
    }

    #[test]
    fn a_burst_passes_then_the_wait_is_until_the_next_token() {
        let clients = clients();
        let me = Some(IpAddr::from([10, 0, 0, 1]));
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(clients.check_rate(me, t0), Ok(()));
        }
        assert_eq!(
            clients.check_rate(me, t0),
            Err(Wait::Rate(Duration::from_secs(1)))
        );
        // Another client is not held up; this one may go on a second later.
        assert_eq!(
            clients.check_rate(Some(IpAddr::from([10, 0, 0, 2])), t0),
            Ok(())
        );
        assert_eq!(clients.check_rate(me, t0 + Duration::from_secs(1)), Ok(()));
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

    #[test]
    fn a_forwarded_address_names_the_client_only_when_the_proxy_is_trusted() {
        use actix_web::test::TestRequest;
        let proxy: std::net::SocketAddr = "10.0.0.2:41000".parse().unwrap();
        let request = TestRequest::default()
            .peer_addr(proxy)
            .insert_header(("x-forwarded-for", "203.0.113.7"))
            .to_http_request();
        assert_eq!(client_of(&request, false), Some(proxy.ip()));
        assert_eq!(client_of(&request, true), "203.0.113.7".parse().ok());
        // Without the header a trusting server falls back to the peer.
        let bare = TestRequest::default().peer_addr(proxy).to_http_request();
        assert_eq!(client_of(&bare, true), Some(proxy.ip()));
    }
}
