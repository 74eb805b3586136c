//! The play pages over HTTP: server-rendered, the position in the URL, every action a link or
//! a form. What a page shows (the link's codec, replay, each game's words and boards, the view
//! data, a kept table's pages) is the presentation layer, the `moot-present` crate; this module
//! serves it. The pages' paths are [`crate::paths`].
//!
//! - [`handlers`]: the routes of a link's game (play, record, rules); [`embed`]: the board
//!   other sites frame;
//! - [`opponent`]: the computer's moves and hints, searched under the pages' own limits;
//! - [`options_form`]: a game's options form, built from its options' OpenAPI schema;
//! - [`tables`]: kept tables: "Play a friend", each seat's page, the spectators' page;
//! - [`player`]: the browser's player, a player key kept in a cookie; [`your_games`]: its
//!   tables, and its feed for the pages' script; [`games_link`]: the header's link to them;
//! - [`challenges`]: "Find an opponent": open challenges, invitations, and the forms that make,
//!   accept, decline and cancel them;
//! - [`notifications`]: the browser's notices (Web Push) turned on and off for its player;
//!   [`same_origin`]: such a change is taken from Moot's own pages only;
//! - [`answers`]: a page of HTML, a redirect; [`downloads`]: the record's picture and
//!   animation;
//! - [`clock_form`]: a clock of one's own, as the create forms send it;
//! - [`error`]: friendly error pages, and a link's error as one;
//! - [`blocking`]: page work that grows with the link runs off the async workers.

pub mod answers;
pub mod blocking;
pub mod challenges;
pub mod clock_form;
pub mod downloads;
pub mod embed;
pub mod error;
pub mod games_link;
pub mod handlers;
pub mod notifications;
pub mod opponent;
pub mod options_form;
pub mod player;
pub mod same_origin;
pub mod tables;
pub mod your_games;

pub use moot_present::{PageGame, Playable};

/// Registers the pages' routes.
pub fn configure(config: &mut actix_web::web::ServiceConfig) {
    config
        .service(handlers::play)
        .service(handlers::record)
        .service(handlers::rules)
        .service(embed::embed)
        .service(your_games::your_games)
        .service(your_games::your_events)
        .service(notifications::turn_on)
        .service(notifications::turn_off)
        .service(challenges::list)
        .service(challenges::create)
        .service(challenges::challenge_page)
        .service(challenges::accept)
        .service(challenges::decline)
        .service(challenges::cancel)
        .configure(tables::configure);
}
