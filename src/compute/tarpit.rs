//! Refusals that only abuse earns are answered after [`HOLD`]: a JSON body past the bounds of
//! its shape, an animation past its cost bound (requests for more than the server gives
//! anyone), a method HTTP does not define. A client looping them gets one answer a second per
//! connection instead of as many as the server can refuse, and the cores stay with everyone
//! else; a well-meaning client meets one at most while it is being written, and waits a second.
//! At most [`MAX_HELD`] refusals are held at once (each keeps a connection and its buffers);
//! past that one is answered at once.

use std::sync::LazyLock;
use std::time::Duration;

use super::budget::Budget;

/// How long such a refusal is held before it is answered.
pub const HOLD: Duration = Duration::from_secs(1);

/// The most refusals held at once, in the whole process.
pub const MAX_HELD: usize = 1024;

static HELD: LazyLock<Budget> = LazyLock::new(|| Budget::new(MAX_HELD));

/// Waits [`HOLD`] when fewer than [`MAX_HELD`] refusals are held, else returns at once.
pub async fn hold() {
    if let Some(_place) = HELD.try_take(1) {
        tokio::time::sleep(HOLD).await;
    }
}
