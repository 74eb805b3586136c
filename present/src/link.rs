//! The position in the URL: the game's options as query parameters, and the moves played so
//! far, in the game's notation, joined by `.` in `moves` (no game's notation uses a dot):
//! `/play/herfor?pie=false&simple=false&size=3&moves=c3.b2`. Every request replays the moves
//! from the start, so a tampered link can only be refused, never trusted.

use std::collections::HashSet;
use std::fmt;

use serde_json::{Map, Value};

use crate::limits::{MAX_LINK_BYTES, MAX_URL_BYTES};

use moot_ai::Strength;
use moot_games::{Game, InvalidOptions, MoveError, Seat, Turn};

/// The parameter holding the moves.
pub const MOVES: &str = "moves";
/// What joins the moves in [`MOVES`].
pub const SEPARATOR: char = '.';
/// The parameter of the form that plays a move typed in notation.
pub const PLAY: &str = "play";
/// The parameter of the undo button: the position before the last move (against the
/// computer, before the player's last move).
pub const UNDO: &str = "undo";
/// The parameter that shows an earlier position of the link's game: the position after its
/// first `at` moves, to look at (no move is played from it, the computer does not answer).
pub const AT: &str = "at";
/// Parameters of the pages themselves; every other parameter is one of the game's options.
pub const PAGE_PARAMS: &[&str] = &[MOVES, PLAY, COMPUTER, STRENGTH, HINT, UNDO, AT];
pub use crate::limits::MAX_MOVES;
/// The parameter naming the seat the computer plays (`first` or `second`).
pub const COMPUTER: &str = "computer";
/// The parameter naming its strength (`easy`, `normal`, `strong`).
pub const STRENGTH: &str = "strength";
/// The parameter that asks for a hint.
pub const HINT: &str = "hint";

/// Why a link holds no game to show. Each surface answers it its own way: the pages with an
/// error page, the API's picture links with a problem.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    /// The link's options, opponent or moves cannot be read.
    Unreadable(String),
    /// Move `index` (from 0) of the link, `text`, is refused by the engine; `before` is the
    /// link of the position before it.
    RefusedMove {
        /// The move's place in the link, from 0.
        index: usize,
        /// The move as the link writes it.
        text: String,
        /// Why the engine refuses it.
        error: MoveError,
        /// The link of the position before the move, which the error page offers.
        before: String,
    },
    /// The link is `written` bytes long as the pages write it back: over [`MAX_LINK_BYTES`].
    TooLong {
        /// The length in bytes of the link as the pages would write it.
        written: usize,
    },
    /// Moot could not write the link's options back: a bug.
    Internal(String),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::Unreadable(detail) | LinkError::Internal(detail) => f.write_str(detail),
            LinkError::RefusedMove {
                index, text, error, ..
            } => write!(
                f,
                "Move {} of the link, {text:?}, cannot be played: {error}.",
                index + 1
            ),
            LinkError::TooLong { written } => write!(
                f,
                "This link is {written} bytes long; Moot reads links of up to {MAX_LINK_BYTES} \
                 bytes (and none at all past {MAX_URL_BYTES}). A game this long can go on \
                 through the API, which takes its moves in the body of a request."
            ),
        }
    }
}

impl std::error::Error for LinkError {}

/// A link's options the engine refuses: the link does not hold a game.
impl From<InvalidOptions> for LinkError {
    fn from(e: InvalidOptions) -> Self {
        LinkError::Unreadable(format!("The option {} is refused: {}", e.field, e.reason))
    }
}

/// The computer as a link holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// The seat the computer plays.
    pub seat: Seat,
    /// How hard it searches (`strength`; `normal` when the link does not say).
    pub strength: Strength,
}

