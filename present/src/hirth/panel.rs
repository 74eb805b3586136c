//! The Hirþ side panel: reserves, steps left, the Penningr and the match score.

use maud::Markup;
use moot_templates::parts::{Fact, facts_table};

use super::words::{Sides, last_game_words};
use crate::page_game::PlayerNames;
use moot_games::hirth::{Colour, HirthState, Phase, STEPS_PER_TURN};

pub(super) fn panel(state: &HirthState, players: PlayerNames) -> Markup {
    let pos = &state.position;
    let sides = Sides::of(state, players);
    let names = Colour::BOTH.map(|c| sides.name_of(c));
    let both = |f: &dyn Fn(Colour) -> String| Colour::BOTH.map(f).to_vec();
    let mut facts = vec![
        Fact::new(
            if state.options.target == 1 {
                "Points"
            } else {
                "Match points"
            },
            both(&|c| state.points[sides.seat(c).index()].to_string()),
        ),
        Fact::new(
            "Reserve",
            both(&|c| {
                let r = pos.reserve.get(c);
                format!("{} H, {} K", r.h, r.k)
            }),
        ),
        Fact::new(
            "H out of the game",
            both(&|c| pos.removed.get(c).to_string()),
        ),
    ];
    if state.phase == Phase::Movement {
        facts.push(Fact::new(
            "Steps left this turn",
            [format!(
                "{} of {STEPS_PER_TURN} ({} moving)",
                STEPS_PER_TURN.saturating_sub(pos.steps),
                sides.name_of(pos.mover)
            )],
        ));
    }
    let coin = match state.coin.holder {
        Some(c) => format!(
            "×{}; the Penningr is held by {}",
            state.coin.factor,
            sides.name_of(c)
        ),
        None => format!("×{}; the Penningr is neutral", state.coin.factor),
    };
    facts.push(Fact::new("Game worth", [coin]));
    // A target of 1 point is a single game: its rounds, no match.
    let game = match state.options.target {
        1 => format!("round {}; a single game", state.round),
        target => format!(
            "game {}, round {}; the match goes to {target} points",
            state.results.len() + usize::from(state.phase != Phase::Over),
            state.round,
        ),
    };
    facts.push(Fact::new("Game", [game]));
    // Who acts is the page's status line; the notes say what else is going on.
    let mut notes = Vec::new();
    if !state.results.is_empty() {
        notes.push(format!("Last game: {}.", last_game_words(state, players)));
    }
    facts_table(&names, &facts, &notes)
}
