//! The position: options, colours, and the state with its JSON form and invariants.
//!
//! In memory a state holds one bitboard per colour, so playouts never touch names. On the wire
//! it is readable JSON (`"black": ["e5", …]`, version 1) through [`StateWire`]. Serde refuses
//! only a wrong shape (a missing field, a wrong type, an unknown field), with its path. A
//! well-shaped document always reads: a bad version, size, point name (`zz`, or `k9` on size
//! 5), a duplicate or a point in both lists is kept in the state as its first defect, which
//! [`validate`] then reports with its exact path (`black[1]`) like every other invariant.

use serde::{Deserialize, Serialize};

use super::geometry::{
    Bits, MAX_SIZE, MIN_SIZE, NameError, Point, board_mask, parse_point, point_name, points,
};
use super::rules;
use super::wide::{self, Wide, cell_of};
use crate::{InvalidState, Seat};

/// The current version of the state's JSON form.
pub const STATE_VERSION: u32 = 1;

/// A side of the game. Black places first (F3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Black: the colour that places the first stone (F3).
    Black,
    /// White: the colour that places the second stone (F3), whoever plays it after a swap (F5).
    White,
}

impl Colour {
    /// Both colours, Black first: the order of [`Colour::index`].
    pub const BOTH: [Colour; 2] = [Colour::Black, Colour::White];

    /// The opponent's colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour's name in the JSON form and in words (`black`).
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }
}

/// The options of a game of Herfor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(example = json!({"size": 5, "pie": true, "simple": false})))]
pub struct HerforOptions {
    /// Points per side of the hexagonal board, 3 to 7 (F1): 5 for short games, 7 for long ones.
    #[cfg_attr(feature = "schema", schema(minimum = 3, maximum = 7))]
    pub size: u8,
    /// The pie rule (F5): the second player may swap after the first placement.
    pub pie: bool,
    /// The simple variant (F6): flip only as many stones of each invaded phalanx as the shorter
    /// one has.
    pub simple: bool,
}

impl Default for HerforOptions {
    fn default() -> Self {
        HerforOptions {
            size: 5,
            pie: true,
            simple: false,
        }
    }
}

/// A position of Herfor.
///
/// Seats: [`Seat::First`] is the player who places first — Black, or White after a swap (F5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HerforState {
    pub(crate) options: HerforOptions,
    /// The stones of each colour, indexed by [`Colour::index`], in the search's padded layout.
    pub(crate) stones: [Wide; 2],
    pub(crate) to_move: Colour,
    /// Who holds the button (F4): the opponent of the first player to pass.
    pub(crate) button: Option<Colour>,
    /// 0, 1, or 2 (the game is over).
    pub(crate) passes_in_a_row: u8,
    /// Placements, passes and the swap made so far.
    pub(crate) moves_played: u32,
    /// The second player took Black (F5).
    pub(crate) swapped: bool,
    /// The first defect found while reading the JSON form, reported by [`validate`].
    pub(crate) unread: Option<Box<InvalidState>>,
}

impl HerforState {
    /// The empty board for these options (which the caller has checked).
    pub(crate) fn start(options: HerforOptions) -> Self {
        HerforState {
            options,
            stones: [Wide::EMPTY; 2],
            to_move: Colour::Black,
            button: None,
            passes_in_a_row: 0,
            moves_played: 0,
            swapped: false,
            unread: None,
        }
    }

