//! Random games: every listed move applies (as `play_unchecked` does), unlisted moves are
//! refused, the board always holds 45 hills, states round-trip through JSON and validate, and
//! every game ends.

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::Turn;
use crate::tara::board::Board;
use crate::tara::geometry::HILL_COUNT;

/// More plies than any game needs: 6 placements, at most 39 builds, and backtracking that a
/// random pass ends long before this.
const MAX_PLIES: usize = 5_000;

fn random_square(rng: &mut SmallRng) -> Hill {
    Hill(rng.random_range(0..50))
}

fn random_move(rng: &mut SmallRng) -> TaraMove {
    match rng.random_range(0..10) {
        0 => TaraMove::Pass,
        1 => TaraMove::Next,
        2 | 3 => TaraMove::Place(random_square(rng)),
        4 => TaraMove::Sacrifice {
            from: random_square(rng),
            to: random_square(rng),
        },
        _ => TaraMove::Step {
            from: random_square(rng),
            to: random_square(rng),
        },
    }
}

fn check_position(state: &TaraState) {
    Tara::validate(state).unwrap_or_else(|e| panic!("{e} in {state:?}"));
    let json = serde_json::to_string(state).unwrap();
    let back: TaraState = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, state);
    let board = Board::of(state);
    // The sets the lists keep are those of their entries.
    let set = |list: &[Hill]| list.iter().fold(0, |set, hill| set | hill.bit());
    assert_eq!(
        (board.ringforts, board.kings),
        (
            [set(&state.ringforts.red), set(&state.ringforts.blue)],
            [set(&state.kings.red), set(&state.kings.blue)]
        )
    );
    let ringforts = board.ringforts[0] | board.ringforts[1];
    assert_eq!(
        ringforts.count_ones() as usize,
        state.ringforts.red.len() + state.ringforts.blue.len()
    );
    assert_eq!(
        ringforts.count_ones() + board.vacant().count_ones(),
        HILL_COUNT
    );
    let _ = (Tara::status(state), Tara::score(state));
}

/// Plays one random game (or match) with every check; returns its number of plies.
fn random_game(seed: u64, options: &TaraOptions) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut state = Tara::new_game(options).unwrap();
    let mut moves = Vec::new();
    for ply in 0..MAX_PLIES {
        check_position(&state);
        moves.clear();
        Tara::legal_moves_into(&state, &mut moves);
        match Tara::turn(&state) {
            Turn::ToAct(_) => assert!(!moves.is_empty(), "no move in an ongoing game: {state:?}"),
            _ => {
                assert!(moves.is_empty());
                return ply;
            }
        }
        for mv in &moves {
            let text = Tara::format_move(&state, mv);
            assert_eq!(Tara::parse_move(&state, &text).as_ref(), Ok(mv), "{text}");
            let mut applied = state.clone();
            Tara::apply(&mut applied, mv).unwrap_or_else(|e| panic!("{text}: {e} in {state:?}"));
            let mut unchecked = state.clone();
            Tara::play_unchecked(&mut unchecked, mv);
            assert_eq!(applied, unchecked, "{text}");
        }
        for _ in 0..4 {
            let candidate = random_move(&mut rng);
            if !moves.contains(&candidate) {
                let mut refused = state.clone();
                assert!(
                    Tara::apply(&mut refused, &candidate).is_err(),
                    "{candidate:?} in {state:?}"
                );
                assert_eq!(refused, state);
            }
        }
        let mv = moves[rng.random_range(0..moves.len())];
        Tara::apply(&mut state, &mv).unwrap();
    }
    panic!("seed {seed}: no end after {MAX_PLIES} plies: {state:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]
    #[test]
    fn random_level_1_games_keep_every_invariant_and_end(seed in any::<u64>()) {
        random_game(seed, &TaraOptions::default());
    }
}

proptest! {
    // As many games as Level 1: every move of every ply is played both by `apply` and by the
    // search's `play_unchecked`, which must agree.
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]
    #[test]
    fn random_level_2_games_keep_every_invariant_and_end(seed in any::<u64>()) {
        random_game(seed, &TaraOptions { level: 2, first: Colour::Blue, ..TaraOptions::default() });
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 50, ..ProptestConfig::default() })]
    #[test]
    fn random_matches_play_two_games_and_end(seed in any::<u64>()) {
        let options = TaraOptions { level: 2, is_match: true, ..TaraOptions::default() };
        random_game(seed, &options);
    }
}
