//! Tests of the Hirþ page parts, on positions played through the engine and replayed links.

use super::board::{board_spot, board_view, caption, last_traces, mark_hint};
use super::rules::example;
use super::words::{Sides, describe_event, item_words, match_end_words, score_words};
use crate::link::{Link, Query};
use crate::page_game::{PageGame, Playable, PlayerNames};
use crate::replay::{Ply, replay};
use crate::testing::button_values;
use moot_games::fixtures::hirth::fill_reserves;
use moot_games::hirth::{
    Colour, Event, Hirth, HirthOptions, HirthState, Karve, Move, Phase, Space, Unit, Victory,
};
use moot_games::{Game, Seat, Turn};

fn playable(state: &HirthState) -> Vec<Playable<Move>> {
    Hirth::legal_moves(state)
        .into_iter()
        .map(|mv| {
            let notation = Hirth::format_move(state, &mv);
            Playable {
                mv,
                play: notation.clone(),
                notation,
            }
        })
        .collect()
}

/// Two people at one screen, Gull in the first seat: the players are named by colour.
const TWO: Sides = Sides {
    gull: Seat::First,
    players: PlayerNames {
        computer: None,
        you: None,
    },
};

/// Against the computer, which plays the second seat, Silfr in the first game.
const VS_COMPUTER: PlayerNames = PlayerNames {
    computer: Some(Seat::Second),
    you: None,
};

fn in_words(event: &Event) -> String {
    describe_event(event, TWO)
}

fn sp(name: char) -> Space {
    Space::from_name(name).unwrap()
}

