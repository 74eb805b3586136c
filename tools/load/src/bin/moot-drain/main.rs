//! `moot-drain`: how fast a server empties a webhook backlog, and what the backlog costs the
//! moves of everyone else meanwhile. Starts `--server` on a new database (an SQLite file, or a
//! PostgreSQL database made on `--postgres` and dropped after), times moves at tables without a
//! webhook while nothing waits (the idle figures), stops it, writes a backlog straight into
//! its outbox (`--chains` tables' worth of `--events` pending events each, beside `--delivered`
//! events already delivered, as a busy site's outbox holds them), starts it again with a
//! receiver here that takes every post at once, and times both: deliveries a second until the
//! backlog is gone (or `--seconds` pass), checking each chain's order, and moves meanwhile.
//!
//! `moot-drain --server target/release/moot --chains 500 --events 100 --delivered 50000`

mod receiver;
mod seed;
mod server;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Parser;
use moot_games::Game;
use moot_games::herfor::Herfor;
use moot_load::stats::{ms, percentile};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};

#[derive(Parser)]
#[command(
    about = "Times how fast a Moot server drains a webhook backlog, and its moves meanwhile."
)]
struct Args {
    /// The server binary.
    #[arg(long)]
    server: PathBuf,
    /// A PostgreSQL server to make the database on (`postgres://USER:PASSWORD@HOST/DB`, a role
    /// that may create databases); without it, an SQLite file.
    #[arg(long)]
    postgres: Option<String>,
    /// Chains (tables) with events waiting…
    #[arg(long, default_value_t = 500)]
    chains: u32,
    /// …and events waiting in each.
    #[arg(long, default_value_t = 100)]
    events: u32,
    /// Events already delivered, kept beside them (spread over the same chains).
    #[arg(long, default_value_t = 50_000)]
    delivered: u32,
    /// The longest the drain is watched, in seconds.
    #[arg(long, default_value_t = 300)]
    seconds: u64,
    /// Moves timed while nothing waits, and the pace of moves timed during the drain (one every
    /// this many milliseconds).
    #[arg(long, default_value_t = 300)]
    idle_moves: usize,
    #[arg(long, default_value_t = 50)]
    move_every_ms: u64,
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    if let Err(message) = run(Args::parse()).await {
        eprintln!("moot-drain: {message}");
        std::process::exit(2);
    }
}

async fn run(args: Args) -> Result<(), String> {
    let receiver = receiver::Receiver::start()?;
    let database = seed::Database::new(args.postgres.as_deref()).await?;
    let mut running = server::Server::start(&args.server, &database.url)?;
    let mut player = Player::new(&running.base());
    let idle = player.moves(args.idle_moves).await?;
    running.stop()?;
    let backlog = seed::Backlog {
        chains: args.chains,
        events: args.events,
        delivered: args.delivered,
        url: receiver.url(),
    };
    backlog.write(&database).await?;
    let running = server::Server::start(&args.server, &database.url)?;
    let started = Instant::now();
    let player = Player::new(&running.base());
    let waiting = u64::from(args.chains) * u64::from(args.events);
    let until = started + Duration::from_secs(args.seconds);
    let (busy, drained) = tokio::join!(
        player.paced(
            Duration::from_millis(args.move_every_ms),
            receiver.clone(),
            waiting,
            until
        ),
        receiver.until_taken(waiting, until),
    );
    let busy = busy?;
    let took = drained.map(|at| at.duration_since(started));
    report(
        &args,
        &receiver,
        &idle,
        &busy,
        took,
        started.elapsed(),
        waiting,
    );
    drop(running);
    database.drop_it().await;
    Ok(())
}

