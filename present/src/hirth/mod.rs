//! The Hirþ parts of the play pages: the board picture with its links, words for moves and
//! events, the side panel and the rules for players.
//!
//! A click on the board says a move only where it is unambiguous: a space a piece can move to
//! (one tagged badge per piece and origin when several can), the reserve's H and K to enter
//! them, a retreat space. Boarding, disembarking, ending the movement phase (with the choice
//! of entries) and the Penningr are left to the page's buttons.
//!
//! The parts, one job each:
//! - `board`: the board's view data (spaces, links, attacks, reserves, last turn's traces);
//! - `words`: names, the words and headings for moves, the descriptions of events;
//! - `panel`: the side panel's facts;
//! - `rules`: the rules for players and their example position.

mod board;
pub use board::mark_hint;
mod panel;
mod rules;
#[cfg(test)]
mod tests;
mod words;

use maud::Markup;
use moot_templates::drawing::{Drawing, Look};
use moot_templates::hirth as view;

use super::page_game::{Intro, OptionWords, PageGame, Playable, PlayerNames};
use super::replay::Ply;
use super::rulebook::Rulebook;
use moot_games::hirth::{Hirth, HirthState, Move};

impl PageGame for Hirth {
    const RULEBOOK: Rulebook = Rulebook {
        rules: include_str!("../../../rules/hirth.md"),
        notation: include_str!("../../../rules/hirth-notation.md"),
    };
    const INTRO: Intro = Intro {
        what: "A Norse race and battle: up to five steps a turn with warriors, boats and your \
               Lofðungr across eleven spaces; kill the enemy's on Miðr or hold the middle.",
        length: "Until a Lofðungr falls or one side holds the middle; a match plays games \
                 to the points chosen",
        players: "Two players, Gull (gold) and Silfr (silver)",
    };

    fn option_words(name: &str) -> Option<OptionWords> {
        Some(match name {
            "target" => OptionWords {
                label: "Points to win",
                help: "1 plays a single game; more plays a match of games until one player \
                       has that many points.",
            },
            _ => return None,
        })
    }

    fn drawing(
        state: &HirthState,
        playable: &[Playable<Move>],
        last: &[Ply<Hirth>],
        hint: Option<&Move>,
        look: Look,
    ) -> Drawing {
        let mut board = board::board_view(state, playable, last);
        if let Some(hint) = hint {
            mark_hint(&mut board, state, hint);
        }
        view::drawing(&board, look)
    }

    fn label(state: &HirthState, mv: &Move) -> String {
        words::label(state, mv)
    }

    fn group(state: &HirthState, mv: &Move) -> String {
        words::group(state, mv)
    }

    /// The Penningr offer doubles the stakes: a choice beside the turn, not a step of it.
    fn secondary(_state: &HirthState, mv: &Move) -> bool {
        matches!(mv, Move::Offer)
    }

    fn describe(
        ply: &Ply<Hirth>,
        options: &<Hirth as moot_games::Game>::Options,
        players: PlayerNames,
    ) -> Vec<String> {
        words::describe(ply, options.target == 1, players)
    }

    fn panel(state: &HirthState, players: PlayerNames) -> Markup {
        panel::panel(state, players)
    }

    fn rules() -> Markup {
        rules::rules()
    }

    fn end_words(state: &HirthState, players: PlayerNames) -> Option<String> {
        words::match_end_words(state, players)
    }

    fn score_words(state: &HirthState, players: PlayerNames) -> Vec<(String, String)> {
        words::score_words(state, players)
    }
}
