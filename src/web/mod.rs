//! The play pages: server-rendered, the position in the URL, every action a link or a form.
//!
//! - [`page_game`]: what each game gives the pages (board, words, rules) — the seam;
//! - [`link`]: the link's codec (options and moves); [`replay`]: replays a link;
//! - [`view`]: the game page's view data, generic; [`options_form`]: the options form;
//! - [`opponent`]: the computer's moves and hints; [`rulebook`]: the binding rules and notation;
//! - [`handlers`]: the routes; [`error`]: friendly error pages;
//! - one module per game: [`herfor`], [`tara`], [`hirth`].

pub mod blocking;
pub mod embed;
pub mod error;
pub mod handlers;
pub mod herfor;
pub mod hirth;
pub mod link;
pub mod opponent;
pub mod options_form;
pub mod page_game;
pub mod preview;
pub mod replay;
pub mod rulebook;
pub mod tara;
pub mod view;

pub use page_game::{PageGame, Playable};

/// Registers the pages' routes.
pub fn configure(config: &mut actix_web::web::ServiceConfig) {
    config
        .service(handlers::play)
        .service(handlers::record)
        .service(handlers::rules)
        .service(embed::embed);
}
