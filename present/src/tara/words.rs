//! Tara in words: the words and headings for moves, and what events did.

use moot_games::Game;
use moot_games::tara::board::Board;
use moot_games::tara::geometry::Hill;
use moot_games::tara::moves::{StepKind, step_kind};
use moot_games::tara::{Tara, TaraEvent, TaraMove, TaraState};

/// Hills in a sentence, separated by commas.
fn list(hills: &[Hill]) -> String {
    hills
        .iter()
        .map(Hill::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn label(state: &TaraState, mv: &TaraMove) -> String {
    let enemy = state.to_move.other().title();
    match *mv {
        TaraMove::Place(hill) => format!("Build a ringfort on {hill} and put a king on it"),
        TaraMove::Step { from, to } => match step_kind(&Board::of(state), state.to_move, to) {
            StepKind::Build => {
                format!("Move the king on {from} to {to} and build a ringfort there")
            }
            StepKind::Backtrack => {
                format!("Move the king on {from} back to its ringfort on {to}")
            }
            StepKind::Capture => {
                format!("Capture the {enemy} ringfort on {to} with the king on {from}")
            }
        },
        TaraMove::Sacrifice { from, to } => {
            format!("Move the king on {from} back to {to} and sacrifice that ringfort to {enemy}")
        }
        TaraMove::Pass if Tara::legal_moves(state) == [TaraMove::Pass] => {
            "Pass: no king can move (your kings leave the board)".to_string()
        }
        TaraMove::Pass => "Pass (your kings leave the board)".to_string(),
        TaraMove::Next => "Start game 2 of the match".to_string(),
    }
}

pub(super) fn group(_state: &TaraState, mv: &TaraMove) -> String {
    match *mv {
        TaraMove::Place(_) => "Build a ringfort and place a king".to_string(),
        TaraMove::Step { from, .. } | TaraMove::Sacrifice { from, .. } => {
            format!("The king on {from}")
        }
        TaraMove::Pass => "Pass".to_string(),
        TaraMove::Next => "The match".to_string(),
    }
}

pub(super) fn describe(event: &TaraEvent) -> String {
    match event {
        TaraEvent::Placed { colour, hill } => {
            format!(
                "{} built a ringfort on {hill} and put a king on it",
                colour.title()
            )
        }
        TaraEvent::Built { colour, from, to } => format!(
            "{}'s king moved from {from} to {to} and built a ringfort",
            colour.title()
        ),
        TaraEvent::Backtracked { colour, from, to } => format!(
            "{}'s king moved from {from} back to its ringfort on {to}",
            colour.title()
        ),
        TaraEvent::RingfortCaptured { colour, from, to } => format!(
            "{}'s king moved from {from} to {to} and captured {}'s ringfort there",
            colour.title(),
            colour.other().title()
        ),
        TaraEvent::Sacrificed { colour, to, .. } => format!(
            "{}'s king sacrificed its ringfort on {to}: the ringfort is {}'s now, and the king is immune for a turn but must move next",
            colour.title(),
            colour.other().title()
        ),
        TaraEvent::KingsCaptured { colour, by, hills } => {
            let whose = colour.other().title();
            let what = if hills.len() == 1 {
                format!("the {whose} king on {}", list(hills))
            } else {
                format!("the {whose} kings on {}", list(hills))
            };
            format!("{}'s king on {by} captured {what}", colour.title())
        }
        TaraEvent::BattleStarted { colour } => format!(
            "{} entered Battle: new ringforts may link to friendly ones, and kings that cannot move may backtrack or capture",
            colour.title()
        ),
        TaraEvent::Passed {
            colour,
            forced,
            kings_removed,
        } => {
            let why = if *forced { " (no king could move)" } else { "" };
            let kings = if kings_removed.is_empty() {
                String::new()
            } else {
                format!(": its kings left {}", list(kings_removed))
            };
            format!("{} passed{why}{kings}", colour.title())
        }
        TaraEvent::OneMoreTurn { colour } => {
            format!("{} has one more turn, then the game ends", colour.title())
        }
        TaraEvent::KingTrapped { colour, hill } => format!(
            "{}'s king on {hill} could not leave the ringfort it sacrificed and is captured",
            colour.title()
        ),
        TaraEvent::GameOver {
            winner,
            points,
            reason,
        } => {
            let result = match winner {
                Some(c) => format!("{} wins", c.title()),
                None => "a draw".to_string(),
            };
            format!(
                "Game over, {result}: {reason}. Points: Red {}, Blue {}",
                points.red, points.blue
            )
        }
        TaraEvent::GameStarted { game, first } => {
            format!("Game {game} of the match begins: {} starts", first.title())
        }
    }
}
