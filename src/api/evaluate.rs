//! `POST …/evaluate`: the computer player's analysis of a position.
//!
//! The budget is checked against the server's caps before anything else is read; the state is
//! read and validated like every other endpoint's; an answer found in the cache is returned at
//! once; the same search asked for at once by another request is joined (single flight).
//! Otherwise the client's share is checked (its rate: 429 `rate_limited`; its searches running)
//! and the search takes one of a fixed number of permits (none left: 503 `overloaded`) and runs
//! on actix's blocking pool, off the async workers, stopped at the server's wall-clock cap
//! whatever its budget. The play pages have permits of their own, so API callers cannot starve
//! the players.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use dashmap::DashMap;

use super::handlers::guarded;
use super::ops::read_state;
use super::problem::{ApiError, ErrorCode};
use super::rate::{ClientSlot, Clients, Share, Wait};
use super::types::{EvaluateRequest, EvaluateResponse, MoveEvaluation};
use crate::ai::{Budget, Player, Strategy, Strength, Thought, think};
use crate::singleflight::Flights;
use crate::web::error::PageError;

/// The limits of the computer player on a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiConfig {
    /// The largest `playouts` a request may ask for.
    pub max_playouts: u32,
    /// The largest `millis` a request may ask for.
    pub max_millis: u64,
    /// API searches running at once.
    pub max_evaluations: usize,
    /// The wall-clock cap of every search (API and pages), whatever its budget, in
    /// milliseconds; never below `max_millis`.
    pub search_cap_ms: u64,
    /// Play-page searches (the computer's moves, hints) running at once, apart from the API's.
    pub max_page_evaluations: usize,
    /// Answers kept for repeated requests (0: no cache).
    pub cache_entries: usize,
    /// `evaluate` requests one client (peer IP address) may send in a burst…
    pub client_burst: u32,
    /// …and one more every this many milliseconds.
    pub client_every_ms: u64,
    /// Whether a client is known by the first `Forwarded`/`X-Forwarded-For` address (true only
    /// behind a reverse proxy that overwrites it) rather than by the connection's peer.
    pub trust_forwarded: bool,
}

impl Default for AiConfig {
    fn default() -> Self {
        AiConfig {
            max_playouts: 20_000,
            max_millis: 2_000,
            max_evaluations: 2,
            search_cap_ms: 2_500,
            max_page_evaluations: 2,
            cache_entries: 1_024,
            client_burst: 10,
            client_every_ms: 500,
            trust_forwarded: false,
        }
    }
}

impl AiConfig {
    /// The wall-clock cap of every search, whatever its budget.
    pub fn wall_cap(&self) -> Duration {
        Duration::from_millis(self.search_cap_ms.max(self.max_millis))
    }

    /// A truthful `Retry-After` for a full pool: every running search ends within the wall
    /// cap, so a permit is free by then (whole seconds, rounded up).
    pub fn retry_after_seconds(&self) -> u64 {
        (self.wall_cap().as_millis() as u64).div_ceil(1000).max(1)
    }

    /// Searches one client may run at once: fewer than all, so one client cannot hold every
    /// permit (at least one).
    fn per_client(total: usize) -> usize {
        total.saturating_sub(1).max(1)
    }
}

/// The strength that asks for the proven answer.
pub const PERFECT: &str = "perfect";

/// The largest `seed`: the largest integer JavaScript holds exactly (2^53 − 1), so that every
/// client can send every seed.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// The request's seed (0 when left out), refused over [`MAX_SEED`].
pub fn seed(request: &EvaluateRequest) -> Result<u64, ApiError> {
    match request.seed {
        Some(seed) if seed > MAX_SEED => Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!("seed: {seed} is over {MAX_SEED} (2^53 − 1), the largest seed taken"),
        )
        .with_field("seed")),
        seed => Ok(seed.unwrap_or(0)),
    }
}

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

/// A hint's analysis, shared by the requests that joined its search: of any game's moves (the
/// flight's key names the game, whose page takes its own type back out).
pub type HintAnswer = Arc<dyn std::any::Any + Send + Sync>;

