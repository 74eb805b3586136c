//! Single flight: identical work asked for at once (a double click, a reload, two clients
//! sending the same search) runs once, and every asker gets a clone of its answer.

use std::future::Future;
use std::sync::Arc;

use dashmap::DashMap;
use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared};

/// The work in flight, by key. Clones share it.
pub struct Flights<V: Clone> {
    running: Arc<DashMap<String, Shared<BoxFuture<'static, V>>>>,
}

impl<V: Clone> Clone for Flights<V> {
    fn clone(&self) -> Self {
        Flights {
            running: self.running.clone(),
        }
    }
}

impl<V: Clone> Default for Flights<V> {
    fn default() -> Self {
        Flights {
            running: Arc::new(DashMap::new()),
        }
    }
}

impl<V: Clone> std::fmt::Debug for Flights<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Flights")
            .field("running", &self.running.len())
            .finish()
    }
}

/// Takes the leader's entry out of the map however its request ends (answered or dropped).
struct Landing<V: Clone> {
    running: Arc<DashMap<String, Shared<BoxFuture<'static, V>>>>,
    key: String,
}

impl<V: Clone> Drop for Landing<V> {
    fn drop(&mut self) {
        self.running.remove(&self.key);
    }
}

impl<V: Clone + Send + Sync + 'static> Flights<V> {
    /// The answer of `work`, or of the same key's work already in flight (then `work` is
    /// dropped unstarted). The second value says whether this call joined another's flight.
    pub async fn run(
        &self,
        key: String,
        work: impl Future<Output = V> + Send + 'static,
    ) -> (V, bool) {
        let (flight, landing) = match self.running.entry(key.clone()) {
            dashmap::Entry::Occupied(entry) => (entry.get().clone(), None),
            dashmap::Entry::Vacant(entry) => {
                let flight = work.boxed().shared();
                entry.insert(flight.clone());
                let landing = Landing {
                    running: self.running.clone(),
                    key,
                };
                (flight, Some(landing))
            }
        };
        let joined = landing.is_none();
        let answer = flight.await;
        drop(landing);
        (answer, joined)
    }

    /// Flights under way.
    pub fn in_flight(&self) -> usize {
        self.running.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn identical_work_at_once_runs_once_and_both_get_the_answer() {
        let flights = Flights::<u32>::default();
        let runs = Arc::new(AtomicUsize::new(0));
        let gate = Arc::new(futures_util::lock::Mutex::new(()));
        let held = gate.clone().lock_owned().await;
        let work = |runs: Arc<AtomicUsize>, gate: Arc<futures_util::lock::Mutex<()>>| async move {
            runs.fetch_add(1, Ordering::SeqCst);
            let _open = gate.lock().await;
            7
        };
        let first = flights.run("k".into(), work(runs.clone(), gate.clone()));
        let second = flights.run("k".into(), work(runs.clone(), gate.clone()));
        // Both askers are polled once before the work may finish: the second finds the first's
        // flight under way.
        let opener = async move { drop(held) };
        let ((a, a_joined), (b, b_joined), ()) =
            futures_util::future::join3(first, second, opener).await;
        assert_eq!((a, b), (7, 7));
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert!(!a_joined && b_joined);
        assert_eq!(flights.in_flight(), 0);
    }

    #[tokio::test]
    async fn work_asked_after_its_flight_landed_runs_again() {
        let flights = Flights::<u32>::default();
        let (first, joined) = flights.run("k".into(), async { 1 }).await;
        assert_eq!((first, joined), (1, false));
        // Nothing is kept once every asker has its answer: this is no cache.
        let (second, joined) = flights.run("k".into(), async { 2 }).await;
        assert_eq!((second, joined), (2, false));
        assert_eq!(flights.in_flight(), 0);
    }
}
