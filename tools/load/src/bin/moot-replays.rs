//! `moot-replays`: what replaying a long table's events costs a server, and the players beside
//! it. Plays one Hirþ table to `--plies` moves through the API, times a player's moves at
//! another table while the server is idle, then opens `--streams` event streams on the long
//! table at once from `Last-Event-ID: 0` (or `--last-event-id`), each replaying it again as
//! soon as it has the table's last change, for `--seconds`, while the player goes on. Prints the bytes the streams received, the move's p50/p99 idle and
//! during the replays, and, given the server's `--pid` (same machine), the bytes the server
//! read and wrote (`/proc/<pid>/io`: its database file and its sockets) and its CPU time over
//! the replays, with the load average.
//!
//! The server must let one address create tables freely: `moot --table-every-ms 0`.
//!
//! `moot-replays --base http://127.0.0.1:8080 --plies 5000 --streams 32 --pid $(pidof moot)`

use std::time::{Duration, Instant};

use clap::Parser;
use moot_games::Game;
use moot_games::herfor::Herfor;
use moot_games::hirth::Hirth;
use moot_load::abusers::Abusers;
use moot_load::stats::{ms, percentile};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};

#[derive(Parser)]
#[command(about = "Times a player's moves while many event streams replay a long table.")]
struct Args {
    /// The running Moot (started with `--table-every-ms 0`).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base: String,
    /// Moves played at the long table before the replays.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    plies: u64,
    /// Streams replaying it at once.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=1000))]
    streams: u32,
    /// Where the streams resume: the `Last-Event-ID` they send (0: from the start).
    #[arg(long, default_value_t = 0)]
    last_event_id: u64,
    /// How long the streams replay the table, again and again, in seconds (a stream still
    /// reading then is cut).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    seconds: u64,
    /// The player's moves timed while the server is idle.
    #[arg(long, default_value_t = 200)]
    idle_moves: usize,
    /// The streams' priority: `idle` (SCHED_IDLE, as if on other machines) or `normal`.
    #[arg(long, value_enum, default_value_t = Abusers::Idle)]
    abusers: Abusers,
    /// The server's process id, to read its I/O and CPU time (Linux, same machine).
    #[arg(long)]
    pid: Option<u32>,
}

/// A table and its seats' credentials, played through the API by one client.
struct Seated {
    client: reqwest::Client,
    base: String,
    table: Value,
    credentials: [String; 2],
}

impl Seated {
    /// A new table of `body` (`POST /api/v1/tables`).
    async fn create(base: &str, body: Value) -> Result<Seated, String> {
        let client = reqwest::Client::new();
        let url = format!("{base}/api/v1/tables");
        let (status, mut created) = send(client.post(&url).json(&body)).await?;
        if status != 201 {
            return Err(format!(
                "{url}: {status}: {created} (start the server with --table-every-ms 0)"
            ));
        }
        let credential = |i: usize| {
            created["seats"][i]["credential"]
                .as_str()
                .map(str::to_owned)
        };
        let (Some(first), Some(second)) = (credential(0), credential(1)) else {
            return Err(format!("{url}: no credentials in {created}"));
        };
        Ok(Seated {
            client,
            base: base.to_owned(),
            table: created["table"].take(),
            credentials: [first, second],
        })
    }

    fn id(&self) -> String {
        self.table["id"].as_str().unwrap_or_default().to_owned()
    }

    /// Plays one random legal move of `G` for the seat awaited: its time.
    async fn step<G: Game>(&mut self, rng: &mut SmallRng) -> Result<Duration, String> {
        let state: G::State = serde_json::from_value(self.table["state"].clone())
            .map_err(|e| format!("a table's state does not read: {e}"))?;
        let legal = G::legal_moves(&state);
        let chosen = legal
            .choose(rng)
            .ok_or("an ongoing table without a legal move")?;
        let seat = usize::from(self.table["to_act"] == "second");
        let body = json!({"move": G::format_move(&state, chosen), "ply": self.table["ply"]});
        let request = self
            .client
            .post(format!("{}/api/v1/tables/{}/moves", self.base, self.id()))
            .bearer_auth(&self.credentials[seat])
            .json(&body);
        let started = Instant::now();
        let (status, answer) = send(request).await?;
        let took = started.elapsed();
        if status != 200 {
            return Err(format!("a move was refused: {status}: {answer}"));
        }
        self.table = answer;
        Ok(took)
    }
}

