//! The state of a Hirþ match: the position of the current game (pieces, lines, reserves), the
//! phase of the turn, the Penningr, the match score and a compact record (H12).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::board::{Colour, Space};
pub use super::karves::Karves;
use crate::Seat;

/// The state format version; bump on any incompatible change.
pub const VERSION: u32 = 1;
/// H2: pieces per player.
pub const HIRTH_PER_PLAYER: u8 = 15;
pub const KARVES_PER_PLAYER: u8 = 3;
/// H3: steps per movement phase.
pub const STEPS_PER_TURN: u8 = 5;
/// H11: the largest match target `new` takes (and a received state may have). The rules leave
/// the target to the players (default 5); 21 is the longest match played in practice, and a
/// bound keeps a match, and the state that holds its record, small.
pub const MAX_TARGET: u32 = 21;
/// The largest round a state may have: far more than any game plays, and small enough that
/// counting on never wraps (and that JavaScript clients read it exactly as an int32).
pub const MAX_ROUND: u32 = i32::MAX as u32;
/// H3: a Karve holds 0–4 Hirþ.
pub const KARVE_CAPACITY: u8 = 4;

fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn no_karves(k: &Karves) -> bool {
    k.is_empty()
}

/// A Karve and the Hirþ aboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthKarve))]
pub struct Karve {
    /// Hirþ aboard (0–4).
    #[cfg_attr(feature = "schema", schema(maximum = 4))]
    pub crew: u8,
    /// Stopped this turn (H4): it and its crew take no further step.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stopped: bool,
}

/// One colour's pieces in one place (a space or a line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthGroup))]
pub struct Group {
    /// Hirþ not aboard a Karve that may still step this turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub h: u8,
    /// Hirþ not aboard a Karve that are stopped this turn (H4).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub h_stopped: u8,
    /// The Lofðungr is here.
    #[serde(default, skip_serializing_if = "is_false")]
    pub l: bool,
    /// The Lofðungr is here and stopped this turn.
    #[serde(default, skip_serializing_if = "is_false")]
    pub l_stopped: bool,
    /// The Karves here, kept sorted (most crew first, free before stopped).
    #[serde(default, skip_serializing_if = "no_karves")]
    #[cfg_attr(feature = "schema", schema(value_type = Vec<Karve>))]
    pub karves: Karves,
}

impl Group {
    /// Whether the group holds no piece.
    #[inline]
    pub fn is_empty(&self) -> bool {
        // One test of all the fields ORed, not one branch each: asked for every space a piece
        // enters, with answers no predictor guesses.
        (self.h | self.h_stopped | u8::from(self.l | self.l_stopped) | self.karves.len() as u8) == 0
    }

    /// Whether the Lofðungr is here, stopped or not.
    #[inline]
    pub fn has_l(&self) -> bool {
        self.l || self.l_stopped
    }

    /// The Hirþ here not aboard a Karve, stopped or not.
    #[inline]
    pub fn loose_h(&self) -> u8 {
        self.h + self.h_stopped
    }

    /// Every Hirþ, loose or aboard.
    #[inline]
    pub fn all_h(&self) -> u32 {
        self.loose_h() as u32 + self.karves.iter().map(|k| k.crew as u32).sum::<u32>()
    }

    /// H5: H = 1, L = 1, a Karve with n ≥ 1 aboard = n + 1, an empty Karve = 0.
    #[inline]
    pub fn power(&self) -> u32 {
        let karves: u32 = self
            .karves
            .iter()
            .map(|k| if k.crew > 0 { k.crew as u32 + 1 } else { 0 })
            .sum();
        self.loose_h() as u32 + self.has_l() as u32 + karves
    }

    /// Puts a Karve here, in its place in the group's order.
    #[inline]
    pub fn add_karve(&mut self, karve: Karve) {
        // Into its place in the order (after its equals): a sort per Karve added cost more
        // than the step that adds it.
        let at = self
            .karves
            .iter()
            .position(|k| karve_order(&karve, k).is_lt())
            .unwrap_or(self.karves.len());
        self.karves.insert(at, karve);
    }

    /// Takes out one Karve equal to `karve`; false when there is none.
    #[inline]
    pub fn take_karve(&mut self, karve: Karve) -> bool {
        match self.karves.iter().position(|k| *k == karve) {
            Some(i) => {
                self.karves.remove(i);
                true
            }
            None => false,
        }
    }

