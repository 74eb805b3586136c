//! Memory the server freed, given back to the system. glibc's allocator keeps what its arenas
//! (one per thread, up to eight per core) once held: after a burst of long replays, measured with
//! `moot-attack`'s `replay` pattern, the server kept 272 MB 5 s later, though only a few replays
//! run at once. `malloc_trim` returns the free pages of every arena; once a second costs a few
//! milliseconds of one thread and brought the same figure to 103 MB.

use std::time::Duration;

/// How often freed memory is given back.
pub const TRIM_EVERY: Duration = Duration::from_secs(1);

/// Starts a thread that gives freed memory back to the system every [`TRIM_EVERY`] (glibc on
/// Linux; elsewhere nothing to do: other allocators return memory themselves or are not asked).
pub fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let spawned = std::thread::Builder::new()
            .name("moot-trim".to_owned())
            .spawn(|| {
                loop {
                    std::thread::sleep(TRIM_EVERY);
                    // SAFETY: malloc_trim only walks the allocator's own arenas under their locks.
                    unsafe { libc::malloc_trim(0) };
                }
            });
        if let Err(error) = spawned {
            tracing::warn!(%error, "freed memory will not be given back: no thread for it");
        }
    }
}
