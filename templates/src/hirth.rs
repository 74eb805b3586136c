//! The board of Hirþ as inline SVG: the eleven spaces on two lanes joined by Miðr, the pieces
//! of each colour in every space (Lofðungr, Hirþ, Karves with their crews), the reserves,
//! attacks as arrows along the paths, and the spaces a click can move to linked.

use maud::{Markup, html};

use crate::drawing::{Drawing, Look, page_svg};
use crate::parts::{Badges, BoardLink, spot_links};

/// A player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Gull,
    Silfr,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Gull, Side::Silfr];

    pub fn word(self) -> &'static str {
        match self {
            Side::Gull => "Gull",
            Side::Silfr => "Silfr",
        }
    }

    fn ink(self) -> &'static str {
        match self {
            Side::Gull => "#a67c00",
            Side::Silfr => "#5b6670",
        }
    }

    fn tint(self) -> &'static str {
        match self {
            Side::Gull => "#f6e3a1",
            Side::Silfr => "#dde3e8",
        }
    }
}

/// Where a space is drawn: the north lane, the middle row (homes and Miðr), the south lane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lane {
    North,
    #[default]
    Middle,
    South,
}

/// One colour's pieces in one place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pieces {
    pub l: bool,
    /// The loose Hirþ (not aboard a Karve).
    pub h: u8,
    /// How many of `h` may take no further step this turn (H4).
    pub h_stopped: u8,
    /// The L is here and may take no further step this turn.
    pub l_stopped: bool,
    pub karves: Vec<KarveView>,
}

/// A Karve and the Hirþ aboard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KarveView {
    pub crew: u8,
    pub stopped: bool,
}

impl Pieces {
    pub fn is_empty(&self) -> bool {
        !self.l && self.h == 0 && self.karves.is_empty()
    }

    /// In words: `the Lofðungr, 3 Hirþ (1 stopped), a Karve with 2 Hirþ aboard`.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        if self.l {
            parts.push(format!(
                "the Lofðungr{}",
                if self.l_stopped { " (stopped)" } else { "" }
            ));
        }
        if self.h > 0 {
            let stopped = match self.h_stopped {
                0 => String::new(),
                n => format!(" ({n} stopped)"),
            };
            parts.push(format!("{} Hirþ{stopped}", self.h));
        }
        for k in &self.karves {
            parts.push(format!(
                "a Karve with {} Hirþ aboard{}",
                k.crew,
                if k.stopped { " (stopped)" } else { "" }
            ));
        }
        if parts.is_empty() {
            "nothing".into()
        } else {
            parts.join(", ")
        }
    }
}

/// One space of the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpaceView {
    /// The notation name (`m`).
    pub name: String,
    /// The name for people (`Miðr`).
    pub long_name: String,
    /// 0 (Gull's home) to 6 (Silfr's home), left to right.
    pub col: u8,
    pub lane: Lane,
    /// Gull's pieces, then Silfr's.
    pub pieces: [Pieces; 2],
    /// The legal moves a click on this space can say.
    pub links: Vec<BoardLink>,
    /// When the space is attacked: the power of all its attackers and of its defenders (H5).
    pub battle: Option<BattleView>,
    /// A word about the space the pieces cannot show (`Silfr's beaten L retreats from here`).
    pub note: Option<String>,
    /// Pieces left this space, or came to it, in the last turn.
    pub last_from: bool,
    pub last_to: bool,
}

/// The powers facing each other over an attacked space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BattleView {
    pub attack: u32,
    pub defence: u32,
}

/// Pieces of one colour attacking a space (H4), drawn as an arrow along the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackView {
    /// Index into the spaces; `None` when they enter from the reserve.
    pub from: Option<usize>,
    pub to: usize,
    pub side: Side,
    pub pieces: Pieces,
    pub power: u32,
}

/// A player's pieces off the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReserveView {
    pub h: u8,
    pub k: u8,
    /// Hirþ removed from the game for good.
    pub removed: u8,
    pub enter_h: Option<BoardLink>,
    pub enter_k: Option<BoardLink>,
}