/// The computer player's share of the server: its limits, permits (the API's and the pages'),
/// clients' shares, searches in flight and cache. Clones share them.
#[derive(Clone, Debug)]
pub struct Evaluator {
    config: AiConfig,
    running: Arc<AtomicUsize>,
    page_running: Arc<AtomicUsize>,
    clients: Clients,
    page_clients: Clients,
    cache: Arc<DashMap<CacheKey, EvaluateResponse>>,
    flights: Flights<Result<EvaluateResponse, ApiError>>,
    page_flights: Flights<Result<String, PageError>>,
    hint_flights: Flights<Result<HintAnswer, PageError>>,
    counts: Arc<Counts>,
}

/// Counted since the server started, for the metrics.
#[derive(Debug, Default)]
struct Counts {
    refused: AtomicU64,
    cache_hits: AtomicU64,
    cache_misses: AtomicU64,
    page_searches: AtomicU64,
}

/// The computer player's numbers for the metrics (see [`Evaluator::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Searches running now.
    pub running: usize,
    /// Searches refused since the start: the most allowed at once were running.
    pub refused: u64,
    /// `evaluate` answers found in the cache.
    pub cache_hits: u64,
    /// `evaluate` requests with a playout budget not found in the cache.
    pub cache_misses: u64,
    /// Play-page searches started (the computer's moves, hints); requests that joined a
    /// search under way are not counted.
    pub page_searches: u64,
}

/// The right to run one search; given back when dropped.
#[derive(Debug)]
pub struct Permit(Arc<AtomicUsize>);

impl Drop for Permit {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Evaluator {
    pub fn new(config: AiConfig) -> Self {
        let share = |total| Share {
            burst: config.client_burst.max(1),
            every: Duration::from_millis(config.client_every_ms),
            running: AiConfig::per_client(total),
        };
        Evaluator {
            config,
            running: Arc::new(AtomicUsize::new(0)),
            page_running: Arc::new(AtomicUsize::new(0)),
            clients: Clients::new(share(config.max_evaluations)),
            page_clients: Clients::new(share(config.max_page_evaluations)),
            cache: Arc::new(DashMap::new()),
            flights: Flights::default(),
            page_flights: Flights::default(),
            hint_flights: Flights::default(),
            counts: Arc::new(Counts::default()),
        }
    }

    pub fn stats(&self) -> SearchStats {
        SearchStats {
            running: self.running.load(Ordering::Acquire),
            refused: self.counts.refused.load(Ordering::Relaxed),
            cache_hits: self.counts.cache_hits.load(Ordering::Relaxed),
            cache_misses: self.counts.cache_misses.load(Ordering::Relaxed),
            page_searches: self.counts.page_searches.load(Ordering::Relaxed),
        }
    }

    pub fn config(&self) -> AiConfig {
        self.config
    }

    /// An API permit, if fewer than `max_evaluations` API searches are running.
    pub fn try_acquire(&self) -> Option<Permit> {
        let permit = acquire(&self.running, self.config.max_evaluations);
        if permit.is_none() && self.config.max_evaluations > 0 {
            self.counts.refused.fetch_add(1, Ordering::Relaxed);
        }
        permit
    }

    /// A play-page permit, if fewer than `max_page_evaluations` page searches are running.
    pub fn try_acquire_page(&self) -> Option<Permit> {
        let permit = acquire(&self.page_running, self.config.max_page_evaluations);
        if permit.is_some() {
            self.counts.page_searches.fetch_add(1, Ordering::Relaxed);
        }
        permit
    }

    /// A slot for one more page search of `client` (its searches at once are limited).
    pub fn page_slot(&self, client: Option<IpAddr>) -> Option<ClientSlot> {
        self.page_clients.start(client).ok()
    }

    /// The page searches in flight, joined by identical requests (a double click, a reload).
    pub fn page_flights(&self) -> &Flights<Result<String, PageError>> {
        &self.page_flights
    }

    /// The play pages' hint searches in flight, joined by identical requests.
    pub fn hint_flights(&self) -> &Flights<Result<HintAnswer, PageError>> {
        &self.hint_flights
    }

    /// The instant a search started now must stop by.
    pub fn cutoff(&self) -> Instant {
        Instant::now() + self.config.wall_cap()
    }

