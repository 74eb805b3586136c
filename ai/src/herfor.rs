//! Herfor for the search: playouts that prefer placements that flip, an evaluation by the stone
//! margin, and greedy's immediate score, the stone margin (with the button's half point); its
//! strategy answers with the proof where the board is solved.

use std::time::Instant;

use rand::Rng;
use rand::rngs::SmallRng;

use super::player::Player;
use super::strategy::{Proof, Strategy};
use moot_games::Seat;
use moot_games::herfor::cells::{Cells, Narrow};
use moot_games::herfor::wide::with_cpu_features;
use moot_games::herfor::{Herfor, HerforMove, HerforState, Placement, Position};

/// How many random candidates a playout compares by the stones they flip.
const CANDIDATES: usize = 2;

impl Player for Herfor {
    // Every placement fills a point, so games end by themselves within a few board sizes.
    const PLAYOUT_CAP: u32 = 1_000;
    // Herfor gains less per playout than Tara or Hirþ: its steps are wider.
    const STRENGTH_PLAYOUTS: [u32; 3] = [50, 600, 20_000];

    fn evaluate(state: &HerforState) -> f64 {
        // Every point of the board (F1: 3n(n − 1) + 1 on a side of n), empty or not.
        let n = u32::from(state.size());
        let points = f64::from(3 * n * (n - 1) + 1);
        (4.0 * margin_of(state, Seat::First) / points).tanh()
    }

    /// The most flipping of a few random moves (random play that still takes a big invasion
    /// when it sees one), played on the compact position: the legal placements as one bit set
    /// sampled by index, each candidate's flips computed once, nothing allocated. Boards of
    /// side 5 or less play on the narrower sets.
    fn play_out(
        root: &HerforState,
        state: &mut HerforState,
        _buffer: &mut Vec<HerforMove>,
        rng: &mut SmallRng,
    ) -> (f64, usize) {
        let plies = match state.position_in::<Narrow>() {
            Some(position) => play_on(position, state, rng),
            None => play_on(state.position(), state, rng),
        };
        let value = Self::outcome(root, state).unwrap_or_else(|| Self::evaluate(state));
        (value, plies as usize)
    }

    /// The stone margin for `seat`: its stones minus the opponent's, ½ for the button.
    fn immediate_score(state: &HerforState, seat: Seat) -> f64 {
        margin_of(state, seat)
    }

    fn margin(state: &HerforState) -> Option<f64> {
        Some(margin_of(state, Seat::First))
    }
}

/// Herfor is solved on its small boards: the proof answers there (`perfect`).
impl Strategy for Herfor {
    fn prove(state: &Self::State, seed: u64, cutoff: Option<Instant>) -> Option<Proof<Self::Move>> {
        super::perfect::prove(state, seed, cutoff)
    }

    fn solved(state: &Self::State) -> bool {
        super::perfect::solved(&state.options())
    }
}

/// Plays `position` (taken from `state`) on with the playout policy up to the cap, and writes
/// the end back to `state`: the plies played.
fn play_on<C: Cells>(
    mut position: Position<C>,
    state: &mut HerforState,
    rng: &mut SmallRng,
) -> u32 {
    let mut plies = 0;
    with_cpu_features(|| {
        while !position.is_over() && plies < Herfor::PLAYOUT_CAP {
            play_one(&mut position, rng);
            plies += 1;
        }
    });
    state.set_position(&position);
    plies
}

/// Stones (and the button's half point) of `seat` minus the opponent's.
fn margin_of(state: &HerforState, seat: Seat) -> f64 {
    let own = state.colour_of(seat);
    let doubled = i64::from(state.doubled_score(own)) - i64::from(state.doubled_score(own.other()));
    doubled as f64 / 2.0
}

/// One ply of the playout policy: a pass when forced; otherwise the more flipping of
/// [`CANDIDATES`] moves drawn uniformly among the legal ones (the swap counts as one flipping
/// nothing), the first drawn among equals.
#[inline(always)]
fn play_one<C: Cells>(position: &mut Position<C>, rng: &mut SmallRng) {
    let legal = position.legal();
    let placements = legal.cells.count_ones();
    if placements == 0 {
        position.pass();
        return;
    }
    // A drawn index past the placements is the swap.
    let moves = placements + u32::from(position.swap_available());
    let mut draw = || {
        legal
            .cells
            .nth(rng.random_range(0..moves))
            .map(|cell| position.placement_of(&legal, cell))
    };
    let flips = |drawn: &Option<Placement<C>>| drawn.map_or(0, |p| p.flip_count());
    let mut best = draw();
    for _ in 1..CANDIDATES {
        let candidate = draw();
        if flips(&candidate) > flips(&best) {
            best = candidate;
        }
    }
    match best {
        Some(placement) => position.place(placement),
        None => position.swap(),
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use moot_games::Game;
    use moot_games::herfor::HerforOptions;

    /// The playout on the compact position ends games the rules' way: whatever it played, the
    /// end is a valid, finished state (passes only when forced, the button given, F4).
    #[test]
    fn f4_playouts_end_in_valid_finished_states() {
        let mut rng = SmallRng::seed_from_u64(3);
        for size in 3..=7 {
            for (pie, simple) in [(true, false), (false, true)] {
                let start = Herfor::new_game(&HerforOptions { size, pie, simple }).unwrap();
                for _ in 0..20 {
                    let mut state = start.clone();
                    let (value, plies) =
                        Herfor::play_out(&start, &mut state, &mut Vec::new(), &mut rng);
                    Herfor::validate(&state).unwrap();
                    assert!(state.is_over() && plies as u32 == state.moves_played());
                    let winner = Herfor::score(&state).winner.expect("the button decides");
                    let expected = if state.seat_of(winner) == Seat::First {
                        1.0
                    } else {
                        -1.0
                    };
                    assert_eq!(value, expected);
                }
            }
        }
    }
}