fn play(state: &mut HirthState, text: &str) -> Vec<Event> {
    let mv = Hirth::parse_move(state, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    Hirth::apply(state, &mv).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Mid-game, Gull moving with two steps taken: an H from each of 3 and 4 (where another H
/// stands) attacks Silfr's lone L on Miðr (2 against 1); Gull's L and a K with 2 H stand on
/// 1; Silfr holds 9 and 7.
fn battle_position() -> HirthState {
    let mut state = HirthState::new(HirthOptions::default());
    let pos = &mut state.position;
    pos.board = Default::default();
    pos.steps = 2;
    pos.board.group_mut(sp('1'), Colour::Gull).l = true;
    pos.board.group_mut(sp('1'), Colour::Gull).add_karve(Karve {
        crew: 2,
        stopped: false,
    });
    pos.board.group_mut(sp('m'), Colour::Silfr).l = true;
    pos.board.group_mut(sp('9'), Colour::Silfr).h = 1;
    pos.board.group_mut(sp('7'), Colour::Silfr).h = 2;
    pos.board.group_mut(sp('3'), Colour::Gull).h = 1;
    pos.board.group_mut(sp('4'), Colour::Gull).h = 1;
    pos.line_mut(Some(sp('3')), sp('m')).h = 1;
    pos.line_mut(Some(sp('4')), sp('m')).h = 1;
    fill_reserves(&mut state);
    Hirth::validate(&state).expect("a valid position");
    state
}

/// After the battle: Silfr's L, beaten on Miðr, may retreat to 5 or 6.
fn retreat_position() -> HirthState {
    let mut state = battle_position();
    play(&mut state, "end");
    assert_eq!(state.phase, Phase::Retreat { from: sp('m') });
    state
}

fn positions() -> Vec<HirthState> {
    let mut start = Hirth::new_game(&HirthOptions::default()).unwrap();
    let mut positions = vec![start.clone()];
    for step in ["Ke", "He", "H0i", "Ki01"] {
        play(&mut start, step);
        positions.push(start.clone());
    }
    let mut offer = battle_position();
    play(&mut offer, "offer");
    positions.extend([battle_position(), retreat_position(), offer]);
    positions
}

/// The board of a link's moves, as the page draws it (without links).
fn board_of(moves: &str) -> String {
    let query = Query::parse(&format!("moves={moves}"));
    let (position, _) = Link::<Hirth>::read(&query).unwrap();
    let game = replay(&position).unwrap();
    Hirth::board(&game.state, &[], game.last_turn(), None).into_string()
}

/// Each space's long name and what its title says the last turn did there.
fn traces(svg: &str) -> Vec<(&str, &str)> {
    svg.split("<title>")
        .filter_map(|t| t.split("</title>").next())
        .filter_map(|t| t.split_once(" — last turn: "))
        .map(|(space, words)| (space.split(':').next().unwrap_or(space), words))
        .collect()
}

#[test]
fn the_board_marks_the_spaces_the_last_turn_moved_pieces_from_and_to() {
    // Gull enters an H on its home and moves its L from there to 1.
    let svg = board_of("He.L01.end");
    assert_eq!(
        traces(&svg),
        [
            ("Gull's home", "pieces moved from and to here"),
            ("Gull Norðr Delta", "pieces moved here"),
        ]
    );
    assert_eq!(svg.matches(r#"class="last to""#).count(), 2);
    assert!(!svg.contains(r#"class="last from""#));
    // Then Silfr's turn: only its own entry is marked.
    let svg = board_of("He.L01.end.He.L98");
    assert_eq!(
        traces(&svg),
        [
            ("Silfr Suðr Delta", "pieces moved here"),
            ("Silfr's home", "pieces moved from and to here"),
        ]
    );
    let svg = board_of("He.L01.end.L98");
    assert_eq!(
        traces(&svg),
        [
            ("Silfr Suðr Delta", "pieces moved here"),
            ("Silfr's home", "pieces moved from here"),
        ]
    );
    assert_eq!(svg.matches(r#"class="last from""#).count(), 1);
}

#[test]
fn a_turn_that_ends_a_game_marks_only_what_it_did_on_the_next_games_board() {
    let ply = |mv: Move, events: Vec<Event>| Ply::<Hirth> {
        notation: String::new(),
        seat: Seat::First,
        colour: "gull".into(),
        mv,
        events,
    };
    let step = Event::Step {
        seat: Seat::First,
        colour: Colour::Gull,
        notation: "He".into(),
    };
    let next = Event::NextGame {
        game: 2,
        gull: Seat::First,
    };
    let go = Move::Go {
        from: sp('1'),
        unit: Unit::L,
        to: sp('3'),
    };
    let turn = [
        ply(go, vec![]),
        ply(Move::End { stays: vec![] }, vec![next]),
        ply(Move::Enter { karve: false }, vec![step]),
    ];
    assert_eq!(last_traces(&turn), (vec![], vec![sp('0')]));
    assert_eq!(last_traces(&turn[..1]), (vec![sp('1')], vec![sp('3')]));
}

#[test]
fn a_new_game_marks_no_space() {
    let svg = board_of("");
    assert!(traces(&svg).is_empty());
    assert!(!svg.contains(r#"class="last"#));
}

#[test]
fn every_legal_move_has_words_and_a_heading() {
    let mut seen = 0;
    for state in positions() {
        for mv in Hirth::legal_moves(&state) {
            assert!(!Hirth::label(&state, &mv).is_empty(), "{mv:?}");
            assert!(!Hirth::group(&state, &mv).is_empty(), "{mv:?}");
            seen += 1;
        }
    }
    assert!(seen > 40, "{seen} moves");
    let state = battle_position();
    let words = |text: &str| Hirth::label(&state, &Hirth::parse_move(&state, text).unwrap());
    assert_eq!(words("L13"), "Move the L from 1 to 3");
    assert_eq!(
        words("L10"),
        "Move the L from 1 to Gull's home (it stops there)"
    );
    assert_eq!(
        words("Kii10"),
        "Move the K with 2 H aboard from 1 to Gull's home (it stops there)"
    );
    assert_eq!(words("offer"), "Offer the Penningr: double the game to ×2");
    assert_eq!(
        words("end >mH3"),
        "End the movement phase and fight; at Miðr, 1 H stays on 3; the other winning attackers enter"
    );
    assert_eq!(
        Hirth::group(&state, &Hirth::parse_move(&state, "L13").unwrap()),
        "Move from 1"
    );
    let retreat = retreat_position();
    assert_eq!(
        Hirth::label(&retreat, &Move::Retreat(sp('5'))),
        "Retreat the Lofðungr to 5"
    );
    let mut offer = battle_position();
    play(&mut offer, "offer");
    assert_eq!(
        Hirth::label(&offer, &Move::Accept),
        "Accept the doubling (game now worth ×2)"
    );
    assert_eq!(Hirth::group(&offer, &Move::Accept), "Answer the offer");
}

#[test]
fn the_board_has_buttons_for_only_playable_moves_and_every_move_a_click_can_say() {
    for state in positions() {
        let moves = playable(&state);
        let svg = Hirth::board(&state, &moves, &[], None).into_string();
        let mut linked = button_values(&svg);
        linked.sort();
        let mut expected: Vec<String> = moves
            .iter()
            .filter(|p| board_spot(&p.mv).is_some() || matches!(p.mv, Move::Enter { .. }))
            .map(|p| p.play.clone())
            .collect();
        expected.sort();
        assert_eq!(linked, expected, "{}", caption(&state));
    }
}

#[test]
fn the_mid_game_board_shows_the_attack_its_power_and_the_steps_left() {
    let state = battle_position();
    let svg = Hirth::board(&state, &playable(&state), &[], None).into_string();
    assert_eq!(svg.matches(r#"class="attack""#).count(), 2);
    assert!(svg.contains(
        "<title>Gull attacks Miðr from Gull Norðr Archipelago with 1 Hirþ (power 1)</title>"
    ));
    assert!(svg.contains("<title>Gull: the Lofðungr, a Karve with 2 Hirþ aboard</title>"));
    assert!(svg.contains(">Gull to move · 3 of 5 steps left · game worth ×1</text>"));
    assert_eq!(svg.matches(r#"class="battle""#).count(), 1);
    assert!(
        svg.contains(">⚔2:1</text>"),
        "two H attack the lone L on Miðr"
    );
    // Two moves end on 3 (the L and the K from 1): badges naming them.
    assert!(svg.contains(
        r#"<button class="move badge" type="submit" form="play" name="play" value="L13""#
    ));
    assert!(svg.contains(">K2←1</text>"));
    // Entering from the reserve is a click on the reserve's H or K.
    assert!(svg.contains(
        r#"<button class="move" type="submit" form="play" name="play" value="He" title="Enter an H from the reserve">"#
    ));
}

#[test]
fn the_retreat_decision_links_the_spaces_the_lofdungr_may_go_to() {
    let state = retreat_position();
    let moves = playable(&state);
    assert_eq!(moves.len(), 2);
    let svg = Hirth::board(&state, &moves, &[], None).into_string();
    assert_eq!(button_values(&svg), ["retreat 5", "retreat 6"]);
    assert!(svg.contains(r#"title="Retreat the Lofðungr to 5""#));
    assert!(svg.contains("Silfr chooses where the beaten Lofðungr on Miðr retreats"));
    assert!(!svg.contains(r#"class="attack""#), "the battle is over");
    // H7: the beaten Lofðungr is off the board until it retreats, yet drawn where it was
    // beaten, and its retreat choices are the linked spaces.
    assert_eq!(
        svg.matches(r#"class="lofdungr beaten""#).count(),
        1,
        "{svg}"
    );
    assert!(svg.contains(">beaten: retreats</text>"));
    assert!(svg.contains("; Silfr's beaten Lofðungr waits here to retreat</title>"));
}

/// H4: a piece that attacks stands on the line until the battle; the space it left, empty
/// now, is still its owner's.
#[test]
fn h4_pieces_on_an_attack_line_are_drawn_on_it_with_their_count_and_their_space_stays_held() {
    let mut state = battle_position();
    let pos = &mut state.position;
    // Gull's H on 3 joins the attack too: 3 is empty, its two H on the line to Miðr.
    pos.board.group_mut(sp('3'), Colour::Gull).h = 0;
    pos.line_mut(Some(sp('3')), sp('m')).h = 2;
    pos.steps = 3;
    Hirth::validate(&state).expect("a valid position");
    let svg = Hirth::board(&state, &[], &[], None).into_string();
    let line = |from: &str| {
        let start = svg
            .find(&format!("<title>Gull attacks Miðr from {from}"))
            .unwrap_or_else(|| panic!("an attack from {from}: {svg}"));
        &svg[start..start + svg[start..].find("</g></g></g>").expect("the line's end")]
    };
    let from_3 = line("Gull Norðr Archipelago");
    assert!(from_3.contains(r#"<g class="on-line">"#), "{from_3}");
    assert!(from_3.contains("<title>Gull: 2 Hirþ</title>"), "{from_3}");
    assert!(from_3.contains(">×2</text>"), "{from_3}");
    assert!(line("Gull Suðr Archipelago").contains(">×1</text>"));
    // 3 holds nothing but is Gull's: tinted gold and saying why; 4 still holds an H.
    assert!(svg.contains(
        "<title>Gull Norðr Archipelago: empty; still Gull's: its pieces attack from here</title>"
    ));
    assert!(svg.contains(r##"height="128" rx="8" fill="#f6e3a1""##));
    assert_eq!(
        svg.matches(r#"<g class="held""#).count(),
        1,
        "words on 3 only"
    );
}

#[test]
fn every_event_is_described() {
    let (m, s6) = (sp('m'), sp('6'));
    let first = Seat::First;
    let events = [
        Event::Step {
            seat: first,
            colour: Colour::Gull,
            notation: "Kii0>1".into(),
        },
        Event::Offered {
            seat: first,
            factor: 2,
        },
        Event::Accepted {
            seat: Seat::Second,
            factor: 2,
        },
        Event::GaveUp { seat: Seat::Second },
        Event::Battle {
            space: s6,
            attacker: first,
            attack: 3,
            defence: 2,
            winner: first,
            note: ">6SKii^SHxGH6".into(),
            losses: vec!["SKii^".into(), "SHx".into()],
            entries: vec!["GH6".into()],
        },
        Event::Retreat {
            seat: Seat::Second,
            from: s6,
            to: sp('8'),
        },
        Event::Killed {
            seat: Seat::Second,
            space: m,
        },
        Event::ForcedOff {
            seat: Seat::Second,
            from: s6,
        },
        Event::GameEnded {
            winner: Seat::Second,
            winner_colour: Colour::Silfr,
            victory: Victory::Drepid,
            factor: 2,
            points: 10,
        },
        Event::NextGame {
            game: 2,
            gull: Seat::Second,
        },
        Event::MatchEnded {
            winner: Seat::Second,
            points: [0, 10],
        },
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for event in &events {
        // Naming each variant here makes a new one fail to compile until it is described.
        kinds.insert(match event {
            Event::Step { .. } => "step",
            Event::Offered { .. } => "offered",
            Event::Accepted { .. } => "accepted",
            Event::GaveUp { .. } => "gave up",
            Event::Battle { .. } => "battle",
            Event::Retreat { .. } => "retreat",
            Event::Killed { .. } => "killed",
            Event::ForcedOff { .. } => "forced off",
            Event::GameEnded { .. } => "game ended",
            Event::NextGame { .. } => "next game",
            Event::MatchEnded { .. } => "match ended",
        });
        assert!(in_words(event).len() > 10, "{event:?}");
    }
    assert_eq!(kinds.len(), events.len());
    assert_eq!(
        in_words(&events[0]),
        "Gull attacked 1 from Gull's home with the K with 2 H aboard"
    );
    assert_eq!(
        in_words(&events[4]),
        "Battle on 6: attack 3 against defence 2; Gull won it as the attacker. Lost: Silfr's K with 2 H aboard (back to the reserve), Silfr's H (out of the game). Entered 6: Gull's H"
    );
    assert_eq!(
        in_words(&events[8]),
        "Silfr won the game by Drepið, doubled: 10 points"
    );
    assert_eq!(
        in_words(&events[10]),
        "Silfr won the match, 10 to 0",
        "the winner's points first"
    );
    let vs = Sides {
        gull: Seat::First,
        players: VS_COMPUTER,
    };
    assert_eq!(
        describe_event(&events[4], vs),
        "Battle on 6: attack 3 against defence 2; You (Gull) won it as the attacker. Lost: the computer's K with 2 H aboard (back to the reserve), the computer's H (out of the game). Entered 6: your H"
    );
    assert_eq!(
        describe_event(&events[5], vs),
        "Computer (Silfr) retreated the Lofðungr from 6 to 8"
    );
}

#[test]
fn every_step_the_engine_writes_reads_as_words() {
    let mut state = Hirth::new_game(&HirthOptions::default()).unwrap();
    let mut written = Vec::new();
    for text in ["He", "Ke", "H0i", "Hr0", "L01"] {
        for event in play(&mut state, text) {
            written.push(in_words(&event));
        }
    }
    assert_eq!(
        written,
        [
            "Gull entered an H from the reserve",
            "Gull entered an empty K from the reserve",
            "Gull put an H on Gull's home aboard a K",
            "Gull took an H off the K on Gull's home",
            "Gull moved the L from Gull's home to 1",
        ]
    );
}

#[test]
fn odd_step_notations_are_described_without_panicking() {
    let step = |notation: &str| {
        in_words(&Event::Step {
            seat: Seat::Second,
            colour: Colour::Silfr,
            notation: notation.into(),
        })
    };
    assert_eq!(
        step("He>9"),
        "Silfr entered an H from the reserve, attacking its own home"
    );
    assert_eq!(step("Hr3[Kii]"), "Silfr took an H off the K on 3");
    for odd in ["", "Z", "K", "Kiii", "L1>", "L1>z", "H1?", "Hr", "ééé"] {
        assert_eq!(step(odd), format!("Silfr took the step {odd}"));
    }
    assert_eq!(item_words("??", TWO), "??");
}

#[test]
fn the_played_battle_and_retreat_are_described() {
    let mut state = battle_position();
    let words: Vec<String> = play(&mut state, "end").iter().map(in_words).collect();
    assert_eq!(
        words,
        [
            "Battle on Miðr: attack 2 against defence 1; Gull won it as the attacker. Entered Miðr: Gull's H, Gull's H"
        ]
    );
    let words: Vec<String> = play(&mut state, "retreat 6").iter().map(in_words).collect();
    assert_eq!(words, ["Silfr retreated the Lofðungr from Miðr to 6"]);
}

#[test]
fn a_single_game_to_one_point_never_speaks_of_a_match() {
    let mut state = battle_position();
    state.options.target = 1;
    for space in ['5', '6'] {
        state.position.board.group_mut(sp(space), Colour::Gull).h = 1;
    }
    fill_reserves(&mut state);
    play(&mut state, "end");
    assert_eq!(Hirth::turn(&state), Turn::Won(Seat::First));
    let svg = Hirth::board(&state, &[], &[], None).into_string();
    assert!(svg.contains(">The game is over</text>"), "{svg}");
    let panel = Hirth::panel(&state, PlayerNames::default()).into_string();
    assert!(panel.contains(r#"<th scope="row">Points</th>"#), "{panel}");
    assert!(panel.contains("a single game"), "{panel}");
    let end = match_end_words(&state, PlayerNames::default()).expect("the game is over");
    assert_eq!(end, "Gull won the game by Drepið: 5 points");
    let score = score_words(&state, PlayerNames::default());
    for words in [svg, panel, end]
        .into_iter()
        .chain(score.into_iter().flat_map(|(a, b)| [a, b]))
    {
        assert!(!words.to_lowercase().contains("match"), "{words}");
    }
}

#[test]
fn a_lofdungr_with_nowhere_to_go_dies_and_the_finished_match_has_no_links() {
    let mut state = battle_position();
    for space in ['5', '6'] {
        state.position.board.group_mut(sp(space), Colour::Gull).h = 1;
    }
    fill_reserves(&mut state);
    let words: Vec<String> = play(&mut state, "end").iter().map(in_words).collect();
    assert!(
        words.contains(
            &"Silfr lost the Lofðungr: with nowhere to retreat, it was killed on Miðr: Drepið"
                .to_string()
        ),
        "{words:?}"
    );
    assert!(
        words.contains(&"Gull won the game by Drepið: 5 points".to_string()),
        "{words:?}"
    );
    assert!(
        words.contains(&"Gull won the match, 5 to 0".to_string()),
        "{words:?}"
    );
    assert!(playable(&state).is_empty());
    let svg = Hirth::board(&state, &[], &[], None).into_string();
    assert!(svg.contains(">The match is over</text>"));
    assert!(!svg.contains("<a "));
    assert!(
        Hirth::panel(&state, PlayerNames::default())
            .into_string()
            .contains("Last game: won by Gull by Drepið: 5 points.")
    );
}

#[test]
fn the_panel_shows_reserves_steps_doubling_and_score() {
    let mut state = battle_position();
    state.points = [3, 1];
    state.coin.factor = 2;
    state.coin.holder = Some(Colour::Silfr);
    let panel = Hirth::panel(&state, PlayerNames::default()).into_string();
    assert!(
        panel.contains(r#"<th scope="row">Match points</th><td>3</td><td>1</td>"#),
        "{panel}"
    );
    assert!(
        panel.contains(r#"<th scope="row">Reserve</th><td>9 H, 2 K</td><td>12 H, 3 K</td>"#),
        "{panel}"
    );
    assert!(panel.contains("3 of 5 (Gull moving)"));
    assert!(panel.contains("×2; the Penningr is held by Silfr"));
    assert!(
        panel.contains(r#"<th scope="col">Gull</th><th scope="col">Silfr</th>"#),
        "{panel}"
    );
    let panel = Hirth::panel(&state, VS_COMPUTER).into_string();
    assert!(
        panel.contains(r#"<th scope="col">You (Gull)</th><th scope="col">Computer (Silfr)</th>"#),
        "{panel}"
    );
    assert!(panel.contains("3 of 5 (You (Gull) moving)"));
    assert!(panel.contains("×2; the Penningr is held by Computer (Silfr)"));
}

/// H11: the players swap colours from game to game. A move that ends a game and begins the
/// next names the players in the colours of the game each event belongs to, and the panel
/// and the score afterwards in the new game's colours, the last winner with the colour they
/// had.
#[test]
fn h11_events_panel_and_score_name_the_players_in_the_colours_of_their_game() {
    let mut state = battle_position();
    for space in ['5', '6'] {
        state.position.board.group_mut(sp(space), Colour::Gull).h = 1;
    }
    state.options.target = 10;
    fill_reserves(&mut state);
    let mv = Hirth::parse_move(&state, "end").unwrap();
    let notation = Hirth::format_move(&state, &mv);
    let events = Hirth::apply(&mut state, &mv).unwrap();
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::NextGame {
                gull: Seat::Second,
                ..
            }
        )),
        "{events:?}"
    );
    let ply = Ply {
        mv,
        notation,
        seat: Seat::First,
        colour: "gull".into(),
        events,
    };
    let words = Hirth::describe(&ply, &HirthOptions::default(), VS_COMPUTER);
    assert!(
        words.contains(&"You (Gull) won the game by Drepið: 5 points".to_string()),
        "{words:?}"
    );
    assert!(
        words.contains(
            &"Game 2 begins with the colours swapped: Computer (Gull) against You (Silfr); Gull moves first"
                .to_string()
        ),
        "{words:?}"
    );
    let two = Hirth::describe(&ply, &HirthOptions::default(), PlayerNames::default());
    assert!(
        two.contains(
            &"Game 2 begins with the colours swapped: the player who had Silfr plays Gull now and moves first"
                .to_string()
        ),
        "{two:?}"
    );
    let panel = Hirth::panel(&state, VS_COMPUTER).into_string();
    assert!(
        panel.contains(r#"<th scope="col">Computer (Gull)</th><th scope="col">You (Silfr)</th>"#),
        "{panel}"
    );
    assert!(
        panel.contains(r#"<th scope="row">Match points</th><td>0</td><td>5</td>"#),
        "{panel}"
    );
    assert!(
        panel.contains("Last game: won by You (Silfr), playing Gull then, by Drepið: 5 points."),
        "{panel}"
    );
    let score = score_words(&state, VS_COMPUTER);
    assert_eq!(
        score[0],
        (
            "Computer (Gull)".to_owned(),
            "0 match points, 0 H out of the game".to_owned()
        )
    );
    assert_eq!(score[1].0, "You (Silfr)");
}

#[test]
fn the_rules_show_a_valid_example_board_without_links() {
    let example = example();
    Hirth::validate(&example).expect("the example is a valid position");
    let rules = Hirth::rules().into_string();
    assert!(rules.contains(r#"<svg class="board hirth""#));
    assert_eq!(rules.matches(r#"class="attack""#).count(), 2);
    assert!(rules.contains(">⚔3:2</text>"));
    assert!(!rules.contains("<a "));
}

#[test]
fn the_hint_marks_the_space_a_step_goes_to_or_the_reserve_half_it_enters_from() {
    let state = battle_position();
    let mut view = board_view(&state, &playable(&state), &[]);
    mark_hint(
        &mut view,
        &state,
        &Hirth::parse_move(&state, "L13").unwrap(),
    );
    let hinted: Vec<&str> = view
        .spaces
        .iter()
        .filter(|s| s.hinted)
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(hinted, ["3"]);
    assert_eq!(view.reserves.each_ref().map(|r| r.hinted), [None, None]);
    mark_hint(&mut view, &state, &Hirth::parse_move(&state, "Ke").unwrap());
    assert!(view.spaces.iter().all(|s| !s.hinted));
    assert_eq!(
        view.reserves.each_ref().map(|r| r.hinted),
        [Some(true), None],
        "Gull's Karve"
    );
    mark_hint(&mut view, &state, &Move::End { stays: Vec::new() });
    assert!(
        view.spaces.iter().all(|s| !s.hinted) && view.reserves.iter().all(|r| r.hinted.is_none())
    );
}

/// The Penningr offer doubles the stakes beside the turn: the page lists it after the turn's
/// own controls (the end of the turn first), as the one secondary group.
#[test]
fn the_penningr_offer_comes_last_among_the_turns_controls_as_a_secondary_one() {
    let query = Query::parse("moves=He");
    let (position, _) = Link::<Hirth>::read(&query).unwrap();
    let game = replay(&position).unwrap();
    let view = crate::view::play_view(&position, &game, crate::view::Extras::default());
    let groups: Vec<(&str, bool)> = view
        .controls
        .iter()
        .map(|g| (g.heading.as_str(), g.secondary))
        .collect();
    assert_eq!(
        groups.first(),
        Some(&("End the movement phase", false)),
        "{groups:?}"
    );
    assert_eq!(groups.last(), Some(&("The Penningr", true)), "{groups:?}");
    assert_eq!(groups.iter().filter(|(_, s)| *s).count(), 1, "{groups:?}");
}

/// What a tap on `space` says, and the rule's anchor.
fn refusal_on(state: &HirthState, space: char) -> Option<(String, String)> {
    super::board::space_refusal(state, &playable(state), sp(space)).map(|r| (r.why, r.rule_href))
}

#[test]
fn a_space_that_takes_no_step_says_why_naming_its_rule() {
    let mut state = Hirth::new_game(&HirthOptions { target: 1 }).unwrap();
    // Gull's Lofðungr on its home: the spaces it steps to play; its own space says where.
    assert_eq!(
        refusal_on(&state, '0'),
        Some((
            "Gull's pieces on Gull's home step to a space next to it (1, 2): tap the space one goes to."
                .into(),
            "/rules/hirth#H3".into()
        ))
    );
    assert_eq!(refusal_on(&state, '1'), None, "the L steps to 1");
    assert_eq!(
        refusal_on(&state, '5'),
        Some((
            "Gull has no piece on 5 or next to it: a piece steps only to a neighbouring space."
                .into(),
            "/rules/hirth#H3".into()
        ))
    );
    // The L steps onto the empty 1 and stops there (H4): it takes no further step.
    play(&mut state, "L01");
    let stopped = Some((
        "The Lofðungr on 1 has stopped this turn: it takes no further step.".into(),
        "/rules/hirth#H4".into(),
    ));
    assert_eq!(refusal_on(&state, '1'), stopped);
    assert_eq!(
        refusal_on(&state, '3'),
        stopped,
        "3 is next to the stopped L"
    );
    // Its home is empty now: a piece enters it from the reserve.
    assert_eq!(
        refusal_on(&state, '0'),
        Some((
            "A piece enters Gull's home from Gull's reserve: tap the reserve.".into(),
            "/rules/hirth#H3".into()
        ))
    );
    let r = super::board::space_refusal(&state, &playable(&state), sp('3')).unwrap();
    assert_eq!(r.rule_words, "Rule H4: Control and stopping");
    // On the page every space without a step says why; a picture's spaces say nothing.
    let view = board_view(&state, &playable(&state), &[]);
    for space in &view.spaces {
        assert_eq!(
            space.refusal.is_some(),
            space.links.is_empty(),
            "{}",
            space.name
        );
    }
    assert!(
        board_view(&state, &[], &[])
            .spaces
            .iter()
            .all(|s| s.refusal.is_none())
    );
}
