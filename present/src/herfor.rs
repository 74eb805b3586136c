//! Herfor on the play pages: the hex board of points with its stones, words for placements,
//! passes and the swap, and the rules for players.

use std::collections::{HashMap, HashSet};

use maud::{Markup, html};
use moot_templates::drawing::{Drawing, Look};
use moot_templates::herfor::{HexBoardView, HexPoint, LastMark, Stone, drawing};
use moot_templates::parts::Refusal;

use super::page_game::{Intro, OptionWords, PageGame, Playable, PlayerNames, events_of};
use super::refusal::{refusal, refused, sentence};
use super::replay::Ply;
use super::rulebook::Rulebook;
use super::words::capitalised;
use moot_games::herfor::geometry::{Point, board_mask, point_coords, point_name, points};
use moot_games::herfor::{Colour, Herfor, HerforEvent, HerforMove, HerforOptions, HerforState};
use moot_games::{Game, Seat};

/// Distance between neighbouring points, and the margin around the board, in SVG units.
const SPACING: f32 = 44.0;
const MARGIN: f32 = 34.0;
/// The height of a row as a share of the spacing: √3/2.
const ROW: f32 = 0.866_025_4;
/// The three line directions as (row, column) steps (the geometry's positive directions).
const LINES: [(u8, u8); 3] = [(0, 1), (1, 0), (1, 1)];

/// Where a point of board coordinates (row, column) is drawn.
fn place(size: u8, (row, column): (u8, u8)) -> (f32, f32) {
    let radius = f32::from(size - 1);
    let x = f32::from(column) - f32::from(row) / 2.0 + radius / 2.0;
    let y = 2.0 * radius - f32::from(row);
    (MARGIN + x * SPACING, MARGIN + y * ROW * SPACING)
}

/// The points the last move marks, by name: the stone it placed and the stones that flipped.
/// A pass or a swap placed nothing, so it marks nothing.
fn last_marks(last: &[Ply<Herfor>]) -> HashMap<String, LastMark> {
    let mut marks = HashMap::new();
    let events = last.last().map_or(&[][..], |ply| &ply.events[..]);
    for event in events {
        if let HerforEvent::Placed { point, flipped, .. } = event {
            marks.insert(point.clone(), LastMark::Placed);
            for name in flipped {
                marks.insert(name.clone(), LastMark::Flipped);
            }
        }
    }
    marks
}

/// The points whose stones a placement on the board flips (F3), by the engine: none on a
/// picture, which has no buttons.
fn flips(state: &HerforState, p: &Playable<HerforMove>) -> Vec<String> {
    if p.play.is_empty() {
        return Vec::new();
    }
    events_of::<Herfor>(state, &p.mv)
        .into_iter()
        .flat_map(|event| match event {
            HerforEvent::Placed { flipped, .. } => flipped,
            _ => Vec::new(),
        })
        .collect()
}

