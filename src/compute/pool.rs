//! A bounded pool of permits: how many searches of one kind run at once, so that searches
//! cannot take every core whatever is asked.
//!
//! A search that finds every permit out may wait in line for one ([`Pool::acquire`]), for a
//! while. The line is fair between clients, not first come first served: a freed permit goes
//! to the waiting client served longest ago, so a client that asks once in a while is served
//! before those that loop (a client that loops is always served most recently). How much one
//! client may have running or waiting at once is its share's business ([`super::shares`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::oneshot;

/// A client: its address, or none (a request with no peer address, as in the tests).
type Client = Option<IpAddr>;

/// Requests waiting for a permit at once, all clients together; past them a request is refused
/// at once (each waits at most its patience, so the line empties).
pub const MAX_WAITING: usize = 64;

/// Clients whose last service is remembered; past this the memory starts over (everyone is
/// then equally new, which is fair enough).
const REMEMBERED: usize = 10_000;

/// At most `limit` permits out at once. Clones share the permits, the line and the counts.
#[derive(Clone, Debug)]
pub struct Pool {
    limit: usize,
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    line: Mutex<Line>,
    refused: AtomicU64,
    started: AtomicU64,
}

/// Who holds and who waits for the permits.
#[derive(Debug, Default)]
struct Line {
    running: usize,
    waiting: Vec<Waiter>,
    /// When each client was last given a permit, in grants since the start.
    served: HashMap<Client, u64>,
    grants: u64,
    tickets: u64,
}

#[derive(Debug)]
struct Waiter {
    client: Client,
    ticket: u64,
    grant: oneshot::Sender<Permit>,
}

/// The right to run one search; given back when dropped (to the next in line, if any).
#[derive(Debug)]
pub struct Permit(Option<Arc<Shared>>);

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some(shared) = self.0.take() {
            Shared::release(&shared);
        }
    }
}

impl Shared {
    fn line(&self) -> MutexGuard<'_, Line> {
        // A panic while the line was held leaves it consistent (no step can fail halfway).
        self.line.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A permit comes back: it goes to the waiting client served longest ago, or back to the
    /// pool when nobody waits.
    fn release(shared: &Arc<Shared>) {
        let mut line = shared.line();
        loop {
            let Some(next) = line.next_waiter() else {
                line.running -= 1;
                return;
            };
            let waiter = line.waiting.swap_remove(next);
            line.note_served(waiter.client);
            match waiter.grant.send(Permit(Some(shared.clone()))) {
                Ok(()) => {
                    shared.started.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                // The waiter left (its request was dropped): the next one, without giving
                // the permit back through its drop.
                Err(mut unsent) => {
                    unsent.0 = None;
                }
            }
        }
    }
}

impl Line {
    /// The waiter to serve next: its client served longest ago (never, first), then the
    /// earliest ticket.
    fn next_waiter(&self) -> Option<usize> {
        self.waiting
            .iter()
            .enumerate()
            .min_by_key(|(_, w)| (self.served.get(&w.client).copied().unwrap_or(0), w.ticket))
            .map(|(index, _)| index)
    }

    fn note_served(&mut self, client: Client) {
        if self.served.len() >= REMEMBERED {
            self.served.clear();
        }
        self.grants += 1;
        self.served.insert(client, self.grants);
    }
}

impl Pool {
    /// A pool of `limit` permits; a limit of 0 switches its searches off.
    pub fn new(limit: usize) -> Self {
        Pool {
            limit,
            shared: Arc::default(),
        }
    }

    /// The most permits out at once.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// A permit now, if fewer than the limit are out. A refusal is counted unless the limit is
    /// 0: a pool of none is switched off, not busy.
    pub fn try_acquire(&self) -> Option<Permit> {
        let mut line = self.shared.line();
        self.take(&mut line, None).or_else(|| {
            self.refuse();
            None
        })
    }

    /// A permit for `client`: at once if one is free, else after waiting in line at most
    /// `patience` (`None` past it, or when [`MAX_WAITING`] requests wait already).
    pub async fn acquire(&self, client: Client, patience: Duration) -> Option<Permit> {
        let (ticket, mut granted) = {
            let mut line = self.shared.line();
            if let Some(permit) = self.take(&mut line, Some(client)) {
                return Some(permit);
            }
            if self.limit == 0 || line.waiting.len() >= MAX_WAITING {
                drop(line);
                self.refuse();
                return None;
            }
            line.tickets += 1;
            let ticket = line.tickets;
            let (grant, granted) = oneshot::channel();
            line.waiting.push(Waiter {
                client,
                ticket,
                grant,
            });
            (ticket, granted)
        };
        if let Ok(Ok(permit)) = tokio::time::timeout(patience, &mut granted).await {
            return Some(permit);
        }
        // Out of patience: leave the line, unless a permit came meanwhile.
        let mut line = self.shared.line();
        line.waiting.retain(|w| w.ticket != ticket);
        drop(line);
        match granted.try_recv() {
            Ok(permit) => Some(permit),
            Err(_) => {
                self.refuse();
                None
            }
        }
    }

