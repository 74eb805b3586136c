//! The points of T12, every branch, and the two-game match.

use super::*;
use crate::tara::PerColour;
use crate::tara::hills::HillList;
use crate::tara::scoring::outcome;
use crate::{Seat, Status, Turn};

fn hills(names: &[&str]) -> HillList {
    names.iter().map(|n| hill(n)).collect()
}

/// A finished game with these ringforts and captures (kings are irrelevant to T12).
fn finished(red: &[&str], blue: &[&str], captured: (u8, u8)) -> TaraState {
    let mut state = TaraState::start(&TaraOptions::default(), 1, Colour::Red);
    state.ringforts = PerColour {
        red: hills(red),
        blue: hills(blue),
    };
    state.captured = PerColour {
        red: captured.0,
        blue: captured.1,
    };
    state.passed = PerColour {
        red: true,
        blue: true,
    };
    state.over = true;
    state
}

const SIX_SINGLES: [&str; 6] = ["A2", "A4", "A6", "C2", "C4", "C6"];
const SEVEN_SINGLES: [&str; 7] = ["E2", "E4", "E6", "G2", "G4", "G6", "D7"];

#[test]
fn t12_fewer_kingdoms_wins_two_plus_the_difference_plus_a_captured_king_fig_14() {
    let state = finished(&SIX_SINGLES, &SEVEN_SINGLES, (1, 0));
    let result = outcome(&state);
    assert_eq!(result.points, PerColour { red: 4, blue: 0 });
    assert_eq!(result.winner, Some(Colour::Red));
    let score = Tara::score(&state);
    assert_eq!((score.red.kingdoms, score.blue.kingdoms), (6, 7));
    assert_eq!(score.red.points, Some(4));
    assert_eq!(Tara::turn(&state), Turn::Won(Seat::First));
}

#[test]
fn t12_equal_kingdoms_more_territory_wins_two_plus_the_difference() {
    let state = finished(
        &["A2", "A3", "A4", "C6", "C7"],
        &["E2", "E3", "G5", "G6"],
        (0, 1),
    );
    let result = outcome(&state);
    assert_eq!(result.points, PerColour { red: 3, blue: 1 });
    assert_eq!(result.winner, Some(Colour::Red));
    assert_eq!(Tara::score(&state).red.territory, 5);
}

#[test]
fn t12_equal_kingdoms_and_territory_scores_one_point_each() {
    let state = finished(&["A2", "A3"], &["E2", "E3"], (1, 0));
    let result = outcome(&state);
    assert_eq!(result.points, PerColour { red: 2, blue: 1 });
    assert_eq!(result.winner, None);
    assert_eq!(Tara::turn(&state), Turn::Drawn);
    assert!(matches!(
        Tara::status(&state),
        Status::Finished { winner: None, .. }
    ));
}

#[test]
fn t12_double_capture_scores_a_point_per_king_and_the_loser_keeps_one() {
    // Red would win on kingdoms; the double capture overrides them.
    let state = finished(&["A2", "A3"], &SEVEN_SINGLES, (1, 2));
    let result = outcome(&state);
    assert_eq!(result.points, PerColour { red: 1, blue: 2 });
    assert_eq!(result.winner, Some(Colour::Blue));
    let triple = finished(&["A2"], &["E2"], (3, 0));
    assert_eq!(outcome(&triple).points, PerColour { red: 3, blue: 0 });
}

#[test]
fn t12_score_during_play_has_kingdoms_territory_and_no_points() {
    let mut state = finished(&SIX_SINGLES, &["E2", "E3", "E4"], (0, 1));
    state.over = false;
    let score = Tara::score(&state);
    assert_eq!((score.red.kingdoms, score.red.territory), (6, 6));
    assert_eq!(
        (
            score.blue.kingdoms,
            score.blue.territory,
            score.blue.captured_kings
        ),
        (1, 3, 1)
    );
    assert_eq!((score.red.points, score.winner), (None, None));
}

#[test]
fn t12_match_second_game_starts_with_the_other_player_and_keeps_the_points() {
    let options = TaraOptions {
        is_match: true,
        ..TaraOptions::default()
    };
    let mut state = finished(&SIX_SINGLES, &SEVEN_SINGLES, (1, 0));
    state.options = options;
    Tara::validate(&state).unwrap();
    // Game 1 is over: Blue (the second seat) starts game 2.
    assert_eq!(Tara::turn(&state), Turn::ToAct(Seat::Second));
    assert!(matches!(Tara::status(&state), Status::Ongoing { ref colour, .. } if colour == "blue"));
    assert_eq!(legal(&state), ["next"]);
    assert_eq!(refusal(&state, "pass").0, "T12");
    assert_eq!(Tara::score(&state).red.match_points, Some(4));
    let events = play(&mut state, "next");
    assert_eq!(
        events,
        [TaraEvent::GameStarted {
            game: 2,
            first: Colour::Blue
        }]
    );
    assert_eq!(
        (state.game, state.to_move, state.over),
        (2, Colour::Blue, false)
    );
    assert_eq!(state.game1_points, Some(PerColour { red: 4, blue: 0 }));
    assert!(state.ringforts.red.is_empty());
    Tara::validate(&state).unwrap();
    assert_eq!(Tara::turn(&state), Turn::ToAct(Seat::Second));
    // Blue wins game 2 by 5 (2 + 3 kingdoms): 4 to 5 overall.
    state.ringforts = PerColour {
        red: hills(&["A2", "A4", "A6", "C2"]),
        blue: hills(&["E2"]),
    };
    state.passed = PerColour {
        red: true,
        blue: true,
    };
    state.over = true;
    let score = Tara::score(&state);
    assert_eq!(
        (score.red.match_points, score.blue.match_points),
        (Some(4), Some(5))
    );
    assert_eq!(score.match_winner, Some(Colour::Blue));
    assert_eq!(Tara::turn(&state), Turn::Won(Seat::Second));
}

#[test]
fn t12_the_reason_in_words_for_each_way_a_game_is_decided() {
    let reason =
        |red: &[&str], blue: &[&str], captured| outcome(&finished(red, blue, captured)).reason;
    assert_eq!(reason(&["A2"], &["G2"], (2, 1)), "double capture by Red");
    assert_eq!(
        reason(&SIX_SINGLES, &SEVEN_SINGLES, (1, 0)),
        "Red has fewer kingdoms (6 to 7)"
    );
    assert_eq!(
        reason(&["A2"], &["G2", "G3"], (0, 0)),
        "equal kingdoms (1); Blue has more territory (2 to 1)"
    );
    assert_eq!(
        reason(&["A2"], &["G2"], (0, 0)),
        "equal kingdoms (1) and territory (1)"
    );
}
