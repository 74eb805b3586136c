//! The High Kings of Tara for the search: playouts that take a king whenever they can, an
//! evaluation by the scoring of T12 as the position stands, and greedy's immediate score, the
//! T12 points if the game ended now. Its strategy is the search's own.

use rand::Rng;
use rand::rngs::SmallRng;

use super::player::{Player, first_view};
use super::strategy::Strategy;
use moot_games::Seat;
use moot_games::tara::board::Board;
use moot_games::tara::geometry::hills_of;
use moot_games::tara::scoring::{self, kingdoms};
use moot_games::tara::{Colour, Hill, Tara, TaraMove, TaraState};

impl Player for Tara {
    // Random games last a few dozen plies; the cap only guards against long Battles.
    const PLAYOUT_CAP: u32 = 200;
    const STRENGTH_PLAYOUTS: [u32; 3] = [100, 1_000, 5_000];

    /// The default (won ±1, drawn 0), except that a search from inside game 1 of a match stops
    /// at its end, valued by the points it gave.
    fn outcome(root: &TaraState, state: &TaraState) -> Option<f64> {
        if state.between_games() && !root.between_games() {
            let points = scoring::points_and_winner(state).0;
            let first = state.options.first;
            let lead = f64::from(*points.get(first)) - f64::from(*points.get(first.other()));
            return Some((lead / 4.0).clamp(-1.0, 1.0));
        }
        match <Tara as moot_games::Game>::turn(state) {
            moot_games::Turn::ToAct(_) => None,
            moot_games::Turn::Won(seat) => Some(first_view(seat, 1.0)),
            moot_games::Turn::Drawn => Some(0.0),
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
        let targets = capturing_targets(state, &Board::of(state));
        if targets == 0 {
            return random;
        }
        moves
            .iter()
            .position(|mv| target(mv).bit() & targets != 0)
            .unwrap_or(random)
    }

    /// The points of T12 (with game 1's in a match) if the game ended now, minus the
    /// opponent's.
    fn immediate_score(state: &TaraState, seat: Seat) -> f64 {
        let own = state.options.colour_of(seat);
        let mut points = scoring::points_and_winner(state).0;
        if let Some(earlier) = state.game1_points {
            points.red += earlier.red;
            points.blue += earlier.blue;
        }
        f64::from(*points.get(own)) - f64::from(*points.get(own.other()))
    }
}

/// Tara plays the search as it is.
impl Strategy for Tara {}

/// The hill a move puts the mover's king (and ringfort) on; none for `pass` and `next`.
fn target(mv: &TaraMove) -> Hill {
    match *mv {
        TaraMove::Place(to) | TaraMove::Step { to, .. } | TaraMove::Sacrifice { to, .. } => to,
        TaraMove::Pass | TaraMove::Next => Hill::UNKNOWN,
    }
}

/// The hills where a king of the player to move, landing with its ringfort under it, would
/// capture an enemy king (T9): next to an enemy king on its own ringfort (not immune, T11)
/// whose other neighbours are all the mover's ringforts already. A move captures when its
/// target is one of them, as `captures_from` would find on the board after it.
fn capturing_targets(state: &TaraState, board: &Board) -> u64 {
    let mover = state.to_move;
    let enemy = mover.other();
    let immune = state.sacrificed_by(enemy).map_or(0, |h| h.bit());
    let own = board.ringforts(mover);
    let exposed = board.kings(enemy) & board.ringforts(enemy) & !immune;
    hills_of(exposed).fold(0, |targets, king| {
        let around = king.neighbours();
        let open = around & !own;
        targets
            | match open.count_ones() {
                0 => around,
                1 => open,
                _ => 0,
            }
    })
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use moot_games::tara::TaraOptions;
    use moot_games::{Game, Turn};

    /// The capture test as it was: each move played on a copy of the board.
    fn captures_by_copy(state: &TaraState, board: &Board, mv: &TaraMove) -> bool {
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

    /// The bitboard of capturing targets picks out exactly the moves the copy test finds, in
    /// every position of random games at both levels and in matches.
    #[test]
    fn capturing_targets_agree_with_playing_each_move_on_a_copy() {
        let mut rng = SmallRng::seed_from_u64(12);
        let mut moves = Vec::new();
        let mut capturing = 0;
        for game in 0..1500 {
            let options = TaraOptions {
                level: 1 + (game % 2) as u8,
                is_match: game % 5 == 0,
                ..TaraOptions::default()
            };
            let mut state = Tara::new_game(&options).unwrap();
            while let Turn::ToAct(_) = Tara::turn(&state) {
                moves.clear();
                Tara::legal_moves_into(&state, &mut moves);
                let board = Board::of(&state);
                let targets = capturing_targets(&state, &board);
                for mv in &moves {
                    let expected = captures_by_copy(&state, &board, mv);
                    assert_eq!(
                        target(mv).bit() & targets != 0,
                        expected,
                        "{mv:?} in {state:?}"
                    );
                    capturing += usize::from(expected);
                }
                // Mostly the policy's own choice, so that games reach the captures.
                let i = if rng.random_bool(0.5) {
                    Tara::playout_move(&state, &moves, &mut rng)
                } else {
                    rng.random_range(0..moves.len())
                };
                Tara::play_unchecked(&mut state, &moves[i]);
            }
        }
        assert!(capturing > 1000, "only {capturing} capturing moves seen");
    }
}
