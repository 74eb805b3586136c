//! The JSON API (v1): stateless (the client holds the state and sends it with each request),
//! and the tables Moot keeps for correspondence play.
//!
//! - [`body`]: the extractors (game id, JSON body under the size limit and the decoding
//!   budget); [`json_scan`]: the pass that bounds a body before it is parsed;
//! - [`types`]: request and response bodies; [`schemas`]: the game-dependent schema unions;
//! - [`ops`]: the operations, generic over [`Game`](moot_games::Game);
//! - [`handlers`]: the actix handlers; [`problem`]: errors as problem+json; [`serialized`]:
//!   answers written to JSON off the async workers;
//! - [`evaluate`]: the computer player's endpoint, its policy (errors, cache) on [`crate::compute`];
//!   [`analysis`]: its request's budget and seed, and its answer;
//! - [`docs`]: the OpenAPI document; [`examples`]: its examples, computed by playing;
//! - [`tables`]: tables Moot keeps (seats, credentials, moves), over [`crate::tables`];
//!   [`table_events`]: a table's events as they happen (server-sent events);
//! - [`contract`]: the published document, with one typed path per game and operation.

pub mod analysis;
pub mod body;
pub mod contract;
pub mod docs;
pub mod evaluate;
pub mod examples;
pub mod handlers;
pub mod json_scan;
pub mod ops;
pub mod picture;
pub mod problem;
pub mod schemas;
pub mod serialized;
pub mod table_events;
pub mod tables;
pub mod types;

pub use problem::{ApiError, ErrorCode, Problem};

/// Registers the API's routes under `/api/v1`.
pub fn configure(config: &mut utoipa_actix_web::service_config::ServiceConfig) {
    config.service(
        utoipa_actix_web::scope("/api/v1")
            .service(handlers::list_games)
            .service(handlers::new_game)
            .service(handlers::legal_moves)
            .service(handlers::apply)
            .service(handlers::score)
            .service(handlers::replay)
            .service(handlers::evaluate)
            .service(picture::picture_of_state)
            .service(picture::picture_of_link)
            .service(picture::animation_of_link)
            .service(tables::create_table)
            .service(tables::get_table)
            .service(tables::table_history)
            .service(tables::play_move)
            .service(tables::resign)
            .service(tables::claim)
            .service(table_events::table_events),
    );
}
