//! The position in the URL: the game's options as query parameters, and the moves played so
//! far, in the game's notation, joined by `.` in `moves` (no game's notation uses a dot):
//! `/play/herfor?pie=false&simple=false&size=3&moves=c3.b2`. Every request replays the moves
//! from the start, so a tampered link can only be refused, never trusted.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::error::PageError;
use super::opponent::{COMPUTER, HINT, Opponent, STRENGTH};
use crate::games::Game;

/// The parameter holding the moves.
pub const MOVES: &str = "moves";
/// What joins the moves in [`MOVES`].
pub const SEPARATOR: char = '.';
/// The parameter of the form that plays a move typed in notation.
pub const PLAY: &str = "play";
/// The parameter of the undo button: the position before the last move (against the
/// computer, before the player's last move).
pub const UNDO: &str = "undo";
/// Parameters of the pages themselves; every other parameter is one of the game's options.
pub const PAGE_PARAMS: &[&str] = &[MOVES, PLAY, COMPUTER, STRENGTH, HINT, UNDO];
pub use crate::limits::MAX_MOVES;

/// A query string read into its pairs, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Query(pub Vec<(String, String)>);

impl Query {
    pub fn parse(query: &str) -> Self {
        Query(
            form_urlencoded::parse(query.as_bytes())
                .into_owned()
                .collect(),
        )
    }

