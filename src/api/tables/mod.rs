//! Tables that Moot keeps, over HTTP: create a table, read it (`ETag`, `If-None-Match`), read its
//! history, play a move with a seat's credential (`Authorization: Bearer …`), resign, claim a
//! win on time, follow its events. The operations are [`crate::tables`]'s; this module reads
//! requests, keeps each client to its share of creations and wrong credentials, and answers
//! JSON or problems.
//!
//! - [`bodies`]: the request and answer bodies, made from what the tables keep (a clock's in
//!   [`clock_bodies`]);
//! - [`create`]: a new table; [`reads`]: a table and its history; [`seats`]: a seat's move,
//!   resignation, abort or claim; [`vacation`]: a seat's vacation started and ended;
//!   [`takeback`]: a seat's last move taken back, the other seat agreeing; [`rematch`]: another
//!   game between a finished table's seats (both take a seat's credential as `credential`
//!   reads it);
//!   [`events`]: a table's events as they happen (server-sent events);
//! - `refusals`: a refusal of the tables as a problem, and a client past its share;
//!   `stream_shares`: whose share an event stream counts against, and a stream past a cap;
//!   `answer`: a table as an HTTP answer, with its `ETag`;
//! - player keys: [`players`] makes one and reads it back; [`take_seat`]: a player takes a
//!   seat with the seat's credential; [`my_tables`]: a player's tables, filtered, a page at a
//!   time; [`my_events`]: the player's feed as it happens (server-sent events);
//!   [`player_bodies`]: their bodies;
//! - [`site_webhook`]: a site's one webhook, for every table and player its key made;
//! - Web Push: [`push`] gives the server's VAPID key and keeps a player's browsers'
//!   subscriptions; [`push_bodies`]: their bodies;
//! - challenges: [`challenges`] offers a game to anyone or to one player, lists, accepts
//!   (opening the table), declines and cancels; [`challenge_bodies`]: their bodies;
//! - [`examples`]: the document's examples of the bodies, made from a game really played.

mod answer;
pub mod bodies;
pub mod challenge_bodies;
pub mod challenges;
pub mod clock_bodies;
pub mod create;
mod credential;
pub mod events;
pub mod examples;
mod idempotency;
pub mod my_events;
pub mod my_tables;
pub mod player_bodies;
pub mod players;
pub mod push;
pub mod push_bodies;
pub mod reads;
pub(crate) mod refusals;
pub mod rematch;
pub mod seats;
pub mod site_webhook;
mod stream_shares;
pub mod take_seat;
pub mod takeback;
pub mod vacation;

pub(crate) use refusals::storage_unavailable;

/// Registers the tables' routes (within the API's scope).
pub fn configure(config: &mut utoipa_actix_web::service_config::ServiceConfig) {
    config
        .service(create::create_table)
        .service(reads::get_table)
        .service(reads::table_history)
        .service(seats::play_move)
        .service(seats::resign)
        .service(seats::abort)
        .service(seats::claim)
        .service(vacation::start_vacation)
        .service(vacation::end_vacation)
        .service(takeback::ask_takeback)
        .service(takeback::decline_takeback)
        .service(rematch::offer_rematch)
        .service(rematch::decline_rematch)
        .service(events::table_events)
        .service(players::create_player)
        .service(players::me)
        .service(players::set_webhook)
        .service(players::remove_webhook)
        .service(site_webhook::set_site_webhook)
        .service(site_webhook::site_webhook)
        .service(site_webhook::remove_site_webhook)
        .service(my_tables::my_tables)
        .service(my_events::my_events)
        .service(take_seat::take_seat)
        .service(push::push_key)
        .service(push::subscribe)
        .service(push::unsubscribe)
        .service(challenges::create_challenge)
        .service(challenges::list_challenges)
        .service(challenges::get_challenge)
        .service(challenges::accept_challenge)
        .service(challenges::decline_challenge)
        .service(challenges::cancel_challenge);
}
