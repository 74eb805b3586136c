//! What a service behind a site needs around the routes, one middleware per module:
//!
//! - [`request_id`]: an `x-request-id` on every answer and in problem bodies;
//! - [`access_log`]: one log line per request, and the request metrics;
//! - [`metrics`]: Prometheus metrics at `/metrics`;
//! - [`cors`]: which other origins' pages may call the API;
//! - [`security`]: security headers on pages;
//! - [`listen`]: the HTTP server itself, and its answer to `Expect: 100-continue`;
//! - [`socket`]: a connection's socket, read no more once a large body is refused unread;
//! - [`url_limit`]: the limit on a request's target, answered 414 by Moot;
//! - [`logging`]: the log format (pretty or JSON, colour only on a terminal);
//! - [`sampling`]: repeated refusals and health checks logged at most once a second a kind;
//! - [`compress`]: answers compressed as the client accepts, where it pays;
//!
//! [`Middleware`] holds what the workers share.

pub mod access_log;
pub mod compress;
pub mod cors;
pub mod listen;
pub mod logging;
pub mod metrics;
pub mod request_id;
pub mod sampling;
pub mod security;
pub mod socket;
pub mod url_limit;

pub use cors::Origins;
pub use metrics::Metrics;

use crate::compute::{Computer, Surface};

/// The settings and shared parts of the middleware stack; clones share the metrics.
#[derive(Clone, Debug)]
pub struct Middleware {
    /// The origins whose pages may call the API from a browser.
    pub origins: Origins,
    /// The server's metrics: one set for all workers.
    pub metrics: Metrics,
    /// The site's public address, which absolute links start with (`--public-url`).
    pub public_url: Option<crate::client::PublicUrl>,
    /// Which repeated log lines are written: one for all workers.
    pub sampler: sampling::Sampler,
    /// The sites' keys (`--site-keys`), whose requests count against their own budgets.
    pub site_keys: crate::site_keys::SiteKeys,
}

impl Middleware {
    /// Settings for a server whose computer player is `computer` (its searches are counted).
    pub fn new<Api: Surface, Pages: Surface>(
        origins: Origins,
        computer: &Computer<Api, Pages>,
    ) -> Self {
        Middleware {
            origins,
            metrics: Metrics::new(computer),
            public_url: None,
            sampler: sampling::Sampler::default(),
            site_keys: Default::default(),
        }
    }

    /// The same, with absolute links starting with `public_url` whatever the request says.
    pub fn with_public_url(mut self, public_url: Option<crate::client::PublicUrl>) -> Self {
        self.public_url = public_url;
        self
    }

    /// The same, with these sites' keys.
    pub fn with_site_keys(mut self, site_keys: crate::site_keys::SiteKeys) -> Self {
        self.site_keys = site_keys;
        self
    }
}
