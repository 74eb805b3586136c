//! Setup, Manoeuvres, Battle, captures and the endings (T3–T10).

use super::*;
use crate::tara::PerColour;
use crate::{Seat, Turn};

pub(crate) use crate::fixtures::tara::{full_board, manoeuvres};

/// Blue to move; every Red king is immobile under Manoeuvre rules (T5) but E2 is not in Battle.
fn before_battle() -> TaraState {
    let mut state = TaraState::from_diagram([
        "# . . . B . #",
        ". . B . . . R",
        ". . . r . . .",
        ". r . . . b .",
        ". . b . . . .",
        "R . . . R . r",
        "# . B . . . #",
    ]);
    state.to_move = Colour::Blue;
    state
}

#[test]
fn t3_setup_alternates_and_keeps_own_ringforts_apart() {
    let mut state = Tara::new_game(&TaraOptions::default()).unwrap();
    assert_eq!(Tara::legal_moves(&state).len(), 45);
    assert_eq!(Tara::turn(&state), Turn::ToAct(Seat::First));
    play(&mut state, "D4");
    assert_eq!(state.to_move, Colour::Blue);
    assert_eq!(Tara::legal_moves(&state).len(), 44);
    play(&mut state, "D5"); // next to an enemy ringfort: allowed
    // Red may not use D4's neighbours C4, E4, D3 (D5 is taken).
    assert_eq!(Tara::legal_moves(&state).len(), 40);
    assert_eq!(refusal(&state, "C4").0, "T3");
    assert_eq!(refusal(&state, "D5").0, "T3");
    assert_eq!(refusal(&state, "D4-E6").0, "T3");
    assert_eq!(refusal(&state, "pass").0, "T3");
}

#[test]
fn t3_setup_ends_after_six_kings_and_the_first_player_moves_a_king() {
    let options = TaraOptions {
        first: Colour::Blue,
        ..TaraOptions::default()
    };
    let mut state = Tara::new_game(&options).unwrap();
    assert_eq!(state.to_move, Colour::Blue);
    assert_eq!(Tara::turn(&state), Turn::ToAct(Seat::First));
    for hill in ["D4", "B2", "F6", "B6", "F2", "D7"] {
        play(&mut state, hill);
    }
    assert_eq!(state.to_move, Colour::Blue);
    assert!(!state.in_setup());
    assert_eq!(kings(&state, Colour::Blue), ["D4", "F2", "F6"]);
    assert!(
        Tara::legal_moves(&state)
            .iter()
            .all(|m| matches!(m, TaraMove::Step { .. }))
    );
    assert_eq!(refusal(&state, "E5").0, "T3");
    Tara::validate(&state).unwrap();
}

#[test]
fn t5_moved_king_builds_a_ringfort_under_it() {
    let mut state = manoeuvres();
    Tara::validate(&state).unwrap();
    let events = play(&mut state, "D4-E6");
    let red = hill("E6");
    assert_eq!(
        events[0],
        TaraEvent::Built {
            colour: Colour::Red,
            from: hill("D4"),
            to: red
        }
    );
    assert!(state.ringforts.red.contains(&red) && state.ringforts.red.contains(&hill("D4")));
    assert_eq!(kings(&state, Colour::Red), ["B6", "E6", "F2"]);
    assert_eq!(state.to_move, Colour::Blue);
}

#[test]
fn t5_manoeuvre_move_refused_next_to_a_friendly_ringfort() {
    let state = manoeuvres();
    let (rule, reason) = refusal(&state, "D4-F5");
    assert_eq!(rule, "T5");
    assert!(reason.contains("F5"), "{reason}");
    assert!(!legal(&state).contains(&"D4-F5".to_string()));
}

#[test]
fn t4_friendly_kings_never_stand_on_adjacent_hills() {
    let state = manoeuvres();
    assert_eq!(refusal(&state, "D4-E2").0, "T4"); // E2 is next to the Red king on F2
    assert_eq!(refusal(&state, "D4-D6").0, "T4"); // not a knight's move
    assert_eq!(refusal(&state, "B2-D3").0, "T4"); // a Blue king
    // Next to an enemy king is fine: E6 touches the Blue king on F6.
    assert!(legal(&state).contains(&"D4-E6".to_string()));
}

