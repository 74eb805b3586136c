//! Rule tests on hand-built positions, named after the rule they pin.

use super::*;
#[allow(unused_imports)]
use crate::Record;
use crate::{Game, MoveError, Seat, Status, Turn};

pub(super) const EXAMPLE: &str = "G1 KeHeiHei /
S1 He7He8He /
G2 L01HeiKiii03 /
S2 Ke6KeHi /
G3 Hr3mHr3>6 >6SK^GH6
S3 L9>6HeiKii97 SdGa>6GHxSL6
G4 L1>6Hm>6He >6SL8GH6GLm
S4 H75Kii7>3L8>6H8>6 >3GKi^SKii3 >6GHxSL6SH6
G5 KeHeiHei /
S5 Hr3Kii3mL64 >mGLx
";

fn replay(options: &HirthOptions, text: &str) -> (HirthState, Vec<String>) {
    let record = Hirth::read_record(options, text).expect("the record reads");
    let mut state = Hirth::new_game(options).unwrap();
    for mv in &record.moves {
        Hirth::apply(&mut state, mv).expect("a read move applies");
    }
    (state, record.warnings)
}

#[test]
fn h12_example_game_replays_to_silfr_drepid_doubled_ten_points() {
    let (state, warnings) = replay(&HirthOptions { target: 5 }, EXAMPLE);
    let result = state.results.last().expect("the game ended");
    assert_eq!(result.victory, Victory::Drepid);
    assert_eq!(result.winner_colour, Colour::Silfr);
    assert_eq!(result.winner, Seat::Second);
    assert_eq!(result.factor, 2);
    assert_eq!(result.points, 10);
    assert_eq!(state.points, [0, 10]);
    assert_eq!(Hirth::turn(&state), Turn::Won(Seat::Second));
    // The two slips of S5 are forgiven with warnings.
    assert!(
        warnings.iter().any(|w| w.contains("holds 1 Hirþ, not 2")),
        "{warnings:?}"
    );
    assert!(warnings.iter().all(|w| w.contains("S5")), "{warnings:?}");
}

#[test]
fn h12_written_record_reads_back_to_the_same_state() {
    let options = HirthOptions { target: 20 };
    let (state, _) = replay(&options, EXAMPLE);
    let written = Hirth::write_record(&state).expect("Hirþ writes records");
    assert_eq!(
        written.lines().next(),
        Some("G1 KeHeH0iHeH0i /"),
        "{written}"
    );
    let (again, warnings) = replay(&options, &written);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(again, state);
}

fn sp(name: char) -> Space {
    Space::from_name(name).expect("a space name")
}

/// A hand-built position: `pieces` lists (space, colour, spec) where the spec has `H` (free
/// Hirþ), `h` (stopped), `L`, `l` (stopped), `K0`–`K4` (free Karve and crew), `k0`–`k4`
/// (stopped). Reserves make up 15 H and 3 K; `steps` were taken by `mover`.
fn build(mover: Colour, steps: u8, pieces: &[(char, Colour, &str)]) -> HirthState {
    let mut state = HirthState::new(HirthOptions { target: 5 });
    let pos = &mut state.position;
    pos.board = state::Board::default();
    pos.mover = mover;
    pos.steps = steps;
    for &(space, colour, spec) in pieces {
        let g = pos.board.group_mut(sp(space), colour);
        let mut chars = spec.chars();
        while let Some(c) = chars.next() {
            match c {
                'H' => g.h += 1,
                'h' => g.h_stopped += 1,
                'L' => g.l = true,
                'l' => g.l_stopped = true,
                'K' | 'k' => {
                    let crew = chars
                        .next()
                        .and_then(|d| d.to_digit(10))
                        .expect("K and its crew") as u8;
                    g.add_karve(Karve {
                        crew,
                        stopped: c == 'k',
                    });
                }
                _ => panic!("bad spec {spec}"),
            }
        }
    }
    fill_reserves(&mut state);
    Hirth::validate(&state).expect("the hand-built position is valid");
    state
}

pub(crate) use crate::fixtures::hirth::fill_reserves;