/// The board view: grid, row letters, stones, links on the points where a stone may go, and
/// marks on what the last move did.
pub fn board_view(
    state: &HerforState,
    playable: &[Playable<HerforMove>],
    last: &[Ply<Herfor>],
) -> HexBoardView {
    let size = state.size();
    let marks = last_marks(last);
    let radius = f32::from(size - 1);
    let links: HashMap<_, _> = playable
        .iter()
        .filter_map(|p| match p.mv {
            HerforMove::Place(point) => Some((point, p)),
            _ => None,
        })
        .collect();
    let on_board: Vec<_> = points(board_mask(size))
        .filter_map(|p| Some((p, point_coords(size, p)?, point_name(size, p)?)))
        .collect();
    let at: HashSet<(u8, u8)> = on_board.iter().map(|(_, rc, _)| *rc).collect();
    // A page where the player places a stone says why a point takes none; a picture does not.
    let may_play = playable.iter().any(|p| !p.play.is_empty());
    let mut lines = Vec::new();
    let mut row_labels = Vec::new();
    let mut labelled_rows = HashSet::new();
    let mut view_points = Vec::new();
    for (point, (row, column), name) in &on_board {
        let (x, y) = place(size, (*row, *column));
        for (dr, dc) in LINES {
            let next = (row + dr, column + dc);
            if at.contains(&next) {
                let (x2, y2) = place(size, next);
                lines.push((x, y, x2, y2));
            }
        }
        // Points come row by row from the left: the first of a row gets its letter.
        if labelled_rows.insert(*row) {
            row_labels.push((name[..1].to_owned(), x - 26.0, y + 5.0));
        }
        let stone = state.stone_at(*point);
        let link = links.get(point);
        view_points.push(HexPoint {
            name: name.clone(),
            x,
            y,
            stone: stone.map(self::stone),
            play: link.map(|p| p.play.clone()),
            title: match (stone, link) {
                (Some(colour), _) => format!("{name}: {} stone", colour.name()),
                (None, Some(p)) => Herfor::label(state, &p.mv),
                (None, None) => format!("{name}: empty"),
            },
            last: marks.get(name).copied(),
            hinted: false,
            flips: link.map_or_else(Vec::new, |p| flips(state, p)),
            refusal: (may_play && link.is_none())
                .then(|| point_refusal(state, *point))
                .flatten(),
        });
    }
    HexBoardView {
        caption: format!(
            "Herfor board, {size} points per side: {} black and {} white stones",
            state.stones(Colour::Black).count_ones(),
            state.stones(Colour::White).count_ones()
        ),
        spacing: SPACING,
        width: 2.0 * MARGIN + 2.0 * radius * SPACING,
        height: 2.0 * MARGIN + 2.0 * radius * ROW * SPACING,
        lines,
        row_labels,
        points: view_points,
        placing: (!state.is_over()).then(|| stone(state.to_move())),
    }
}

/// Why no stone may go on `point` now, by the engine: the point holds a stone, or the stone
/// would touch its own colour without invading (F3).
pub fn point_refusal(state: &HerforState, point: Point) -> Option<Refusal> {
    let (rule, reason) = refused::<Herfor>(state, &HerforMove::Place(point))?;
    Some(refusal::<Herfor>(rule, sentence(&reason)))
}

fn stone(colour: Colour) -> Stone {
    match colour {
        Colour::Black => Stone::Black,
        Colour::White => Stone::White,
    }
}

/// Marks on `view` where the computer's hinted move places its stone (a pass or a swap has
/// no point: nothing is marked).
pub fn mark_hint(view: &mut HexBoardView, state: &HerforState, hint: &HerforMove) {
    let hinted = match *hint {
        HerforMove::Place(point) => point_name(state.size(), point),
        _ => None,
    };
    for p in &mut view.points {
        p.hinted = hinted.as_deref() == Some(p.name.as_str());
    }
}

/// A colour's player as the panel names them: `You (Black)` against the computer; between
/// two people the colour and the seat, which the swap (F5) changes: `Black (second player)`.
fn player_words(state: &HerforState, colour: Colour, players: PlayerNames) -> String {
    let seat = state.seat_of(colour);
    match (players.personal(), seat) {
        (true, _) => players.name(seat, colour.name()),
        (false, Seat::First) => format!("{} (first player)", capitalised(colour.name())),
        (false, Seat::Second) => format!("{} (second player)", capitalised(colour.name())),
    }
}

/// What one event of a move by `seat`, who played `colour`, did in words; passes, the swap
/// and the end name the players as `players` does.
fn describe_event(event: &HerforEvent, seat: Seat, colour: Colour, players: PlayerNames) -> String {
    // The seats keep their colours through the move, except across the swap, which names
    // its seats itself.
    let name = |c: Colour| {
        let seat = if c == colour { seat } else { seat.other() };
        players.name(seat, c.name())
    };
    match event {
        HerforEvent::Placed {
            colour,
            point,
            flipped,
        } if flipped.is_empty() => format!("A {} stone on {point}", colour.name()),
        HerforEvent::Placed {
            colour,
            point,
            flipped,
        } => format!(
            "A {} stone on {point} flipped {} to {}",
            colour.name(),
            flipped.join(", "),
            colour.name()
        ),
        HerforEvent::Passed {
            colour,
            button_to: Some(to),
        } => format!(
            "{} passed; the button (½ point) goes to {}",
            name(*colour),
            name(*to)
        ),
        HerforEvent::Passed { colour, .. } => format!("{} passed", name(*colour)),
        HerforEvent::Swapped { black } if players.personal() => format!(
            "{} swapped and took Black: {} moves next",
            players.name(*black, "black"),
            players.name(black.other(), "white")
        ),
        HerforEvent::Swapped { .. } => {
            "The second player swapped and now plays Black; White moves next".into()
        }
        HerforEvent::GameOver {
            winner,
            black_total,
            white_total,
        } => format!(
            "Both passed: black {black_total} – white {white_total}; {} wins",
            name(*winner)
        ),
    }
}

