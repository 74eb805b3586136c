//! The versioned state a client holds (`"version": 1`), the options, and the colours.
//!
//! Ringforts and kings are lists of hill names per colour, so clients can read them and
//! `validate` can name an entry (`ringforts.red[2]`). The lists keep the order in which the
//! pieces arrived; each carries its bitboard ([`HillList`]), which the engine works on.

use serde::{Deserialize, Serialize};

use super::geometry::Hill;
use super::hills::HillList;
use crate::Seat;

/// The version of the state format.
pub const STATE_VERSION: u32 = 1;
/// Kings per colour (T2).
pub const KINGS_PER_COLOUR: usize = 3;
/// Ringforts per colour (T2).
pub const RINGFORTS_PER_COLOUR: usize = 30;

/// Red or Blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// Red: by default the colour that moves first (T3).
    Red,
    /// Blue: by default the colour that moves second (T3).
    Blue,
}

impl Colour {
    /// Both colours, Red first: the order of [`Colour::index`].
    pub const BOTH: [Colour; 2] = [Colour::Red, Colour::Blue];

    /// The opponent's colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Blue,
            Colour::Blue => Colour::Red,
        }
    }

    /// 0 for Red, 1 for Blue: an index into per-colour arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour's name in the JSON form (`red`).
    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
        }
    }

    /// The colour's name in sentences (`Red`).
    pub fn title(self) -> &'static str {
        match self {
            Colour::Red => "Red",
            Colour::Blue => "Blue",
        }
    }
}

// The schemas of the state's and the events' per-colour pairs, named for clients after what
// they hold (utoipa would name each after `PerColour`'s parameter).

/// Which players have entered Battle (T6).
#[cfg(feature = "schema")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TaraBattle)]
#[allow(dead_code)]
struct Battle {
    /// Red has entered Battle.
    red: bool,
    /// Blue has entered Battle.
    blue: bool,
}

/// Which players have passed (T10).
#[cfg(feature = "schema")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TaraPassed)]
#[allow(dead_code)]
struct Passed {
    /// Red has passed.
    red: bool,
    /// Blue has passed.
    blue: bool,
}

/// Each colour's points (T12).
#[cfg(feature = "schema")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TaraPoints)]
#[allow(dead_code)]
pub(crate) struct Points {
    /// Red's points.
    red: u32,
    /// Blue's points.
    blue: u32,
}

/// Per colour, the hill of a king standing on the ringfort it sacrificed (T11), or `null`.
#[cfg(feature = "schema")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TaraSacrificed)]
#[allow(dead_code)]
struct Sacrificed {
    /// Red's king on its sacrificed ringfort.
    red: Option<String>,
    /// Blue's king on its sacrificed ringfort.
    blue: Option<String>,
}

/// One value per colour, written `{"red": …, "blue": …}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PerColour<T> {
    /// Red's value.
    pub red: T,
    /// Blue's value.
    pub blue: T,
}

impl<T> PerColour<T> {
    /// One colour's value.
    pub fn get(&self, colour: Colour) -> &T {
        match colour {
            Colour::Red => &self.red,
            Colour::Blue => &self.blue,
        }
    }

    /// One colour's value, to change.
    pub fn get_mut(&mut self, colour: Colour) -> &mut T {
        match colour {
            Colour::Red => &mut self.red,
            Colour::Blue => &mut self.blue,
        }
    }
}

/// The options of a game (or match).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "schema", schema(example = json!({"first": "red", "level": 1, "match": false})))]
pub struct TaraOptions {
    /// The colour that moves first in the (first) game (T3).
    #[serde(default = "default_first")]
    pub first: Colour,
    /// 1, or 2 for the sacrifices of the Level 2 variant (T11).
    #[serde(default = "default_level")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 2))]
    pub level: u8,
    /// A two-game match (T12): each player starts one game, points add up.
    #[serde(default, rename = "match")]
    pub is_match: bool,
}

fn default_first() -> Colour {
    Colour::Red
}

fn default_level() -> u8 {
    1
}

impl Default for TaraOptions {
    fn default() -> Self {
        TaraOptions {
            first: default_first(),
            level: default_level(),
            is_match: false,
        }
    }
}

impl TaraOptions {
    /// The colour of a seat: the first seat has the `first` colour in both games of a match.
    pub fn colour_of(&self, seat: Seat) -> Colour {
        match seat {
            Seat::First => self.first,
            Seat::Second => self.first.other(),
        }
    }

    /// The seat playing a colour: the seat of the `first` colour is the first, in both games of a
    /// match.
    pub fn seat_of(&self, colour: Colour) -> Seat {
        if colour == self.first {
            Seat::First
        } else {
            Seat::Second
        }
    }
}