fn play(state: &mut HirthState, text: &str) -> Vec<Event> {
    let mv = Hirth::parse_move(state, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let written = Hirth::format_move(state, &mv);
    assert_eq!(
        Hirth::parse_move(state, &written).as_ref(),
        Ok(&mv),
        "{text} written {written}"
    );
    Hirth::apply(state, &mv).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn refused(state: &HirthState, text: &str) -> MoveError {
    let mut copy = state.clone();
    let err = match Hirth::parse_move(state, text) {
        Ok(mv) => Hirth::apply(&mut copy, &mv).expect_err(text),
        Err(e) => e,
    };
    assert_eq!(&copy, state, "a refused move leaves the state unchanged");
    err
}

fn rule_of(err: MoveError) -> &'static str {
    match err {
        MoveError::Illegal { rule, .. } => rule,
        other => panic!("expected an illegal move, got {other}"),
    }
}

fn group(state: &HirthState, space: char, colour: Colour) -> &Group {
    state.position.board.group(sp(space), colour)
}

fn legal_texts(state: &HirthState) -> Vec<String> {
    Hirth::legal_moves(state)
        .iter()
        .map(|m| Hirth::format_move(state, m))
        .collect()
}

use Colour::{Gull, Silfr};

#[test]
fn h4_moving_on_through_own_spaces_until_an_empty_one_stops_it() {
    let mut state = build(
        Gull,
        0,
        &[('1', Gull, "L"), ('3', Gull, "H"), ('9', Silfr, "L")],
    );
    play(&mut state, "L13");
    assert!(
        group(&state, '3', Gull).l,
        "3 is held by Gull: the L may go on"
    );
    play(&mut state, "L3m");
    assert!(
        group(&state, 'm', Gull).l_stopped,
        "m was empty: the L stops"
    );
    assert_eq!(rule_of(refused(&state, "Lm5")), "H4");
}

#[test]
fn h4_a_karve_stopping_in_an_empty_space_stops_its_crew_and_whoever_boards_it() {
    let mut state = build(Gull, 0, &[('0', Gull, "LHK1"), ('9', Silfr, "L")]);
    play(&mut state, "Ki01");
    assert_eq!(
        group(&state, '1', Gull).karves,
        vec![Karve {
            crew: 1,
            stopped: true
        }]
    );
    assert_eq!(
        rule_of(refused(&state, "Hr1")),
        "H4",
        "the crew of a stopped K is stopped"
    );
    assert_eq!(rule_of(refused(&state, "Ki13")), "H4");
    play(&mut state, "H01");
    assert_eq!(
        group(&state, '1', Gull).h,
        1,
        "1 is Gull's now: the H is not stopped"
    );
    play(&mut state, "H1i");
    assert_eq!(
        group(&state, '1', Gull).karves,
        vec![Karve {
            crew: 2,
            stopped: true
        }]
    );
}

#[test]
fn h4_an_attack_stops_on_the_line_and_keeps_the_space_left_controlled() {
    let mut state = build(
        Gull,
        0,
        &[
            ('1', Gull, "L"),
            ('3', Gull, "H"),
            ('m', Silfr, "H"),
            ('9', Silfr, "L"),
        ],
    );
    assert_eq!(
        Hirth::format_move(&state, &Hirth::parse_move(&state, "H3m").unwrap()),
        "H3>m"
    );
    play(&mut state, "H3>m");
    assert!(group(&state, '3', Gull).is_empty());
    assert_eq!(state.position.lines.len(), 1);
    assert_eq!(state.position.controller(sp('3')), Some(Gull));
    play(&mut state, "L13");
    assert!(
        group(&state, '3', Gull).l,
        "3 is still Gull's: the L arriving there is free"
    );
}

/// A piece that attacked has left its space for the line: moving it again is refused by H4,
/// which holds it there, not by H3 as if it had never been there.
#[test]
fn h4_a_piece_on_an_attack_line_stays_there_until_the_battles() {
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "L"),
            ('1', Gull, "H"),
            ('m', Silfr, "H"),
            ('9', Silfr, "L"),
        ],
    );
    play(&mut state, "L3>m");
    let err = refused(&state, "L31");
    let message = err.to_string();
    assert_eq!(rule_of(err), "H4", "{message}");
    assert!(
        message.contains("stands on the line attacking m"),
        "{message}"
    );
}

#[test]
fn h4_entering_onto_the_own_home_held_by_the_enemy_attacks_it_from_off_the_board() {
    let mut state = build(
        Gull,
        0,
        &[('1', Gull, "L"), ('0', Silfr, "H"), ('9', Silfr, "L")],
    );
    play(&mut state, "He");
    play(&mut state, "He>0");
    let line = &state.position.lines[0];
    assert_eq!((line.from, line.to, line.pieces.h), (None, sp('0'), 2));
    assert!(legal_texts(&state).contains(&"end >0H^".to_string()));
    play(&mut state, "end >0H^");
    assert_eq!(group(&state, '0', Gull).h, 1);
    assert!(group(&state, '0', Silfr).is_empty());
    assert_eq!(
        state.position.reserve.gull.h,
        15 - 1,
        "the H that did not enter is back in reserve"
    );
    assert_eq!(state.position.removed.silfr, 1);
}

fn battle_winner(events: &[Event]) -> (u32, u32, Seat) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Battle {
                attack,
                defence,
                winner,
                ..
            } => Some((*attack, *defence, *winner)),
            _ => None,
        })
        .expect("a battle")
}

#[test]
fn h5_power_counts_crew_plus_one_and_an_empty_karve_nothing() {
    let g = Group {
        h: 2,
        l: true,
        karves: vec![
            Karve {
                crew: 3,
                stopped: false,
            },
            Karve {
                crew: 0,
                stopped: false,
            },
        ]
        .into(),
        ..Group::default()
    };
    assert_eq!(g.power(), 2 + 1 + 4);
    let mut state = build(
        Gull,
        0,
        &[('3', Gull, "LH"), ('m', Silfr, "K0"), ('9', Silfr, "L")],
    );
    play(&mut state, "H3>m");
    let events = play(&mut state, "end");
    assert_eq!(battle_winner(&events), (1, 0, Seat::First));
}

