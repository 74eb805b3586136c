//! The search on every game: determinism, budgets, finished games, and one-move wins found in
//! hand-built positions.

use super::*;
use moot_games::herfor::Herfor;
use moot_games::hirth::{Colour, Hirth, HirthOptions, Victory};
use moot_games::tara::Tara;
use moot_games::{Game, Turn, random_opening};

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
    same_answer_for_same_seed::<Herfor>(&random_opening::<Herfor>(6, 1));
}

#[test]
fn tara_same_state_budget_and_seed_give_the_same_answer() {
    same_answer_for_same_seed::<Tara>(&random_opening::<Tara>(8, 2));
}

#[test]
fn hirth_same_state_budget_and_seed_give_the_same_answer() {
    same_answer_for_same_seed::<Hirth>(&random_opening::<Hirth>(10, 3));
}

#[test]
fn a_millisecond_budget_stops_on_time() {
    let state = random_opening::<Hirth>(4, 5);
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
    assert_eq!(Hirth::turn(&state), Turn::Won(moot_games::Seat::First));
    let analysis = analyse::<Hirth>(&state, Budget::Playouts(100), 1);
    assert_eq!(analysis.best_move, None);
    assert_eq!(analysis.playouts, 0);
    assert!(analysis.value > 0.0);
}

/// Every strength of `G` searches more than the one below it, within the server's default cap
/// of a request's playouts (20 000), so every page strength can also be asked of the API.
fn strengths_grow<G: Player>() -> [u32; 3] {
    let playouts = Strength::ALL.map(|s| match s.budget::<G>() {
        Budget::Playouts(n) => n,
        Budget::Millis(_) => panic!("strengths use playout budgets"),
    });
    assert!(
        playouts.windows(2).all(|w| w[0] < w[1]),
        "{}: {playouts:?}",
        G::ID
    );
    assert!(playouts[2] <= 20_000, "{}: {playouts:?}", G::ID);
    playouts
}

#[test]
fn strengths_have_names_and_growing_budgets() {
    let names: Vec<_> = Strength::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["easy", "normal", "strong"]);
    let herfor = strengths_grow::<Herfor>();
    let tara = strengths_grow::<Tara>();
    strengths_grow::<Hirth>();
    // Herfor gains less per playout: its strengths are further apart than Tara's.
    assert!(herfor[2] / herfor[0] > tara[2] / tara[0]);
    assert_eq!(Strength::from_name("strong"), Some(Strength::Strong));
}

fn state_of<G: Game>(json: &str) -> G::State {
    let state: G::State = serde_json::from_str(json).unwrap();
    G::validate(&state).unwrap();
    state
}

fn best<G: Player>(state: &G::State) -> String {
    let analysis = analyse::<G>(state, Strength::Normal.budget::<G>(), 7);
    G::format_move(state, analysis.best_move.as_ref().unwrap())
}

/// Black is behind 4 to 12 with three points left; c3 invades and flips seven white stones,
/// after which neither side can place: the last placement turns the game round.
const HERFOR_LAST_PLACEMENT: &str = r#"{"version":1,"options":{"size":3,"pie":false,"simple":false},
 "black":["a1","a2","a3","c4"],
 "white":["b1","b2","b3","b4","c2","c5","d1","d2","d3","d4","e1","e2"],
 "to_move":"black","button":null,"passes_in_a_row":0,"moves_played":16,"swapped":false}"#;

#[test]
fn herfor_finds_the_last_placement_that_flips_the_result() {
    let state = state_of::<Herfor>(HERFOR_LAST_PLACEMENT);
    let analysis = analyse::<Herfor>(&state, Strength::Normal.budget::<Herfor>(), 7);
    let mv = analysis.best_move.as_ref().unwrap();
    assert_eq!(Herfor::format_move(&state, mv), "c3");
    assert!(analysis.value > 0.9, "value {}", analysis.value);
    assert!(
        analysis.margin.unwrap() > 0.0,
        "margin {:?}",
        analysis.margin
    );
    assert!(Herfor::legal_moves(&state).len() >= 3);
}

