//! Examples for the OpenAPI document, computed by really playing each registered game, so they
//! are always states, moves and events the service would accept and produce: the first game's
//! for the generic document ([`super::docs`] sets them), each game's for its own bodies in the
//! published one ([`of_game`]).

use std::sync::OnceLock;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};

use super::ops;
use super::tables::examples::TableExamples;
use super::types::{ApplyRequest, NewGameRequest, ReplayRequest, StateRequest};
use moot_ai::Strategy;
use moot_games::with_game;
use moot_games::{GAME_IDS, Game};

/// The example game's opening: seeded, so the document is the same from build to build, and
/// between these lengths.
const SEED: u64 = 2024;
const MIN_OPENING: usize = 3;
const MAX_OPENING: usize = 40;
/// The example analysis's budget: small, so the document builds fast.
const EXAMPLE_PLAYOUTS: u32 = 200;

struct Samples {
    games: Value,
    new_request: Value,
    new_response: Value,
    state_request: Value,
    legal_moves: Value,
    apply_request: Value,
    apply_response: Value,
    score: Value,
    replay_request: Value,
    replay_response: Value,
    evaluate_request: Value,
    evaluate_response: Value,
    tables: TableExamples,
}

fn samples() -> Option<&'static Samples> {
    static SAMPLES: OnceLock<Option<Samples>> = OnceLock::new();
    SAMPLES
        .get_or_init(|| {
            let id = GAME_IDS.first()?;
            with_game!(*id, G => play::<G>(), else None)
        })
        .as_ref()
}

/// Plays a seeded random opening until some move stands out by what it causes (a capture, a
/// flip), so the examples show one, and runs every operation on that position and move.
fn play<G: Strategy>() -> Option<Samples> {
    let games = serde_json::to_value(ops::list_all().ok()?).ok()?;
    let options = serde_json::to_value(G::Options::default()).ok()?;
    let new_request = json!({ "options": options });
    let new_response = ops::new_game::<G>(NewGameRequest {
        options: Some(G::Options::default()),
    })
    .ok()?;

    let mut state = G::new_game(&G::Options::default()).ok()?;
    let mut rng = SmallRng::seed_from_u64(SEED);
    let mut opening = Vec::new();
    let next = loop {
        let moves = G::legal_moves(&state);
        let weights: Vec<usize> = moves.iter().map(|mv| weight::<G>(&state, mv)).collect();
        let (least, most) = (weights.iter().min()?, weights.iter().max()?);
        if most > least && opening.len() >= MIN_OPENING || opening.len() >= MAX_OPENING {
            let best = weights.iter().position(|w| w == most)?;
            break G::format_move(&state, &moves[best]);
        }
        let mv = moves.choose(&mut rng)?;
        opening.push(G::format_move(&state, mv));
        G::apply(&mut state, mv).ok()?;
    };
    let state_json = serde_json::to_value(&state).ok()?;
    let tables = TableExamples::of::<G>(&options, &opening, &next)?;

    let state_request = json!({ "state": state_json });
    let legal_moves = ops::legal_moves::<G>(StateRequest {
        state: state.clone(),
    })
    .ok()?;
    let apply_request = json!({ "state": state_json, "move": next });
    let apply_response = ops::apply::<G>(ApplyRequest {
        state: state.clone(),
        mv: Some(next.clone()),
        moves: None,
        plies: None,
    })
    .ok()?;
    let evaluate_request = json!({ "state": state_json, "playouts": EXAMPLE_PLAYOUTS, "seed": 1 });
    let analysis =
        moot_ai::think::<G>(&state, moot_ai::Budget::Playouts(EXAMPLE_PLAYOUTS), 1, None);
    let mut evaluate_response = super::analysis::answer::<G>(&state, &analysis);
    // The time taken is the one number a replayed search does not repeat: fixed here, so the
    // document is the same from build to build.
    evaluate_response.elapsed_ms = 25.0;
    let score = ops::score::<G>(StateRequest {
        state: state.clone(),
    })
    .ok()?;
    opening.push(next);
    let replay_request = json!({ "options": options, "moves": opening });
    let replay_response = ops::replay::<G>(ReplayRequest {
        options: Some(G::Options::default()),
        moves: Some(opening),
        record: None,
        plies: None,
    })
    .ok()?;

    Some(Samples {
        games,
        new_request,
        new_response: serde_json::to_value(new_response).ok()?,
        state_request,
        legal_moves: serde_json::to_value(legal_moves).ok()?,
        apply_request,
        apply_response: serde_json::to_value(apply_response).ok()?,
        score: serde_json::to_value(score).ok()?,
        replay_request,
        replay_response: serde_json::to_value(replay_response).ok()?,
        evaluate_request,
        evaluate_response: serde_json::to_value(evaluate_response).ok()?,
        tables,
    })
}

