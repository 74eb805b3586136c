//! The API's operations, generic over [`Game`]: read a request as the game's own types,
//! validate them, call the engine, and shape the answer. No HTTP here.
//!
//! Order for every operation: the request's shape (`invalid_request`), then the game's types
//! (`invalid_state` / `invalid_options` naming the field), then `validate`, and only then the
//! engine's other methods. A body is read in one pass, straight into the game's types
//! ([`read`]); only a body refused is read again member by member, to name its first fault in
//! that order.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::body::decode;
use super::problem::{ApiError, ErrorCode};
use super::types::{
    ApplyRequest, ApplyResponse, GameListing, GameResponse, GamesResponse, LegalMovesResponse,
    NewGameRequest, OptionListing, Ply, ReplayRequest, ReplayResponse, ScoreResponse, StateRequest,
};
use crate::limits::{MAX_MOVES, MAX_RECORD_WORDS};
use moot_games::with_game;
use moot_games::{GAME_IDS, Game, Record};

/// Reads a request body into its envelope type; missing, unknown or mistyped members are
/// `invalid_request`.
pub fn envelope<T: DeserializeOwned>(body: Value) -> Result<T, ApiError> {
    an_object(&body)?;
    decode(&body, "", ErrorCode::InvalidRequest)
}

/// serde would read a struct from an array too; the API speaks objects only.
fn an_object(body: &Value) -> Result<(), ApiError> {
    if body.is_object() {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "the body must be a JSON object",
        ))
    }
}

/// A request's checks of its own members (not the game's), made before the game's are read:
/// which members go together, and how many moves may be sent.
pub trait Envelope: DeserializeOwned {
    /// The request's own members refused, or `Ok`.
    fn check(&self) -> Result<(), ApiError> {
        Ok(())
    }
}

impl Envelope for NewGameRequest {}

impl Envelope for StateRequest {}

impl Envelope for ApplyRequest {
    fn check(&self) -> Result<(), ApiError> {
        moves_to_apply(self.mv.as_ref(), self.moves.as_ref()).map(drop)
    }
}

impl Envelope for ReplayRequest {
    fn check(&self) -> Result<(), ApiError> {
        game_to_replay(self.moves.as_ref(), self.record.as_ref()).map(drop)
    }
}

/// Reads a body as the request `T` of game `G` (`ApplyRequest<G::State>`) in one pass. A body
/// refused is read again as `Untyped`, the same request with its game members as JSON
/// (`ApplyRequest`), and then member by member, so that the problem names the first fault in
/// the API's order whatever the order of the body's members: its shape, then its `state`, then
/// its `options`.
pub fn read<G: Game, T: DeserializeOwned, Untyped: Envelope>(body: &Value) -> Result<T, ApiError> {
    an_object(body)?;
    moot_games::json::from_value(body).map_err(|_| first_fault::<G, Untyped>(body))
}

/// Why a body that [`read`] refused is refused, found in the API's order. (The state's
/// `validate` comes later, in the operation, after the request's own checks.)
fn first_fault<G: Game, Untyped: Envelope>(body: &Value) -> ApiError {
    let member = |name: &str| body.get(name).filter(|value| !value.is_null());
    let fault = decode::<Untyped>(body, "", ErrorCode::InvalidRequest)
        .and_then(|request| request.check())
        .err()
        .or_else(|| {
            member("state")
                .and_then(|state| decode::<G::State>(state, "state", ErrorCode::InvalidState).err())
        })
        .or_else(|| member("options").and_then(|options| read_options::<G>(options).err()));
    fault.unwrap_or_else(|| {
        ApiError::internal(
            "the body was refused as a whole, yet each of its members reads: a bug in reading requests",
        )
    })
}

/// Types and validates a state found at `member` of the request.
pub fn read_state<G: Game>(value: Value, member: &str) -> Result<G::State, ApiError> {
    let state: G::State = decode(&value, member, ErrorCode::InvalidState)?;
    valid::<G>(state, member)
}

/// The state, if the game's rules allow it (`invalid_state` naming `member` otherwise).
pub fn valid<G: Game>(state: G::State, member: &str) -> Result<G::State, ApiError> {
    G::validate(&state).map_err(|e| ApiError::invalid_state(member, e))?;
    Ok(state)
}

