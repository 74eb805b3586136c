//! The API's operations, generic over [`Game`]: type the game-dependent members of a request,
//! validate them, call the engine, and shape the answer. No HTTP here.
//!
//! Order for every operation: the request's shape (`invalid_request`), then the game's types
//! (`invalid_state` / `invalid_options` naming the field), then `validate`, and only then the
//! engine's other methods.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::body::decode;
use super::problem::{ApiError, ErrorCode};
use super::types::{
    ApplyRequest, ApplyResponse, GameListing, GameResponse, GamesResponse, LegalMovesResponse,
    NewGameRequest, OptionListing, Ply, ReplayRequest, ReplayResponse, ScoreResponse, StateRequest,
};
use crate::games::{GAME_IDS, Game, Record};
use crate::with_game;

/// Reads a request body into its envelope type; missing, unknown or mistyped members are
/// `invalid_request`.
pub fn envelope<T: DeserializeOwned>(body: Value) -> Result<T, ApiError> {
    // serde would read a struct from an array too; the API speaks objects only.
    if !body.is_object() {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "the body must be a JSON object",
        ));
    }
    decode(body, "", ErrorCode::InvalidRequest)
}

/// Types and validates a state found at `member` of the request.
pub fn read_state<G: Game>(value: Value, member: &str) -> Result<G::State, ApiError> {
    let state: G::State = decode(value, member, ErrorCode::InvalidState)?;
    G::validate(&state).map_err(|e| ApiError::invalid_state(member, e))?;
    Ok(state)
}

/// Types the options (absent means the defaults) and starts a game with them.
pub fn start<G: Game>(options: Option<Value>) -> Result<(G::Options, G::State), ApiError> {
    let options: G::Options = match options {
        None => G::Options::default(),
        Some(value) => decode(value, "options", ErrorCode::InvalidOptions)?,
    };
    let state = G::new_game(&options).map_err(ApiError::invalid_options)?;
    Ok((options, state))
}

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
        rules_url: format!("/rules/{}", G::ID),
    })
}

pub fn new_game<G: Game>(request: NewGameRequest) -> Result<GameResponse, ApiError> {
    let (_, state) = start::<G>(request.options)?;
    Ok(GameResponse {
        state: to_json(&state)?,
        status: G::status(&state),
    })
}

pub fn legal_moves<G: Game>(request: StateRequest) -> Result<LegalMovesResponse, ApiError> {
    let state = read_state::<G>(request.state, "state")?;
    let moves = G::legal_moves(&state)
        .iter()
        .map(|mv| G::format_move(&state, mv))
        .collect();
    Ok(LegalMovesResponse {
        moves,
        status: G::status(&state),
    })
}

pub fn score<G: Game>(request: StateRequest) -> Result<ScoreResponse, ApiError> {
    let state = read_state::<G>(request.state, "state")?;
    Ok(ScoreResponse {
        score: to_json(&G::score(&state))?,
        status: G::status(&state),
    })
}

pub fn apply<G: Game>(request: ApplyRequest) -> Result<ApplyResponse, ApiError> {
    let single = match (request.mv, request.moves) {
        (Some(text), None) => Ok(text),
        (None, Some(texts)) => Err(texts),
        _ => {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                "send exactly one of `move` and `moves`",
            ));
        }
    };
    let mut state = read_state::<G>(request.state, "state")?;
    let plies = match single {
        Ok(text) => vec![play_text::<G>(&mut state, &text).map_err(|e| e.with_field("move"))?],
        Err(texts) => play_all::<G>(&mut state, &texts)?,
    };
    Ok(ApplyResponse {
        state: to_json(&state)?,
        status: G::status(&state),
        plies,
    })
}

pub fn replay<G: Game>(request: ReplayRequest) -> Result<ReplayResponse, ApiError> {
    let source = match (request.moves, request.record) {
        (Some(texts), None) => Ok(texts),
        (None, Some(record)) => Err(record),
        _ => {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                "send exactly one of `moves` and `record`",
            ));
        }
    };
    let (options, mut state) = start::<G>(request.options)?;
    let (plies, warnings) = match source {
        Ok(texts) => (play_all::<G>(&mut state, &texts)?, Vec::new()),
        Err(record) => {
            let Record { moves, warnings } =
                G::read_record(&options, &record).map_err(ApiError::invalid_record)?;
            let mut plies = Vec::with_capacity(moves.len());
            for (index, mv) in moves.iter().enumerate() {
                let notation = G::format_move(&state, mv);
                // The reader played these moves already: a refusal now is an engine bug.
                let events = G::apply(&mut state, mv).map_err(|e| {
                    ApiError::internal(format!(
                        "the record's move {index} ({notation}) was read but refused: {e}"
                    ))
                })?;
                plies.push(ply::<G>(&state, notation, &events)?);
            }
            (plies, warnings)
        }
    };
    let record = G::write_record(&state).unwrap_or_else(|| {
        plies
            .iter()
            .map(|p| p.mv.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    });
    Ok(ReplayResponse {
        state: to_json(&state)?,
        status: G::status(&state),
        plies,
        record,
        warnings,
    })
}

/// Plays a list of moves in order; the first refused is reported with its index.
fn play_all<G: Game>(state: &mut G::State, texts: &[String]) -> Result<Vec<Ply>, ApiError> {
    texts
        .iter()
        .enumerate()
        .map(|(index, text)| play_text::<G>(state, text).map_err(|e| e.at_move("moves", index)))
        .collect()
}

/// Reads one move in this position and plays it.
fn play_text<G: Game>(state: &mut G::State, text: &str) -> Result<Ply, ApiError> {
    let mv = G::parse_move(state, text).map_err(|e| ApiError::from_move_error(text, e))?;
    let notation = G::format_move(state, &mv);
    let events = G::apply(state, &mv).map_err(|e| ApiError::from_move_error(text, e))?;
    ply::<G>(state, notation, &events)
}

fn ply<G: Game>(after: &G::State, notation: String, events: &[G::Event]) -> Result<Ply, ApiError> {
    let events = events.iter().map(to_json).collect::<Result<_, _>>()?;
    Ok(Ply {
        mv: notation,
        events,
        status: G::status(after),
    })
}