    /// A free permit, if one is free and nobody waits for it.
    fn take(&self, line: &mut Line, client: Option<Client>) -> Option<Permit> {
        if line.running >= self.limit || !line.waiting.is_empty() {
            return None;
        }
        line.running += 1;
        if let Some(client) = client {
            line.note_served(client);
        }
        self.shared.started.fetch_add(1, Ordering::Relaxed);
        Some(Permit(Some(self.shared.clone())))
    }

    fn refuse(&self) {
        if self.limit > 0 {
            self.shared.refused.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Permits out now.
    pub fn running(&self) -> usize {
        self.shared.line().running
    }

    /// Requests waiting for a permit now.
    pub fn waiting(&self) -> usize {
        self.shared.line().waiting.len()
    }

    /// Permits refused since the pool was made, the limit being out.
    pub fn refused(&self) -> u64 {
        self.shared.refused.load(Ordering::Relaxed)
    }

    /// Permits given since the pool was made.
    pub fn started(&self) -> u64 {
        self.shared.started.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    fn client(n: u8) -> Client {
        Some(IpAddr::from([10, 0, 0, n]))
    }

    #[test]
    fn a_pool_refuses_past_its_limit_and_frees_a_permit_on_drop() {
        let pool = Pool::new(2);
        let first = pool.try_acquire().expect("a first permit");
        let _second = pool.clone().try_acquire().expect("a clone shares the pool");
        assert!(pool.try_acquire().is_none());
        assert_eq!((pool.running(), pool.refused(), pool.started()), (2, 1, 2));
        drop(first);
        assert_eq!(pool.running(), 1);
        assert!(pool.try_acquire().is_some());
        assert_eq!((pool.refused(), pool.started()), (1, 3));
    }

    #[test]
    fn a_pool_of_none_refuses_every_permit_without_counting_a_refusal() {
        let off = Pool::new(0);
        assert!(off.try_acquire().is_none());
        assert_eq!((off.running(), off.refused(), off.started()), (0, 0, 0));
    }

    #[tokio::test(start_paused = true)]
    async fn a_freed_permit_goes_to_the_waiting_client_served_longest_ago() {
        let pool = Pool::new(1);
        // Client 1 loops: served, and straight back in line.
        let held = pool
            .acquire(client(1), SECOND)
            .await
            .expect("a free permit");
        let looping = tokio::spawn({
            let pool = pool.clone();
            async move { pool.acquire(client(1), 10 * SECOND).await.is_some() }
        });
        tokio::task::yield_now().await;
        // Client 2, never served, comes later but goes first.
        let newcomer = tokio::spawn({
            let pool = pool.clone();
            async move {
                let permit = pool.acquire(client(2), 10 * SECOND).await;
                (permit.is_some(), tokio::time::Instant::now())
            }
        });
        tokio::task::yield_now().await;
        assert_eq!(pool.waiting(), 2);
        drop(held);
        let (served, _) = newcomer.await.unwrap();
        assert!(served, "the newcomer got the freed permit");
        // Its permit is dropped with its task: then the looping client's turn.
        assert!(looping.await.unwrap());
        assert_eq!((pool.running(), pool.waiting(), pool.refused()), (0, 0, 0));
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiter_out_of_patience_is_refused_and_leaves_the_line() {
        let pool = Pool::new(1);
        let held = pool.acquire(client(1), SECOND).await.unwrap();
        let started = tokio::time::Instant::now();
        assert!(pool.acquire(client(2), SECOND).await.is_none());
        assert_eq!(started.elapsed(), SECOND, "it waited its patience");
        assert_eq!((pool.waiting(), pool.refused()), (0, 1));
        drop(held);
        assert_eq!(pool.running(), 0, "the permit came back to the pool");
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiter_whose_request_is_dropped_takes_no_permit() {
        let pool = Pool::new(1);
        let held = pool.acquire(client(1), SECOND).await.unwrap();
        let gone = tokio::spawn({
            let pool = pool.clone();
            async move { pool.acquire(client(2), 10 * SECOND).await }
        });
        tokio::task::yield_now().await;
        gone.abort();
        let _ = gone.await;
        drop(held);
        assert_eq!(pool.running(), 0);
        assert!(pool.try_acquire().is_some(), "the permit is free again");
    }

    #[tokio::test(start_paused = true)]
    async fn the_line_is_bounded() {
        let pool = Pool::new(1);
        let _held = pool.acquire(client(0), SECOND).await.unwrap();
        let waiting: Vec<_> = (0..MAX_WAITING)
            .map(|n| {
                let pool = pool.clone();
                tokio::spawn(async move { pool.acquire(client(n as u8), 10 * SECOND).await })
            })
            .collect();
        for _ in 0..MAX_WAITING {
            tokio::task::yield_now().await;
        }
        assert_eq!(pool.waiting(), MAX_WAITING);
        assert!(
            pool.acquire(client(200), SECOND).await.is_none(),
            "refused at once"
        );
        for task in waiting {
            task.abort();
        }
    }
}
