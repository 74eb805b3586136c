//! Random games over every size and variant, checked ply by ply against the reference.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::reference::RefBoard;
use crate::herfor::cells::{Cells, Narrow};
use crate::herfor::geometry::{Point, board_mask, points};
use crate::herfor::wide::Wide;
use crate::herfor::{Colour, Herfor, HerforEvent, HerforMove, HerforOptions, HerforState};
use crate::{Game, MoveError, Turn};

const GAMES: usize = 1000;

#[test]
fn random_games_agree_with_the_reference_at_every_ply() {
    let mut rng = SmallRng::seed_from_u64(0x4e72_f0f0);
    let mut moves = Vec::new();
    for game in 0..GAMES {
        let options = HerforOptions {
            size: 3 + (game % 5) as u8,
            pie: game % 3 != 0,
            simple: game % 2 == 1,
        };
        let mut state = Herfor::new_game(&options).unwrap();
        let mut reference = RefBoard::new(options.size);
        // Every placement adds a stone and flips remove none; at most one pass between them.
        let limit = 2 * board_mask(options.size).count_ones() as usize + 3;
        let mut plies = 0;
        while !state.is_over() {
            assert!(
                plies < limit,
                "game {game} did not end within {limit} plies"
            );
            moves.clear();
            Herfor::legal_moves_into(&state, &mut moves);
            reference.load(&state);
            check_ply(&state, &moves, &reference);
            let mv = moves[rng.random_range(0..moves.len())];
            Herfor::apply(&mut state, &mv).unwrap();
            plies += 1;
        }
        reference.load(&state);
        check_end(&state, &reference);
    }
}

/// Everything that must hold in one position with its listed moves.
fn check_ply(state: &HerforState, moves: &[HerforMove], reference: &RefBoard) {
    let json = serde_json::to_string(state).unwrap();
    Herfor::validate(state).unwrap_or_else(|e| panic!("{e} in {json}"));
    let back: HerforState = serde_json::from_str(&json).unwrap();
    assert_eq!(&back, state, "JSON round trip of {json}");
    Herfor::validate(&back).unwrap();

    let mover = state.to_move();
    let listed = moves.iter().fold(0, |bits, m| match m {
        HerforMove::Place(p) => bits | p.bit(),
        _ => bits,
    });
    let expected = reference.legal_set(mover);
    assert_eq!(listed, expected, "legal placements in {json}");
    let pass_listed = moves.contains(&HerforMove::Pass);
    assert_eq!(pass_listed, expected == 0, "pass iff no placement: {json}");
    if pass_listed {
        assert_eq!(moves.len(), 1, "a forced pass is the only move");
    }
    let swap_listed = moves.contains(&HerforMove::Swap);
    assert_eq!(swap_listed, state.swap_available() && expected != 0);

    for mv in moves {
        let text = Herfor::format_move(state, mv);
        assert_eq!(
            Herfor::parse_move(state, &text.to_uppercase()).as_ref(),
            Ok(mv)
        );
        let mut checked = state.clone();
        let events =
            Herfor::apply(&mut checked, mv).unwrap_or_else(|e| panic!("{text} in {json}: {e}"));
        let mut fast = state.clone();
        Herfor::play_unchecked(&mut fast, mv);
        assert_eq!(
            checked, fast,
            "apply and play_unchecked differ on {text} in {json}"
        );
        Herfor::validate(&checked).unwrap_or_else(|e| panic!("{text} in {json}: {e}"));
        if let (HerforMove::Place(p), HerforEvent::Placed { flipped, .. }) = (mv, &events[0]) {
            let (k, c) = reference.cell(p.0);
            let want = reference.flips(k, c, mover, state.options().simple);
            let got = state.stones(mover.other()) & !checked.stones(mover.other());
            assert_eq!(got, want, "flips of {text} in {json}");
            assert_eq!(
                flipped.len() as u32,
                want.count_ones(),
                "flips listed in the event"
            );
            assert_eq!(checked.stones(mover), state.stones(mover) | p.bit() | want);
        }
    }

    check_position::<Wide>(state, moves, expected);
    if state.size() <= Narrow::MAX_SIZE {
        check_position::<Narrow>(state, moves, expected);
    }

    for p in points(board_mask(state.size()) & !listed) {
        assert_refused(state, &HerforMove::Place(p), "F3");
    }
    if !pass_listed {
        assert_refused(state, &HerforMove::Pass, "F4");
    }
    if !swap_listed {
        assert_refused(state, &HerforMove::Swap, "F5");
    }
    if let Some(p) = points(board_mask(7) & !board_mask(state.size())).next() {
        assert_refused(state, &HerforMove::Place(Point(p.0)), "F1");
    }
}

