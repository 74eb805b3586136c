//! The JSON API of one game over a kept-alive connection, for the patterns' preparations
//! (playing the games whose moves the attacks send).

use std::net::SocketAddr;

use moot_load::kept_alive::KeptAlive;
use serde_json::Value;

/// One game's operations (`/api/v1/games/{game}/…`).
pub struct Api {
    kept: KeptAlive,
    game: &'static str,
}

impl Api {
    /// The operations of `game` on the server at `addr`.
    pub fn new(addr: SocketAddr, game: &'static str) -> Self {
        Api {
            kept: KeptAlive::new(addr),
            game,
        }
    }

    /// `POST /api/v1/games/{game}/{operation}`: the answer's JSON, or what went wrong.
    pub fn post(&mut self, operation: &str, body: &Value) -> Result<Value, String> {
        let path = format!("/api/v1/games/{}/{operation}", self.game);
        let answer = self
            .kept
            .fetch("POST", &path, &[], body.to_string().as_bytes())
            .map_err(|e| format!("{path}: no answer ({e})"))?;
        if answer.head.status != 200 {
            return Err(format!(
                "{path}: status {}: {}",
                answer.head.status,
                String::from_utf8_lossy(&answer.body)
            ));
        }
        serde_json::from_slice(&answer.body).map_err(|e| format!("{path}: not JSON ({e})"))
    }

    /// The legal moves in `state` (none once the game is over).
    pub fn legal_moves(&mut self, state: &Value) -> Result<Vec<String>, String> {
        let answer = self.post("legal-moves", &serde_json::json!({ "state": state }))?;
        let moves = answer["moves"]
            .as_array()
            .ok_or("legal-moves answered no `moves`")?;
        Ok(moves
            .iter()
            .filter_map(|m| m.as_str().map(str::to_owned))
            .collect())
    }

    /// The state after `mv` is played in `state`.
    pub fn apply(&mut self, state: &Value, mv: &str) -> Result<Value, String> {
        let mut answer = self.post(
            "apply",
            &serde_json::json!({ "state": state, "move": mv, "plies": false }),
        )?;
        Ok(answer["state"].take())
    }

    /// A new game's state with `options`.
    pub fn new_game(&mut self, options: Value) -> Result<Value, String> {
        let mut answer = self.post("new", &serde_json::json!({ "options": options }))?;
        Ok(answer["state"].take())
    }
}
