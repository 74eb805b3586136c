//! `moot-tables`: tables Moot keeps, played through the HTTP API at once, as many players at a
//! site would: `--tables` Herfor tables, each played by a task of its own over its own
//! kept-alive connection, each move a random legal one (chosen here with `moot-games`, so that
//! the server does only the table's work: read, check, apply, commit), posted with the ply it
//! was seen at and the seat's credential. A finished table is replaced by a new one. Prints the
//! moves committed per second and a move's p50 and p99, transport included, with the load
//! average: the figure to set beside the database's own (`pgbench`). With `--players`, each
//! task's two seats are taken by two player keys made at its start, and moves are sent with the
//! players' credentials: what seated players cost a move (their feeds are written beside it).
//!
//! An answer is read into the few fields a player needs (the position straight into the
//! engine's type), so that the client costs the machine it shares with the server little.
//!
//! The server must let one address create tables freely: `moot --table-every-ms 0`.
//!
//! `moot-tables --base http://127.0.0.1:8080 --tables 50 --seconds 10`

use std::time::{Duration, Instant};

use clap::Parser;
use moot_games::Game;
use moot_games::herfor::Herfor;
use moot_load::stats::{ms, percentile};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Parser)]
#[command(
    about = "Plays tables Moot keeps through its HTTP API, many at once, and times the moves."
)]
struct Args {
    /// The running Moot (started with `--table-every-ms 0`).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base: String,
    /// Tables played at once.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=1000))]
    tables: u32,
    /// How long, in seconds.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=300))]
    seconds: u64,
    /// The Herfor board's size.
    #[arg(long, default_value_t = 7)]
    size: u32,
    /// Seat two player keys at each table and move with their credentials.
    #[arg(long)]
    players: bool,
}

/// What a player reads of a table answered.
#[derive(Deserialize)]
struct TableView {
    id: String,
    status: String,
    ply: u64,
    to_act: Option<String>,
    state: <Herfor as Game>::State,
}

/// What a player reads of a table's creation.
#[derive(Deserialize)]
struct Created {
    table: TableView,
    seats: [SeatCredential; 2],
}

/// A seat's credential, as its table's creation answers it.
#[derive(Deserialize)]
struct SeatCredential {
    credential: String,
}

/// One table's player: its connection, the table as last answered, its seats' credentials.
struct Seated {
    client: reqwest::Client,
    base: String,
    size: u32,
    /// The table as last answered (`None` before the first).
    table: Option<TableView>,
    credentials: [String; 2],
    /// The players' credentials, when players sit at the tables.
    players: Option<[String; 2]>,
}

/// What one player did: each committed move's time, and the moves refused.
#[derive(Default)]
struct Played {
    times: Vec<Duration>,
    refused: u64,
}

impl Seated {
    /// A new table on a connection of its own.
    async fn open(base: &str, size: u32, players: bool) -> Result<Seated, String> {
        let client = reqwest::Client::new();
        let mut seated = Seated {
            client,
            base: base.to_owned(),
            size,
            table: None,
            credentials: Default::default(),
            players: None,
        };
        if players {
            seated.players = Some([seated.new_player().await?, seated.new_player().await?]);
        }
        seated.new_table().await?;
        Ok(seated)
    }

    /// A new player key's credential.
    async fn new_player(&self) -> Result<String, String> {
        let url = format!("{}/api/v1/players", self.base);
        let (status, text) = self.send(self.client.post(&url).json(&json!({}))).await?;
        let created: Value = serde_json::from_str(&text).unwrap_or_default();
        match created["credential"].as_str() {
            Some(credential) if status == 201 => Ok(credential.to_owned()),
            _ => Err(format!("{url}: {status}: {text}")),
        }
    }

