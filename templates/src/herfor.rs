//! Herfor's board: the points of a hexagon of triangles, with stones, as inline SVG.

use maud::{Markup, html};

use crate::drawing::{Drawing, Look, page_svg};
use crate::parts::{FIELD, FORM, Refusal, spots};

/// The board picture, in SVG user units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HexBoardView {
    /// What the picture shows, in words (its `<title>`).
    pub caption: String,
    /// The picture's width in user units.
    pub width: f32,
    /// The picture's height in user units.
    pub height: f32,
    /// The distance between neighbouring points: a legal point's button covers the circle of
    /// half of it around the point, the whole cell.
    pub spacing: f32,
    /// The lines of the grid, as (x1, y1, x2, y2).
    pub lines: Vec<(f32, f32, f32, f32)>,
    /// Row letters beside the rows' first points: (letter, x, y).
    pub row_labels: Vec<(String, f32, f32)>,
    /// Every point of the board, with its stone, mark and button.
    pub points: Vec<HexPoint>,
    /// The colour of the stone a placement puts down now: on a page the script draws it at
    /// once where the player clicked, while the move is sent.
    pub placing: Option<Stone>,
}

/// One point of the hexagon (F1) as the board draws it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HexPoint {
    /// The point's name (F1, `c3`), written on a legal empty point.
    pub name: String,
    /// The point's centre: its distance from the left edge, in user units.
    pub x: f32,
    /// The point's centre: its distance from the top edge, in user units.
    pub y: f32,
    /// The stone on the point, if any.
    pub stone: Option<Stone>,
    /// The notation of the move that places a stone here, when it is legal (empty in a
    /// picture, which has no buttons).
    pub play: Option<String>,
    /// Words for the point (`c3: empty`, `Place a black stone on c3`).
    pub title: String,
    /// What the last move did here, if anything.
    pub last: Option<LastMark>,
    /// The computer's hint places its stone here.
    pub hinted: bool,
    /// The points whose stones the move on this point flips (F3), for the script to draw at
    /// once with the stone; empty in a picture.
    pub flips: Vec<String>,
    /// Why no stone may go here now, when the player may place one elsewhere: a tap says it.
    pub refusal: Option<Refusal>,
}

/// A stone the last move placed, or flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastMark {
    /// The stone the last move placed: a dot on it.
    Placed,
    /// A stone the last move flipped (F3): a ring on it.
    Flipped,
}

impl LastMark {
    fn words(self) -> &'static str {
        match self {
            LastMark::Placed => "played last",
            LastMark::Flipped => "flipped by the last move",
        }
    }
}

/// The colour of a stone as the board draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    /// A black stone, drawn in ink.
    Black,
    /// A white stone, drawn in paper white.
    White,
}

impl Stone {
    fn class(self) -> &'static str {
        match self {
            Stone::Black => "stone black",
            Stone::White => "stone white",
        }
    }
}

/// The radius of a stone, of the target drawn on a legal point, of a bare point.
const STONE: f32 = 15.0;
const TARGET: f32 = 11.0;
const DOT: f32 = 3.0;
/// The radius of the dot on the stone just placed, and of the ring on the stones it flipped.
const PLACED: f32 = 5.0;
const FLIPPED: f32 = 8.0;

/// Colours of the board, the same on the pages and in pictures (in the dark theme the pages'
/// stylesheet gives each its dark counterpart).
/// Grid lines at 3.9:1 against the paper (WCAG 1.4.11 asks 3:1 of graphics one must see).
const LINE: &str = "#857a66";
const MUTED: &str = "#6b645a";
const ACCENT: &str = "#7a3b12";
const INK: &str = "#1d1b18";
const LAST: &str = "#c2185b";
/// The computer's hint: blue, apart from the moves' brown and the last move's magenta.
const HINT: &str = "#1a56a8";
const HINT_RING: f32 = 19.0;

impl Stone {
    fn fill(self) -> &'static str {
        match self {
            Stone::Black => INK,
            Stone::White => "#fffdf7",
        }
    }
}

impl HexBoardView {
    /// The same board turned half a turn: every point, line and label mirrored through the
    /// centre.
    fn turned(&self) -> HexBoardView {
        let (w, h) = (self.width, self.height);
        HexBoardView {
            lines: self
                .lines
                .iter()
                .map(|&(x1, y1, x2, y2)| (w - x1, h - y1, w - x2, h - y2))
                .collect(),
            // A row's letter stays beside its row, now on the right.
            row_labels: self
                .row_labels
                .iter()
                .map(|(letter, x, y)| (letter.clone(), w - x - 12.0, h - y + 10.0))
                .collect(),
            points: self
                .points
                .iter()
                .map(|p| HexPoint {
                    x: w - p.x,
                    y: h - p.y,
                    ..p.clone()
                })
                .collect(),
            ..self.clone()
        }
    }
}

/// The board as a page shows it, with its links.
pub fn board(view: &HexBoardView) -> Markup {
    page_svg(&drawing(view, Look::default()))
}