#[test]
fn h5_tie_goes_to_the_only_side_with_its_lofdungr_attacking() {
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "L"),
            ('1', Gull, "H"),
            ('m', Silfr, "H"),
            ('9', Silfr, "L"),
        ],
    );
    play(&mut state, "L3>m");
    let events = play(&mut state, "end");
    assert_eq!(battle_winner(&events), (1, 1, Seat::First));
    assert!(group(&state, 'm', Gull).l, "the lone attacker enters");
    assert_eq!(state.position.removed.silfr, 1);
}

#[test]
fn h5_tie_goes_to_the_only_side_with_its_lofdungr_defending() {
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "H"),
            ('0', Gull, "L"),
            ('m', Silfr, "L"),
            ('9', Silfr, "H"),
        ],
    );
    play(&mut state, "H3>m");
    let events = play(&mut state, "end");
    assert_eq!(battle_winner(&events), (1, 1, Seat::Second));
}

#[test]
fn h5_tie_with_both_lofdungrs_or_none_goes_to_the_defender() {
    let mut both = build(Gull, 0, &[('3', Gull, "L"), ('m', Silfr, "L")]);
    play(&mut both, "L3>m");
    assert_eq!(battle_winner(&play(&mut both, "end")), (1, 1, Seat::Second));
    assert!(
        group(&both, '3', Gull).l,
        "the beaten attacking L stays where it attacked from"
    );
    let mut none = build(
        Gull,
        0,
        &[
            ('3', Gull, "HH"),
            ('0', Gull, "L"),
            ('m', Silfr, "K1"),
            ('9', Silfr, "L"),
        ],
    );
    play(&mut none, "H3>m");
    play(&mut none, "H3>m");
    assert_eq!(battle_winner(&play(&mut none, "end")), (2, 2, Seat::Second));
}

#[test]
fn h6_losing_attackers_hirth_leave_the_game_karves_go_to_reserve_the_lofdungr_stays() {
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "LHK2"),
            ('m', Silfr, "HHHHH"),
            ('9', Silfr, "L"),
        ],
    );
    play(&mut state, "L3>m");
    play(&mut state, "H3>m");
    play(&mut state, "Kii3>m");
    let events = play(&mut state, "end");
    assert_eq!(
        battle_winner(&events),
        (5, 5, Seat::First),
        "tie, only Gull's L: Gull wins"
    );
    // Now the losing side: Silfr's loose H are removed from the game.
    assert_eq!(state.position.removed.silfr, 5);
    let mut lost = build(
        Gull,
        0,
        &[
            ('3', Gull, "LHK2"),
            ('m', Silfr, "HHHHHH"),
            ('9', Silfr, "L"),
        ],
    );
    play(&mut lost, "L3>m");
    play(&mut lost, "H3>m");
    play(&mut lost, "Kii3>m");
    let events = play(&mut lost, "end");
    assert_eq!(battle_winner(&events), (5, 6, Seat::Second));
    assert!(group(&lost, '3', Gull).l, "the attacking L stays on 3");
    assert_eq!(
        lost.position.removed.gull, 1,
        "the loose H is removed from the game"
    );
    assert_eq!(
        lost.position.reserve.gull,
        Reserve { h: 15 - 1, k: 3 },
        "K and crew back in reserve"
    );
    assert_eq!(group(&lost, 'm', Silfr).h, 6, "the defenders do not move");
}

#[test]
fn h6_losing_defending_karve_returns_to_reserve_with_its_crew() {
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "HHH"),
            ('0', Gull, "L"),
            ('m', Silfr, "K1"),
            ('9', Silfr, "L"),
        ],
    );
    for _ in 0..3 {
        play(&mut state, "H3>m");
    }
    let events = play(&mut state, "end");
    assert_eq!(battle_winner(&events), (3, 2, Seat::First));
    assert_eq!(state.position.reserve.silfr, Reserve { h: 15, k: 3 });
    assert_eq!(state.position.removed.silfr, 0);
}

#[test]
fn h6_the_winner_chooses_which_attackers_enter() {
    let base = build(
        Gull,
        0,
        &[
            ('3', Gull, "LH"),
            ('5', Gull, "H"),
            ('m', Silfr, "H"),
            ('9', Silfr, "L"),
        ],
    );
    let mut state = base.clone();
    play(&mut state, "L3>m");
    play(&mut state, "H3>m");
    play(&mut state, "H5>m");
    let ends = legal_texts(&state)
        .into_iter()
        .filter(|t| t.starts_with("end"))
        .collect::<Vec<_>>();
    assert_eq!(
        ends.len(),
        7,
        "every non-empty choice of the three attackers: {ends:?}"
    );
    assert_eq!(
        rule_of(refused(&state, "end >mL3H3H5")),
        "H6",
        "at least one enters"
    );
    let events = play(&mut state, "end >mL3H5");
    let entries = events.iter().find_map(|e| match e {
        Event::Battle { entries, .. } => Some(entries.clone()),
        _ => None,
    });
    assert_eq!(entries, Some(vec!["GHm".to_string()]));
    assert!(
        group(&state, '3', Gull).l
            && group(&state, '5', Gull).h == 1
            && group(&state, 'm', Gull).h == 1
    );
}