/// Everything the picture shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HirthBoardView {
    /// The line above the board (`Gull to move · 3 steps left · worth ×2`).
    pub caption: String,
    pub spaces: Vec<SpaceView>,
    /// The paths between adjacent spaces, as pairs of indices into `spaces`.
    pub paths: Vec<(usize, usize)>,
    pub attacks: Vec<AttackView>,
    /// Gull's reserve, then Silfr's.
    pub reserves: [ReserveView; 2],
}

const LANE_W: f32 = 172.0;
const ROW_H: f32 = 126.0;
const BOX_W: f32 = 160.0;
const BOX_H: f32 = 92.0;
const TOP: f32 = 34.0;
const PAD: f32 = 8.0;
const WIDTH: f32 = PAD * 2.0 + LANE_W * 2.0 + BOX_W;
const HEIGHT: f32 = TOP + ROW_H * 6.0 + BOX_H + PAD;
/// A legal move's space: dark gold, at least 3.7:1 against the paper and the tints.
const HIGHLIGHT: &str = "#8c6400";
/// How far inside its box a space's last-turn mark is drawn.
const LAST_INSET: f32 = 4.0;

/// The centre of a space's box. The board stands upright so that it reads on a phone: Gull's
/// home at the bottom, Silfr's at the top, the north lane on the left.
fn centre(col: u8, lane: Lane) -> (f32, f32) {
    let lane = match lane {
        Lane::North => 0.0,
        Lane::Middle => 1.0,
        Lane::South => 2.0,
    };
    (
        PAD + BOX_W / 2.0 + LANE_W * lane,
        TOP + BOX_H / 2.0 + ROW_H * (6 - col.min(6)) as f32,
    )
}

/// Where a player's reserve is drawn: beside its home, in the south lane (turned: in the
/// north lane, on the other side).
fn reserve_centre(side: Side, turned: bool) -> (f32, f32) {
    let (col, lane) = match side {
        Side::Gull => (0, Lane::South),
        Side::Silfr => (6, Lane::South),
    };
    if turned {
        let (col, lane) = turn((col, lane));
        centre(col, lane)
    } else {
        centre(col, lane)
    }
}

/// A space's place turned half a turn: Silfr's home at the bottom, the lanes swapped.
fn turn((col, lane): (u8, Lane)) -> (u8, Lane) {
    let lane = match lane {
        Lane::North => Lane::South,
        Lane::Middle => Lane::Middle,
        Lane::South => Lane::North,
    };
    (6 - col.min(6), lane)
}

fn space_centre(view: &HirthBoardView, index: usize) -> Option<(f32, f32)> {
    view.spaces.get(index).map(|s| centre(s.col, s.lane))
}

/// Where the segment from `a` towards `b` leaves a box centred on `a` (grown by `grow`).
fn box_edge(a: (f32, f32), b: (f32, f32), grow: f32) -> (f32, f32) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let reach = |half: f32, d: f32| {
        if d == 0.0 {
            f32::INFINITY
        } else {
            (half + grow) / d.abs()
        }
    };
    let t = reach(BOX_W / 2.0, dx).min(reach(BOX_H / 2.0, dy)).min(1.0);
    (a.0 + dx * t, a.1 + dy * t)
}

fn hit_rect(x: f32, y: f32, w: f32, h: f32) -> Markup {
    html! { rect.hit x=(x) y=(y) width=(w) height=(h) rx="8" fill="#fff" fill-opacity="0" {} }
}

fn highlight(x: f32, y: f32, w: f32, h: f32) -> Markup {
    html! {
        rect.target x=(x - 3.0) y=(y - 3.0) width=(w + 6.0) height=(h + 6.0) rx="10" fill="none" stroke=(HIGHLIGHT) stroke-width="3" stroke-dasharray="8 4" {}
    }
}

