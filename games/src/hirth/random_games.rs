//! Property test over random games: no panic, listed moves apply, unlisted ones are refused,
//! pieces are conserved, the Karve limit holds after every turn, states survive serde.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{Colour, Space};
use super::moves::{Move, Unit};
use super::random_play::{TURN_CAP, pick};
use super::state::{HirthOptions, HirthState, Karve, Phase, STEPS_PER_TURN};
use super::{Hirth, limit};
use crate::{Game, Turn};

/// Every move of the notation's shape, legal or not: the pool unlisted moves are drawn from.
fn universe() -> Vec<Move> {
    let mut all = vec![
        Move::Enter { karve: false },
        Move::Enter { karve: true },
        Move::Offer,
        Move::Accept,
        Move::GiveUp,
        Move::End { stays: Vec::new() },
    ];
    for from in Space::all() {
        all.push(Move::Retreat(from));
        for to in Space::all() {
            for unit in [Unit::H, Unit::L, Unit::K(0), Unit::K(2), Unit::K(4)] {
                all.push(Move::Go { from, unit, to });
            }
        }
        for crew in 0..=4 {
            for stopped in [false, true] {
                all.push(Move::Board {
                    space: from,
                    karve: Karve { crew, stopped },
                });
            }
            all.push(Move::Disembark { space: from, crew });
        }
    }
    all
}

fn assert_conserved(state: &HirthState) {
    let pos = &state.position;
    for c in Colour::BOTH {
        let mut h = pos.reserve.get(c).h as u32 + *pos.removed.get(c) as u32;
        let mut k = pos.reserve.get(c).k as u32;
        let mut l = 0;
        let groups = Space::all().map(|s| pos.board.group(s, c)).chain(
            pos.lines
                .iter()
                .filter(|_| pos.mover == c)
                .map(|line| &line.pieces),
        );
        for g in groups {
            h += g.all_h();
            k += g.karves.len() as u32;
            l += g.has_l() as u32;
        }
        assert_eq!((h, k), (15, 3), "{c:?} pieces in {state:?}");
        let retreating = matches!(state.phase, Phase::Retreat { .. }) && c != pos.mover;
        match state.phase {
            // A game may end with a Lofðungr killed or forced off.
            Phase::Over => assert!(l <= 1),
            _ => assert_eq!(l, u32::from(!retreating), "{c:?} Lofðungr in {state:?}"),
        }
    }
}

fn assert_karve_limit(state: &HirthState) {
    for s in Space::all().filter(|s| !s.is_home()) {
        for c in Colour::BOTH {
            assert!(
                state.position.board.group(s, c).karves.len() <= 1,
                "H8 broken on {}",
                s.name()
            );
        }
    }
}

/// H8: the Karve limit counted without playing the battles agrees with playing them, for
/// every choice of entries (allowed by H6 or not).
fn assert_counted_limit_matches_battles(state: &HirthState) {
    let pos = &state.position;
    let won = limit::won_battles(pos);
    for stays in super::battle::entry_choices(pos, &won) {
        assert_eq!(
            limit::limit_kept_after_counting(pos, &stays),
            limit::limit_kept_after_resolving(pos, &stays),
            "{stays:?} in {state:?}"
        );
    }
}

/// H8: the look-ahead's shortcuts give the answers of the plain ways, after every step the
/// mover could take in `pos` (kept by H8 or not): ending now, tried by counting against
/// listing every entry choice; the turn's end, with the early "cannot" against without (where
/// the plain search answers: within two steps left, so that it is quick).
fn assert_h8_shortcuts_agree(pos: &super::state::Position) {
    let mut steps = Vec::new();
    pos.raw_steps(&mut steps);
    // The steps legal_moves keeps (the shortcuts: no pile-up, a K stepping back, the repair
    // found once for the position reused) are those the plain look-ahead keeps.
    let mut kept = steps.clone();
    limit::retain_steps_keeping_limit(pos, &mut kept, 0);
    let plain: Vec<Move> = steps
        .iter()
        .filter(|step| {
            let mut next = pos.clone();
            next.apply_step(step);
            limit::can_finish(&next) == Some(true)
        })
        .cloned()
        .collect();
    assert_eq!(kept, plain, "the steps kept by H8 in {pos:?}");
    for step in &steps {
        let mut next = pos.clone();
        next.apply_step(step);
        assert_eq!(
            limit::can_end_now(&next),
            limit::can_end_now_by_choices(&next),
            "ending now after {step:?} in {pos:?}"
        );
        if next.steps + 2 >= STEPS_PER_TURN
            && let Some(answer) = limit::can_finish_unpruned(&next)
        {
            assert_eq!(
                limit::can_finish(&next),
                Some(answer),
                "finishing after {step:?} in {pos:?}"
            );
        }
    }
}