#[test]
fn h7_the_owner_of_the_beaten_lofdungr_chooses_its_retreat() {
    // Silfr's L on 5 can go to 7 (empty) or m (Silfr's).
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "HHH"),
            ('0', Gull, "L"),
            ('5', Silfr, "L"),
            ('m', Silfr, "H"),
            ('7', Silfr, "H"),
        ],
    );
    // 7 held by Silfr too: both are options.
    play(&mut state, "H3>5");
    play(&mut state, "H3>5");
    play(&mut state, "end");
    assert_eq!(state.phase, Phase::Retreat { from: sp('5') });
    assert_eq!(Hirth::turn(&state), Turn::ToAct(Seat::Second));
    match Hirth::status(&state) {
        Status::Ongoing { to_act, colour, .. } => {
            assert_eq!((to_act, colour.as_str()), (Seat::Second, "silfr"))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        legal_texts(&state),
        vec!["retreat m", "retreat 7"],
        "3 is still Gull's"
    );
    assert_eq!(rule_of(refused(&state, "retreat 3")), "H7");
    let events = play(&mut state, "retreat 7");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Retreat { to, .. } if *to == sp('7')))
    );
    assert!(group(&state, '7', Silfr).l);
    assert_eq!(state.position.mover, Silfr);
    assert!(
        state.record.ends_with(">5SL7GH5GH5 /\n") || state.record.contains(">5SL7GH5GH5"),
        "{}",
        state.record
    );
}

#[test]
fn h7_a_single_retreat_is_made_at_once() {
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "HHH"),
            ('0', Gull, "L"),
            ('5', Silfr, "L"),
            ('m', Gull, "H"),
            ('9', Silfr, "H"),
        ],
    );
    play(&mut state, "H3>5");
    play(&mut state, "H3>5");
    let events = play(&mut state, "end");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Retreat { to, .. } if *to == sp('7')))
    );
    assert_eq!(state.phase, Phase::Movement);
    assert_eq!(state.position.mover, Silfr);
}

fn game_end(events: &[Event]) -> (Seat, Victory, u8, u32) {
    events
        .iter()
        .find_map(|e| match e {
            Event::GameEnded {
                winner,
                victory,
                factor,
                points,
                ..
            } => Some((*winner, *victory, *factor, *points)),
            _ => None,
        })
        .expect("the game ended")
}

#[test]
fn h9_drepid_kills_the_lofdungr_on_midr_with_nowhere_to_go() {
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "HHH"),
            ('4', Gull, "L"),
            ('5', Gull, "H"),
            ('6', Gull, "H"),
            ('m', Silfr, "L"),
            ('9', Silfr, "H"),
        ],
    );
    play(&mut state, "H3>m");
    play(&mut state, "H3>m");
    let events = play(&mut state, "end");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Killed {
            seat: Seat::Second,
            ..
        }
    )));
    assert_eq!(
        game_end(&events),
        (Seat::First, Victory::Drepid, 1, 5),
        "king outcomes before Yfirráð"
    );
    assert_eq!(state.points, [5, 0]);
    assert!(state.record.contains(">mSLx"), "{}", state.record);
}

#[test]
fn h9_thungur_hnifur_forces_the_lofdungr_off_elsewhere() {
    let mut state = build(
        Gull,
        0,
        &[
            ('6', Gull, "HHH"),
            ('0', Gull, "L"),
            ('9', Gull, "H"),
            ('8', Silfr, "L"),
            ('7', Silfr, "H"),
        ],
    );
    play(&mut state, "H6>8");
    play(&mut state, "H6>8");
    let events = play(&mut state, "end");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ForcedOff {
            seat: Seat::Second,
            ..
        }
    )));
    assert_eq!(
        game_end(&events),
        (Seat::First, Victory::ThungurHnifur, 1, 2)
    );
    // Match to 5: the next game starts with the seats' colours swapped (H11).
    assert!(events.iter().any(|e| matches!(
        e,
        Event::NextGame {
            game: 2,
            gull: Seat::Second
        }
    )));
    assert_eq!(state.gull, Seat::Second);
    assert_eq!(
        Hirth::turn(&state),
        Turn::ToAct(Seat::Second),
        "Gull starts each game"
    );
}

#[test]
fn h9_yfirrad_is_checked_after_the_retreat() {
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "H"),
            ('4', Gull, "H"),
            ('m', Gull, "HHH"),
            ('5', Gull, "L"),
            ('0', Gull, "H"),
            ('6', Silfr, "L"),
            ('8', Silfr, "H"),
        ],
    );
    play(&mut state, "Hm>6");
    play(&mut state, "Hm>6");
    let events = play(&mut state, "end");
    let retreat = events
        .iter()
        .position(|e| matches!(e, Event::Retreat { .. }))
        .expect("a retreat");
    let end = events
        .iter()
        .position(|e| matches!(e, Event::GameEnded { .. }))
        .expect("the end");
    assert!(retreat < end);
    assert_eq!(game_end(&events), (Seat::First, Victory::Yfirrad, 1, 1));
}

