//! The engines' figures in **CPU time** of this thread
//! (`CLOCK_THREAD_CPUTIME_ID`), for a loaded machine where criterion's wall-clock figures
//! mostly measure the other processes: random playouts per CPU second (the loops of `benches/herfor.rs` and
//! `benches/tara.rs`; for Herfor both through the `Game` trait's move list and on the search's
//! bit-set path; whole random Hirþ games as `benches/hirth.rs` plays them), the search's
//! playouts per CPU second (`benches/ai.rs`'s `analyse` at the normal budget), the page
//! computer's whole Hirþ turn at `strong` in CPU ms (`benches/ai.rs`'s `page_turn`), and the
//! JSON API's CPU µs per legal-moves request (`benches/api.rs`), each
//! the best of five rounds.
//!
//! `cargo bench --bench cpu`

use std::hint::black_box;

use actix_web::rt::{System, SystemRunner};
use actix_web::test::{self, TestRequest};
use moot::ai::{Budget, Player, Strength, analyse};
use moot::games::fixtures::hirth::mid_game;
use moot::games::herfor::cells::{Cells, Narrow};
use moot::games::herfor::wide::with_cpu_features;
use moot::games::herfor::{Herfor, HerforOptions, HerforState, Position as HerforPosition};
use moot::games::hirth::Hirth;
use moot::games::hirth::random_play::random_game;
use moot::games::tara::{Tara, TaraOptions};
use moot::games::{Game, Turn, random_opening};
use moot::present::link::Link;
use moot::present::link::Opponent;
use moot::web::opponent::play_computer;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rustix::time::{ClockId, clock_gettime};

/// The page computer's first turn of a game with `options`, at strong, in CPU ms.
fn page_turn_ms<G: moot::ai::Strategy>(options: G::Options) -> f64 {
    let state = G::new_game(&options).expect("valid options");
    let position = Link::<G>::start(options).expect("valid options");
    turn_ms(position, state)
}

/// The page computer's turn in `state` (reached by `position`'s moves), at strong, in CPU ms.
fn turn_ms<G: moot::ai::Strategy>(position: Link<G>, state: G::State) -> f64 {
    let Turn::ToAct(seat) = G::turn(&state) else {
        panic!("the game goes on")
    };
    let opponent = Opponent {
        seat,
        strength: Strength::Strong,
    };
    let per_second = rate(|| {
        black_box(
            play_computer(
                position.clone(),
                state.clone(),
                opponent,
                Strength::Strong.budget::<G>(),
                None,
            )
            .expect("a turn"),
        );
        1
    });
    1e3 / per_second
}

