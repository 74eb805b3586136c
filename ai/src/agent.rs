//! The agents that play in the arena: random, greedy (one ply) and MCTS.

use std::fmt;
use std::str::FromStr;

use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, RngCore};

use super::player::{Player, first_view};
use super::{Budget, Strategy, Strength, search};
use moot_games::Turn;

/// A way of choosing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    /// A uniformly random legal move.
    Random,
    /// One ply: the move after which the game's immediate score ([`Player::immediate_score`])
    /// is best for the mover, a win above all; ties broken at random.
    Greedy,
    /// The tree search with this budget, and the game's decisions made from its value.
    Mcts(Budget),
    /// The tree search at this strength's budget in the game played.
    Strength(Strength),
    /// A proven best move, where the game is solved (the arena refuses it elsewhere); the
    /// normal strength's search should a proof not end within its limits.
    Perfect,
}

impl Agent {
    /// The move this agent plays, `None` once the game is over. `rng` breaks ties and seeds
    /// the search, so a seeded game replays exactly (with a playout budget).
    pub fn choose<G: Strategy>(&self, state: &G::State, rng: &mut SmallRng) -> Option<G::Move> {
        let moves = G::legal_moves(state);
        match self {
            Agent::Random => moves.choose(rng).cloned(),
            Agent::Greedy => greedy::<G>(state, &moves, rng),
            Agent::Mcts(budget) => {
                if moves.is_empty() {
                    return None;
                }
                search::<G>(state, *budget, rng.next_u64(), None).best_move
            }
            Agent::Strength(strength) => {
                Agent::Mcts(strength.budget::<G>()).choose::<G>(state, rng)
            }
            Agent::Perfect => {
                let seed = rng.next_u64();
                G::prove(state, seed, None)
                    .and_then(|proof| proof.line.first().cloned())
                    .or_else(|| {
                        let budget = Strength::Normal.budget::<G>();
                        search::<G>(state, budget, seed, None).best_move
                    })
            }
        }
    }
}

fn greedy<G: Player>(state: &G::State, moves: &[G::Move], rng: &mut SmallRng) -> Option<G::Move> {
    let Turn::ToAct(seat) = G::turn(state) else {
        return None;
    };
    let scores: Vec<f64> = moves
        .iter()
        .map(|mv| {
            let mut after = state.clone();
            G::play_unchecked(&mut after, mv);
            match G::outcome(state, &after) {
                // A win (or a loss) outweighs any score.
                Some(value) => 1e9 * first_view(seat, value),
                None => G::immediate_score(&after, seat),
            }
        })
        .collect();
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let tied: Vec<usize> = (0..moves.len()).filter(|&i| scores[i] >= best).collect();
    let pick = *tied.get(rng.random_range(0..tied.len().max(1)))?;
    Some(moves[pick].clone())
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Agent::Random => write!(f, "random"),
            Agent::Greedy => write!(f, "greedy"),
            Agent::Mcts(Budget::Playouts(n)) => write!(f, "mcts({n} playouts)"),
            Agent::Mcts(Budget::Millis(ms)) => write!(f, "mcts({ms} ms)"),
            Agent::Strength(strength) => write!(f, "{}", strength.name()),
            Agent::Perfect => write!(f, "perfect"),
        }
    }
}

/// `random`, `greedy`, a strength (`easy`, `normal`, `strong`: the search at that strength's
/// budget in the game played), `perfect` (proven moves, where the game is solved), `mcts` (the
/// normal strength), `mcts:N` (N playouts) or `mcts:Nms` (N milliseconds, not reproducible).
impl FromStr for Agent {
    type Err = String;

    fn from_str(text: &str) -> Result<Agent, String> {
        let refused = || {
            format!(
                "{text:?} is not an agent: use random, greedy, easy, normal, strong, perfect, \
                 mcts, mcts:N (N playouts) or mcts:Nms (N milliseconds), N at least 1"
            )
        };
        if let Some(strength) = Strength::from_name(text) {
            return Ok(Agent::Strength(strength));
        }
        match text {
            "random" => Ok(Agent::Random),
            "greedy" => Ok(Agent::Greedy),
            "perfect" => Ok(Agent::Perfect),
            "mcts" => Ok(Agent::Strength(Strength::Normal)),
            _ => {
                let budget = text.strip_prefix("mcts:").ok_or_else(refused)?;
                let budget = match budget.strip_suffix("ms") {
                    Some(ms) => Budget::Millis(ms.parse().map_err(|_| refused())?),
                    None => Budget::Playouts(budget.parse().map_err(|_| refused())?),
                };
                match budget {
                    Budget::Playouts(0) | Budget::Millis(0) => Err(refused()),
                    budget => Ok(Agent::Mcts(budget)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_are_read_by_name_strength_or_budget() {
        assert_eq!("random".parse(), Ok(Agent::Random));
        assert_eq!("greedy".parse(), Ok(Agent::Greedy));
        assert_eq!("perfect".parse(), Ok(Agent::Perfect));
        assert_eq!("strong".parse(), Ok(Agent::Strength(Strength::Strong)));
        assert_eq!("mcts".parse(), Ok(Agent::Strength(Strength::Normal)));
        assert_eq!("mcts:300".parse(), Ok(Agent::Mcts(Budget::Playouts(300))));
        assert_eq!("mcts:50ms".parse(), Ok(Agent::Mcts(Budget::Millis(50))));
        for bad in ["mcts:0", "mcts:", "mcts:x", "mcts:-3", "expert", ""] {
            let refused = bad.parse::<Agent>().unwrap_err();
            assert!(refused.contains("is not an agent"), "{bad}: {refused}");
        }
    }
}
