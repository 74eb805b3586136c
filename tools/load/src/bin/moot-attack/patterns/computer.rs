//! The computer player shared among clients: 4 attackers, each its own address (through
//! `X-Forwarded-For`: the server trusts it), loop the most expensive searches one at a time
//! each, while a well-behaved client at another address asks now and then and should be served.
//!
//! - `computer-api`: the attackers loop `evaluate` with the longest time budget the server
//!   allows (`millis: 2000`) on a new Herfor size-7 game; the client asks an `evaluate` of 300
//!   playouts (its seed its round, so that no answer comes from the cache).
//! - `computer-pages`: the attackers loop strong computer turns on size-7 Herfor play pages,
//!   each after a random first move (so that no two join one search); the player asks for the
//!   computer's move at normal strength after a first move of its own.

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use moot_load::http::{fetch, send_with};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::{Value, json};

use crate::api::Api;
use crate::patterns::{Load, Regular};

/// Attackers, each its own address.
const ATTACKERS: usize = 4;
/// The well-behaved client's address.
const REGULAR_ADDRESS: &str = "198.51.100.1";
/// The well-behaved client's pause after each answer.
const PAUSE: Duration = Duration::from_secs(2);
/// The longest `evaluate` time budget the server allows by default.
const LONGEST_MILLIS: u32 = 2_000;

/// Attacker `index`'s address.
fn attacker_address(index: usize) -> String {
    format!("192.0.2.{}", index + 1)
}

/// A new Herfor size-7 game without the pie rule.
fn herfor_7(addr: SocketAddr) -> Result<(Api, Value), String> {
    let mut api = Api::new(addr, "herfor");
    let state = api.new_game(json!({ "size": 7, "pie": false }))?;
    Ok((api, state))
}

/// `computer-api`: longest `evaluate`s looped; 300 playouts now and then.
pub fn api_load(addr: SocketAddr) -> Result<Load, String> {
    let (_, state) = herfor_7(addr)?;
    let path = "/api/v1/games/herfor/evaluate";
    let attack = json!({ "state": state, "millis": LONGEST_MILLIS })
        .to_string()
        .into_bytes();
    let regular: Regular = Box::new(move |round| {
        let body = json!({ "state": state, "playouts": 300, "seed": round }).to_string();
        let from = [("x-forwarded-for", REGULAR_ADDRESS)];
        send_with(addr, "POST", path, &from, body.as_bytes()).status == 200
    });
    Ok(Load {
        notes: vec![format!(
            "{ATTACKERS} attackers (192.0.2.1 to 192.0.2.{ATTACKERS}) loop evaluate with millis {LONGEST_MILLIS} on Herfor size 7; a client at {REGULAR_ADDRESS} asks 300 playouts, {} s after each answer",
            PAUSE.as_secs()
        )],
        once: None,
        clients: ATTACKERS,
        attempt: Arc::new(move |index, _| {
            let from = attacker_address(index);
            send_with(addr, "POST", path, &[("x-forwarded-for", &from)], &attack)
        }),
        regular: Some(regular),
    })
}

/// A size-7 play page with the computer second, after `first`.
fn page(strength: &str, first: &str) -> String {
    format!("/play/herfor?pie=false&size=7&computer=second&strength={strength}&moves={first}")
}

/// `computer-pages`: strong computer turns looped; a normal one now and then.
pub fn pages_load(addr: SocketAddr) -> Result<Load, String> {
    let (mut api, state) = herfor_7(addr)?;
    let firsts = Arc::new(api.legal_moves(&state)?);
    if firsts.is_empty() {
        return Err("a new Herfor size-7 game has no legal move".to_owned());
    }
    let player_firsts = firsts.clone();
    let regular: Regular = Box::new(move |round| {
        let first = &player_firsts[round as usize % player_firsts.len()];
        let from = [("x-forwarded-for", REGULAR_ADDRESS)];
        // Served: the page redirects to the link with the computer's answer added.
        fetch(addr, "GET", &page("normal", first), &from, b"").is_ok_and(|answer| {
            answer.head.status == 303
                && answer
                    .head
                    .header("location")
                    .is_some_and(|to| to.contains(&format!("moves={first}.")))
        })
    });
    Ok(Load {
        notes: vec![format!(
            "{ATTACKERS} attackers (192.0.2.1 to 192.0.2.{ATTACKERS}) loop strong computer turns on size-7 pages after one of {} first moves; a player at {REGULAR_ADDRESS} asks for a normal one, {} s after each answer",
            firsts.len(),
            PAUSE.as_secs()
        )],
        once: None,
        clients: ATTACKERS,
        attempt: Arc::new(move |index, round| {
            let seed = ((index as u64) << 40) | round;
            let first = firsts
                .choose(&mut SmallRng::seed_from_u64(seed))
                .expect("not empty");
            let from = attacker_address(index);
            send_with(
                addr,
                "GET",
                &page("strong", first),
                &[("x-forwarded-for", &from)],
                b"",
            )
        }),
        regular: Some(regular),
    })
}

/// Runs the well-behaved client for `seconds` (at least one request), pausing after each
/// answer: (served, asked).
pub fn ask_now_and_then(seconds: u64, regular: Regular) -> (usize, usize) {
    let until = Instant::now() + Duration::from_secs(seconds);
    let (mut served, mut asked) = (0, 0);
    loop {
        served += usize::from(regular(asked as u64));
        asked += 1;
        let resume = Instant::now() + PAUSE;
        if resume >= until {
            return (served, asked);
        }
        thread::sleep(PAUSE);
    }
}