/// Types the options (absent means the defaults) and starts a game with them.
pub fn start<G: Game>(options: Option<Value>) -> Result<(G::Options, G::State), ApiError> {
    let options = options
        .map(|value| read_options::<G>(&value))
        .transpose()?
        .unwrap_or_default();
    let state = begin::<G>(&options)?;
    Ok((options, state))
}

/// The options sent, typed (`invalid_options` naming the option at fault).
fn read_options<G: Game>(value: &Value) -> Result<G::Options, ApiError> {
    decode(value, "options", ErrorCode::InvalidOptions)
        .map_err(|e| in_the_games_words::<G>(e, value))
}

/// The start of a game with these options (`invalid_options` when the game refuses them).
fn begin<G: Game>(options: &G::Options) -> Result<G::State, ApiError> {
    G::new_game(options).map_err(ApiError::invalid_options)
}

/// An option of the wrong type or out of its type's range (`"size": "7"`, `"size": 300`) said
/// in the game's words: what the option takes, not serde's (`expected u8`). Other option errors
/// (an unknown option, a missing one) are left as they are.
fn in_the_games_words<G: Game>(error: ApiError, sent: &Value) -> ApiError {
    let Some(name) = error
        .0
        .field
        .as_deref()
        .and_then(|f| f.strip_prefix("options."))
    else {
        return error;
    };
    let Some(got) = sent.get(name) else {
        return error;
    };
    let default = to_json(&G::Options::default())
        .ok()
        .and_then(|defaults| defaults.get(name).cloned());
    let takes = match (G::option_bounds(name), default) {
        (Some((min, max)), _) => format!("a whole number from {min} to {max}"),
        (None, Some(Value::Bool(_))) => "true or false".to_owned(),
        _ => return error,
    };
    let got = crate::limits::excerpt(&got.to_string(), crate::limits::EXCERPT_CHARS);
    let field = format!("options.{name}");
    ApiError::new(
        ErrorCode::InvalidOptions,
        format!("{field}: {name} must be {takes}, not {got}"),
    )
    .with_field(field)
}

/// Writes part of an answer as JSON; a failure is the server's bug (`internal_error`).
pub fn to_json<T: Serialize>(value: &T) -> Result<Value, ApiError> {
    serde_json::to_value(value)
        .map_err(|e| ApiError::internal(format!("could not write the answer as JSON: {e}")))
}

/// The listing of every registered game.
pub fn list_all() -> Result<GamesResponse, ApiError> {
    let games = GAME_IDS
        .iter()
        .map(|id| with_game!(*id, G => listing::<G>(), else Err(ApiError::unknown_game(id))))
        .collect::<Result<_, _>>()?;
    Ok(GamesResponse { games })
}

/// Game `G` as `GET /games` lists it: id, name, options with their defaults and meanings, and
/// its rules page.
pub fn listing<G: Game>() -> Result<GameListing, ApiError> {
    let default_options = to_json(&G::Options::default())?;
    let descriptions = to_json(&<G::Options as utoipa::PartialSchema>::schema())?;
    let options = match &default_options {
        Value::Object(members) => members
            .iter()
            .map(|(name, default)| OptionListing {
                name: name.clone(),
                default: default.clone(),
                description: descriptions
                    .pointer(&format!("/properties/{name}/description"))
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            })
            .collect(),
        _ => Vec::new(),
    };
    Ok(GameListing {
        id: G::ID.to_owned(),
        name: G::NAME.to_owned(),
        default_options,
        options,
        rules_url: crate::paths::rules(G::ID),
    })
}

/// `POST …/new`: the start of a game with the options sent (defaults for those left out).
pub fn new_game<G: Game>(
    request: NewGameRequest<G::Options>,
) -> Result<GameResponse<G::State>, ApiError> {
    let state = begin::<G>(&request.options.unwrap_or_default())?;
    Ok(GameResponse {
        status: G::status(&state),
        state,
    })
}

/// `POST …/legal-moves`: every legal move of the state, in the game's notation, and who acts.
pub fn legal_moves<G: Game>(
    request: StateRequest<G::State>,
) -> Result<LegalMovesResponse, ApiError> {
    let state = valid::<G>(request.state, "state")?;
    let moves = G::legal_moves(&state)
        .iter()
        .map(|mv| G::format_move(&state, mv))
        .collect();
    Ok(LegalMovesResponse {
        moves,
        status: G::status(&state),
    })
}

