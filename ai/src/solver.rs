//! Perfect play on small Herfor boards: a depth-first win/loss search with a transposition
//! table, exact on every position it answers.
//!
//! Herfor always has a winner (the button's half point, F4) and every placement fills a point,
//! so a game from any position is finite and each position is a win or a loss for the player to
//! act. The search stops at the first winning move (a proof needs only one) and remembers every
//! position it settles, keyed by what the rest of the game depends on: the stones, the colour to
//! move, the button, the passes in a row, and whether the pie's swap is still open. Which seat
//! holds which colour is left out of the key: the result is the same for the player to act.
//! The key is packed in 128 bits (sizes up to 4), so size 3's 11 million positions take about
//! 0.8 GB. A bounded solver gives up ([`Unfinished`]) after so many positions or at a deadline,
//! and keeps nothing it concluded after giving up.

use std::collections::HashMap;
use std::time::Instant;

use moot_games::herfor::geometry::{board_mask, points};
use moot_games::herfor::{Colour, Herfor, HerforMove, HerforState};
use moot_games::{Game, Seat, Turn};

/// The largest board the solver takes: its key holds a colour's stones in 40 bits.
pub const MAX_SIZE: u8 = 4;
/// Searched positions between two looks at the clock.
const CLOCK_EVERY: u64 = 4096;

/// What decides the rest of a Herfor game, packed: each colour's stones on the board's points
/// (40 bits each), the colour to move, button holder, passes in a row, swap open and simple
/// variant (8 bits), the board's size (an empty board is the same at every size), and whether
/// the pie's swap is still to come.
pub type Key = u128;

/// The key of a position, for [`book`](super::book).
pub fn key_of(state: &HerforState) -> Key {
    let colour = |c: Option<Colour>| match c {
        None => 0u128,
        Some(Colour::Black) => 1,
        Some(Colour::White) => 2,
    };
    let (black, white) = (state.stones(Colour::Black), state.stones(Colour::White));
    let mut packed = [0u128; 2];
    for (i, p) in points(board_mask(state.size())).enumerate() {
        packed[0] |= u128::from(black & p.bit() != 0) << i;
        packed[1] |= u128::from(white & p.bit() != 0) << i;
    }
    let flags = colour(Some(state.to_move()))
        | colour(state.button()) << 2
        | u128::from(state.passes_in_a_row().min(3)) << 4
        | u128::from(state.swap_available()) << 6
        | u128::from(state.options().simple) << 7;
    // The pie's swap still to come: the empty boards with and without the pie rule differ
    // (the swap opens after the first move), later positions do not.
    let pie_to_come = state.options().pie && state.moves_played() == 0;
    packed[0]
        | packed[1] << 40
        | flags << 80
        | u128::from(state.size()) << 88
        | u128::from(pie_to_come) << 96
}

/// The exact answer for the player to act.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Whether the player to act wins with perfect play.
    pub wins: bool,
    /// The moves that keep the best result: every winning move when it wins, every move when
    /// it loses whatever it does.
    pub best: Vec<HerforMove>,
    /// Every legal move, and whether it wins for the player to act.
    pub moves: Vec<(HerforMove, bool)>,
}

/// The search stopped at its limit (positions or time) before settling the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unfinished;

/// A solver and the positions it has settled. Keep one for many questions: the answers are
/// shared (the key holds each board's size and rules).
#[derive(Debug)]
pub struct Solver {
    settled: HashMap<Key, bool>,
    /// Positions searched before the search gives up, and the instant it gives up at.
    max_nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// Proven answers looked up before searching (an opening book; empty: none).
    book: &'static [u8],
    /// Positions searched (not answered from the table), for measurements.
    pub nodes: u64,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::bounded(u64::MAX, None)
    }
}

impl Solver {
    /// A solver without limits.
    pub fn new() -> Self {
        Solver::default()
    }

    /// A solver that gives up after `max_nodes` positions searched (which bounds its table)
    /// or at `deadline`.
    pub fn bounded(max_nodes: u64, deadline: Option<Instant>) -> Self {
        Solver {
            settled: HashMap::new(),
            max_nodes,
            deadline,
            stopped: false,
            book: &[],
            nodes: 0,
        }
    }

    /// This solver, taking the answers of `book` (see [`book`](super::book)) as proven.
    pub fn with_book(mut self, book: &'static [u8]) -> Self {
        self.book = book;
        self
    }

    /// Positions remembered.
    pub fn settled(&self) -> usize {
        self.settled.len()
    }

    /// The exact answer for the player to act, `None` once the game is over. Without limits.
    pub fn solve(&mut self, state: &HerforState) -> Option<Solution> {
        self.try_solve(state).ok().flatten()
    }

