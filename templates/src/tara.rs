//! The board of The High Kings of Tara as inline SVG: 45 hills on a 7×7 cross, ringforts as
//! rings in their colour, bridges between linked ringforts, kings as crowns, and the hills
//! where a move is legal highlighted and linked.

use maud::{Markup, html};

use crate::drawing::{Drawing, Look, page_svg};
use crate::parts::{
    Badges, BoardLink, Choice, Refusal, choice_link, choice_overlay, live, spot_links,
};

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Red, drawn in red.
    Red,
    /// Blue, drawn in blue.
    Blue,
}

impl Side {
    /// The colour's name in words for people (`Red`).
    pub fn word(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::Blue => "Blue",
        }
    }

    fn other(self) -> Side {
        match self {
            Side::Red => Side::Blue,
            Side::Blue => Side::Red,
        }
    }

    fn ink(self) -> &'static str {
        match self {
            Side::Red => "#b3261e",
            Side::Blue => "#1f4e9c",
        }
    }

    fn tint(self) -> &'static str {
        match self {
            Side::Red => "#f3c9c2",
            Side::Blue => "#c6d5f0",
        }
    }
}

/// Everything the picture shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaraBoardView {
    /// The picture's own title (`Red to move`).
    pub title: String,
    /// The 45 hills (T1), each with what stands on it and its links.
    pub hills: Vec<HillView>,
    /// Pairs of linked (orthogonally adjacent, same-colour) ringforts.
    pub bridges: Vec<Bridge>,
    /// The colour whose king a move puts on its hill: on a page the script draws it there at
    /// once, while the move is sent.
    pub moving: Option<Side>,
}

/// One hill and what stands on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HillView {
    /// `D4`.
    pub name: String,
    /// 0 = column A.
    pub col: u8,
    /// 0 = row 1, at the bottom.
    pub row: u8,
    /// The colour of the ringfort on the hill, drawn as a ring; `None` on a vacant hill.
    pub ringfort: Option<Side>,
    /// The colour of the king on the hill, drawn as a crown on its ringfort.
    pub king: Option<Side>,
    /// More words for the hill's title (`immune: it sacrificed last turn`).
    pub note: Option<String>,
    /// The legal moves that end on this hill.
    pub links: Vec<BoardLink>,
    /// The part this hill had in the last move, if any.
    pub last: Option<LastMark>,
    /// The computer's hint ends here.
    pub hinted: bool,
    /// Why no move ends here, when the player has moves elsewhere: a tap says it.
    pub refusal: Option<Refusal>,
}

/// A hill the last move used: a king was placed on it, or moved from or to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastMark {
    /// A king was placed here in setup (T3): a solid ring.
    Placed,
    /// The king that moved left from here: a dashed ring, and the start of a faint line.
    From,
    /// The king that moved went here: a solid ring, and the end of the faint line.
    To,
}

impl LastMark {
    fn words(self) -> &'static str {
        match self {
            LastMark::Placed => "placed last",
            LastMark::From => "the last move left from here",
            LastMark::To => "the last move went here",
        }
    }
}

/// A bridge between two hills given as (column, row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bridge {
    /// The colour of the linked ringforts: the bridge's.
    pub side: Side,
    /// One end of the bridge: its hill's (column, row).
    pub a: (u8, u8),
    /// The other end, an orthogonal neighbour of `a` (T6).
    pub b: (u8, u8),
}

const CELL: f32 = 60.0;
const PAD: f32 = 26.0;
const GRID: u8 = 7;
const SIZE: f32 = PAD * 2.0 + CELL * GRID as f32;

fn centre(col: u8, row: u8) -> (f32, f32) {
    (
        PAD + CELL * (col as f32 + 0.5),
        PAD + CELL * ((GRID - 1 - row.min(GRID - 1)) as f32 + 0.5),
    )
}

