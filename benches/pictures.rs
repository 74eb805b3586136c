//! The cost of one picture: a mid-game position of each game (a seeded random game, its last
//! turn marked) drawn as SVG and rasterised to a 600-pixel PNG, as `GET …/picture` does after
//! reading and replaying the link. Target: at most 10 ms per PNG.
#![allow(missing_docs)] // criterion_group! writes undocumented functions

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use moot::games::Game;
use moot::games::herfor::Herfor;
use moot::games::hirth::Hirth;
use moot::games::tara::Tara;
use moot::picture::{PictureOptions, picture_svg, png};
use moot::present::link::{Link, Query};
use moot::present::replay::{Replayed, replay};
use moot::web::PageGame;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

/// A seeded random game of `plies` moves (fewer if it ends), replayed as a link.
fn mid_game<G: Game>(plies: usize) -> Replayed<G> {
    let (mut position, _) = Link::<G>::read(&Query::parse("moves=")).expect("the defaults");
    let mut state = G::new_game(&position.options).expect("the defaults");
    let mut rng = SmallRng::seed_from_u64(7);
    while position.moves.len() < plies {
        let legal: Vec<_> = G::legal_moves(&state)
            .into_iter()
            .filter(|mv| !matches!(G::format_move(&state, mv).as_str(), "offer" | "give-up"))
            .collect();
        let Some(mv) = legal.choose(&mut rng) else {
            break;
        };
        position.moves.push(G::format_move(&state, mv));
        G::apply(&mut state, mv).expect("a legal move");
    }
    replay(&position).expect("a game")
}

fn picture<G: PageGame>(game: &Replayed<G>, options: &PictureOptions) -> usize {
    let svg = picture_svg::<G>(&game.state, game.last_turn(), options);
    png(&svg).expect("a PNG").len()
}

fn bench_game<G: PageGame>(c: &mut Criterion, plies: usize) {
    let game = mid_game::<G>(plies);
    let options = PictureOptions::default();
    assert_eq!(options.pixels, 600);
    eprintln!(
        "{}: {} plies, a PNG of {} bytes",
        G::NAME,
        game.plies.len(),
        picture(&game, &options)
    );
    c.bench_function(&format!("picture/{}/png-600", G::ID), |b| {
        b.iter(|| picture(black_box(&game), black_box(&options)))
    });
    c.bench_function(&format!("picture/{}/svg", G::ID), |b| {
        b.iter(|| picture_svg::<G>(black_box(&game.state), game.last_turn(), &options).len())
    });
}

fn pictures(c: &mut Criterion) {
    bench_game::<Herfor>(c, 30);
    bench_game::<Tara>(c, 24);
    bench_game::<Hirth>(c, 40);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = pictures
}
criterion_main!(benches);
