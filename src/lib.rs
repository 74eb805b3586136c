//! Moot: a referee for Hirþ, The High Kings of Tara and Herfor.
//!
//! - [`games`]: the rules engines behind one [`games::Game`] trait (pure, no I/O);
//! - `api`: the stateless JSON API over HTTP, documented with OpenAPI;
//! - `web`: the server-rendered play pages;
//! - `ai`: the computer player (Monte Carlo tree search over the `Game` trait).

pub mod games;