impl PageGame for Herfor {
    const RULEBOOK: Rulebook = Rulebook {
        rules: include_str!("../../rules/herfor.md"),
        notation: include_str!("../../rules/herfor-notation.md"),
    };
    const INTRO: Intro = Intro {
        what: "Stones on a hexagon of triangles: close a line between two enemy runs and both \
               turn to your colour. The larger colour wins.",
        length: "Up to 61 stones on the short board, 127 on the long one",
        players: "Two players, Black and White",
    };

    fn option_words(name: &str) -> Option<OptionWords> {
        Some(match name {
            "size" => OptionWords {
                label: "Board size",
                help: "Points on each side of the hexagon: 5 for a short game, 7 for a long \
                       one, 3 to learn.",
            },
            "pie" => OptionWords {
                label: "Swap after the first stone",
                help: "After Black's first stone White may take it as its own, so Black \
                       opens fairly.",
            },
            "simple" => OptionWords {
                label: "Simpler flips",
                help: "An invasion turns only as many stones of each run as the shorter run \
                       has.",
            },
            _ => return None,
        })
    }

    fn drawing(
        state: &HerforState,
        playable: &[Playable<HerforMove>],
        last: &[Ply<Herfor>],
        hint: Option<&HerforMove>,
        look: Look,
    ) -> Drawing {
        let mut view = board_view(state, playable, last);
        if let Some(hint) = hint {
            mark_hint(&mut view, state, hint);
        }
        drawing(&view, look)
    }

    fn label(state: &HerforState, mv: &HerforMove) -> String {
        let colour = state.to_move().name();
        match mv {
            HerforMove::Place(p) => format!(
                "Place a {colour} stone on {}",
                point_name(state.size(), *p).unwrap_or_default()
            ),
            HerforMove::Pass => format!("Pass: {colour} has no legal placement"),
            HerforMove::Swap => "Swap: take Black, and let the first player move as White".into(),
        }
    }

    fn group(_state: &HerforState, mv: &HerforMove) -> String {
        match mv {
            HerforMove::Place(_) => "Place a stone",
            HerforMove::Pass => "Pass",
            HerforMove::Swap => "Swap (the pie rule)",
        }
        .to_owned()
    }

    fn describe(ply: &Ply<Herfor>, _options: &HerforOptions, players: PlayerNames) -> Vec<String> {
        let colour = match ply.colour.as_str() {
            "white" => Colour::White,
            _ => Colour::Black,
        };
        ply.events
            .iter()
            .map(|event| describe_event(event, ply.seat, colour, players))
            .collect()
    }

    fn panel(state: &HerforState, players: PlayerNames) -> Markup {
        let options = state.options();
        html! {
            table.facts {
                tbody {
                    @for colour in Colour::BOTH {
                        tr {
                            th scope="row" { (player_words(state, colour, players)) }
                            td { (stones(state.stones(colour).count_ones())) }
                        }
                    }
                    tr {
                        th scope="row" { "Button (½ point)" }
                        td { (state.button().map_or("not given yet", Colour::name)) }
                    }
                    tr {
                        th scope="row" { "Board" }
                        td {
                            (options.size) " points per side"
                            @if options.pie { ", pie rule" }
                            @if options.simple { ", simple flips" }
                        }
                    }
                }
            }
        }
    }

