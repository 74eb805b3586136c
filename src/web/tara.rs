//! The Tara parts of the play pages: the board picture with its links, words for moves and
//! events, the side panel and the rules for players.

use maud::{Markup, html};
use moot_templates::parts::{BoardLink, Fact, facts_table};
use moot_templates::tara::{self as view, Bridge, HillView, LastMark, Side, TaraBoardView};

use super::page_game::{PageGame, Playable};
use super::replay::Ply;
use crate::games::tara::board::Board;
use crate::games::tara::geometry::{HILLS, Hill, hills_of};
use crate::games::tara::moves::{StepKind, forced_king, step_kind};
use crate::games::tara::state::{KINGS_PER_COLOUR, RINGFORTS_PER_COLOUR};
use crate::games::tara::{Colour, Tara, TaraEvent, TaraMove, TaraState};
use crate::games::{Game, Status};

fn side(colour: Colour) -> Side {
    match colour {
        Colour::Red => Side::Red,
        Colour::Blue => Side::Blue,
    }
}

fn colour_at(sets: [u64; 2], hill: Hill) -> Option<Colour> {
    Colour::BOTH
        .into_iter()
        .find(|c| sets[c.index()] & hill.bit() != 0)
}

/// The hill a click plays this move on; `pass` and `next` have none.
fn target(mv: &TaraMove) -> Option<Hill> {
    match *mv {
        TaraMove::Place(hill) => Some(hill),
        TaraMove::Step { to, .. } | TaraMove::Sacrifice { to, .. } => Some(to),
        TaraMove::Pass | TaraMove::Next => None,
    }
}

/// Which king moves to a hill (`s`: it sacrifices there); placements need no tag.
fn tag(mv: &TaraMove) -> String {
    match *mv {
        TaraMove::Step { from, .. } => from.to_string(),
        TaraMove::Sacrifice { from, .. } => format!("{from}s"),
        TaraMove::Place(_) | TaraMove::Pass | TaraMove::Next => String::new(),
    }
}

/// `Red to move: move a king`, or how the game ended.
fn headline(state: &TaraState) -> String {
    match Tara::status(state) {
        Status::Ongoing {
            to_act, decision, ..
        } => format!(
            "{} to move: {decision}",
            state.options.colour_of(to_act).title()
        ),
        Status::Finished { reason, .. } => format!("Game over: {reason}"),
    }
}

/// The hills the last move used: where it placed a king, or the king's move from → to. A pass
/// and the start of a match's next game use none.
fn last_marks(last: &[Ply<Tara>]) -> Vec<(Hill, LastMark)> {
    match last.last().map(|ply| ply.mv) {
        Some(TaraMove::Place(hill)) => vec![(hill, LastMark::Placed)],
        Some(TaraMove::Step { from, to } | TaraMove::Sacrifice { from, to }) => {
            vec![(from, LastMark::From), (to, LastMark::To)]
        }
        Some(TaraMove::Pass | TaraMove::Next) | None => Vec::new(),
    }
}

fn board_view(
    state: &TaraState,
    playable: &[Playable<TaraMove>],
    last: &[Ply<Tara>],
) -> TaraBoardView {
    let board = Board::of(state);
    let marks = last_marks(last);
    let immune: Vec<Hill> = Colour::BOTH
        .into_iter()
        .filter_map(|c| state.sacrificed_by(c))
        .collect();
    let hills = hills_of(HILLS)
        .map(|hill| HillView {
            name: hill.to_string(),
            col: hill.col(),
            row: hill.row(),
            ringfort: colour_at(board.ringforts, hill).map(side),
            king: colour_at(board.kings, hill).map(side),
            note: immune
                .contains(&hill)
                .then(|| "this king sacrificed its ringfort: immune for a turn".to_string()),
            links: playable
                .iter()
                .filter(|p| target(&p.mv) == Some(hill))
                .map(|p| BoardLink {
                    href: p.href.clone(),
                    title: Tara::label(state, &p.mv),
                    tag: tag(&p.mv),
                })
                .collect(),
            last: marks.iter().find(|(h, _)| *h == hill).map(|(_, m)| *m),
        })
        .collect();
    let mut bridges = Vec::new();
    for colour in Colour::BOTH {
        let forts = board.ringforts(colour);
        for hill in hills_of(forts) {
            // Each pair once: from the lower hill to its higher neighbours.
            for next in hills_of(hill.neighbours() & forts).filter(|n| n.0 > hill.0) {
                bridges.push(Bridge {
                    side: side(colour),
                    a: (hill.col(), hill.row()),
                    b: (next.col(), next.row()),
                });
            }
        }
    }
    TaraBoardView {
        title: headline(state),
        hills,
        bridges,
    }
}

