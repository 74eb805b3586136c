//! Each game's move notation, for the descriptions of its operations: the strings `apply`
//! takes and `legal-moves` lists. Each engine states its own ([`moot_games::Game::NOTATION`]).

use moot_games::Game;

/// The move notation of the game `id`, in Markdown.
pub fn of(id: &str) -> &'static str {
    moot_games::with_game!(id, G => G::NOTATION,
        else "Moves are written in the game's notation, as `legal-moves` lists them.")
}