/// The board, self-contained.
pub fn drawing(view: &HexBoardView, look: Look) -> Drawing {
    let view = &*look.orient(view, HexBoardView::turned);
    let controls = view
        .points
        .iter()
        .any(|p| p.play.as_ref().is_some_and(|h| !h.is_empty()));
    let body = html! {
        g.grid stroke=(LINE) stroke-width="1.5" {
            @for (x1, y1, x2, y2) in &view.lines { line x1=(x1) y1=(y1) x2=(x2) y2=(y2) {} }
        }
        @if look.coordinates {
            g.rows aria-hidden="true" font-size="14" fill=(MUTED) font-style="italic" {
                @for (letter, x, y) in &view.row_labels { text x=(x) y=(y) { (letter) } }
            }
        }
        @for point in &view.points { (point_markup(point, look)) }
        // The buttons over everything drawn, so that no neighbour's mark takes their clicks.
        @for point in &view.points { (point_button(point, view.spacing)) }
        @if let (Some(stone), true) = (view.placing, controls) {
            // The player's own stone, for the script to put where they click (not shown
            // until then).
            circle #own-stone class=(stone.class()) cx="0" cy="0" r=(STONE) fill=(stone.fill()) stroke=(INK) stroke-width="1.5" visibility="hidden" {}
        }
    };
    Drawing {
        title: view.caption.clone(),
        class: "herfor",
        width: view.width,
        height: view.height,
        controls,
        body,
    }
}

fn point_markup(point: &HexPoint, look: Look) -> Markup {
    let legal = point.play.is_some();
    let button = point.play.as_ref().is_some_and(|play| !play.is_empty());
    html! {
        g class=(if legal { "move" } else { "point" }) data-point=(point.name)
            data-why=[point.refusal.as_ref().map(|r| &r.why)]
            data-rule=[point.refusal.as_ref().map(|r| &r.rule_href)]
            data-rule-words=[point.refusal.as_ref().map(|r| &r.rule_words)] {
            // A button's title names the point; the drawing under it needs none.
            @if !button { title { (point_title(point)) } }
            @match point.stone {
                Some(stone) => { circle class=(stone.class()) cx=(point.x) cy=(point.y) r=(STONE) fill=(stone.fill()) stroke=(INK) stroke-width="1.5" {} }
                None if legal => { circle.target cx=(point.x) cy=(point.y) r=(TARGET) fill="#fff" stroke=(ACCENT) stroke-width="2" stroke-dasharray="3 2" {} }
                None => { circle.dot cx=(point.x) cy=(point.y) r=(DOT) fill=(LINE) {} }
            }
            @match point.last {
                Some(LastMark::Placed) => { circle.last.placed cx=(point.x) cy=(point.y) r=(PLACED) fill=(LAST) stroke="#fff" stroke-width="1.5" {} }
                Some(LastMark::Flipped) => { circle.last.flipped cx=(point.x) cy=(point.y) r=(FLIPPED) fill="none" stroke=(LAST) stroke-width="2" stroke-opacity="0.6" {} }
                None => {}
            }
            @if point.hinted {
                circle.hint cx=(point.x) cy=(point.y) r=(HINT_RING) fill="none" stroke=(HINT) stroke-width="4" {}
            }
            // Names on the points a click can take; the others say theirs in the title.
            @if look.coordinates && point.stone.is_none() && legal {
                text.name x=(point.x) y=(point.y + 4.0) font-size="10" fill=(ACCENT) text-anchor="middle" { (point.name) }
            }
        }
    }
}

/// A legal point's button, over the drawing, named by the point's words.
fn point_button(point: &HexPoint, spacing: f32) -> Markup {
    let Some(play) = point.play.as_ref().filter(|play| !play.is_empty()) else {
        return html! {};
    };
    // A hair over half the spacing: neighbouring cells touch, with no gap between them (the
    // stylesheet rounds the button to the circle).
    let r = spacing * 0.51;
    html! {
        foreignObject x=(point.x - r) y=(point.y - r) width=(2.0 * r) height=(2.0 * r) {
            button.move type="submit" form=(FORM) name=(FIELD) value=(play) data-point=(point.name) title=(point_title(point)) data-turns=[spots(&point.flips)] {}
        }
    }
}