    fn score_words(state: &HerforState, players: PlayerNames) -> Vec<(String, String)> {
        let score = Herfor::score(state);
        let line = |colour: Colour, stones: u32, total: f64| {
            let button = if score.button == Some(colour) {
                " + ½ for the button"
            } else {
                ""
            };
            (
                players.name(state.seat_of(colour), colour.name()),
                format!("{stones} stones{button} = {total}"),
            )
        };
        vec![
            line(Colour::Black, score.black_stones, score.black_total),
            line(Colour::White, score.white_stones, score.white_total),
        ]
    }

    fn rules() -> Markup {
        let example = rules_example();
        html! {
            p { "Two players place stones on the points of a hexagonal board, each trying to end with more stones of their colour on it. Stones that line up between two enemy lines flip them." }
            figure.board {
                (Herfor::board(&example, &[], &[], None))
                figcaption {
                    "A small board (3 points per side) after " code { (RULES_EXAMPLE.join(" ")) } ": "
                    "White's stone on c3 lined up between the black stones on c2 and c4, an invasion, and flipped both to white."
                }
            }
            h2 { "The board" }
            p { "Stones go on the points of a hexagon of triangles, 3 to 7 points per side (5 for short games, 7 for long ones). Rows are lettered from the bottom (" code { "a" } "), points numbered from the left of their row: " code { "c3" } "." }
            h2 { "A turn" }
            p { "Black starts; the players take turns placing one stone of their colour on an empty point. A stone may go:" }
            ul {
                li { "on a point that touches none of your own stones, or" }
                li { "where it lines up, along one of the three lines through the point, a run of your stones with an enemy stone directly beyond each end: an " em { "invasion" } "." }
            }
            p { "Each invasion flips both enemy runs it touches along that line to your colour. All invasions of the placement flip at once; flips trigger nothing further." }
            h2 { "Passing and the end" }
            p { "You pass only when you have no legal placement, and must pass then. The first player to pass gives the opponent the " em { "button" } ", worth half a point. The game ends when both players pass in a row; every stone on the board is a point, so there are no draws." }
            h2 { "Options" }
            ul {
                li { strong { "Pie rule" } " (on by default): after the first stone the second player may swap, taking Black; the first player then plays White and moves next." }
                li { strong { "Simple flips" } ": flip from each invaded run only as many stones as the shorter of the two has, the nearest ones." }
            }
        }
    }
}

/// The position drawn on the rules page.
const RULES_EXAMPLE: [&str; 5] = ["c2", "a1", "c4", "c3", "e2"];

fn rules_example() -> HerforState {
    let options = HerforOptions {
        size: 3,
        pie: false,
        simple: false,
    };
    let mut state = Herfor::new_game(&options).expect("size 3 is a board");
    for text in RULES_EXAMPLE {
        if let Ok(mv) = Herfor::parse_move(&state, text) {
            let _ = Herfor::apply(&mut state, &mv);
        }
    }
    state
}

