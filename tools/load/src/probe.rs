//! The well-behaved client: `GET /healthz` and a normal `legal-moves` (Herfor, size 5), timed,
//! while abusers run, and the same idle first to compare.

use std::net::SocketAddr;
use std::thread;
use std::time::{Duration, Instant};

use crate::http::{Reply, fetch, send};
use crate::kept_alive::KeptAlive;

/// Where the well-behaved client asks for legal moves.
pub const LEGAL_MOVES: &str = "/api/v1/games/herfor/legal-moves";
/// The pause between two rounds of the well-behaved client.
pub const BETWEEN_ROUNDS: Duration = Duration::from_millis(20);

/// The times of one phase's requests.
#[derive(Clone, Debug, Default)]
pub struct Measures {
    /// `GET /healthz`, each request's time.
    pub healthz: Vec<Duration>,
    /// `legal-moves`, each request's time.
    pub legal_moves: Vec<Duration>,
    /// Requests not answered 200.
    pub failures: usize,
}

impl Measures {
    /// Counts one round's two answers.
    pub fn add(&mut self, healthz: Reply, legal_moves: Reply) {
        self.failures += [healthz, legal_moves]
            .iter()
            .filter(|reply| reply.status != 200)
            .count();
        self.healthz.push(healthz.took);
        self.legal_moves.push(legal_moves.took);
    }
}

/// The well-behaved client of one server.
pub struct WellBehaved {
    addr: SocketAddr,
    legal_body: Vec<u8>,
    kept: KeptAlive,
}

impl WellBehaved {
    /// Asks for the legal moves of `state` (a Herfor state as JSON).
    pub fn new(addr: SocketAddr, state: &str) -> Self {
        WellBehaved {
            addr,
            legal_body: format!("{{\"state\": {state}}}").into_bytes(),
            kept: KeptAlive::new(addr),
        }
    }

    /// One round on a new connection per request (the time includes connect and accept):
    /// healthz, then legal-moves.
    pub fn round_on_new_connections(&self) -> (Reply, Reply) {
        let healthz = send(self.addr, "GET", "/healthz", b"");
        let legal = send(self.addr, "POST", LEGAL_MOVES, &self.legal_body);
        (healthz, legal)
    }

    /// One round over the kept-alive connection: healthz, then legal-moves.
    pub fn round_kept_alive(&mut self) -> (Reply, Reply) {
        let healthz = self.kept.send("GET", "/healthz", b"");
        let legal = self.kept.send("POST", LEGAL_MOVES, &self.legal_body);
        (healthz, legal)
    }

    /// Rounds over the kept-alive connection for `seconds`, [`BETWEEN_ROUNDS`] apart.
    pub fn kept_alive_for(&mut self, seconds: u64) -> Measures {
        let until = Instant::now() + Duration::from_secs(seconds);
        let mut measures = Measures::default();
        while Instant::now() < until {
            let (healthz, legal) = self.round_kept_alive();
            measures.add(healthz, legal);
            thread::sleep(BETWEEN_ROUNDS);
        }
        measures
    }
}

/// A new game's state as JSON (`POST /api/v1/games/{game}/new` with `request`, e.g. `{}`).
pub fn new_state(addr: SocketAddr, game: &str, request: &str) -> Result<String, String> {
    let path = format!("/api/v1/games/{game}/new");
    let answer =
        fetch(addr, "POST", &path, &[], request.as_bytes()).map_err(|e| format!("{path}: {e}"))?;
    let value: serde_json::Value =
        serde_json::from_slice(&answer.body).map_err(|e| format!("{game}: {e}"))?;
    if answer.head.status != 200 {
        return Err(format!("{path}: status {}: {value}", answer.head.status));
    }
    Ok(value["state"].to_string())
}