fn hill_title(hill: &HillView) -> String {
    let what = match (hill.ringfort, hill.king) {
        (None, _) => "vacant".to_string(),
        (Some(fort), None) => format!("{} ringfort", fort.word()),
        (Some(fort), Some(king)) => format!("{} king on a {} ringfort", king.word(), fort.word()),
    };
    let title = match &hill.note {
        Some(note) => format!("{}: {what} ({note})", hill.name),
        None => format!("{}: {what}", hill.name),
    };
    let title = match hill.last {
        Some(mark) => format!("{title} — {}", mark.words()),
        None => title,
    };
    if hill.hinted {
        format!("{title} — the computer's hint")
    } else {
        title
    }
}

/// The faint line of the last king's move, from hill to hill, drawn under the hills.
fn last_line(view: &TaraBoardView) -> Markup {
    let find = |mark| view.hills.iter().find(|h| h.last == Some(mark));
    let (Some(from), Some(to)) = (find(LastMark::From), find(LastMark::To)) else {
        return html! {};
    };
    let (x1, y1) = centre(from.col, from.row);
    let (x2, y2) = centre(to.col, to.row);
    html! {
        line.last x1=(x1) y1=(y1) x2=(x2) y2=(y2) fill="none" stroke=(LAST) stroke-width="8" stroke-opacity="0.35" stroke-linecap="round" {
            title { "The last move: " (from.name) " to " (to.name) }
        }
    }
}

/// A crown centred on (`x`, `y`).
fn crown(side: Side, x: f32, y: f32) -> Markup {
    let points: String = [
        (-11.0, 7.0),
        (-11.0, -6.0),
        (-5.5, 1.0),
        (0.0, -10.0),
        (5.5, 1.0),
        (11.0, -6.0),
        (11.0, 7.0),
    ]
    .iter()
    .map(|(dx, dy)| format!("{},{} ", x + dx, y + dy))
    .collect();
    // Blue's crown has a ball on each point: red and blue are alike in grey, so the sides
    // differ by shape too.
    html! {
        g.crown {
            polygon.king points=(points.trim_end()) fill=(side.ink()) stroke="#fff" stroke-width="1.5" {}
            @if side == Side::Blue {
                @for (dx, dy) in [(-11.0, -6.0), (0.0, -10.0), (11.0, -6.0)] {
                    circle cx=(x + dx) cy=(y + dy) r="3" fill=(side.ink()) stroke="#fff" stroke-width="1" {}
                }
            }
        }
    }
}

/// A bridge between the hills centred on `a` and `b`.
fn bridge_line(side: Side, (x1, y1): (f32, f32), (x2, y2): (f32, f32)) -> Markup {
    html! {
        line.bridge x1=(x1) y1=(y1) x2=(x2) y2=(y2) stroke=(side.ink()) stroke-width="9" stroke-linecap="round" {
            title { (side.word()) " bridge" }
        }
    }
}

/// A ringfort centred on (`x`, `y`), one group the script can swap for the other colour's.
fn ringfort(side: Side, x: f32, y: f32) -> Markup {
    html! {
        g.fort {
            circle.ringfort cx=(x) cy=(y) r="18" fill=(side.tint()) stroke=(side.ink()) stroke-width="7" {}
            // Blue's ringfort is walled twice (a white ring in its wall): a cue besides colour.
            @if side == Side::Blue {
                circle cx=(x) cy=(y) r="15.5" fill="none" stroke="#fff" stroke-width="1.5" {}
            }
        }
    }
}

