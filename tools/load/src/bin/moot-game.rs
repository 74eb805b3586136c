//! `moot-game`: whole games played through the API as a bot or a backend plays them, with an
//! HTTP client's defaults: one kept-alive connection, compressed answers accepted (`gzip`, `br`)
//! and unpacked. Each game starts with `new`, then asks `legal-moves` and plays a random one with
//! `apply` until the game ends (or is cut at `--max-plies`). Prints each game's plies and wall time and the requests'
//! percentiles: what an integrator waits for, transport included.
//!
//! `moot-game --base http://127.0.0.1:8080 --game hirth --games 3`

use std::time::{Duration, Instant};

use clap::Parser;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};

#[derive(Parser)]
#[command(
    about = "Plays whole games through Moot's API with a default HTTP client and times them."
)]
struct Args {
    /// The running Moot to play on.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base: String,
    /// The game, by id.
    #[arg(long, default_value = "hirth")]
    game: String,
    /// Games played, one after the other.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    games: u32,
    /// A game still going after this many plies is cut there (random play can wander on).
    #[arg(long, default_value_t = 1_000)]
    max_plies: usize,
    /// Ask for answers uncompressed (`Accept-Encoding: identity`), as a client that opts out.
    #[arg(long)]
    identity: bool,
    /// The random moves' seed: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Plays against one server, counting every request's time.
struct Player {
    client: reqwest::Client,
    base: String,
    game: String,
    times: Vec<Duration>,
}

impl Player {
    /// `POST /api/v1/games/{game}/{operation}` with `body`; the answer's JSON, or what went wrong.
    async fn post(&mut self, operation: &str, body: &Value) -> Result<Value, String> {
        let url = format!("{}/api/v1/games/{}/{operation}", self.base, self.game);
        let start = Instant::now();
        let answer = self
            .client
            .post(&url)
            .json(body)
            .send()
            .await
            .map_err(|e| format!("{url}: no answer ({e}); is Moot serving there?"))?;
        let status = answer.status();
        let text = answer
            .text()
            .await
            .map_err(|e| format!("{url}: the answer broke off ({e})"))?;
        self.times.push(start.elapsed());
        if !status.is_success() {
            return Err(format!("{url}: {status}: {text}"));
        }
        serde_json::from_str(&text).map_err(|e| format!("{url}: not JSON ({e})"))
    }

    /// One game from the start to its end, or cut at `max_plies`: its plies.
    async fn play(&mut self, rng: &mut SmallRng, max_plies: usize) -> Result<usize, String> {
        let mut state = self.post("new", &json!({})).await?["state"].take();
        let mut plies = 0;
        while plies < max_plies {
            let legal = self.post("legal-moves", &json!({ "state": state })).await?;
            let moves: Vec<&str> = legal["moves"]
                .as_array()
                .ok_or("legal-moves answered no `moves`")?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            let Some(chosen) = moves.choose(rng) else {
                return Ok(plies);
            };
            let body = json!({ "state": state, "move": chosen });
            state = self.post("apply", &body).await?["state"].take();
            plies += 1;
        }
        Ok(plies)
    }
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args = Args::parse();
    if let Err(message) = run(args).await {
        eprintln!("moot-game: {message}");
        std::process::exit(2);
    }
}

async fn run(args: Args) -> Result<(), String> {
    let mut headers = reqwest::header::HeaderMap::new();
    if args.identity {
        headers.insert(
            reqwest::header::ACCEPT_ENCODING,
            reqwest::header::HeaderValue::from_static("identity"),
        );
    }
    let client = reqwest::Client::builder()
        .default_headers(headers)
        .build()
        .map_err(|e| format!("no HTTP client: {e}"))?;
    let mut player = Player {
        client,
        base: args.base.trim_end_matches('/').to_owned(),
        game: args.game.clone(),
        times: Vec::new(),
    };
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let encoding = if args.identity {
        "identity"
    } else {
        "gzip, br"
    };
    println!("{} at {}, answers {encoding}", args.game, args.base);
    for game in 1..=args.games {
        let requests = player.times.len();
        let start = Instant::now();
        let plies = player.play(&mut rng, args.max_plies).await?;
        println!(
            "game {game}: {plies} plies, {} requests, {:.2} s",
            player.times.len() - requests,
            start.elapsed().as_secs_f64()
        );
    }
    let mut times = player.times;
    times.sort();
    println!(
        "{} requests: p50 {}, p90 {}, p99 {}, max {}",
        times.len(),
        ms(percentile(&times, 50)),
        ms(percentile(&times, 90)),
        ms(percentile(&times, 99)),
        ms(*times.last().expect("a request"))
    );
    Ok(())
}