#[test]
fn t6_battle_starts_for_one_player_then_the_other_on_its_next_turn() {
    let mut state = before_battle();
    Tara::validate(&state).unwrap();
    let events = play(&mut state, "C6-E5");
    assert!(events.contains(&TaraEvent::BattleStarted {
        colour: Colour::Red
    }));
    assert_eq!(
        state.battle,
        PerColour {
            red: true,
            blue: false
        }
    );
    // Battle lifts the ban on building next to a friendly ringfort: E2 is mobile again.
    assert_eq!(legal(&state), ["E2-D4", "E2-G3"]);
    Tara::validate(&state).unwrap();
    let events = play(&mut state, "E2-D4");
    assert!(events.contains(&TaraEvent::BattleStarted {
        colour: Colour::Blue
    }));
    assert_eq!(
        state.battle,
        PerColour {
            red: true,
            blue: true
        }
    );
    Tara::validate(&state).unwrap();
}

#[test]
fn t6_backtrack_refused_while_a_king_is_mobile() {
    let mut state = before_battle();
    play(&mut state, "C6-E5");
    let (rule, reason) = refusal(&state, "A2-B4");
    assert_eq!(rule, "T6");
    assert!(reason.contains("E2"), "{reason}");
}

#[test]
fn t6_backtrack_allowed_when_every_king_is_immobile() {
    let mut state = full_board();
    Tara::validate(&state).unwrap();
    // B5 touches no Red king; C4, C2 (next to C3) and A4, A2 (next to A3) do.
    assert_eq!(
        legal(&state),
        ["A3-B5", "A3xB1", "B7-C5", "C3-B5", "C3xB1", "pass"]
    );
    let events = play(&mut state, "A3-B5");
    assert_eq!(
        events[0],
        TaraEvent::Backtracked {
            colour: Colour::Red,
            from: hill("A3"),
            to: hill("B5")
        }
    );
    assert_eq!(state.ringforts.red.len(), 16);
}

#[test]
fn t8_captures_a_besieged_single_ringfort() {
    let mut state = full_board();
    assert_eq!(mv(&state, "A3-B1"), mv(&state, "A3xB1"));
    let events = play(&mut state, "A3xB1");
    assert_eq!(
        events[0],
        TaraEvent::RingfortCaptured {
            colour: Colour::Red,
            from: hill("A3"),
            to: hill("B1")
        }
    );
    assert!(state.ringforts.red.contains(&hill("B1")));
    assert!(!state.ringforts.blue.contains(&hill("B1")));
    assert_eq!(
        (state.ringforts.red.len(), state.ringforts.blue.len()),
        (17, 28)
    );
}

#[test]
fn t8_capture_refused_for_a_linked_pair() {
    let state = full_board();
    let (rule, reason) = refusal(&state, "B7-A5");
    assert_eq!(rule, "T8");
    assert!(reason.contains("besieged single"), "{reason}");
}

#[test]
fn t8_capture_refused_while_a_king_is_mobile() {
    let mut state = full_board();
    state.ringforts.blue.retain(|h| *h != hill("E4"));
    assert_eq!(legal(&state), ["C3-E4"]);
    let (rule, reason) = refusal(&state, "A3xB1");
    assert_eq!(rule, "T8");
    assert!(reason.contains("C3"), "{reason}");
}

#[test]
fn t9_moved_king_captures_by_building_the_last_besieging_ringfort() {
    let mut state = TaraState::from_diagram([
        "# . . B . . #",
        ". . . . R . .",
        "R . . . . . .",
        ". . . . . . B",
        ". . . B . . .",
        ". . . . . . .",
        "# R b . . . #",
    ]);
    state.to_move = Colour::Blue;
    Tara::validate(&state).unwrap();
    let events = play(&mut state, "D3-B2");
    assert!(events.contains(&TaraEvent::KingsCaptured {
        colour: Colour::Blue,
        by: hill("B2"),
        hills: vec![hill("B1")]
    }));
    assert_eq!(state.captured.blue, 1);
    assert_eq!(kings(&state, Colour::Red), ["A5", "E6"]);
    assert!(
        state.ringforts.red.contains(&hill("B1")),
        "the ringfort stays"
    );
    Tara::validate(&state).unwrap();
}

