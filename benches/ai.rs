//! Search speed: one `analyse` at the normal strength's playout budget, per game, from a
//! position a few random plies into the game. Criterion reports playouts per second
//! (`Throughput::Elements`) and the time of one answer.
//!
//! `cargo bench --bench ai`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use moot::ai::{Budget, Player, Strength, analyse};
use moot::games::Game;
use moot::games::herfor::Herfor;
use moot::games::hirth::Hirth;
use moot::games::tara::Tara;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

/// The default start after `plies` seeded random moves.
fn position<G: Game>(plies: usize) -> G::State {
    let mut rng = SmallRng::seed_from_u64(5);
    let mut state = G::new_game(&G::Options::default()).expect("default options");
    for _ in 0..plies {
        let moves = G::legal_moves(&state);
        let Some(mv) = moves.choose(&mut rng) else {
            break;
        };
        G::play_unchecked(&mut state, mv);
    }
    state
}

fn bench_game<G: Player>(c: &mut Criterion, plies: usize) {
    let Budget::Playouts(playouts) = Strength::Normal.budget() else {
        unreachable!("the strengths use playout budgets")
    };
    let state = position::<G>(plies);
    let mut group = c.benchmark_group("analyse_normal");
    group.throughput(Throughput::Elements(u64::from(playouts)));
    group.sample_size(20);
    let mut seed = 0;
    group.bench_function(G::ID, |b| {
        b.iter(|| {
            seed += 1;
            black_box(analyse::<G>(&state, Budget::Playouts(playouts), seed))
        })
    });
    group.finish();
}

fn search(c: &mut Criterion) {
    bench_game::<Herfor>(c, 6);
    bench_game::<Tara>(c, 8);
    bench_game::<Hirth>(c, 12);
}

criterion_group!(benches, search);
criterion_main!(benches);
