//! The server's tests in one binary: the HTTP API, its contract and errors, the pages and
//! pictures, the site's middleware, and the `moot` binary's command line. One module a subject;
//! the helpers they share are in `tests/common/`.
//!
//! The modules run side by side in one process, so none of them may change process-wide state
//! (environment variables, a global tracing subscriber): each test builds its own app, with its
//! own evaluator and metrics. The tests that need a process of their own are binaries apart:
//! `access_log.rs`, `browser/`, `clients.rs`, `replicas.rs` and `schemathesis.rs`. The tables'
//! tests (`tables/`) run each case on SQLite and on PostgreSQL.

#[path = "../common/mod.rs"]
mod common;

mod api;
mod cli;
mod connections;
mod contract;
mod errors;
mod evaluate;
mod limits;
mod openapi;
mod pages;
mod pictures;
mod robustness;
mod site;
mod site_keys;
mod states;
mod tables;
