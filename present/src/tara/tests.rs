//! Tests of the Tara page parts, on the engine's test positions and replayed links.

use super::board::{board_view, headline, mark_hint, target};
use super::rules::rules_example;
use moot_games::Game;
// The engine's own test positions: a Level 2 sacrifice, a capture in Battle, manoeuvres.
use crate::link::{Link, Query};
use crate::page_game::{PageGame, Playable, PlayerNames};
use crate::replay::replay;
use crate::testing::button_values;
use moot_games::fixtures::tara::{full_board, manoeuvres, sacrifice_position};
use moot_games::tara::{
    Colour, Hill, PerColour, Tara, TaraEvent, TaraMove, TaraOptions, TaraState,
};

fn hill(name: &str) -> Hill {
    Hill::parse(name).expect("a hill of the board")
}

/// Every legal move as the page offers it.
fn playable(state: &TaraState) -> Vec<Playable<TaraMove>> {
    crate::view::playable::<Tara>(state)
}

fn positions() -> Vec<TaraState> {
    let mut setup = Tara::new_game(&TaraOptions::default()).unwrap();
    let mut positions = vec![setup.clone()];
    for name in ["D4", "D5", "B2"] {
        Tara::apply(&mut setup, &TaraMove::Place(hill(name))).unwrap();
        positions.push(setup.clone());
    }
    let mut between = full_board();
    between.options.is_match = true;
    between.over = true;
    positions.extend([manoeuvres(), full_board(), sacrifice_position(), between]);
    for state in &positions {
        Tara::validate(state).unwrap_or_else(|e| panic!("{e}: {state:?}"));
    }
    positions
}

/// The first legal move each time from the start, `count` of them, in notation.
fn first_moves(count: usize) -> Vec<String> {
    let mut state = Tara::new_game(&TaraOptions::default()).unwrap();
    (0..count)
        .map(|_| {
            let mv = Tara::legal_moves(&state)[0];
            let notation = Tara::format_move(&state, &mv);
            Tara::apply(&mut state, &mv).unwrap();
            notation
        })
        .collect()
}

/// The board of a link's position, as the page draws it (without links).
fn board_of(moves: &[String]) -> String {
    let query = Query::parse(&format!("moves={}", moves.join(".")));
    let (position, _) = Link::<Tara>::read(&query).unwrap();
    let game = replay(&position).unwrap();
    Tara::board(&game.state, &[], game.last_turn(), None).into_string()
}

/// The names of the hills whose title ends with `words`.
fn hills_titled<'a>(svg: &'a str, words: &str) -> Vec<&'a str> {
    svg.split("<title>")
        .filter_map(|t| t.split("</title>").next())
        .filter(|t| t.ends_with(words))
        .filter_map(|t| t.split(':').next())
        .collect()
}

