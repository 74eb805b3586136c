//! The JSON API (v1): stateless (the client holds the state and sends it with each request),
//! and the tables Moot keeps for correspondence play.
//!
//! - [`body`]: the extractors (game id, JSON body under the size limit and the decoding
//!   budget); [`json_scan`]: the pass that bounds a body before it is parsed;
//! - [`types`]: request and response bodies; [`schemas`]: the game-dependent schema unions;
//! - [`ops`]: the operations, generic over [`Game`](moot_games::Game);
//! - [`handlers`]: the actix handlers; [`serialized`]: answers written to JSON off the async
//!   workers;
//! - [`problem`]: errors as problem+json, and a panic answered as one; [`error_code`]: the
//!   problems' stable codes, with their statuses and titles;
//! - [`evaluate`]: the computer player's endpoint, its policy (errors, cache) on [`crate::compute`];
//!   [`analysis`]: its request's budget and seed, and its answer;
//! - [`picture`]: pictures of a position, and of a game's link, and its animation;
//! - [`tables`]: tables Moot keeps (seats, credentials, moves, events), over [`crate::tables`];
//! - [`docs`]: the OpenAPI document; [`examples`]: its examples, computed by playing;
//!   [`documented`]: its routes and their methods, for the answer to a wrong method;
//! - [`contract`]: the published document, with one typed path per game and operation.
//!
//! Imports run one way: the handlers use the operations, the operations the bodies; the
//! examples use the operations, and the document uses the examples.

pub mod analysis;
pub mod body;
pub mod contract;
pub mod docs;
pub mod documented;
pub mod error_code;
pub mod evaluate;
pub mod examples;
pub mod handlers;
pub mod json_scan;
pub mod ops;
pub mod picture;
pub mod problem;
pub mod schemas;
pub mod serialized;
pub mod site_key;
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
            .configure(tables::configure),
    );
}
