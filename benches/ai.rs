//! Search speed: one `analyse` at the normal strength's playout budget, per game, from a
//! position a few random plies into the game. Criterion reports playouts per second
//! (`Throughput::Elements`) and the time of one answer; Hirþ also from a mid-game position.
//!
//! `cargo bench --bench ai`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use moot::ai::{Budget, Player, Strength, analyse};
use moot::games::herfor::Herfor;
use moot::games::hirth::Hirth;
use moot::games::tara::Tara;
use moot::games::{Game, random_opening};

fn bench_game<G: Player>(c: &mut Criterion, name: &str, plies: usize) {
    let Budget::Playouts(playouts) = Strength::Normal.budget() else {
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

fn search(c: &mut Criterion) {
    bench_game::<Herfor>(c, Herfor::ID, 6);
    bench_game::<Tara>(c, Tara::ID, 8);
    bench_game::<Hirth>(c, Hirth::ID, 12);
    // The figure: a mid-game Hirþ position, 60 plies in.
    bench_game::<Hirth>(c, "hirth_60_plies", 60);
}

criterion_group!(benches, search);
criterion_main!(benches);