#[test]
fn h8_the_karve_limit_refuses_an_end_of_movement_with_two_karves_in_a_space() {
    let mut state = build(
        Gull,
        0,
        &[('0', Gull, "LK0"), ('1', Gull, "K0"), ('9', Silfr, "L")],
    );
    play(&mut state, "K01");
    assert!(!legal_texts(&state).iter().any(|t| t.starts_with("end")));
    assert_eq!(rule_of(refused(&state, "end")), "H8");
    play(&mut state, "K13");
    play(&mut state, "end");
    // With the fifth step the pile-up could not be undone: that step is refused.
    let mut late = build(
        Gull,
        4,
        &[('0', Gull, "LK0"), ('1', Gull, "K0"), ('9', Silfr, "L")],
    );
    assert_eq!(rule_of(refused(&late, "K01")), "H8");
    play(&mut late, "K13");
}

#[test]
fn h8_only_entries_that_keep_the_limit_are_offered() {
    let mut state = build(
        Gull,
        0,
        &[
            ('3', Gull, "K1"),
            ('5', Gull, "K1"),
            ('0', Gull, "L"),
            ('m', Silfr, "H"),
            ('9', Silfr, "L"),
        ],
    );
    play(&mut state, "Ki3>m");
    play(&mut state, "Ki5>m");
    let mut ends: Vec<String> = legal_texts(&state)
        .into_iter()
        .filter(|t| t.starts_with("end"))
        .collect();
    ends.sort();
    assert_eq!(ends, vec!["end >mKi3", "end >mKi5"]);
    assert_eq!(rule_of(refused(&state, "end")), "H8");
}

#[test]
fn h8_karves_over_the_limit_with_too_few_steps_left_cannot_be_repaired() {
    // Three Karves on 3 and two steps left: two leave, the turn can end. (Put there by hand:
    // `build` checks its positions, and validate refuses a turn that cannot end.)
    let mut state = build(Gull, 3, &[('0', Gull, "L"), ('9', Silfr, "L")]);
    for crew in 0..3 {
        let karve = Karve {
            crew,
            stopped: false,
        };
        state
            .position
            .board
            .group_mut(sp('3'), Gull)
            .add_karve(karve);
    }
    state.position.reserve.gull = state::Reserve { h: 12, k: 0 };
    assert_eq!(limit::can_finish(&state.position), Some(true));
    // One step left (a position no legal step leads to): two must leave, one can.
    state.position.steps = 4;
    assert_eq!(limit::can_finish(&state.position), Some(false));
    assert_eq!(limit::can_finish_unpruned(&state.position), Some(false));
    // Two stopped Karves in one space never leave it, however many steps are left.
    let mut stuck = build(
        Gull,
        1,
        &[('0', Gull, "L"), ('3', Gull, "k0K1"), ('9', Silfr, "L")],
    );
    for k in stuck
        .position
        .board
        .group_mut(sp('3'), Gull)
        .karves
        .iter_mut()
    {
        k.stopped = true;
    }
    assert_eq!(limit::can_finish(&stuck.position), Some(false));
}

#[test]
fn h8_a_karve_steps_into_an_own_karve_space_only_with_a_step_left_to_leave() {
    // Karves on 1 and 3, no pile-up: the one on 1 may join the other on 3 while a step is left
    // after it (it did not stop on its own space and can step on or back), not as the fifth.
    let pieces = [
        ('0', Gull, "L"),
        ('1', Gull, "K0"),
        ('3', Gull, "K1"),
        ('9', Silfr, "L"),
    ];
    for steps in 0..=3 {
        let state = build(Gull, steps, &pieces);
        assert!(
            legal_texts(&state).contains(&"K13".to_string()),
            "{steps} steps"
        );
    }
    let last = build(Gull, 4, &pieces);
    assert!(!legal_texts(&last).contains(&"K13".to_string()));
    assert_eq!(rule_of(refused(&last, "K13")), "H8");
    // The Karve on 3 leaving as the fifth step is no pile-up: listed.
    assert!(legal_texts(&last).contains(&"Ki35".to_string()));
}

#[test]
fn h10_doubling_accepted_moves_the_coin_to_the_accepter() {
    let mut state = build(Gull, 0, &[('0', Gull, "L"), ('9', Silfr, "L")]);
    play(&mut state, "offer");
    assert_eq!(Hirth::turn(&state), Turn::ToAct(Seat::Second));
    assert_eq!(legal_texts(&state), vec!["accept", "give-up"]);
    assert_eq!(rule_of(refused(&state, "He")), "H3");
    play(&mut state, "accept");
    assert_eq!(
        state.coin,
        Coin {
            factor: 2,
            holder: Some(Silfr)
        }
    );
    assert_eq!(
        rule_of(refused(&state, "offer")),
        "H10",
        "only the holder offers"
    );
    play(&mut state, "end");
    play(&mut state, "offer");
    play(&mut state, "accept");
    assert_eq!(
        state.coin,
        Coin {
            factor: 3,
            holder: Some(Gull)
        }
    );
    play(&mut state, "end");
    assert_eq!(rule_of(refused(&state, "offer")), "H10", "no fourth offer");
    assert_eq!(Hirth::score(&state).factor, 3);
}

