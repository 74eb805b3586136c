//! The notation of T13, both ways.

use super::*;

#[test]
fn t13_notation_reads_and_writes_every_kind_of_move() {
    let setup = Tara::new_game(&TaraOptions::default()).unwrap();
    assert_eq!(mv(&setup, "d4"), TaraMove::Place(hill("D4")));
    assert_eq!(
        Tara::format_move(&setup, &TaraMove::Place(hill("D4"))),
        "D4"
    );

    let board = TaraState::from_diagram([
        "# R r b b b #",
        "b r r b B b b",
        "b r r b b b B",
        "r r r b b b b",
        "R r R b b B b",
        "r r r b b b b",
        "# b r b b b #",
    ]);
    let capture = TaraMove::Step {
        from: hill("A3"),
        to: hill("B1"),
    };
    assert_eq!(mv(&board, "A3xB1"), capture);
    assert_eq!(
        mv(&board, "A3-B1"),
        capture,
        "`-` is accepted for a capture"
    );
    assert_eq!(Tara::format_move(&board, &capture), "A3xB1");
    let backtrack = TaraMove::Step {
        from: hill("A3"),
        to: hill("B5"),
    };
    assert_eq!(Tara::format_move(&board, &backtrack), "A3-B5");
    assert!(matches!(
        Tara::parse_move(&board, "A3xB5"),
        Err(MoveError::Illegal { rule: "T13", .. })
    ));
    let sacrifice = TaraMove::Sacrifice {
        from: hill("C5"),
        to: hill("B3"),
    };
    assert_eq!(mv(&board, "C5sB3"), sacrifice);
    assert_eq!(Tara::format_move(&board, &sacrifice), "C5sB3");
    assert_eq!(mv(&board, "PASS"), TaraMove::Pass);
    assert_eq!(Tara::format_move(&board, &TaraMove::Pass), "pass");
    assert_eq!(mv(&board, "next"), TaraMove::Next);
    assert_eq!(Tara::format_move(&board, &TaraMove::Next), "next");
}

#[test]
fn t13_unreadable_moves_say_why() {
    let state = Tara::new_game(&TaraOptions::default()).unwrap();
    for text in ["A1", "G7", "Z9", "D4=E5", "D4-", "", "D4-E5-F6", "hello"] {
        match Tara::parse_move(&state, text) {
            Err(MoveError::Unreadable { reason, .. }) => assert!(!reason.is_empty()),
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let Err(MoveError::Unreadable { reason, .. }) = Tara::parse_move(&state, "A7") else {
        panic!()
    };
    assert!(reason.contains("does not exist"), "{reason}");
}

#[test]
fn t13_record_of_a_setup_reads_back() {
    let record = Tara::read_record(&TaraOptions::default(), "D4 B2, F6 B6\nF2 D7 D4-B5").unwrap();
    assert_eq!(record.moves.len(), 7);
    assert_eq!(
        record.moves[6],
        TaraMove::Step {
            from: hill("D4"),
            to: hill("B5")
        }
    );
}
