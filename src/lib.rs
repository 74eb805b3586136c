//! Moot: a referee for Hirþ, The High Kings of Tara and Herfor.
//!
//! - [`games`]: the rules engines behind one [`games::Game`] trait (pure, no I/O);
//! - [`api`]: the stateless JSON API over HTTP, documented with OpenAPI;
//! - [`site`]: the home page, stylesheet, health check;
//! - [`web`]: the server-rendered play pages;
//! - [`tables`]: tables Moot keeps (SQLite or PostgreSQL), which the API serves;
//! - [`webhooks`]: the tables' events posted to the URLs they name, signed and retried;
//! - [`push`]: players' notices sent to their browsers by Web Push, encrypted and signed;
//! - [`ai`]: the computer player (Monte Carlo tree search over the `Game` trait);
//! - [`compute`]: its governance on a server (permits, client shares, the wall-clock cap,
//!   single flight, the cache), of which the API and the pages build their own policies;
//! - [`serve`]: the middleware a service behind a site needs (CORS, compression, request ids,
//!   access log, metrics, security headers);
//! - [`site_keys`]: the keys a site's backend sends to be counted against its own budgets;
//!   [`digest`]: secrets kept as digests (seat credentials, site keys).
//!
//! [`app()`] builds the whole actix application ([`mod@app`]): the server binary and the tests
//! share it.

/// The computer player: the `moot-ai` crate of this workspace.
pub use moot_ai as ai;
pub mod api;
pub mod app;
pub mod blocking;
pub mod client;
pub mod compute;
pub mod connection;
pub mod digest;
pub mod extract;
/// The rules engines: the `moot-games` crate of this workspace.
pub use moot_games as games;
pub use moot_games::with_game;
pub mod limits;
pub mod paths;
pub mod push;
/// Pictures of positions and games: the `moot-pictures` crate of this workspace.
pub use moot_pictures as picture;
/// How a game is shown to people, with no HTTP: the `moot-present` crate of this workspace.
pub use moot_present as present;
pub mod serve;
pub mod site;
pub mod site_keys;
pub mod tables;
pub mod web;
pub mod webhooks;

pub use api::evaluate::Evaluator;
pub use app::{Computer, app, app_for, app_with, contract, openapi};
pub use compute::AiConfig;
pub use web::opponent::PageSearches;
