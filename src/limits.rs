//! The bounds on the work one request may ask for: the presentation layer's (moves, links,
//! excerpts), which the API shares, and the HTTP layer's deadlines.

use std::time::Duration;

pub use moot_present::limits::*;

/// The longest a client may take to send a request's body once its head has arrived: a body
/// shorter than its `Content-Length`, or trickled, is answered 408 `request_timeout` after this.
pub const BODY_DEADLINE: Duration = Duration::from_secs(10);

/// The longest answer for the request head (actix's default, set here deliberately).
pub const HEAD_DEADLINE: Duration = Duration::from_secs(5);
