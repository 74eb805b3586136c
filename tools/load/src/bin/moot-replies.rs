//! `moot-replies`: how long a player waits for the computer, measured in a real browser.
//!
//! Plays games against the computer on a running Moot's pages in headless Chromium (through
//! Debian's chromedriver), clicking random legal moves as a player would; a Hirþ turn's steps
//! are composed on the page and the turn's end is the click that waits. Each wait is the
//! browser's own time from the click to the next page's `DOMContentLoaded`: the move sent,
//! the computer's search, the page of its answer loaded. Prints the median and the 90th
//! percentile per game and strength.
//!
//! `moot-replies --base http://127.0.0.1:8080 --replies 15`

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use fantoccini::{Client, ClientBuilder, Locator};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::Value;

#[derive(Parser)]
#[command(about = "Times the computer's replies on Moot's play pages in headless Chromium.")]
struct Args {
    /// The running Moot to play on.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    base: String,
    /// Replies timed per game and strength.
    #[arg(long, default_value_t = 15)]
    replies: usize,
    /// The games, by id.
    #[arg(long, value_delimiter = ',', default_value = "herfor,tara,hirth")]
    games: Vec<String>,
    /// The computer's strengths.
    #[arg(long, value_delimiter = ',', default_value = "normal,strong")]
    strengths: Vec<String>,
    /// Steps of a Hirþ turn before it is ended (fewer when the turn allows fewer).
    #[arg(long, default_value_t = 3)]
    hirth_steps: usize,
    /// The random moves' seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value = "/usr/bin/chromedriver")]
    chromedriver: String,
    #[arg(long, default_value = "/usr/bin/chromium")]
    chromium: String,
}

/// Kills chromedriver, and Chromium with it, when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Where each game starts, against the computer playing second: the options of a game of
/// ordinary length (Herfor's common size; a Hirþ match of one game).
fn start(game: &str) -> &'static str {
    match game {
        "herfor" => "size=5&pie=false",
        "hirth" => "target=1",
        _ => "",
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let port = 9515 + (std::process::id() % 1000) as u16;
    let _driver = Driver(
        Command::new(&args.chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?,
    );
    let mut capabilities = serde_json::Map::new();
    capabilities.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": args.chromium,
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking", "--disable-sync",
                     "--disable-dev-shm-usage", "--window-size=1280,900"],
        }),
    );
    let client = connect(port, capabilities).await?;
    let mut rng = SmallRng::seed_from_u64(args.seed);
    println!("game\tstrength\treplies\tmedian ms\tp90 ms");
    for game in &args.games {
        for strength in &args.strengths {
            let mut waits = Vec::new();
            while waits.len() < args.replies {
                let path = format!(
                    "/play/{game}?{}&computer=second&strength={strength}&moves=",
                    start(game)
                );
                client.goto(&format!("{}{path}", args.base)).await?;
                play(
                    &client,
                    &mut rng,
                    &mut waits,
                    args.replies,
                    args.hirth_steps,
                )
                .await?;
            }
            waits.sort_by(f64::total_cmp);
            println!(
                "{game}\t{strength}\t{}\t{:.0}\t{:.0}",
                waits.len(),
                percentile(&waits, 0.5),
                percentile(&waits, 0.9)
            );
        }
    }
    client.close().await?;
    Ok(())
}

async fn connect(
    port: u16,
    capabilities: serde_json::Map<String, Value>,
) -> Result<Client, Box<dyn std::error::Error>> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(capabilities.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => return Ok(client),
            Err(_) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Plays one game until it ends or `wanted` waits are timed, adding each wait in ms.
async fn play(
    client: &Client,
    rng: &mut SmallRng,
    waits: &mut Vec<f64>,
    wanted: usize,
    hirth_steps: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut steps = 0;
    while waits.len() < wanted {
        if !client
            .find_all(Locator::Css("p.status.finished"))
            .await?
            .is_empty()
        {
            return Ok(());
        }
        let board = client
            .find_all(Locator::Css("figure.board svg button.move:not([disabled])"))
            .await?;
        let end = client
            .find_all(Locator::Css(r#"div.turn button[value^="end"]"#))
            .await?;
        let controls = client
            .find_all(Locator::Css(
                r#"div.turn div.controls button.move:not([value="offer"]):not([value="give-up"])"#,
            ))
            .await?;
        // The end of a Hirþ turn after a few steps; else a random move of the board, or a
        // control when the board offers none.
        let button = if !end.is_empty() && (steps >= hirth_steps || board.is_empty()) {
            end[0].clone()
        } else if let Some(button) = board.choose(rng) {
            button.clone()
        } else if let Some(button) = controls.choose(rng) {
            button.clone()
        } else {
            return Ok(());
        };
        // A step after which the player acts again is composed on the page (the script
        // fetches the position after it and shows it in place): no wait for the computer. The
        // script tells such a step by its button or its twin in the list of every move.
        let continues = client
            .execute(
                "const b = arguments[0]; \
                 const listed = document.querySelector('details.actions button[value=\"' + CSS.escape(b.value) + '\"]'); \
                 return b.hasAttribute('data-continues') || (listed !== null && listed.hasAttribute('data-continues'));",
                vec![serde_json::to_value(&button)?],
            )
            .await?;
        if continues == Value::Bool(true) {
            // The game's part of the page is replaced once the step is shown: mark it first.
            client
                .execute(
                    "document.getElementById('game').firstElementChild.setAttribute('data-stale', '');",
                    vec![],
                )
                .await?;
            press(client, &button).await?;
            steps += 1;
            let deadline = Instant::now() + Duration::from_secs(20);
            while client
                .execute(
                    "return document.querySelector('#game [data-stale]') !== null;",
                    vec![],
                )
                .await?
                == Value::Bool(true)
            {
                if Instant::now() > deadline {
                    return Err("a composed step was not shown within 20 s".into());
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            continue;
        }
        steps = 0;
        let clicked = client
            .execute(
                "window.name = String(performance.timeOrigin + performance.now()); return true;",
                vec![],
            )
            .await;
        clicked?;
        let before = client.current_url().await?;
        let value = button.attr("value").await?;
        press(client, &button).await?;
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let url = client.current_url().await?;
            let ready = client
                .execute("return document.readyState !== 'loading';", vec![])
                .await?;
            if url != before && ready == Value::Bool(true) {
                break;
            }
            if Instant::now() > deadline {
                let status = client
                    .execute(
                        "return document.getElementById('turn').textContent;",
                        vec![],
                    )
                    .await?;
                return Err(format!(
                    "the answer to {value:?} did not load within 60 s; at {url}: {status}"
                )
                .into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // window.name survives the navigation: the click's time, in the browser's clock.
        let wait = client
            .execute(
                "const nav = performance.getEntriesByType('navigation')[0]; \
                 return performance.timeOrigin + nav.domContentLoadedEventEnd - Number(window.name);",
                vec![],
            )
            .await?;
        if let Some(ms) = wait.as_f64().filter(|ms| *ms > 0.0) {
            waits.push(ms);
        }
    }
    Ok(())
}

/// Clicks a move's button from the page's script, as a tap does: a button under a closed
/// choice (a crowded Tara hill) is not "interactable" for WebDriver, yet plays the same move.
async fn press(
    client: &Client,
    button: &fantoccini::elements::Element,
) -> Result<(), Box<dyn std::error::Error>> {
    client
        .execute("arguments[0].click();", vec![serde_json::to_value(button)?])
        .await?;
    Ok(())
}

/// The `q` quantile of sorted values (nearest rank).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}
