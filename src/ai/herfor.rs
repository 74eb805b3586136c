//! Herfor for the search: playouts that prefer placements that flip, an evaluation by the stone
//! margin, and greedy's immediate score, the stone margin (with the button's half point).

use rand::Rng;
use rand::rngs::SmallRng;

use super::player::Player;
use crate::games::Seat;
use crate::games::herfor::{Herfor, HerforMove, HerforState};

/// How many random candidates a playout compares by the stones they flip.
const CANDIDATES: usize = 2;

impl Player for Herfor {
    // Every placement fills a point, so games end by themselves within a few board sizes.
    const PLAYOUT_CAP: u32 = 1_000;

    fn evaluate(state: &HerforState) -> f64 {
        // Every point of the board (F1: 3n(n − 1) + 1 on a side of n), empty or not.
        let n = u32::from(state.size());
        let points = f64::from(3 * n * (n - 1) + 1);
        (4.0 * margin_of(state, Seat::First) / points).tanh()
    }

    /// The most flipping of a few random moves: random play that still takes a big invasion
    /// when it sees one.
    fn playout_move(state: &HerforState, moves: &[HerforMove], rng: &mut SmallRng) -> usize {
        let mut best = rng.random_range(0..moves.len());
        let mut most = flips(state, &moves[best]);
        for _ in 1..CANDIDATES {
            let i = rng.random_range(0..moves.len());
            let gain = flips(state, &moves[i]);
            if gain > most {
                (best, most) = (i, gain);
            }
        }
        best
    }

    /// The stone margin for `seat`: its stones minus the opponent's, ½ for the button.
    fn immediate_score(state: &HerforState, seat: Seat) -> f64 {
        margin_of(state, seat)
    }

    fn margin(state: &HerforState) -> Option<f64> {
        Some(margin_of(state, Seat::First))
    }
}

/// Stones (and the button's half point) of `seat` minus the opponent's.
fn margin_of(state: &HerforState, seat: Seat) -> f64 {
    let own = state.colour_of(seat);
    let doubled = i64::from(state.doubled_score(own)) - i64::from(state.doubled_score(own.other()));
    doubled as f64 / 2.0
}

/// The enemy stones a placement flips.
fn flips(state: &HerforState, mv: &HerforMove) -> u32 {
    match *mv {
        HerforMove::Place(p) => state.flip_count(p),
        HerforMove::Pass | HerforMove::Swap => 0,
    }
}