/// Sends `request`: the status and the JSON answer.
async fn send(request: reqwest::RequestBuilder) -> Result<(u16, Value), String> {
    let answer = request
        .send()
        .await
        .map_err(|e| format!("no answer ({e}); is Moot serving there?"))?;
    let status = answer.status().as_u16();
    let text = answer
        .text()
        .await
        .map_err(|e| format!("the answer broke off ({e})"))?;
    Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// The player at a Herfor table: plays until `until` or `count` moves, a new table after each
/// that ends; each move's time.
async fn player(
    base: &str,
    until: Option<tokio::sync::watch::Receiver<bool>>,
    count: usize,
) -> Result<Vec<Duration>, String> {
    let fresh = || Seated::create(base, json!({"game": "herfor", "options": {"size": 7}}));
    let mut seated = fresh().await?;
    let mut rng = SmallRng::seed_from_u64(7);
    let mut times = Vec::new();
    loop {
        if until.as_ref().is_some_and(|done| *done.borrow())
            || (until.is_none() && times.len() >= count)
        {
            return Ok(times);
        }
        if seated.table["status"] != "ongoing" {
            seated = fresh().await?;
        }
        times.push(seated.step::<Herfor>(&mut rng).await?);
    }
}

/// What one stream received: bytes, events, `reset`s, the last event's id, and how many
/// whole replays.
#[derive(Default)]
struct Received {
    bytes: u64,
    events: u64,
    resets: u64,
    last: u64,
    replays: u64,
    refused: u64,
}

/// Reads table `id`'s stream from `Last-Event-ID: from` until it has change `seq`, or
/// `deadline`.
async fn replay(
    base: String,
    (id, from, seq): (String, u64, u64),
    deadline: Instant,
) -> Result<Received, String> {
    let client = reqwest::Client::new();
    let mut answer = client
        .get(format!("{base}/api/v1/tables/{id}/events"))
        .header("Last-Event-ID", from.to_string())
        .send()
        .await
        .map_err(|e| format!("a stream was not opened ({e})"))?;
    let mut received = Received::default();
    if answer.status() == 503 {
        // Every place taken for now (the last stream's place not yet given back): again soon.
        received.refused = 1;
        tokio::time::sleep(Duration::from_millis(10)).await;
        return Ok(received);
    }
    if answer.status() != 200 {
        return Err(format!("a stream was refused: {}", answer.status()));
    }
    let mut line = Vec::new();
    let mut framed: Option<u64> = None;
    while received.last < seq && Instant::now() < deadline {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(chunk) = tokio::time::timeout(left, answer.chunk()).await else {
            break;
        };
        let Some(chunk) = chunk.map_err(|e| format!("a stream broke off ({e})"))? else {
            break;
        };
        received.bytes += chunk.len() as u64;
        for byte in chunk {
            if byte != b'\n' {
                line.push(byte);
                continue;
            }
            if let Some(id) = line.strip_prefix(b"id: ") {
                framed = std::str::from_utf8(id)
                    .ok()
                    .and_then(|id| id.trim().parse().ok());
            } else if line == b"event: reset" {
                received.resets += 1;
            } else if line.is_empty()
                && let Some(id) = framed.take()
            {
                // An event is whole at the blank line that ends it.
                received.events += 1;
                received.last = id;
            }
            line.clear();
        }
    }
    Ok(received)
}

/// One stream replaying table `table` again and again until `deadline`: all it received.
async fn replaying(
    base: String,
    table: (String, u64, u64),
    seq: u64,
    deadline: Instant,
) -> Result<Received, String> {
    let mut all = Received::default();
    while Instant::now() < deadline {
        let one = replay(base.clone(), table.clone(), deadline).await?;
        all.bytes += one.bytes;
        all.events += one.events;
        all.resets += one.resets;
        all.replays += u64::from(one.last >= seq);
        all.refused += one.refused;
    }
    Ok(all)
}

/// The server's bytes read and written (`rchar`, `wchar`) and CPU seconds, if `pid` is given.
fn server_counters(pid: Option<u32>) -> Option<(u64, u64, f64)> {
    let pid = pid?;
    let io = std::fs::read_to_string(format!("/proc/{pid}/io")).ok()?;
    let field = |name: &str| {
        io.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    let after = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // Linux counts CPU time in clock ticks of 1/100 s (USER_HZ).
    Some((field("rchar:")?, field("wchar:")?, ticks as f64 / 100.0))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn summary(times: &[Duration]) -> String {
    format!(
        "p50 {}, p99 {} over {} moves",
        ms(percentile(times, 50)),
        ms(percentile(times, 99)),
        times.len()
    )
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), String> {
    let args = Args::parse();
    let mut long = Seated::create(
        &args.base,
        json!({"game": "hirth", "options": {"target": 21}}),
    )
    .await?;
    let mut rng = SmallRng::seed_from_u64(11);
    let started = Instant::now();
    while long.table["ply"].as_u64().unwrap_or(0) < args.plies {
        if long.table["status"] != "ongoing" {
            return Err(format!("the long table ended at ply {}", long.table["ply"]));
        }
        long.step::<Hirth>(&mut rng).await?;
    }
    let seq = long.table["ply"].as_u64().unwrap_or(0);
    let state_bytes = long.table["state"].to_string().len();
    println!(
        "long table: {seq} plies in {:.1} s, its state {state_bytes} bytes",
        started.elapsed().as_secs_f64()
    );

    let idle = player(&args.base, None, args.idle_moves).await?;
    println!(
        "idle: a move's {} (load {})",
        summary(&idle),
        load_average()
    );

    let before = server_counters(args.pid);
    let (done, until) = tokio::sync::watch::channel(false);
    let base = args.base.clone();
    let beside = tokio::spawn(async move { player(&base, Some(until), 0).await });
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let replays_started = Instant::now();
    // Each stream replays the table again as soon as it has it, until the deadline: an
    // attacker's loop, or followers reconnecting. The streams run on a thread of their own,
    // lowered as asked (by default as if they ran on other machines).
    let table = (long.id(), args.last_event_id.min(seq), seq);
    let (base, abusers, count) = (args.base.clone(), args.abusers, args.streams);
    let streams = std::thread::spawn(move || {
        abusers.lower_this_thread()?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async move {
            let tasks: Vec<_> = (0..count)
                .map(|_| tokio::spawn(replaying(base.clone(), table.clone(), seq, deadline)))
                .collect();
            let mut received = Vec::new();
            for task in tasks {
                received.push(task.await.map_err(|e| e.to_string())??);
            }
            Ok::<_, String>(received)
        })
    });
    let received = tokio::task::spawn_blocking(move || streams.join())
        .await
        .map_err(|e| e.to_string())?
        .map_err(|_| "the streams' thread panicked".to_owned())??;
    let replays_took = replays_started.elapsed();
    let _ = done.send(true);
    let during = beside.await.map_err(|e| e.to_string())??;
    let after = server_counters(args.pid);

    let bytes: u64 = received.iter().map(|r| r.bytes).sum();
    let replays: u64 = received.iter().map(|r| r.replays).sum();
    println!(
        "{} streams replaying from Last-Event-ID: {} for {:.1} s: {replays} whole replays ({} refused 503), {} events and {} resets in all, {:.1} MB received ({:.1} KB a replay)",
        received.len(),
        args.last_event_id.min(seq),
        replays_took.as_secs_f64(),
        received.iter().map(|r| r.refused).sum::<u64>(),
        received.iter().map(|r| r.events).sum::<u64>(),
        received.iter().map(|r| r.resets).sum::<u64>(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e3 / replays.max(1) as f64,
    );
    println!(
        "during: a move's {} (load {})",
        summary(&during),
        load_average()
    );
    if let (Some((r0, w0, c0)), Some((r1, w1, c1))) = (before, after) {
        let server = (r1 - r0) + (w1 - w0);
        println!(
            "server over the replays: {:.1} MB read, {:.1} MB written, {:.2} CPU s; read+written / received = {:.2}",
            (r1 - r0) as f64 / 1e6,
            (w1 - w0) as f64 / 1e6,
            c1 - c0,
            server as f64 / bytes.max(1) as f64
        );
    }
    Ok(())
}