    /// 503 `overloaded`, with the wait after which a permit is sure to be free.
    fn overloaded(&self, detail: String) -> ApiError {
        ApiError::new(ErrorCode::Overloaded, detail).retry_after(self.config.retry_after_seconds())
    }

    /// `budget` cut down to this server's caps: the play pages' strengths obey them too.
    pub fn capped(&self, budget: Budget) -> Budget {
        match budget {
            Budget::Playouts(n) => Budget::Playouts(n.min(self.config.max_playouts)),
            Budget::Millis(ms) => Budget::Millis(ms.min(self.config.max_millis)),
        }
    }

    /// Answers held in the cache.
    pub fn cached(&self) -> usize {
        self.cache.len()
    }

    fn remember(&self, key: CacheKey, answer: &EvaluateResponse) {
        if self.config.cache_entries == 0 {
            return;
        }
        while self.cache.len() >= self.config.cache_entries {
            // Full: drop any one entry (which one does not matter for a cache of answers).
            let Some(victim) = self.cache.iter().next().map(|e| e.key().clone()) else {
                break;
            };
            self.cache.remove(&victim);
        }
        self.cache.insert(key, answer.clone());
    }

    /// The budget asked for in game `G`, within the caps: at most one of `playouts`, `millis`,
    /// `strength` (whose playouts depend on the game); none (and `perfect`, whose proof may fall
    /// back to a search) means the normal strength. An error names the member sent, which the
    /// client can change.
    pub fn budget<G: Strategy>(&self, request: &EvaluateRequest) -> Result<Budget, ApiError> {
        let max_playouts = u64::from(self.config.max_playouts);
        match (request.playouts, request.millis, &request.strength) {
            (Some(n), None, None) => {
                within("playouts", n, max_playouts, &format!("{n} is"))?;
                // Within the cap, which is a u32.
                Ok(Budget::Playouts(u32::try_from(n).unwrap_or(u32::MAX)))
            }
            (None, Some(ms), None) => {
                within("millis", ms, self.config.max_millis, &format!("{ms} is"))?;
                Ok(Budget::Millis(ms))
            }
            (None, None, name) => {
                let strength = match name.as_deref() {
                    None | Some(PERFECT) => Strength::Normal,
                    Some(name) => Strength::from_name(name).ok_or_else(|| {
                        ApiError::new(
                            ErrorCode::InvalidRequest,
                            format!(
                                "strength: {name:?} is not a strength: use easy, normal, strong \
                                 or perfect"
                            ),
                        )
                        .with_field("strength")
                    })?,
                };
                let budget = strength.budget::<G>();
                let (asked, cap, unit) = match budget {
                    Budget::Playouts(n) => (u64::from(n), max_playouts, "playouts"),
                    Budget::Millis(ms) => (ms, self.config.max_millis, "milliseconds"),
                };
                let what = format!("{} is {asked} {unit},", strength.name());
                within("strength", asked, cap, &what)?;
                Ok(budget)
            }
            _ => Err(ApiError::new(
                ErrorCode::InvalidRequest,
                "send at most one of `playouts`, `millis` and `strength`",
            )),
        }
    }