    /// The options the game was started with.
    pub fn options(&self) -> HerforOptions {
        self.options
    }
    /// Points per side of the hexagonal board, 3 to 7 (F1).
    pub fn size(&self) -> u8 {
        self.options.size
    }
    /// The stones of one colour.
    pub fn stones(&self, colour: Colour) -> Bits {
        self.stones[colour.index()].to_bits()
    }
    /// How many stones a colour has on the board.
    pub fn stone_count(&self, colour: Colour) -> u32 {
        self.stones[colour.index()].count_ones()
    }
    /// Puts a stone of `colour` on `p` (a point of the largest board), for positions built in
    /// code; nothing is checked.
    pub fn put_stone(&mut self, colour: Colour, p: Point) {
        self.stones[colour.index()] |= Wide::cell(cell_of(p));
    }
    /// The colour of the stone on a point, if any.
    pub fn stone_at(&self, p: Point) -> Option<Colour> {
        let cell = i32::from(cell_of(p));
        Colour::BOTH
            .into_iter()
            .find(|c| p.index() < 127 && self.stones[c.index()].has(cell))
    }
    /// The colour to place or pass next.
    pub fn to_move(&self) -> Colour {
        self.to_move
    }
    /// The holder of the button (F4), once someone has passed.
    pub fn button(&self) -> Option<Colour> {
        self.button
    }
    /// Consecutive passes just made: 2 ends the game (F4).
    pub fn passes_in_a_row(&self) -> u8 {
        self.passes_in_a_row
    }
    /// Moves made so far: placements, passes and the swap.
    pub fn moves_played(&self) -> u32 {
        self.moves_played
    }
    /// The second player swapped (F5): the first player plays White.
    pub fn swapped(&self) -> bool {
        self.swapped
    }
    /// Two passes in a row ended the game (F4).
    pub fn is_over(&self) -> bool {
        self.passes_in_a_row >= 2
    }
    /// The empty points of the board.
    pub fn empty(&self) -> Bits {
        self.empty_cells().to_bits()
    }
    /// The empty points of the board in the search's layout.
    pub(crate) fn empty_cells(&self) -> Wide {
        wide::board(self.options.size) & !(self.stones[0] | self.stones[1])
    }
    /// The seat playing a colour: the first seat plays Black unless it was swapped (F5).
    pub fn seat_of(&self, colour: Colour) -> Seat {
        if (colour == Colour::Black) != self.swapped {
            Seat::First
        } else {
            Seat::Second
        }
    }
    /// The colour a seat plays now.
    pub fn colour_of(&self, seat: Seat) -> Colour {
        if (seat == Seat::First) != self.swapped {
            Colour::Black
        } else {
            Colour::White
        }
    }
    /// The second player may still swap (F5): the pie rule is on and only the first stone is down.
    pub fn swap_available(&self) -> bool {
        self.options.pie && self.moves_played == 1 && !self.swapped
    }
    /// The enemy stones a placement of the mover's on `p` would flip (F3). Most placements
    /// invade nothing, which a short walk along the three lines tells before any phalanx is
    /// counted.
    pub fn flip_count(&self, p: Point) -> u32 {
        let mover = self.to_move;
        let (own, enemy) = (
            self.stones[mover.index()],
            self.stones[mover.other().index()],
        );
        if !rules::forms_invasion(p, own, enemy) {
            return 0;
        }
        rules::flips(p, own, enemy, self.options.simple).count_ones()
    }
    /// Whether `colour` has a legal placement here (F3).
    pub fn can_place(&self, colour: Colour) -> bool {
        let own = self.stones[colour.index()];
        rules::any_placement(self.empty_cells(), own, self.stones[colour.other().index()])
    }
    /// Doubled score of a colour: two per stone, one for the button (F4), so it stays whole.
    pub fn doubled_score(&self, colour: Colour) -> u32 {
        2 * self.stone_count(colour) + u32::from(self.button == Some(colour))
    }
    /// The names of a colour's stones, in point order.
    pub fn stone_names(&self, colour: Colour) -> Vec<String> {
        let size = self.options.size;
        points(self.stones(colour) & board_mask(size))
            .filter_map(|p| point_name(size, p))
            .collect()
    }
}

/// The JSON form of a [`HerforState`].
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(as = HerforState, example = json!({
    "version": 1,
    "options": {"size": 5, "pie": true, "simple": false},
    "black": ["c3", "e5"],
    "white": ["d4"],
    "to_move": "white",
    "button": null,
    "passes_in_a_row": 0,
    "moves_played": 3,
    "swapped": false,
    "game_over": false
})))]
pub struct StateWire {
    /// Always 1.
    pub version: u32,
    /// The options the game was started with.
    pub options: HerforOptions,
    /// The points holding black stones (F1 names).
    pub black: Vec<String>,
    /// The points holding white stones.
    pub white: Vec<String>,
    /// The colour to place or pass next.
    pub to_move: Colour,
    /// The holder of the button (F4), once someone has passed.
    pub button: Option<Colour>,
    /// Consecutive passes just made: 2 ends the game (F4).
    pub passes_in_a_row: u8,
    /// Moves made so far: placements, passes and the swap.
    pub moves_played: u32,
    /// The second player swapped (F5): the first player plays White.
    pub swapped: bool,
    /// Whether the game is over (two passes in a row); optional when sent, checked when given.
    #[serde(default)]
    pub game_over: Option<bool>,
}