#[test]
fn the_board_marks_the_last_kings_move_from_and_to_and_nothing_else() {
    // Six placements, then the first king's move.
    let moves = first_moves(7);
    let (from, to) = moves[6].split_once('-').expect("a king's move");
    let svg = board_of(&moves);
    assert_eq!(
        hills_titled(&svg, " — the last move left from here"),
        [from]
    );
    assert_eq!(hills_titled(&svg, " — the last move went here"), [to]);
    assert!(svg.contains(&format!("<title>The last move: {from} to {to}</title>")));
    assert_eq!(
        svg.matches(r#"class="last"#).count(),
        3,
        "two rings and a line"
    );
}

#[test]
fn a_placement_marks_its_hill_and_a_new_game_nothing() {
    let svg = board_of(&first_moves(2));
    let placed = first_moves(2).pop().unwrap();
    assert_eq!(hills_titled(&svg, " — placed last"), [placed.as_str()]);
    assert_eq!(svg.matches(r#"class="last"#).count(), 1);
    let new = board_of(&[]);
    assert!(!new.contains(r#"class="last"#) && !new.contains(" — "));
}

#[test]
fn every_legal_move_has_words_and_a_heading() {
    let mut seen = 0;
    for state in positions() {
        for mv in Tara::legal_moves(&state) {
            let label = Tara::label(&state, &mv);
            assert!(!label.is_empty() && !Tara::group(&state, &mv).is_empty());
            seen += 1;
        }
    }
    assert!(seen > 60, "{seen} moves");
    let state = full_board();
    let capture = Tara::parse_move(&state, "C3xB1").unwrap();
    assert_eq!(
        Tara::label(&state, &capture),
        "Capture the Blue ringfort on B1 with the king on C3"
    );
    assert_eq!(Tara::group(&state, &capture), "The king on C3");
    let sacrifice = Tara::parse_move(&sacrifice_position(), "C5sB3").unwrap();
    assert_eq!(
        Tara::label(&sacrifice_position(), &sacrifice),
        "Move the king on C5 back to B3 and sacrifice that ringfort to Blue"
    );
}

/// T7: a capture's button says the ringfort it turns to the mover's colour (and a sacrifice's
/// the one it gives away), for the script to draw at once; a plain step says nothing more.
#[test]
fn t7_a_board_button_names_the_ringfort_its_move_turns_and_the_kings_it_takes() {
    let state = full_board();
    let capture = Tara::parse_move(&state, "C3xB1").unwrap();
    let mut after = state.clone();
    let events = Tara::apply(&mut after, &capture).unwrap();
    let kings: Vec<String> = events
        .iter()
        .flat_map(|e| match e {
            TaraEvent::KingsCaptured { hills, .. } => hills.iter().map(Hill::to_string).collect(),
            TaraEvent::KingTrapped { hill, .. } => vec![hill.to_string()],
            _ => Vec::new(),
        })
        .collect();
    let view = board_view(&state, &playable(&state), &[]);
    let link = |state_view: &moot_templates::tara::TaraBoardView, play: &str| {
        state_view
            .hills
            .iter()
            .flat_map(|h| h.links.iter())
            .find(|l| l.play == play)
            .cloned()
            .unwrap_or_else(|| panic!("{play} is on the board"))
    };
    let captured = link(&view, "C3xB1");
    assert_eq!(captured.turns, ["B1"]);
    assert_eq!(captured.removes, kings);
    let sacrifice = sacrifice_position();
    let view = board_view(&sacrifice, &playable(&sacrifice), &[]);
    assert_eq!(link(&view, "C5sB3").turns, ["B3"]);
    // The backtrack to B3 takes the king on B2, as the engine plays it.
    let backtrack = link(&view, "C5-B3");
    assert!(backtrack.turns.is_empty(), "{backtrack:?}");
    assert_eq!(backtrack.removes, ["B2"]);
    let state = manoeuvres();
    let view = board_view(&state, &playable(&state), &[]);
    assert!(
        view.hills
            .iter()
            .flat_map(|h| h.links.iter())
            .any(|l| l.play.contains('-') && l.turns.is_empty() && l.removes.is_empty()),
        "a plain step changes nothing more"
    );
}

/// T6: in Battle a new ringfort links to the friendly ringforts beside it; the button of the
/// king's move names the bridges it makes, for the script to draw at once. In Manoeuvres (T5)
/// no new ringfort may touch a friendly one: no move makes a bridge.
#[test]
fn t6_a_board_button_names_the_bridges_its_new_ringfort_makes() {
    let quiet = manoeuvres();
    let view = board_view(&quiet, &playable(&quiet), &[]);
    assert!(
        view.hills
            .iter()
            .flat_map(|h| h.links.iter())
            .all(|l| l.bridges.is_empty() && l.their_bridges.is_empty()),
        "no bridge in Manoeuvres"
    );
    // The same position in Battle: D4-F5 builds on F5, beside Red's ringfort on F4.
    let mut state = manoeuvres();
    state.battle.red = true;
    let view = board_view(&state, &playable(&state), &[]);
    let to_f5 = link(&view, "D4-F5");
    assert_eq!(to_f5.bridges, ["F4-F5"]);
    assert!(to_f5.their_bridges.is_empty());
    let svg = Tara::board(&state, &playable(&state), &[], None).into_string();
    assert!(
        svg.contains(r#"data-from="D4" data-to="F5" data-bridges="F4-F5">"#),
        "{svg}"
    );
}

/// T11: a sacrificed ringfort becomes the enemy's, linked for the enemy: its button names
/// the other side's bridges it makes, one to each neighbour (it was besieged by them).
#[test]
fn t11_a_sacrifice_names_the_bridges_it_gives_the_enemy() {
    let state = sacrifice_position();
    let view = board_view(&state, &playable(&state), &[]);
    let sacrifice = link(&view, "C5sB3");
    assert!(sacrifice.bridges.is_empty(), "{sacrifice:?}");
    let mut given = sacrifice.their_bridges.clone();
    given.sort();
    assert_eq!(given, ["A3-B3", "B2-B3", "B3-B4", "B3-C3"]);
    // The plain backtrack to B3 keeps it Red: no bridge changes.
    let backtrack = link(&view, "C5-B3");
    assert!(backtrack.bridges.is_empty() && backtrack.their_bridges.is_empty());
}

/// The link on the board that sends `play`.
fn link(
    view: &moot_templates::tara::TaraBoardView,
    play: &str,
) -> moot_templates::parts::BoardLink {
    view.hills
        .iter()
        .flat_map(|h| h.links.iter())
        .find(|l| l.play == play)
        .cloned()
        .unwrap_or_else(|| panic!("{play} is on the board"))
}

#[test]
fn the_board_has_buttons_for_exactly_the_moves_that_end_on_a_hill() {
    for state in positions() {
        let moves = playable(&state);
        let svg = Tara::board(&state, &moves, &[], None).into_string();
        let linked = button_values(&svg);
        let on_hills: Vec<String> = moves
            .iter()
            .filter(|p| target(&p.mv).is_some())
            .map(|p| p.play.clone())
            .collect();
        let mut sorted = linked.clone();
        sorted.sort();
        let mut expected = on_hills.clone();
        expected.sort();
        assert_eq!(sorted, expected, "{}", headline(&state));
    }
}

#[test]
fn setup_offers_every_vacant_hill_as_a_titled_button() {
    let state = Tara::new_game(&TaraOptions::default()).unwrap();
    let svg = Tara::board(&state, &playable(&state), &[], None).into_string();
    assert_eq!(button_values(&svg).len(), 45);
    assert!(!svg.contains(r#"class="tag""#), "placements need no tag");
    assert!(svg.contains(
        r#"value="D4" title="Build a ringfort on D4 and put a king on it" data-to="D4">"#
    ));
    assert!(svg.contains("<title>Red to move: build a ringfort and place a king on it</title>"));
}

#[test]
fn two_moves_onto_one_hill_become_a_choice_naming_the_king() {
    let state = sacrifice_position();
    let svg = Tara::board(&state, &playable(&state), &[], None).into_string();
    // B3 is one link, to the choice of its two moves (buttons a finger can take).
    assert!(svg.contains(
        r##"<a class="move chooser" href="#choose-B3"><title>2 moves to B3: choose one</title>"##
    ));
    assert!(svg.contains(">C5 C5s</text></a>"));
    assert!(svg.contains(
        r#"<button class="move badge" type="submit" form="play" name="play" value="C5-B3""#
    ));
    assert!(svg.contains(
        r#"<button class="move badge" type="submit" form="play" name="play" value="C5sB3""#
    ));
    // E7's backtracks each end on their own hill: whole-hill buttons, tagged with the king,
    // naming the hills the king leaves and reaches (the script draws the move ahead there).
    assert!(
        svg.contains(r#"<button class="move" type="submit" form="play" name="play" value="E7-F5""#)
    );
    assert!(svg.contains(r#"data-from="E7" data-to="F5">"#));
    assert!(svg.contains(">E7</text></g>"));
}

#[test]
fn the_board_draws_bridges_between_linked_ringforts_only() {
    let state = TaraState::from_diagram([
        "# . . . . . #",
        ". . . . . . .",
        ". . . . . . .",
        ". . . R r . .",
        ". . . r . b .",
        ". . . . . B .",
        "# . . . . . #",
    ]);
    let svg = Tara::board(&state, &[], &[], None).into_string();
    // D4–E4, D4–D3 (Red), F3–F2 (Blue); D3 and E4 touch only diagonally.
    assert_eq!(svg.matches("<title>Red bridge</title>").count(), 2);
    assert_eq!(svg.matches("<title>Blue bridge</title>").count(), 1);
    assert!(svg.contains("<title>D4: Red king on a Red ringfort</title>"));
}

#[test]
fn a_sacrificed_ringfort_shows_the_king_on_the_enemy_ring_and_its_immunity() {
    let mut state = sacrifice_position();
    let sacrifice = Tara::parse_move(&state, "C5sB3").unwrap();
    Tara::apply(&mut state, &sacrifice).unwrap();
    let svg = Tara::board(&state, &playable(&state), &[], None).into_string();
    assert!(svg.contains(
        "<title>B3: Red king on a Blue ringfort (this king sacrificed its ringfort: immune for a turn)</title>"
    ));
    let panel = Tara::panel(&state, PlayerNames::default()).into_string();
    assert!(
        panel.contains("<th scope=\"row\">Enemy kings captured</th><td>1</td><td>1</td>"),
        "{panel}"
    );
}

#[test]
fn every_event_is_described() {
    let (d4, e5) = (hill("D4"), hill("E5"));
    let red = Colour::Red;
    let events = [
        TaraEvent::Placed {
            colour: red,
            hill: d4,
        },
        TaraEvent::Built {
            colour: red,
            from: d4,
            to: e5,
        },
        TaraEvent::Backtracked {
            colour: red,
            from: d4,
            to: e5,
        },
        TaraEvent::RingfortCaptured {
            colour: red,
            from: d4,
            to: e5,
        },
        TaraEvent::Sacrificed {
            colour: red,
            from: d4,
            to: e5,
        },
        TaraEvent::KingsCaptured {
            colour: red,
            by: e5,
            hills: vec![d4, hill("E4")],
        },
        TaraEvent::BattleStarted { colour: red },
        TaraEvent::Passed {
            colour: red,
            forced: true,
            kings_removed: vec![d4],
        },
        TaraEvent::OneMoreTurn {
            colour: Colour::Blue,
        },
        TaraEvent::KingTrapped {
            colour: red,
            hill: e5,
        },
        TaraEvent::GameOver {
            winner: Some(red),
            points: PerColour { red: 4, blue: 1 },
            reason: "Red has fewer kingdoms (6 to 7)".into(),
        },
        TaraEvent::GameStarted {
            game: 2,
            first: Colour::Blue,
        },
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for event in &events {
        // Naming each variant here makes a new one fail to compile until it is described.
        kinds.insert(match event {
            TaraEvent::Placed { .. } => "placed",
            TaraEvent::Built { .. } => "built",
            TaraEvent::Backtracked { .. } => "backtracked",
            TaraEvent::RingfortCaptured { .. } => "ringfort captured",
            TaraEvent::Sacrificed { .. } => "sacrificed",
            TaraEvent::KingsCaptured { .. } => "kings captured",
            TaraEvent::BattleStarted { .. } => "battle",
            TaraEvent::Passed { .. } => "passed",
            TaraEvent::OneMoreTurn { .. } => "one more turn",
            TaraEvent::KingTrapped { .. } => "trapped",
            TaraEvent::GameOver { .. } => "over",
            TaraEvent::GameStarted { .. } => "started",
        });
        assert!(super::words::describe(event).len() > 10, "{event:?}");
    }
    assert_eq!(kinds.len(), events.len());
    assert_eq!(
        super::words::describe(&events[5]),
        "Red's king on E5 captured the Blue kings on D4, E4"
    );
    assert_eq!(
        super::words::describe(&events[10]),
        "Game over, Red wins: Red has fewer kingdoms (6 to 7). Points: Red 4, Blue 1"
    );
}

#[test]
fn events_of_played_moves_are_described() {
    let mut state = full_board();
    let capture = Tara::parse_move(&state, "C3xB1").unwrap();
    let events = Tara::apply(&mut state, &capture).unwrap();
    let words: Vec<String> = events.iter().map(super::words::describe).collect();
    assert!(
        words.contains(
            &"Red's king moved from C3 to B1 and captured Blue's ringfort there".to_string()
        ),
        "{words:?}"
    );
}

#[test]
fn the_panel_counts_kings_to_place_in_setup_and_the_match() {
    let mut state = Tara::new_game(&TaraOptions {
        is_match: true,
        ..TaraOptions::default()
    })
    .unwrap();
    Tara::apply(&mut state, &TaraMove::Place(hill("D4"))).unwrap();
    let panel = Tara::panel(&state, PlayerNames::default()).into_string();
    assert!(
        panel.contains("<th scope=\"row\">Kings still to place</th><td>2</td><td>3</td>"),
        "{panel}"
    );
    assert!(
        panel.contains(r#"<th scope="col">Red</th><th scope="col">Blue</th>"#),
        "the players by colour alone, as the page names them: {panel}"
    );
    assert!(!panel.contains("Player 1"));
    assert!(panel.contains("Game 1 of a two-game match."));
    assert!(
        !Tara::panel(&full_board(), PlayerNames::default())
            .into_string()
            .contains("Kings still to place")
    );
}

#[test]
fn the_rules_show_a_valid_example_board_without_links() {
    Tara::validate(&rules_example()).expect("the example is a valid position");
    let rules = Tara::rules().into_string();
    assert!(rules.contains("<svg class=\"board tara\""));
    assert!(!rules.contains("<a "));
    assert!(rules.contains("<h2>Capturing kings</h2>"));
}

#[test]
fn the_hint_marks_the_hill_its_move_ends_on_and_a_pass_marks_none() {
    let state = Tara::new_game(&TaraOptions::default()).unwrap();
    let mut view = board_view(&state, &playable(&state), &[]);
    let place = Tara::parse_move(&state, "d4").unwrap();
    mark_hint(&mut view, &place);
    let hinted: Vec<&str> = view
        .hills
        .iter()
        .filter(|h| h.hinted)
        .map(|h| h.name.as_str())
        .collect();
    assert_eq!(hinted, ["D4"]);
    mark_hint(&mut view, &TaraMove::Pass);
    assert!(view.hills.iter().all(|h| !h.hinted));
}

/// The refusal a tap on `name` says, with its rule's anchor.
fn said(state: &TaraState, name: &str) -> (String, String) {
    let r = super::board::hill_refusal(state, &playable(state), hill(name))
        .unwrap_or_else(|| panic!("{name} has a refusal"));
    (r.why, r.rule_href)
}

#[test]
fn a_hill_in_setup_says_why_no_king_goes_there_by_rule_t3() {
    let mut state = Tara::new_game(&TaraOptions::default()).unwrap();
    for name in ["D4", "B2"] {
        Tara::apply(&mut state, &TaraMove::Place(hill(name))).unwrap();
    }
    // Red places again: D4 is taken; D5 would touch Red's own ringfort on D4.
    assert_eq!(
        said(&state, "D4"),
        (
            "D4 already holds a ringfort.".into(),
            "/rules/tara#T3".into()
        )
    );
    assert_eq!(
        said(&state, "D5"),
        (
            "D5 is next to a Red ringfort: own ringforts never touch in setup.".into(),
            "/rules/tara#T3".into()
        )
    );
    let r = super::board::hill_refusal(&state, &playable(&state), hill("D5")).unwrap();
    assert_eq!(r.rule_words, "Rule T3: Setup");
}

#[test]
fn a_hill_no_king_may_reach_says_which_rule_forbids_it() {
    // Red kings on D4, B6 and F2, a Red ringfort on F4; Blue kings on D7, F6 and B2.
    let state = manoeuvres();
    // Next to Red's ringfort on F4, a knight's move from D4: Manoeuvres forbid it (T5).
    assert_eq!(
        said(&state, "F5"),
        (
            "F5 is next to a Red ringfort, which Manoeuvres forbid.".into(),
            "/rules/tara#T5".into()
        )
    );
    // A knight's move from B6, next to the Red king on D4 (T4).
    assert_eq!(
        said(&state, "D5"),
        (
            "D5 is next to another Red king.".into(),
            "/rules/tara#T4".into()
        )
    );
    // A knight's move from B6, where a Blue king stands (T4).
    assert_eq!(
        said(&state, "D7"),
        (
            "A king already stands on D7.".into(),
            "/rules/tara#T4".into()
        )
    );
    // No Red king is a knight's move away (T4).
    assert_eq!(
        said(&state, "G6"),
        (
            "No Red king is a knight's move (two hills one way, one the other) from G6.".into(),
            "/rules/tara#T4".into()
        )
    );
    // A king that can move is picked by a tap, and a hill a move ends on plays it: no refusal.
    let moves = playable(&state);
    assert_eq!(super::board::hill_refusal(&state, &moves, hill("D4")), None);
    let view = board_view(&state, &moves, &[]);
    for h in &view.hills {
        if !h.links.is_empty() || h.name == "D4" {
            assert_eq!(h.refusal, None, "{}", h.name);
        }
    }
    assert!(view.hills.iter().any(|h| h.refusal.is_some()));
    assert!(
        board_view(&state, &[], &[])
            .hills
            .iter()
            .all(|h| h.refusal.is_none())
    );
}