    /// The whole operation for one game; `client` is the peer's address, whose share is kept.
    pub async fn evaluate<G: Strategy>(
        &self,
        request: EvaluateRequest,
        client: Option<IpAddr>,
    ) -> Result<EvaluateResponse, ApiError> {
        let budget = self.budget::<G>(&request)?;
        let seed = seed(&request)?;
        let state = guarded(|| read_state::<G>(request.state, "state"))?;
        // Hirþ's record and notes are history: not searched, not part of the key.
        let state = guarded(|| Ok(G::search_root(&state)))?;
        if request.strength.as_deref() == Some(PERFECT) && !G::solved(&state) {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "strength: perfect play is known only where the game is solved (Herfor on \
                     boards of size {}); use easy, normal or strong",
                    crate::ai::perfect::SOLVED_SIZE
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
            self.counts.cache_hits.fetch_add(1, Ordering::Relaxed);
            return Ok(EvaluateResponse {
                cached: true,
                ..hit.clone()
            });
        }
        if key.is_some() {
            self.counts.cache_misses.fetch_add(1, Ordering::Relaxed);
        }
        if self.config.max_evaluations == 0 {
            // Not busy but switched off: a 503 would ask the client to retry for ever.
            return Err(ApiError::new(
                ErrorCode::EvaluateOff,
                "this server runs no evaluations (it was started with --max-evaluations 0)",
            ));
        }
        self.clients
            .check_rate(client)
            .map_err(|wait| self.refusal(wait))?;
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
                this.remember(key, answer);
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
        client: Option<IpAddr>,
    ) -> Result<EvaluateResponse, ApiError> {
        let slot = self
            .clients
            .start(client)
            .map_err(|wait| self.refusal(wait))?;
        let permit = self.try_acquire().ok_or_else(|| {
            self.overloaded(format!(
                "{} evaluations are running, the most this server runs at once; retry shortly",
                self.config.max_evaluations
            ))
        })?;
        let cutoff = self.cutoff();
        crate::serve::priority::off_workers(move || {
            let _held = (permit, slot);
            guarded(|| {
                let thought = think::<G>(&state, budget, seed, Some(cutoff));
                Ok(answer::<G>(&state, &thought))
            })
        })
        .await
        .map_err(|e| ApiError::internal(format!("the search could not run: {e}")))?
    }

    /// The answer to a client over its share: 429 with the wait, or 503 while its own searches
    /// run (they end within the wall-clock cap).
    fn refusal(&self, wait: Wait) -> ApiError {
        match wait {
            Wait::Rate(wait) => ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "this client may send {} evaluations at once and one more every {} ms; retry after the wait",
                    self.config.client_burst, self.config.client_every_ms
                ),
            )
            // Whole seconds, rounded up: a client waiting that long is sure to pass.
            .retry_after(u64::try_from(wait.as_nanos().div_ceil(1_000_000_000)).unwrap_or(u64::MAX).max(1)),
            Wait::Running => self.overloaded(format!(
                "this client's searches fill its share ({} at once); retry when one ends",
                self.clients.share().running
            )),
        }
    }
}

/// A permit of `pool`, if fewer than `limit` are out.
fn acquire(pool: &Arc<AtomicUsize>, limit: usize) -> Option<Permit> {
    pool.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
        (n < limit).then_some(n + 1)
    })
    .ok()
    .map(|_| Permit(pool.clone()))
}

/// Refuses a budget of 0 or over `cap`; `what` is the budget in words, for the message.
fn within(field: &'static str, asked: u64, cap: u64, what: &str) -> Result<(), ApiError> {
    if asked == 0 {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!("{field}: the budget must be at least 1"),
        )
        .with_field(field));
    }
    if asked > cap {
        return Err(ApiError::new(
            ErrorCode::BudgetTooLarge,
            format!("{field}: {what} over this server's cap of {cap}"),
        )
        .with_field(field));
    }
    Ok(())
}

/// The analysis (and its proof, if any) with moves in the game's notation.
pub fn answer<G: Player>(state: &G::State, thought: &Thought<G::Move>) -> EvaluateResponse {
    let analysis = &thought.analysis;
    let mut line = state.clone();
    let pv = analysis
        .pv
        .iter()
        .map(|mv| {
            let text = G::format_move(&line, mv);
            G::play_unchecked(&mut line, mv);
            text
        })
        .collect();
    EvaluateResponse {
        value: analysis.value,
        margin: analysis.margin,
        best_move: analysis
            .best_move
            .as_ref()
            .map(|mv| G::format_move(state, mv)),
        pv,
        moves: analysis
            .moves
            .iter()
            .map(|stat| MoveEvaluation {
                mv: G::format_move(state, &stat.mv),
                visits: stat.visits,
                value: stat.value,
            })
            .collect(),
        playouts: analysis.playouts,
        elapsed_ms: millis(analysis.elapsed),
        cached: false,
        exact: thought.proof.is_some(),
        best_moves: thought
            .proof
            .iter()
            .flat_map(|p| &p.best)
            .map(|mv| G::format_move(state, mv))
            .collect(),
        status: G::status(state),
    }
}

fn millis(elapsed: Duration) -> f64 {
    (elapsed.as_secs_f64() * 1e6).round() / 1e3
}