    /// Adds every piece of `other` (used when pieces join a line or enter a space).
    #[inline]
    pub fn absorb(&mut self, other: Group) {
        self.h += other.h;
        self.h_stopped += other.h_stopped;
        self.l |= other.l;
        self.l_stopped |= other.l_stopped;
        for &k in other.karves.iter() {
            self.add_karve(k);
        }
    }

    /// The end of a turn frees every piece (H4 stops last one turn).
    #[inline]
    pub fn unstop(&mut self) {
        self.h += self.h_stopped;
        self.h_stopped = 0;
        self.l |= self.l_stopped;
        self.l_stopped = false;
        self.karves.free_all();
        if self.karves.len() > 1 {
            self.karves.sort_by_key(|k| std::cmp::Reverse(k.crew));
        }
    }
}

/// The order Karves are kept in within a group: most crew first, free before stopped.
#[inline]
pub fn karve_order(a: &Karve, b: &Karve) -> std::cmp::Ordering {
    b.crew.cmp(&a.crew).then(a.stopped.cmp(&b.stopped))
}

/// The pieces standing in one space, by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthCell))]
pub struct Cell {
    /// Gull's pieces in the space.
    #[serde(default, skip_serializing_if = "Group::is_empty")]
    pub gull: Group,
    /// Silfr's pieces in the space.
    #[serde(default, skip_serializing_if = "Group::is_empty")]
    pub silfr: Group,
}

impl Cell {
    /// Whether neither colour has a piece in the space.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.gull.is_empty() && self.silfr.is_empty()
    }

    /// One colour's pieces in the space.
    #[inline]
    pub fn get(&self, colour: Colour) -> &Group {
        match colour {
            Colour::Gull => &self.gull,
            Colour::Silfr => &self.silfr,
        }
    }

    /// One colour's pieces in the space, to change.
    #[inline]
    pub fn get_mut(&mut self, colour: Colour) -> &mut Group {
        match colour {
            Colour::Gull => &mut self.gull,
            Colour::Silfr => &mut self.silfr,
        }
    }
}

/// The eleven spaces; serialised as a map from space name to its pieces, empty spaces left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "BTreeMap<String, Cell>", into = "BTreeMap<String, Cell>")]
pub struct Board(pub [Cell; Space::COUNT]);

impl Board {
    #[inline]
    pub fn cell(&self, space: Space) -> &Cell {
        &self.0[space.index()]
    }

    #[inline]
    pub fn cell_mut(&mut self, space: Space) -> &mut Cell {
        &mut self.0[space.index()]
    }

    #[inline]
    pub fn group(&self, space: Space, colour: Colour) -> &Group {
        self.cell(space).get(colour)
    }

    #[inline]
    pub fn group_mut(&mut self, space: Space, colour: Colour) -> &mut Group {
        self.cell_mut(space).get_mut(colour)
    }
}

impl TryFrom<BTreeMap<String, Cell>> for Board {
    type Error = String;

    fn try_from(map: BTreeMap<String, Cell>) -> Result<Self, String> {
        let mut board = Board::default();
        for (name, cell) in map {
            let mut chars = name.chars();
            let space = match (chars.next().and_then(Space::from_name), chars.next()) {
                (Some(space), None) => space,
                _ => return Err(format!("board: {name:?} is not a space (0-9 or m)")),
            };
            board.0[space.index()] = cell;
        }
        Ok(board)
    }
}

impl From<Board> for BTreeMap<String, Cell> {
    fn from(board: Board) -> Self {
        Space::all()
            .zip(board.0)
            .filter(|(_, cell)| !cell.is_empty())
            .map(|(space, cell)| (space.name().to_string(), cell))
            .collect()
    }
}

#[cfg(feature = "schema")]
impl utoipa::PartialSchema for Board {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .additional_properties(Some(<Cell as utoipa::PartialSchema>::schema()))
            .description(Some(
                "The pieces in each space, keyed by space name (0-9, m); empty spaces are left out",
            ))
            .into()
    }
}

#[cfg(feature = "schema")]
impl utoipa::ToSchema for Board {
    fn name() -> std::borrow::Cow<'static, str> {
        "HirthBoard".into()
    }
}

/// The lines of a movement phase, held inline: one per step at most (H3), so cloning a position
/// allocates nothing (a crafted state with more spills to the heap, and `validate` refuses it).
pub type Lines = SmallVec<[Line; STEPS_PER_TURN as usize]>;

