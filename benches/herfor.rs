//! Random Herfor playouts per second, until both players have passed: through the `Game`
//! trait (legal moves into a reused buffer, a uniformly random one, `play_unchecked`), and on
//! the search's path (the compact `Position`, legal placements as a bit set sampled by index).
#![allow(missing_docs)] // criterion_group! writes undocumented functions

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use moot::games::Game;
use moot::games::herfor::cells::{Cells, Narrow};
use moot::games::herfor::{Herfor, HerforOptions, HerforState, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn playout(
    start: &HerforState,
    rng: &mut SmallRng,
    moves: &mut Vec<moot::games::herfor::HerforMove>,
) -> u32 {
    let mut state = start.clone();
    let mut plies = 0;
    while !state.is_over() {
        moves.clear();
        Herfor::legal_moves_into(&state, moves);
        let mv = moves[rng.random_range(0..moves.len())];
        Herfor::play_unchecked(&mut state, &mv);
        plies += 1;
    }
    plies
}

/// The same random game on the search's path: no move list.
fn mask_playout<C: Cells>(start: &Position<C>, rng: &mut SmallRng) -> u32 {
    let mut position = *start;
    let mut plies = 0;
    while !position.is_over() {
        position.play_random(rng);
        plies += 1;
    }
    plies
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("herfor_random_playout");
    group.throughput(Throughput::Elements(1));
    for size in [5u8, 7] {
        for simple in [false, true] {
            let options = HerforOptions {
                size,
                pie: true,
                simple,
            };
            let start = Herfor::new_game(&options).expect("valid options");
            let mut rng = SmallRng::seed_from_u64(7);
            let mut moves = Vec::with_capacity(128);
            let label = if simple { "simple" } else { "full" };
            group.bench_with_input(
                BenchmarkId::new(format!("n{size}"), label),
                &start,
                |b, start| b.iter(|| black_box(playout(start, &mut rng, &mut moves))),
            );
            let id = BenchmarkId::new(format!("n{size} mask"), label);
            // In the narrower sets where they hold the board, as the search plays.
            match start.position_in::<Narrow>() {
                Some(narrow) => group.bench_with_input(id, &narrow, |b, start| {
                    b.iter(|| black_box(mask_playout(start, &mut rng)))
                }),
                None => group.bench_with_input(id, &start.position(), |b, start| {
                    b.iter(|| black_box(mask_playout(start, &mut rng)))
                }),
            };
        }
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
