//! Long replays: 32 clients looping `POST /api/v1/games/hirth/replay` with the moves of one
//! legal Hirþ game of up to 5,000 moves (the most a request may hold), played at random through
//! the API beforehand. The game is a match to 21 points, the most the game allows: random play
//! refuses the doubling coin often, and a match to the default 5 points ends within a few
//! hundred moves (a match to 21 may end before 5,000 moves: the longest of a few is kept).

use std::net::SocketAddr;
use std::sync::Arc;

use moot_load::http::send;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::json;

use crate::api::Api;
use crate::patterns::Load;

/// Clients looping.
const CLIENTS: usize = 32;
/// The most moves a request may hold.
const MOVES: usize = 5_000;
/// Games tried when a game ends before [`MOVES`]: the longest is replayed.
const GAMES: u64 = 3;
/// The match's target, in points (the most the game allows).
const TARGET: u32 = moot_games::hirth::MAX_TARGET;

/// Plays the game and prepares the replays.
pub fn load(addr: SocketAddr) -> Result<Load, String> {
    let mut longest: (Vec<String>, u64) = (Vec::new(), 0);
    for seed in 1..=GAMES {
        let moves = random_game(addr, seed)?;
        if moves.len() > longest.0.len() {
            longest = (moves, seed);
        }
        if longest.0.len() == MOVES {
            break;
        }
    }
    let (moves, seed) = longest;
    let body = json!({ "options": { "target": TARGET }, "moves": moves })
        .to_string()
        .into_bytes();
    let first = send(addr, "POST", "/api/v1/games/hirth/replay", &body);
    let notes = vec![
        format!(
            "a Hirþ match to {TARGET} points, {} random legal moves (seed {seed}{}), body {} bytes",
            moves.len(),
            if moves.len() < MOVES {
                ", the longest of the games tried: each ended sooner"
            } else {
                ""
            },
            body.len()
        ),
        format!(
            "one replay of it: status {}, answer {} bytes",
            first.status, first.bytes
        ),
    ];
    let body = Arc::new(body);
    Ok(Load {
        notes,
        once: None,
        clients: CLIENTS,
        attempt: Arc::new(move |_, _| send(addr, "POST", "/api/v1/games/hirth/replay", &body)),
        regular: None,
    })
}

/// Random legal moves from a new match to [`TARGET`] points until it ends or has [`MOVES`].
fn random_game(addr: SocketAddr, seed: u64) -> Result<Vec<String>, String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut api = Api::new(addr, "hirth");
    let mut state = api.new_game(json!({ "target": TARGET }))?;
    let mut moves = Vec::new();
    while moves.len() < MOVES {
        let legal = api.legal_moves(&state)?;
        let Some(mv) = legal.choose(&mut rng) else {
            break;
        };
        state = api.apply(&state, mv)?;
        moves.push(mv.clone());
    }
    Ok(moves)
}