    /// The exact answer for the player to act (`None` once the game is over), or
    /// [`Unfinished`] when the limits stopped the search first.
    pub fn try_solve(&mut self, state: &HerforState) -> Result<Option<Solution>, Unfinished> {
        let Turn::ToAct(me) = Herfor::turn(state) else {
            return Ok(None);
        };
        let mut moves = Vec::new();
        for mv in Herfor::legal_moves(state) {
            let wins = self.wins_after(state, &mv, me);
            moves.push((mv, wins));
        }
        if self.stopped {
            return Err(Unfinished);
        }
        let winning: Vec<HerforMove> = moves
            .iter()
            .filter(|(_, wins)| *wins)
            .map(|(mv, _)| *mv)
            .collect();
        let wins = !winning.is_empty();
        let best = if wins {
            winning
        } else {
            moves.iter().map(|(mv, _)| *mv).collect()
        };
        Ok(Some(Solution { wins, best, moves }))
    }

    /// Whether the player to act wins with perfect play (`false` once the game is over, and
    /// meaningless once the limits stopped the search).
    pub fn wins(&mut self, state: &HerforState) -> bool {
        let Turn::ToAct(me) = Herfor::turn(state) else {
            return false;
        };
        let key = key_of(state);
        if let Some(&known) = self.settled.get(&key) {
            return known;
        }
        if let Some(known) = super::book::lookup(self.book, key) {
            return known;
        }
        if self.stopped || self.out_of_limits() {
            self.stopped = true;
            return false;
        }
        self.nodes += 1;
        let mut moves = Herfor::legal_moves(state);
        // Big invasions first: they are the likeliest wins, and one win ends the search here.
        moves.sort_by_cached_key(|mv| std::cmp::Reverse(flips(state, mv)));
        let won = moves.iter().any(|mv| self.wins_after(state, mv, me));
        // An answer found after the search stopped may be wrong: it is not kept.
        if !self.stopped {
            self.settled.insert(key, won);
        }
        won
    }

    /// One move that keeps the best result, `None` once the game is over: the first winning
    /// move in the search's own order (the one it settled), or the first move of a lost
    /// position.
    pub fn one_best(&mut self, state: &HerforState) -> Result<Option<HerforMove>, Unfinished> {
        let Turn::ToAct(me) = Herfor::turn(state) else {
            return Ok(None);
        };
        let mut moves = Herfor::legal_moves(state);
        moves.sort_by_cached_key(|mv| std::cmp::Reverse(flips(state, mv)));
        let winning = moves.iter().position(|mv| self.wins_after(state, mv, me));
        if self.stopped {
            return Err(Unfinished);
        }
        Ok(Some(moves.swap_remove(winning.unwrap_or(0))))
    }

