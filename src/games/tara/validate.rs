//! Checks a state received from outside, naming the entry at fault (`ringforts.red[2]`).

use super::board::Board;
use super::geometry::{Hill, hills_of};
use super::state::{Colour, KINGS_PER_COLOUR, RINGFORTS_PER_COLOUR, STATE_VERSION, TaraState};
use crate::games::InvalidState;

type Check = Result<(), InvalidState>;

fn fail(path: impl Into<String>, reason: impl Into<String>) -> Check {
    Err(InvalidState::new(path, reason))
}

pub fn validate(state: &TaraState) -> Check {
    header(state)?;
    pieces(state)?;
    let board = Board::of(state);
    setup_and_turn(state, &board)?;
    battle(state, &board)?;
    endings(state, &board)?;
    sacrifice(state, &board)
}

fn header(state: &TaraState) -> Check {
    if state.version != STATE_VERSION {
        return fail(
            "version",
            format!(
                "unknown version {}; this engine reads {STATE_VERSION}",
                state.version
            ),
        );
    }
    if !matches!(state.options.level, 1 | 2) {
        return fail("options.level", "the level is 1 or 2");
    }
    let games = if state.options.is_match { 2 } else { 1 };
    if state.game < 1 || state.game > games {
        return fail(
            "game",
            format!(
                "must be 1{}",
                if games == 2 {
                    " or 2 in a match"
                } else {
                    " outside a match"
                }
            ),
        );
    }
    if state.game1_points.is_some() != (state.game == 2) {
        return fail(
            "game1_points",
            "present exactly when game 2 of a match is being played",
        );
    }
    Ok(())
}

fn pieces(state: &TaraState) -> Check {
    let mut ringforts = 0u64;
    for colour in Colour::BOTH {
        let name = colour.name();
        let list = state.ringforts.get(colour);
        for (i, hill) in list.iter().enumerate() {
            let path = format!("ringforts.{name}[{i}]");
            exists(*hill, &path)?;
            if ringforts & hill.bit() != 0 {
                return fail(path, format!("{hill} already holds a ringfort"));
            }
            ringforts |= hill.bit();
        }
        if list.len() > RINGFORTS_PER_COLOUR {
            return fail(
                format!("ringforts.{name}"),
                format!(
                    "{} ringforts: a colour has {RINGFORTS_PER_COLOUR} (T2)",
                    list.len()
                ),
            );
        }
    }
    let mut kings = 0u64;
    for colour in Colour::BOTH {
        let name = colour.name();
        let list = state.kings.get(colour);
        let own: u64 = state
            .ringforts
            .get(colour)
            .iter()
            .fold(0, |s, h| s | h.bit());
        let friendly: u64 = list.iter().fold(0, |s, h| s | h.bit());
        for (i, hill) in list.iter().enumerate() {
            let path = format!("kings.{name}[{i}]");
            exists(*hill, &path)?;
            if kings & hill.bit() != 0 {
                return fail(path, format!("two kings on {hill}"));
            }
            kings |= hill.bit();
            let sacrificed = state
                .sacrifice
                .is_some_and(|s| s.colour == colour && s.hill == *hill);
            if own & hill.bit() == 0 && !sacrificed {
                return fail(
                    path,
                    format!("the king on {hill} does not stand on a {name} ringfort (T2)"),
                );
            }
            if let Some(next) = hills_of(hill.neighbours() & friendly).next() {
                return fail(
                    path,
                    format!("the king on {hill} is next to the {name} king on {next} (T4)"),
                );
            }
        }
        let captured = *state.captured.get(colour.other()) as usize;
        if list.len() > KINGS_PER_COLOUR {
            return fail(
                format!("kings.{name}"),
                format!("{} kings: a colour has {KINGS_PER_COLOUR} (T2)", list.len()),
            );
        }
        if list.len() + captured > KINGS_PER_COLOUR {
            let path = format!("captured.{}", colour.other().name());
            return fail(
                path,
                format!(
                    "{captured} {name} kings captured and {} on the board: a colour has {KINGS_PER_COLOUR}",
                    list.len()
                ),
            );
        }
        if *state.passed.get(colour) && !list.is_empty() {
            return fail(
                format!("kings.{name}"),
                format!("{name} passed, which removed its kings (T10)"),
            );
        }
    }
    Ok(())
}

fn exists(hill: Hill, path: &str) -> Check {
    if hill == Hill::UNKNOWN {
        return fail(path, "not a hill name (columns A–G, rows 1–7)");
    }
    if !hill.exists() {
        return fail(
            path,
            format!("{hill} does not exist: the corners A1, A7, G1 and G7 are not hills (T1)"),
        );
    }
    Ok(())
}

