//! What the computer plays and says beyond the search's most visited move: the game's decisions
//! read from the search's value (Hirþ's Penningr), and proven answers where a game is solved
//! (Herfor's small boards). The play pages, the API's `evaluate` and the arena's agents all
//! come here, so they decide alike.

use std::time::Instant;

use super::player::Player;
use super::{Analysis, Budget, MoveStat, TurnPlan, analyse_until, plan_turn};

/// A game's strategy on top of the search. Each game implements it in its own module, beside
/// its [`Player`]: by default the search decides alone.
pub trait Strategy: Player {
    /// The search within `budget` (stopped at `cutoff`) with the game's decisions made: by
    /// default the search as it is, its most visited move the one to play.
    fn searched(
        state: &Self::State,
        budget: Budget,
        seed: u64,
        cutoff: Option<Instant>,
    ) -> Analysis<Self::Move> {
        analyse_until::<Self>(state, budget, seed, cutoff)
    }

    /// The moves of the seat to act for the rest of its turn from one search tree (the page's
    /// computer), with the game's decisions made: by default [`plan_turn`]'s.
    fn planned(
        state: &Self::State,
        budget: Budget,
        seed: u64,
        cutoff: Option<Instant>,
    ) -> TurnPlan<Self::Move> {
        plan_turn::<Self>(state, budget, seed, cutoff)
    }

    /// The proven answer for the player to act where this game is solved, if the proof ends
    /// by `cutoff`; `None` elsewhere (and once the game is over). The seed picks the proof's
    /// line among the best moves.
    fn prove(
        _state: &Self::State,
        _seed: u64,
        _cutoff: Option<Instant>,
    ) -> Option<Proof<Self::Move>> {
        None
    }

    /// Whether this game is solved for the rules of `state` ([`Strategy::prove`] answers,
    /// within its limits).
    fn solved(_state: &Self::State) -> bool {
        false
    }
}

/// A position's value with perfect play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    /// Whether the player to act wins.
    pub wins: bool,
    /// The moves that keep that result: the winning moves, or every move of a lost position.
    pub best: Vec<M>,
    /// Every legal move with whether it wins for the player to act.
    pub moves: Vec<(M, bool)>,
    /// A perfect line from here: a best move each turn, to the end of the game.
    pub line: Vec<M>,
}

/// What the computer thinks of a position: the analysis, and its proof when there is one (the
/// analysis then tells the proven values, with no playouts).
#[derive(Clone, Debug, PartialEq)]
pub struct Thought<M> {
    /// The search's answer, or the proof told as one (values ±1, no playouts).
    pub analysis: Analysis<M>,
    /// The proof, when the game is solved here and it ended in time; `None` means the
    /// analysis is a search's estimate.
    pub proof: Option<Proof<M>>,
}

/// The search within `budget` (stopped at `cutoff`), with the game's decisions made.
pub fn search<G: Strategy>(
    state: &G::State,
    budget: Budget,
    seed: u64,
    cutoff: Option<Instant>,
) -> Analysis<G::Move> {
    G::searched(state, budget, seed, cutoff)
}

/// The computer's analysis of `state`: proven where the game is solved and the proof ends
/// within half the time to `cutoff`, the decided search's otherwise (in the time left).
pub fn think<G: Strategy>(
    state: &G::State,
    budget: Budget,
    seed: u64,
    cutoff: Option<Instant>,
) -> Thought<G::Move> {
    let started = Instant::now();
    let proof_cutoff = cutoff.map(|c| started + c.saturating_duration_since(started) / 2);
    match G::prove(state, seed, proof_cutoff) {
        Some(proof) => Thought {
            analysis: proven_analysis::<G>(&proof, started),
            proof: Some(proof),
        },
        None => Thought {
            analysis: search::<G>(state, budget, seed, cutoff),
            proof: None,
        },
    }
}

/// The proof told as an analysis: values ±1, its line's first move the best.
fn proven_analysis<G: Strategy>(proof: &Proof<G::Move>, started: Instant) -> Analysis<G::Move> {
    let signed = |wins: bool| if wins { 1.0 } else { -1.0 };
    Analysis {
        value: signed(proof.wins),
        margin: None,
        best_move: proof.line.first().cloned(),
        pv: proof.line.clone(),
        moves: proof
            .moves
            .iter()
            .map(|(mv, wins)| MoveStat {
                mv: mv.clone(),
                visits: 0,
                value: signed(*wins),
            })
            .collect(),
        playouts: 0,
        elapsed: started.elapsed(),
    }
}

/// The seed's choice among `moves`, so a seeded game replays and still varies with the seed.
pub fn pick<M>(moves: &[M], seed: u64) -> Option<&M> {
    if moves.is_empty() {
        return None;
    }
    moves.get((seed % moves.len() as u64) as usize)
}
