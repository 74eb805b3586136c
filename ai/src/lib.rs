//! The computer player: Monte Carlo tree search over the [`Game`](moot_games::Game) trait.
//!
//! - [`mcts`]: one search for every game (UCT, playouts, a cut-off evaluation);
//! - [`Player`]: what a game adds to it — the playout policy, the evaluation at the playout
//!   cap, greedy's immediate score;
//! - [`strategy`]: what the computer plays beyond the most visited move — the game's decisions
//!   read from the search's value ([`penningr`] for Hirþ), proofs where a game is solved;
//! - one module per game ([`herfor`], [`tara`], [`hirth`]): its `impl Player` and
//!   `impl Strategy`, all the computer player knows of that game;
//! - [`agent`]: ways to choose a move (random, greedy, a search at a budget or strength), as
//!   the research tools pit them against each other.
//!
//! Values are in −1…1 and always seen by the seat that acts in the position analysed. The same
//! state, [`Budget::Playouts`] and seed give the same answer; a [`Budget::Millis`] search depends on
//! the machine's speed and is not reproducible.

pub mod agent;
pub mod book;
pub mod herfor;
pub mod hirth;
pub mod mcts;
pub mod penningr;
pub mod perfect;
mod player;
pub mod solver;
pub mod strategy;
pub mod tara;

use std::time::Duration;

pub use agent::Agent;
pub use mcts::{TurnPlan, analyse, analyse_until, plan_turn};
pub use player::Player;
pub use strategy::{Proof, Strategy, Thought, search, think};

/// How much searching to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// Exactly this many playouts (deterministic with the seed).
    Playouts(u32),
    /// As many playouts as fit in this many milliseconds (not reproducible).
    Millis(u64),
}

/// The three strengths the play pages offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strength {
    /// The fewest playouts: quick answers, the weakest play.
    Easy,
    /// Between the two: the default of the pages and of the API's analysis.
    Normal,
    /// The most playouts: slower answers, the strongest play.
    Strong,
}

impl Strength {
    /// Every strength, weakest first: the order of [`Player::STRENGTH_PLAYOUTS`] and of the
    /// options form.
    pub const ALL: [Strength; 3] = [Strength::Easy, Strength::Normal, Strength::Strong];

    /// The search budget of this strength in game `G`: playouts, so a game against the computer
    /// replays the same way from the same seed. See [`Player::STRENGTH_PLAYOUTS`].
    pub fn budget<G: Player>(self) -> Budget {
        Budget::Playouts(self.playouts::<G>())
    }

    /// The playouts of this strength in game `G`.
    pub fn playouts<G: Player>(self) -> u32 {
        let [easy, normal, strong] = G::STRENGTH_PLAYOUTS;
        match self {
            Strength::Easy => easy,
            Strength::Normal => normal,
            Strength::Strong => strong,
        }
    }

    /// The strength's name in links, forms and the API: `easy`, `normal` or `strong`.
    pub fn name(self) -> &'static str {
        match self {
            Strength::Easy => "easy",
            Strength::Normal => "normal",
            Strength::Strong => "strong",
        }
    }

    /// The strength named `easy`, `normal` or `strong`.
    pub fn from_name(name: &str) -> Option<Strength> {
        Strength::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// What the search found in a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    /// The value of the position for the seat that must act, −1 (lost) … 1 (won).
    pub value: f64,
    /// Herfor: the expected final stone margin (with the button's half point) for that seat.
    pub margin: Option<f64>,
    /// The move the search recommends; `None` only when the game is over.
    pub best_move: Option<M>,
    /// The principal variation: the most visited line, starting with `best_move`.
    pub pv: Vec<M>,
    /// Every root move with its visits and mean value (for the seat that must act).
    pub moves: Vec<MoveStat<M>>,
    /// Playouts the search ran (fewer than asked when the wall-clock cap stopped it; 0 for a
    /// proof).
    pub playouts: u64,
    /// Wall-clock time the answer took.
    pub elapsed: Duration,
}

/// One root move and what the search saw of it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStat<M> {
    /// A legal move of the root position.
    pub mv: M,
    /// Playouts that went through this move; 0 when the move was never tried (and for a proof).
    pub visits: u64,
    /// Mean value for the seat that must act at the root; 0 for an unvisited move.
    pub value: f64,
}

#[cfg(test)]
mod tests;
