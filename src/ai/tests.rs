//! The search on every game: determinism, budgets, finished games, and one-move wins found in
//! hand-built positions.

use super::*;
use crate::games::herfor::Herfor;
use crate::games::hirth::{Hirth, HirthOptions};
use crate::games::tara::Tara;
use crate::games::{Game, Turn};

/// Plays `plies` seeded random moves from the game's default start.
fn opening<G: Game>(plies: usize, seed: u64) -> G::State {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut state = G::new_game(&G::Options::default()).unwrap();
    for _ in 0..plies {
        let moves = G::legal_moves(&state);
        let Some(mv) = moves.choose(&mut rng) else {
            break;
        };
        G::play_unchecked(&mut state, mv);
    }
    state
}

fn same_answer_for_same_seed<G: Player>(state: &G::State) {
    let a = analyse::<G>(state, Budget::Playouts(300), 42);
    let b = analyse::<G>(state, Budget::Playouts(300), 42);
    assert_eq!(a.playouts, 300);
    assert_eq!(
        (a.value, a.margin, &a.best_move, &a.pv, &a.moves),
        (b.value, b.margin, &b.best_move, &b.pv, &b.moves)
    );
    assert!((-1.0..=1.0).contains(&a.value), "value {}", a.value);
    let legal = G::legal_moves(state);
    assert_eq!(a.moves.len(), legal.len(), "every root move is reported");
    assert!(legal.contains(a.best_move.as_ref().unwrap()));
    assert_eq!(a.pv.first(), a.best_move.as_ref());
    assert_eq!(a.moves.iter().map(|m| m.visits).sum::<u64>(), 300);
}

#[test]
fn herfor_same_state_budget_and_seed_give_the_same_answer() {
    same_answer_for_same_seed::<Herfor>(&opening::<Herfor>(6, 1));
}

#[test]
fn tara_same_state_budget_and_seed_give_the_same_answer() {
    same_answer_for_same_seed::<Tara>(&opening::<Tara>(8, 2));
}

#[test]
fn hirth_same_state_budget_and_seed_give_the_same_answer() {
    same_answer_for_same_seed::<Hirth>(&opening::<Hirth>(10, 3));
}

#[test]
fn a_millisecond_budget_stops_on_time() {
    let state = opening::<Hirth>(4, 5);
    let analysis = analyse::<Hirth>(&state, Budget::Millis(30), 1);
    assert!(analysis.playouts > 0);
    assert!(
        analysis.elapsed.as_millis() < 300,
        "took {:?}",
        analysis.elapsed
    );
    assert!(analysis.best_move.is_some());
}

#[test]
fn a_finished_game_has_its_result_and_no_move() {
    let mut state = Hirth::new_game(&HirthOptions { target: 1 }).unwrap();
    // Gull offers, Silfr gives up: Gull (the first seat) wins the single-game match.
    for text in ["offer", "give-up"] {
        let mv = Hirth::parse_move(&state, text).unwrap();
        Hirth::apply(&mut state, &mv).unwrap();
    }
    assert_eq!(Hirth::turn(&state), Turn::Won(crate::games::Seat::First));
    let analysis = analyse::<Hirth>(&state, Budget::Playouts(100), 1);
    assert_eq!(analysis.best_move, None);
    assert_eq!(analysis.playouts, 0);
    assert!(analysis.value > 0.0);
}

#[test]
fn strengths_have_names_and_growing_budgets() {
    let names: Vec<_> = Strength::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["easy", "normal", "strong"]);
    let playouts: Vec<u32> = Strength::ALL
        .iter()
        .map(|s| match s.budget() {
            Budget::Playouts(n) => n,
            Budget::Millis(_) => panic!("strengths use playout budgets"),
        })
        .collect();
    assert!(playouts.windows(2).all(|w| w[0] < w[1]), "{playouts:?}");
    assert_eq!(Strength::from_name("strong"), Some(Strength::Strong));
}