#[test]
fn h10_a_refused_double_scores_one_and_a_refused_triple_two() {
    let mut state = build(Gull, 0, &[('0', Gull, "L"), ('9', Silfr, "L")]);
    play(&mut state, "offer");
    let events = play(&mut state, "give-up");
    assert_eq!(
        game_end(&events),
        (Seat::First, Victory::RefusedDouble, 1, 1)
    );
    let mut triple = build(Gull, 0, &[('0', Gull, "L"), ('9', Silfr, "L")]);
    triple.coin = Coin {
        factor: 2,
        holder: Some(Gull),
    };
    play(&mut triple, "offer");
    let events = play(&mut triple, "give-up");
    assert_eq!(
        game_end(&events),
        (Seat::First, Victory::RefusedTriple, 2, 2)
    );
}

#[test]
fn h9_points_are_multiplied_by_the_factor() {
    let mut state = build(
        Gull,
        0,
        &[
            ('6', Gull, "HHH"),
            ('0', Gull, "L"),
            ('9', Gull, "H"),
            ('8', Silfr, "L"),
            ('7', Silfr, "H"),
        ],
    );
    state.coin = Coin {
        factor: 3,
        holder: Some(Silfr),
    };
    play(&mut state, "H6>8");
    play(&mut state, "H6>8");
    assert_eq!(
        game_end(&play(&mut state, "end")),
        (Seat::First, Victory::ThungurHnifur, 3, 6)
    );
    assert_eq!(
        Hirth::turn(&state),
        Turn::Won(Seat::First),
        "6 points reach the target of 5"
    );
}

#[test]
fn h11_a_match_to_five_alternates_gull_between_the_seats() {
    let mut state = Hirth::new_game(&HirthOptions::default()).unwrap();
    let mut gulls = Vec::new();
    // Each game: Gull offers, Silfr gives up; Gull's seat scores 1.
    while Hirth::turn(&state) != Turn::Won(Seat::First)
        && Hirth::turn(&state) != Turn::Won(Seat::Second)
    {
        gulls.push(state.gull);
        play(&mut state, "offer");
        play(&mut state, "give-up");
    }
    assert_eq!(
        gulls,
        vec![
            Seat::First,
            Seat::Second,
            Seat::First,
            Seat::Second,
            Seat::First,
            Seat::Second,
            Seat::First,
            Seat::Second,
            Seat::First
        ]
    );
    assert_eq!(state.points, [5, 4]);
    assert_eq!(Hirth::turn(&state), Turn::Won(Seat::First));
    assert!(Hirth::legal_moves(&state).is_empty());
    assert_eq!(refused(&state, "offer"), MoveError::GameOver);
    let single = Hirth::new_game(&HirthOptions { target: 1 }).unwrap();
    let mut single = single;
    play(&mut single, "offer");
    play(&mut single, "give-up");
    assert_eq!(
        Hirth::turn(&single),
        Turn::Won(Seat::First),
        "target 1 plays a single game"
    );
    assert!(Hirth::new_game(&HirthOptions { target: 0 }).is_err());
}

#[test]
fn h12_every_turn_of_the_example_parses_and_rerenders() {
    let options = HirthOptions { target: 20 };
    let record = Hirth::read_record(&options, EXAMPLE).unwrap();
    let mut state = Hirth::new_game(&options).unwrap();
    for mv in &record.moves {
        let text = Hirth::format_move(&state, mv);
        assert_eq!(Hirth::parse_move(&state, &text).as_ref(), Ok(mv), "{text}");
        Hirth::apply(&mut state, mv).unwrap();
    }
    let written: Vec<&str> = state.record.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(written.len(), 10);
    assert_eq!(written[6], "G4 L13L3mLm>6Hm>6He >6SL8GLmGH6");
    assert_eq!(written[9], "S5 Hr3Ki3>mL64 >mGLxSKim");
}

#[test]
fn h12_a_path_goes_through_own_spaces() {
    let record = Hirth::read_record(&HirthOptions::default(), EXAMPLE).unwrap();
    let l_steps: Vec<&Move> = record
        .moves
        .iter()
        .filter(|m| matches!(m, Move::Go { unit: Unit::L, .. }))
        .collect();
    // G4 L1>6: 1→3→m, attacking 6 from m.
    let path = [(sp('1'), sp('3')), (sp('3'), sp('m')), (sp('m'), sp('6'))];
    let found = l_steps.windows(3).any(|w| {
        w.iter()
            .zip(path)
            .all(|(m, (f, t))| matches!(m, Move::Go { from, to, .. } if *from == f && *to == t))
    });
    assert!(found, "{l_steps:?}");
}

#[test]
fn h12_reader_reports_unreadable_and_illegal_lines() {
    let options = HirthOptions::default();
    let err = Hirth::read_record(&options, "G1 L0>5 /").unwrap_err();
    assert_eq!(err.line, 1);
    let err = Hirth::read_record(&options, "G1 He /\nG1 He /").unwrap_err();
    assert_eq!(err.line, 2, "{err}");
    assert!(Hirth::read_record(&options, "X1 He /").is_err());
}

#[test]
fn notation_names_the_karve_when_several_could_be_meant() {
    let mut state = build(Gull, 0, &[('0', Gull, "LHK2K1"), ('9', Silfr, "L")]);
    let texts = legal_texts(&state);
    assert!(
        texts.contains(&"H0i[Kii]".to_string()) && texts.contains(&"Hr0[Ki]".to_string()),
        "{texts:?}"
    );
    assert!(
        Hirth::parse_move(&state, "H0i").is_err(),
        "ambiguous without the name"
    );
    play(&mut state, "H0i[Ki]");
    assert_eq!(
        group(&state, '0', Gull).karves,
        vec![
            Karve {
                crew: 2,
                stopped: false
            },
            Karve {
                crew: 2,
                stopped: false
            }
        ]
    );
}