/// A round piece for Gull, a square one for Silfr: gold and silver are alike in brightness,
/// so the sides differ by shape too, not by colour alone.
fn token(side: Side, class: &str, x: f32, y: f32, r: f32, fill: &str, stroke: &str) -> Markup {
    html! {
        @match side {
            Side::Gull => { circle class=(class) cx=(x) cy=(y) r=(r) fill=(fill) stroke=(stroke) stroke-width="2" {} }
            Side::Silfr => {
                @let half = r * 0.9;
                rect class=(class) x=(x - half) y=(y - half) width=(half * 2.0) height=(half * 2.0) rx="2" fill=(fill) stroke=(stroke) stroke-width="2" {}
            }
        }
    }
}

/// A boat; Silfr's has a white stripe along it (the side's cue besides colour).
fn karve_shape(side: Side, x: f32, y: f32) -> Markup {
    html! {
        path.karve d=(format!("M{x} {} h26 l-5 11 h-16 z", y - 5.0)) fill=(side.ink()) stroke="#1d1b18" {}
        @if side == Side::Silfr {
            line x1=(x + 4.0) y1=(y + 3.5) x2=(x + 22.0) y2=(y + 3.5) stroke="#fff" stroke-width="1.5" {}
        }
    }
}

fn hird_shape(side: Side, x: f32, y: f32) -> Markup {
    html! {
        (token(side, "hird", x, y, 10.0, side.tint(), side.ink()))
        text x=(x) y=(y + 4.5) text-anchor="middle" font-size="12" { "H" }
    }
}

/// How opaque a piece is drawn: stopped pieces (H4) are faded.
fn opacity(stopped: bool) -> &'static str {
    if stopped { "0.45" } else { "1" }
}

/// A row of piece symbols from (`x`, `y`): the Lofðungr, the Hirþ with their count, each Karve
/// with its crew. Pieces that have stopped for the turn are faded (the Hirþ when all have).
fn piece_row(side: Side, pieces: &Pieces, x: f32, y: f32) -> Markup {
    let h_at = x + if pieces.l { 28.0 } else { 0.0 };
    let k_at = h_at + if pieces.h > 0 { 50.0 } else { 0.0 };
    html! {
        g.pieces {
            title { (side.word()) ": " (pieces.words()) }
            @if pieces.l {
                g opacity=(opacity(pieces.l_stopped)) {
                    (token(side, "lofdungr", x + 12.0, y, 12.0, side.ink(), "#1d1b18"))
                    text x=(x + 12.0) y=(y + 5.0) text-anchor="middle" fill="#fff" font-weight="bold" font-size="14" { "L" }
                }
            }
            @if pieces.h > 0 {
                g opacity=(opacity(pieces.h_stopped >= pieces.h)) {
                    (hird_shape(side, h_at + 10.0, y))
                    text.count x=(h_at + 23.0) y=(y + 6.0) font-size="16" { "×" (pieces.h) }
                }
            }
            @for (i, k) in pieces.karves.iter().enumerate() {
                @let kx = k_at + 28.0 * i as f32;
                g opacity=(opacity(k.stopped)) {
                    (karve_shape(side, kx, y))
                    text x=(kx + 13.0) y=(y + 4.5) text-anchor="middle" fill="#fff" font-size="12" { (k.crew) }
                }
            }
        }
    }
}

fn space_title(view: &SpaceView) -> String {
    let held: Vec<String> = Side::BOTH
        .into_iter()
        .zip(&view.pieces)
        .filter(|(_, p)| !p.is_empty())
        .map(|(side, p)| format!("{} has {}", side.word(), p.words()))
        .collect();
    let mut title = if held.is_empty() {
        format!("{}: empty", view.long_name)
    } else {
        format!("{}: {}", view.long_name, held.join("; "))
    };
    if let Some(note) = &view.note {
        title.push_str(&format!(" ({note})"));
    }
    title.push_str(match (view.last_from, view.last_to) {
        (true, true) => " — last turn: pieces moved from and to here",
        (true, false) => " — last turn: pieces moved from here",
        (false, true) => " — last turn: pieces moved here",
        (false, false) => "",
    });
    title
}

