//! Search speed: one `analyse` at the normal strength's playout budget, per game, from a
//! position a few random plies into the game. Criterion reports playouts per second
//! (`Throughput::Elements`) and the time of one answer; Hirþ also from a mid-game position, and
//! the page computer's whole turn there at the strong strength.
//!
//! `cargo bench --bench ai` (`-- hirth` for Hirþ only)
#![allow(missing_docs)] // criterion_group! writes undocumented functions

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use moot::ai::{Budget, Player, Strength, analyse};
use moot::games::fixtures::hirth::mid_game;
use moot::games::herfor::Herfor;
use moot::games::hirth::{Hirth, HirthState};
use moot::games::tara::Tara;
use moot::games::{Game, Turn, random_opening};
use moot::present::link::Link;
use moot::present::link::Opponent;
use moot::web::opponent::play_computer;

fn bench_game<G: Player>(c: &mut Criterion, name: &str, plies: usize) {
    let Budget::Playouts(playouts) = Strength::Normal.budget::<G>() else {
        unreachable!("the strengths use playout budgets")
    };
    let state = random_opening::<G>(plies, 5);
    let mut group = c.benchmark_group("analyse_normal");
    group.throughput(Throughput::Elements(u64::from(playouts)));
    group.sample_size(20);
    let mut seed = 0;
    group.bench_function(name, |b| {
        b.iter(|| {
            seed += 1;
            black_box(analyse::<G>(&state, Budget::Playouts(playouts), seed))
        })
    });
    group.finish();
}

/// A Hirþ game `plies` seeded random moves in, at the start of a turn: the page's link and
/// its state.
fn hirth_mid_game(plies: usize, seed: u64) -> (Link<Hirth>, HirthState) {
    let (moves, state) = mid_game(plies, seed);
    let mut position = Link::<Hirth>::start(Default::default()).expect("the defaults");
    position.moves = moves;
    (position, state)
}

/// The page computer's whole turn at the strong strength, from a mid-game Hirþ position.
fn page_turn(c: &mut Criterion) {
    let (position, state) = hirth_mid_game(60, 5);
    let Turn::ToAct(seat) = Hirth::turn(&state) else {
        panic!("the game goes on")
    };
    let opponent = Opponent {
        seat,
        strength: Strength::Strong,
    };
    let mut group = c.benchmark_group("page_turn");
    group.sample_size(10);
    group.bench_function("hirth_60_plies_strong", |b| {
        b.iter(|| {
            black_box(
                play_computer(
                    position.clone(),
                    state.clone(),
                    opponent,
                    Strength::Strong.budget::<Hirth>(),
                    None,
                )
                .expect("a turn"),
            )
        })
    });
    group.finish();
}

fn search(c: &mut Criterion) {
    bench_game::<Herfor>(c, Herfor::ID, 6);
    bench_game::<Tara>(c, Tara::ID, 8);
    bench_game::<Hirth>(c, Hirth::ID, 12);
    // A mid-game Hirþ position, 60 plies in.
    bench_game::<Hirth>(c, "hirth_60_plies", 60);
    page_turn(c);
}

criterion_group!(benches, search);
criterion_main!(benches);