/// A position of The High Kings of Tara, with what the rules need to remember.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TaraState {
    /// The state format, 1.
    pub version: u32,
    /// The options the game (or match) was started with.
    pub options: TaraOptions,
    /// Which game of a match this is (1 or 2); always 1 outside a match.
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 2))]
    pub game: u8,
    /// The ringforts of each colour, in the order they arrived.
    #[cfg_attr(feature = "schema", schema(value_type = PerColour<Vec<String>>, example = json!({"red": ["D4"], "blue": ["B2"]})))]
    pub ringforts: PerColour<HillList>,
    /// The kings of each colour still on the board.
    #[cfg_attr(feature = "schema", schema(value_type = PerColour<Vec<String>>, example = json!({"red": ["D4"], "blue": ["B2"]})))]
    pub kings: PerColour<HillList>,
    /// Whose turn it is (or was, when the game is over).
    pub to_move: Colour,
    /// Which players have entered Battle (T6).
    #[cfg_attr(feature = "schema", schema(value_type = Battle))]
    pub battle: PerColour<bool>,
    /// How many enemy kings each colour has captured (T9).
    pub captured: PerColour<u8>,
    /// Which players have passed (T10).
    #[cfg_attr(feature = "schema", schema(value_type = Passed))]
    pub passed: PerColour<bool>,
    /// The player now having (or who had) its one more turn before the end (T10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_turn: Option<Colour>,
    /// Per colour, the hill of a king standing on the ringfort it sacrificed (T11): immune
    /// during the opponent's next turn, and the only king its owner may move on the turn after.
    /// Both colours can have one at once (each sacrificed on its last turn).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(value_type = Sacrificed, example = json!({"red": "B3", "blue": null})))]
    pub sacrificed: PerColour<Option<Hill>>,
    /// The (current) game is over.
    pub over: bool,
    /// In a match, the points each colour scored in game 1, once game 2 has started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schema(value_type = Option<Points>))]
    pub game1_points: Option<PerColour<u32>>,
}

impl TaraState {
    /// The king of `colour` standing on a ringfort it sacrificed, if any (T11).
    pub fn sacrificed_by(&self, colour: Colour) -> Option<Hill> {
        *self.sacrificed.get(colour)
    }

    /// The empty board of a new game started by `first`.
    pub fn start(options: &TaraOptions, game: u8, first: Colour) -> TaraState {
        TaraState {
            version: STATE_VERSION,
            options: options.clone(),
            game,
            ringforts: PerColour::default(),
            kings: PerColour::default(),
            to_move: first,
            battle: PerColour::default(),
            captured: PerColour::default(),
            passed: PerColour::default(),
            final_turn: None,
            sacrificed: PerColour {
                red: None,
                blue: None,
            },
            over: false,
            game1_points: None,
        }
    }

    /// A position from a diagram written in code (the rules page's picture, tests): rows 7 down
    /// to 1, one character per column A–G (spaces ignored): `.` vacant, `r`/`b` a ringfort,
    /// `R`/`B` a king on its ringfort, `#` a missing corner. Setup is over, nobody is in Battle,
    /// Red moves. Panics on a malformed diagram: it is a literal, so that is a bug.
    pub fn from_diagram(rows: [&str; 7]) -> TaraState {
        let mut state = TaraState::start(&TaraOptions::default(), 1, Colour::Red);
        for (i, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(cells.len(), 7, "row {}", 7 - i);
            for (col, cell) in cells.into_iter().enumerate() {
                let hill = Hill::at(col as u8, 6 - i as u8);
                let (colour, king) = match cell {
                    'r' => (Colour::Red, false),
                    'R' => (Colour::Red, true),
                    'b' => (Colour::Blue, false),
                    'B' => (Colour::Blue, true),
                    '.' | '#' => continue,
                    other => panic!("unknown cell {other:?}"),
                };
                let hill = hill.expect("a piece on a missing corner");
                state.ringforts.get_mut(colour).push(hill);
                if king {
                    state.kings.get_mut(colour).push(hill);
                }
            }
        }
        state
    }

    /// The colour that started the current game: in a match, game 2 starts with the other
    /// player (T12).
    pub fn starter(&self) -> Colour {
        if self.game == 2 {
            self.options.first.other()
        } else {
            self.options.first
        }
    }

    /// How many kings a colour has put on the board so far (those captured included).
    pub fn kings_placed(&self, colour: Colour) -> usize {
        if *self.passed.get(colour) {
            return KINGS_PER_COLOUR;
        }
        self.kings.get(colour).len() + *self.captured.get(colour.other()) as usize
    }

    /// Setup (T3) goes on while the player to move has kings to place.
    pub fn in_setup(&self) -> bool {
        self.kings_placed(self.to_move) < KINGS_PER_COLOUR
    }

    /// A match whose first game is over and whose second has not started.
    pub fn between_games(&self) -> bool {
        self.over && self.options.is_match && self.game == 1
    }
}