/// The search's path agrees with `apply`, in sets of either width: the placements as one set,
/// and every move's effect.
fn check_position<C: Cells>(state: &HerforState, moves: &[HerforMove], expected: u128) {
    let position = state.position_in::<C>().expect("a board the sets hold");
    let json = serde_json::to_string(state).unwrap();
    let legal = position.placements();
    assert_eq!(
        legal.to_wide().to_bits(),
        expected,
        "placements as a set in {json}"
    );
    assert_eq!(position.swap_available(), state.swap_available());
    assert_eq!(position.to_move(), state.to_move());
    let listed: Vec<Point> = (0..legal.count_ones())
        .map(|i| C::point_of(legal.nth(i).expect("an index below the count")))
        .collect();
    assert_eq!(listed, points(expected).collect::<Vec<_>>(), "nth in order");
    assert_eq!(legal.nth(legal.count_ones()), None);
    for mv in moves {
        let mut fast = position;
        match *mv {
            HerforMove::Place(p) => {
                let placement = fast.placement_at(p);
                assert_eq!(placement.point(), p);
                assert_eq!(placement.flip_count(), state.flip_count(p));
                // The walk along the invading lines the legal set found gives the same.
                let legal = fast.legal();
                let cell = C::cell_of(p);
                assert_eq!(
                    fast.placement_of(&legal, cell),
                    placement,
                    "{mv:?} in {json}"
                );
                let invades = legal.invading.iter().any(|line| line.has(i32::from(cell)));
                assert_eq!(invades, placement.flip_count() > 0, "{mv:?} in {json}");
                fast.place(placement);
            }
            HerforMove::Pass => fast.pass(),
            HerforMove::Swap => fast.swap(),
        }
        let mut checked = state.clone();
        Herfor::apply(&mut checked, mv).unwrap();
        assert_eq!(fast, checked.position_in().unwrap(), "{mv:?} in {json}");
        let mut written = state.clone();
        written.set_position(&fast);
        assert_eq!(written, checked, "{mv:?} written back in {json}");
        for colour in Colour::BOTH {
            assert_eq!(fast.doubled_score(colour), checked.doubled_score(colour));
        }
        assert_eq!(fast.is_over(), checked.is_over());
    }
}

fn assert_refused(state: &HerforState, mv: &HerforMove, rule: &str) {
    let mut copy = state.clone();
    match Herfor::apply(&mut copy, mv) {
        Err(MoveError::Illegal { rule: r, .. }) => assert_eq!(r, rule, "{mv:?}"),
        other => panic!("{mv:?} should be refused by {rule}: {other:?}"),
    }
    assert_eq!(&copy, state, "a refused move changed the state");
}

fn check_end(state: &HerforState, reference: &RefBoard) {
    Herfor::validate(state).unwrap();
    assert!(Herfor::legal_moves(state).is_empty());
    assert!(state.position().is_over() && state.position().placements().is_empty());
    assert_eq!(
        Herfor::apply(&mut state.clone(), &HerforMove::Pass),
        Err(MoveError::GameOver)
    );
    assert_eq!(
        reference.legal_set(Colour::Black) | reference.legal_set(Colour::White),
        0
    );
    let score = Herfor::score(state);
    let winner = score.winner.expect("the button makes every game decisive");
    assert_eq!(Herfor::turn(state), Turn::Won(state.seat_of(winner)));
    assert!(score.button.is_some());
}