/// Pieces of the player moving that attack `to` from `from` (H4). They keep `from` controlled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthLine))]
pub struct Line {
    /// The space attacked from; `null` for pieces entering onto the own home space held by the enemy.
    pub from: Option<Space>,
    /// The space attacked.
    pub to: Space,
    /// The attacking pieces: they stop on the line until the battles (H4).
    pub pieces: Group,
}

/// Pieces off the board that may enter (H2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthReserve))]
pub struct Reserve {
    /// Hirþ in reserve: 15 at the start (H2); the crew of a Karve removed from play comes back
    /// here, a Hirþ removed from the game never does (H6).
    pub h: u8,
    /// Karves in reserve: 3 at the start (H2); a Karve removed from play comes back here (H6).
    pub k: u8,
}

// The schemas of `PerColour<Reserve>` and `PerColour<u8>` in the state, named for clients
// (utoipa would name each pair after its parameter and inline the reserve).

/// Each colour's pieces off the board that may enter (H2, H3).
#[cfg(feature = "schema")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = HirthReserves)]
#[allow(dead_code)]
struct Reserves {
    /// Gull's reserve.
    gull: Reserve,
    /// Silfr's reserve.
    silfr: Reserve,
}

/// Each colour's Hirþ removed from the game (H6).
#[cfg(feature = "schema")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = HirthRemoved)]
#[allow(dead_code)]
struct Removed {
    /// Gull's Hirþ removed from the game.
    gull: u8,
    /// Silfr's Hirþ removed from the game.
    silfr: u8,
}

/// A colour-indexed pair serialised as `{gull, silfr}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthPerColour))]
pub struct PerColour<T> {
    pub gull: T,
    pub silfr: T,
}

impl<T> PerColour<T> {
    #[inline]
    pub fn get(&self, colour: Colour) -> &T {
        match colour {
            Colour::Gull => &self.gull,
            Colour::Silfr => &self.silfr,
        }
    }

    #[inline]
    pub fn get_mut(&mut self, colour: Colour) -> &mut T {
        match colour {
            Colour::Gull => &mut self.gull,
            Colour::Silfr => &mut self.silfr,
        }
    }
}

/// Everything the rules of one turn look at: what the search clones.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthPosition))]
pub struct Position {
    /// The pieces standing in each space.
    pub board: Board,
    /// The attacks of the movement phase under way (only the mover's pieces).
    #[serde(default, skip_serializing_if = "SmallVec::is_empty")]
    #[cfg_attr(feature = "schema", schema(value_type = Vec<Line>))]
    pub lines: Lines,
    /// Each colour's pieces off the board that may enter (H2, H3).
    #[cfg_attr(feature = "schema", schema(value_type = Reserves))]
    pub reserve: PerColour<Reserve>,
    /// Hirþ removed from the game (H6).
    #[cfg_attr(feature = "schema", schema(value_type = Removed))]
    pub removed: PerColour<u8>,
    /// The colour whose turn it is.
    pub mover: Colour,
    /// Steps taken in this movement phase (0–5).
    pub steps: u8,
}

impl Position {
    /// H2: each Lofðungr on its home space, everything else in reserve; Gull moves.
    pub fn start() -> Position {
        let mut board = Board::default();
        for colour in Colour::BOTH {
            board.group_mut(colour.home(), colour).l = true;
        }
        let full = Reserve {
            h: HIRTH_PER_PLAYER,
            k: KARVES_PER_PLAYER,
        };
        Position {
            board,
            lines: Lines::new(),
            reserve: PerColour {
                gull: full,
                silfr: full,
            },
            removed: PerColour::default(),
            mover: Colour::Gull,
            steps: 0,
        }
    }

    /// H4: the colour controlling a space (pieces in it, or on a line from it).
    #[inline]
    pub fn controller(&self, space: Space) -> Option<Colour> {
        let cell = self.board.cell(space);
        // Both asked before either is used: one branch hard to guess rather than two.
        let (gull, silfr) = (!cell.gull.is_empty(), !cell.silfr.is_empty());
        if gull | silfr {
            return Some(if gull { Colour::Gull } else { Colour::Silfr });
        }
        self.lines
            .iter()
            .any(|l| l.from == Some(space))
            .then_some(self.mover)
    }

    /// Ends a movement phase without battles (a game given up mid-turn): attackers go back to
    /// where they attacked from, every piece is freed.
    pub fn settle(&mut self) {
        let me = self.mover;
        for line in std::mem::take(&mut self.lines) {
            match line.from {
                Some(from) => self.board.group_mut(from, me).absorb(line.pieces),
                None => {
                    let r = self.reserve.get_mut(me);
                    r.h += line.pieces.all_h() as u8;
                    r.k += line.pieces.karves.len() as u8;
                }
            }
        }
        for cell in &mut self.board.0 {
            cell.gull.unstop();
            cell.silfr.unstop();
        }
        self.steps = 0;
    }