fn setup_and_turn(state: &TaraState, board: &Board) -> Check {
    let starter = state.starter();
    let (first, second) = (
        state.kings_placed(starter),
        state.kings_placed(starter.other()),
    );
    if first < KINGS_PER_COLOUR || second < KINGS_PER_COLOUR {
        let expected = if first == second {
            starter
        } else if first == second + 1 {
            starter.other()
        } else {
            return fail(
                "kings",
                format!(
                    "{} placed {first} kings and {} {second}: setup alternates (T3)",
                    starter.name(),
                    starter.other().name()
                ),
            );
        };
        if state.to_move != expected && !state.over {
            return fail(
                "to_move",
                format!(
                    "in setup it is {}'s turn to place a king (T3)",
                    expected.name()
                ),
            );
        }
        for colour in Colour::BOTH {
            if *state.battle.get(colour) || *state.passed.get(colour) {
                return fail(
                    format!("battle.{}", colour.name()),
                    "no Battle or pass before setup ends",
                );
            }
        }
    }
    for colour in Colour::BOTH {
        if *state.battle.get(colour) {
            continue;
        }
        let own = board.ringforts(colour);
        for (i, hill) in state.ringforts.get(colour).iter().enumerate() {
            if hill.neighbours() & own != 0 {
                let path = format!("ringforts.{}[{i}]", colour.name());
                return fail(
                    path,
                    format!(
                        "{hill} touches another {} ringfort, which only Battle allows (T3, T5)",
                        colour.name()
                    ),
                );
            }
        }
    }
    Ok(())
}

fn battle(state: &TaraState, board: &Board) -> Check {
    if state.over || state.in_setup() {
        return Ok(());
    }
    let player = state.to_move;
    let path = format!("battle.{}", player.name());
    if *state.battle.get(player) || board.kings(player) == 0 {
        return Ok(());
    }
    if *state.battle.get(player.other()) {
        return fail(
            path,
            format!(
                "{} is in Battle, so {} entered it at the start of this turn (T6)",
                player.other().name(),
                player.name()
            ),
        );
    }
    if !board.any_mobile(player, false) {
        return fail(
            path,
            format!(
                "every {} king is immobile, so {} entered Battle at the start of this turn (T6)",
                player.name(),
                player.name()
            ),
        );
    }
    Ok(())
}

fn endings(state: &TaraState, board: &Board) -> Check {
    let double = Colour::BOTH
        .into_iter()
        .find(|&c| *state.captured.get(c) >= 2);
    let any_pass = state.passed.red || state.passed.blue;
    if state.over {
        if double.is_none() && !any_pass && board.vacant() != 0 {
            return fail(
                "over",
                "no double capture, pass or filled board ended the game (T10)",
            );
        }
        return Ok(());
    }
    if let Some(colour) = double {
        return fail(
            format!("captured.{}", colour.name()),
            "a double capture ends the game at once (T9)",
        );
    }
    if state.passed.red && state.passed.blue {
        return fail("passed", "both players passed, which ends the game (T10)");
    }
    for colour in Colour::BOTH {
        if *state.passed.get(colour)
            && (state.to_move == colour || state.final_turn != Some(colour.other()))
        {
            return fail(
                format!("passed.{}", colour.name()),
                "after a pass the opponent has its one more turn (T10)",
            );
        }
    }
    if let Some(colour) = state.final_turn {
        if colour != state.to_move {
            return fail(
                "final_turn",
                format!(
                    "{} has its one more turn but it is {}'s turn",
                    colour.name(),
                    state.to_move.name()
                ),
            );
        }
        if !any_pass && board.vacant() != 0 {
            return fail(
                "final_turn",
                "a one more turn follows a pass or the building on the last hill (T10)",
            );
        }
    }
    Ok(())
}

fn sacrifice(state: &TaraState, board: &Board) -> Check {
    let Some(marker) = state.sacrifice else {
        return Ok(());
    };
    let (colour, hill) = (marker.colour, marker.hill);
    if state.options.level != 2 {
        return fail("sacrifice", "sacrifices belong to Level 2 (T11)");
    }
    if state.over {
        return fail("sacrifice", "the game is over");
    }
    exists(hill, "sacrifice.hill")?;
    if board.kings(colour) & hill.bit() == 0 {
        return fail(
            "sacrifice.hill",
            format!("no {} king stands on {hill}", colour.name()),
        );
    }
    if board.ringforts(colour.other()) & hill.bit() == 0 {
        return fail(
            "sacrifice.hill",
            format!(
                "{hill} is not a {} ringfort: a sacrificed ringfort changes hands (T11)",
                colour.other().name()
            ),
        );
    }
    if *state.captured.get(colour.other()) == 0 || !*state.battle.get(colour) {
        return fail(
            "sacrifice",
            format!(
                "{} may sacrifice only in Battle once one of its kings was captured (T11)",
                colour.name()
            ),
        );
    }
    if state.to_move == colour {
        let battle = *state.battle.get(colour);
        let escapes = board.vacant_targets(colour, hill, battle)
            | board.backtrack_targets(colour, hill)
            | board.capture_targets(colour, hill);
        if escapes == 0 {
            return fail(
                "sacrifice",
                format!("the king on {hill} is trapped, which ends the game (T11)"),
            );
        }
    }
    Ok(())
}