fn hill(hill: &HillView) -> Markup {
    let (x, y) = centre(hill.col, hill.row);
    html! {
        g.hill data-hill=(hill.name)
            data-why=[hill.refusal.as_ref().map(|r| &r.why)]
            data-rule=[hill.refusal.as_ref().map(|r| &r.rule_href)]
            data-rule-words=[hill.refusal.as_ref().map(|r| &r.rule_words)] {
            title { (hill_title(hill)) }
            circle cx=(x) cy=(y) r="25" fill="#cfe0b4" stroke="#8fa873" stroke-width="1.5" {}
            @if let Some(side) = hill.ringfort { (ringfort(side, x, y)) }
            @if let Some(side) = hill.king {
                (crown(side, x, y))
            }
            @match hill.last {
                Some(LastMark::From) => { circle.last.from cx=(x) cy=(y) r="23" fill="none" stroke=(LAST) stroke-width="2.5" stroke-dasharray="5 3" {} }
                Some(_) => { circle.last.to cx=(x) cy=(y) r="23" fill="none" stroke=(LAST) stroke-width="4" {} }
                None => {}
            }
            @if hill.hinted {
                rect.hint x=(x - CELL / 2.0 + 2.0) y=(y - CELL / 2.0 + 2.0) width=(CELL - 4.0) height=(CELL - 4.0) rx="6" fill="none" stroke=(HINT) stroke-width="4" {}
            }
            @if !hill.links.is_empty() {
                circle.target cx=(x) cy=(y) r="27" fill="none" stroke=(HIGHLIGHT) stroke-width="3" stroke-dasharray="6 3" {}
            }
        }
        // The whole square of the hill takes the click: a finger's width on a phone. Several
        // moves to it would make badges too small for a finger: the hill opens a choice.
        @if crowded(hill) {
            @let hit = html! { rect.hit x=(x - CELL / 2.0) y=(y - CELL / 2.0) width=(CELL) height=(CELL) fill="#fff" fill-opacity="0" {} };
            (choice_link(&hill.links, hit, &choice(hill), (x, y + CELL / 2.0 - 5.0, 11.0)))
        } @else {
            (spot_links(
                &hill.links,
                &Badges {
                    x: x - CELL / 2.0,
                    y: y - CELL / 2.0,
                    width: CELL,
                    height: CELL,
                    per_row: 2,
                    font: 11.0,
                    first_row_tags: None,
                },
            ))
        }
    }
}

/// A hill with several moves on a page (a picture keeps its badges).
fn crowded(hill: &HillView) -> bool {
    hill.links.len() > 1 && live(&hill.links)
}

fn choice(hill: &HillView) -> Choice<'_> {
    Choice {
        id: &hill.name,
        name: &hill.name,
        board: (SIZE, SIZE + 4.0),
        row: 64.0,
    }
}

/// The computer's hint: blue, apart from the moves' gold and the last move's magenta.
const HINT: &str = "#1a56a8";
/// A legal move's hill: dark gold, 3.8:1 against the hills.
const HIGHLIGHT: &str = "#8c6400";

/// What the last move did, on every board.
const LAST: &str = "#c2185b";

impl TaraBoardView {
    /// The same board turned half a turn: row 7 at the bottom, column G on the left.
    fn turned(&self) -> TaraBoardView {
        let turn =
            |(col, row): (u8, u8)| (GRID - 1 - col.min(GRID - 1), GRID - 1 - row.min(GRID - 1));
        TaraBoardView {
            hills: self
                .hills
                .iter()
                .map(|h| {
                    let (col, row) = turn((h.col, h.row));
                    HillView {
                        col,
                        row,
                        ..h.clone()
                    }
                })
                .collect(),
            bridges: self
                .bridges
                .iter()
                .map(|b| Bridge {
                    a: turn(b.a),
                    b: turn(b.b),
                    ..*b
                })
                .collect(),
            ..self.clone()
        }
    }
}

/// The board as a page shows it, with its links.
pub fn board(view: &TaraBoardView) -> Markup {
    page_svg(&drawing(view, Look::default()))
}