impl Opponent {
    /// Reads `computer` and `strength`: no `computer` (or an empty one) is a game between two
    /// people.
    pub fn read(computer: Option<&str>, strength: Option<&str>) -> Result<Option<Self>, LinkError> {
        let seat = match computer.map(str::trim) {
            None | Some("") => return Ok(None),
            Some("first") => Seat::First,
            Some("second") => Seat::Second,
            Some(other) => {
                return Err(LinkError::Unreadable(format!(
                    "The computer cannot play {other:?}: it plays \"first\" or \"second\"."
                )));
            }
        };
        let strength = match strength.map(str::trim) {
            None | Some("") => Strength::Normal,
            Some(name) => Strength::from_name(name).ok_or_else(|| {
                LinkError::Unreadable(format!(
                    "{name:?} is not a strength: easy, normal or strong."
                ))
            })?,
        };
        Ok(Some(Opponent { seat, strength }))
    }

    /// The computer as query pairs, `computer` then `strength`, as the link writes them.
    pub fn pairs(&self) -> [(String, String); 2] {
        let seat = match self.seat {
            Seat::First => "first",
            Seat::Second => "second",
        };
        [
            (COMPUTER.to_owned(), seat.to_owned()),
            (STRENGTH.to_owned(), self.strength.name().to_owned()),
        ]
    }

    /// Whether the computer must act in this state.
    pub fn to_act<G: Game>(&self, state: &G::State) -> bool {
        G::turn(state) == Turn::ToAct(self.seat)
    }
}

/// A query string read into its pairs, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Query(pub Vec<(String, String)>);

impl Query {
    /// Reads a query string (without the `?`), percent-decoding names and values; never fails.
    pub fn parse(query: &str) -> Self {
        Query(
            form_urlencoded::parse(query.as_bytes())
                .into_owned()
                .collect(),
        )
    }

    /// The value of a parameter, if given; given twice is an error.
    pub fn get(&self, name: &str) -> Result<Option<&str>, LinkError> {
        let mut values = self.0.iter().filter(|(n, _)| n == name).map(|(_, v)| v);
        match (values.next(), values.next()) {
            (Some(_), Some(_)) => Err(LinkError::Unreadable(format!(
                "The parameter {name:?} is given more than once."
            ))),
            (first, None) => Ok(first.map(String::as_str)),
            (None, Some(_)) => unreachable!("a second value implies a first"),
        }
    }

