//! What the load tools share: a small HTTP/1.1 client over `std::net` (no client library: the
//! abusive patterns need raw sockets anyway), the well-behaved client that measures `/healthz`
//! and `legal-moves` while abusers run, the abusers' thread priority, and the percentiles.
//!
//! `moot-load` runs abusive patterns against a running server; `moot-attack` starts a server
//! per pattern itself, to read its memory.

pub mod abusers;
pub mod answer;
pub mod http;
pub mod kept_alive;
pub mod probe;
pub mod stats;
pub mod tally;
