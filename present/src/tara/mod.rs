//! The Tara parts of the play pages: the board picture with its links, words for moves and
//! events, the side panel and the rules for players.
//!
//! The parts, one job each:
//! - `board`: the board's view data (hills, links, bridges, the last move's marks);
//! - `words`: the words and headings for moves, the descriptions of events;
//! - `panel`: the side panel's facts;
//! - `rules`: the rules for players and their example position.

mod board;
mod panel;
mod rules;
#[cfg(test)]
mod tests;
mod words;

pub use board::mark_hint;

use maud::Markup;
use moot_templates::drawing::{Drawing, Look};
use moot_templates::tara as view;

use super::page_game::{Intro, OptionWords, PageGame, Playable, PlayerNames};
use super::replay::Ply;
use super::rulebook::Rulebook;
use moot_games::Game;
use moot_games::tara::{Colour, Tara, TaraMove, TaraState};

impl PageGame for Tara {
    const RULEBOOK: Rulebook = Rulebook {
        rules: include_str!("../../../rules/tara.md"),
        notation: include_str!("../../../rules/tara-notation.md"),
    };
    const INTRO: Intro = Intro {
        what: "Three kings each, moving like knights across 45 hills: every landing builds a \
               ringfort; besiege the enemy's forts, capture its kings, end with fewer \
               kingdoms.",
        length: "About 45 moves: most build on one of the 45 hills",
        players: "Two players, Red and Blue",
    };

    fn option_words(name: &str) -> Option<OptionWords> {
        Some(match name {
            "first" => OptionWords {
                label: "Who starts",
                help: "The colour that builds the first ringfort.",
            },
            "level" => OptionWords {
                label: "Level",
                help: "Level 2 lets a cornered king hand a besieged ringfort of its own to the \
                       enemy and stand on it, safe for a turn.",
            },
            "match" => OptionWords {
                label: "A match of two games",
                help: "Each player starts one game; the points of both add up.",
            },
            _ => return None,
        })
    }

    fn drawing(
        state: &TaraState,
        playable: &[Playable<TaraMove>],
        last: &[Ply<Tara>],
        hint: Option<&TaraMove>,
        look: Look,
    ) -> Drawing {
        let mut board = board::board_view(state, playable, last);
        if let Some(hint) = hint {
            mark_hint(&mut board, hint);
        }
        view::drawing(&board, look)
    }

    fn label(state: &TaraState, mv: &TaraMove) -> String {
        words::label(state, mv)
    }

    fn group(state: &TaraState, mv: &TaraMove) -> String {
        words::group(state, mv)
    }

    /// Tara's events name the players by colour (`Red's king`), which stays with a seat for
    /// the whole match; the "What happened" list says whose move it was.
    fn describe(
        ply: &Ply<Tara>,
        _options: &<Tara as Game>::Options,
        _players: PlayerNames,
    ) -> Vec<String> {
        ply.events.iter().map(words::describe).collect()
    }

    fn panel(state: &TaraState, players: PlayerNames) -> Markup {
        panel::panel(state, players)
    }

    fn rules() -> Markup {
        rules::rules()
    }

    fn score_words(state: &TaraState, players: PlayerNames) -> Vec<(String, String)> {
        let score = Tara::score(state);
        let mut rows: Vec<(String, String)> =
            [(Colour::Red, &score.red), (Colour::Blue, &score.blue)]
                .into_iter()
                .map(|(colour, s)| {
                    let mut words = format!(
                        "{} kingdom{}, {} ringfort{}, {} king{} captured, {} on the board",
                        s.kingdoms,
                        plural(s.kingdoms),
                        s.territory,
                        plural(s.territory),
                        s.captured_kings,
                        plural(u32::from(s.captured_kings)),
                        s.kings_on_board
                    );
                    if let Some(points) = s.points {
                        words.push_str(&format!("; {points} point{}", plural(points)));
                    }
                    if let Some(points) = s.match_points {
                        words.push_str(&format!(" ({points} in the match)"));
                    }
                    (
                        players.name(state.options.seat_of(colour), colour.name()),
                        words,
                    )
                })
                .collect();
        if let Some(result) = &score.result {
            rows.push(("How it ended".to_owned(), result.clone()));
        }
        rows
    }
}

fn plural(count: u32) -> &'static str {
    if count == 1 { "" } else { "s" }
}