/// Red has captured one king; B5-A3 lands next to the blue king on A4, whose single ringfort
/// is then besieged: the second capture wins at once (T9), among eight moves.
const TARA_DOUBLE_CAPTURE: &str = r#"{"version":1,"options":{"first":"red","level":1,"match":false},"game":1,
 "ringforts":{"red":["B6","A5","G3","F5","D6","C4","B3","F7","D2","B1","E5","C6","D4","C2","E3","D5","B4","A6","A3","E7","G6","C7","B5","G4"],
              "blue":["E4","G2","E6","C5","B7","C3","A4","E1","F3","G5","B2","D3","F2","D1","D7","F6","F4","E2","C1","A2"]},
 "kings":{"red":["B5","C7","G4"],"blue":["A4","A2"]},"to_move":"red","battle":{"red":true,"blue":true},
 "captured":{"red":1,"blue":0},"passed":{"red":false,"blue":false},"sacrificed":{"red":null,"blue":null},"over":false}"#;

#[test]
fn tara_finds_the_double_capture() {
    let state = state_of::<Tara>(TARA_DOUBLE_CAPTURE);
    assert_eq!(best::<Tara>(&state), "B5-A3");
    let analysis = analyse::<Tara>(&state, Strength::Normal.budget::<Tara>(), 7);
    assert!(analysis.value > 0.9, "value {}", analysis.value);
}

/// Silfr's Lofðungr stands alone on Miðr and Gull holds every space around it. Two Hirþ
/// attacking Miðr beat it (2 to 1), and with nowhere to retreat it is killed: Drepið this turn.
const HIRTH_DREPID: &str = r#"{"version":1,"options":{"target":1},
 "position":{"board":{"0":{"gull":{"l":true}},"3":{"gull":{"h":2}},"4":{"gull":{"h":1}},"5":{"gull":{"h":1}},
   "6":{"gull":{"h":1}},"m":{"silfr":{"l":true}},"9":{"silfr":{"h":2}}},
   "reserve":{"gull":{"h":10,"k":3},"silfr":{"h":13,"k":3}},"removed":{"gull":0,"silfr":0},"mover":"gull","steps":0},
 "phase":{"kind":"movement"},"coin":{"factor":1,"holder":null},"gull":"first","points":[0,0],"round":7}"#;

#[test]
fn hirth_finds_the_drepid_within_the_turn() {
    let mut state = state_of::<Hirth>(HIRTH_DREPID);
    assert!(Hirth::legal_moves(&state).len() > 10);
    // The engine plays both sides (Gull's steps, and Silfr's answer if Gull offers) until the
    // game ends, which must be within Gull's turn.
    for _ in 0..8 {
        if !state.results.is_empty() {
            break;
        }
        assert_eq!(
            state.position.mover,
            Colour::Gull,
            "Gull's turn ended without the win"
        );
        let a = analyse::<Hirth>(&state, Strength::Normal.budget::<Hirth>(), 7);
        let mv = a.best_move.unwrap();
        Hirth::apply(&mut state, &mv).unwrap();
    }
    let result = state.results.last().expect("the game is over");
    assert_eq!(result.victory, Victory::Drepid);
    assert_eq!(result.winner, moot_games::Seat::First);
}

#[test]
fn greedy_takes_the_placement_that_flips_most() {
    use rand::SeedableRng;
    let state = state_of::<Herfor>(HERFOR_LAST_PLACEMENT);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let mv = Agent::Greedy.choose::<Herfor>(&state, &mut rng).unwrap();
    assert_eq!(Herfor::format_move(&state, &mv), "c3");
}

#[test]
fn greedy_takes_the_double_capture() {
    use rand::SeedableRng;
    let state = state_of::<Tara>(TARA_DOUBLE_CAPTURE);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let mv = Agent::Greedy.choose::<Tara>(&state, &mut rng).unwrap();
    assert_eq!(Tara::format_move(&state, &mv), "B5-A3");
}

/// A turn planned from one search tree: its first move is `analyse`'s with the same budget and
/// seed, every move is legal in turn and chosen by the seat to act at the start, and the
/// playouts are the budget plus a quarter of it per top-up.
fn plan_starts_with_the_analysed_move<G: Player>(
    state: &G::State,
    playouts: u32,
) -> TurnPlan<G::Move> {
    let budget = Budget::Playouts(playouts);
    let plan = plan_turn::<G>(state, budget, 42, None);
    let analysis = analyse::<G>(state, budget, 42);
    assert_eq!(plan.moves.first(), analysis.best_move.as_ref());
    assert_eq!(
        plan.playouts,
        u64::from(playouts) * (4 + u64::from(plan.top_ups)) / 4
    );
    let Turn::ToAct(seat) = G::turn(state) else {
        panic!("the game goes on")
    };
    let mut after = state.clone();
    for mv in &plan.moves {
        assert_eq!(G::turn(&after), Turn::ToAct(seat), "{:?}", plan.moves);
        G::apply(&mut after, mv).expect("a legal move");
    }
    assert_ne!(G::turn(&after), Turn::ToAct(seat), "the turn is played out");
    plan
}

