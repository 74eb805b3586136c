//! Rule tests on hand-built positions, named after the rule they pin.

use super::*;
use crate::games::{Game, MoveError, Seat, Status, Turn};

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