/// The point in words, with what the last move and the hint did there.
fn point_title(point: &HexPoint) -> String {
    let mut title = point.title.clone();
    if let Some(mark) = point.last {
        title = format!("{title} — {}", mark.words());
    }
    if point.hinted {
        title.push_str(" — the computer's hint");
    }
    title
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_points_are_buttons_of_the_form_named_by_their_titles_and_stones_are_drawn_by_colour() {
        let view = HexBoardView {
            caption: "Herfor board".into(),
            width: 100.0,
            height: 80.0,
            spacing: 20.0,
            lines: vec![(0.0, 0.0, 10.0, 0.0)],
            row_labels: vec![("a".into(), 1.0, 2.0)],
            points: vec![
                HexPoint {
                    name: "a1".into(),
                    x: 10.0,
                    y: 20.0,
                    stone: None,
                    play: Some("a1".into()),
                    title: "Place a black stone on a1".into(),
                    last: None,
                    hinted: false,
                    flips: Vec::new(),
                    refusal: None,
                },
                HexPoint {
                    name: "a2".into(),
                    x: 30.0,
                    y: 20.0,
                    stone: Some(Stone::White),
                    play: None,
                    title: "a2: white".into(),
                    last: None,
                    hinted: false,
                    flips: Vec::new(),
                    refusal: Some(Refusal {
                        why: "a2 already holds a white stone.".into(),
                        rule_href: "/rules/herfor#F3".into(),
                        rule_words: "Rule F3: A turn".into(),
                    }),
                },
            ],
            placing: Some(Stone::Black),
        };
        let svg = board(&view).into_string();
        assert!(
            svg.contains(r#"<g class="move" data-point="a1"><circle class="target""#),
            "{svg}"
        );
        // One click plays it, with or without the script: a button of the page's form, over
        // the point's whole cell (the spacing's circle), after every point's drawing.
        assert!(svg.contains(r#"<foreignObject x="-0.19999981" y="9.8" width="20.4" height="20.4"><button class="move" type="submit" form="play" name="play" value="a1" data-point="a1" title="Place a black stone on a1"></button></foreignObject>"#), "{svg}");
        assert!(svg.find("<foreignObject") > svg.rfind("<g class="));
        // A point with no move carries why, for a tap to say.
        assert!(svg.contains(r#"<g class="point" data-point="a2" data-why="a2 already holds a white stone." data-rule="/rules/herfor#F3" data-rule-words="Rule F3: A turn">"#), "{svg}");
        assert_eq!(svg.matches("<button").count(), 1);
        // The player's own stone, hidden, for the script to draw where they click.
        assert!(svg.contains(r##"<circle id="own-stone" class="stone black" cx="0" cy="0" r="15" fill="#1d1b18""##), "{svg}");
        assert!(svg.contains(r##"data-rule-words="Rule F3: A turn"><title>a2: white</title><circle class="stone white" cx="30" cy="20" r="15" fill="#fffdf7" stroke="#1d1b18" stroke-width="1.5"></circle></g>"##), "{svg}");
        assert!(svg.contains(r#"viewBox="0 0 100 80""#));
        assert!(!svg.contains("last"), "no move, no mark");
        assert!(!svg.contains("data-turns"), "no flips, no word of them");
        let mut flipping = view.clone();
        flipping.points[0].flips = vec!["a2".into(), "b1".into()];
        assert!(board(&flipping).into_string().contains(
            r#"data-point="a1" title="Place a black stone on a1" data-turns="a2 b1"></button>"#
        ));
    }

    #[test]
    fn the_stone_played_last_gets_a_dot_and_the_flipped_ones_a_ring_named_in_their_titles() {
        let stone = |name: &str, last| HexPoint {
            name: name.into(),
            stone: Some(Stone::White),
            title: format!("{name}: white stone"),
            last,
            ..HexPoint::default()
        };
        let view = HexBoardView {
            points: vec![
                stone("c3", Some(LastMark::Placed)),
                stone("c2", Some(LastMark::Flipped)),
                stone("a1", None),
            ],
            ..HexBoardView::default()
        };
        let svg = board(&view).into_string();
        assert!(svg.contains(r##"<g class="point" data-point="c3"><title>c3: white stone — played last</title><circle class="stone white" cx="0" cy="0" r="15" fill="#fffdf7" stroke="#1d1b18" stroke-width="1.5"></circle><circle class="last placed""##), "{svg}");
        assert!(svg.contains(r##"<g class="point" data-point="c2"><title>c2: white stone — flipped by the last move</title><circle class="stone white" cx="0" cy="0" r="15" fill="#fffdf7" stroke="#1d1b18" stroke-width="1.5"></circle><circle class="last flipped""##), "{svg}");
        assert!(svg.contains("<title>a1: white stone</title>"));
        assert_eq!(svg.matches(r#"class="last "#).count(), 2);
    }

    #[test]
    fn the_hinted_point_gets_a_blue_ring_and_says_so() {
        let view = HexBoardView {
            points: vec![HexPoint {
                name: "c3".into(),
                play: Some("c3".into()),
                title: "Place a black stone on c3".into(),
                hinted: true,
                ..HexPoint::default()
            }],
            ..HexBoardView::default()
        };
        let svg = board(&view).into_string();
        assert!(
            svg.contains(r#"title="Place a black stone on c3 — the computer's hint""#),
            "{svg}"
        );
        assert_eq!(svg.matches(r#"<circle class="hint""#).count(), 1, "{svg}");
        let mut plain = view.clone();
        plain.points[0].hinted = false;
        assert!(!board(&plain).into_string().contains("hint"));
    }
}