/// CPU nanoseconds this thread has run: its CPU-time clock, to the nanosecond
/// (`/proc/thread-self/schedstat` moves only at the scheduler's ticks, 4 ms here, so a round
/// of 20 ms read there was off by up to a fifth).
fn cpu_ns() -> u64 {
    let t = clock_gettime(ClockId::ThreadCPUTime);
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// The best of five rounds of `work` (which returns how many units it did): units per CPU second.
fn rate(mut work: impl FnMut() -> u64) -> f64 {
    (0..5)
        .map(|_| {
            let start = cpu_ns();
            let units = work();
            units as f64 * 1e9 / (cpu_ns() - start).max(1) as f64
        })
        .fold(0.0, f64::max)
}

/// Random playouts from `start` per CPU second, played for about `rounds` playouts each round.
fn playouts<G: Game>(start: &G::State, rounds: u64) -> f64 {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut moves = Vec::with_capacity(128);
    rate(|| {
        for _ in 0..rounds {
            let mut state = start.clone();
            while let Turn::ToAct(_) = G::turn(&state) {
                moves.clear();
                G::legal_moves_into(&state, &mut moves);
                let mv = moves[rng.random_range(0..moves.len())].clone();
                G::play_unchecked(&mut state, &mv);
            }
            black_box(&state);
        }
        rounds
    })
}

/// Random Herfor playouts from `start` per CPU second on the search's path: the compact
/// [`HerforPosition`], the legal placements as one bit set sampled by index, no move list; in
/// the narrower sets where they hold the board, as the search plays.
fn herfor_mask_playouts(start: &HerforState, rounds: u64) -> f64 {
    match start.position_in::<Narrow>() {
        Some(first) => herfor_mask_rate(first, rounds),
        None => herfor_mask_rate(start.position(), rounds),
    }
}

fn herfor_mask_rate<C: Cells>(first: HerforPosition<C>, rounds: u64) -> f64 {
    let mut rng = SmallRng::seed_from_u64(7);
    rate(|| {
        with_cpu_features(|| herfor_mask_round(first, rounds, &mut rng));
        rounds
    })
}

/// One round of random playouts (inlined into [`with_cpu_features`]'s fast version).
#[inline(always)]
fn herfor_mask_round<C: Cells>(first: HerforPosition<C>, rounds: u64, rng: &mut SmallRng) {
    for _ in 0..rounds {
        let mut position = first;
        while !position.is_over() {
            position.play_random(rng);
        }
        black_box(&position);
    }
}

fn search<G: Player>(plies: usize) -> f64 {
    let Budget::Playouts(budget) = Strength::Normal.budget::<G>() else {
        unreachable!("the strengths use playout budgets")
    };
    let state = random_opening::<G>(plies, 5);
    let mut seed = 0;
    rate(|| {
        seed += 1;
        black_box(analyse::<G>(&state, Budget::Playouts(budget), seed));
        u64::from(budget)
    })
}

/// CPU µs per `POST /api/v1/games/{game}/legal-moves` through the whole application, in process.
fn api_micros(system: &SystemRunner, game: &str, body: serde_json::Value) -> f64 {
    let app = system.block_on(test::init_service(moot::app()));
    let bytes = serde_json::to_vec(&body).expect("a JSON value");
    let uri = format!("/api/v1/games/{game}/legal-moves");
    let request = || {
        TestRequest::post()
            .uri(&uri)
            .insert_header(("content-type", "application/json"))
            .set_payload(bytes.clone())
            .to_request()
    };
    let first = system.block_on(test::call_service(&app, request()));
    assert!(first.status().is_success(), "{game}: {}", first.status());
    let per_second = rate(|| {
        for _ in 0..2_000 {
            system.block_on(async {
                black_box(test::read_body(test::call_service(&app, request()).await).await);
            });
        }
        2_000
    });
    1e6 / per_second
}

fn main() {
    // `cargo bench` passes `--bench`; a name filters the groups.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let wanted = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));
    println!("figure\tvalue");
    for size in [5u8, 7] {
        for simple in [false, true] {
            let variant = if simple { "simple" } else { "full" };
            let start = Herfor::new_game(&HerforOptions {
                size,
                pie: true,
                simple,
            })
            .unwrap();
            let name = format!("herfor n{size} {variant} playouts/s");
            if wanted(&name) {
                println!("{name}\t{:.0}", playouts::<Herfor>(&start, 2_000));
            }
            let name = format!("herfor n{size} {variant} mask playouts/s");
            if wanted(&name) {
                println!("{name}\t{:.0}", herfor_mask_playouts(&start, 2_000));
            }
        }
    }
    for level in [1, 2] {
        let name = format!("tara level {level} playouts/s");
        if wanted(&name) {
            let start = Tara::new_game(&TaraOptions {
                level,
                ..TaraOptions::default()
            })
            .unwrap();
            println!("{name}\t{:.0}", playouts::<Tara>(&start, 5_000));
        }
    }
    let name = "hirth random games/s (500-turn cap)";
    if wanted(name) {
        let mut rng = SmallRng::seed_from_u64(1);
        let per_second = rate(|| {
            for _ in 0..500 {
                black_box(random_game(&mut rng));
            }
            500
        });
        println!("{name}\t{per_second:.0}");
    }
    let name = "hirth page turn strong cpu ms";
    if wanted(name) {
        // The position of `benches/ai.rs`'s page_turn: 60 plies in, at the start of a turn.
        let (moves, state) = mid_game(60, 5);
        let mut position = Link::<Hirth>::start(Default::default()).expect("the defaults");
        position.moves = moves;
        println!("{name}\t{:.1}", turn_ms(position, state));
    }
    // The first move at strong (the widest root) from the start, where each game's page turn
    // is longest for these budgets.
    for size in [5, 7] {
        let name = format!("herfor size {size} page turn strong cpu ms");
        if wanted(&name) {
            let options = HerforOptions {
                size,
                ..HerforOptions::default()
            };
            println!("{name}\t{:.1}", page_turn_ms::<Herfor>(options));
        }
    }
    let name = "tara page turn strong cpu ms";
    if wanted(name) {
        println!(
            "{name}\t{:.1}",
            page_turn_ms::<Tara>(TaraOptions::default())
        );
    }
    if wanted("analyse herfor") {
        println!(
            "analyse herfor normal playouts/s\t{:.0}",
            search::<Herfor>(6)
        );
    }
    if wanted("analyse tara") {
        println!("analyse tara normal playouts/s\t{:.0}", search::<Tara>(8));
    }
    let system = System::new();
    for (game, body) in [
        (
            Herfor::ID,
            serde_json::json!({"state": random_opening::<Herfor>(20, 3)}),
        ),
        (
            Tara::ID,
            serde_json::json!({"state": random_opening::<Tara>(12, 3)}),
        ),
        (
            Hirth::ID,
            serde_json::json!({"state": random_opening::<Hirth>(20, 3)}),
        ),
    ] {
        let name = format!("api {game} legal-moves cpu µs/request");
        if wanted(&name) {
            println!("{name}\t{:.1}", api_micros(&system, game, body));
        }
    }
}
