//! Random playouts of The High Kings of Tara from the empty board, the search's inner loop:
//! `legal_moves_into` + `play_unchecked` until the game ends.
#![allow(missing_docs)] // criterion_group! writes undocumented functions

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use moot::games::tara::{Tara, TaraOptions};
use moot::games::{Game, Turn};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn playout(
    rng: &mut SmallRng,
    start: &<Tara as Game>::State,
    moves: &mut Vec<<Tara as Game>::Move>,
) -> usize {
    let mut state = start.clone();
    let mut plies = 0;
    while let Turn::ToAct(_) = Tara::turn(&state) {
        moves.clear();
        Tara::legal_moves_into(&state, moves);
        let mv = moves[rng.random_range(0..moves.len())];
        Tara::play_unchecked(&mut state, &mv);
        plies += 1;
    }
    plies
}

fn random_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("tara");
    group.throughput(Throughput::Elements(1));
    for (name, level) in [("random_playout_level_1", 1), ("random_playout_level_2", 2)] {
        let start = Tara::new_game(&TaraOptions {
            level,
            ..TaraOptions::default()
        })
        .unwrap();
        let mut rng = SmallRng::seed_from_u64(7);
        let mut moves = Vec::new();
        group.bench_function(name, |b| b.iter(|| playout(&mut rng, &start, &mut moves)));
    }
    group.finish();
}

criterion_group!(benches, random_playouts);
criterion_main!(benches);
