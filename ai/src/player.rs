//! What each game adds to the search: [`Player`].

use rand::Rng;
use rand::rngs::SmallRng;

use moot_games::{Game, Seat, Turn};

/// A game the computer can play. Values returned here are for [`Seat::First`], in −1…1; the
/// search turns them round for the seat that acts at each node.
pub trait Player: Game {
    /// Plies a playout runs before its position is evaluated instead of played out.
    const PLAYOUT_CAP: u32;

    /// The playouts of the easy, normal and strong computer ([`Strength`](crate::Strength)),
    /// growing. Each game's are chosen on its Elo ladder so that each strength is at least 150
    /// Elo above the one below, with strong's page turn within a second
    /// (docs/computer-player.md).
    const STRENGTH_PLAYOUTS: [u32; 3];

    /// The state a search starts from (and its cache key is written from): the same game
    /// without what only records its history (Hirþ's `record` and `log`), which no move and no
    /// value depends on. The default: the state as it is.
    fn search_root(state: &Self::State) -> Self::State {
        state.clone()
    }

    /// The value for the first seat when the search should stop here, `None` while the game
    /// goes on. `root` is the position analysed: games played as matches stop when the game
    /// under way at the root is over. The default: won ±1, drawn 0.
    fn outcome(_root: &Self::State, state: &Self::State) -> Option<f64> {
        match Self::turn(state) {
            Turn::ToAct(_) => None,
            Turn::Won(seat) => Some(first_view(seat, 1.0)),
            Turn::Drawn => Some(0.0),
        }
    }

    /// The estimated value for the first seat of a position whose game goes on, in (−1, 1).
    fn evaluate(state: &Self::State) -> f64;

    /// Whether a playout past its cap may stop here: Hirþ waits for the end of a turn, so the
    /// evaluation never sees pieces in the middle of an attack.
    fn quiet(_state: &Self::State) -> bool {
        true
    }

    /// Drops from `moves` (the legal moves of `state`) those the search need not try below
    /// its root, which always lists every legal move. Keeps at least one. None by default.
    fn prune(_state: &Self::State, _moves: &mut Vec<Self::Move>) {}

    /// The index of the move a playout plays among `moves` (never empty). Uniform by default.
    fn playout_move(_state: &Self::State, moves: &[Self::Move], rng: &mut SmallRng) -> usize {
        rng.random_range(0..moves.len())
    }

    /// Plays on from `state` with the game's policy, leaving `state` where the playout ended:
    /// the value for the first seat, and the plies played. `root` is the position analysed
    /// (see [`outcome`](Self::outcome)); `buffer` is scratch space for move lists. The default
    /// lists the legal moves at every ply and lets [`playout_move`](Self::playout_move) pick
    /// one, up to the cap, then evaluates.
    fn play_out(
        root: &Self::State,
        state: &mut Self::State,
        buffer: &mut Vec<Self::Move>,
        rng: &mut SmallRng,
    ) -> (f64, usize) {
        let mut plies = 0;
        loop {
            if let Some(value) = Self::outcome(root, state) {
                return (value, plies as usize);
            }
            // Past the cap a playout waits (a little) for a quiet position to evaluate.
            if plies >= Self::PLAYOUT_CAP && (Self::quiet(state) || plies >= 2 * Self::PLAYOUT_CAP)
            {
                return (Self::evaluate(state), plies as usize);
            }
            buffer.clear();
            Self::legal_moves_into(state, buffer);
            if buffer.is_empty() {
                return (Self::evaluate(state), plies as usize);
            }
            let i = Self::playout_move(state, buffer, rng);
            Self::play_unchecked(state, &buffer[i]);
            plies += 1;
        }
    }

    /// The greedy agent's measure of a position for `seat`, larger is better: the game's score
    /// as it stands (documented per game).
    fn immediate_score(state: &Self::State, seat: Seat) -> f64;

    /// Herfor: the stone margin for the first seat as the position stands.
    fn margin(_state: &Self::State) -> Option<f64> {
        None
    }
}

/// A value for `seat` seen by the first seat.
pub fn first_view(seat: Seat, value: f64) -> f64 {
    match seat {
        Seat::First => value,
        Seat::Second => -value,
    }
}
