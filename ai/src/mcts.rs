//! Monte Carlo tree search (UCT), one implementation for every [`Player`].
//!
//! Each playout walks down the tree from the root by the UCT rule, adds one node, plays the
//! game on from there with the game's playout policy (up to its cap, then evaluates), and
//! adds the result to every node on the way. Nodes keep no states: the walk replays the moves
//! from the root, which costs far less than a playout. A node's total is kept for the seat that
//! chose the move leading to it, so every choice — Hirþ's retreats and answers to offers by the
//! player who is not moving included — maximises its own chooser's value.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;

use super::player::{Player, first_view};
use super::{Analysis, Budget, MoveStat};
use moot_games::{Seat, Turn};

/// The UCT exploration constant, for values in −1…1.
const EXPLORATION: f64 = 1.0;
/// Each ply between the root and a playout's end scales its value by this much: of two wins
/// the search prefers the nearer, of two losses the farther.
const DISCOUNT: f64 = 0.995;
/// Time budgets look at the clock every this many playouts.
const CLOCK_EVERY: u64 = 8;

/// A node's slice of one of the tree's arenas.
#[derive(Clone, Copy, Debug, Default)]
struct Span {
    start: u32,
    len: u32,
}

impl Span {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// A node of the tree. Its move lists live in the tree's arenas (`moves`, `child_ids`), set
/// aside when the node is opened, so that growing the tree allocates nothing per node.
struct Node<M> {
    mv: Option<M>,
    /// The children, in the order they were expanded: ids in the tree's `child_ids`, which
    /// keeps room there for every move the node has.
    children: Span,
    /// Moves not yet expanded, in the tree's `moves`, taken from the end; `None` until the
    /// node is first walked through.
    untried: Option<Span>,
    /// Who chooses here; `None` once the search stops here (`terminal` is its value).
    actor: Option<Seat>,
    terminal: Option<f64>,
    visits: u64,
    /// Sum of the values for the seat that chose this node's move.
    total: f64,
    /// Sum of the margins for the first seat (games with a margin).
    margin_total: f64,
}

impl<M> Node<M> {
    fn new(mv: Option<M>) -> Self {
        Node {
            mv,
            children: Span::default(),
            untried: None,
            actor: None,
            terminal: None,
            visits: 0,
            total: 0.0,
            margin_total: 0.0,
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

struct Tree<'a, G: Player> {
    root: &'a G::State,
    nodes: Vec<Node<G::Move>>,
    /// Every opened node's moves, shuffled, its untried ones at the end of its span.
    moves: Vec<G::Move>,
    /// Every opened node's children (ids in `nodes`) with room for the rest.
    child_ids: Vec<u32>,
    rng: SmallRng,
    /// Scratch space for move lists: the playouts', and a node's legal moves as it opens.
    buffer: Vec<G::Move>,
    path: Vec<usize>,
    /// The node playouts start from: the root, or (planning a turn) the node reached by the
    /// moves chosen so far, `top_depth` plies below the root.
    top: usize,
    top_depth: usize,
}

/// Searches `state` (a valid state) within `budget` and says what it found. Never panics on a
/// valid state; a finished game gets its result and no move.
pub fn analyse<G: Player>(state: &G::State, budget: Budget, seed: u64) -> Analysis<G::Move> {
    analyse_until::<G>(state, budget, seed, None)
}

/// [`analyse`], stopped at `cutoff` (a wall-clock cap) whatever the budget: a playout budget
/// cut short runs fewer playouts (the answer's `playouts` says how many).
pub fn analyse_until<G: Player>(
    state: &G::State,
    budget: Budget,
    seed: u64,
    cutoff: Option<Instant>,
) -> Analysis<G::Move> {
    let started = Instant::now();
    let mut tree = Tree::<G>::new(state, seed);
    let playouts = tree.run(state, budget, cutoff);
    tree.analysis(playouts, started.elapsed())
}

/// The moves one search gives the seat to act for the rest of its turn (see [`plan_turn`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TurnPlan<M> {
    /// The moves in order, while the same seat acts; empty only when the game is over.
    pub moves: Vec<M>,
    /// Playouts run, top-ups included.
    pub playouts: u64,
    /// How often a subtree on the way was too thin to choose from and was searched further
    /// (in the same tree: what it had seen is kept).
    pub top_ups: u32,
    /// What the root's search found, before any top-up: what [`analyse_until`] reports with
    /// the same budget and seed (for decisions a game takes from the root's values).
    pub root: Analysis<M>,
}

/// Plays a whole turn from one search tree (Hirþ's five steps and the end of the movement
/// phase): the root is searched within `budget`, as by [`analyse_until`] (so the first move is
/// the one `analyse` recommends with the same seed), then the walk goes down the tree to the
/// most visited child while the same seat acts. Where the next choice rests on fewer than
/// [`min_visits`] playouts, that subtree is searched further with a quarter of the budget
/// first. Past `cutoff` no top-up starts; the plan stops where the tree has no child.
pub fn plan_turn<G: Player>(
    state: &G::State,
    budget: Budget,
    seed: u64,
    cutoff: Option<Instant>,
) -> TurnPlan<G::Move> {
    let started = Instant::now();
    let mut tree = Tree::<G>::new(state, seed);
    let mut playouts = tree.run(state, budget, cutoff);
    let mut plan = TurnPlan {
        moves: Vec::new(),
        playouts: 0,
        top_ups: 0,
        root: tree.analysis(playouts, started.elapsed()),
    };
    let Some(seat) = tree.nodes[0].actor else {
        plan.playouts = playouts;
        return plan;
    };
    let enough = min_visits(budget);
    let mut at = state.clone();
    let mut id = 0;
    loop {
        let thin = tree
            .best_child(id)
            .is_none_or(|c| tree.nodes[c].visits < enough);
        // The root had the whole budget; below it, thin choices are searched further.
        if thin && id != 0 && cutoff.is_none_or(|c| Instant::now() < c) {
            tree.top = id;
            tree.top_depth = plan.moves.len();
            playouts += tree.run(&at, top_up(budget), cutoff);
            plan.top_ups += 1;
        }
        let next = match tree.best_child(id) {
            Some(child) => child,
            // A root never expanded (no playout ran): its first move, as `analyse` says.
            None if id == 0 => match tree.untried(0).last() {
                Some(mv) => {
                    plan.moves.push(mv.clone());
                    break;
                }
                None => break,
            },
            None => break,
        };
        let mv = tree.nodes[next].mv.clone().expect("a child has a move");
        G::play_unchecked(&mut at, &mv);
        plan.moves.push(mv);
        id = next;
        tree.open(id, &at);
        if tree.nodes[id].actor != Some(seat) {
            break;
        }
    }
    plan.playouts = playouts;
    plan
}

/// Visits below which a choice on the way through a turn is searched further: a hundredth of
/// a playout budget (50 at `strong`), at least 8.
pub fn min_visits(budget: Budget) -> u64 {
    match budget {
        Budget::Playouts(n) => (u64::from(n) / 100).max(8),
        Budget::Millis(_) => 8,
    }
}

/// The budget of one top-up: a quarter of the turn's.
fn top_up(budget: Budget) -> Budget {
    match budget {
        Budget::Playouts(n) => Budget::Playouts((n / 4).max(1)),
        Budget::Millis(ms) => Budget::Millis((ms / 4).max(1)),
    }
}

impl<'a, G: Player> Tree<'a, G> {
    fn new(root: &'a G::State, seed: u64) -> Self {
        let mut tree = Tree {
            root,
            nodes: vec![Node::new(None)],
            moves: Vec::new(),
            child_ids: Vec::new(),
            rng: SmallRng::seed_from_u64(seed),
            buffer: Vec::new(),
            path: Vec::new(),
            top: 0,
            top_depth: 0,
        };
        tree.open(0, root);
        tree
    }

