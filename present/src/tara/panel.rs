//! The Tara side panel: each side's kings, kingdoms, territory and Battle, and the match.

use maud::Markup;
use moot_templates::parts::{Fact, facts_table};

use crate::page_game::PlayerNames;
use moot_games::Game;
use moot_games::tara::moves::forced_king;
use moot_games::tara::state::{KINGS_PER_COLOUR, RINGFORTS_PER_COLOUR};
use moot_games::tara::{Colour, Tara, TaraState};

pub(super) fn panel(state: &TaraState, players: PlayerNames) -> Markup {
    let score = Tara::score(state);
    let both = |f: &dyn Fn(Colour) -> String| Colour::BOTH.map(f);
    // The players as the rest of the page names them (a colour keeps its seat for the whole
    // game and match).
    let players = both(&|c| players.name(state.options.seat_of(c), c.title()));
    let side_of = |c: Colour| match c {
        Colour::Red => &score.red,
        Colour::Blue => &score.blue,
    };
    let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
    let mut facts = Vec::new();
    if Colour::BOTH
        .into_iter()
        .any(|c| state.kings_placed(c) < KINGS_PER_COLOUR)
    {
        facts.push(Fact::new(
            "Kings still to place",
            both(&|c| {
                KINGS_PER_COLOUR
                    .saturating_sub(state.kings_placed(c))
                    .to_string()
            }),
        ));
    }
    facts.push(Fact::new(
        "Kings on the board",
        both(&|c| side_of(c).kings_on_board.to_string()),
    ));
    facts.push(Fact::new(
        "Enemy kings captured",
        both(&|c| side_of(c).captured_kings.to_string()),
    ));
    facts.push(Fact::new(
        "Kingdoms (fewer wins)",
        both(&|c| side_of(c).kingdoms.to_string()),
    ));
    facts.push(Fact::new(
        "Territory (ringforts)",
        both(&|c| format!("{} of {RINGFORTS_PER_COLOUR}", side_of(c).territory)),
    ));
    facts.push(Fact::new("In Battle", both(&|c| yes(*state.battle.get(c)))));
    if state.passed.red || state.passed.blue {
        facts.push(Fact::new("Passed", both(&|c| yes(*state.passed.get(c)))));
    }
    if let Some(points) = state.game1_points {
        facts.push(Fact::new(
            "Points in game 1",
            both(&|c| points.get(c).to_string()),
        ));
    }
    if state.over {
        facts.push(Fact::new(
            "Points",
            both(&|c| side_of(c).points.unwrap_or(0).to_string()),
        ));
    }
    // Who is to move is the page's status line; the notes say what else is going on.
    let mut notes = Vec::new();
    if state.options.is_match {
        notes.push(format!("Game {} of a two-game match.", state.game));
    }
    if state.options.level == 2 {
        notes.push("Level 2: sacrifices are allowed (T11).".to_string());
    }
    if let Some(colour) = state.final_turn.filter(|_| !state.over) {
        notes.push(format!(
            "{} has one more turn, then the game ends.",
            colour.title()
        ));
    }
    if let Some(king) = forced_king(state) {
        notes.push(format!(
            "The king on {king} sacrificed last turn: it must move now."
        ));
    }
    facts_table(&players, &facts, &notes)
}
