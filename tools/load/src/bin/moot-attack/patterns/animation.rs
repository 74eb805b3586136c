//! A long game's animation: a 129-ply Herfor size-7 game played through the API, its
//! animation asked at 800 px with a caption (over the cost bound: refused, after the server's
//! one-second hold), with `If-None-Match: *`, 8 at once, and looped by the attackers; and once
//! the largest animation accepted (40 frames at 400 px).

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread;
use std::time::Instant;

use moot_load::http::{Answer, fetch, send};
use moot_load::stats::ms;
use serde_json::json;

use crate::api::Api;
use crate::patterns::Load;

/// Plies of the game animated.
const PLIES: usize = 129;
/// Animations asked at once, and the attackers looping them.
const AT_ONCE: usize = 8;

/// Plays the game and prepares the requests.
pub fn load(addr: SocketAddr) -> Result<Load, String> {
    let moves = play(addr)?;
    let long = animation_path(&moves, 800);
    // The largest accepted: 40 frames (the start and 39 plies) at 400 px.
    let largest = animation_path(&moves[..moves.len().min(39)], 400);
    let variants: Arc<Vec<String>> = Arc::new((0..AT_ONCE).map(|i| variant(&long, i)).collect());
    let notes = vec![format!(
        "a Herfor size-7 game of {} plies{}; its animation's link is {} bytes",
        moves.len(),
        if moves.len() < PLIES {
            format!(" (it ended before {PLIES})")
        } else {
            String::new()
        },
        long.len()
    )];
    let once_variants = variants.clone();
    Ok(Load {
        notes,
        once: Some(Box::new(move |addr| {
            requests_once(addr, &long, &largest, &once_variants)
        })),
        clients: AT_ONCE,
        attempt: Arc::new(move |index, _| {
            send(addr, "GET", &variants[index % variants.len()], b"")
        }),
        regular: None,
    })
}

/// The game's moves: each ply the first legal move, or when the first is a pass the middle one,
/// so that the game is the same every run.
fn play(addr: SocketAddr) -> Result<Vec<String>, String> {
    let mut api = Api::new(addr, "herfor");
    let mut state = api.new_game(json!({ "size": 7, "pie": false }))?;
    let mut moves = Vec::new();
    while moves.len() < PLIES {
        let legal = api.legal_moves(&state)?;
        let Some(first) = legal.first() else {
            break;
        };
        let mv = if first == "pass" && legal.len() > 1 {
            legal[legal.len() / 2].clone()
        } else {
            first.clone()
        };
        state = api.apply(&state, &mv)?;
        moves.push(mv);
    }
    Ok(moves)
}

fn animation_path(moves: &[String], pixels: u32) -> String {
    format!(
        "/api/v1/games/herfor/animation?size=7&pie=false&moves={}&pixels={pixels}&caption=true",
        moves.join(".")
    )
}

/// The same animation seen another way (board turned, coordinates or not): no two of the
/// parallel requests are one picture.
fn variant(path: &str, i: usize) -> String {
    let bottom = if i % 2 == 1 { "first" } else { "second" };
    let coordinates = i < AT_ONCE / 2;
    format!("{path}&bottom={bottom}&coordinates={coordinates}")
}

fn requests_once(addr: SocketAddr, long: &str, largest: &str, variants: &[String]) -> Vec<String> {
    let mut lines = vec![
        format!(
            "one at 800 px: {}",
            described(fetch(addr, "GET", long, &[], b""))
        ),
        format!(
            "the same with If-None-Match: *: {}",
            described(fetch(addr, "GET", long, &[("if-none-match", "*")], b""))
        ),
    ];
    let started = Instant::now();
    let parallel: Vec<_> = variants
        .iter()
        .map(|path| {
            let path = path.clone();
            thread::spawn(move || fetch(addr, "GET", &path, &[], b"").map_or(0, |a| a.head.status))
        })
        .collect();
    let mut statuses: Vec<u16> = parallel
        .into_iter()
        .map(|t| t.join().unwrap_or(0))
        .collect();
    statuses.sort();
    lines.push(format!(
        "{AT_ONCE} at once: statuses {statuses:?}, all in {}",
        ms(started.elapsed())
    ));
    lines.push(format!(
        "the largest accepted, 40 frames at 400 px: {}",
        described(fetch(addr, "GET", largest, &[], b""))
    ));
    lines
}

fn described(answer: std::io::Result<Answer>) -> String {
    match answer {
        Ok(answer) => format!(
            "status {}, {} bytes, {}",
            answer.head.status,
            answer.head.body_bytes,
            ms(answer.took)
        ),
        Err(e) => format!("no answer ({e})"),
    }
}
