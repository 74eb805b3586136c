//! Random Hirþ playouts: whole single games (capped at 500 turns) per second, and how many
//! end by each victory.
//!
//! `cargo bench --bench hirth`

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use moot::games::Game;
use moot::games::hirth::{Hirth, HirthOptions, HirthState, Move, Phase};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const TURN_CAP: u32 = 500;

/// Uniform over the legal moves, except that offers are rare and mostly accepted.
fn pick(rng: &mut SmallRng, moves: &[Move]) -> Move {
    if moves.contains(&Move::Accept) {
        return if rng.random_bool(0.8) {
            Move::Accept
        } else {
            Move::GiveUp
        };
    }
    loop {
        let mv = &moves[rng.random_range(0..moves.len())];
        if *mv != Move::Offer || rng.random_bool(0.05) {
            return mv.clone();
        }
    }
}

/// One single-game match of random moves; the final state.
fn playout(rng: &mut SmallRng) -> HirthState {
    let mut state = Hirth::new_game(&HirthOptions { target: 1 }).expect("valid options");
    let mut moves = Vec::new();
    let mut turns = 0;
    while state.phase != Phase::Over && turns < TURN_CAP {
        moves.clear();
        Hirth::legal_moves_into(&state, &mut moves);
        let mover = state.position.mover;
        Hirth::play_unchecked(&mut state, &pick(rng, &moves));
        if state.position.mover != mover {
            turns += 1;
        }
    }
    state
}

fn victories(games: u64) {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for _ in 0..games {
        let state = playout(&mut rng);
        let key = match state.results.last() {
            Some(r) => format!("{:?}", r.victory),
            None => "turn cap".to_string(),
        };
        *counts.entry(key).or_default() += 1;
    }
    eprintln!("hirth: {games} random games end by {counts:?}");
}

fn bench(c: &mut Criterion) {
    victories(1000);
    let mut group = c.benchmark_group("hirth");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    let mut rng = SmallRng::seed_from_u64(1);
    group.bench_function("random_playout", |b| {
        b.iter(|| black_box(playout(&mut rng)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