    /// Playouts from the top node (whose state is `top_state`) within `budget`, stopped at
    /// `cutoff`: how many ran.
    fn run(&mut self, top_state: &G::State, budget: Budget, cutoff: Option<Instant>) -> u64 {
        let started = Instant::now();
        let mut playouts = 0u64;
        if self.nodes[self.top].terminal.is_some() {
            return 0;
        }
        let deadline = match budget {
            Budget::Millis(ms) => started + Duration::from_millis(ms),
            Budget::Playouts(_) => started,
        };
        let deadline = cutoff.map_or(deadline, |cutoff| match budget {
            Budget::Millis(_) => deadline.min(cutoff),
            Budget::Playouts(_) => cutoff,
        });
        let clock = |playouts: u64| {
            playouts == 0 || !playouts.is_multiple_of(CLOCK_EVERY) || Instant::now() < deadline
        };
        let more = |playouts: u64| match budget {
            Budget::Playouts(n) => playouts < u64::from(n) && (cutoff.is_none() || clock(playouts)),
            Budget::Millis(_) => clock(playouts),
        };
        let mut scratch = top_state.clone();
        while more(playouts) {
            scratch.clone_from(top_state);
            self.iterate(&mut scratch);
            playouts += 1;
        }
        playouts
    }

    /// First visit of a node: is the search over here, and if not, who chooses among what.
    fn open(&mut self, id: usize, state: &G::State) {
        if self.nodes[id].untried.is_some() || self.nodes[id].terminal.is_some() {
            return;
        }
        let stop = G::outcome(self.root, state);
        let actor = match (stop, G::turn(state)) {
            (None, Turn::ToAct(seat)) => {
                self.buffer.clear();
                G::legal_moves_into(state, &mut self.buffer);
                if id != 0 {
                    G::prune(state, &mut self.buffer);
                }
                self.buffer.shuffle(&mut self.rng);
                Some(seat)
            }
            _ => None,
        };
        if actor.is_none() || self.buffer.is_empty() {
            // A game that goes on without a legal move would be an engine bug: judge it as is.
            self.nodes[id].terminal = Some(stop.unwrap_or_else(|| G::evaluate(state)));
            return;
        }
        let count = self.buffer.len() as u32;
        let node = &mut self.nodes[id];
        node.actor = actor;
        node.untried = Some(Span {
            start: self.moves.len() as u32,
            len: count,
        });
        node.children = Span {
            start: self.child_ids.len() as u32,
            len: 0,
        };
        self.moves.append(&mut self.buffer);
        self.child_ids
            .resize(self.child_ids.len() + count as usize, 0);
    }

