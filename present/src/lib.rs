//! How Moot shows a game to people, with no HTTP: the link that holds a game ([`link`]: its
//! options, opponent and moves, read within [`limits`]), its replay ([`replay`]), what each
//! game gives the pages ([`page_game`]: board, words, rules; one module per game: [`herfor`],
//! [`tara`], [`hirth`]), the generic view data of a game page ([`view`]), the moves a page
//! sends, checked ([`submit`]), a kept table's pages and their words ([`table`]), words every
//! page shares ([`words`]: a colour capitalised, a score as rows), link previews ([`preview`])
//! and the rules for players ([`rulebook`]).
//!
//! The server's pages and pictures build on it; it knows nothing of them. Its errors are its
//! own ([`link::LinkError`]): each surface answers them its own way.

pub mod challenges;
pub mod herfor;
pub mod hirth;
pub mod limits;
pub mod link;
pub mod notifications;
pub mod page_game;
pub mod preview;
pub mod refusal;
pub mod replay;
pub mod rulebook;
pub mod submit;
pub mod table;
pub mod tara;
#[cfg(test)]
mod testing;
pub mod view;
pub mod words;
pub mod your_games;

pub use page_game::{PageGame, Playable};
