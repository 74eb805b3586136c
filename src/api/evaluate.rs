//! `POST …/evaluate`: the computer player's analysis of a position.
//!
//! The budget is checked against the server's caps before anything else is read; the state is
//! read and validated like every other endpoint's; an answer found in the cache is returned at
//! once; the same search asked for at once by another request is joined (single flight).
//! Otherwise the client's share is checked (its rate: 429 `rate_limited`; its searches running)
//! and the search takes one of a fixed number of permits, waiting its turn when all are out
//! (the line is fair between clients: see [`Pool`]; 503 `overloaded` when the line is full or
//! the wait outlasts [`AiConfig::patience`]), and runs on actix's blocking pool, off the async workers, stopped at the server's wall-clock cap
//! whatever its budget. The play pages have permits of their own, so API callers cannot starve
//! the players.

use std::net::IpAddr;

use super::analysis::{PERFECT, answer, budget, seed};
use super::ops::read_state;
use super::problem::{ApiError, ErrorCode, problem_on_panic};
use super::types::{EvaluateRequest, EvaluateResponse};
use crate::compute::cache::Cache;
use crate::compute::flights::Flights;
use crate::compute::pool::Pool;
use crate::compute::shares::{Clients, Wait};
use crate::compute::{AiConfig, Surface};
use crate::site_keys::Client;
use moot_ai::{Budget, Strategy, think};

/// The longest state (as the engine writes it) whose answer is cached: a state may hold a long
/// record, and `cache_entries` of them near the body limit would take a gigabyte.
pub const MAX_CACHED_STATE_BYTES: usize = 64 * 1024;

/// A playout-budget request, which always gets the same answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CacheKey {
    game: &'static str,
    /// The state as the engine writes it, so equal states sent differently share an entry.
    state: String,
    playouts: u32,
    seed: u64,
}

impl CacheKey {
    /// The key of the search in flight: the cache key written as one string.
    fn flight(&self) -> String {
        format!(
            "{}/{}/{}/{}",
            self.game, self.playouts, self.seed, self.state
        )
    }
}

/// The API's computer player: its permits, its clients' shares, its searches in flight and
/// its cache, apart from the play pages' own. Clones share them.
#[derive(Clone, Debug)]
pub struct Evaluator {
    config: AiConfig,
    pool: Pool,
    clients: Clients,
    cache: Cache<CacheKey, EvaluateResponse>,
    flights: Flights<Result<EvaluateResponse, ApiError>>,
}

impl Surface for Evaluator {
    fn new(config: AiConfig) -> Self {
        Evaluator {
            config,
            pool: Pool::new(config.max_evaluations),
            clients: Clients::new(config.share(config.max_evaluations)),
            cache: Cache::new(config.cache_entries),
            flights: Flights::default(),
        }
    }

    fn permits(&self) -> &Pool {
        &self.pool
    }

    fn cache_counts(&self) -> (u64, u64) {
        (self.cache_hits(), self.cache_misses())
    }
}

impl Evaluator {
    /// The server's settings for searches: the caps on budgets, whom to trust for a client's
    /// address.
    pub fn config(&self) -> AiConfig {
        self.config
    }

    /// The API's permits: `max_evaluations` searches at once.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Answers held in the cache.
    pub fn cached(&self) -> usize {
        self.cache.len()
    }

    /// Requests answered from the cache.
    pub fn cache_hits(&self) -> u64 {
        self.cache.hits()
    }

    /// Requests that could have been answered from the cache but were not.
    pub fn cache_misses(&self) -> u64 {
        self.cache.misses()
    }

    /// 503 `overloaded`, with the wait after which a permit is sure to be free.
    fn overloaded(&self, detail: String) -> ApiError {
        ApiError::new(ErrorCode::Overloaded, detail)
            .retry_after(self.config.wall_cap().retry_after_seconds())
    }