/// The state as the fast path keeps it: the same game without its history (record and log).
fn without_history(state: &HirthState) -> HirthState {
    HirthState {
        record: String::new(),
        log: Default::default(),
        ..state.clone()
    }
}

/// Plays one random game (a single-game match), checking every property on the way; returns
/// the final state. Beside the game played with `apply`, a copy is played with the fast path
/// (`play_unchecked`) only, and the two are compared after every ply: the same game, the fast
/// path's without its history. `h8_shortcuts`: check the look-ahead's shortcuts after every
/// step the mover could take.
pub fn checked_game(seed: u64, universe_samples: usize, h8_shortcuts: bool) -> HirthState {
    let pool = universe();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut state = Hirth::new_game(&HirthOptions { target: 1 }).unwrap();
    let mut fast_game = state.clone();
    let mut moves = Vec::new();
    let mut turns = 0;
    while turns < TURN_CAP {
        if let Turn::Won(_) = Hirth::turn(&state) {
            break;
        }
        moves.clear();
        Hirth::legal_moves_into(&state, &mut moves);
        assert!(!moves.is_empty(), "no legal move in {state:?}");
        // `pick` finds an offer's answers by the first move.
        if state.phase == Phase::Offer {
            assert_eq!(moves, [Move::Accept, Move::GiveUp]);
        }
        for mv in &moves {
            let mut checked = state.clone();
            Hirth::apply(&mut checked, mv).unwrap_or_else(|e| panic!("{mv:?} listed but {e}"));
            let mut fast = state.clone();
            Hirth::play_unchecked(&mut fast, mv);
            assert_eq!(
                without_history(&checked),
                fast,
                "apply and play_unchecked differ on {mv:?}"
            );
            let text = Hirth::format_move(&state, mv);
            assert_eq!(Hirth::parse_move(&state, &text).as_ref(), Ok(mv), "{text}");
        }
        for _ in 0..universe_samples {
            let mv = &pool[rng.random_range(0..pool.len())];
            let pos = &state.position;
            assert_eq!(
                pos.can_step(mv),
                pos.step_refusal(mv).is_none(),
                "the quick step check and the reasons disagree on {mv:?} in {pos:?}"
            );
            if !moves.contains(mv) {
                let mut refused = state.clone();
                assert!(
                    Hirth::apply(&mut refused, mv).is_err(),
                    "{mv:?} not listed but applied"
                );
                assert_eq!(refused, state, "a refused move changed the state");
            }
        }
        if state.phase == Phase::Movement {
            let (mut steps, mut scanned) = (Vec::new(), Vec::new());
            state.position.raw_steps(&mut steps);
            state.position.raw_steps_by_scan(&mut scanned);
            assert_eq!(steps, scanned, "the steps in {:?}", state.position);
            assert_counted_limit_matches_battles(&state);
            if h8_shortcuts {
                assert_h8_shortcuts_agree(&state.position);
            }
        }
        let mv = pick(&mut rng, &moves);
        let before = (state.position.mover, state.results.len());
        Hirth::apply(&mut state, &mv).unwrap();
        Hirth::play_unchecked(&mut fast_game, &mv);
        assert_eq!(
            without_history(&state),
            fast_game,
            "the fast game after {mv:?}"
        );
        assert_conserved(&state);
        if (state.position.mover, state.results.len()) != before && state.phase != Phase::Over {
            turns += 1;
            assert_karve_limit(&state);
            let json = serde_json::to_string(&state).unwrap();
            let back: HirthState = serde_json::from_str(&json).unwrap();
            assert_eq!(back, state);
            Hirth::validate(&back).unwrap_or_else(|e| panic!("{e} in {json}"));
            // A state without its history is valid too (the history is left out).
            Hirth::validate(&fast_game).unwrap_or_else(|e| panic!("{e} in the fast game"));
        } else if state.phase == Phase::Movement {
            assert_eq!(limit::can_finish(&state.position), Some(true));
        }
    }
    state
}

#[test]
fn random_games_keep_every_invariant() {
    // 1,000 games (capped at 500 turns), every listed move applied in every position; the
    // first 50 games try 40 unlisted moves per position, the others 4. All check the steps
    // listed against a scan of every space, the move played, conservation, H8 after every
    // turn, serde and validate; every ply is played on a copy by the fast path too and
    // compared; the first 200 check H8's shortcuts.
    for seed in 0..1000 {
        let samples = if seed < 50 { 40 } else { 4 };
        let state = checked_game(seed, samples, seed < 200);
        let json = serde_json::to_string(&state).unwrap();
        let back: HirthState = serde_json::from_str(&json).unwrap();
        Hirth::validate(&back).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}
