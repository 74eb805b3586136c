//! The computer player's governance: what keeps its searches from taking the server. Each
//! piece has one job and knows nothing of HTTP, the API or the pages, which build their own
//! policy, and their own errors, from them:
//!
//! - [`config`]: the limits ([`AiConfig`]) and the budgets within them;
//! - [`cap`]: the wall-clock cap of every search;
//! - [`pool`]: permits, how many searches run at once;
//! - [`shares`]: one client's share (its rate, its searches at once);
//! - [`flights`]: identical work asked for at once runs once;
//! - [`cache`]: answers kept for repeated requests;
//! - [`renders`]: pictures drawn at once and finished pictures kept;
//! - [`budget`]: a weighted budget (the memory of JSON bodies being decoded);
//! - [`tarpit`]: refusals only abuse earns, answered after a second.
//!
//! [`Computer`] holds the limits, each surface's governance and the pictures'.

pub mod budget;
pub mod cache;
pub mod cap;
pub mod config;
pub mod flights;
pub mod pool;
pub mod renders;
pub mod shares;
pub mod tarpit;

pub use config::AiConfig;

/// A part of the server that runs searches under its own policy (the API, the play pages),
/// made from the server's limits.
/// Made once and cloned into every worker; the metrics read its figures.
pub trait Surface: Clone + Send + Sync + 'static {
    /// The surface's own governance (permits, client shares, flights…) within `config`.
    fn new(config: AiConfig) -> Self;

    /// The surface's permits: how many of its searches run, were refused, were started.
    fn permits(&self) -> &pool::Pool;

    /// Answers found in, and missing from, the surface's cache of answers; none without one.
    fn cache_counts(&self) -> (u64, u64) {
        (0, 0)
    }
}

/// The computer player's share of a server: its limits and each surface's governance. Made
/// once and cloned into every worker, so that all of them share the permits, shares, flights
/// and cache; generic so that this module need not know what the surfaces answer.
#[derive(Clone, Debug)]
pub struct Computer<Api, Pages> {
    config: AiConfig,
    api: Api,
    pages: Pages,
    renders: renders::Renders,
}

impl<Api: Surface, Pages: Surface> Computer<Api, Pages> {
    /// The computer player of a server with these limits: made once, before the workers.
    pub fn new(config: AiConfig) -> Self {
        Computer {
            config,
            api: Api::new(config),
            pages: Pages::new(config),
            renders: renders::Renders::default(),
        }
    }
}

impl<Api, Pages> Computer<Api, Pages> {
    /// The server's limits on searches.
    pub fn config(&self) -> AiConfig {
        self.config
    }

    /// The API's searches and their governance.
    pub fn api(&self) -> &Api {
        &self.api
    }

    /// The play pages' searches (the computer's moves, hints) and their governance.
    pub fn pages(&self) -> &Pages {
        &self.pages
    }

    /// The pictures' permits and finished answers, shared by the API's picture endpoints.
    pub fn renders(&self) -> &renders::Renders {
        &self.renders
    }
}

#[cfg(test)]
mod tests {
    use super::pool::Pool;
    use super::*;

    /// A surface that is only a pool of API permits.
    impl Surface for Pool {
        fn new(config: AiConfig) -> Self {
            Pool::new(config.max_evaluations)
        }

        fn permits(&self) -> &Pool {
            self
        }
    }

    #[test]
    fn the_clones_of_a_computer_share_each_surface_and_the_surfaces_are_apart() {
        let computer = Computer::<Pool, Pool>::new(AiConfig {
            max_evaluations: 1,
            ..AiConfig::default()
        });
        let worker = computer.clone();
        let _held = worker.api().try_acquire().expect("a permit");
        assert!(computer.api().try_acquire().is_none());
        assert!(computer.pages().try_acquire().is_some());
    }
}