impl From<HerforState> for StateWire {
    fn from(s: HerforState) -> Self {
        StateWire {
            version: STATE_VERSION,
            options: s.options,
            black: s.stone_names(Colour::Black),
            white: s.stone_names(Colour::White),
            to_move: s.to_move,
            button: s.button,
            passes_in_a_row: s.passes_in_a_row,
            moves_played: s.moves_played,
            swapped: s.swapped,
            game_over: Some(s.is_over()),
        }
    }
}

impl From<StateWire> for HerforState {
    fn from(w: StateWire) -> Self {
        let mut state = HerforState {
            options: w.options,
            stones: [Wide::EMPTY; 2],
            to_move: w.to_move,
            button: w.button,
            passes_in_a_row: w.passes_in_a_row,
            moves_played: w.moves_played,
            swapped: w.swapped,
            unread: None,
        };
        let mut defect = None;
        if w.version != STATE_VERSION {
            defect = Some(InvalidState::new(
                "version",
                format!(
                    "unsupported version {}, expected {STATE_VERSION}",
                    w.version
                ),
            ));
        } else if let Err(e) = check_size(w.options.size) {
            defect = Some(e);
        } else {
            for (colour, names) in [(Colour::Black, &w.black), (Colour::White, &w.white)] {
                if let Err(e) = read_stones(&mut state, colour, names) {
                    defect = defect.or(Some(e));
                }
            }
        }
        if defect.is_none()
            && w.game_over
                .is_some_and(|over| over != (w.passes_in_a_row >= 2))
        {
            defect = Some(InvalidState::new(
                "game_over",
                "the game is over exactly when both players have passed in a row (F4)",
            ));
        }
        state.unread = defect.map(Box::new);
        state
    }
}

/// Adds the named stones of one colour, or names the first bad entry.
fn read_stones(
    state: &mut HerforState,
    colour: Colour,
    names: &[String],
) -> Result<(), InvalidState> {
    let size = state.options.size;
    let field = colour.name();
    for (i, name) in names.iter().enumerate() {
        let path = format!("{field}[{i}]");
        let p = parse_point(size, name.trim()).map_err(|e| match e {
            NameError::Malformed => InvalidState::new(
                &path,
                format!("{name:?} is not a point name such as e5 (F1)"),
            ),
            NameError::OffBoard => InvalidState::new(
                &path,
                format!("{name:?} is not a point of the size-{size} board (F1)"),
            ),
        })?;
        let cell = i32::from(cell_of(p));
        if state.stones[colour.index()].has(cell) {
            return Err(InvalidState::new(path, format!("{name} is listed twice")));
        }
        if state.stones[colour.other().index()].has(cell) {
            return Err(InvalidState::new(
                path,
                format!("{name} also holds a {} stone", colour.other().name()),
            ));
        }
        state.put_stone(colour, p);
    }
    Ok(())
}

fn check_size(size: u8) -> Result<(), InvalidState> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(InvalidState::new(
            "options.size",
            format!("size {size} is not supported: 3 to 7 points per side (F1)"),
        ))
    }
}

impl Serialize for HerforState {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        StateWire::from(self.clone()).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for HerforState {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        StateWire::deserialize(deserializer).map(HerforState::from)
    }
}

#[cfg(feature = "schema")]
impl utoipa::PartialSchema for HerforState {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <StateWire as utoipa::PartialSchema>::schema()
    }
}

#[cfg(feature = "schema")]
impl utoipa::ToSchema for HerforState {
    fn name() -> std::borrow::Cow<'static, str> {
        "HerforState".into()
    }
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <StateWire as utoipa::ToSchema>::schemas(schemas);
    }
}