    /// The pieces on the line from `from` (`None`: off the board) into `to`, to change; an empty
    /// line is added, in order, when there is none yet.
    pub fn line_mut(&mut self, from: Option<Space>, to: Space) -> &mut Group {
        match self.lines.iter().position(|l| l.from == from && l.to == to) {
            Some(i) => &mut self.lines[i].pieces,
            None => {
                self.lines.push(Line {
                    from,
                    to,
                    pieces: Group::default(),
                });
                self.lines.sort_by_key(|l| (l.to, l.from));
                let i = self.lines.iter().position(|l| l.from == from && l.to == to);
                &mut self.lines[i.expect("just pushed")].pieces
            }
        }
    }
}

/// The Penningr (H10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthCoin))]
pub struct Coin {
    /// The doubling factor of the game: 1, 2 or 3.
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 3))]
    pub factor: u8,
    /// Who holds the coin; `null` while it is neutral.
    pub holder: Option<Colour>,
}

/// What the turn waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case", try_from = "PhaseWire")]
#[cfg_attr(feature = "schema", schema(as = HirthPhase))]
pub enum Phase {
    /// The mover takes steps, offers the Penningr or ends the movement phase.
    Movement,
    /// The mover offered the Penningr; the other player accepts or gives up (H10).
    Offer,
    /// The mover's battles beat the other player's Lofðungr on `from`; its owner picks where it
    /// retreats (H7).
    Retreat {
        /// The space the beaten Lofðungr stands on and retreats from.
        from: Space,
    },
    /// The match is over.
    Over,
}

/// The JSON form a [`Phase`] is read from: serde ignores unknown members beside the tag of a
/// unit variant even with `deny_unknown_fields`, so the phase is read as one flat object.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PhaseWire {
    kind: PhaseKind,
    #[serde(default)]
    from: Option<Space>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PhaseKind {
    Movement,
    Offer,
    Retreat,
    Over,
}

impl TryFrom<PhaseWire> for Phase {
    type Error = &'static str;

    fn try_from(wire: PhaseWire) -> Result<Phase, &'static str> {
        match (wire.kind, wire.from) {
            (PhaseKind::Retreat, Some(from)) => Ok(Phase::Retreat { from }),
            (PhaseKind::Retreat, None) => Err("missing field `from`: the retreat's space"),
            (_, Some(_)) => Err("unknown field `from`: only a retreat has one"),
            (PhaseKind::Movement, None) => Ok(Phase::Movement),
            (PhaseKind::Offer, None) => Ok(Phase::Offer),
            (PhaseKind::Over, None) => Ok(Phase::Over),
        }
    }
}

/// How a game was won (H9, H10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", schema(as = HirthVictory))]
pub enum Victory {
    /// The opponent's Lofðungr killed on Miðr: 5 points.
    Drepid,
    /// The opponent's Lofðungr forced off the board: 2 points.
    ThungurHnifur,
    /// All five middle spaces controlled at the end of a turn: 1 point.
    Yfirrad,
    /// The opponent gave up at an offer to double: 1 point.
    RefusedDouble,
    /// The opponent gave up at an offer to triple: 2 points.
    RefusedTriple,
}

impl Victory {
    /// The points of the win before the doubling factor (H9, H10).
    pub fn base_points(self) -> u32 {
        match self {
            Victory::Drepid => 5,
            Victory::ThungurHnifur => 2,
            Victory::Yfirrad => 1,
            Victory::RefusedDouble => 1,
            Victory::RefusedTriple => 2,
        }
    }

    /// H9 points are multiplied by the factor; a refused offer scores its own points (H10).
    pub fn points(self, factor: u8) -> u32 {
        match self {
            Victory::RefusedDouble | Victory::RefusedTriple => self.base_points(),
            _ => self.base_points() * factor as u32,
        }
    }

    /// The win's name in words (`Drepið`, `doubling refused`).
    pub fn word(self) -> &'static str {
        match self {
            Victory::Drepid => "Drepið",
            Victory::ThungurHnifur => "Þungur Hnífur",
            Victory::Yfirrad => "Yfirráð",
            Victory::RefusedDouble => "doubling refused",
            Victory::RefusedTriple => "tripling refused",
        }
    }
}

