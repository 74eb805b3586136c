//! The Level 2 variant: sacrificing ringforts (T11).

use super::*;
use crate::tara::PerColour;
use crate::{Seat, Turn};

pub(crate) use crate::fixtures::tara::sacrifice_position;

#[test]
fn t11_sacrifice_is_listed_besides_the_plain_backtrack() {
    let state = sacrifice_position();
    Tara::validate(&state).unwrap();
    assert_eq!(legal(&state), ["C5-B3", "C5sB3", "E7-F5", "E7-G6", "pass"]);
    let mut level1 = state.clone();
    level1.options.level = 1;
    assert_eq!(legal(&level1), ["C5-B3", "E7-F5", "E7-G6", "pass"]);
    assert_eq!(refusal(&level1, "C5sB3").0, "T11");
}

#[test]
fn t11_sacrifice_needs_a_captured_king_and_a_besieged_single() {
    let mut state = sacrifice_position();
    let (rule, reason) = refusal(&state, "E7sF5");
    assert_eq!(rule, "T11");
    assert!(reason.contains("F5"), "{reason}");
    state.captured.blue = 0;
    state.kings.red.push(hill("G3"));
    assert!(!legal(&state).contains(&"C5sB3".to_string()));
    let (rule, reason) = refusal(&state, "C5sB3");
    assert_eq!(rule, "T11");
    assert!(reason.contains("captured"), "{reason}");
}

#[test]
fn t11_sacrifice_hands_the_ringfort_over_and_captures_as_the_king_lands() {
    let mut state = sacrifice_position();
    let events = play(&mut state, "C5sB3");
    let b3 = hill("B3");
    assert!(events.contains(&TaraEvent::KingsCaptured {
        colour: Colour::Red,
        by: b3,
        hills: vec![hill("B2")]
    }));
    assert!(events.contains(&TaraEvent::Sacrificed {
        colour: Colour::Red,
        from: hill("C5"),
        to: b3
    }));
    assert!(state.ringforts.blue.contains(&b3) && !state.ringforts.red.contains(&b3));
    assert_eq!(kings(&state, Colour::Red), ["B3", "E7"]);
    assert_eq!(
        state.sacrificed,
        PerColour {
            red: Some(b3),
            blue: None
        }
    );
    assert_eq!(state.captured.red, 1);
    assert_eq!(state.to_move, Colour::Blue);
    Tara::validate(&state).unwrap();
}

#[test]
fn t11_sacrificing_king_is_immune_during_the_opponents_next_turn() {
    let mut state = sacrifice_position();
    play(&mut state, "C5sB3");
    // Blue backtracks next to B3, whose king stands on a single besieged by Blue.
    let events = play(&mut state, "E2-C3");
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(kings(&state, Colour::Red), ["B3", "E7"]);
    assert_eq!(state.captured.blue, 1);
}

#[test]
fn t11_sacrificing_king_must_move_on_the_next_turn() {
    let mut state = sacrifice_position();
    play(&mut state, "C5sB3");
    play(&mut state, "E2-C3");
    Tara::validate(&state).unwrap();
    assert_eq!(legal(&state), ["B3-C5", "B3sC5"]);
    assert_eq!(refusal(&state, "E7-F5").0, "T11");
    assert_eq!(refusal(&state, "pass").0, "T11");
    play(&mut state, "B3-C5");
    assert_eq!(state.sacrificed.red, None);
    assert!(state.ringforts.blue.contains(&hill("B3")));
    Tara::validate(&state).unwrap();
}

#[test]
fn t11_trapped_sacrificing_king_is_captured_and_loses_by_double_capture() {
    let mut state = sacrifice_position();
    play(&mut state, "C5sB3");
    // Blue captures C5, B3's only way out.
    let events = play(&mut state, "A4xC5");
    assert!(events.contains(&TaraEvent::KingTrapped {
        colour: Colour::Red,
        hill: hill("B3")
    }));
    assert!(matches!(
        events.last(),
        Some(TaraEvent::GameOver {
            winner: Some(Colour::Blue),
            points: PerColour { red: 1, blue: 2 },
            ..
        })
    ));
    assert!(state.over);
    assert_eq!(Tara::turn(&state), Turn::Won(Seat::Second));
    Tara::validate(&state).unwrap();
}

#[test]
fn t11_king_still_on_its_sacrificed_ringfort_at_the_end_is_captured() {
    let mut state = sacrifice_position();
    state.final_turn = Some(Colour::Red);
    Tara::validate(&state).unwrap();
    let events = play(&mut state, "C5sB3");
    assert!(events.contains(&TaraEvent::KingTrapped {
        colour: Colour::Red,
        hill: hill("B3")
    }));
    assert!(state.over);
    assert_eq!(state.captured.blue, 2);
    assert_eq!(Tara::score(&state).winner, Some(Colour::Blue));
}