#[test]
fn t9_king_moving_onto_a_besieged_hill_is_safe_from_the_adjacent_king() {
    let mut state = TaraState::from_diagram([
        "# . . B . . #",
        ". R . . . . .",
        ". . . . R B .",
        ". . . . . . .",
        ". . . . . . .",
        ". B . R . . .",
        "# . b . . . #",
    ]);
    state.options.first = Colour::Blue; // seven ringforts, Red to move (T3, T5)
    Tara::validate(&state).unwrap();
    // B1 is besieged by Blue (C1, B2) and touches the Blue king on B2.
    let events = play(&mut state, "D2-B1");
    assert_eq!(events.len(), 1);
    // Only the king that moves captures: another Blue king's move leaves B1 alone.
    play(&mut state, "F5-G3");
    assert_eq!(state.captured.blue, 0);
    assert_eq!(kings(&state, Colour::Red), ["B1", "B6", "E5"]);
}

#[test]
fn t9_double_capture_in_one_move_ends_the_game() {
    let mut state = TaraState::from_diagram([
        "# . . B . . #",
        ". . . . R . .",
        ". . . . . . .",
        ". . . . . . B",
        "b . . B . . .",
        "R . . . . . .",
        "# R b . . . #",
    ]);
    state.to_move = Colour::Blue;
    state.options.first = Colour::Blue; // eight ringforts, Blue to move (T3, T5)
    Tara::validate(&state).unwrap();
    let events = play(&mut state, "D3-B2");
    assert!(events.contains(&TaraEvent::KingsCaptured {
        colour: Colour::Blue,
        by: hill("B2"),
        hills: vec![hill("B1"), hill("A2")]
    }));
    assert!(state.over);
    // Blue started (eight ringforts and Blue to move), so Blue is the first seat.
    assert_eq!(Tara::turn(&state), Turn::Won(Seat::First));
    assert!(Tara::legal_moves(&state).is_empty());
    assert_eq!(
        Tara::apply(&mut state.clone(), &TaraMove::Pass),
        Err(MoveError::GameOver)
    );
    let score = Tara::score(&state);
    assert_eq!((score.blue.points, score.red.points), (Some(2), Some(0)));
    Tara::validate(&state).unwrap();
}

#[test]
fn t10_pass_removes_the_kings_and_the_opponent_has_one_more_turn() {
    let mut state = full_board();
    let events = play(&mut state, "pass");
    assert_eq!(
        events,
        [
            TaraEvent::Passed {
                colour: Colour::Red,
                forced: false,
                kings_removed: vec![hill("B7"), hill("A3"), hill("C3")]
            },
            TaraEvent::OneMoreTurn {
                colour: Colour::Blue
            }
        ]
    );
    assert!(state.kings.red.is_empty() && state.passed.red);
    assert_eq!(
        (state.to_move, state.final_turn),
        (Colour::Blue, Some(Colour::Blue))
    );
    Tara::validate(&state).unwrap();
    let events = play(&mut state, "E6-D4");
    assert!(state.over);
    assert!(matches!(
        events.last(),
        Some(TaraEvent::GameOver {
            winner: Some(Colour::Red),
            ..
        })
    ));
    // Red: one kingdom; Blue: three (the mass, A5–A6, B1): 2 + 2 points.
    assert_eq!(Tara::score(&state).red.points, Some(4));
    assert_eq!(Tara::turn(&state), Turn::Won(Seat::First));
    Tara::validate(&state).unwrap();
}

#[test]
fn t10_pass_refused_while_a_king_can_move() {
    let mut state = full_board();
    // D4 vacant: only Blue's kings (F3, E6) can reach it; Red's are all immobile.
    state.ringforts.blue.retain(|h| *h != hill("D4"));
    assert!(!legal(&state).contains(&"pass".to_string()));
    assert!(legal(&state).contains(&"A3-B5".to_string()));
    let (rule, reason) = refusal(&state, "pass");
    assert_eq!(rule, "T10");
    assert!(reason.contains("F3-D4"), "{reason}");
}