    /// The value of a parameter, if given; given twice is an error.
    pub fn get(&self, name: &str) -> Result<Option<&str>, PageError> {
        let mut values = self.0.iter().filter(|(n, _)| n == name).map(|(_, v)| v);
        match (values.next(), values.next()) {
            (Some(_), Some(_)) => Err(PageError::bad_position(format!(
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
pub struct Position<G: Game> {
    pub options: G::Options,
    /// The options as query pairs, in a fixed order.
    option_pairs: Vec<(String, String)>,
    pub opponent: Option<Opponent>,
    pub moves: Vec<String>,
}

// Not derived: a derive would ask `G: Clone` of the engine type.
impl<G: Game> Clone for Position<G> {
    fn clone(&self) -> Self {
        Position {
            options: self.options.clone(),
            option_pairs: self.option_pairs.clone(),
            opponent: self.opponent,
            moves: self.moves.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Position<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("options", &self.options)
            .field("opponent", &self.opponent)
            .field("moves", &self.moves)
            .finish()
    }
}

impl<G: Game> Position<G> {
    /// The start of a game with these options (checked by the engine).
    pub fn start(options: G::Options) -> Result<Self, PageError> {
        G::new_game(&options)?;
        let option_pairs = option_pairs(&options)?;
        Ok(Position {
            options,
            option_pairs,
            opponent: None,
            moves: Vec::new(),
        })
    }

    /// Reads the options from a query (absent ones take their defaults) and the moves, when
    /// the query has a move list (else `None`: the query only chooses options).
    pub fn read(query: &Query) -> Result<(Self, bool), PageError> {
        let mut position = Self::start(read_options::<G>(query)?)?;
        position.opponent = Opponent::read(query.get(COMPUTER)?, query.get(STRENGTH)?)?;
        let moves = query.get(MOVES)?;
        if let Some(text) = moves {
            position.moves = split_moves(text)?;
        }
        // The page writes this link back re-encoded (`[` as `%5B`, defaults written out): that
        // length is what must stay under the limit, so every link it writes reaches Moot.
        let written = position.href().len();
        if written > crate::limits::MAX_LINK_BYTES {
            return Err(crate::serve::url_limit::link_too_long(written));
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

    /// The options page, preset to these options and opponent.
    pub fn options_href(&self) -> String {
        format!("{}?{}", play_path(G::ID), encode(&self.setup_pairs()))
    }

    /// This page with a hint.
    pub fn hint_href(&self) -> String {
        format!("{}&{HINT}=1", self.href())
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

pub fn play_path(id: &str) -> String {
    format!("/play/{id}")
}

pub fn encode(pairs: &[(String, String)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

fn split_moves(text: &str) -> Result<Vec<String>, PageError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let moves: Vec<String> = text.split(SEPARATOR).map(str::to_owned).collect();
    if moves.len() > MAX_MOVES {
        return Err(PageError::bad_position(format!(
            "The link holds {} moves; a link holds at most {MAX_MOVES}.",
            moves.len()
        )));
    }
    if let Some(index) = moves.iter().position(|m| m.trim().is_empty()) {
        return Err(PageError::bad_position(format!(
            "Move {} of the link is empty (two dots in a row, or one at an end).",
            index + 1
        )));
    }
    Ok(moves)
}

/// The game's options as JSON members, from their defaults and the query's values.
fn read_options<G: Game>(query: &Query) -> Result<G::Options, PageError> {
    let Value::Object(mut members) = to_json(&G::Options::default())? else {
        return Err(PageError::bad_position(format!(
            "{} has no options to set.",
            G::NAME
        )));
    };
    let known: Vec<String> = members.keys().cloned().collect();
    let mut seen = HashSet::new();
    for (name, text) in query.options() {
        if !seen.insert(name) {
            return Err(PageError::bad_position(format!(
                "The option {name:?} is given more than once."
            )));
        }
        let Some(default) = members.get(name) else {
            return Err(PageError::bad_position(format!(
                "{name:?} is not an option of {} (its options: {}).",
                G::NAME,
                known.join(", ")
            )));
        };
        let (min, max) = bounds::<G>(name);
        let expected = match (min, max) {
            (Some(min), Some(max)) if default.is_number() => {
                format!("a whole number from {min} to {max}")
            }
            _ => kind(default).to_owned(),
        };
        let refused = || {
            PageError::bad_position(format!(
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
        .map_err(|e| PageError::bad_position(format!("The options are refused: {e}.")))
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

/// The bounds of a numeric option, from the options' schema.
fn bounds<G: Game>(name: &str) -> (Option<i64>, Option<i64>) {
    let schema =
        serde_json::to_value(<G::Options as utoipa::PartialSchema>::schema()).unwrap_or_default();
    let property = schema.pointer(&format!("/properties/{name}"));
    let bound = |key: &str| property.and_then(|p| p[key].as_i64());
    (bound("minimum"), bound("maximum"))
}

fn kind(default: &Value) -> &'static str {
    match default {
        Value::Bool(_) => "true or false",
        Value::Number(n) if n.is_i64() || n.is_u64() => "a whole number",
        Value::Number(_) => "a number",
        _ => "a value in JSON",
    }
}

fn option_pairs<O: serde::Serialize>(options: &O) -> Result<Vec<(String, String)>, PageError> {
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

fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, PageError> {
    serde_json::to_value(value).map_err(|e| {
        PageError::new(
            actix_web::http::StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong in Moot",
            format!("The options could not be written: {e}"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::herfor::{Herfor, HerforOptions};

    fn read(query: &str) -> Result<(Position<Herfor>, bool), PageError> {
        Position::<Herfor>::read(&Query::parse(query))
    }

    #[test]
    fn options_and_moves_round_trip_through_the_link() {
        let (position, has_moves) = read("size=3&pie=0&moves=c3.b2").expect("accepted");
        assert!(has_moves);
        assert_eq!(
            position.options,
            HerforOptions {
                size: 3,
                pie: false,
                simple: false
            }
        );
        assert_eq!(position.moves, ["c3", "b2"]);
        assert_eq!(
            position.href(),
            "/play/herfor?pie=false&simple=false&size=3&moves=c3.b2"
        );
    }

    #[test]
    fn a_query_without_moves_only_chooses_options() {
        let (position, has_moves) = read("size=4").expect("accepted");
        assert!(!has_moves);
        assert_eq!(position.options.size, 4);
        assert_eq!(
            position.options_href(),
            "/play/herfor?pie=true&simple=false&size=4"
        );
    }

    #[test]
    fn the_computer_opponent_travels_in_the_link_before_the_moves() {
        let (position, _) =
            read("size=3&computer=second&strength=easy&moves=c3").expect("accepted");
        assert_eq!(
            position.href(),
            "/play/herfor?pie=true&simple=false&size=3&computer=second&strength=easy&moves=c3"
        );
        assert!(read("computer=third&moves=").is_err());
    }

    #[test]
    fn notations_with_spaces_and_signs_are_encoded() {
        let position = read("moves=").expect("accepted").0.with_move("end >6Lm");
        assert!(
            position.href().ends_with("moves=end+%3E6Lm"),
            "{}",
            position.href()
        );
        let back = read(position.href().split_once('?').unwrap().1).unwrap().0;
        assert_eq!(back.moves, ["end >6Lm"]);
    }

    #[test]
    fn bad_options_name_the_option() {
        let detail = |q: &str| read(q).expect_err("refused").detail;
        assert!(
            detail("size=9&moves=").contains("size"),
            "{}",
            detail("size=9")
        );
        assert!(
            detail("size=big")
                .contains("size cannot be \"big\": expected a whole number from 3 to 7")
        );
        // A huge number is named in words, not as serde's type error.
        assert_eq!(
            detail("size=1e20"),
            "The option size cannot be \"1e20\": expected a whole number from 3 to 7."
        );
        assert!(detail("size=99999999999").contains("from 3 to 7"));
        assert!(detail("size=4.5").contains("from 3 to 7"));
        assert!(detail("pie=maybe").contains("pie cannot be \"maybe\": expected true or false"));
        assert!(
            detail("colour=red")
                .contains("\"colour\" is not an option of Herfor (its options: pie, simple, size)")
        );
        assert!(detail("size=3&size=4").contains("given more than once"));
        assert_eq!(read("size=9").expect_err("refused").status.as_u16(), 400);
    }

    #[test]
    fn empty_moves_in_the_list_are_refused_by_position() {
        let error = read("moves=c3..b2").expect_err("refused");
        assert!(
            error.detail.contains("Move 2 of the link is empty"),
            "{}",
            error.detail
        );
        assert!(
            read("moves=&moves=c3")
                .expect_err("refused")
                .detail
                .contains("\"moves\" is given more than once")
        );
    }
}