/// Checks every invariant of a state received from outside.
pub fn validate(s: &HerforState) -> Result<(), InvalidState> {
    if let Some(defect) = &s.unread {
        return Err((**defect).clone());
    }
    let size = s.options.size;
    check_size(size)?;
    let [black, white] = [s.stones(Colour::Black), s.stones(Colour::White)];
    let mask = board_mask(size);
    for colour in Colour::BOTH {
        if s.stones(colour) & !mask != 0 {
            return Err(InvalidState::new(
                colour.name(),
                format!("a stone lies off the size-{size} board (F1)"),
            ));
        }
    }
    if black & white != 0 {
        let p = Point((black & white).trailing_zeros() as u8);
        let i = (white & (p.bit() - 1)).count_ones();
        return Err(InvalidState::new(
            format!("white[{i}]"),
            "this point also holds a black stone",
        ));
    }
    check_history(s)?;
    check_passes(s)
}

/// The counters, the swap and whose turn it is must fit together.
fn check_history(s: &HerforState) -> Result<(), InvalidState> {
    let stones = s.stones[0].count_ones() + s.stones[1].count_ones();
    let moves = s.moves_played;
    let swap = u32::from(s.swapped);
    if s.passes_in_a_row > 0 && s.button.is_none() {
        return Err(InvalidState::new(
            "button",
            "the first pass gives the button to the passer's opponent (F4)",
        ));
    }
    if s.swapped && !s.options.pie {
        return Err(InvalidState::new(
            "swapped",
            "a swap needs the pie rule (options.pie, F5)",
        ));
    }
    if s.swapped && moves < 2 {
        return Err(InvalidState::new(
            "swapped",
            "the swap answers the first placement, so it is at least the second move (F5)",
        ));
    }
    if moves > 0 && stones == 0 {
        return Err(InvalidState::new(
            "moves_played",
            "the first move places a stone and stones never leave the board, so the board cannot be empty",
        ));
    }
    // Every stone was placed by its own move; passes and the swap add none.
    let least = stones + swap + u32::from(s.button.is_some());
    if moves < least {
        return Err(InvalidState::new(
            "moves_played",
            format!(
                "{stones} stones, the swap and the passes need at least {least} moves, not {moves}"
            ),
        ));
    }
    // Until someone passes, every move but the swap places a stone.
    if s.button.is_none() && moves != least {
        return Err(InvalidState::new(
            "moves_played",
            format!(
                "nobody has passed, so {stones} stones{} make {least} moves, not {moves}",
                if s.swapped { " and the swap" } else { "" }
            ),
        ));
    }
    // Each placement after the first may follow one pass, and the passes just made come on top:
    // with passes going on, that is at most 2 × stones − 1 + passes (+ the swap) moves.
    let most = (2 * stones + u32::from(s.passes_in_a_row) + swap).saturating_sub(1);
    if moves > most {
        return Err(InvalidState::new(
            "moves_played",
            format!("{stones} stones allow at most {most} moves, not {moves}"),
        ));
    }
    if moves == 1 + swap && (s.stones[0].count_ones() != 1 || !s.stones[1].is_empty()) {
        return Err(InvalidState::new(
            "white",
            "after the first placement the board holds one black stone only",
        ));
    }
    // Colours alternate on every move except the swap, which keeps White to move.
    let expected = if (moves - swap).is_multiple_of(2) {
        Colour::Black
    } else {
        Colour::White
    };
    if s.to_move != expected {
        return Err(InvalidState::new(
            "to_move",
            format!(
                "after {moves} moves{} {} is to move",
                if s.swapped { " and a swap" } else { "" },
                expected.name()
            ),
        ));
    }
    Ok(())
}

/// Passes happen only without a legal placement (F4), and give out the button.
fn check_passes(s: &HerforState) -> Result<(), InvalidState> {
    let passes = s.passes_in_a_row;
    if passes > 2 {
        return Err(InvalidState::new(
            "passes_in_a_row",
            "the game ends at two passes in a row (F4)",
        ));
    }
    if passes > 0 && u32::from(passes) + 1 + u32::from(s.swapped) > s.moves_played {
        return Err(InvalidState::new(
            "passes_in_a_row",
            "more passes than moves after the first placement",
        ));
    }
    // The board has not changed since those passes, so each passer must still be unable to place.
    let passers: &[Colour] = match passes {
        0 => &[],
        1 => &[s.to_move.other()],
        _ => &[s.to_move.other(), s.to_move],
    };
    for &colour in passers {
        if s.can_place(colour) {
            return Err(InvalidState::new(
                "passes_in_a_row",
                format!("{} passed but has a legal placement (F4)", colour.name()),
            ));
        }
    }
    Ok(())
}
