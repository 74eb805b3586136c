//! The board of Hirþ as inline SVG: the eleven spaces on two lanes joined by Miðr, the pieces
//! of each colour in every space (Lofðungr, Hirþ, Karves with their crews), the reserves,
//! attacks as arrows along the paths, and the spaces a click can move to linked.

use maud::{Markup, html};

use crate::drawing::{Drawing, Look, page_svg};
use crate::fit;
use crate::parts::{
    Badges, BoardLink, Choice, Refusal, choice_link, choice_overlay, live, spot_links,
};

/// A player's colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// Gull, drawn in gold.
    #[default]
    Gull,
    /// Silfr, drawn in silver grey.
    Silfr,
}

impl Side {
    /// Both colours, Gull first: the order of the views' per-colour pairs.
    pub const BOTH: [Side; 2] = [Side::Gull, Side::Silfr];

    /// The colour's name in words for people (`Gull`).
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
    /// The north lane (spaces 1, 3, 5, 7), drawn on the left.
    North,
    /// The middle row: the two homes and Miðr.
    #[default]
    Middle,
    /// The south lane (spaces 2, 4, 6, 8), drawn on the right.
    South,
}

/// One colour's pieces in one place.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pieces {
    /// The Lofðungr stands here (stopped or not).
    pub l: bool,
    /// The loose Hirþ (not aboard a Karve).
    pub h: u8,
    /// How many of `h` may take no further step this turn (H4).
    pub h_stopped: u8,
    /// The L is here and may take no further step this turn.
    pub l_stopped: bool,
    /// The Karves here, each with its crew.
    pub karves: Vec<KarveView>,
}

/// A Karve and the Hirþ aboard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KarveView {
    /// The Hirþ aboard (0–4), shown on the Karve.
    pub crew: u8,
    /// The Karve, and its crew with it, may take no further step this turn (H4).
    pub stopped: bool,
}

impl Pieces {
    /// Whether there is nothing to draw: no Lofðungr, Hirþ or Karve.
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
    /// 0 (Gull's home) to 6 (Silfr's home): the row of its box, from the bottom of the
    /// upright board.
    pub col: u8,
    /// The lane or row the space's box is drawn in.
    pub lane: Lane,
    /// Gull's pieces, then Silfr's.
    pub pieces: [Pieces; 2],
    /// The legal moves a click on this space can say.
    pub links: Vec<BoardLink>,
    /// When the space is attacked: the power of all its attackers and of its defenders (H5).
    pub battle: Option<BattleView>,
    /// A word about the space the pieces cannot show (`Silfr's beaten L retreats from here`).
    pub note: Option<String>,
    /// Pieces left this space in the last turn: a dotted frame inside its box.
    pub last_from: bool,
    /// Pieces came to this space in the last turn: a solid frame inside its box.
    pub last_to: bool,
    /// The space is empty but still this side's: all its pieces stand on attack lines out of
    /// it, and keep controlling it (H4).
    pub held_from_lines: Option<Side>,
    /// This side's Lofðungr, beaten here, waits to retreat (H7): it stands on no space until
    /// its owner chooses where.
    pub beaten_l: Option<Side>,
    /// The computer's hint ends here.
    pub hinted: bool,
    /// Why no step ends here, when the player has steps elsewhere: a tap says it.
    pub refusal: Option<Refusal>,
}

/// The powers facing each other over an attacked space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BattleView {
    /// The power of all the space's attackers (H5).
    pub attack: u32,
    /// The power of its defenders (H5).
    pub defence: u32,
}

/// Pieces of one colour attacking a space (H4), drawn as an arrow along the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackView {
    /// Index into the spaces; `None` when they enter from the reserve.
    pub from: Option<usize>,
    /// The attacked space, as an index into the board's spaces.
    pub to: usize,
    /// The attackers' colour: the arrow's.
    pub side: Side,
    /// The pieces on the line, drawn halfway along the arrow.
    pub pieces: Pieces,
    /// Their power (H5), given in the arrow's title.
    pub power: u32,
}