    /// The untried moves of a node (none before it is opened); the next to try is the last.
    fn untried(&self, id: usize) -> &[G::Move] {
        self.nodes[id]
            .untried
            .map_or(&[], |span| &self.moves[span.range()])
    }

    /// The children of a node, in the order they were expanded.
    fn children(&self, id: usize) -> &[u32] {
        &self.child_ids[self.nodes[id].children.range()]
    }

    /// Expands the next untried move of `id` into a new child: the move, or `None` when every
    /// move has a child.
    fn expand(&mut self, id: usize) -> Option<G::Move> {
        let child = self.nodes.len();
        let node = &mut self.nodes[id];
        let untried = node.untried.as_mut().filter(|span| span.len > 0)?;
        untried.len -= 1;
        let mv = self.moves[(untried.start + untried.len) as usize].clone();
        self.child_ids[(node.children.start + node.children.len) as usize] = child as u32;
        node.children.len += 1;
        self.nodes.push(Node::new(Some(mv.clone())));
        self.path.push(child);
        Some(mv)
    }

    /// One playout: select, expand, play out, back up.
    fn iterate(&mut self, state: &mut G::State) {
        self.path.clear();
        self.path.push(self.top);
        let mut id = self.top;
        let (value, playout_plies) = loop {
            self.open(id, state);
            if let Some(value) = self.nodes[id].terminal {
                break (value, 0);
            }
            if let Some(mv) = self.expand(id) {
                G::play_unchecked(state, &mv);
                break self.playout(state);
            }
            id = self.select(id);
            let mv = self.nodes[id].mv.clone().expect("a child has a move");
            G::play_unchecked(state, &mv);
            self.path.push(id);
        };
        let plies = self.top_depth + self.path.len() - 1 + playout_plies;
        let value = value * DISCOUNT.powi(plies as i32);
        let margin = G::margin(state).unwrap_or(0.0);
        for i in 1..self.path.len() {
            let (parent, child) = (self.path[i - 1], self.path[i]);
            let chooser = self.nodes[parent].actor.unwrap_or(Seat::First);
            let node = &mut self.nodes[child];
            node.visits += 1;
            node.total += first_view(chooser, value);
            node.margin_total += margin;
        }
        let top = &mut self.nodes[self.top];
        top.visits += 1;
        top.margin_total += margin;
    }