    fn out_of_limits(&self) -> bool {
        self.nodes >= self.max_nodes
            || self.nodes.is_multiple_of(CLOCK_EVERY)
                && self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether `me` wins after playing `mv`.
    fn wins_after(&mut self, state: &HerforState, mv: &HerforMove, me: Seat) -> bool {
        let mut after = state.clone();
        Herfor::play_unchecked(&mut after, mv);
        match Herfor::turn(&after) {
            Turn::Won(seat) => seat == me,
            Turn::Drawn => false,
            Turn::ToAct(seat) if seat == me => self.wins(&after),
            Turn::ToAct(_) => !self.wins(&after),
        }
    }
}

/// The enemy stones a placement flips (0 for a pass or a swap).
fn flips(state: &HerforState, mv: &HerforMove) -> u32 {
    match *mv {
        HerforMove::Place(p) => state.flip_count(p),
        HerforMove::Pass | HerforMove::Swap => 0,
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;

    use super::*;
    use moot_games::herfor::HerforOptions;

    fn start(pie: bool, simple: bool) -> HerforState {
        Herfor::new_game(&HerforOptions {
            size: 3,
            pie,
            simple,
        })
        .expect("size 3 is a board")
    }

    /// Plain minimax: every move searched, nothing cut, no move order, remembered by the whole
    /// state's JSON (no hand-made key): the reference the solver must agree with.
    fn minimax(state: &HerforState, memo: &mut HashMap<String, bool>) -> bool {
        let Turn::ToAct(me) = Herfor::turn(state) else {
            return false;
        };
        let text = serde_json::to_string(state).expect("a state writes");
        if let Some(&known) = memo.get(&text) {
            return known;
        }
        let mut won = false;
        for mv in Herfor::legal_moves(state) {
            let mut after = state.clone();
            Herfor::play_unchecked(&mut after, &mv);
            won |= match Herfor::turn(&after) {
                Turn::Won(seat) => seat == me,
                Turn::Drawn => false,
                Turn::ToAct(seat) if seat == me => minimax(&after, memo),
                Turn::ToAct(_) => !minimax(&after, memo),
            };
        }
        memo.insert(text, won);
        won
    }

    /// The position after `plies` seeded random plies (fewer if the game ends first).
    fn random_position(start: &HerforState, plies: usize, rng: &mut SmallRng) -> HerforState {
        let mut state = start.clone();
        for _ in 0..plies {
            let Some(mv) = Herfor::legal_moves(&state).choose(rng).cloned() else {
                break;
            };
            Herfor::play_unchecked(&mut state, &mv);
        }
        state
    }

    #[test]
    fn f4_the_solver_agrees_with_plain_minimax() {
        // Plain minimax searches everything: from the start it would not fit in memory (the
        // solver alone settles 11 million positions of size 3), so it answers random
        // positions seven to twelve plies in, under each set of rules.
        let mut rng = SmallRng::seed_from_u64(5);
        for (pie, simple) in [(false, false), (true, false), (false, true), (true, true)] {
            let start = start(pie, simple);
            let mut solver = Solver::new();
            let mut memo = HashMap::new();
            for plies in (7..=12).cycle().take(60) {
                let state = random_position(&start, plies, &mut rng);
                assert_eq!(
                    solver.wins(&state),
                    minimax(&state, &mut memo),
                    "pie {pie}, simple {simple}: {}",
                    serde_json::to_string(&state).unwrap()
                );
            }
        }
    }

    #[test]
    fn f4_a_proven_win_is_never_lost_against_random_play() {
        let mut solver = Solver::new();
        let mut rng = SmallRng::seed_from_u64(11);
        let start = start(true, false);
        let mut played = 0;
        for plies in (4..=9).cycle().take(400) {
            let from = random_position(&start, plies, &mut rng);
            let Turn::ToAct(winner) = Herfor::turn(&from) else {
                continue;
            };
            if !solver.wins(&from) {
                continue;
            }
            let mut state = from.clone();
            let loser_moved = loop {
                let seat = match Herfor::turn(&state) {
                    Turn::ToAct(seat) => seat,
                    Turn::Won(seat) => {
                        assert_eq!(seat, winner, "{}", serde_json::to_string(&from).unwrap());
                        break true;
                    }
                    Turn::Drawn => panic!("Herfor has no draws"),
                };
                let mv = if seat == winner {
                    let best = solver.solve(&state).expect("the game goes on").best;
                    best.choose(&mut rng).cloned()
                } else {
                    Herfor::legal_moves(&state).choose(&mut rng).cloned()
                }
                .expect("a player to act has a move");
                Herfor::play_unchecked(&mut state, &mv);
            };
            played += usize::from(loser_moved);
        }
        assert!(played >= 100, "{played} won positions played out");
    }

    #[test]
    fn a_bounded_search_gives_up_at_its_limit_and_agrees_within_it() {
        let start = start(false, false);
        assert_eq!(
            Solver::bounded(1_000, None).try_solve(&start),
            Err(Unfinished)
        );
        let mut rng = SmallRng::seed_from_u64(8);
        let mut exact = Solver::new();
        for plies in (8..=12).cycle().take(20) {
            let state = random_position(&start, plies, &mut rng);
            let mut bounded = Solver::bounded(1_000_000, None);
            assert_eq!(bounded.try_solve(&state), Ok(exact.solve(&state)));
        }
    }

    #[test]
    fn f5_the_empty_boards_with_and_without_the_pie_rule_are_told_apart() {
        // The swap opens only after the first move, yet the pie rule turns the empty board
        // from a win into a loss: one table holding both must not confuse them.
        assert_ne!(key_of(&start(true, false)), key_of(&start(false, false)));
        assert_ne!(key_of(&start(true, true)), key_of(&start(false, true)));
        // Once the swap is declined by playing on, the same stones are the same position.
        let on = |pie| {
            let mut state = start(pie, false);
            for mv in ["c3", "a1"] {
                let mv = Herfor::parse_move(&state, mv).expect("a move");
                Herfor::play_unchecked(&mut state, &mv);
            }
            state
        };
        assert_eq!(key_of(&on(true)), key_of(&on(false)));
    }

    #[test]
    fn a_finished_game_has_no_solution() {
        let mut state = start(false, false);
        let mut rng = SmallRng::seed_from_u64(3);
        while let Some(mv) = Herfor::legal_moves(&state).choose(&mut rng).cloned() {
            Herfor::play_unchecked(&mut state, &mv);
        }
        assert_eq!(Solver::new().solve(&state), None);
        assert!(!Solver::new().wins(&state));
    }
}
