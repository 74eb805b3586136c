//! The High Kings of Tara for the search: playouts that take a king whenever they can, an
//! evaluation by the scoring of T12 as the position stands, and greedy's immediate score, the
//! T12 points if the game ended now.

use rand::Rng;
use rand::rngs::SmallRng;

use super::player::{Player, first_view};
use crate::games::Seat;
use crate::games::tara::board::Board;
use crate::games::tara::scoring::{self, kingdoms};
use crate::games::tara::{Colour, Tara, TaraMove, TaraState};

impl Player for Tara {
    // Random games last a few dozen plies; the cap only guards against long Battles.
    const PLAYOUT_CAP: u32 = 200;

    /// The default (won ±1, drawn 0), except that a search from inside game 1 of a match stops
    /// at its end, valued by the points it gave.
    fn outcome(root: &TaraState, state: &TaraState) -> Option<f64> {
        if state.between_games() && !root.between_games() {
            let points = scoring::outcome(state).points;
            let first = state.options.first;
            let lead = f64::from(*points.get(first)) - f64::from(*points.get(first.other()));
            return Some((lead / 4.0).clamp(-1.0, 1.0));
        }
        match <Tara as crate::games::Game>::turn(state) {
            crate::games::Turn::ToAct(_) => None,
            crate::games::Turn::Won(seat) => Some(first_view(seat, 1.0)),
            crate::games::Turn::Drawn => Some(0.0),
        }
    }

    fn evaluate(state: &TaraState) -> f64 {
        let first = state.options.first;
        let board = Board::of(state);
        let side = |c: Colour| {
            let captured = f64::from(*state.captured.get(c));
            let kingdoms = f64::from(kingdoms(board.ringforts(c)));
            let territory = f64::from(board.ringforts(c).count_ones());
            (captured, kingdoms, territory)
        };
        let (mine, theirs) = (side(first), side(first.other()));
        let lead =
            0.6 * (mine.0 - theirs.0) + 0.3 * (theirs.1 - mine.1) + 0.05 * (mine.2 - theirs.2);
        lead.tanh()
    }

    /// A move that captures a king when there is one (most of the time), else a random move.
    fn playout_move(state: &TaraState, moves: &[TaraMove], rng: &mut SmallRng) -> usize {
        let random = rng.random_range(0..moves.len());
        if rng.random_bool(0.1) {
            return random;
        }
        let board = Board::of(state);
        moves
            .iter()
            .position(|mv| captures(state, &board, mv))
            .unwrap_or(random)
    }

    /// The points of T12 (with game 1's in a match) if the game ended now, minus the
    /// opponent's.
    fn immediate_score(state: &TaraState, seat: Seat) -> f64 {
        let own = state.options.colour_of(seat);
        let mut points = scoring::outcome(state).points;
        if let Some(earlier) = state.game1_points {
            points.red += earlier.red;
            points.blue += earlier.blue;
        }
        f64::from(*points.get(own)) - f64::from(*points.get(own.other()))
    }
}

/// Whether a move lands a king next to an enemy king it captures (T9), judged with the
/// mover's ringfort already on the hill it reaches.
fn captures(state: &TaraState, board: &Board, mv: &TaraMove) -> bool {
    let to = match *mv {
        TaraMove::Place(to) | TaraMove::Step { to, .. } | TaraMove::Sacrifice { to, .. } => to,
        TaraMove::Pass | TaraMove::Next => return false,
    };
    let mover = state.to_move;
    let mut after = *board;
    after.ringforts[mover.index()] |= to.bit();
    after.ringforts[mover.other().index()] &= !to.bit();
    let immune = state.sacrificed_by(mover.other()).map_or(0, |h| h.bit());
    after.captures_from(mover, to, immune) != 0
}