/// A player's pieces off the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReserveView {
    /// Hirþ in reserve, shown as `×n` beside a Hirþ.
    pub h: u8,
    /// Karves in reserve, shown as `×n` beside a Karve.
    pub k: u8,
    /// Hirþ removed from the game for good.
    pub removed: u8,
    /// The move that enters a Hirþ from the reserve (H3), when legal: the reserve's H half is
    /// its button.
    pub enter_h: Option<BoardLink>,
    /// The move that enters a Karve from the reserve (H3), when legal: the reserve's K half is
    /// its button.
    pub enter_k: Option<BoardLink>,
    /// The computer's hint enters an H (`Some(false)`) or a Karve (`Some(true)`).
    pub hinted: Option<bool>,
}

/// Everything the picture shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HirthBoardView {
    /// The line above the board (`Gull to move · 3 steps left · worth ×2`).
    pub caption: String,
    /// The eleven spaces (H1), each with its pieces, links and marks.
    pub spaces: Vec<SpaceView>,
    /// The paths between adjacent spaces, as pairs of indices into `spaces`.
    pub paths: Vec<(usize, usize)>,
    /// The attacks of the movement phase under way, drawn as arrows.
    pub attacks: Vec<AttackView>,
    /// Gull's reserve, then Silfr's.
    pub reserves: [ReserveView; 2],
    /// The colour moving now: a phone shows the end of the board where its home and reserve
    /// are drawn first.
    pub mover: Side,
}

const LANE_W: f32 = 172.0;
/// Rows leave a band between them wide enough for the pieces standing on attack lines.
const ROW_H: f32 = 168.0;
const BOX_W: f32 = 160.0;
/// Tall enough that two rows of badges are each 44 px high on a 390 px phone.
const BOX_H: f32 = 128.0;
/// The caption takes up to two lines above the board.
const CAPTION_SIZE: f32 = 15.0;
const TOP: f32 = 52.0;
const PAD: f32 = 8.0;
const WIDTH: f32 = PAD * 2.0 + LANE_W * 2.0 + BOX_W;
const HEIGHT: f32 = TOP + ROW_H * 6.0 + BOX_H + PAD;
/// A legal move's space: dark gold, at least 3.7:1 against the paper and the tints.
const HIGHLIGHT: &str = "#8c6400";
/// The computer's hint: blue, apart from the moves' gold and the last turn's magenta.
const HINT: &str = "#1a56a8";
/// How far inside its box a space's last-turn mark is drawn.
const LAST_INSET: f32 = 4.0;
/// The size of the words in a box.
const NAME_SIZE: f32 = 13.0;
/// The size of the moves' tags on a space's badges.
const TAG_SIZE: f32 = 12.0;
/// Where the first row of a space's badges has its tags, under the space's name: the pieces
/// move down by `TAG_BAND` to keep clear of them.
const TAG_TOP: f32 = 24.0;
const TAG_BAND: f32 = 14.0;
const NOTE_SIZE: f32 = 12.0;

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