#[test]
fn t10_a_player_with_no_legal_move_must_pass() {
    let mut state = TaraState::from_diagram([
        "# r r r b b #",
        "r r r r b B R",
        "r r r r b b b",
        "r b b r B b b",
        "b B b r r r r",
        "R b b r r r r",
        "# b b r r r #",
    ]);
    state.battle = PerColour {
        red: true,
        blue: true,
    };
    state.captured.blue = 1;
    Tara::validate(&state).unwrap();
    assert_eq!(legal(&state), ["pass"]);
    let events = play(&mut state, "pass");
    assert!(matches!(&events[0], TaraEvent::Passed { forced: true, .. }));
}

#[test]
fn t10_building_on_the_last_hill_gives_the_opponent_one_more_turn() {
    let mut state = full_board();
    state.ringforts.blue.retain(|h| *h != hill("E4"));
    let events = play(&mut state, "C3-E4");
    assert!(events.contains(&TaraEvent::OneMoreTurn {
        colour: Colour::Blue
    }));
    assert_eq!(state.final_turn, Some(Colour::Blue));
    Tara::validate(&state).unwrap();
    // Blue backtracks next to E4, besieged by Blue, and captures the king that moved there.
    let events = play(&mut state, "E6-D4");
    assert!(events.contains(&TaraEvent::KingsCaptured {
        colour: Colour::Blue,
        by: hill("D4"),
        hills: vec![hill("E4")]
    }));
    assert!(state.over);
    Tara::validate(&state).unwrap();
}

#[test]
fn t7_hill_next_to_a_missing_corner_is_besieged_by_two_ringforts() {
    use crate::tara::board::Board;
    let state = TaraState::from_diagram([
        "# . . . . . #",
        ". . . . . . .",
        ". . . . . . .",
        "r . . . . . .",
        "b r . . . . .",
        "r b . . . . .",
        "# . b . . . #",
    ]);
    let board = Board::of(&state);
    // B1 touches only C1 and B2 (A1 does not exist): both Blue, so vacant B1 is besieged.
    assert!(board.besieged_by(hill("B1"), Colour::Blue));
    // The Red single A2 touches only A3 and B2, both Blue.
    assert!(board.besieged_by(hill("A2"), Colour::Blue));
    // The Blue single A3 on the edge: A2, A4, B3, all Red.
    assert!(board.besieged_by(hill("A3"), Colour::Red));
    // B2 still has vacant neighbours (B1, C2).
    assert!(!board.besieged_by(hill("B2"), Colour::Red));
}

#[test]
fn tara_is_registered_with_its_default_options() {
    let games = crate::all_games();
    let tara = games
        .iter()
        .find(|g| g.id == "tara")
        .expect("tara is listed");
    assert_eq!(tara.name, "The High Kings of Tara");
    assert_eq!(
        tara.default_options,
        serde_json::json!({"first": "red", "level": 1, "match": false})
    );
}

#[test]
fn t2_a_player_with_thirty_ringforts_cannot_build() {
    let mut state = TaraState::from_diagram([
        "# r r r r r #",
        "R r r r r r R",
        "r r r r r r r",
        "r r r R r r r",
        "b . b b r r r",
        "b b b B b r b",
        "# B b b b B #",
    ]);
    state.battle = PerColour {
        red: true,
        blue: true,
    };
    assert_eq!(state.ringforts.red.len(), 30);
    let (rule, reason) = refusal(&state, "D4-B3");
    assert_eq!(rule, "T2");
    assert!(reason.contains("no ringfort left"), "{reason}");
    assert!(legal(&state).iter().all(|m| !m.ends_with("B3")));
    // Blue still has ringforts: its king on D2 may build on B3.
    state.to_move = Colour::Blue;
    assert!(legal(&state).contains(&"D2-B3".to_string()));
}