/// The result of one finished game of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthGameResult))]
pub struct GameResult {
    /// The seat that won the game.
    pub winner: Seat,
    /// The colour the winner played in that game.
    pub winner_colour: Colour,
    /// How the game was won (H9, H10).
    pub victory: Victory,
    /// The game's doubling factor: 1, 2 or 3 (H10).
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 3))]
    pub factor: u8,
    /// The match points the winner scored: the victory's points times the factor (H9), or a
    /// refused offer's own points (H10).
    pub points: u32,
}

/// Options of a match (H11).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthOptions))]
pub struct HirthOptions {
    /// Points that win the match; 1 plays a single game.
    #[serde(default = "default_target")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 21))]
    pub target: u32,
}

fn default_target() -> u32 {
    5
}

impl Default for HirthOptions {
    fn default() -> Self {
        HirthOptions {
            target: default_target(),
        }
    }
}

/// The record of the turn under way, kept to write the H12 line when it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthTurnLog))]
pub struct TurnLog {
    /// The steps so far, one H12 token each.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub steps: String,
    /// Doubling notes (`GdSa`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doubling: String,
    /// Battle notes while a retreat is pending; `?` stands for the retreat space.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub battles: String,
}

/// A Hirþ match. `validate` checks the position and phase; it does not replay `record`.
#[derive(Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HirthState))]
pub struct HirthState {
    /// The version of the state format, [`VERSION`].
    pub version: u32,
    /// The options the match was started with.
    pub options: HirthOptions,
    /// The position of the current game.
    pub position: Position,
    /// What the turn waits for: steps, an answer to an offer, a retreat, or nothing when the match
    /// is over.
    pub phase: Phase,
    /// The Penningr of the current game (H10).
    pub coin: Coin,
    /// The seat playing Gull in the current game (H11: Seat::First in game 1, then alternating).
    pub gull: Seat,
    /// Match points, by seat index (`[first, second]`).
    #[cfg_attr(feature = "schema", schema(min_items = 2, max_items = 2))]
    pub points: [u32; 2],
    /// The finished games of the match.
    #[serde(default)]
    pub results: Vec<GameResult>,
    /// The round of the current game (`G3`/`S3` is round 3).
    // At most MAX_ROUND (2^31 − 1), as the state check (history.rs) has it.
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 2147483647))]
    pub round: u32,
    /// H12 lines of every finished turn of the match, each ending in a newline; an empty line
    /// separates games.
    #[serde(default)]
    pub record: String,
    /// The record of the turn under way, written into `record` when the turn ends.
    #[serde(default)]
    pub log: TurnLog,
}

/// Field by field, so that `clone_from` (what the search does before every playout) reuses the
/// lists' and strings' memory instead of allocating anew.
impl Clone for HirthState {
    fn clone(&self) -> Self {
        HirthState {
            version: self.version,
            options: self.options.clone(),
            position: self.position.clone(),
            phase: self.phase,
            coin: self.coin,
            gull: self.gull,
            points: self.points,
            results: self.results.clone(),
            round: self.round,
            record: self.record.clone(),
            log: self.log.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.version = source.version;
        self.options.clone_from(&source.options);
        self.position.clone_from(&source.position);
        self.phase = source.phase;
        self.coin = source.coin;
        self.gull = source.gull;
        self.points = source.points;
        self.results.clone_from(&source.results);
        self.round = source.round;
        self.record.clone_from(&source.record);
        self.log.clone_from(&source.log);
    }
}

impl HirthState {
    /// The start of a match: the first game's position, Gull to the first seat (H2, H11).
    pub fn new(options: HirthOptions) -> HirthState {
        HirthState {
            version: VERSION,
            options,
            position: Position::start(),
            phase: Phase::Movement,
            coin: Coin {
                factor: 1,
                holder: None,
            },
            gull: Seat::First,
            points: [0, 0],
            results: Vec::new(),
            round: 1,
            record: String::new(),
            log: TurnLog::default(),
        }
    }

    /// The seat playing a colour in the current game (H11).
    pub fn seat_of(&self, colour: Colour) -> Seat {
        match colour {
            Colour::Gull => self.gull,
            Colour::Silfr => self.gull.other(),
        }
    }

    /// The colour a seat plays in the current game (H11).
    pub fn colour_of(&self, seat: Seat) -> Colour {
        if seat == self.gull {
            Colour::Gull
        } else {
            Colour::Silfr
        }
    }
}
