//! The attackers: threads that loop one kind of request until they are stopped, at the
//! priority asked (`--abusers`), counting what they got.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use moot_load::abusers::Abusers;
use moot_load::http::Reply;
use moot_load::tally::Tally;

/// One attacker's request: given the attacker's index and its round (from 0), what it got.
pub type Attempt = Arc<dyn Fn(usize, u64) -> Reply + Send + Sync>;

/// Attackers running.
pub struct Attack {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
    tally: Arc<Mutex<Tally>>,
}

impl Attack {
    /// Starts `clients` threads looping `attempt`.
    pub fn start(clients: usize, abusers: Abusers, attempt: Attempt) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let tally = Arc::new(Mutex::new(Tally::default()));
        // One warning for all the threads, not one each.
        let warned = Arc::new(AtomicBool::new(false));
        let threads = (0..clients)
            .map(|index| {
                let (stop, tally, attempt, warned) =
                    (stop.clone(), tally.clone(), attempt.clone(), warned.clone());
                thread::spawn(move || {
                    if let Err(e) = abusers.lower_this_thread()
                        && !warned.swap(true, Ordering::Relaxed)
                    {
                        eprintln!("moot-attack: the attackers run at the normal priority: {e}");
                    }
                    let mut round = 0;
                    while !stop.load(Ordering::Relaxed) {
                        let reply = attempt(index, round);
                        tally.lock().expect("tally").add(reply);
                        round += 1;
                    }
                })
            })
            .collect();
        Attack {
            stop,
            threads,
            tally,
        }
    }

    /// Stops the attackers (each ends the request it is in) and gives what they got.
    pub fn stop(self) -> Tally {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads {
            let _ = thread.join();
        }
        std::mem::take(&mut *self.tally.lock().expect("tally"))
    }
}
