//! Moot's rules engines for Hirþ, The High Kings of Tara and Herfor: pure functions over plain
//! data, no HTTP, no I/O. A site or a bot in Rust can use them without the Moot server, which
//! builds on them (and re-exports this crate as `moot::games`).
//!
//! ```
//! use moot_games::Game;
//! use moot_games::herfor::{Herfor, HerforOptions};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut state = Herfor::new_game(&HerforOptions { size: 3, ..Default::default() })?;
//! let moves = Herfor::legal_moves(&state);
//! let text = Herfor::format_move(&state, &moves[0]); // notation is written before the move is played
//! let events = Herfor::apply(&mut state, &moves[0])?;
//! println!("{text}: {events:?}; now {:?}", Herfor::status(&state));
//! // The pie rule (F5): the second player may take the first stone's colour.
//! let swap = Herfor::parse_move(&state, "swap")?;
//! assert!(Herfor::legal_moves(&state).contains(&swap));
//! # Ok(())
//! # }
//! ```
//!
//! Every game implements [`Game`]; the API, the pages and the computer player use only this
//! trait. The games are listed once, in the registry (`registry.rs`): [`GAME_IDS`] and the
//! dispatch from a game id to its engine, [`with_game!`](crate::with_game), a `match` that names
//! the concrete type, so callers get monomorphised code and no trait objects.
//!
//! Players are **seats** ([`Seat::First`], [`Seat::Second`]), not colours: Herfor's swap (F5),
//! Tara's match (T12) and Hirþ's alternating Gull (H11) change which colour a player has. Each
//! game documents which seat is which, and [`Status`] names the colour of the seat that acts.

use std::fmt::Debug;
use std::hash::Hash;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

// The engines, one module each (and one entry each in the registry), and what they share.
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
pub mod herfor;
pub mod hirth;
pub mod json;
mod registry;
pub mod tara;

pub use registry::{GAME_IDS, all_games, game_of_rule};

/// The OpenAPI schema of a game's type: `utoipa::ToSchema` with the feature `schema` (the
/// server's), nothing without it, so the engines alone need no utoipa.
#[cfg(feature = "schema")]
pub trait Schema: utoipa::ToSchema {}
#[cfg(feature = "schema")]
impl<T: utoipa::ToSchema> Schema for T {}
/// The OpenAPI schema of a game's type: `utoipa::ToSchema` with the feature `schema` (the
/// server's), nothing without it, so the engines alone need no utoipa.
#[cfg(not(feature = "schema"))]
pub trait Schema {}
#[cfg(not(feature = "schema"))]
impl<T> Schema for T {}

/// A player of a game, independent of the colour it has now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// The player who moves first in the (first) game.
    First,
    /// The other player.
    Second,
}

impl Seat {
    /// Both seats, the first first: for going over per-seat data.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// The opponent of this seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 0 for the first seat, 1 for the second: an index into per-seat arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Who acts now, or how the game ended: the cheap form the search asks at every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// The game goes on and this seat must choose the next move (which may be a decision such
    /// as a retreat or an answer to an offer, taken by the player who is not moving).
    ToAct(Seat),
    /// The game (or match) is over and this seat won it.
    Won(Seat),
    /// The game is over without a winner.
    Drawn,
}

/// Who must act next and what they decide, or the result: the descriptive form for clients.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Status {
    /// The game goes on and a seat must choose the next move.
    Ongoing {
        /// The seat that must choose the next move.
        to_act: Seat,
        /// That seat's colour now (`black`, `red`, `gull`, …).
        colour: String,
        /// What that player decides, in words (`place a stone or pass`, `answer the doubling offer`).
        decision: String,
    },
    /// The game (or match) is over.
    Finished {
        /// The winning seat; absent for a draw.
        #[serde(skip_serializing_if = "Option::is_none")]
        winner: Option<Seat>,
        /// The winner's colour at the end.
        #[serde(skip_serializing_if = "Option::is_none")]
        winner_colour: Option<String>,
        /// How the game ended, in words (`double capture`, `Drepið, doubled: 10 points`).
        reason: String,
    },
}