/// `POST …/score`: the state's score breakdown and who acts.
pub fn score<G: Game>(
    request: StateRequest<G::State>,
) -> Result<ScoreResponse<G::Score>, ApiError> {
    let state = valid::<G>(request.state, "state")?;
    Ok(ScoreResponse {
        score: G::score(&state),
        status: G::status(&state),
    })
}

/// One of two members that exclude each other: `Ok(first)` or `Err(second)`, or the problem
/// `(field, detail)` for both sent or for neither.
fn exactly_one<A, B>(
    first: Option<A>,
    second: Option<B>,
    both: (&str, &str),
    neither: (&str, &str),
) -> Result<Result<A, B>, ApiError> {
    let refused = |(field, detail): (&str, &str)| {
        ApiError::new(ErrorCode::InvalidRequest, detail.to_owned()).with_field(field)
    };
    match (first, second) {
        (Some(a), None) => Ok(Ok(a)),
        (None, Some(b)) => Ok(Err(b)),
        (Some(_), Some(_)) => Err(refused(both)),
        (None, None) => Err(refused(neither)),
    }
}

/// `POST …/apply`: plays `move`, or each of `moves` in order (the first refused is named by its
/// index), and answers the position after them with each ply unless `plies` is false.
pub fn apply<G: Game>(
    request: ApplyRequest<G::State>,
) -> Result<ApplyResponse<G::State>, ApiError> {
    let single = moves_to_apply(request.mv.as_ref(), request.moves.as_ref())?;
    let keep = request.plies.unwrap_or(true);
    let mut state = valid::<G>(request.state, "state")?;
    let plies = match single {
        Ok(text) => {
            let (_, ply) =
                play_text::<G>(&mut state, text, keep).map_err(|e| e.with_field("move"))?;
            ply.into_iter().collect()
        }
        Err(texts) => play_all::<G>(&mut state, texts, keep)?.0,
    };
    Ok(ApplyResponse {
        status: G::status(&state),
        state,
        plies,
    })
}

/// What `apply` is to play: `Ok(one move)` or `Err(a list)` of at most [`MAX_MOVES`].
fn moves_to_apply<'a>(
    mv: Option<&'a String>,
    moves: Option<&'a Vec<String>>,
) -> Result<Result<&'a String, &'a Vec<String>>, ApiError> {
    let single = exactly_one(
        mv,
        moves,
        (
            "moves",
            "moves: send exactly one of `move` and `moves`, not both",
        ),
        (
            "move",
            "move: send exactly one of `move` (one move) and `moves` (a list)",
        ),
    )?;
    if let Err(texts) = single {
        within_cap("moves", texts.len())?;
    }
    Ok(single)
}

/// What `replay` is to play: `Ok(a list of moves)` or `Err(a record)`, each within
/// [`MAX_MOVES`].
fn game_to_replay<'a>(
    moves: Option<&'a Vec<String>>,
    record: Option<&'a String>,
) -> Result<Result<&'a Vec<String>, &'a String>, ApiError> {
    let source = exactly_one(
        moves,
        record,
        (
            "record",
            "record: send exactly one of `moves` and `record`, not both",
        ),
        (
            "moves",
            "moves: send exactly one of `moves` (a list of moves) and `record` (a game record)",
        ),
    )?;
    match source {
        Ok(texts) => within_cap("moves", texts.len())?,
        Err(record) => record_within_cap(record)?,
    }
    Ok(source)
}

/// Refuses a list of more than [`MAX_MOVES`] moves in `field` before any is played.
fn within_cap(field: &str, count: usize) -> Result<(), ApiError> {
    if count > MAX_MOVES {
        return Err(ApiError::too_many_moves(
            field,
            &format!("{count} moves sent"),
        ));
    }
    Ok(())
}

/// Refuses a record that cannot hold at most [`MAX_MOVES`] moves, before reading it: one with
/// more than [`MAX_RECORD_WORDS`] words.
fn record_within_cap(record: &str) -> Result<(), ApiError> {
    let words = record
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .take(MAX_RECORD_WORDS + 1)
        .count();
    if words > MAX_RECORD_WORDS {
        return Err(ApiError::too_many_moves(
            "record",
            &format!("the record holds more than {MAX_RECORD_WORDS} words"),
        ));
    }
    Ok(())
}

