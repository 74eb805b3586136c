//! Perfect play on the Herfor boards that are solved (size 3), for `evaluate` (`"exact":
//! true`) and the `perfect` agent and strength.
//!
//! Each position is proven afresh by the [`Solver`], which takes the opening book's answers
//! ([`book`](super::book)) as proven. With a cutoff (a server's request) the proof is bounded:
//! at most [`MAX_NODES`] positions searched (a table of about 70 MB) and the cutoff; a proof
//! those limits stop is no proof, and the caller falls back to the search. Without the book
//! the opening would be beyond them (the empty board's proof settles 11 million positions,
//! about 10 s of CPU in a release build); with it, every position up to one ply past the book
//! is proven within them (checked when the book is written). Without a cutoff (the arena,
//! offline) the proof is unbounded.

use std::time::Instant;

use super::solver::Solver;
use super::strategy::{Proof, pick};
use moot_games::Game;
use moot_games::herfor::{Herfor, HerforMove, HerforOptions, HerforState};

/// The largest board solved.
pub const SOLVED_SIZE: u8 = 3;
/// Positions a bounded proof may search.
pub const MAX_NODES: u64 = 1_000_000;
/// The longest perfect line told (a size-3 game is shorter).
const MAX_LINE: usize = 64;

/// Whether the positions of games with `options` are proven here.
pub fn solved(options: &HerforOptions) -> bool {
    options.size <= SOLVED_SIZE
}

/// The proof for the player to act: `None` on boards not solved, once the game is over, or
/// when the limits stop it (only with a `cutoff`). Its line starts with the seed's pick among
/// the best moves.
pub fn prove(state: &HerforState, seed: u64, cutoff: Option<Instant>) -> Option<Proof<HerforMove>> {
    if !solved(&state.options()) {
        return None;
    }
    let max_nodes = if cutoff.is_some() {
        MAX_NODES
    } else {
        u64::MAX
    };
    let mut solver = Solver::bounded(max_nodes, cutoff).with_book(super::book::HERFOR_3);
    let solution = solver.try_solve(state).ok()??;
    let mut line = Vec::new();
    let mut at = state.clone();
    let mut next = pick(&solution.best, seed).cloned();
    while let Some(mv) = next.take() {
        Herfor::play_unchecked(&mut at, &mv);
        line.push(mv);
        if line.len() < MAX_LINE {
            // The line's later positions are settled already, or quick to settle; past the
            // limits the line simply stops.
            next = solver.one_best(&at).ok().flatten();
        }
    }
    Some(Proof {
        wins: solution.wins,
        best: solution.best,
        moves: solution.moves,
        line,
    })
}