#[track_caller]
fn invalid(state: &HirthState) -> String {
    Hirth::validate(state).expect_err("invalid").path
}

#[test]
fn validate_refuses_impossible_states_with_a_path() {
    let good = build(Gull, 0, &[('0', Gull, "L"), ('9', Silfr, "L")]);
    let mut s = good.clone();
    s.position.reserve.gull.h = 16;
    assert_eq!(invalid(&s), "position.reserve.gull");
    let mut s = good.clone();
    s.position.reserve.silfr.k = 4;
    assert_eq!(invalid(&s), "position.reserve.silfr");
    let mut s = good.clone();
    s.position.board.group_mut(sp('m'), Gull).l = true;
    assert_eq!(invalid(&s), "position.board (gull)");
    let mut s = good.clone();
    s.position
        .board
        .group_mut(sp('0'), Gull)
        .karves
        .push(Karve {
            crew: 5,
            stopped: false,
        });
    s.position.reserve.gull = Reserve { h: 10, k: 2 };
    assert_eq!(invalid(&s), "position.board.0.gull.karves[0].crew");
    let mut s = good.clone();
    s.position.board.group_mut(sp('9'), Gull).h = 1;
    s.position.reserve.gull.h = 14;
    assert_eq!(invalid(&s), "position.board.9");
    let mut s = good.clone();
    s.position.board.group_mut(sp('m'), Silfr).h = 1;
    s.position.reserve.silfr.h = 14;
    s.position.steps = 1;
    s.position.lines.push(Line {
        from: Some(sp('1')),
        to: sp('m'),
        pieces: Group {
            h: 1,
            ..Group::default()
        },
    });
    s.position.reserve.gull.h = 14;
    assert_eq!(invalid(&s), "position.lines[0].from");
    let mut s = good.clone();
    s.version = 99;
    assert_eq!(invalid(&s), "version");
    let mut s = good.clone();
    s.phase = Phase::Retreat { from: sp('5') };
    assert_eq!(invalid(&s), "position.board (silfr)");
    let mut s = good.clone();
    s.phase = Phase::Over;
    assert_eq!(invalid(&s), "phase");
    let mut s = good.clone();
    s.coin = Coin {
        factor: 2,
        holder: None,
    };
    assert_eq!(invalid(&s), "coin.holder");
}

fn reason_of(err: MoveError) -> String {
    match err {
        MoveError::Illegal { reason, .. } => reason,
        other => panic!("expected an illegal move, got {other}"),
    }
}

#[test]
fn h3_a_fifth_hirth_boarding_a_full_karve_is_illegal_not_unreadable() {
    let mut state = build(Gull, 0, &[('0', Gull, "LK4"), ('9', Silfr, "L")]);
    play(&mut state, "He");
    let err = refused(&state, "H0i");
    assert_eq!(rule_of(err.clone()), "H3", "{err}");
    assert!(reason_of(err).contains("at most 4"));
    // A Karve with room is still boarded as before.
    let mut state = build(Gull, 0, &[('0', Gull, "LHK3"), ('9', Silfr, "L")]);
    play(&mut state, "H0i");
    assert_eq!(group(&state, '0', Gull).karves[0].crew, 4);
}

#[test]
fn h4_an_arrow_on_a_step_that_attacks_nothing_is_refused_and_warned_in_records() {
    let state = build(Gull, 0, &[('0', Gull, "L"), ('9', Silfr, "L")]);
    let err = refused(&state, "L0>1");
    assert_eq!(rule_of(err.clone()), "H4", "{err}");
    assert!(reason_of(err).contains("attacks nothing"));
    let err = refused(&state, "He>0");
    assert_eq!(rule_of(err), "H4");
    // The same step without the arrow is legal; a real attack keeps its arrow.
    assert!(Hirth::parse_move(&state, "L01").is_ok());
    let attack = build(
        Gull,
        0,
        &[('1', Gull, "L"), ('3', Silfr, "H"), ('9', Silfr, "L")],
    );
    assert!(Hirth::parse_move(&attack, "L1>3").is_ok());
    // The record reader forgives it, with a warning.
    let record = Hirth::read_record(&HirthOptions::default(), "G1 L0>1 /").unwrap();
    assert_eq!(record.warnings.len(), 1, "{:?}", record.warnings);
    assert!(record.warnings[0].contains("> ignored"));
}

