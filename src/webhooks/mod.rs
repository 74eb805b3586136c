//! Webhooks: each event of a table that names a webhook (a move, a resignation, a win on time)
//! posted to the table's URL, signed with its secret, and retried until the receiver takes it.
//!
//! - [`target`]: which URLs a webhook may name (http or https, public addresses only unless
//!   allowed), checked at creation and again at every delivery, where the name resolves;
//! - [`signature`]: the `Moot-Signature` header (HMAC-SHA-256 of the time and body);
//! - [`delivery`]: the worker that claims events from the tables' outbox
//!   ([`crate::tables::outbox`]), posts them, and records how each attempt went;
//! - [`hosts`]: the receivers (a URL's host and port) it posts to, each with a share of the
//!   deliveries at once, so that a slow or dead receiver delays only its own tables' events;
//! - [`breaker`]: a receiver's circuit breaker, which leaves it alone after a run of failures
//!   until a trial delivery.
//!
//! A delivery is the event's JSON (the `data` of the table's event stream) with the headers
//! `Moot-Signature`, `Moot-Event-Id` (`<table id>-<seq>`: unique, for the receiver to
//! deduplicate) and `Moot-Event` (`move`, `resign`, `claim`). Any 2xx answer delivers it;
//! anything else (another status, a redirect, no answer within the timeout) is retried with
//! exponential backoff and jitter, for a day, then given up and counted on the table. While a
//! receiver's breaker is open its events wait without being tried, so it does not bring them
//! closer to being given up.
//! Events are delivered at least once: a receiver may get one twice (its worker died before
//! recording the delivery) and a retried event after a later one; each carries its table's
//! `seq` and the whole table, so the highest `seq` seen is the table as it stands.

pub mod breaker;
pub mod delivery;
pub mod hosts;
pub mod signature;
pub mod target;

pub use delivery::{Deliveries, DeliveryCounts, WebhookLimits};