/// The computer's hint around a box: a solid blue frame outside the moves' dashed one.
fn hint_frame(x: f32, y: f32, w: f32, h: f32) -> Markup {
    html! {
        rect.hint x=(x - 7.0) y=(y - 7.0) width=(w + 14.0) height=(h + 14.0) rx="12" fill="none" stroke=(HINT) stroke-width="4" {
            title { "The computer's hint" }
        }
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

/// A boat 36 wide from `x`, its deck at `y`; Silfr's has a white stripe along it (the side's
/// cue besides colour).
fn karve_shape(side: Side, x: f32, y: f32) -> Markup {
    html! {
        path.karve d=(format!("M{x} {} h36 l-7 15 h-22 z", y - 7.0)) fill=(side.ink()) stroke="#1d1b18" {}
        @if side == Side::Silfr {
            line x1=(x + 5.0) y1=(y + 5.0) x2=(x + 31.0) y2=(y + 5.0) stroke="#fff" stroke-width="1.5" {}
        }
    }
}

fn hird_shape(side: Side, x: f32, y: f32) -> Markup {
    html! {
        (token(side, "hird", x, y, 11.0, side.tint(), side.ink()))
        text x=(x) y=(y + 4.5) text-anchor="middle" font-size="12" { "H" }
    }
}

/// How opaque a piece is drawn: stopped pieces (H4) are faded.
fn opacity(stopped: bool) -> &'static str {
    if stopped { "0.45" } else { "1" }
}

/// The room a row of pieces takes: the Lofðungr, the Hirþ with their count, each Karve.
const L_ROOM: f32 = 30.0;
const H_ROOM: f32 = 56.0;
const K_ROOM: f32 = 40.0;

fn row_width(pieces: &Pieces) -> f32 {
    (if pieces.l { L_ROOM } else { 0.0 })
        + (if pieces.h > 0 { H_ROOM } else { 0.0 })
        + K_ROOM * pieces.karves.len() as f32
}

/// A row of piece symbols from (`x`, `y`), at most `max` wide (a longer row is drawn smaller):
/// the Lofðungr, the Hirþ with their count, each Karve with its crew. Pieces that have stopped
/// for the turn are faded (the Hirþ when all have).
fn piece_row(side: Side, pieces: &Pieces, x: f32, y: f32, max: f32) -> Markup {
    let scale = (max / row_width(pieces).max(1.0)).min(1.0);
    // Drawn where they stand; a row too long shrinks towards its start.
    let shrink = (scale < 1.0)
        .then(|| format!("translate({x} {y}) scale({scale}) translate({} {})", -x, -y));
    let h_at = x + if pieces.l { L_ROOM } else { 0.0 };
    let k_at = h_at + if pieces.h > 0 { H_ROOM } else { 0.0 };
    html! {
        g.pieces transform=[shrink] {
            title { (side.word()) ": " (pieces.words()) }
            @if pieces.l {
                g opacity=(opacity(pieces.l_stopped)) {
                    (token(side, "lofdungr", x + 13.0, y, 13.0, side.ink(), "#1d1b18"))
                    text x=(x + 13.0) y=(y + 5.0) text-anchor="middle" fill="#fff" font-weight="bold" font-size="14" { "L" }
                }
            }
            @if pieces.h > 0 {
                g opacity=(opacity(pieces.h_stopped >= pieces.h)) {
                    (hird_shape(side, h_at + 11.0, y))
                    text.count x=(h_at + 25.0) y=(y + 6.0) font-size="16" { "×" (pieces.h) }
                }
            }
            @for (i, k) in pieces.karves.iter().enumerate() {
                @let kx = k_at + K_ROOM * i as f32;
                g opacity=(opacity(k.stopped)) {
                    (karve_shape(side, kx, y))
                    text.crew x=(kx + 18.0) y=(y + 5.0) text-anchor="middle" fill="#fff" font-size="13" font-weight="bold" { (k.crew) }
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
    if let Some(side) = view.held_from_lines {
        title.push_str(&format!(
            "; still {}'s: its pieces attack from here",
            side.word()
        ));
    }
    if let Some(side) = view.beaten_l {
        title.push_str(&format!(
            "; {}'s beaten Lofðungr waits here to retreat",
            side.word()
        ));
    }
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

/// A box's tint: its holder's, also when the holder's pieces all stand on lines out of it.
fn space_fill(view: &SpaceView) -> &'static str {
    Side::BOTH
        .into_iter()
        .zip(&view.pieces)
        .find(|(_, p)| !p.is_empty())
        .map(|(side, _)| side)
        .or(view.held_from_lines)
        .map_or("#fffdf7", Side::tint)
}

fn space(view: &SpaceView) -> Markup {
    let (cx, cy) = centre(view.col, view.lane);
    let (x, y) = (cx - BOX_W / 2.0, cy - BOX_H / 2.0);
    let rows: Vec<(Side, &Pieces)> = Side::BOTH
        .into_iter()
        .zip(&view.pieces)
        .filter(|(_, p)| !p.is_empty())
        .collect();
    // The words at the foot of the box: the note, beside the battle's powers when there is one.
    let foot = BOX_W - 14.0 - if view.battle.is_some() { 62.0 } else { 0.0 };
    let beaten_row = if view.beaten_l.is_some() { 1.0 } else { 0.0 };
    // The band of the first row's tags, when the space's moves take two rows of badges.
    let band = if tags_on_top(view) { TAG_BAND } else { 0.0 };
    let y_rows = y + band;
    html! {
        g.space data-space=(view.name)
            data-why=[view.refusal.as_ref().map(|r| &r.why)]
            data-rule=[view.refusal.as_ref().map(|r| &r.rule_href)]
            data-rule-words=[view.refusal.as_ref().map(|r| &r.rule_words)] {
            title { (space_title(view)) }
            rect x=(x) y=(y) width=(BOX_W) height=(BOX_H) rx="8" fill=(space_fill(view)) stroke="#6b645a" stroke-width="1.5" {}
            (last_mark(view, x, y))
            g.name font-weight="bold" {
                (fit::line(&format!("{} {}", view.name, view.long_name), x + 7.0, y + 18.0, NAME_SIZE, BOX_W - 14.0, "start"))
            }
            @if let Some(side) = view.held_from_lines {
                // Empty of pieces (they stand on lines), so the words have the box's middle.
                g.held font-style="italic" fill=(side.ink()) {
                    @for (i, words) in fit::wrap(&format!("{}'s: its pieces attack from here", side.word()), NOTE_SIZE, BOX_W - 14.0).iter().enumerate() {
                        (fit::line(words, x + 7.0, y_rows + 46.0 + 16.0 * i as f32, NOTE_SIZE, BOX_W - 14.0, "start"))
                    }
                }
            }
            @if let Some(side) = view.beaten_l {
                g.beaten {
                    title { (side.word()) "'s beaten Lofðungr, waiting to retreat" }
                    g opacity="0.6" {
                        (token(side, "lofdungr beaten", x + 21.0, y_rows + 44.0, 13.0, side.ink(), "#b3261e"))
                    }
                    text x=(x + 21.0) y=(y_rows + 49.0) text-anchor="middle" fill="#fff" font-weight="bold" font-size="14" { "L" }
                    text x=(x + 40.0) y=(y_rows + 48.0) font-size=(NOTE_SIZE) fill="#b3261e" font-weight="bold" { "beaten: retreats" }
                }
            }
            @for (i, (side, pieces)) in rows.iter().enumerate() {
                (piece_row(*side, pieces, x + 8.0, y_rows + 44.0 + 30.0 * (i as f32 + beaten_row), BOX_W - 16.0))
            }
            @if let Some(note) = &view.note {
                g.note font-style="italic" {
                    (fit::line(note, x + 7.0, y + BOX_H - 10.0, NOTE_SIZE, foot, "start"))
                }
            }
            @if let Some(battle) = view.battle {
                g.battle {
                    title { "Battle here: attack " (battle.attack) " against defence " (battle.defence) }
                    rect x=(x + BOX_W - 62.0) y=(y + BOX_H - 30.0) width="56" height="24" rx="5" fill="#fff" stroke="#b3261e" stroke-width="2" {}
                    text x=(x + BOX_W - 34.0) y=(y + BOX_H - 13.0) text-anchor="middle" font-size="15" font-weight="bold" fill="#b3261e" {
                        "⚔" (battle.attack) ":" (battle.defence)
                    }
                }
            }
            @if !view.links.is_empty() {
                (highlight(x, y, BOX_W, BOX_H))
            }
            @if view.hinted {
                (hint_frame(x, y, BOX_W, BOX_H))
            }
        }
    }
}

/// The links of a space, drawn above everything else so that badges are never covered: one
/// link takes the whole box, several share it (two a row).
fn space_links(view: &SpaceView) -> Markup {
    let (cx, cy) = centre(view.col, view.lane);
    let (x, y) = (cx - BOX_W / 2.0, cy - BOX_H / 2.0);
    let badges = Badges {
        x,
        y,
        width: BOX_W,
        height: BOX_H,
        per_row: BADGES_PER_ROW,
        font: TAG_SIZE,
        first_row_tags: Some(TAG_TOP),
    };
    if crowded(view) {
        return choice_link(
            &view.links,
            hit_rect(x, y, BOX_W, BOX_H),
            &choice(view),
            (cx, y + BOX_H - 8.0, 12.0),
        );
    }
    spot_links(&view.links, &badges)
}

/// A space with more moves on a page than two rows of badges a finger can take: it opens a
/// choice instead (a picture keeps its badges).
fn crowded(view: &SpaceView) -> bool {
    view.links.len() > 2 * BADGES_PER_ROW && live(&view.links)
}

/// A space's badges, two a row: each a finger's width on a phone.
const BADGES_PER_ROW: usize = 2;

/// Whether the space's moves are badges in more than one row: the first row's tags then sit
/// under its name, where a tag at the row's foot would cover the pieces.
fn tags_on_top(view: &SpaceView) -> bool {
    view.links.len() > BADGES_PER_ROW && !crowded(view)
}

fn choice(view: &SpaceView) -> Choice<'_> {
    Choice {
        id: &view.name,
        name: &view.long_name,
        board: (WIDTH, HEIGHT),
        row: 72.0,
    }
}

/// An attack line with its power and the pieces standing on it (H4: they left their space
/// but have not reached the attacked one), drawn in the band between the rows.
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
    // The pieces on the line: halfway, or, on a line along a row (from the reserve into the
    // home), in the band beside the row, towards the board's middle.
    let mut mid = ((start.0 + end.0) / 2.0, (start.1 + end.1) / 2.0);
    if dy.abs() < 1.0 {
        let towards_middle = if mid.1 > HEIGHT / 2.0 { -1.0 } else { 1.0 };
        mid.1 += towards_middle * (BOX_H / 2.0 + (ROW_H - BOX_H) / 2.0);
    }
    let chip_w = (row_width(&attack.pieces) + 16.0).min(BOX_W);
    let chip_h = 32.0;
    html! {
        g.attack {
            title {
                (side.word()) " attacks " (target) " " (origin) " with " (attack.pieces.words())
                " (power " (attack.power) ")"
            }
            line x1=(start.0) y1=(start.1) x2=(end.0 - 12.0 * ux) y2=(end.1 - 12.0 * uy) stroke=(side.ink()) stroke-width="7" {}
            polygon points=(head) fill=(side.ink()) stroke="#1d1b18" {}
            g.on-line {
                rect x=(mid.0 - chip_w / 2.0) y=(mid.1 - chip_h / 2.0) width=(chip_w) height=(chip_h) rx="6" fill="#fff" stroke=(side.ink()) stroke-width="2" {}
                (piece_row(side, &attack.pieces, mid.0 - chip_w / 2.0 + 8.0, mid.1, chip_w - 16.0))
            }
        }
    }
}

/// A reserve's two halves, H then K: their top-left corners, and links. Each half of the box
/// takes its click, a finger's width on a phone.
fn reserve_chips(
    side: Side,
    reserve: &ReserveView,
    turned: bool,
) -> [(f32, f32, &Option<BoardLink>); 2] {
    let (cx, cy) = reserve_centre(side, turned);
    let (x, y) = (cx - BOX_W / 2.0, cy - BOX_H / 2.0);
    [(x, y, &reserve.enter_h), (x + CHIP_W, y, &reserve.enter_k)]
}

const CHIP_W: f32 = BOX_W / 2.0;
const CHIP_H: f32 = BOX_H;

fn reserve(side: Side, reserve: &ReserveView, turned: bool) -> Markup {
    let (cx, cy) = reserve_centre(side, turned);
    let (x, y) = (cx - BOX_W / 2.0, cy - BOX_H / 2.0);
    let [(hx, hy, enter_h), (kx, ky, enter_k)] = reserve_chips(side, reserve, turned);
    let middle = y + BOX_H / 2.0;
    html! {
        g.reserve {
            title {
                (side.word()) "'s reserve: " (reserve.h) " Hirþ, " (reserve.k) " Karves; "
                (reserve.removed) " Hirþ removed from the game"
            }
            rect x=(x) y=(y) width=(BOX_W) height=(BOX_H) rx="8" fill="none" stroke=(side.ink()) stroke-width="1.5" stroke-dasharray="5 3" {}
            text x=(x + 7.0) y=(y + 18.0) font-size=(NAME_SIZE) font-weight="bold" { (side.word()) " reserve" }
            (hird_shape(side, hx + 20.0, middle))
            text x=(hx + 35.0) y=(middle + 6.0) font-size="16" { "×" (reserve.h) }
            (karve_shape(side, kx + 4.0, middle))
            text x=(kx + 44.0) y=(middle + 6.0) font-size="16" { "×" (reserve.k) }
            @if enter_h.is_some() { (highlight(hx + 3.0, hy + 3.0, CHIP_W - 6.0, CHIP_H - 6.0)) }
            @if enter_k.is_some() { (highlight(kx + 3.0, ky + 3.0, CHIP_W - 6.0, CHIP_H - 6.0)) }
            @match reserve.hinted {
                Some(false) => { (hint_frame(hx + 3.0, hy + 3.0, CHIP_W - 6.0, CHIP_H - 6.0)) }
                Some(true) => { (hint_frame(kx + 3.0, ky + 3.0, CHIP_W - 6.0, CHIP_H - 6.0)) }
                None => {}
            }
            text x=(x + 7.0) y=(y + BOX_H - 10.0) font-size=(NOTE_SIZE) fill="#6b645a" { (reserve.removed) " H out of the game" }
        }
    }
}

fn reserve_links(side: Side, reserve: &ReserveView, turned: bool) -> Markup {
    html! {
        @for (x, y, link) in reserve_chips(side, reserve, turned) {
            @if let Some(link) = link {
                @let badges = Badges { x, y, width: CHIP_W, height: CHIP_H, per_row: 1, font: TAG_SIZE, first_row_tags: None };
                (spot_links(std::slice::from_ref(link), &badges))
            }
        }
    }
}

/// The caption over the board, in up to two lines that fit its width.
fn caption(words: &str) -> Markup {
    let max = WIDTH - 2.0 * PAD;
    let lines = fit::wrap(words, CAPTION_SIZE, max);
    // A third line would run into the board: the second takes the rest, squeezed.
    let (first, rest) = match lines.split_first() {
        Some((first, rest)) => (first.clone(), rest.join(" ")),
        None => (String::new(), String::new()),
    };
    html! {
        g.caption {
            (fit::line(&first, PAD, 20.0, CAPTION_SIZE, max, "start"))
            @if !rest.is_empty() { (fit::line(&rest, PAD, 40.0, CAPTION_SIZE, max, "start")) }
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
        (caption(&view.caption))
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
        // The choices last: drawn over the whole board, every other button under their veil.
        @for s in view.spaces.iter().filter(|s| crowded(s)) { (choice_overlay(&s.links, &choice(s))) }
    };
    // The page's stylesheet opens a phone's window on the board at the mover's end.
    let mover_on_top = (view.mover == Side::Silfr) != turned;
    Drawing {
        title: format!("Hirþ board: {}", view.caption),
        class: if mover_on_top {
            "hirth mover-top"
        } else {
            "hirth"
        },
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
            .any(|l| !l.play.is_empty()),
        body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(tag: &str) -> BoardLink {
        BoardLink {
            play: tag.into(),
            title: format!("do {tag}"),
            tag: tag.into(),
            ..BoardLink::default()
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
                    held_from_lines: None,
                    beaten_l: None,
                    hinted: false,
                    refusal: None,
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
                    held_from_lines: None,
                    beaten_l: None,
                    hinted: false,
                    refusal: None,
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
                    hinted: None,
                },
                ReserveView {
                    h: 13,
                    k: 3,
                    ..ReserveView::default()
                },
            ],
            mover: Side::Gull,
        }
    }

    /// A phone's window on the board opens at the mover's home: the drawing says when that
    /// end is drawn at the top (Silfr upright, Gull turned).
    #[test]
    fn the_drawing_says_when_the_movers_home_is_at_the_top() {
        let mut view = two_spaces();
        let class = |view: &HirthBoardView, flipped: bool| {
            let look = Look {
                flipped,
                ..Look::default()
            };
            drawing(view, look).class
        };
        assert_eq!(class(&view, false), "hirth");
        assert_eq!(class(&view, true), "hirth mover-top");
        view.mover = Side::Silfr;
        assert_eq!(class(&view, false), "hirth mover-top");
        assert_eq!(class(&view, true), "hirth");
    }

    #[test]
    fn draws_the_pieces_of_each_space_with_counts_and_crews() {
        let svg = board(&two_spaces()).into_string();
        assert!(svg.contains(r#"viewBox="0 0 520 1196""#), "{svg}");
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
        assert!(svg.contains(r##"width="160" height="128" rx="8" fill="#f6e3a1""##));
        assert!(svg.contains(r##"width="160" height="128" rx="8" fill="#dde3e8""##));
        // Gull's Lofðungr, round, first in its row in Gull's home at the bottom.
        assert!(
            svg.contains(r##"class="lofdungr" cx="201" cy="1104" r="13" fill="#a67c00""##),
            "{svg}"
        );
        assert!(svg.contains(
            "<title>Gull's reserve: 11 Hirþ, 2 Karves; 1 Hirþ removed from the game</title>"
        ));
        assert!(svg.contains(">Gull to move · 5 steps left</text>"));
    }

    #[test]
    fn lays_buttons_over_the_spaces_and_reserve_chips_with_moves() {
        let svg = board(&two_spaces()).into_string();
        assert_eq!(svg.matches("<button ").count(), 2);
        assert!(svg.contains(r#"<button class="move" type="submit" form="play" name="play" value="L01" title="do L01">"#));
        assert!(svg.contains(r#"<button class="move" type="submit" form="play" name="play" value="He" title="do He">"#));
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
            r##"<title>Gull's home: Gull has the Lofðungr, 3 Hirþ (1 stopped), a Karve with 2 Hirþ aboard — last turn: pieces moved from here</title><rect x="180" y="1060" width="160" height="128" rx="8" fill="#f6e3a1" stroke="#6b645a" stroke-width="1.5"></rect><rect class="last from" x="184" y="1064" width="152" height="120""##
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
        assert!(svg.rfind(r#"class="last"#) < svg.find("<foreignObject"));
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
                r##"<rect x="180" y="1060" width="160" height="128" rx="8" fill="#f6e3a1""##
            ),
            "{upright}"
        );
        assert!(
            turned.contains(
                r##"<rect x="180" y="52" width="160" height="128" rx="8" fill="#f6e3a1""##
            ),
            "{turned}"
        );
        assert_ne!(upright, turned);
    }

    #[test]
    fn the_hinted_space_or_reserve_half_gets_a_blue_frame() {
        let mut view = two_spaces();
        assert!(!board(&view).into_string().contains("hint"));
        view.spaces[1].hinted = true;
        view.reserves[0].hinted = Some(true);
        let svg = board(&view).into_string();
        assert_eq!(svg.matches(r#"<rect class="hint""#).count(), 2, "{svg}");
        assert_eq!(svg.matches("<title>The computer's hint</title>").count(), 2);
    }

    /// Three or four moves to a space take two rows of badges: the first row's tags sit under
    /// the space's name and the pieces move down clear of them; the second row's at the foot.
    /// Two moves (one row) leave the pieces where they are.
    #[test]
    fn a_space_with_two_rows_of_badges_keeps_their_tags_off_its_pieces() {
        let mut view = two_spaces();
        view.spaces[0].links = ["H10", "K01", "L10"].map(link).to_vec();
        let svg = board(&view).into_string();
        // Gull's home: its box from (180, 1060); the L 14 lower than in a box without badges.
        assert!(
            svg.contains(r#"class="lofdungr" cx="201" cy="1118""#),
            "{svg}"
        );
        assert!(
            svg.contains(r#"<text class="count" x="243" y="1124""#),
            "{svg}"
        );
        // The first row's labels from 1084 to 1099.6, above the pieces' top (1118 - 13).
        assert!(
            svg.contains(r#"<rect class="label" x="200.8" y="1084""#),
            "{svg}"
        );
        assert!(
            svg.contains(r#"<rect class="label" x="280.8" y="1084""#),
            "{svg}"
        );
        // The third, alone in the second row, at the box's foot.
        assert!(
            svg.contains(r#"<rect class="label" x="240.8" y="1170""#),
            "{svg}"
        );
        view.spaces[0].links.pop();
        let svg = board(&view).into_string();
        assert!(
            svg.contains(r#"class="lofdungr" cx="201" cy="1104""#),
            "{svg}"
        );
        assert_eq!(svg.matches(r#"y="1170""#).count(), 2, "{svg}");
    }

    #[test]
    fn a_space_with_more_moves_than_two_rows_of_badges_opens_a_choice_and_a_picture_keeps_badges() {
        let mut view = two_spaces();
        view.spaces[1].links = ["H01", "L01", "K01", "K201", "H31"].map(link).to_vec();
        let svg = board(&view).into_string();
        assert!(svg.contains(r##"<a class="move chooser" href="#choose-1"><title>5 moves to Gull Norðr Delta: choose one</title>"##), "{svg}");
        assert!(svg.contains(r#"<g class="choices" id="choose-1">"#));
        assert_eq!(svg.matches(r#"<button class="move badge""#).count(), 5);
        // The choice is drawn over every button, the reserve's too.
        assert!(svg.find(r#"class="choices""#) > svg.rfind(r#"value="He""#));
        // Four fit as badges.
        view.spaces[1].links.pop();
        assert!(!board(&view).into_string().contains("chooser"));
        // A picture (links to nowhere) draws badges.
        for l in &mut view.spaces[1].links {
            l.play.clear();
        }
        view.spaces[1].links.push(BoardLink::default());
        assert!(!board(&view).into_string().contains("choices"));
    }
}