    /// The child with the best upper confidence bound (the first of equals).
    fn select(&self, id: usize) -> usize {
        let log_n = (self.nodes[id].visits.max(1) as f64).ln();
        let children = self.children(id);
        let mut best = (f64::NEG_INFINITY, children[0]);
        for &child in children {
            let c = &self.nodes[child as usize];
            let bound = c.mean() + EXPLORATION * (log_n / c.visits as f64).sqrt();
            if bound > best.0 {
                best = (bound, child);
            }
        }
        best.1 as usize
    }

    /// Plays on with the game's policy: the value for the first seat, and the plies played.
    fn playout(&mut self, state: &mut G::State) -> (f64, usize) {
        G::play_out(self.root, state, &mut self.buffer, &mut self.rng)
    }

    /// The most visited child (the better mean among equals).
    fn best_child(&self, id: usize) -> Option<usize> {
        let best = self.children(id).iter().copied().max_by(|&a, &b| {
            let (a, b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            a.visits
                .cmp(&b.visits)
                .then(a.mean().total_cmp(&b.mean()))
                // Equal in both: the earlier child, so the choice is stable.
                .then(std::cmp::Ordering::Greater)
        });
        best.map(|id| id as usize)
    }

    /// What the search found at the root so far.
    fn analysis(&self, playouts: u64, elapsed: Duration) -> Analysis<G::Move> {
        let root = &self.nodes[0];
        let Some(actor) = root.actor else {
            // The game is over: nobody acts, so the result is told for the first seat.
            return Analysis {
                value: root.terminal.unwrap_or(0.0),
                margin: G::margin(self.root),
                best_move: None,
                pv: Vec::new(),
                moves: Vec::new(),
                playouts,
                elapsed,
            };
        };
        let mut moves: Vec<MoveStat<G::Move>> = self
            .children(0)
            .iter()
            .map(|&c| {
                let node = &self.nodes[c as usize];
                MoveStat {
                    mv: node.mv.clone().expect("a child has a move"),
                    visits: node.visits,
                    value: node.mean(),
                }
            })
            .collect();
        let untried = self.untried(0).iter().rev();
        moves.extend(untried.map(|mv| MoveStat {
            mv: mv.clone(),
            visits: 0,
            value: 0.0,
        }));
        let best = self.best_child(0);
        let mut pv = Vec::new();
        let mut at = best;
        while let Some(id) = at {
            if self.nodes[id].visits == 0 {
                break;
            }
            pv.extend(self.nodes[id].mv.clone());
            at = self.best_child(id);
        }
        let (value, first_margin) = match best {
            Some(id) => {
                let node = &self.nodes[id];
                (node.mean(), node.margin_total / node.visits.max(1) as f64)
            }
            None => (
                first_view(actor, G::evaluate(self.root)),
                G::margin(self.root).unwrap_or(0.0),
            ),
        };
        Analysis {
            value,
            margin: G::margin(self.root).map(|_| first_view(actor, first_margin)),
            best_move: best
                .and_then(|id| self.nodes[id].mv.clone())
                .or_else(|| moves.first().map(|m| m.mv.clone())),
            pv,
            moves,
            playouts,
            elapsed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use moot_games::herfor::Herfor;
    use moot_games::{Game, random_opening};

    /// The arenas give every opened node its own moves: a node's children and untried moves
    /// together are its legal moves (the root's unpruned), each once, and every child is a
    /// later node whose move is one of them.
    #[test]
    fn the_arenas_hold_each_nodes_moves_and_children() {
        let state = random_opening::<Herfor>(6, 3);
        let mut tree = Tree::<Herfor>::new(&state, 11);
        assert_eq!(tree.run(&state, Budget::Playouts(400), None), 400);
        let mut legal = Herfor::legal_moves(&state);
        let mut seen: Vec<_> = tree.untried(0).to_vec();
        for &child in tree.children(0) {
            assert!(child as usize > 0);
            seen.extend(tree.nodes[child as usize].mv);
        }
        legal.sort_by_key(|m| format!("{m:?}"));
        seen.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(seen, legal);
        let mut parents = vec![0usize; tree.nodes.len()];
        for id in 0..tree.nodes.len() {
            for &child in tree.children(id) {
                assert!(child as usize > id, "children come after their parent");
                parents[child as usize] += 1;
            }
        }
        assert!(parents[1..].iter().all(|&p| p == 1), "one parent each");
    }
}
