//! Checks a state received from outside, naming the entry at fault (`ringforts.red[2]`).

use super::board::Board;
use super::geometry::{Hill, hills_of};
use super::state::{
    Colour, KINGS_PER_COLOUR, PerColour, RINGFORTS_PER_COLOUR, STATE_VERSION, TaraState,
};
use crate::InvalidState;

type Check = Result<(), InvalidState>;

fn fail(path: impl Into<String>, reason: impl Into<String>) -> Check {
    Err(InvalidState::new(path, reason))
}

/// Checks every invariant of a state received from outside, naming the first entry at fault
/// (`ringforts.red[2]`).
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
    if let Some(points) = state.game1_points {
        game1_points(points)?;
    }
    Ok(())
}

/// The most points a game can give one colour (T12): 2 + the difference in kingdoms (at most
/// 29: 30 ringforts against one kingdom) + 1 for a captured king.
pub const MAX_GAME_POINTS: u32 = 32;

/// T12: a game gives the winner at least 2 and the loser at most 1 (its captured king), or 1
/// each (+1 for a captured king) when drawn.
fn game1_points(points: PerColour<u32>) -> Check {
    for colour in Colour::BOTH {
        if *points.get(colour) > MAX_GAME_POINTS {
            return fail(
                format!("game1_points.{}", colour.name()),
                format!("a game gives at most {MAX_GAME_POINTS} points (T12)"),
            );
        }
    }
    let (red, blue) = (points.red, points.blue);
    let drawn = (1..=2).contains(&red) && (1..=2).contains(&blue);
    let won = (red >= 2 && blue <= 1) || (blue >= 2 && red <= 1);
    if !drawn && !won {
        return fail(
            "game1_points",
            format!(
                "{red} to {blue} is no result of game 1: the winner scores at least 2, the loser at most 1, a draw 1 or 2 each (T12)"
            ),
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
            let sacrificed = state.sacrificed_by(colour) == Some(*hill);
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

/// T3, T5: until someone enters Battle or passes, every turn after setup builds one ringfort,
/// so the ringforts standing say whose turn it is (setup builds six, the starter moves first).
fn turn_parity(state: &TaraState) -> Check {
    let quiet = !(state.battle.red || state.battle.blue || state.passed.red || state.passed.blue);
    if state.over || state.in_setup() || !quiet {
        return Ok(());
    }
    let built = state.ringforts.red.len() + state.ringforts.blue.len();
    let expected = if built.is_multiple_of(2) {
        state.starter()
    } else {
        state.starter().other()
    };
    if state.to_move != expected {
        return fail(
            "to_move",
            format!(
                "{built} ringforts stand and nobody entered Battle or passed: every turn built one, so it is {}'s turn (T3, T5)",
                expected.name()
            ),
        );
    }
    Ok(())
}

fn battle(state: &TaraState, board: &Board) -> Check {
    turn_parity(state)?;
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
    for colour in Colour::BOTH {
        let Some(hill) = state.sacrificed_by(colour) else {
            continue;
        };
        let path = format!("sacrificed.{}", colour.name());
        let name = colour.name();
        if state.options.level != 2 {
            return fail(path, "sacrifices belong to Level 2 (T11)");
        }
        exists(hill, &path)?;
        if board.kings(colour) & hill.bit() == 0 {
            return fail(path, format!("no {name} king stands on {hill}"));
        }
        if board.ringforts(colour.other()) & hill.bit() == 0 {
            return fail(
                path,
                format!(
                    "{hill} is not a {} ringfort: a sacrificed ringfort changes hands (T11)",
                    colour.other().name()
                ),
            );
        }
        if *state.captured.get(colour.other()) == 0 || !*state.battle.get(colour) {
            return fail(
                path,
                format!(
                    "{name} may sacrifice only in Battle once one of its kings was captured (T11)"
                ),
            );
        }
        if state.to_move == colour && !state.over {
            let battle = *state.battle.get(colour);
            let escapes = board.vacant_targets(colour, hill, battle)
                | board.backtrack_targets(colour, hill)
                | board.capture_targets(colour, hill);
            if escapes == 0 {
                return fail(
                    path,
                    format!("the king on {hill} is trapped, which ends the game (T11)"),
                );
            }
        }
    }
    Ok(())
}
