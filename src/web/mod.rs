//! The server-rendered play pages: each game's board, words and rules, behind [`page_game::PageGame`].

pub mod hirth;
pub mod page_game;
pub mod tara;
