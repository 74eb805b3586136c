//! Rule tests on hand-built positions, each named after the rule it pins, and the random-games
//! property test against a slow reference (`tests/reference.rs`).
//!
//! Size-5 lines used below: the row `e1…e9`; the column line `a5 b5 c5 d5 e5 f4 g3 h2 i1`; the
//! diagonal `a1 b2 c3 d4 e5 f5 g5 h5 i5`.

mod crafted_states;
mod random_games;
mod reference;

use super::geometry::{POINTS, Point, board_mask, parse_point, point_name, points};
use super::*;
use crate::{Game, MoveError, Seat, Status, Turn};

fn opts(size: u8, simple: bool) -> HerforOptions {
    HerforOptions {
        size,
        pie: true,
        simple,
    }
}

fn pt(size: u8, name: &str) -> Point {
    parse_point(size, name).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// A position with these stones and `to_move` to play, with counters that pass `validate`:
/// one move per stone, plus a pass long ago (which gave out the button) when the colour to move
/// needs it.
fn position(
    options: HerforOptions,
    black: &[&str],
    white: &[&str],
    to_move: Colour,
) -> HerforState {
    let mut s = Herfor::new_game(&options).unwrap();
    for (colour, names) in [(Colour::Black, black), (Colour::White, white)] {
        for name in names {
            s.put_stone(colour, pt(options.size, name));
        }
    }
    let stones = (black.len() + white.len()) as u32;
    s.moves_played = stones;
    s.to_move = to_move;
    if stones.is_multiple_of(2) != (to_move == Colour::Black) {
        s.moves_played += 1;
        s.button = Some(Colour::White);
    }
    s
}

fn names(size: u8, bits: u128) -> Vec<String> {
    let mut v: Vec<String> = points(bits).filter_map(|p| point_name(size, p)).collect();
    v.sort();
    v
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays `name` for the side to move and returns the names flipped (from the event).
fn play(state: &mut HerforState, name: &str) -> Vec<String> {
    let mv = Herfor::parse_move(state, name).unwrap();
    let events = Herfor::apply(state, &mv).unwrap_or_else(|e| panic!("{name}: {e}"));
    match &events[0] {
        HerforEvent::Placed { flipped, .. } => {
            let mut f = flipped.clone();
            f.sort();
            f
        }
        other => panic!("unexpected event {other:?}"),
    }
}

fn illegal_rule(result: Result<Vec<HerforEvent>, MoveError>) -> (&'static str, String) {
    match result {
        Err(MoveError::Illegal { rule, reason }) => (rule, reason),
        other => panic!("expected an illegal move, got {other:?}"),
    }
}

// ---------- F1: board and names ----------

#[test]
fn f1_boards_have_3n_n_minus_1_plus_1_points() {
    for n in 3..=7u8 {
        let count = board_mask(n).count_ones();
        assert_eq!(count, 3 * u32::from(n) * (u32::from(n) - 1) + 1, "size {n}");
    }
    assert_eq!(board_mask(7).count_ones() as usize, POINTS);
    assert_eq!(board_mask(8), 0);
}

#[test]
fn f1_names_rows_from_the_bottom_numbered_from_the_left() {
    let row = |size: u8, letter: char| -> Vec<String> {
        let mut v: Vec<(u8, String)> = points(board_mask(size))
            .filter_map(|p| point_name(size, p).map(|n| (p.0, n)))
            .filter(|(_, n)| n.starts_with(letter))
            .collect();
        v.sort();
        v.into_iter().map(|(_, n)| n).collect()
    };
    assert_eq!(row(5, 'a'), ["a1", "a2", "a3", "a4", "a5"]);
    assert_eq!(
        row(5, 'e'),
        ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"]
    );
    assert_eq!(row(5, 'i'), ["i1", "i2", "i3", "i4", "i5"]);
    assert_eq!(row(7, 'g').len(), 13);
    assert_eq!(row(7, 'm').len(), 7);
    assert_eq!(row(3, 'c').len(), 5);
    assert!(row(3, 'f').is_empty());
}

#[test]
fn f1_every_name_reads_back_to_its_point_on_every_size() {
    for size in 3..=7u8 {
        for p in points(board_mask(size)) {
            let name = point_name(size, p).unwrap();
            assert_eq!(parse_point(size, &name), Ok(p), "{name} on size {size}");
            assert_eq!(parse_point(size, &name.to_uppercase()), Ok(p));
        }
    }
}

#[test]
fn f1_neighbours_follow_the_three_lines() {
    // e5, the centre of size 5, touches e4 e6 (row), d5 f4 (column line), d4 f5 (diagonal).
    let s = 5;
    let centre = pt(s, "e5");
    let expected = ["e4", "e6", "d5", "f4", "d4", "f5"];
    assert_eq!(
        names(s, geometry::GEOMETRY.neighbours[centre.index()]),
        sorted(&expected)
    );
    // a1, a corner, has three neighbours on the board.
    let corner = pt(s, "a1");
    let on_board = geometry::GEOMETRY.neighbours[corner.index()] & board_mask(s);
    assert_eq!(names(s, on_board), sorted(&["a2", "b1", "b2"]));
}

#[test]
fn f1_drawing_coordinates_put_neighbours_at_unit_distance() {
    let size = 5;
    let xy = |name: &str| {
        let (k, c) = geometry::point_coords(size, pt(size, name)).unwrap();
        (
            f64::from(c) - f64::from(k) / 2.0,
            f64::from(k) * 3f64.sqrt() / 2.0,
        )
    };
    assert_eq!(geometry::point_coords(size, pt(size, "a1")), Some((0, 0)));
    assert_eq!(geometry::point_coords(size, pt(size, "i5")), Some((8, 8)));
    for (a, b) in [
        ("e5", "e6"),
        ("e5", "f4"),
        ("e5", "f5"),
        ("e5", "d4"),
        ("a1", "b1"),
    ] {
        let ((x1, y1), (x2, y2)) = (xy(a), xy(b));
        assert!(((x1 - x2).hypot(y1 - y2) - 1.0).abs() < 1e-9, "{a} {b}");
    }
    assert_eq!(geometry::point_coords(3, pt(7, "a1")), None);
}

#[test]
fn f1_well_formed_name_off_the_board_is_illegal_citing_f1() {
    let state = Herfor::new_game(&opts(5, false)).unwrap();
    for text in ["k9", "a6", "e10", "j1", "z3", "a999999"] {
        match Herfor::parse_move(&state, text) {
            Err(MoveError::Illegal { rule: "F1", reason }) => {
                assert!(reason.contains("size-5"), "{reason}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn f1_move_text_is_read_case_insensitively_and_written_back() {
    let state = Herfor::new_game(&opts(5, false)).unwrap();
    let e5 = Herfor::parse_move(&state, "E5").unwrap();
    assert_eq!(e5, HerforMove::Place(pt(5, "e5")));
    assert_eq!(Herfor::format_move(&state, &e5), "e5");
    assert_eq!(Herfor::parse_move(&state, " PASS "), Ok(HerforMove::Pass));
    assert_eq!(Herfor::parse_move(&state, "Swap"), Ok(HerforMove::Swap));
    assert_eq!(Herfor::format_move(&state, &HerforMove::Pass), "pass");
    assert_eq!(Herfor::format_move(&state, &HerforMove::Swap), "swap");
    for text in ["", "e", "5e", "e0", "e5x", "ee5", "pas"] {
        assert!(
            matches!(
                Herfor::parse_move(&state, text),
                Err(MoveError::Unreadable { .. })
            ),
            "{text:?}"
        );
    }
}

#[test]
fn f1_new_game_refuses_a_bad_size() {
    for size in [0, 2, 8, 255] {
        let err = Herfor::new_game(&HerforOptions {
            size,
            ..HerforOptions::default()
        })
        .unwrap_err();
        assert_eq!(err.field, "size");
    }
}

// ---------- F2/F3: invasions and flips ----------

#[test]
fn f3_invasion_along_the_row_flips_both_invaded_phalanxes() {
    let mut s = position(
        opts(5, false),
        &["e5"],
        &["e2", "e3", "e6", "e7", "e8"],
        Colour::Black,
    );
    assert_eq!(play(&mut s, "e4"), sorted(&["e2", "e3", "e6", "e7", "e8"]));
    assert_eq!(s.stones(Colour::White), 0);
}

#[test]
fn f3_invasion_along_the_column_line() {
    // b5 c5 | d5 | e5 f4, on the line a5 b5 c5 d5 e5 f4 g3 h2 i1.
    let mut s = position(
        opts(5, false),
        &["a5"],
        &["b5", "c5", "e5", "f4"],
        Colour::Black,
    );
    assert_eq!(play(&mut s, "d5"), sorted(&["b5", "c5", "e5", "f4"]));
}

#[test]
fn f3_invasion_along_the_diagonal() {
    // c3 | d4 e5 | f5 g5 on a1 b2 c3 d4 e5 f5 g5 h5 i5: the placed d4 extends e5.
    let mut s = position(opts(5, false), &["e5"], &["c3", "f5", "g5"], Colour::Black);
    assert_eq!(play(&mut s, "d4"), sorted(&["c3", "f5", "g5"]));
}

#[test]
fn f3_invaded_phalanx_running_to_the_board_edge_flips_whole() {
    let mut s = position(opts(5, false), &["a3"], &["a1", "a2", "a5"], Colour::Black);
    assert_eq!(play(&mut s, "a4"), sorted(&["a1", "a2", "a5"]));
}

#[test]
fn f3_friendly_run_reaching_the_edge_invades_nothing() {
    // a2 would extend a1 to the edge: no enemy beyond that end, and a2 touches a1.
    let mut s = position(opts(5, false), &["a1"], &["a3", "e5"], Colour::Black);
    let (rule, reason) = illegal_rule(Herfor::apply(&mut s, &HerforMove::Place(pt(5, "a2"))));
    assert_eq!(rule, "F3");
    assert!(reason.contains("a2"), "{reason}");
}

#[test]
fn f3_invasions_in_all_three_lines_at_once_flip_together() {
    let white = ["e4", "e3", "e6", "d5", "f4", "d4", "f5", "g5"];
    let mut s = position(opts(5, false), &["a1", "i5"], &white, Colour::Black);
    assert_eq!(play(&mut s, "e5"), sorted(&white));
}

#[test]
fn f3_placement_joining_separate_friendly_phalanxes_invades() {
    // e2 e3 and e5 are separate black phalanxes; e4 joins them between e1 and e6.
    let mut s = position(
        opts(5, false),
        &["e2", "e3", "e5"],
        &["e1", "e6", "a1"],
        Colour::Black,
    );
    assert_eq!(play(&mut s, "e4"), sorted(&["e1", "e6"]));
    assert_eq!(s.stone_at(pt(5, "a1")), Some(Colour::White));
}

#[test]
fn f3_adjacent_placement_without_invasion_is_refused() {
    let mut s = position(opts(5, false), &["e4"], &["e7"], Colour::Black);
    let before = s.clone();
    let (rule, reason) = illegal_rule(Herfor::apply(&mut s, &HerforMove::Place(pt(5, "e5"))));
    assert_eq!(rule, "F3");
    assert!(
        reason.contains("e5") && reason.contains("invading"),
        "{reason}"
    );
    assert_eq!(s, before, "a refused move leaves the state unchanged");
    assert!(!Herfor::legal_moves(&s).contains(&HerforMove::Place(pt(5, "e5"))));
}

#[test]
fn f3_placement_away_from_friends_is_legal_without_invasion() {
    let mut s = position(opts(5, false), &["a1"], &["e4"], Colour::Black);
    assert_eq!(play(&mut s, "e5"), Vec::<String>::new());
}

#[test]
fn f3_lone_stone_between_enemies_flips_even_when_not_touching_friends() {
    let mut s = position(opts(5, false), &["a1"], &["e4", "e6"], Colour::Black);
    assert_eq!(play(&mut s, "e5"), sorted(&["e4", "e6"]));
}

#[test]
fn f3_occupied_point_is_refused() {
    let mut s = position(opts(5, false), &["a1"], &["e4"], Colour::Black);
    let (rule, reason) = illegal_rule(Herfor::apply(&mut s, &HerforMove::Place(pt(5, "e4"))));
    assert_eq!(rule, "F3");
    assert!(
        reason.contains("e4") && reason.contains("white"),
        "{reason}"
    );
}

#[test]
fn f2_an_empty_gap_is_no_invasion() {
    // e3 . e5 e6: the white beyond e5's run is e6 only on one side; e4 is empty.
    let mut s = position(opts(5, false), &["a1"], &["e3", "e6"], Colour::Black);
    assert_eq!(play(&mut s, "e5"), Vec::<String>::new());
}

#[test]
fn f3_flips_trigger_nothing_further() {
    // e5 flips e4 and e6; e4, now black, lies between white d4 and f3 on its column line
    // (a4 b4 c4 d4 e4 f3 g2 h1) but nothing more flips.
    let mut s = position(
        opts(5, false),
        &["a1"],
        &["e4", "e6", "d4", "f3"],
        Colour::Black,
    );
    assert_eq!(play(&mut s, "e5"), sorted(&["e4", "e6"]));
    assert_eq!(s.stone_at(pt(5, "d4")), Some(Colour::White));
    assert_eq!(s.stone_at(pt(5, "f3")), Some(Colour::White));
}

// ---------- F6: the simple variant ----------

#[test]
fn f6_simple_variant_flips_the_shorter_length_from_each_closest_first() {
    let white = ["e1", "e2", "e3", "e6", "e7"];
    let mut full = position(opts(5, false), &["e5"], &white, Colour::Black);
    assert_eq!(play(&mut full, "e4").len(), 5);
    let mut simple = position(opts(5, true), &["e5"], &white, Colour::Black);
    assert_eq!(play(&mut simple, "e4"), sorted(&["e2", "e3", "e6", "e7"]));
    assert_eq!(simple.stone_at(pt(5, "e1")), Some(Colour::White));
}

#[test]
fn f6_simple_variant_at_the_edge() {
    let mut s = position(opts(5, true), &["a3"], &["a1", "a2", "a5"], Colour::Black);
    assert_eq!(play(&mut s, "a4"), sorted(&["a2", "a5"]));
}

// ---------- F4: passing, the button, the end, the score ----------

/// Size 3, full but for c3, 9 stones each, Black to move: c3 lies between a black run to one
/// edge and a white run to the other on all three lines, and touches both colours, so neither
/// may place there.
fn blocked_both() -> HerforState {
    let black = ["c1", "c2", "a3", "b3", "a1", "b2", "a2", "b1", "d1"];
    let white = ["c4", "c5", "d2", "e1", "d3", "e3", "b4", "d4", "e2"];
    let s = position(
        HerforOptions {
            size: 3,
            pie: true,
            simple: false,
        },
        &black,
        &white,
        Colour::Black,
    );
    Herfor::validate(&s).unwrap();
    s
}

/// The same without the white e3, White to move: e3 touches only white stones along runs that
/// reach the edge, and c3 no longer lies between two blacks on the diagonal, so White must pass
/// while Black could still place on e3.
fn blocked_white() -> HerforState {
    let black = ["c1", "c2", "a3", "b3", "a1", "b2", "a2", "b1", "d1"];
    let white = ["c4", "c5", "d2", "e1", "d3", "b4", "d4", "e2"];
    let s = position(
        HerforOptions {
            size: 3,
            pie: true,
            simple: false,
        },
        &black,
        &white,
        Colour::White,
    );
    Herfor::validate(&s).unwrap();
    assert!(s.button().is_none());
    s
}

#[test]
fn f4_pass_is_forced_and_the_only_move_without_a_placement() {
    let mut s = blocked_both();
    assert_eq!(Herfor::legal_moves(&s), vec![HerforMove::Pass]);
    let (rule, _) = illegal_rule(Herfor::apply(&mut s, &HerforMove::Place(pt(3, "c3"))));
    assert_eq!(rule, "F3");
    match Herfor::status(&s) {
        Status::Ongoing {
            colour, decision, ..
        } => {
            assert_eq!(colour, "black");
            assert!(decision.contains("pass"), "{decision}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn f4_pass_is_refused_with_a_legal_placement() {
    let mut s = position(opts(5, false), &["a1"], &["e4"], Colour::Black);
    let (rule, reason) = illegal_rule(Herfor::apply(&mut s, &HerforMove::Pass));
    assert_eq!(rule, "F4");
    assert!(reason.contains("black"), "{reason}");
    assert!(!Herfor::legal_moves(&s).contains(&HerforMove::Pass));
}

#[test]
fn f4_button_goes_to_the_opponent_of_the_first_passer() {
    for (mut s, first) in [
        (blocked_both(), Colour::Black),
        (blocked_white(), Colour::White),
    ] {
        assert_eq!(Herfor::legal_moves(&s), vec![HerforMove::Pass]);
        let events = Herfor::apply(&mut s, &HerforMove::Pass).unwrap();
        assert_eq!(
            events,
            vec![HerforEvent::Passed {
                colour: first,
                button_to: Some(first.other())
            }]
        );
        assert_eq!(s.button(), Some(first.other()));
        Herfor::validate(&s).unwrap();
    }
}

#[test]
fn f4_two_passes_in_a_row_end_the_game_and_the_button_decides() {
    let mut s = blocked_both();
    Herfor::apply(&mut s, &HerforMove::Pass).unwrap();
    assert!(!s.is_over());
    assert_eq!(Herfor::turn(&s), Turn::ToAct(Seat::Second));
    let events = Herfor::apply(&mut s, &HerforMove::Pass).unwrap();
    assert!(s.is_over());
    assert_eq!(
        events,
        vec![
            HerforEvent::Passed {
                colour: Colour::White,
                button_to: None
            },
            HerforEvent::GameOver {
                winner: Colour::White,
                black_total: 9.0,
                white_total: 9.5
            },
        ]
    );
    assert_eq!(
        s.button(),
        Some(Colour::White),
        "the second pass leaves the button where it is"
    );
    assert_eq!(Herfor::turn(&s), Turn::Won(Seat::Second));
    assert!(Herfor::legal_moves(&s).is_empty());
    assert_eq!(
        Herfor::apply(&mut s, &HerforMove::Pass),
        Err(MoveError::GameOver)
    );
    Herfor::validate(&s).unwrap();
    match Herfor::status(&s) {
        Status::Finished {
            winner,
            winner_colour,
            ..
        } => {
            assert_eq!(winner, Some(Seat::Second));
            assert_eq!(winner_colour.as_deref(), Some("white"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn f4_a_placement_after_a_pass_resets_the_count() {
    let mut s = blocked_white();
    Herfor::apply(&mut s, &HerforMove::Pass).unwrap();
    assert_eq!(s.passes_in_a_row(), 1);
    assert_eq!(play(&mut s, "e3"), Vec::<String>::new());
    assert_eq!(s.passes_in_a_row(), 0);
    assert!(!s.is_over());
    assert_eq!(s.button(), Some(Colour::Black));
    Herfor::validate(&s).unwrap();
}

#[test]
fn f4_score_counts_stones_and_half_a_point_for_the_button() {
    let mut s = position(
        opts(5, false),
        &["a1", "a2", "e5"],
        &["i1", "i2"],
        Colour::White,
    );
    s.button = Some(Colour::White);
    let score = Herfor::score(&s);
    assert_eq!((score.black_stones, score.white_stones), (3, 2));
    assert_eq!((score.black_total, score.white_total), (3.0, 2.5));
    assert_eq!(score.leader, Some(Colour::Black));
    assert_eq!(score.winner, None);
    s.button = None;
    s.put_stone(Colour::White, pt(5, "i3"));
    assert_eq!(Herfor::score(&s).leader, None, "level without the button");
}

// ---------- F5: the pie rule ----------

#[test]
fn f5_swap_answers_the_first_placement_and_the_first_player_then_plays_white() {
    let mut s = Herfor::new_game(&HerforOptions::default()).unwrap();
    assert!(!Herfor::legal_moves(&s).contains(&HerforMove::Swap));
    assert_eq!(Herfor::turn(&s), Turn::ToAct(Seat::First));
    play(&mut s, "e5");
    assert!(Herfor::legal_moves(&s).contains(&HerforMove::Swap));
    assert_eq!(Herfor::turn(&s), Turn::ToAct(Seat::Second));
    let events = Herfor::apply(&mut s, &HerforMove::Swap).unwrap();
    assert_eq!(
        events,
        vec![HerforEvent::Swapped {
            black: Seat::Second
        }]
    );
    assert!(s.swapped());
    assert_eq!(s.to_move(), Colour::White);
    assert_eq!(s.stone_at(pt(5, "e5")), Some(Colour::Black));
    assert_eq!(Herfor::turn(&s), Turn::ToAct(Seat::First));
    assert_eq!(s.seat_of(Colour::Black), Seat::Second);
    assert_eq!(s.colour_of(Seat::First), Colour::White);
    Herfor::validate(&s).unwrap();
    assert!(!Herfor::legal_moves(&s).contains(&HerforMove::Swap));
    let (rule, _) = illegal_rule(Herfor::apply(&mut s, &HerforMove::Swap));
    assert_eq!(rule, "F5");
}

#[test]
fn f5_swap_is_refused_after_the_second_move_and_without_the_pie_rule() {
    let mut s = Herfor::new_game(&HerforOptions::default()).unwrap();
    let (rule, _) = illegal_rule(Herfor::apply(&mut s.clone(), &HerforMove::Swap));
    assert_eq!(rule, "F5");
    play(&mut s, "e5");
    play(&mut s, "a1");
    let (rule, reason) = illegal_rule(Herfor::apply(&mut s, &HerforMove::Swap));
    assert_eq!(rule, "F5");
    assert!(reason.contains("first placement"), "{reason}");

    let mut no_pie = Herfor::new_game(&HerforOptions {
        pie: false,
        ..HerforOptions::default()
    })
    .unwrap();
    play(&mut no_pie, "e5");
    assert!(!Herfor::legal_moves(&no_pie).contains(&HerforMove::Swap));
    let (rule, reason) = illegal_rule(Herfor::apply(&mut no_pie, &HerforMove::Swap));
    assert_eq!(rule, "F5");
    assert!(reason.contains("pie"), "{reason}");
}

// ---------- State: JSON form and validate ----------

fn state_json(edit: impl FnOnce(&mut serde_json::Value)) -> HerforState {
    let mut s = Herfor::new_game(&HerforOptions::default()).unwrap();
    for m in ["e5", "a1", "i5"] {
        play(&mut s, m);
    }
    let mut v = serde_json::to_value(&s).unwrap();
    edit(&mut v);
    serde_json::from_value(v).unwrap()
}

fn invalid_path(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    Herfor::validate(&state_json(edit)).unwrap_err().path
}

#[test]
fn state_json_is_readable_and_round_trips() {
    let s = state_json(|_| {});
    let v = serde_json::to_value(&s).unwrap();
    assert_eq!(
        v,
        serde_json::json!({
            "version": 1,
            "options": {"size": 5, "pie": true, "simple": false},
            "black": ["e5", "i5"], "white": ["a1"],
            "to_move": "white", "button": null, "passes_in_a_row": 0,
            "moves_played": 3, "swapped": false, "game_over": false
        })
    );
    Herfor::validate(&s).unwrap();
    let back: HerforState = serde_json::from_value(v).unwrap();
    assert_eq!(back, s);
}

#[test]
fn options_fields_default_one_by_one_and_refuse_unknown_fields() {
    let o: HerforOptions = serde_json::from_str(r#"{"size": 7}"#).unwrap();
    assert_eq!(
        o,
        HerforOptions {
            size: 7,
            pie: true,
            simple: false
        }
    );
    let o: HerforOptions = serde_json::from_str(r#"{"simple": true}"#).unwrap();
    assert_eq!(
        o,
        HerforOptions {
            size: 5,
            pie: true,
            simple: true
        }
    );
    assert!(serde_json::from_str::<HerforOptions>(r#"{"sise": 7}"#).is_err());
}

#[test]
fn validate_names_the_field_at_fault() {
    use serde_json::json;
    type Edit = Box<dyn FnOnce(&mut serde_json::Value)>;
    let cases: Vec<(&str, Edit)> = vec![
        ("version", Box::new(|v| v["version"] = json!(2))),
        (
            "options.size",
            Box::new(|v| v["options"]["size"] = json!(9)),
        ),
        ("black[1]", Box::new(|v| v["black"][1] = json!("zz"))),
        ("black[1]", Box::new(|v| v["black"][1] = json!("k9"))),
        ("black[1]", Box::new(|v| v["black"][1] = json!("e5"))),
        ("white[0]", Box::new(|v| v["white"][0] = json!("i5"))),
        ("to_move", Box::new(|v| v["to_move"] = json!("black"))),
        (
            "swapped",
            Box::new(|v| {
                v["swapped"] = json!(true);
                v["options"]["pie"] = json!(false);
            }),
        ),
        ("moves_played", Box::new(|v| v["moves_played"] = json!(1))),
        (
            "moves_played",
            Box::new(|v| {
                v["moves_played"] = json!(0);
                v["to_move"] = json!("black");
            }),
        ),
        ("game_over", Box::new(|v| v["game_over"] = json!(true))),
        (
            "button",
            Box::new(|v| {
                v["passes_in_a_row"] = json!(1);
                v["moves_played"] = json!(5);
            }),
        ),
        (
            "passes_in_a_row",
            Box::new(|v| {
                v["passes_in_a_row"] = json!(1);
                v["button"] = json!("white");
                v["moves_played"] = json!(5);
            }),
        ),
        (
            "passes_in_a_row",
            Box::new(|v| {
                v["game_over"] = json!(true);
                v["passes_in_a_row"] = json!(3);
                v["button"] = json!("white");
                v["moves_played"] = json!(7);
            }),
        ),
    ];
    for (path, edit) in cases {
        assert_eq!(invalid_path(edit), path);
    }
}

#[test]
fn validate_accepts_passes_that_were_forced() {
    let mut s = blocked_both();
    Herfor::apply(&mut s, &HerforMove::Pass).unwrap();
    let back: HerforState = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
    Herfor::validate(&back).unwrap();
    assert_eq!(back, s);
}

#[test]
fn state_json_shape_errors_are_serde_errors() {
    let mut v = serde_json::to_value(Herfor::new_game(&HerforOptions::default()).unwrap()).unwrap();
    v["colour"] = serde_json::json!("red");
    assert!(serde_json::from_value::<HerforState>(v).is_err());
}

// ---------- More F3/F6 cases ----------

#[test]
fn f3_placement_touching_friends_on_one_line_may_invade_on_another() {
    // e5 touches black e6 on the row (no white beyond it), but invades on the diagonal.
    let mut s = position(opts(5, false), &["e6"], &["d4", "f5"], Colour::Black);
    assert_eq!(play(&mut s, "e5"), sorted(&["d4", "f5"]));
}

#[test]
fn f3_white_invades_just_like_black() {
    let mut s = position(opts(5, false), &["e4", "e6", "a1"], &["i1"], Colour::White);
    assert_eq!(play(&mut s, "e5"), sorted(&["e4", "e6"]));
    assert_eq!(s.stones(Colour::White).count_ones(), 4);
}

#[test]
fn f3_invasions_work_on_the_largest_board_corners() {
    // Size 7: the top row m1…m7; an invasion flips a phalanx reaching the corner m1.
    let mut s = position(
        opts(7, false),
        &["m4", "a1"],
        &["m1", "m2", "m3", "m6"],
        Colour::Black,
    );
    assert_eq!(play(&mut s, "m5"), sorted(&["m1", "m2", "m3", "m6"]));
}

#[test]
fn f6_equal_phalanxes_flip_whole_in_the_simple_variant() {
    let mut s = position(
        opts(5, true),
        &["a1"],
        &["e2", "e3", "e5", "e6"],
        Colour::Black,
    );
    assert_eq!(play(&mut s, "e4"), sorted(&["e2", "e3", "e5", "e6"]));
}

#[test]
fn f6_simple_variant_applies_per_line() {
    // Placing e5, each line has its own N: the row e4 | e6 e7 gives N = 1; the diagonal
    // c3 d4 | f5 gives N = 1; the column line b5 c5 d5 | f4 g3 gives N = 2.
    let white = [
        "e4", "e6", "e7", "c3", "d4", "f5", "b5", "c5", "d5", "f4", "g3",
    ];
    let mut s = position(opts(5, true), &["a1", "i5"], &white, Colour::Black);
    let expected = ["e4", "e6", "d4", "f5", "d5", "c5", "f4", "g3"];
    assert_eq!(play(&mut s, "e5"), sorted(&expected));
}

// ---------- Seats, statuses, the registry, records ----------

#[test]
fn f5_status_names_the_pie_decision_and_the_colours() {
    let mut s = Herfor::new_game(&HerforOptions::default()).unwrap();
    match Herfor::status(&s) {
        Status::Ongoing {
            to_act,
            colour,
            decision,
        } => {
            assert_eq!((to_act, colour.as_str()), (Seat::First, "black"));
            assert!(decision.contains("black"), "{decision}");
        }
        other => panic!("{other:?}"),
    }
    play(&mut s, "e5");
    match Herfor::status(&s) {
        Status::Ongoing {
            to_act,
            colour,
            decision,
        } => {
            assert_eq!((to_act, colour.as_str()), (Seat::Second, "white"));
            assert!(decision.contains("swap"), "{decision}");
        }
        other => panic!("{other:?}"),
    }
    Herfor::apply(&mut s, &HerforMove::Swap).unwrap();
    match Herfor::status(&s) {
        Status::Ongoing { to_act, colour, .. } => {
            assert_eq!((to_act, colour.as_str()), (Seat::First, "white"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn registry_lists_herfor_with_its_default_options() {
    let games = crate::all_games();
    let herfor = games
        .iter()
        .find(|g| g.id == "herfor")
        .expect("herfor is registered");
    assert_eq!(herfor.name, "Herfor");
    assert_eq!(
        herfor.default_options,
        serde_json::json!({"size": 5, "pie": true, "simple": false})
    );
    let count = crate::with_game!("herfor", G => G::legal_moves(&G::new_game(&Default::default()).unwrap()).len(), else 0);
    assert_eq!(count, 61);
}

#[test]
fn read_record_replays_moves_with_the_swap() {
    let record = Herfor::read_record(&HerforOptions::default(), "e5 SWAP a1\nb2, i5").unwrap();
    assert_eq!(record.moves.len(), 5);
    assert_eq!(record.moves[1], HerforMove::Swap);
    let err = Herfor::read_record(&HerforOptions::default(), "e5\nk9").unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.reason.contains("F1"), "{}", err.reason);
}

// ---------- validate on states built in memory ----------

#[test]
fn validate_catches_in_memory_defects() {
    let mut off_board = position(opts(3, false), &["a1"], &["e3"], Colour::Black);
    off_board.put_stone(Colour::Black, pt(7, "a1")); // a corner of size 7 only
    assert_eq!(Herfor::validate(&off_board).unwrap_err().path, "black");

    let mut both = position(opts(5, false), &["a1", "e5"], &["a2", "i5"], Colour::Black);
    both.put_stone(Colour::White, pt(5, "e5"));
    assert_eq!(Herfor::validate(&both).unwrap_err().path, "white[1]");

    let mut early_swap = Herfor::new_game(&HerforOptions::default()).unwrap();
    early_swap.swapped = true;
    assert_eq!(Herfor::validate(&early_swap).unwrap_err().path, "swapped");

    let mut second_stone = position(opts(5, false), &["a1"], &["e5"], Colour::Black);
    second_stone.moves_played = 1;
    assert_eq!(
        Herfor::validate(&second_stone).unwrap_err().path,
        "moves_played"
    );

    // 18 stones: at most 17 more moves than placements with no pass pending (a pass before
    // each placement after the first).
    let mut busy = blocked_both();
    busy.button = Some(Colour::White);
    busy.moves_played = 34;
    Herfor::validate(&busy).unwrap();
    busy.moves_played = 36;
    assert_eq!(Herfor::validate(&busy).unwrap_err().path, "moves_played");

    let mut endless = blocked_white();
    endless.button = Some(Colour::Black);
    endless.moves_played = u32::MAX;
    assert_eq!(Herfor::validate(&endless).unwrap_err().path, "moves_played");
}

#[cfg(feature = "schema")]
#[test]
fn state_schema_describes_the_json_form() {
    use utoipa::PartialSchema;
    let schema = serde_json::to_value(HerforState::schema()).unwrap();
    let properties = &schema["properties"];
    for field in [
        "version",
        "options",
        "black",
        "white",
        "to_move",
        "button",
        "passes_in_a_row",
        "moves_played",
        "swapped",
    ] {
        assert!(
            properties.get(field).is_some(),
            "{field} missing from {schema}"
        );
    }
    let example: HerforState = serde_json::from_value(schema["example"].clone()).unwrap();
    Herfor::validate(&example).unwrap();
}
