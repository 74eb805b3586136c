//! Tests of The High Kings of Tara, each pinning a rule on a hand-built position.

mod level2;
mod notation;
mod random;
mod rules;
mod scoring;
mod validation;

use super::geometry::Hill;
use super::{Colour, Tara, TaraEvent, TaraMove, TaraOptions, TaraState};
use crate::games::{Game, MoveError};

/// A position from a diagram: rows 7 down to 1, one character per column A–G (spaces
/// ignored): `.` vacant, `r`/`b` a ringfort, `R`/`B` a king on its ringfort, `#` a missing corner.
/// Setup is over, nobody is in Battle, Red moves.
pub fn diagram(rows: [&str; 7]) -> TaraState {
    let mut state = TaraState::start(&TaraOptions::default(), 1, Colour::Red);
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(cells.len(), 7, "row {}", 7 - i);
        for (col, cell) in cells.into_iter().enumerate() {
            let hill = Hill::at(col as u8, 6 - i as u8);
            let (colour, king) = match cell {
                'r' => (Colour::Red, false),
                'R' => (Colour::Red, true),
                'b' => (Colour::Blue, false),
                'B' => (Colour::Blue, true),
                '.' | '#' => continue,
                other => panic!("unknown cell {other:?}"),
            };
            let hill = hill.expect("a piece on a missing corner");
            state.ringforts.get_mut(colour).push(hill);
            if king {
                state.kings.get_mut(colour).push(hill);
            }
        }
    }
    state
}

pub fn hill(name: &str) -> Hill {
    Hill::parse(name).unwrap()
}

pub fn mv(state: &TaraState, text: &str) -> TaraMove {
    Tara::parse_move(state, text).unwrap()
}

/// Plays a move written in notation, which must be legal.
pub fn play(state: &mut TaraState, text: &str) -> Vec<TaraEvent> {
    let mv = mv(state, text);
    Tara::apply(state, &mv).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The rule a refused move breaks.
pub fn refusal(state: &TaraState, text: &str) -> (&'static str, String) {
    let before = state.clone();
    let mut after = state.clone();
    match Tara::apply(&mut after, &mv(state, text)) {
        Err(MoveError::Illegal { rule, reason }) => {
            assert_eq!(after, before, "a refused move leaves the state unchanged");
            (rule, reason)
        }
        other => panic!("{text} should be refused, got {other:?}"),
    }
}

/// The legal moves in notation, sorted.
pub fn legal(state: &TaraState) -> Vec<String> {
    let mut moves: Vec<String> = Tara::legal_moves(state)
        .iter()
        .map(|m| Tara::format_move(state, m))
        .collect();
    moves.sort();
    moves
}

pub fn kings(state: &TaraState, colour: Colour) -> Vec<String> {
    let mut names: Vec<String> = state
        .kings
        .get(colour)
        .iter()
        .map(|h| h.to_string())
        .collect();
    names.sort();
    names
}