#[test]
fn a_herfor_or_tara_turn_is_one_move_from_one_search() {
    let herfor = plan_starts_with_the_analysed_move::<Herfor>(&random_opening::<Herfor>(6, 1), 400);
    let tara = plan_starts_with_the_analysed_move::<Tara>(&random_opening::<Tara>(8, 2), 400);
    assert_eq!((herfor.moves.len(), herfor.top_ups), (1, 0));
    assert_eq!((tara.moves.len(), tara.top_ups), (1, 0));
}

#[test]
fn a_whole_hirth_turn_comes_from_one_search_tree() {
    // The page-turn bench's position (benches/ai.rs).
    let (_, state) = moot_games::fixtures::hirth::mid_game(60, 5);
    let plan = plan_starts_with_the_analysed_move::<Hirth>(&state, 2000);
    eprintln!("{plan:?}");
    // Steps, then the end of the movement phase (or an offer, which the other seat answers).
    assert!(plan.moves.len() >= 2, "{:?}", plan.moves);
    assert!(
        matches!(
            plan.moves.last(),
            Some(moot_games::hirth::Move::End { .. } | moot_games::hirth::Move::Offer)
        ),
        "{:?}",
        plan.moves
    );
    // The choices deep in the turn rest on few playouts: searched further.
    assert!(plan.top_ups >= 1, "{plan:?}");
}

#[test]
fn a_finished_game_plans_no_move() {
    let mut state = Hirth::new_game(&HirthOptions { target: 1 }).unwrap();
    for text in ["offer", "give-up"] {
        let mv = Hirth::parse_move(&state, text).unwrap();
        Hirth::apply(&mut state, &mv).unwrap();
    }
    let plan = plan_turn::<Hirth>(&state, Budget::Playouts(50), 1, None);
    assert_eq!((plan.moves.len(), plan.playouts, plan.top_ups), (0, 0, 0));
}

#[test]
fn f4_perfect_keeps_every_proven_win_of_size_3_against_random() {
    use moot_games::herfor::HerforOptions;
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let options = HerforOptions {
        size: 3,
        pie: true,
        simple: false,
    };
    let mut rng = rand::rngs::SmallRng::seed_from_u64(4);
    let mut played = 0;
    while played < 5 {
        // A position six random plies in, won for the player to act.
        let mut state = Herfor::new_game(&options).unwrap();
        for _ in 0..6 {
            let mv = Herfor::legal_moves(&state)
                .choose(&mut rng)
                .cloned()
                .unwrap();
            Herfor::apply(&mut state, &mv).unwrap();
        }
        let Turn::ToAct(perfect) = Herfor::turn(&state) else {
            continue;
        };
        if !solver::Solver::new().wins(&state) {
            continue;
        }
        let winner = loop {
            let agent = match Herfor::turn(&state) {
                Turn::ToAct(seat) if seat == perfect => Agent::Perfect,
                Turn::ToAct(_) => Agent::Random,
                Turn::Won(seat) => break seat,
                Turn::Drawn => panic!("Herfor has no draws"),
            };
            let mv = agent.choose::<Herfor>(&state, &mut rng).unwrap();
            Herfor::apply(&mut state, &mv).unwrap();
        };
        assert_eq!(winner, perfect);
        played += 1;
    }
}

/// Every game of the registry has its strategy, and so its player, with growing strengths: a
/// game registered in `moot-games` without its module here does not compile.
#[test]
fn every_registered_game_has_a_strategy() {
    fn strategy_of<G: Strategy>() -> &'static str {
        strengths_grow::<G>();
        G::ID
    }
    for id in moot_games::GAME_IDS {
        let game = moot_games::with_game!(*id, G => strategy_of::<G>(), else unreachable!());
        assert_eq!(game, *id);
    }
}