fn report(
    args: &Args,
    receiver: &receiver::Receiver,
    idle: &[Duration],
    busy: &[Duration],
    took: Option<Duration>,
    watched: Duration,
    waiting: u64,
) {
    let taken = receiver.taken();
    let rate = |n: u64, d: Duration| n as f64 / d.as_secs_f64().max(1e-9);
    let drain = match took {
        Some(took) => format!(
            "drained in {:.1} s: {:.0} deliveries/s",
            took.as_secs_f64(),
            rate(waiting, took)
        ),
        None => format!(
            "NOT drained: {taken} of {waiting} delivered in {:.0} s: {:.0} deliveries/s",
            watched.as_secs_f64(),
            rate(taken, watched)
        ),
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "{} ({}): {} chains x {} pending + {} delivered; {drain}; out of order: {}; \
         a move idle p50 {} p99 {} ({} moves), during the drain p50 {} p99 {} ({} moves); load average {}",
        args.server.display(),
        if args.postgres.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        args.chains,
        args.events,
        args.delivered,
        receiver.out_of_order(),
        ms(percentile(idle, 50)),
        ms(percentile(idle, 99)),
        idle.len(),
        ms(percentile(busy, 50)),
        ms(percentile(busy, 99)),
        busy.len(),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
}

/// A player at tables without a webhook: each move a random legal one, timed.
struct Player {
    client: reqwest::Client,
    base: String,
    table: Value,
    credentials: [String; 2],
    rng: SmallRng,
}

impl Player {
    fn new(base: &str) -> Player {
        Player {
            client: reqwest::Client::new(),
            base: base.to_owned(),
            table: Value::Null,
            credentials: Default::default(),
            rng: SmallRng::seed_from_u64(7),
        }
    }

    /// `count` moves, one after another: each one's time.
    async fn moves(&mut self, count: usize) -> Result<Vec<Duration>, String> {
        let mut times = Vec::with_capacity(count);
        while times.len() < count {
            times.push(self.one().await?);
        }
        Ok(times)
    }

    /// A move every `every` until the receiver has taken `waiting` or `until` comes.
    async fn paced(
        mut self,
        every: Duration,
        receiver: receiver::Receiver,
        waiting: u64,
        until: Instant,
    ) -> Result<Vec<Duration>, String> {
        let mut times = Vec::new();
        let mut tick = tokio::time::interval(every);
        while receiver.taken() < waiting && Instant::now() < until {
            tick.tick().await;
            times.push(self.one().await?);
        }
        Ok(times)
    }

    /// One move, on a new table when the last one ended: its time.
    async fn one(&mut self) -> Result<Duration, String> {
        if self.table["status"] != "ongoing" {
            self.new_table().await?;
        }
        let state: <Herfor as Game>::State = serde_json::from_value(self.table["state"].clone())
            .map_err(|e| format!("a table's state: {e}"))?;
        let legal = Herfor::legal_moves(&state);
        let chosen = legal
            .choose(&mut self.rng)
            .ok_or("an ongoing table without a move")?;
        let seat = usize::from(self.table["to_act"] != "first");
        let id = self.table["id"].as_str().unwrap_or_default().to_owned();
        let body = json!({"move": Herfor::format_move(&state, chosen), "ply": self.table["ply"]});
        let started = Instant::now();
        let answer = self
            .client
            .post(format!("{}/api/v1/tables/{id}/moves", self.base))
            .bearer_auth(&self.credentials[seat])
            .json(&body)
            .send()
            .await
            .map_err(|e| format!("a move: {e}"))?;
        let status = answer.status();
        let text = answer.text().await.map_err(|e| format!("a move: {e}"))?;
        let took = started.elapsed();
        if status != 200 {
            return Err(format!("a move answered {status}: {text}"));
        }
        self.table = serde_json::from_str(&text).map_err(|e| format!("a move: {e}"))?;
        Ok(took)
    }

    async fn new_table(&mut self) -> Result<(), String> {
        let answer = self
            .client
            .post(format!("{}/api/v1/tables", self.base))
            .json(&json!({"game": "herfor", "options": {"size": 7}}))
            .send()
            .await
            .map_err(|e| format!("a new table: {e}"))?;
        let created: Value = answer
            .json()
            .await
            .map_err(|e| format!("a new table: {e}"))?;
        let credential = |i: usize| {
            created["seats"][i]["credential"]
                .as_str()
                .map(str::to_owned)
        };
        match (credential(0), credential(1)) {
            (Some(first), Some(second)) => {
                self.credentials = [first, second];
                self.table = created["table"].clone();
                Ok(())
            }
            _ => Err(format!("a new table was refused: {created}")),
        }
    }
}
