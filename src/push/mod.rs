//! Web Push: notices for players (player keys) sent to the browsers where they turned them on,
//! through each browser's push service (RFC 8030), encrypted for the browser (RFC 8291) and
//! signed with the server's VAPID key (RFC 8292). What makes a notice due, and what it says,
//! is decided elsewhere: this module turns "send this notice to this player" into pushes.
//!
//! - [`vapid`]: the server's key and the `Authorization: vapid` header each push carries;
//! - [`subscription`]: which subscriptions a browser may send (an https endpoint on the
//!   internet, a P-256 point and a 16-byte secret), checked when a player subscribes;
//! - [`message`]: a push's encrypted body and headers;
//! - [`delivery`]: the worker that claims pushes from the tables' push outbox
//!   ([`crate::tables::push`]), posts them, and records how each went.
//!
//! The key and the subscriptions are kept in the tables' database
//! ([`crate::tables::push_keys`], [`crate::tables::subscriptions`]), so that every replica
//! signs with the same key and posts any player's pushes. Pushes are sent at least once: a
//! browser may get one twice (its worker died before recording the post).

pub mod delivery;
pub mod message;
pub mod subscription;
pub mod vapid;

pub use delivery::{PushLimits, Pushes};

use std::time::Duration;

/// VAPID's `sub` when the server is given no `--push-contact`.
pub const DEFAULT_CONTACT: &str = "mailto:moot@localhost";

/// The longest a VAPID JWT may be valid (RFC 8292 §2: no more than 24 hours).
pub const MOST_VALID: Duration = Duration::from_secs(24 * 60 * 60);
