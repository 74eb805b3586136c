//! Tests of The High Kings of Tara, each pinning a rule on a hand-built position.

pub(crate) mod level2;
mod notation;
mod random;
pub(crate) mod rules;
mod scoring;
mod validation;

use super::geometry::Hill;
use super::{Colour, Tara, TaraEvent, TaraMove, TaraOptions, TaraState};
use crate::{Game, MoveError};

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