    /// Every value of a parameter given more than once on purpose (a form's move buttons and
    /// its typed-move field share a name), in order.
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The pairs that are the game's options.
    fn options(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0
            .iter()
            .filter(|(name, _)| !PAGE_PARAMS.contains(&name.as_str()))
            .map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

/// A game as a link holds it: its options, the computer opponent if any, and the moves
/// played, as written.
pub struct Link<G: Game> {
    /// The game's options, accepted by the engine.
    pub options: G::Options,
    /// The options as query pairs, in a fixed order.
    option_pairs: Vec<(String, String)>,
    /// The computer, when the game is against it; `None` for two people.
    pub opponent: Option<Opponent>,
    /// The moves played, in notation as the link writes them; not checked until replayed.
    pub moves: Vec<String>,
}

// Not derived: a derive would ask `G: Clone` of the engine type.
impl<G: Game> Clone for Link<G> {
    fn clone(&self) -> Self {
        Link {
            options: self.options.clone(),
            option_pairs: self.option_pairs.clone(),
            opponent: self.opponent,
            moves: self.moves.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Link<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Link")
            .field("options", &self.options)
            .field("opponent", &self.opponent)
            .field("moves", &self.moves)
            .finish()
    }
}

impl<G: Game> Link<G> {
    /// The start of a game with these options (checked by the engine).
    pub fn start(options: G::Options) -> Result<Self, LinkError> {
        G::new_game(&options)?;
        let option_pairs = option_pairs(&options)?;
        Ok(Link {
            options,
            option_pairs,
            opponent: None,
            moves: Vec::new(),
        })
    }

    /// Reads the options from a query (absent ones take their defaults) and the moves, when
    /// the query has a move list (else `None`: the query only chooses options).
    pub fn read(query: &Query) -> Result<(Self, bool), LinkError> {
        let mut position = Self::start(read_options::<G>(query)?)?;
        position.opponent = Opponent::read(query.get(COMPUTER)?, query.get(STRENGTH)?)?;
        let moves = query.get(MOVES)?;
        if let Some(text) = moves {
            position.moves = split_moves(text)?;
        }
        // The page writes this link back re-encoded (`[` as `%5B`, defaults written out): that
        // length is what must stay under the limit, so every link it writes reaches Moot.
        let written = position.href().len();
        if written > MAX_LINK_BYTES {
            return Err(LinkError::TooLong { written });
        }
        Ok((position, moves.is_some()))
    }

    /// The options, the opponent, then the moves, as query pairs.
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut pairs = self.setup_pairs();
        pairs.push((MOVES.to_owned(), self.moves.join(&SEPARATOR.to_string())));
        pairs
    }

    /// The options as query pairs.
    pub fn option_pairs(&self) -> &[(String, String)] {
        &self.option_pairs
    }

    /// The options and the opponent as query pairs: the game's setup, without moves.
    fn setup_pairs(&self) -> Vec<(String, String)> {
        let mut pairs = self.option_pairs.clone();
        pairs.extend(self.opponent.iter().flat_map(Opponent::pairs));
        pairs
    }

    /// The game page of this position.
    pub fn href(&self) -> String {
        format!("{}?{}", play_path(G::ID), encode(&self.pairs()))
    }

    /// The plain-text record of this position's game.
    pub fn record_href(&self) -> String {
        format!("{}/record?{}", play_path(G::ID), encode(&self.pairs()))
    }

    /// The options page, preset to these options and opponent: between two people, an
    /// empty `computer` says so (the options page otherwise proposes the computer).
    pub fn options_href(&self) -> String {
        let mut pairs = self.setup_pairs();
        if self.opponent.is_none() {
            pairs.push((COMPUTER.to_owned(), String::new()));
        }
        format!("{}?{}", play_path(G::ID), encode(&pairs))
    }

    /// This page with a hint.
    pub fn hint_href(&self) -> String {
        format!("{}&{HINT}=1", self.href())
    }

    /// The page showing this game's position after its first `count` moves, to look at.
    pub fn at_href(&self, count: usize) -> String {
        format!("{}&{AT}={count}", self.href())
    }

    /// The earlier position the query asks to see (`at`): a number of moves from 0 to the
    /// link's own; `None` when it asks for none.
    pub fn read_at(&self, query: &Query) -> Result<Option<usize>, LinkError> {
        query
            .get(AT)?
            .map(|text| at_of(text, self.moves.len()))
            .transpose()
    }

    /// This position after one more move.
    pub fn with_move(&self, notation: impl Into<String>) -> Self {
        let mut next = self.clone();
        next.moves.push(notation.into());
        next
    }

    /// This position with only the first `count` moves.
    pub fn truncated(&self, count: usize) -> Self {
        let mut earlier = self.clone();
        earlier.moves.truncate(count);
        earlier
    }
}

/// The position an `at` asks to see, on a page whose game has `moves` moves (a link's, a
/// table's): a number of moves from 0 to `moves`.
pub fn at_of(text: &str, moves: usize) -> Result<usize, LinkError> {
    match text.trim().parse::<usize>() {
        Ok(at) if at <= moves => Ok(at),
        _ => Err(LinkError::Unreadable(format!(
            "\"at\" is {:?}: it counts the moves of the position to show, from 0 to the \
             {moves} of this game.",
            crate::limits::excerpt(text, crate::limits::EXCERPT_CHARS)
        ))),
    }
}

/// The path of the pages of game `id`: the options form, or the game when the query has `moves`.
pub fn play_path(id: &str) -> String {
    format!("/play/{id}")
}

/// Query pairs as a query string (without the `?`), percent-encoded as a form would send them.
pub fn encode(pairs: &[(String, String)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

fn split_moves(text: &str) -> Result<Vec<String>, LinkError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let moves: Vec<String> = text.split(SEPARATOR).map(str::to_owned).collect();
    if moves.len() > MAX_MOVES {
        return Err(LinkError::Unreadable(format!(
            "The link holds {} moves; a link holds at most {MAX_MOVES}.",
            moves.len()
        )));
    }
    if let Some(index) = moves.iter().position(|m| m.trim().is_empty()) {
        return Err(LinkError::Unreadable(format!(
            "Move {} of the link is empty (two dots in a row, or one at an end).",
            index + 1
        )));
    }
    Ok(moves)
}

/// The game's options as JSON members, from their defaults and the query's values.
fn read_options<G: Game>(query: &Query) -> Result<G::Options, LinkError> {
    let Value::Object(mut members) = to_json(&G::Options::default())? else {
        return Err(LinkError::Unreadable(format!(
            "{} has no options to set.",
            G::NAME
        )));
    };
    let known: Vec<String> = members.keys().cloned().collect();
    let mut seen = HashSet::new();
    for (name, text) in query.options() {
        if !seen.insert(name) {
            return Err(LinkError::Unreadable(format!(
                "The option {name:?} is given more than once."
            )));
        }
        let Some(default) = members.get(name) else {
            return Err(LinkError::Unreadable(format!(
                "{name:?} is not an option of {} (its options: {}).",
                G::NAME,
                known.join(", ")
            )));
        };
        let (min, max) = G::option_bounds(name).unzip();
        let expected = match (min, max) {
            (Some(min), Some(max)) if default.is_number() => {
                format!("a whole number from {min} to {max}")
            }
            _ => kind(default).to_owned(),
        };
        let refused = || {
            LinkError::Unreadable(format!(
                "The option {name} cannot be {:?}: expected {expected}.",
                crate::limits::excerpt(text, crate::limits::EXCERPT_CHARS)
            ))
        };
        let value = option_value(default, text).ok_or_else(refused)?;
        if let Value::Number(number) = &value {
            // Whole numbers within the schema's bounds: never a type error from serde.
            let whole = number
                .as_i64()
                .filter(|n| min.is_none_or(|min| *n >= min) && max.is_none_or(|max| *n <= max));
            if (default.is_i64() || default.is_u64()) && whole.is_none() {
                return Err(refused());
            }
        }
        members.insert(name.to_owned(), value);
    }
    serde_json::from_value(Value::Object(members))
        .map_err(|e| LinkError::Unreadable(format!("The options are refused: {e}.")))
}

/// Reads a query value as the JSON type of the option's default.
fn option_value(default: &Value, text: &str) -> Option<Value> {
    let text = text.trim();
    match default {
        Value::Bool(_) => match text.to_ascii_lowercase().as_str() {
            "true" | "1" | "on" | "yes" => Some(Value::Bool(true)),
            "false" | "0" | "off" | "no" => Some(Value::Bool(false)),
            _ => None,
        },
        Value::Number(_) => serde_json::from_str::<serde_json::Number>(text)
            .ok()
            .map(Value::Number),
        Value::String(_) => Some(Value::String(text.to_owned())),
        _ => serde_json::from_str(text).ok(),
    }
}

fn kind(default: &Value) -> &'static str {
    match default {
        Value::Bool(_) => "true or false",
        Value::Number(n) if n.is_i64() || n.is_u64() => "a whole number",
        Value::Number(_) => "a number",
        _ => "a value in JSON",
    }
}

fn option_pairs<O: serde::Serialize>(options: &O) -> Result<Vec<(String, String)>, LinkError> {
    let members = match to_json(options)? {
        Value::Object(members) => members,
        _ => Map::new(),
    };
    Ok(members
        .into_iter()
        .map(|(name, value)| {
            let text = match value {
                Value::String(s) => s,
                other => other.to_string(),
            };
            (name, text)
        })
        .collect())
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, LinkError> {
    serde_json::to_value(value)
        .map_err(|e| LinkError::Internal(format!("The options could not be written: {e}")))
}

#[cfg(test)]
mod tests;