/// `POST …/replay`: plays a game from its options and its `moves` or `record`, and answers the
/// final position, the plies, the record in the game's format and the reader's warnings.
pub fn replay<G: Game>(
    request: ReplayRequest<G::Options>,
) -> Result<ReplayResponse<G::State>, ApiError> {
    let source = game_to_replay(request.moves.as_ref(), request.record.as_ref())?;
    let keep = request.plies.unwrap_or(true);
    let options = request.options.unwrap_or_default();
    let mut state = begin::<G>(&options)?;
    let (plies, warnings, played) = match source {
        Ok(texts) => {
            let (plies, played) = play_all::<G>(&mut state, texts, keep)?;
            (plies, Vec::new(), played)
        }
        Err(record) => {
            let Record { moves, warnings } =
                G::read_record(&options, record).map_err(ApiError::invalid_record)?;
            if moves.len() > MAX_MOVES {
                return Err(ApiError::too_many_moves(
                    "record",
                    &format!("the record holds {} moves", moves.len()),
                ));
            }
            let mut plies = Vec::with_capacity(if keep { moves.len() } else { 0 });
            let mut played = Vec::with_capacity(moves.len());
            for (index, mv) in moves.iter().enumerate() {
                let notation = G::format_move(&state, mv);
                // The reader played these moves already: a refusal now is an engine bug.
                let events = G::apply(&mut state, mv).map_err(|e| {
                    ApiError::internal(format!(
                        "the record's move {index} ({notation}) was read but refused: {e}"
                    ))
                })?;
                if keep {
                    plies.push(ply::<G>(&state, notation.clone(), &events)?);
                }
                played.push(notation);
            }
            (plies, warnings, played)
        }
    };
    let record = G::write_record(&state).unwrap_or_else(|| played.join(" "));
    Ok(ReplayResponse {
        status: G::status(&state),
        state,
        plies,
        record,
        warnings,
    })
}

/// Plays a list of moves in order; the first refused is reported with its index. Returns the
/// plies (if `keep`) and every move in the engine's notation.
fn play_all<G: Game>(
    state: &mut G::State,
    texts: &[String],
    keep: bool,
) -> Result<(Vec<Ply>, Vec<String>), ApiError> {
    let mut plies = Vec::with_capacity(if keep { texts.len() } else { 0 });
    let mut played = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let (notation, ply) =
            play_text::<G>(state, text, keep).map_err(|e| e.at_move("moves", index))?;
        plies.extend(ply);
        played.push(notation);
    }
    Ok((plies, played))
}

/// Reads one move in this position and plays it: its notation, and its ply if `keep`.
fn play_text<G: Game>(
    state: &mut G::State,
    text: &str,
    keep: bool,
) -> Result<(String, Option<Ply>), ApiError> {
    let mv = G::parse_move(state, text).map_err(|e| ApiError::from_move_error(text, e))?;
    let notation = G::format_move(state, &mv);
    let events = G::apply(state, &mv).map_err(|e| ApiError::from_move_error(text, e))?;
    let ply = keep
        .then(|| ply::<G>(state, notation.clone(), &events))
        .transpose()?;
    Ok((notation, ply))
}

/// The games whose events were tagged `event` before every game's were tagged `type`: theirs
/// carry `event` too, the same value, for the clients written then (deprecated; to go with
/// the next major version).
pub(crate) const EVENT_ALIAS_GAMES: [&str; 2] = ["tara", "hirth"];

/// An event as JSON, with the deprecated `event` beside `type` where its game had it.
fn event_json<G: Game>(event: &G::Event) -> Result<Value, ApiError> {
    let mut json = to_json(event)?;
    if EVENT_ALIAS_GAMES.contains(&G::ID)
        && let Value::Object(members) = &mut json
        && let Some(tag) = members.get("type").cloned()
    {
        members.insert("event".to_owned(), tag);
    }
    Ok(json)
}

fn ply<G: Game>(after: &G::State, notation: String, events: &[G::Event]) -> Result<Ply, ApiError> {
    let events = events
        .iter()
        .map(event_json::<G>)
        .collect::<Result<_, _>>()?;
    Ok(Ply {
        mv: notation,
        events,
        status: G::status(after),
    })
}
