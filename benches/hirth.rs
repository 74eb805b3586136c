//! Random Hirþ playouts: whole single games (capped at 500 turns) per second, and how many
//! end by each victory.
//!
//! `cargo bench --bench hirth`
#![allow(missing_docs)] // criterion_group! writes undocumented functions

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use moot::games::hirth::random_play::random_game;
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn victories(games: u64) {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for _ in 0..games {
        let state = random_game(&mut rng);
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
        b.iter(|| black_box(random_game(&mut rng)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
