//! Herfor's board: the points of a hexagon of triangles, with stones, as inline SVG.

use maud::{Markup, html};

/// The board picture, in SVG user units.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HexBoardView {
    /// What the picture shows, in words (its `<title>`).
    pub caption: String,
    pub width: f32,
    pub height: f32,
    /// The lines of the grid, as (x1, y1, x2, y2).
    pub lines: Vec<(f32, f32, f32, f32)>,
    /// Row letters beside the rows' first points: (letter, x, y).
    pub row_labels: Vec<(String, f32, f32)>,
    pub points: Vec<HexPoint>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct HexPoint {
    pub name: String,
    pub x: f32,
    pub y: f32,
    pub stone: Option<Stone>,
    /// The move that places a stone here, when it is legal.
    pub href: Option<String>,
    /// Words for the point (`c3: empty`, `Place a black stone on c3`).
    pub title: String,
    /// What the last move did here, if anything.
    pub last: Option<LastMark>,
}

/// A stone the last move placed, or flipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastMark {
    Placed,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    Black,
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

pub fn board(view: &HexBoardView) -> Markup {
    html! {
        svg.board.herfor xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 {} {}", view.width, view.height)) role="img" aria-label=(view.caption) {
            title { (view.caption) }
            g.grid {
                @for (x1, y1, x2, y2) in &view.lines { line x1=(x1) y1=(y1) x2=(x2) y2=(y2) {} }
            }
            g.rows aria-hidden="true" {
                @for (letter, x, y) in &view.row_labels { text x=(x) y=(y) { (letter) } }
            }
            @for point in &view.points { (point_markup(point)) }
        }
    }
}

fn point_markup(point: &HexPoint) -> Markup {
    let body = html! {
        title {
            (point.title)
            @if let Some(mark) = point.last { " — " (mark.words()) }
        }
        @match point.stone {
            Some(stone) => { circle class=(stone.class()) cx=(point.x) cy=(point.y) r=(STONE) {} }
            None if point.href.is_some() => { circle.target cx=(point.x) cy=(point.y) r=(TARGET) {} }
            None => { circle.dot cx=(point.x) cy=(point.y) r=(DOT) {} }
        }
        @match point.last {
            Some(LastMark::Placed) => { circle.last.placed cx=(point.x) cy=(point.y) r=(PLACED) {} }
            Some(LastMark::Flipped) => { circle.last.flipped cx=(point.x) cy=(point.y) r=(FLIPPED) fill="none" {} }
            None => {}
        }
        // Names on the points a click can take; the others say theirs in the title.
        @if point.stone.is_none() && point.href.is_some() {
            text.name x=(point.x) y=(point.y + 4.0) { (point.name) }
        }
    };
    html! {
        @match &point.href {
            Some(href) => { a.move href=(href) data-point=(point.name) { (body) } }
            None => { g.point data-point=(point.name) { (body) } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_points_are_links_with_titles_and_stones_are_drawn_by_colour() {
        let view = HexBoardView {
            caption: "Herfor board".into(),
            width: 100.0,
            height: 80.0,
            lines: vec![(0.0, 0.0, 10.0, 0.0)],
            row_labels: vec![("a".into(), 1.0, 2.0)],
            points: vec![
                HexPoint {
                    name: "a1".into(),
                    x: 10.0,
                    y: 20.0,
                    stone: None,
                    href: Some("/play/herfor?moves=a1".into()),
                    title: "Place a black stone on a1".into(),
                    last: None,
                },
                HexPoint {
                    name: "a2".into(),
                    x: 30.0,
                    y: 20.0,
                    stone: Some(Stone::White),
                    href: None,
                    title: "a2: white".into(),
                    last: None,
                },
            ],
        };
        let svg = board(&view).into_string();
        assert!(svg.contains(r#"<a class="move" href="/play/herfor?moves=a1" data-point="a1"><title>Place a black stone on a1</title><circle class="target""#), "{svg}");
        assert!(svg.contains(r#"<g class="point" data-point="a2"><title>a2: white</title><circle class="stone white" cx="30" cy="20" r="15"></circle></g>"#), "{svg}");
        assert!(svg.contains(r#"viewBox="0 0 100 80""#));
        assert!(!svg.contains("last"), "no move, no mark");
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
        assert!(svg.contains(r#"<g class="point" data-point="c3"><title>c3: white stone — played last</title><circle class="stone white" cx="0" cy="0" r="15"></circle><circle class="last placed""#), "{svg}");
        assert!(svg.contains(r#"<g class="point" data-point="c2"><title>c2: white stone — flipped by the last move</title><circle class="stone white" cx="0" cy="0" r="15"></circle><circle class="last flipped""#), "{svg}");
        assert!(svg.contains("<title>a1: white stone</title>"));
        assert_eq!(svg.matches(r#"class="last "#).count(), 2);
    }
}