/// How much a move does, blind to the game: the length of its events' JSON.
fn weight<G: Game>(state: &G::State, mv: &G::Move) -> usize {
    let mut after = state.clone();
    G::apply(&mut after, mv)
        .ok()
        .and_then(|events| serde_json::to_string(&events).ok())
        .map_or(0, |json| json.len())
}

/// Every registered game's samples, played like the first game's.
fn samples_of(id: &str) -> Option<&'static Samples> {
    static ALL: OnceLock<Vec<(&'static str, Option<Samples>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        GAME_IDS
            .iter()
            .map(|id| (*id, with_game!(*id, G => play::<G>(), else None)))
            .collect()
    })
    .iter()
    .find(|(game, _)| *game == id)
    .and_then(|(_, samples)| samples.as_ref())
}

/// The example of one of the API's body schemas (`ApplyRequest`) played in the game `id`.
pub fn of_game(id: &str, schema: &str) -> Option<Value> {
    let samples = samples_of(id)?;
    let example = match schema {
        "NewGameRequest" => &samples.new_request,
        "GameResponse" => &samples.new_response,
        "StateRequest" => &samples.state_request,
        "LegalMovesResponse" => &samples.legal_moves,
        "ApplyRequest" => &samples.apply_request,
        "ApplyResponse" => &samples.apply_response,
        "ScoreResponse" => &samples.score,
        "ReplayRequest" => &samples.replay_request,
        "ReplayResponse" => &samples.replay_response,
        "EvaluateRequest" => &samples.evaluate_request,
        "EvaluateResponse" => &samples.evaluate_response,
        "PictureRequest" => return Some(picture_request_of(&samples.state_request)),
        "CreateTableRequest" => &samples.tables.create_request,
        "CreatedTable" => &samples.tables.created,
        "TableResponse" => &samples.tables.table,
        "RematchResponse" => &samples.tables.rematch,
        "TakebackResponse" => &samples.tables.takeback,
        "CreateChallengeRequest"
        | "ChallengeResponse"
        | "ChallengesResponse"
        | "AcceptedChallenge" => {
            return crate::api::tables::challenge_bodies::example(
                schema,
                id,
                &samples.tables.created,
            );
        }
        _ => return None,
    };
    Some(example.clone())
}

/// A picture of the sample position: 400 pixels with its caption.
fn picture_request_of(state_request: &Value) -> Value {
    let mut example = state_request.clone();
    example["pixels"] = 400.into();
    example["caption"] = true.into();
    example
}

fn pick(field: impl Fn(&Samples) -> &Value) -> Value {
    samples().map(field).cloned().unwrap_or(Value::Null)
}

/// `GET …/tables/{id}/moves`: a table's history, in the first game.
pub fn table_history() -> Value {
    pick(|s| &s.tables.history)
}
/// `POST …/tables/{id}/moves`: a move and the ply its sender saw, in the first game.
pub fn table_move_request() -> Value {
    pick(|s| &s.tables.move_request)
}
/// `GET /games`: every registered game's listing.
pub fn games_response() -> Value {
    pick(|s| &s.games)
}
/// The body of `…/new`: the first game's default options.
pub fn new_game_request() -> Value {
    pick(|s| &s.new_request)
}
/// The answer of `…/new`: the start of that game.
pub fn game_response() -> Value {
    pick(|s| &s.new_response)
}
/// The body that carries a state alone (`…/legal-moves`, `…/score`): the sample position, a
/// seeded opening of the first game.
pub fn state_request() -> Value {
    pick(|s| &s.state_request)
}
/// The answer of `…/legal-moves` in the sample position.
pub fn legal_moves_response() -> Value {
    pick(|s| &s.legal_moves)
}
/// The body of `…/apply`: the sample position and the move that does the most in it (a capture,
/// a flip).
pub fn apply_request() -> Value {
    pick(|s| &s.apply_request)
}
/// The answer of `…/apply`: the position after that move and what it caused.
pub fn apply_response() -> Value {
    pick(|s| &s.apply_response)
}
/// The answer of `…/score` in the sample position.
pub fn score_response() -> Value {
    pick(|s| &s.score)
}
/// The body of `…/replay`: the default options and the opening, the sample move included.
pub fn replay_request() -> Value {
    pick(|s| &s.replay_request)
}
/// The answer of `…/replay`: that game replayed, ply by ply.
pub fn replay_response() -> Value {
    pick(|s| &s.replay_response)
}
/// The body of `POST …/picture`: the sample position, drawn as a 400-pixel PNG with a caption.
pub fn picture_request() -> Value {
    picture_request_of(&state_request())
}
/// The body of `…/evaluate`: the sample position at a small playout budget, seed 1.
pub fn evaluate_request() -> Value {
    pick(|s| &s.evaluate_request)
}
/// The answer of `…/evaluate`, its time fixed so the document does not change between builds.
pub fn evaluate_response() -> Value {
    pick(|s| &s.evaluate_response)
}