/// The board, self-contained.
pub fn drawing(view: &TaraBoardView, look: Look) -> Drawing {
    let view = &*look.orient(view, TaraBoardView::turned);
    // The labels name the columns and rows where they now are.
    let label = |index: u8| {
        if look.flipped {
            GRID - 1 - index
        } else {
            index
        }
    };
    let labels_y = PAD + CELL * GRID as f32 + 18.0;
    let controls = view
        .hills
        .iter()
        .any(|h| h.links.iter().any(|l| !l.play.is_empty()));
    let body = html! {
        @for h in &view.hills {
            @let (x, y) = centre(h.col, h.row);
            rect x=(x - CELL / 2.0) y=(y - CELL / 2.0) width=(CELL) height=(CELL) fill="#e4edd3" {}
        }
        @for bridge in &view.bridges {
            (bridge_line(bridge.side, centre(bridge.a.0, bridge.a.1), centre(bridge.b.0, bridge.b.1)))
        }
        (last_line(view))
        @for h in &view.hills { (hill(h)) }
        @if let (Some(side), true) = (view.moving, controls) {
            // The player's king (and ringfort, for a vacant hill), for the script to put on
            // the hill they choose (not shown until then), the other side's ringfort for
            // the ringforts a move turns to that colour, and the bridges a move makes.
            g #own-piece visibility="hidden" {
                (ringfort(side, 0.0, 0.0))
                (crown(side, 0.0, 0.0))
            }
            g #their-fort visibility="hidden" { (ringfort(side.other(), 0.0, 0.0)) }
            // Both sides' bridges, for those a move makes.
            g #own-bridge visibility="hidden" { (bridge_line(side, (0.0, 0.0), (0.0, 0.0))) }
            g #their-bridge visibility="hidden" { (bridge_line(side.other(), (0.0, 0.0), (0.0, 0.0))) }
        }
        @for h in view.hills.iter().filter(|h| crowded(h)) { (choice_overlay(&h.links, &choice(h))) }
        @if look.coordinates {
            @for col in 0..GRID {
                text.coord x=(centre(col, 0).0) y=(labels_y) text-anchor="middle" { ((b'A' + label(col)) as char) }
            }
            @for row in 0..GRID {
                text.coord x=(PAD / 2.0) y=(centre(0, row).1 + 5.0) text-anchor="middle" { (label(row) + 1) }
            }
        }
    };
    Drawing {
        title: view.title.clone(),
        class: "tara",
        width: SIZE,
        height: SIZE + 4.0,
        controls,
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hill_at(name: &str, col: u8, row: u8) -> HillView {
        HillView {
            name: name.into(),
            col,
            row,
            ..HillView::default()
        }
    }

    #[test]
    fn draws_ringforts_kings_and_bridges_in_their_colours() {
        let view = TaraBoardView {
            title: "Red to move".into(),
            hills: vec![
                HillView {
                    ringfort: Some(Side::Red),
                    king: Some(Side::Red),
                    ..hill_at("D4", 3, 3)
                },
                HillView {
                    ringfort: Some(Side::Red),
                    ..hill_at("D5", 3, 4)
                },
                HillView {
                    ringfort: Some(Side::Blue),
                    king: Some(Side::Red),
                    note: Some("immune".into()),
                    ..hill_at("B2", 1, 1)
                },
            ],
            bridges: vec![Bridge {
                side: Side::Red,
                a: (3, 3),
                b: (3, 4),
            }],
            moving: Some(Side::Red),
        };
        let svg = board(&view).into_string();
        assert!(svg.contains(r#"viewBox="0 0 472 476""#), "{svg}");
        assert_eq!(svg.matches(r#"class="ringfort""#).count(), 2 + 1);
        assert_eq!(
            svg.matches(r##"stroke="#1f4e9c" stroke-width="7""##)
                .count(),
            1
        );
        assert_eq!(svg.matches(r#"class="king""#).count(), 2);
        assert!(svg.contains("<title>D4: Red king on a Red ringfort</title>"));
        assert!(svg.contains("<title>B2: Red king on a Blue ringfort (immune)</title>"));
        assert!(svg.contains("<title>D5: Red ringfort</title>"));
        // D4 (row 4) is above B2 (row 2): row 1 is at the bottom.
        assert!(
            svg.contains(r#"x1="236" y1="236" x2="236" y2="176""#),
            "{svg}"
        );
        assert!(svg.contains("<title>Red bridge</title>"));
        assert!(!svg.contains("<a "), "no links without moves");
        assert!(!svg.contains("own-piece"), "no move to draw ahead");
        // Besides colour: Blue's ringfort has a white ring in its wall; no king is Blue here,
        // so no crown has balls on its points.
        assert_eq!(
            svg.matches(r##"r="15.5" fill="none" stroke="#fff" stroke-width="1.5""##)
                .count(),
            1
        );
        assert!(!svg.contains(r##"r="3" fill="#1f4e9c""##));
        let blue_king = crown(Side::Blue, 0.0, 0.0).into_string();
        assert_eq!(blue_king.matches("<circle").count(), 3, "{blue_king}");
    }

    #[test]
    fn highlights_the_hills_with_moves_and_lays_their_buttons_over_them() {
        let link = |tag: &str| BoardLink {
            play: format!("{tag}-E5"),
            title: format!("Move the king on {tag} to E5"),
            tag: tag.into(),
            from: tag.into(),
            to: "E5".into(),
            ..BoardLink::default()
        };
        let view = TaraBoardView {
            title: "t".into(),
            hills: vec![
                HillView {
                    links: vec![link("D7")],
                    ..hill_at("E5", 4, 4)
                },
                HillView {
                    links: vec![link("C2"), link("F4")],
                    ..hill_at("E3", 4, 2)
                },
                hill_at("A2", 0, 1),
            ],
            bridges: vec![],
            moving: Some(Side::Blue),
        };
        let svg = board(&view).into_string();
        assert_eq!(svg.matches(r#"class="target""#).count(), 2);
        // E5's button over its whole square; E3's link to its choice, the choice's two
        // buttons and its way back.
        assert_eq!(svg.matches("<a ").count(), 1 + 1);
        assert_eq!(svg.matches("<button ").count(), 1 + 2);
        assert!(svg.contains(
            r#"<foreignObject x="266" y="146" width="60" height="60"><button class="move" type="submit" form="play" name="play" value="D7-E5" title="Move the king on D7 to E5" data-from="D7" data-to="E5"></button></foreignObject>"#
        ), "{svg}");
        assert!(svg.contains(r##"<a class="move chooser" href="#choose-E3"><title>2 moves to E3: choose one</title>"##));
        assert!(svg.contains(r#"<g class="choices" id="choose-E3">"#));
        assert!(svg.contains(r#"value="F4-E5" title="Move the king on F4 to E5""#));
        // The mover's king and ringfort, hidden, for the script to draw on the chosen hill;
        // the hills name themselves for it.
        assert!(svg.contains(r##"<g id="own-piece" visibility="hidden"><g class="fort"><circle class="ringfort" cx="0" cy="0" r="18" fill="#c6d5f0""##), "{svg}");
        // The other side's ringfort, hidden, for the ringforts a move turns to that colour.
        assert!(svg.contains(r##"<g id="their-fort" visibility="hidden"><g class="fort"><circle class="ringfort" cx="0" cy="0" r="18" fill="#f3c9c2""##), "{svg}");
        // Both sides' bridges, hidden, for the bridges a move makes.
        assert!(svg.contains(r##"<g id="own-bridge" visibility="hidden"><line class="bridge" x1="0" y1="0" x2="0" y2="0" stroke="#1f4e9c""##), "{svg}");
        assert!(svg.contains(r##"<g id="their-bridge" visibility="hidden"><line class="bridge" x1="0" y1="0" x2="0" y2="0" stroke="#b3261e""##), "{svg}");
        assert!(svg.contains(r#"<g class="hill" data-hill="E5">"#));
        // The choices come after every hill: drawn over the board.
        assert!(svg.find(r#"class="choices""#) > svg.rfind(r#"class="hill""#));
        assert!(svg.contains("<title>A2: vacant</title>"));
    }

    #[test]
    fn escapes_text() {
        let view = TaraBoardView {
            title: "<script>".into(),
            hills: vec![HillView {
                note: Some("a&b".into()),
                links: vec![BoardLink {
                    play: "a&b=\"2\"".into(),
                    title: "<i>".into(),
                    tag: "<".into(),
                    ..BoardLink::default()
                }],
                ..hill_at("D4", 3, 3)
            }],
            bridges: vec![],
            ..TaraBoardView::default()
        };
        let svg = board(&view).into_string();
        assert!(svg.contains("<title>&lt;script&gt;</title>"));
        assert!(svg.contains("(a&amp;b)"));
        assert!(svg.contains(r#"value="a&amp;b=&quot;2&quot;""#));
        assert!(svg.contains(r#"title="&lt;i&gt;""#));
        assert!(!svg.contains("<script>"));
    }

    #[test]
    fn the_last_move_rings_its_hills_joins_them_with_a_line_and_says_so_in_their_titles() {
        let view = TaraBoardView {
            title: "Blue to move".into(),
            hills: vec![
                HillView {
                    ringfort: Some(Side::Red),
                    last: Some(LastMark::From),
                    ..hill_at("D4", 3, 3)
                },
                HillView {
                    ringfort: Some(Side::Red),
                    king: Some(Side::Red),
                    last: Some(LastMark::To),
                    ..hill_at("E6", 4, 5)
                },
                hill_at("A2", 0, 1),
            ],
            bridges: vec![],
            ..TaraBoardView::default()
        };
        let svg = board(&view).into_string();
        assert!(svg.contains(
            r#"<title>D4: Red ringfort — the last move left from here</title><circle cx="236" cy="236""#
        ), "{svg}");
        assert!(
            svg.contains("<title>E6: Red king on a Red ringfort — the last move went here</title>")
        );
        assert_eq!(
            svg.matches(r#"<circle class="last from" cx="236" cy="236""#)
                .count(),
            1
        );
        assert_eq!(
            svg.matches(r#"<circle class="last to" cx="296" cy="116""#)
                .count(),
            1
        );
        assert_eq!(
            svg.matches(r#"class="last"#).count(),
            3,
            "two rings and the line"
        );
        assert!(svg.contains(
            r##"<line class="last" x1="236" y1="236" x2="296" y2="116" fill="none" stroke="#c2185b" stroke-width="8" stroke-opacity="0.35" stroke-linecap="round"><title>The last move: D4 to E6</title></line>"##
        ));
        assert!(svg.contains("<title>A2: vacant</title>"));
    }

    #[test]
    fn a_placement_rings_its_hill_without_a_line() {
        let view = TaraBoardView {
            hills: vec![HillView {
                last: Some(LastMark::Placed),
                ..hill_at("D4", 3, 3)
            }],
            ..TaraBoardView::default()
        };
        let svg = board(&view).into_string();
        assert!(svg.contains("<title>D4: vacant — placed last</title>"));
        assert_eq!(svg.matches(r#"class="last"#).count(), 1);
        assert!(!svg.contains("<line"));
    }

    #[test]
    fn turned_half_a_turn_the_hills_and_labels_swap_ends_and_coordinates_can_go() {
        let view = TaraBoardView {
            hills: vec![HillView {
                ringfort: Some(Side::Red),
                ..hill_at("A1", 0, 0)
            }],
            ..TaraBoardView::default()
        };
        let upright = drawing(&view, Look::default()).body.into_string();
        let turned = drawing(
            &view,
            Look {
                flipped: true,
                coordinates: true,
            },
        )
        .body
        .into_string();
        // A1 is bottom left upright, top right turned.
        assert!(
            upright.contains(r#"<circle class="ringfort" cx="56" cy="416""#),
            "{upright}"
        );
        assert!(
            turned.contains(r#"<circle class="ringfort" cx="416" cy="56""#),
            "{turned}"
        );
        // The first column label drawn (on the left) names A upright, G turned.
        assert!(upright.contains(r#"text-anchor="middle">A</text>"#));
        assert!(turned.find(">G</text>") < turned.find(">A</text>"));
        let bare = drawing(
            &view,
            Look {
                flipped: false,
                coordinates: false,
            },
        )
        .body
        .into_string();
        assert!(!bare.contains("coord"));
    }

    #[test]
    fn the_hinted_hill_gets_a_blue_frame_and_says_so() {
        let view = TaraBoardView {
            hills: vec![HillView {
                hinted: true,
                ..hill_at("D4", 3, 3)
            }],
            ..TaraBoardView::default()
        };
        let svg = board(&view).into_string();
        assert!(
            svg.contains("<title>D4: vacant — the computer's hint</title>"),
            "{svg}"
        );
        assert_eq!(svg.matches(r#"<rect class="hint""#).count(), 1);
    }
}
