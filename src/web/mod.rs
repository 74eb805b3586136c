//! The play pages: server-rendered, the position in the URL, every action a link or a form.
//!
//! - [`page_game`]: what each game gives the pages (board, words, rules) — the seam;
//! - [`position`]: the link's codec (options and moves); [`replay`]: replays a link;
//! - [`view`]: the game page's view data, generic; [`options_form`]: the options form;
//! - [`opponent`]: the computer's moves and hints;
//! - [`handlers`]: the routes; [`error`]: friendly error pages;
//! - one module per game: [`herfor`], [`tara`], [`hirth`].

/// Calls `$body` with `$G` bound to the engine type of a game that has play pages, or
/// evaluates `$unknown` when none has that id.
macro_rules! with_page_game {
    ($id:expr, $G:ident => $body:expr, else $unknown:expr) => {
        match $id {
            "herfor" => {
                type $G = $crate::games::herfor::Herfor;
                $body
            }
            "tara" => {
                type $G = $crate::games::tara::Tara;
                $body
            }
            "hirth" => {
                type $G = $crate::games::hirth::Hirth;
                $body
            }
            _ => $unknown,
        }
    };
}

pub mod error;
pub mod handlers;
pub mod herfor;
pub mod hirth;
pub mod opponent;
pub mod options_form;
pub mod page_game;
pub mod position;
pub mod replay;
pub mod tara;
pub mod view;

pub use page_game::{PageGame, Playable};

/// Whether a game has play pages.
pub fn has_pages(id: &str) -> bool {
    with_page_game!(id, _G => true, else false)
}

/// Registers the pages' routes.
pub fn configure(config: &mut actix_web::web::ServiceConfig) {
    config
        .service(handlers::play)
        .service(handlers::record)
        .service(handlers::rules);
}
