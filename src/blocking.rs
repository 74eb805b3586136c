//! Work that takes milliseconds (searches, replays, large bodies, pictures, long pages) runs on
//! actix's blocking pool, and there at a lower CPU priority than the async workers: on a
//! saturated machine the kernel then runs the workers first, so cheap requests (`/healthz`,
//! `legal-moves`) are answered at once while expensive ones wait their turn. Expensive work only
//! slows down: a search's wall-clock cap still ends it, with fewer playouts.
//!
//! Not `SCHED_IDLE`: measured with `moot-load` (docs/measurements/2026-12-02-abuse-load.md), a pool
//! under it made the workers far slower (kept-alive `/healthz` p50 44 ms instead of 0.05 ms on a
//! machine at load 25), most likely by priority inversion: a pool thread preempted while holding a
//! lock the workers also take (the pool's queue, the allocator's) stays off the core for as long as
//! any other program wants it. And page searches starved behind unrelated programs (a
//! normal-strength page turn took 5 s instead of 0.13 s).

use actix_web::error::BlockingError;

/// How much nicer than the process the blocking pool's threads run (Linux's `nice`, at most 19).
/// From the default 0 to 10, a busy pool thread gets about a tenth of a core a worker wants
/// (CFS weights 110 against 1024).
pub const BLOCKING_NICENESS: i32 = 10;

/// The nicest value Linux allows.
const NICEST: i32 = 19;

/// Runs `work` on actix's blocking pool, on a thread [`BLOCKING_NICENESS`] nicer: use this
/// instead of `actix_web::web::block` for everything the server does off its workers.
pub async fn off_workers<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, BlockingError> {
    actix_web::web::block(move || {
        lower_this_thread();
        work()
    })
    .await
}

/// Lowers the calling thread's priority by [`BLOCKING_NICENESS`], once per thread. Linux keeps a
/// nice value per thread, so the workers keep theirs; a thread cannot raise its own back without
/// privilege, which is why only pool threads (which only ever run such work) are lowered.
fn lower_this_thread() {
    thread_local! {
        static LOWERED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if LOWERED.get() {
        return;
    }
    LOWERED.set(true);
    #[cfg(target_os = "linux")]
    {
        let now = this_thread_niceness();
        let lowered = (now + BLOCKING_NICENESS).min(NICEST);
        let thread = Some(rustix::thread::gettid());
        if lowered > now
            && let Err(e) = rustix::process::setpriority_process(thread, lowered)
        {
            tracing::warn!(error = %e, "could not lower a blocking thread's priority");
        }
    }
}

/// The calling thread's nice value (Linux), for the tests.
#[cfg(target_os = "linux")]
pub fn this_thread_niceness() -> i32 {
    // A new thread starts with the niceness of the thread that made it: the process's.
    rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap_or(0)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[actix_web::test]
    async fn blocking_work_runs_nicer_than_the_worker_that_asked_for_it() {
        let worker = this_thread_niceness();
        let pool = off_workers(this_thread_niceness).await.unwrap();
        assert_eq!(pool, (worker + BLOCKING_NICENESS).min(NICEST));
        assert_eq!(
            this_thread_niceness(),
            worker,
            "the worker keeps its priority"
        );
    }
}