fn stones(count: u32) -> String {
    match count {
        1 => "1 stone".to_owned(),
        n => format!("{n} stones"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::{Link, Query};
    use crate::replay::replay;

    #[test]
    fn a_point_that_takes_no_stone_says_why_by_rule_f3() {
        let options = HerforOptions {
            size: 3,
            pie: false,
            ..HerforOptions::default()
        };
        // Black on c3, White on a1: Black to play.
        let state = play(options, &["c3", "a1"]);
        let at = |name: &str| moot_games::herfor::geometry::parse_point(3, name).unwrap();
        let taken = point_refusal(&state, at("a1")).expect("a1 is taken");
        assert_eq!(taken.why, "a1 already holds a white stone.");
        assert_eq!(taken.rule_href, "/rules/herfor#F3");
        assert_eq!(taken.rule_words, "Rule F3: A turn");
        let touching = point_refusal(&state, at("c2")).expect("c2 touches Black's c3");
        assert!(
            touching
                .why
                .starts_with("c2 touches a black stone and forms no invading phalanx"),
            "{}",
            touching.why
        );
        assert_eq!(touching.rule_href, "/rules/herfor#F3");
        assert_eq!(point_refusal(&state, at("e3")), None, "e3 takes a stone");

        // The page's board: every point without a move says why; the others, and a picture's
        // points, say nothing.
        let playable = crate::view::playable::<Herfor>(&state);
        let view = board_view(&state, &playable, &[]);
        for point in &view.points {
            assert_eq!(
                point.refusal.is_some(),
                point.play.is_none(),
                "{}",
                point.name
            );
        }
        let a1 = view.points.iter().find(|p| p.name == "a1").unwrap();
        assert_eq!(a1.refusal.as_ref(), Some(&taken));
        let picture = board_view(&state, &[], &[]);
        assert!(picture.points.iter().all(|p| p.refusal.is_none()));
    }

    fn play(options: HerforOptions, moves: &[&str]) -> HerforState {
        let mut state = Herfor::new_game(&options).unwrap();
        for text in moves {
            let mv = Herfor::parse_move(&state, text).unwrap();
            Herfor::apply(&mut state, &mv).unwrap();
        }
        state
    }

    /// F3: White's c3 between the black stones on c2 and c4 flips both: its button says so,
    /// for the script to draw at once; a placement that flips nothing says nothing, and a
    /// picture (no buttons) carries none.
    #[test]
    fn f3_a_board_button_names_the_stones_its_placement_flips() {
        let options = HerforOptions {
            size: 3,
            pie: false,
            simple: false,
        };
        let state = play(options, &RULES_EXAMPLE[..3]);
        let playable = crate::view::playable::<Herfor>(&state);
        let view = board_view(&state, &playable, &[]);
        let flips = |name: &str| {
            view.points
                .iter()
                .find(|p| p.name == name)
                .map(|p| p.flips.clone())
                .unwrap()
        };
        assert_eq!(flips("c3"), ["c2", "c4"]);
        assert!(flips("a2").is_empty(), "a2 flips nothing");
        let svg = Herfor::board(&state, &playable, &[], None).into_string();
        assert!(
            svg.contains(r#"value="c3" data-point="c3" title="Place a white stone on c3" data-turns="c2 c4">"#),
            "{svg}"
        );
        let pictured: Vec<_> = playable
            .into_iter()
            .map(|p| Playable {
                play: String::new(),
                ..p
            })
            .collect();
        let picture = board_view(&state, &pictured, &[]);
        assert!(picture.points.iter().all(|p| p.flips.is_empty()));
    }

    #[test]
    fn rules_example_is_a_legal_game() {
        let state = play(
            HerforOptions {
                size: 3,
                pie: false,
                simple: false,
            },
            &RULES_EXAMPLE,
        );
        assert_eq!(state.moves_played(), RULES_EXAMPLE.len() as u32);
        // c3 invaded between c2 and c4 and flipped both: only e2 is black.
        assert_eq!(state.stone_names(Colour::Black), ["e2"]);
        assert_eq!(state.stones(Colour::White).count_ones(), 4);
    }

    #[test]
    fn board_view_draws_every_point_with_links_only_where_legal() {
        let options = HerforOptions {
            size: 3,
            pie: false,
            simple: false,
        };
        let state = play(options, &["c3"]);
        let playable: Vec<_> = Herfor::legal_moves(&state)
            .into_iter()
            .map(|mv| Playable {
                notation: Herfor::format_move(&state, &mv),
                play: format!("go {}", Herfor::format_move(&state, &mv)),
                mv,
            })
            .collect();
        let view = board_view(&state, &playable, &[]);
        assert_eq!(view.points.len(), 19, "a size-3 board has 19 points");
        assert_eq!(view.row_labels.len(), 5);
        // Each of the 3 directions has rows of 3, 4, 5, 4, 3 points: 14 segments.
        assert_eq!(view.lines.len(), 42);
        let c3 = view.points.iter().find(|p| p.name == "c3").unwrap();
        assert_eq!(c3.stone, Some(Stone::Black));
        assert_eq!(c3.play, None);
        let linked = view.points.iter().filter(|p| p.play.is_some()).count();
        assert_eq!(linked, playable.len());
        let a1 = view.points.iter().find(|p| p.name == "a1").unwrap();
        assert_eq!(a1.play.as_deref(), Some("go a1"));
        assert_eq!(a1.title, "Place a white stone on a1");
        // a1 is the bottom left point, e3 the top right.
        let e3 = view.points.iter().find(|p| p.name == "e3").unwrap();
        assert!(a1.y > e3.y && a1.x < e3.x);
    }

    /// The board of a link's position, as the page draws it (without links).
    fn board_of(query: &str) -> String {
        let (position, _) = Link::<Herfor>::read(&Query::parse(query)).unwrap();
        let game = replay(&position).unwrap();
        Herfor::board(&game.state, &[], game.last_turn(), None).into_string()
    }

    #[test]
    fn the_board_marks_the_stone_played_last_and_the_stones_it_flipped() {
        let svg = board_of("size=3&pie=false&moves=c2.a1.c4.c3");
        assert!(
            svg.contains(r#"<title>c3: white stone — played last</title>"#),
            "{svg}"
        );
        assert!(svg.contains(r#"<title>c2: white stone — flipped by the last move</title>"#));
        assert!(svg.contains(r#"<title>c4: white stone — flipped by the last move</title>"#));
        // The marks sit on those points only: the dot on c3, rings on c2 and c4.
        let marked = |class: &str| -> Vec<&str> {
            svg.split(r#"data-point=""#)
                .filter(|point| point.contains(class))
                .filter_map(|point| point.split('"').next())
                .collect()
        };
        assert_eq!(marked(r#"class="last placed""#), ["c3"]);
        assert_eq!(marked(r#"class="last flipped""#), ["c2", "c4"]);
        assert!(!svg.contains("<title>a1: white stone — "), "{svg}");
    }

    #[test]
    fn a_new_game_a_swap_and_the_closing_passes_mark_nothing() {
        // The first legal move each time, to the end: the game closes with both passes.
        let options = HerforOptions {
            size: 3,
            pie: false,
            simple: false,
        };
        let mut state = Herfor::new_game(&options).unwrap();
        let mut moves = Vec::new();
        while let Some(mv) = Herfor::legal_moves(&state).first().copied() {
            moves.push(Herfor::format_move(&state, &mv));
            Herfor::apply(&mut state, &mv).unwrap();
        }
        assert_eq!(moves.last().map(String::as_str), Some("pass"));
        let finished = format!("size=3&pie=false&moves={}", moves.join("."));
        for query in ["size=3&pie=false", "size=3&moves=c3.swap", &finished] {
            let svg = board_of(query);
            assert!(!svg.contains(r#"class="last"#), "{query}");
            assert!(!svg.contains(" — "), "{query}: no title names a last move");
        }
    }

    #[test]
    fn describe_says_which_stones_flipped() {
        let event = HerforEvent::Placed {
            colour: Colour::White,
            point: "b2".into(),
            flipped: vec!["b3".into(), "c3".into()],
        };
        assert_eq!(
            describe_event(&event, Seat::Second, Colour::White, PlayerNames::default()),
            "A white stone on b2 flipped b3, c3 to white"
        );
        let pass = HerforEvent::Passed {
            colour: Colour::Black,
            button_to: Some(Colour::White),
        };
        assert_eq!(
            describe_event(&pass, Seat::First, Colour::Black, PlayerNames::default()),
            "Black passed; the button (½ point) goes to White"
        );
    }

    #[test]
    fn the_hint_marks_the_point_its_stone_goes_on_and_a_pass_marks_none() {
        let state = Herfor::new_game(&HerforOptions::default()).unwrap();
        let mut view = board_view(&state, &[], &[]);
        mark_hint(
            &mut view,
            &state,
            &Herfor::parse_move(&state, "c3").unwrap(),
        );
        let hinted: Vec<&str> = view
            .points
            .iter()
            .filter(|p| p.hinted)
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(hinted, ["c3"]);
        mark_hint(&mut view, &state, &HerforMove::Pass);
        assert!(view.points.iter().all(|p| !p.hinted), "a pass has no point");
    }
}
