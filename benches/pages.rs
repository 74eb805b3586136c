//! The cost of one game page: every request reads the link, replays all its moves through the
//! engine, builds the view (a button of the page's one form per legal move, on the board and in
//! the list) and renders the HTML. Measured on long random
//! games, near their end, for each game; and the time the computer takes to answer.
#![allow(missing_docs)] // criterion_group! writes undocumented functions

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use moot::ai::Strength;
use moot::games::Game;
use moot::games::Seat;
use moot::games::herfor::Herfor;
use moot::games::hirth::Hirth;
use moot::games::tara::Tara;
use moot::present::link::Opponent;
use moot::present::link::{Link, Query};
use moot::present::replay::replay;
use moot::present::view::{Extras, play_view};
use moot::web::PageGame;
use moot::web::opponent::play_computer;

/// The link of a random game with these options, stopped `before_end` moves before its end
/// (or after `cap` moves), so the page still offers moves.
fn random_link<G: Game>(options: &str, cap: usize, before_end: usize) -> String {
    let query = Query::parse(&format!("{options}&moves="));
    let (position, _) = Link::<G>::read(&query).expect("valid options");
    let mut moves = moot::games::fixtures::random_game::<G>(&position.options, cap, 11);
    moves.truncate(moves.len().saturating_sub(before_end));
    eprintln!("{}: a link of {} moves", G::NAME, moves.len());
    format!("{options}&moves={}", moves.join("."))
}

/// The page's HTML length.
fn render<G: PageGame>(link: &str) -> usize {
    let (position, _) = Link::<G>::read(&Query::parse(link)).expect("a valid link");
    let game = replay(&position).expect("a legal game");
    let view = play_view(&position, &game, Extras::default());
    moot_templates::play::page(&view).into_string().len()
}

fn pages(c: &mut Criterion) {
    let mut group = c.benchmark_group("game_page");
    let herfor = random_link::<Herfor>("size=7&pie=true&simple=false", 1_000, 40);
    group.bench_function("herfor_size7_long_game", |b| {
        b.iter(|| render::<Herfor>(black_box(&herfor)))
    });
    let tara = random_link::<Tara>("first=red&level=1&match=false", 1_000, 4);
    group.bench_function("tara_long_game", |b| {
        b.iter(|| render::<Tara>(black_box(&tara)))
    });
    let hirth = random_link::<Hirth>("target=1", 600, 1);
    eprintln!(
        "HTML: {} bytes for Herfor, {} for Tara, {} for Hirþ",
        render::<Herfor>(&herfor),
        render::<Tara>(&tara),
        render::<Hirth>(&hirth)
    );
    group.bench_function("hirth_600_moves", |b| {
        b.iter(|| render::<Hirth>(black_box(&hirth)))
    });
    group.finish();
    // The same pages in CPU time of this thread, which a loaded machine does not inflate as it
    // does criterion's wall clock.
    eprintln!(
        "CPU µs per page (best of five rounds of 200): Herfor {:.0}, Tara {:.0}, Hirþ {:.0}",
        cpu_us(|| render::<Herfor>(black_box(&herfor))),
        cpu_us(|| render::<Tara>(black_box(&tara))),
        cpu_us(|| render::<Hirth>(black_box(&hirth)))
    );
}

/// CPU nanoseconds this thread has run (Linux `/proc/thread-self/schedstat`).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .expect("Linux schedstat")
}

/// The best of five rounds of 200 calls of `work`: CPU µs per call.
fn cpu_us(mut work: impl FnMut() -> usize) -> f64 {
    (0..5)
        .map(|_| {
            let start = cpu_ns();
            for _ in 0..200 {
                black_box(work());
            }
            (cpu_ns() - start) as f64 / 200.0 / 1000.0
        })
        .fold(f64::INFINITY, f64::min)
}

/// The computer's answer at each strength, from the start (Herfor size 5): one placement, one
/// king placement, one whole Hirþ turn.
fn computer(c: &mut Criterion) {
    let mut group = c.benchmark_group("computer_reply");
    group.sample_size(10);
    for strength in Strength::ALL {
        let opponent = Opponent {
            seat: Seat::First,
            strength,
        };
        bench_reply::<Herfor>(&mut group, "herfor_size5", "size=5", opponent);
        bench_reply::<Tara>(&mut group, "tara", "level=1", opponent);
        bench_reply::<Hirth>(&mut group, "hirth_turn", "target=5", opponent);
    }
    group.finish();
}

fn bench_reply<G: moot::ai::Strategy>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    options: &str,
    opponent: Opponent,
) {
    let (position, _) =
        Link::<G>::read(&Query::parse(&format!("{options}&moves="))).expect("valid options");
    let state = replay(&position).expect("the start").state;
    group.bench_function(format!("{name}_{}", opponent.strength.name()), |b| {
        b.iter(|| {
            play_computer(
                position.clone(),
                state.clone(),
                opponent,
                opponent.strength.budget::<G>(),
                None,
            )
            .expect("a reply")
        })
    });
}

criterion_group!(benches, pages, computer);
criterion_main!(benches);