    /// The whole operation for one game; `client` is the peer's address, whose share is kept.
    pub async fn evaluate<G: Strategy>(
        &self,
        request: EvaluateRequest,
        client: Client,
    ) -> Result<EvaluateResponse, ApiError> {
        let budget = budget::<G>(&self.config, &request)?;
        let seed = seed(&request)?;
        let state = problem_on_panic(|| read_state::<G>(request.state, "state"))?;
        // Hirþ's record and notes are history: not searched, not part of the key.
        let state = problem_on_panic(|| Ok(G::search_root(&state)))?;
        if request.strength.as_deref() == Some(PERFECT) && !G::solved(&state) {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "strength: perfect play is known only where the game is solved (Herfor on \
                     boards of size {}); use easy, normal or strong",
                    moot_ai::perfect::SOLVED_SIZE
                ),
            )
            .with_field("strength"));
        }
        let key = match budget {
            Budget::Playouts(playouts) => Some(CacheKey {
                game: G::ID,
                state: serde_json::to_string(&state)
                    .map_err(|e| ApiError::internal(format!("could not write the state: {e}")))?,
                playouts,
                seed,
            }),
            Budget::Millis(_) => None,
        }
        .filter(|key| key.state.len() <= MAX_CACHED_STATE_BYTES);
        if let Some(hit) = key.as_ref().and_then(|k| self.cache.get(k)) {
            return Ok(EvaluateResponse {
                cached: true,
                ..hit
            });
        }
        if self.config.max_evaluations == 0 {
            // Not busy but switched off: a 503 would ask the client to retry for ever.
            return Err(ApiError::new(
                ErrorCode::EvaluateOff,
                "this server runs no evaluations (it was started with --max-evaluations 0)",
            ));
        }
        let (clients, who) = self.share_of(&client);
        clients
            .check_rate(who)
            .map_err(|wait| self.refusal(wait, clients))?;
        let Some(key) = key else {
            return self.search::<G>(state, budget, seed, client).await;
        };
        let this = self.clone();
        let flight = key.flight();
        let work = async move {
            let answer = this.search::<G>(state, budget, seed, client).await;
            if let Ok(answer) = &answer
                && (answer.exact || answer.playouts == u64::from(key.playouts))
            {
                // A search cut short by the wall-clock cap is not the reproducible answer.
                this.cache.insert(key, answer.clone());
            }
            answer
        };
        self.flights.run(flight, work).await.0
    }

    /// Runs one search on the blocking pool under a permit and the client's slot.
    async fn search<G: Strategy>(
        &self,
        state: G::State,
        budget: Budget,
        seed: u64,
        client: Client,
    ) -> Result<EvaluateResponse, ApiError> {
        let (clients, who) = self.share_of(&client);
        let slot = clients
            .start(who)
            .map_err(|wait| self.refusal(wait, clients))?;
        // Waits its turn for a permit, fair between clients (the sites as one).
        let permit = self
            .pool
            .acquire(who, self.config.patience())
            .await
            .ok_or_else(|| {
                self.overloaded(format!(
                    "{} evaluations are running and others wait their turn; retry shortly",
                    self.config.max_evaluations
                ))
            })?;
        let cutoff = self.config.wall_cap().cutoff();
        crate::blocking::off_workers(move || {
            let _held = (permit, slot);
            problem_on_panic(|| {
                let thought = think::<G>(&state, budget, seed, Some(cutoff));
                Ok(answer::<G>(&state, &thought))
            })
        })
        .await
        .map_err(|e| ApiError::internal(format!("the search could not run: {e}")))?
    }

    /// The shares `client` counts against and its key in them: an address's among the
    /// others, or its site's own (one client: its whole traffic).
    fn share_of<'a>(&'a self, client: &'a Client) -> (&'a Clients, Option<IpAddr>) {
        match client {
            Client::Address(address) => (&self.clients, *address),
            Client::Site(site) => (&site.requests, None),
        }
    }

    /// The answer to a client over its share: 429 with the wait, or 503 while its own searches
    /// run (they end within the wall-clock cap).
    fn refusal(&self, wait: Wait, clients: &Clients) -> ApiError {
        let share = clients.share();
        match wait {
            Wait::Rate(wait) => ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "this client may send {} evaluations at once and one more every {} ms; retry after the wait",
                    share.burst,
                    share.every.as_millis()
                ),
            )
            // Whole seconds, rounded up: a client waiting that long is sure to pass.
            .retry_after(u64::try_from(wait.as_nanos().div_ceil(1_000_000_000)).unwrap_or(u64::MAX).max(1)),
            Wait::Running => self.overloaded(format!(
                "this client's searches fill its share ({} at once); retry when one ends",
                share.running
            )),
        }
    }
}