/// The mark of a space the last turn used, inside its box: solid where pieces came, dotted
/// where they only left.
fn last_mark(view: &SpaceView, x: f32, y: f32) -> Markup {
    let (w, h) = (BOX_W - 2.0 * LAST_INSET, BOX_H - 2.0 * LAST_INSET);
    let (x, y) = (x + LAST_INSET, y + LAST_INSET);
    html! {
        @if view.last_to {
            rect.last.to x=(x) y=(y) width=(w) height=(h) rx="6" fill="none" stroke=(LAST) stroke-width="4" {}
        } @else if view.last_from {
            rect.last.from x=(x) y=(y) width=(w) height=(h) rx="6" fill="none" stroke=(LAST) stroke-width="2.5" stroke-dasharray="3 4" {}
        }
    }
}

fn space(view: &SpaceView) -> Markup {
    let (cx, cy) = centre(view.col, view.lane);
    let (x, y) = (cx - BOX_W / 2.0, cy - BOX_H / 2.0);
    let rows: Vec<(Side, &Pieces)> = Side::BOTH
        .into_iter()
        .zip(&view.pieces)
        .filter(|(_, p)| !p.is_empty())
        .collect();
    let fill = rows.first().map_or("#fffdf7", |(side, _)| side.tint());
    html! {
        g.space {
            title { (space_title(view)) }
            rect x=(x) y=(y) width=(BOX_W) height=(BOX_H) rx="8" fill=(fill) stroke="#6b645a" stroke-width="1.5" {}
            (last_mark(view, x, y))
            text.name x=(x + 7.0) y=(y + 17.0) font-size="12" {
                tspan font-weight="bold" font-size="15" { (view.name) } " " (view.long_name)
            }
            @for (i, (side, pieces)) in rows.iter().enumerate() {
                (piece_row(*side, pieces, x + 8.0, y + 40.0 + 28.0 * i as f32))
            }
            @if let Some(note) = &view.note {
                text.note x=(cx) y=(y + BOX_H - 10.0) text-anchor="middle" font-size="12" font-style="italic" { (note) }
            }
            @if let Some(battle) = view.battle {
                g.battle {
                    title { "Battle here: attack " (battle.attack) " against defence " (battle.defence) }
                    rect x=(x + BOX_W - 62.0) y=(y + 27.0) width="56" height="24" rx="5" fill="#fff" stroke="#b3261e" stroke-width="2" {}
                    text x=(x + BOX_W - 34.0) y=(y + 44.0) text-anchor="middle" font-size="15" font-weight="bold" fill="#b3261e" {
                        "⚔" (battle.attack) ":" (battle.defence)
                    }
                }
            }
            @if !view.links.is_empty() {
                (highlight(x, y, BOX_W, BOX_H))
            }
        }
    }
}

/// The links of a space, drawn above everything else so that badges are never covered.
fn space_links(view: &SpaceView) -> Markup {
    let (cx, cy) = centre(view.col, view.lane);
    let (x, y) = (cx - BOX_W / 2.0, cy - BOX_H / 2.0);
    let mut badges = Badges {
        x: cx,
        y: 0.0,
        width: 50.0,
        height: 20.0,
        per_row: 3,
    };
    // Rows of badges grow upwards from the bottom of the box.
    badges.y = y + BOX_H - 4.0 - badges.rows(view.links.len()) as f32 * (badges.height + 2.0);
    spot_links(&view.links, hit_rect(x, y, BOX_W, BOX_H), &badges)
}