/// The options were not acceptable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct InvalidOptions {
    /// The option at fault (`size`).
    pub field: String,
    /// Why its value was refused, in words (`9 points per side: the board has 3 to 7 (F1)`).
    pub reason: String,
}

/// A state received from outside breaks an invariant of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct InvalidState {
    /// Where in the state, as a path relative to the state (`black[1]`, `board.m`, `turn`).
    pub path: String,
    /// What is wrong there, in words.
    pub reason: String,
}

impl InvalidState {
    /// The defect at `path` (relative to the state), with what is wrong there.
    pub fn new(path: impl Into<String>, reason: impl Into<String>) -> Self {
        InvalidState {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    #[error("cannot read {text:?} as a move: {reason}")]
    Unreadable {
        /// The text as it was received.
        text: String,
        /// What could not be read, in words.
        reason: String,
    },
    /// The move is well formed but the rules forbid it here.
    #[error("illegal move ({rule}): {reason}")]
    Illegal {
        /// The rule that forbids it (`F3`, `T8`, `H8`).
        rule: &'static str,
        /// Why the rule forbids it here, in words.
        reason: String,
    },
    /// The game is over: no move can be played.
    #[error("the game is over")]
    GameOver,
}

impl MoveError {
    /// The move is forbidden by `rule` (`F3`, `T8`, `H8`), for the reason given in words.
    pub fn illegal(rule: &'static str, reason: impl Into<String>) -> Self {
        MoveError::Illegal {
            rule,
            reason: reason.into(),
        }
    }

    /// `text` cannot be read as a move, for the reason given in words.
    pub fn unreadable(text: impl Into<String>, reason: impl Into<String>) -> Self {
        MoveError::Unreadable {
            text: text.into(),
            reason: reason.into(),
        }
    }
}

/// A whole record read into moves.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<M> {
    /// The moves in the order they were played.
    pub moves: Vec<M>,
    /// Slips the reader forgave (H12), each naming the turn.
    pub warnings: Vec<String>,
}

/// A record that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("record line {line}: {reason}")]
pub struct RecordError {
    /// 1-based line of the record.
    pub line: usize,
    /// What is wrong on that line, in words.
    pub reason: String,
}

/// The common interface of the three games.
///
/// States are plain serialisable data that a client holds and sends back; `validate` checks one
/// received from outside before any other method sees it. Every other method may assume a valid
/// state and must not panic on one.
pub trait Game: Sized + 'static {
    /// The id in URLs (`herfor`).
    const ID: &'static str;
    /// The name for people (`Herfor`).
    const NAME: &'static str;
    /// The letter of the game's rule ids (`F` for Herfor's F1…F6): a rule id cited in an error
    /// names its game, and so its rules page.
    const RULE_LETTER: char;
    /// The move notation [`Game::parse_move`] reads and [`Game::format_move`] writes, in
    /// Markdown, for the API's documentation.
    const NOTATION: &'static str;
    /// The first moves of a game from the default options, in the notation: the examples of
    /// the API's documentation (a link's `moves`).
    const EXAMPLE_MOVES: &'static [&'static str];
    /// A move's form as a regular expression (unanchored, no white space around it), where the
    /// notation is regular enough to state exactly: the API's document gives it to every `move`
    /// as a pattern. `None` where the reader checks more than a pattern could (Hirþ's steps).
    /// A text off the form must be one [`Game::parse_move`] refuses.
    const MOVE_FORM: Option<&'static str>;

    /// The options a game starts with: board size, variants, match target.
    type Options: Clone + Debug + Default + Serialize + DeserializeOwned + Schema + Send + Sync;
    /// A whole position, with everything needed to go on: the client holds it between moves.
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Schema + Send + Sync;
    /// One move as [`Game::legal_moves`] lists it and [`Game::apply`] takes it.
    type Move: Clone + Debug + PartialEq + Eq + Hash + Send + Sync;
    /// What a move caused (flips, captures, battles), for clients and pages.
    type Event: Clone + Debug + PartialEq + Serialize + Schema + Send + Sync;
    /// The rule-specific score breakdown.
    type Score: Clone + Debug + Serialize + Schema + Send + Sync;

    /// The smallest and largest value of a whole-number option (as its schema's `minimum` and
    /// `maximum` say), so that a refusal can name them; `None` for any other option.
    fn option_bounds(_name: &str) -> Option<(i64, i64)> {
        None
    }

    /// The initial state for these options.
    fn new_game(options: &Self::Options) -> Result<Self::State, InvalidOptions>;

    /// The options a state was started with (for records and replays).
    fn options(state: &Self::State) -> Self::Options;

    /// Checks every invariant of a state received from outside.
    fn validate(state: &Self::State) -> Result<(), InvalidState>;

    /// Who acts now, or the result. Cheap.
    fn turn(state: &Self::State) -> Turn;

    /// The descriptive status for clients.
    fn status(state: &Self::State) -> Status;

    /// Appends every legal move to `out` (which the caller clears). Empty once the game is over.
    fn legal_moves_into(state: &Self::State, out: &mut Vec<Self::Move>);

    /// Every legal move in a new vector; empty once the game is over.
    fn legal_moves(state: &Self::State) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        Self::legal_moves_into(state, &mut moves);
        moves
    }

    /// Checks the move and plays it, or says which rule forbids it (the state is then unchanged).
    fn apply(state: &mut Self::State, mv: &Self::Move) -> Result<Vec<Self::Event>, MoveError>;

    /// Plays a move known to be legal (one from `legal_moves`), skipping checks and events: the
    /// search's fast path. May panic or corrupt the state when given an illegal move.
    fn play_unchecked(state: &mut Self::State, mv: &Self::Move);

    /// The score breakdown, at any moment.
    fn score(state: &Self::State) -> Self::Score;

    /// Reads a move in the game's notation, in this position.
    fn parse_move(state: &Self::State, text: &str) -> Result<Self::Move, MoveError>;

    /// Writes a move in the game's notation, in this position (before it is played).
    fn format_move(state: &Self::State, mv: &Self::Move) -> String;

    /// Reads a whole game record. The default reads move notations separated by white space or
    /// commas, playing each to read the next; games with a record format of their own override it.
    fn read_record(options: &Self::Options, text: &str) -> Result<Record<Self::Move>, RecordError> {
        let mut state = Self::new_game(options).map_err(|e| RecordError {
            line: 1,
            reason: format!("options: {e}"),
        })?;
        let mut moves = Vec::new();
        for (number, line) in text.lines().enumerate() {
            for token in line
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
            {
                let err = |e: MoveError| RecordError {
                    line: number + 1,
                    reason: format!("{token}: {e}"),
                };
                let mv = Self::parse_move(&state, token).map_err(err)?;
                Self::apply(&mut state, &mv).map_err(err)?;
                moves.push(mv);
            }
        }
        Ok(Record {
            moves,
            warnings: Vec::new(),
        })
    }

    /// Writes the record of the game that led to this state in the game's own record format,
    /// when the state carries its history (Hirþ, H12). `None` for games whose record is simply
    /// the list of moves, which callers then write themselves.
    fn write_record(_state: &Self::State) -> Option<String> {
        None
    }
}

/// Facts about a game for listings: id, name, and the default options as JSON.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct GameInfo {
    /// The id in URLs ([`Game::ID`]).
    pub id: &'static str,
    /// The name for people ([`Game::NAME`]).
    pub name: &'static str,
    /// The options with their defaults.
    #[cfg_attr(feature = "schema", schema(value_type = Object))]
    pub default_options: serde_json::Value,
}

/// The default start after up to `plies` seeded random legal moves: varied positions for the
/// search's tests and benchmarks.
pub fn random_opening<G: Game>(plies: usize, seed: u64) -> G::State {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut state = G::new_game(&G::Options::default()).expect("the default options are valid");
    for _ in 0..plies {
        let moves = G::legal_moves(&state);
        let Some(mv) = moves.choose(&mut rng) else {
            break;
        };
        G::play_unchecked(&mut state, mv);
    }
    state
}