    /// Replaces the table with a new one.
    async fn new_table(&mut self) -> Result<(), String> {
        let url = format!("{}/api/v1/tables", self.base);
        let mut body = json!({"game": "herfor", "options": {"size": self.size}});
        if let Some(players) = &self.players {
            body["player_credentials"] = json!(players);
        }
        let (status, text) = self.send(self.client.post(&url).json(&body)).await?;
        if status == 429 {
            return Err(format!(
                "{url}: 429: start the server with --table-every-ms 0 ({text})"
            ));
        }
        if status != 201 {
            return Err(format!("{url}: {status}: {text}"));
        }
        let created: Created =
            serde_json::from_str(&text).map_err(|e| format!("{url}: {e} in {text}"))?;
        let [first, second] = created.seats.map(|seat| seat.credential);
        self.credentials = self.players.clone().unwrap_or([first, second]);
        self.table = Some(created.table);
        Ok(())
    }

    /// Sends `request`: the status and the answer's text.
    async fn send(&self, request: reqwest::RequestBuilder) -> Result<(u16, String), String> {
        let answer = request
            .send()
            .await
            .map_err(|e| format!("{}: no answer ({e}); is Moot serving there?", self.base))?;
        let status = answer.status().as_u16();
        let text = answer
            .text()
            .await
            .map_err(|e| format!("{}: the answer broke off ({e})", self.base))?;
        Ok((status, text))
    }

    /// Reads table `id` afresh.
    async fn reread(&mut self, id: &str) -> Result<(), String> {
        let url = format!("{}/api/v1/tables/{id}", self.base);
        let (status, text) = self.send(self.client.get(&url)).await?;
        let table = serde_json::from_str(&text).map_err(|e| format!("{url}: {status}: {e}"))?;
        self.table = Some(table);
        Ok(())
    }

    /// Plays until `until`, a new table after each one that ends.
    async fn play(mut self, until: Instant, seed: u64) -> Result<Played, String> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut played = Played::default();
        while Instant::now() < until {
            let Some(table) = self.table.as_ref().filter(|t| t.status == "ongoing") else {
                self.new_table().await?;
                continue;
            };
            let legal = Herfor::legal_moves(&table.state);
            let Some(chosen) = legal.choose(&mut rng) else {
                return Err("an ongoing table without a legal move".into());
            };
            let seat = match table.to_act.as_deref() {
                Some("first") => 0,
                _ => 1,
            };
            let id = table.id.clone();
            let body = json!({"move": Herfor::format_move(&table.state, chosen), "ply": table.ply});
            let request = self
                .client
                .post(format!("{}/api/v1/tables/{id}/moves", self.base))
                .bearer_auth(&self.credentials[seat])
                .json(&body);
            let started = Instant::now();
            let (status, text) = self.send(request).await?;
            match serde_json::from_str(&text) {
                Ok(table) if status == 200 => {
                    played.times.push(started.elapsed());
                    self.table = Some(table);
                }
                _ => {
                    played.refused += 1;
                    self.reread(&id).await?;
                }
            }
        }
        Ok(played)
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if let Err(message) = run(Args::parse()).await {
        eprintln!("moot-tables: {message}");
        std::process::exit(2);
    }
}

async fn run(args: Args) -> Result<(), String> {
    let base = args.base.trim_end_matches('/').to_owned();
    let mut players = Vec::new();
    for _ in 0..args.tables {
        players.push(Seated::open(&base, args.size, args.players).await?);
    }
    let started = Instant::now();
    let until = started + Duration::from_secs(args.seconds);
    let tasks: Vec<_> = players
        .into_iter()
        .enumerate()
        .map(|(i, player)| tokio::spawn(player.play(until, i as u64)))
        .collect();
    let mut times = Vec::new();
    let mut refused = 0;
    for task in tasks {
        let played = task.await.map_err(|e| format!("a player failed: {e}"))??;
        times.extend(played.times);
        refused += played.refused;
    }
    let elapsed = started.elapsed().as_secs_f64();
    if times.is_empty() {
        return Err("no move was committed".into());
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{} tables{} at {base} over HTTP: {} moves in {elapsed:.1} s: {:.0} moves/s; a move p50 {}, p99 {}; {refused} refused (load average: {})",
        args.tables,
        if args.players {
            " seated by players"
        } else {
            ""
        },
        times.len(),
        times.len() as f64 / elapsed,
        ms(percentile(&times, 50)),
        ms(percentile(&times, 99)),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    Ok(())
}