fn arrow(view: &HirthBoardView, attack: &AttackView, turned: bool) -> Markup {
    let Some(to) = space_centre(view, attack.to) else {
        return html! {};
    };
    let side = attack.side;
    // From off the board: out of the reserve beside the home.
    let from = match attack.from {
        Some(i) => space_centre(view, i).unwrap_or(to),
        None => reserve_centre(side, turned),
    };
    let start = box_edge(from, to, 0.0);
    let end = box_edge(to, from, 1.0);
    let (dx, dy) = (end.0 - start.0, end.1 - start.1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let head = format!(
        "{},{} {},{} {},{}",
        end.0,
        end.1,
        end.0 - 16.0 * ux - 8.0 * uy,
        end.1 - 16.0 * uy + 8.0 * ux,
        end.0 - 16.0 * ux + 8.0 * uy,
        end.1 - 16.0 * uy - 8.0 * ux,
    );
    let target = view
        .spaces
        .get(attack.to)
        .map_or("?", |s| s.long_name.as_str());
    let origin = match attack.from.and_then(|i| view.spaces.get(i)) {
        Some(s) => format!("from {}", s.long_name),
        None => "from the reserve".to_string(),
    };
    html! {
        g.attack {
            title {
                (side.word()) " attacks " (target) " " (origin) " with " (attack.pieces.words())
                " (power " (attack.power) ")"
            }
            line x1=(start.0) y1=(start.1) x2=(end.0 - 12.0 * ux) y2=(end.1 - 12.0 * uy) stroke=(side.ink()) stroke-width="7" {}
            polygon points=(head) fill=(side.ink()) stroke="#1d1b18" {}
        }
    }
}

/// The two chips of a reserve, H then K: their top-left corners and links.
fn reserve_chips(
    side: Side,
    reserve: &ReserveView,
    turned: bool,
) -> [(f32, f32, &Option<BoardLink>); 2] {
    let (cx, cy) = reserve_centre(side, turned);
    let (x, y) = (cx - BOX_W / 2.0, cy - BOX_H / 2.0);
    [
        (x + 6.0, y + 24.0, &reserve.enter_h),
        (x + 82.0, y + 24.0, &reserve.enter_k),
    ]
}

const CHIP_W: f32 = 72.0;
const CHIP_H: f32 = 36.0;

fn reserve(side: Side, reserve: &ReserveView, turned: bool) -> Markup {
    let (cx, cy) = reserve_centre(side, turned);
    let (x, y) = (cx - BOX_W / 2.0, cy - BOX_H / 2.0);
    let [(hx, hy, enter_h), (kx, ky, enter_k)] = reserve_chips(side, reserve, turned);
    html! {
        g.reserve {
            title {
                (side.word()) "'s reserve: " (reserve.h) " Hirþ, " (reserve.k) " Karves; "
                (reserve.removed) " Hirþ removed from the game"
            }
            rect x=(x) y=(y) width=(BOX_W) height=(BOX_H) rx="8" fill="none" stroke=(side.ink()) stroke-width="1.5" stroke-dasharray="5 3" {}
            text x=(x + 7.0) y=(y + 17.0) font-size="13" font-weight="bold" { (side.word()) " reserve" }
            (hird_shape(side, hx + 14.0, hy + CHIP_H / 2.0))
            text x=(hx + 28.0) y=(hy + CHIP_H / 2.0 + 6.0) font-size="16" { "×" (reserve.h) }
            (karve_shape(side, kx + 4.0, hy + CHIP_H / 2.0))
            text x=(kx + 34.0) y=(ky + CHIP_H / 2.0 + 6.0) font-size="16" { "×" (reserve.k) }
            @if enter_h.is_some() { (highlight(hx, hy, CHIP_W, CHIP_H)) }
            @if enter_k.is_some() { (highlight(kx, ky, CHIP_W, CHIP_H)) }
            text x=(x + 7.0) y=(y + BOX_H - 9.0) font-size="13" fill="#6b645a" { (reserve.removed) " H out of the game" }
        }
    }
}

fn reserve_links(side: Side, reserve: &ReserveView, turned: bool) -> Markup {
    let badges = Badges {
        x: 0.0,
        y: 0.0,
        width: 0.0,
        height: 0.0,
        per_row: 1,
    };
    html! {
        @for (x, y, link) in reserve_chips(side, reserve, turned) {
            @if let Some(link) = link {
                (spot_links(std::slice::from_ref(link), hit_rect(x, y, CHIP_W, CHIP_H), &badges))
            }
        }
    }
}

/// What the last move did, on every board.
const LAST: &str = "#c2185b";

impl HirthBoardView {
    /// The same board turned half a turn: Silfr's home at the bottom.
    fn turned(&self) -> HirthBoardView {
        HirthBoardView {
            spaces: self
                .spaces
                .iter()
                .map(|s| {
                    let (col, lane) = turn((s.col, s.lane));
                    SpaceView {
                        col,
                        lane,
                        ..s.clone()
                    }
                })
                .collect(),
            ..self.clone()
        }
    }
}

/// The board as a page shows it, with its links.
pub fn board(view: &HirthBoardView) -> Markup {
    page_svg(&drawing(view, Look::default()))
}

/// The board, self-contained. Hirþ has no coordinates: its spaces carry their names.
pub fn drawing(view: &HirthBoardView, look: Look) -> Drawing {
    let turned = look.flipped;
    let view = &*look.orient(view, HirthBoardView::turned);
    let body = html! {
        text.caption x=(PAD) y="22" font-size="16" { (view.caption) }
        @for &(a, b) in &view.paths {
            @if let (Some(p), Some(q)) = (space_centre(view, a), space_centre(view, b)) {
                line.path x1=(p.0) y1=(p.1) x2=(q.0) y2=(q.1) stroke="#c8bda6" stroke-width="14" stroke-linecap="round" {}
            }
        }
        @for s in &view.spaces { (space(s)) }
        @for (side, r) in Side::BOTH.into_iter().zip(&view.reserves) { (reserve(side, r, turned)) }
        @for attack in &view.attacks { (arrow(view, attack, turned)) }
        @for s in &view.spaces { (space_links(s)) }
        @for (side, r) in Side::BOTH.into_iter().zip(&view.reserves) { (reserve_links(side, r, turned)) }
    };
    Drawing {
        title: format!("Hirþ board: {}", view.caption),
        class: "hirth",
        width: WIDTH,
        height: HEIGHT,
        controls: view
            .spaces
            .iter()
            .flat_map(|s| &s.links)
            .chain(
                view.reserves
                    .iter()
                    .flat_map(|r| r.enter_h.iter().chain(&r.enter_k)),
            )
            .any(|l| !l.href.is_empty()),
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(tag: &str) -> BoardLink {
        BoardLink {
            href: format!("/play/hirth?m={tag}"),
            title: format!("do {tag}"),
            tag: tag.into(),
        }
    }

    fn two_spaces() -> HirthBoardView {
        HirthBoardView {
            caption: "Gull to move · 5 steps left".into(),
            spaces: vec![
                SpaceView {
                    name: "0".into(),
                    long_name: "Gull's home".into(),
                    col: 0,
                    lane: Lane::Middle,
                    pieces: [
                        Pieces {
                            l: true,
                            h: 3,
                            h_stopped: 1,
                            karves: vec![KarveView {
                                crew: 2,
                                stopped: false,
                            }],
                            ..Pieces::default()
                        },
                        Pieces::default(),
                    ],
                    links: vec![],
                    battle: None,
                    note: None,
                    last_from: false,
                    last_to: false,
                },
                SpaceView {
                    name: "1".into(),
                    long_name: "Gull Norðr Delta".into(),
                    col: 1,
                    lane: Lane::North,
                    pieces: [
                        Pieces::default(),
                        Pieces {
                            h: 2,
                            ..Pieces::default()
                        },
                    ],
                    links: vec![link("L01")],
                    battle: None,
                    note: None,
                    last_from: false,
                    last_to: false,
                },
            ],
            paths: vec![(0, 1)],
            attacks: vec![],
            reserves: [
                ReserveView {
                    h: 11,
                    k: 2,
                    removed: 1,
                    enter_h: Some(link("He")),
                    enter_k: None,
                },
                ReserveView {
                    h: 13,
                    k: 3,
                    ..ReserveView::default()
                },
            ],
        }
    }

    #[test]
    fn draws_the_pieces_of_each_space_with_counts_and_crews() {
        let svg = board(&two_spaces()).into_string();
        assert!(svg.contains(r#"viewBox="0 0 520 890""#), "{svg}");
        assert!(svg.contains(
            "<title>Gull: the Lofðungr, 3 Hirþ (1 stopped), a Karve with 2 Hirþ aboard</title>"
        ));
        assert!(svg.contains("<title>Gull Norðr Delta: Silfr has 2 Hirþ</title>"));
        assert!(svg.contains(">×3</text>") && svg.contains(">×2</text>"));
        assert_eq!(svg.matches(r#"class="lofdungr""#).count(), 1);
        // Only 1 of the 3 Hirþ on 0 has stopped: nothing is faded.
        assert!(!svg.contains(r#"opacity="0.45""#));
        // One Karve on 0, and the symbol of each reserve.
        assert_eq!(svg.matches(r#"class="karve""#).count(), 1 + 2);
        assert!(svg.contains(r#"class="path""#));
        // Each space is tinted with the colour of the player holding it.
        assert!(svg.contains(r##"width="160" height="92" rx="8" fill="#f6e3a1""##));
        assert!(svg.contains(r##"width="160" height="92" rx="8" fill="#dde3e8""##));
        assert!(svg.contains(r##"class="lofdungr" cx="200" cy="830" r="12" fill="#a67c00""##));
        assert!(svg.contains(
            "<title>Gull's reserve: 11 Hirþ, 2 Karves; 1 Hirþ removed from the game</title>"
        ));
        assert!(svg.contains(">Gull to move · 5 steps left</text>"));
    }

    #[test]
    fn links_spaces_and_reserve_chips_with_moves() {
        let svg = board(&two_spaces()).into_string();
        assert_eq!(svg.matches("<a ").count(), 2);
        assert!(svg.contains(r#"<a class="move" href="/play/hirth?m=L01"><title>do L01</title>"#));
        assert!(svg.contains(r#"<a class="move" href="/play/hirth?m=He"><title>do He</title>"#));
        // The space with a move and the reserve's H chip are highlighted, nothing else.
        assert_eq!(svg.matches(r#"class="target""#).count(), 2);
    }

    #[test]
    fn draws_attacks_as_arrows_with_their_power() {
        let mut view = two_spaces();
        view.attacks = vec![
            AttackView {
                from: Some(0),
                to: 1,
                side: Side::Gull,
                pieces: Pieces {
                    l: true,
                    h: 1,
                    ..Pieces::default()
                },
                power: 2,
            },
            AttackView {
                from: None,
                to: 0,
                side: Side::Silfr,
                pieces: Pieces {
                    h: 1,
                    ..Pieces::default()
                },
                power: 1,
            },
        ];
        let svg = board(&view).into_string();
        assert_eq!(svg.matches(r#"class="attack""#).count(), 2);
        assert!(svg.contains(
            "<title>Gull attacks Gull Norðr Delta from Gull's home with the Lofðungr, 1 Hirþ (power 2)</title>"
        ));
        assert!(svg.contains(
            "<title>Silfr attacks Gull's home from the reserve with 1 Hirþ (power 1)</title>"
        ));
    }

    #[test]
    fn stopped_pieces_are_faded() {
        let mut view = two_spaces();
        view.spaces[0].pieces[0] = Pieces {
            l: true,
            l_stopped: true,
            h: 2,
            h_stopped: 2,
            karves: vec![
                KarveView {
                    crew: 1,
                    stopped: true,
                },
                KarveView {
                    crew: 0,
                    stopped: false,
                },
            ],
        };
        let svg = board(&view).into_string();
        // The L, the Hirþ (all stopped) and one Karve; the other Karve may still move.
        assert_eq!(svg.matches(r#"<g opacity="0.45">"#).count(), 3);
        // Drawn in full: that Karve, and Silfr's Hirþ on 1.
        assert_eq!(svg.matches(r#"<g opacity="1">"#).count(), 2);
        assert!(svg.contains(
            "the Lofðungr (stopped), 2 Hirþ (2 stopped), a Karve with 1 Hirþ aboard (stopped)"
        ));
    }

    #[test]
    fn an_attacked_space_shows_attack_against_defence() {
        let mut view = two_spaces();
        view.spaces[1].battle = Some(BattleView {
            attack: 3,
            defence: 2,
        });
        let svg = board(&view).into_string();
        assert_eq!(svg.matches(r#"class="battle""#).count(), 1);
        assert!(svg.contains("<title>Battle here: attack 3 against defence 2</title>"));
        assert!(svg.contains(">⚔3:2</text>"));
    }

    #[test]
    fn a_note_is_written_in_the_space_and_its_title() {
        let mut view = two_spaces();
        view.spaces[1].note = Some("the L <retreats>".into());
        let svg = board(&view).into_string();
        assert!(svg.contains(">the L &lt;retreats&gt;</text>"));
        assert!(svg.contains(
            "<title>Gull Norðr Delta: Silfr has 2 Hirþ (the L &lt;retreats&gt;)</title>"
        ));
    }

    #[test]
    fn the_spaces_the_last_turn_used_are_marked_inside_their_box_and_named_in_their_titles() {
        let mut view = two_spaces();
        assert!(!board(&view).into_string().contains("last"), "no turn yet");
        view.spaces[0].last_from = true;
        view.spaces[1].last_to = true;
        let svg = board(&view).into_string();
        assert!(svg.contains(
            r##"<title>Gull's home: Gull has the Lofðungr, 3 Hirþ (1 stopped), a Karve with 2 Hirþ aboard — last turn: pieces moved from here</title><rect x="180" y="790" width="160" height="92" rx="8" fill="#f6e3a1" stroke="#6b645a" stroke-width="1.5"></rect><rect class="last from" x="184" y="794" width="152" height="84""##
        ), "{svg}");
        assert!(svg.contains(
            "<title>Gull Norðr Delta: Silfr has 2 Hirþ — last turn: pieces moved here</title>"
        ));
        assert_eq!(svg.matches(r#"class="last from""#).count(), 1);
        assert_eq!(svg.matches(r#"class="last to""#).count(), 1);
        view.spaces[1].last_from = true;
        let svg = board(&view).into_string();
        assert!(
            svg.contains("Silfr has 2 Hirþ — last turn: pieces moved from and to here</title>")
        );
        assert_eq!(
            svg.matches(r#"class="last from""#).count(),
            1,
            "only space 0 just left"
        );
        // The link on 1 is still drawn over everything, after the marks.
        assert!(svg.rfind(r#"class="last"#) < svg.find(r#"<a class="move""#));
    }

    #[test]
    fn the_sides_differ_by_shape_not_only_colour_gull_round_silfr_square() {
        let mut view = two_spaces();
        view.spaces[1].pieces[1].l = true;
        let svg = board(&view).into_string();
        assert!(svg.contains(r#"<circle class="lofdungr""#), "{svg}");
        assert!(svg.contains(r#"<rect class="lofdungr""#), "{svg}");
        assert!(svg.contains(r#"<circle class="hird""#));
        assert!(svg.contains(r#"<rect class="hird""#));
    }

    #[test]
    fn a_board_with_moves_is_a_group_of_controls_and_one_without_an_image() {
        let svg = board(&two_spaces()).into_string();
        assert!(svg.contains(r#"role="group""#) && !svg.contains(r#"role="img""#));
        let mut view = two_spaces();
        view.spaces[1].links.clear();
        view.reserves[0].enter_h = None;
        assert!(board(&view).into_string().contains(r#"role="img""#));
    }

    #[test]
    fn escapes_text() {
        let mut view = two_spaces();
        view.caption = "<b>".into();
        view.spaces[0].long_name = "a&b".into();
        let svg = board(&view).into_string();
        assert!(svg.contains("&lt;b&gt;"));
        assert!(svg.contains("a&amp;b: Gull has"));
        assert!(!svg.contains("<b>"));
    }

    #[test]
    fn turned_half_a_turn_silfr_s_home_and_reserve_come_to_the_bottom() {
        let view = two_spaces();
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
        // Gull's home (column 0, middle) is at the bottom upright, at the top turned.
        assert!(
            upright.contains(
                r##"<rect x="180" y="790" width="160" height="92" rx="8" fill="#f6e3a1""##
            ),
            "{upright}"
        );
        assert!(
            turned.contains(
                r##"<rect x="180" y="34" width="160" height="92" rx="8" fill="#f6e3a1""##
            ),
            "{turned}"
        );
        assert_ne!(upright, turned);
    }
}