fn list(hills: &[Hill]) -> String {
    hills
        .iter()
        .map(Hill::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl PageGame for Tara {
    fn board(state: &TaraState, playable: &[Playable<TaraMove>], last: &[Ply<Tara>]) -> Markup {
        view::board(&board_view(state, playable, last))
    }

    fn label(state: &TaraState, mv: &TaraMove) -> String {
        let enemy = state.to_move.other().title();
        match *mv {
            TaraMove::Place(hill) => format!("Build a ringfort on {hill} and put a king on it"),
            TaraMove::Step { from, to } => match step_kind(&Board::of(state), state.to_move, to) {
                StepKind::Build => {
                    format!("Move the king on {from} to {to} and build a ringfort there")
                }
                StepKind::Backtrack => {
                    format!("Move the king on {from} back to its ringfort on {to}")
                }
                StepKind::Capture => {
                    format!("Capture the {enemy} ringfort on {to} with the king on {from}")
                }
            },
            TaraMove::Sacrifice { from, to } => format!(
                "Move the king on {from} back to {to} and sacrifice that ringfort to {enemy}"
            ),
            TaraMove::Pass if Tara::legal_moves(state) == [TaraMove::Pass] => {
                "Pass: no king can move (your kings leave the board)".to_string()
            }
            TaraMove::Pass => "Pass (your kings leave the board)".to_string(),
            TaraMove::Next => "Start game 2 of the match".to_string(),
        }
    }

    fn group(_state: &TaraState, mv: &TaraMove) -> String {
        match *mv {
            TaraMove::Place(_) => "Build a ringfort and place a king".to_string(),
            TaraMove::Step { from, .. } | TaraMove::Sacrifice { from, .. } => {
                format!("The king on {from}")
            }
            TaraMove::Pass => "Pass".to_string(),
            TaraMove::Next => "The match".to_string(),
        }
    }

    fn describe(event: &TaraEvent) -> String {
        match event {
            TaraEvent::Placed { colour, hill } => {
                format!(
                    "{} built a ringfort on {hill} and put a king on it",
                    colour.title()
                )
            }
            TaraEvent::Built { colour, from, to } => format!(
                "{}'s king moved from {from} to {to} and built a ringfort",
                colour.title()
            ),
            TaraEvent::Backtracked { colour, from, to } => format!(
                "{}'s king moved from {from} back to its ringfort on {to}",
                colour.title()
            ),
            TaraEvent::RingfortCaptured { colour, from, to } => format!(
                "{}'s king moved from {from} to {to} and captured {}'s ringfort there",
                colour.title(),
                colour.other().title()
            ),
            TaraEvent::Sacrificed { colour, to, .. } => format!(
                "{}'s king sacrificed its ringfort on {to}: the ringfort is {}'s now, and the king is immune for a turn but must move next",
                colour.title(),
                colour.other().title()
            ),
            TaraEvent::KingsCaptured { colour, by, hills } => {
                let whose = colour.other().title();
                let what = if hills.len() == 1 {
                    format!("the {whose} king on {}", list(hills))
                } else {
                    format!("the {whose} kings on {}", list(hills))
                };
                format!("{}'s king on {by} captured {what}", colour.title())
            }
            TaraEvent::BattleStarted { colour } => format!(
                "{} entered Battle: new ringforts may link to friendly ones, and kings that cannot move may backtrack or capture",
                colour.title()
            ),
            TaraEvent::Passed {
                colour,
                forced,
                kings_removed,
            } => {
                let why = if *forced { " (no king could move)" } else { "" };
                let kings = if kings_removed.is_empty() {
                    String::new()
                } else {
                    format!(": its kings left {}", list(kings_removed))
                };
                format!("{} passed{why}{kings}", colour.title())
            }
            TaraEvent::OneMoreTurn { colour } => {
                format!("{} has one more turn, then the game ends", colour.title())
            }
            TaraEvent::KingTrapped { colour, hill } => format!(
                "{}'s king on {hill} could not leave the ringfort it sacrificed and is captured",
                colour.title()
            ),
            TaraEvent::GameOver {
                winner,
                points,
                reason,
            } => {
                let result = match winner {
                    Some(c) => format!("{} wins", c.title()),
                    None => "a draw".to_string(),
                };
                format!(
                    "Game over, {result}: {reason}. Points: Red {}, Blue {}",
                    points.red, points.blue
                )
            }
            TaraEvent::GameStarted { game, first } => {
                format!("Game {game} of the match begins: {} starts", first.title())
            }
        }
    }

    fn panel(state: &TaraState) -> Markup {
        let score = Tara::score(state);
        let both = |f: &dyn Fn(Colour) -> String| Colour::BOTH.map(f);
        let players = both(&|c| {
            let seat = if state.options.seat_of(c) == crate::games::Seat::First {
                "Player 1"
            } else {
                "Player 2"
            };
            format!("{} ({seat})", c.title())
        });
        let side_of = |c: Colour| match c {
            Colour::Red => &score.red,
            Colour::Blue => &score.blue,
        };
        let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
        let mut facts = Vec::new();
        if Colour::BOTH
            .into_iter()
            .any(|c| state.kings_placed(c) < KINGS_PER_COLOUR)
        {
            facts.push(Fact::new(
                "Kings still to place",
                both(&|c| {
                    KINGS_PER_COLOUR
                        .saturating_sub(state.kings_placed(c))
                        .to_string()
                }),
            ));
        }
        facts.push(Fact::new(
            "Kings on the board",
            both(&|c| side_of(c).kings_on_board.to_string()),
        ));
        facts.push(Fact::new(
            "Enemy kings captured",
            both(&|c| side_of(c).captured_kings.to_string()),
        ));
        facts.push(Fact::new(
            "Kingdoms (fewer wins)",
            both(&|c| side_of(c).kingdoms.to_string()),
        ));
        facts.push(Fact::new(
            "Territory (ringforts)",
            both(&|c| format!("{} of {RINGFORTS_PER_COLOUR}", side_of(c).territory)),
        ));
        facts.push(Fact::new("In Battle", both(&|c| yes(*state.battle.get(c)))));
        if state.passed.red || state.passed.blue {
            facts.push(Fact::new("Passed", both(&|c| yes(*state.passed.get(c)))));
        }
        if let Some(points) = state.game1_points {
            facts.push(Fact::new(
                "Points in game 1",
                both(&|c| points.get(c).to_string()),
            ));
        }
        if state.over {
            facts.push(Fact::new(
                "Points",
                both(&|c| side_of(c).points.unwrap_or(0).to_string()),
            ));
        }
        // Who is to move is the page's status line; the notes say what else is going on.
        let mut notes = Vec::new();
        if state.options.is_match {
            notes.push(format!("Game {} of a two-game match.", state.game));
        }
        if state.options.level == 2 {
            notes.push("Level 2: sacrifices are allowed (T11).".to_string());
        }
        if let Some(colour) = state.final_turn.filter(|_| !state.over) {
            notes.push(format!(
                "{} has one more turn, then the game ends.",
                colour.title()
            ));
        }
        if let Some(king) = forced_king(state) {
            notes.push(format!(
                "The king on {king} sacrificed last turn: it must move now."
            ));
        }
        facts_table(&players, &facts, &notes)
    }

    fn rules() -> Markup {
        let picture = view::board(&board_view(&rules_example(), &[], &[]));
        html! {
            p { "Two players, Red and Blue, each with three kings and thirty ringforts, build kingdoms on 45 hills. The player with fewer, larger kingdoms wins." }
            figure.board {
                (picture)
                figcaption { "Ringforts are rings in their owner's colour; a bar between two is a bridge: neighbouring ringforts of one colour are linked into one kingdom. Crowns are kings." }
            }
            h2 { "Setup" }
            p { "Players take turns building a ringfort on any vacant hill and putting a king on it, until all six kings stand. Your own ringforts may not touch during setup." }
            h2 { "Moving" }
            p { "A turn moves one king a knight's move (two hills one way, one the other). Your own kings may never stand next to each other." }
            ul {
                li { strong { "Manoeuvres: " } "the king lands on a vacant hill and builds a ringfort there, which may not touch another of your ringforts. Kings that cannot move are skipped." }
                li { strong { "Battle: " } "once none of your kings can move, you are in Battle (the other player follows on its next turn). New ringforts may now touch and link yours. If none of your kings can reach a vacant hill, one may backtrack onto your own empty ringfort, or capture an enemy ringfort that stands alone and is surrounded by yours." }
            }
            h2 { "Capturing kings" }
            p { "A single ringfort is " em { "besieged" } " when every neighbouring hill is an enemy ringfort (the board's edge counts as closed). If the king you moved stands next to an enemy king on a besieged single ringfort, that king is captured. Capture two kings and you win at once." }
            h2 { "The end" }
            p { "When every king is stuck you may pass: your kings leave the board and the other player has one more turn. The game also ends one turn after the last hill is built on." }
            p { "Without a double capture, the player with fewer kingdoms wins 2 points plus the difference; with equal kingdoms, more territory wins the same way; each captured king adds a point. A double capture scores a point per captured king." }
            p { "Level 2 (an option) adds sacrifices: a player who has lost a king may, when stuck, backtrack onto its own besieged single ringfort and give it to the enemy; that king is immune for a turn and must then escape." }
        }
    }
}

/// The rules page's picture: mid-game, both players in Battle, so Red's ringforts link.
fn rules_example() -> TaraState {
    let mut example = TaraState::from_diagram([
        "# . . . . . #",
        ". b b . . R .",
        ". B . . r r .",
        ". . . r . . .",
        ". r R . b B .",
        ". R . . b . .",
        "# . . B . . #",
    ]);
    example.battle.red = true;
    example.battle.blue = true;
    example
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tara::{PerColour, TaraOptions};
    // The engine's own test positions: a Level 2 sacrifice, a capture in Battle, manoeuvres.
    use crate::games::tara::tests::level2::sacrifice_position;
    use crate::games::tara::tests::{hill, rules::full_board, rules::manoeuvres};
    use crate::web::position::{Position, Query};
    use crate::web::replay::replay;

    /// Every legal move as the page would offer it, with a plain href.
    fn playable(state: &TaraState) -> Vec<Playable<TaraMove>> {
        Tara::legal_moves(state)
            .into_iter()
            .map(|mv| {
                let notation = Tara::format_move(state, &mv);
                let href = format!("/play/tara/{notation}");
                Playable { mv, notation, href }
            })
            .collect()
    }

    fn hrefs(svg: &str) -> Vec<&str> {
        svg.split(r#"href=""#)
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect()
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
        let (position, _) = Position::<Tara>::read(&query).unwrap();
        let game = replay(&position).unwrap();
        Tara::board(&game.state, &[], game.last_turn()).into_string()
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

    #[test]
    fn the_board_links_exactly_the_moves_that_end_on_a_hill() {
        for state in positions() {
            let moves = playable(&state);
            let svg = Tara::board(&state, &moves, &[]).into_string();
            let linked = hrefs(&svg);
            let on_hills: Vec<&str> = moves
                .iter()
                .filter(|p| target(&p.mv).is_some())
                .map(|p| p.href.as_str())
                .collect();
            let mut sorted = linked.clone();
            sorted.sort();
            let mut expected = on_hills.clone();
            expected.sort();
            assert_eq!(sorted, expected, "{}", headline(&state));
        }
    }

    #[test]
    fn setup_offers_every_vacant_hill_as_a_titled_link() {
        let state = Tara::new_game(&TaraOptions::default()).unwrap();
        let svg = Tara::board(&state, &playable(&state), &[]).into_string();
        assert_eq!(hrefs(&svg).len(), 45);
        assert!(!svg.contains(r#"class="tag""#), "placements need no tag");
        assert!(svg.contains(
            r#"<a class="move" href="/play/tara/D4"><title>Build a ringfort on D4 and put a king on it</title>"#
        ));
        assert!(
            svg.contains("<title>Red to move: build a ringfort and place a king on it</title>")
        );
    }

    #[test]
    fn two_moves_onto_one_hill_become_badges_naming_the_king() {
        let state = sacrifice_position();
        let svg = Tara::board(&state, &playable(&state), &[]).into_string();
        assert!(svg.contains(r#"<a class="move badge" href="/play/tara/C5-B3">"#));
        assert!(svg.contains(r#"<a class="move badge" href="/play/tara/C5sB3">"#));
        assert!(svg.contains(">C5s</text>"));
        // E7's backtracks each end on their own hill: whole-hill links, tagged with the king.
        assert!(svg.contains(r#"<a class="move" href="/play/tara/E7-F5">"#));
        assert!(svg.contains(">E7</text></a>"));
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
        let svg = Tara::board(&state, &[], &[]).into_string();
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
        let svg = Tara::board(&state, &playable(&state), &[]).into_string();
        assert!(svg.contains(
            "<title>B3: Red king on a Blue ringfort (this king sacrificed its ringfort: immune for a turn)</title>"
        ));
        let panel = Tara::panel(&state).into_string();
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
            assert!(Tara::describe(event).len() > 10, "{event:?}");
        }
        assert_eq!(kinds.len(), events.len());
        assert_eq!(
            Tara::describe(&events[5]),
            "Red's king on E5 captured the Blue kings on D4, E4"
        );
        assert_eq!(
            Tara::describe(&events[10]),
            "Game over, Red wins: Red has fewer kingdoms (6 to 7). Points: Red 4, Blue 1"
        );
    }

    #[test]
    fn events_of_played_moves_are_described() {
        let mut state = full_board();
        let capture = Tara::parse_move(&state, "C3xB1").unwrap();
        let events = Tara::apply(&mut state, &capture).unwrap();
        let words: Vec<String> = events.iter().map(Tara::describe).collect();
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
        let panel = Tara::panel(&state).into_string();
        assert!(
            panel.contains("<th scope=\"row\">Kings still to place</th><td>2</td><td>3</td>"),
            "{panel}"
        );
        assert!(panel.contains("Red (Player 1)"));
        assert!(panel.contains("Game 1 of a two-game match."));
        assert!(
            !Tara::panel(&full_board())
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
}
