//! Random Hirþ games: the move picker and the whole-game loop that the property test and the
//! playout benchmark share.

use rand::Rng;
use rand::rngs::SmallRng;

use super::Hirth;
use super::moves::Move;
use super::state::{HirthOptions, HirthState, Phase};
use crate::Game;

/// The cap on turns of one random game: random Hirþ games can wander for ever.
pub const TURN_CAP: u32 = 500;

/// A random choice among `moves` (the legal moves of a position): uniform, but offers are rare
/// and mostly accepted, so that games end on the board more often than by refusals.
pub fn pick(rng: &mut SmallRng, moves: &[Move]) -> Move {
    // An offer's answers are the only moves then, `accept` first.
    if matches!(moves.first(), Some(Move::Accept)) {
        return if rng.random_bool(0.8) {
            Move::Accept
        } else {
            Move::GiveUp
        };
    }
    loop {
        let mv = &moves[rng.random_range(0..moves.len())];
        if !matches!(mv, Move::Offer) || rng.random_bool(0.05) {
            return mv.clone();
        }
    }
}

/// Plays one single-game match of [`pick`]ed moves (the fast path, `play_unchecked`) until it is
/// over or [`TURN_CAP`] turns have passed; the final state.
pub fn random_game(rng: &mut SmallRng) -> HirthState {
    let mut state = Hirth::new_game(&HirthOptions { target: 1 }).expect("a target of 1 is valid");
    let mut moves = Vec::new();
    let mut turns = 0;
    while state.phase != Phase::Over && turns < TURN_CAP {
        moves.clear();
        Hirth::legal_moves_into(&state, &mut moves);
        let mover = state.position.mover;
        Hirth::play_unchecked(&mut state, &pick(rng, &moves));
        if state.position.mover != mover {
            turns += 1;
        }
    }
    state
}