#[test]
fn h3_h4_a_piece_that_cannot_move_is_refused_with_the_real_reason() {
    let state = build(
        Gull,
        1,
        &[
            ('0', Gull, "L"),
            ('1', Gull, "K2"),
            ('2', Gull, "h"),
            ('9', Silfr, "L"),
        ],
    );
    let why = |text: &str| {
        let err = refused(&state, text);
        (rule_of(err.clone()), reason_of(err))
    };
    let (rule, reason) = why("L98");
    assert_eq!(rule, "H3");
    assert!(reason.contains("silfr's"), "{reason}");
    let (rule, reason) = why("H13");
    assert_eq!(rule, "H3");
    assert!(reason.contains("aboard a Karve"), "{reason}");
    let (rule, reason) = why("H24");
    assert_eq!(rule, "H4");
    assert!(reason.contains("stopped"), "{reason}");
    let (rule, reason) = why("H35");
    assert_eq!(rule, "H3");
    assert!(reason.contains("no Hirþ on 3"), "{reason}");
    for (_, reason) in [why("L98"), why("H13"), why("H35")] {
        assert!(!reason.contains("stopped"), "{reason}");
    }
}

/// Four lines that bring two Gull Karves (one Hirþ each) next to a Silfr Hirþ on 5.
const TWO_KARVES_BEFORE_5: &str = "G1 KeHeH0iKi01Ke /
S1 HeH97 /
G2 Ki13HeH0iKi01 /
S2 H75 /
";

#[test]
fn h8_a_record_whose_battle_notes_break_the_karve_limit_is_refused_at_that_line() {
    let options = HirthOptions::default();
    let text = format!("{TWO_KARVES_BEFORE_5}G3 Ki3>5Ki13Ki3>5 >5SHxGKi5GKi5\n");
    let err = Hirth::read_record(&options, &text).unwrap_err();
    assert_eq!(err.line, 5, "{err}");
    assert!(err.reason.contains("H8"), "{err}");
    // Entries that keep the limit read; notes that name no entries are mended with a warning.
    let text = format!("{TWO_KARVES_BEFORE_5}G3 Ki3>5Ki13Ki3>5 >5SHxGKi5GKi3\n");
    let record = Hirth::read_record(&options, &text).unwrap();
    assert!(record.warnings.is_empty(), "{:?}", record.warnings);
    let text = format!("{TWO_KARVES_BEFORE_5}G3 Ki3>5Ki13Ki3>5 /\n");
    let record = Hirth::read_record(&options, &text).unwrap();
    assert_eq!(record.warnings.len(), 1, "{:?}", record.warnings);
}

#[test]
fn h6_a_record_whose_battle_notes_let_no_attacker_enter_a_won_battle_is_refused() {
    let options = HirthOptions::default();
    let before = "G1 HeH01 /\nS1 HeH97 /\nG2 H13HeH01 /\nS2 H75 /\n";
    let text = format!("{before}G3 H3>5H13H3>5 >5SHxGH3GH3\n");
    let err = Hirth::read_record(&options, &text).unwrap_err();
    assert_eq!(err.line, 5, "{err}");
    assert!(err.reason.contains("H6"), "{err}");
    let text = format!("{before}G3 H3>5H13H3>5 >5SHxGH5GH3\n");
    let record = Hirth::read_record(&options, &text).unwrap();
    assert!(record.warnings.is_empty(), "{:?}", record.warnings);
}

/// Found by the `state_hirth` fuzz target: a hand-built state in round 2 with no record was
/// valid, but after one turn its record began with `G2`, which the next request refused.
#[test]
fn h12_a_history_left_out_stays_left_out_after_a_turn() {
    let mut state = build(
        Colour::Gull,
        0,
        &[('0', Colour::Gull, "L"), ('7', Colour::Silfr, "L")],
    );
    state.round = 2;
    Hirth::validate(&state).expect("an empty record is a history left out");
    play(&mut state, "end");
    assert_eq!(state.record, "", "no line starting mid-match");
    assert_eq!(
        state.log,
        Default::default(),
        "the turn's log is cleared all the same"
    );
    Hirth::validate(&state).expect("the state after the turn is valid");

    // At the match's first turn an empty record is the whole history: the line is written.
    let mut first = build(
        Colour::Gull,
        0,
        &[('0', Colour::Gull, "L"), ('7', Colour::Silfr, "L")],
    );
    play(&mut first, "end");
    assert!(first.record.starts_with("G1 "), "{:?}", first.record);
    Hirth::validate(&first).expect("the state after the first turn is valid");
}

/// Found by the `state_hirth` fuzz target: a hand-built state with an offer open and no log was
/// valid, but after `accept` its log held an answer without its offer, which the next request
/// refused. The answer now follows the offer, noted from the coin.
#[test]
fn h10_an_answer_to_an_offer_left_out_of_the_log_is_noted_after_it() {
    let mut state = build(
        Colour::Silfr,
        0,
        &[('0', Colour::Gull, "LK0"), ('9', Colour::Silfr, "L")],
    );
    state.phase = Phase::Offer;
    Hirth::validate(&state).expect("an empty log is a log left out");
    play(&mut state, "accept");
    assert_eq!(state.log.doubling, "SdGa");
    Hirth::validate(&state).expect("the state after the answer is valid");

    // Refused instead: the game ends, and the next one starts with an empty log.
    let mut refused = build(
        Colour::Silfr,
        0,
        &[('0', Colour::Gull, "LK0"), ('9', Colour::Silfr, "L")],
    );
    refused.phase = Phase::Offer;
    play(&mut refused, "give-up");
    assert_eq!(refused.results.len(), 1);
    assert_eq!(refused.log, Default::default());
    Hirth::validate(&refused).expect("the state after the refusal is valid");
}
