//! Hirþ for the search. Random Hirþ games wander for hundreds of turns, so playouts stop after a
//! few turns and the position is evaluated: Hirþ left in play, control of the middle spaces and
//! of Miðr (Yfirráð), and the danger to each Lofðungr (Drepið on Miðr, Þungur Hnífur
//! elsewhere). Greedy's immediate score: match points, then Hirþ removed from the game. Its
//! strategy makes the Penningr decisions from the search's value.

use std::time::Instant;

use rand::Rng;
use rand::rngs::SmallRng;

use super::player::{Player, first_view};
use super::strategy::Strategy;
use super::{Analysis, Budget, TurnPlan};
use moot_games::Seat;
use moot_games::hirth::{Colour, Hirth, HirthState, Move, Phase, Space};

/// Points of the largest win (Drepið undoubled): a game won by it is worth a full 1.
const MAX_POINTS: f64 = 5.0;

impl Player for Hirth {
    // About five turns of random steps.
    const PLAYOUT_CAP: u32 = 30;
    const STRENGTH_PLAYOUTS: [u32; 3] = [100, 1_000, 20_000];

    /// Without the record of finished turns and the notes of the turn under way: text that
    /// every playout would copy, and that no move or value reads.
    fn search_root(state: &HirthState) -> HirthState {
        HirthState {
            record: String::new(),
            log: Default::default(),
            ..state.clone()
        }
    }

    /// The end of the game under way at the root (a match goes on with the next game, which is
    /// beyond the search): a win is worth 0.7, up to 1 for five points or more.
    fn outcome(root: &HirthState, state: &HirthState) -> Option<f64> {
        if state.results.len() > root.results.len() {
            let last = state.results.last()?;
            let points = f64::from(last.points).min(MAX_POINTS);
            return Some(first_view(last.winner, 0.7 + 0.3 * points / MAX_POINTS));
        }
        // A match already over at the root: its winner.
        (state.phase == Phase::Over).then(|| {
            let winner = if state.points[0] >= state.points[1] {
                Seat::First
            } else {
                Seat::Second
            };
            first_view(winner, 1.0)
        })
    }

    fn evaluate(state: &HirthState) -> f64 {
        let first = state.colour_of(Seat::First);
        (strength(state, first) - strength(state, first.other())).tanh()
    }

    /// No offer after the first step of a turn: the computer offers only at the start of a
    /// turn (see `penningr`), so the tree spends no playouts on them, and a turn planned from
    /// the tree is not cut short by one.
    fn prune(state: &HirthState, moves: &mut Vec<Move>) {
        if state.phase == Phase::Movement && state.position.steps > 0 {
            moves.retain(|m| *m != Move::Offer);
        }
    }

    fn quiet(state: &HirthState) -> bool {
        state.phase == Phase::Movement && state.position.steps == 0
    }

    /// Steps at random, but attacks three times as likely as other steps, and ending the
    /// movement phase likelier when every battle it would fight is won; no offers in playouts
    /// (they would end most of them by refusals), and offers met in the tree are accepted.
    fn playout_move(state: &HirthState, moves: &[Move], rng: &mut SmallRng) -> usize {
        if let Some(accept) = moves.iter().position(|m| *m == Move::Accept) {
            return accept;
        }
        let pos = &state.position;
        let enemy = pos.mover.other();
        let end_weight =
            if !pos.lines.is_empty() && pos.lines.iter().all(|l| attack_wins(state, l.to)) {
                8
            } else {
                1
            };
        // Who holds each space, asked once rather than once per move.
        let mut enemy_holds = [false; Space::COUNT];
        for s in Space::all() {
            enemy_holds[s.index()] = pos.controller(s) == Some(enemy);
        }
        let weight = |mv: &Move| match mv {
            Move::Offer => 0,
            Move::End { .. } => end_weight,
            Move::Go { to, .. } if enemy_holds[to.index()] => 3,
            _ => 1,
        };
        // Two passes over the moves rather than a list of weights: nothing is allocated.
        let total: u32 = moves.iter().map(weight).sum();
        if total == 0 {
            return 0;
        }
        let mut pick = rng.random_range(0..total);
        for (i, mv) in moves.iter().enumerate() {
            let w = weight(mv);
            if pick < w {
                return i;
            }
            pick -= w;
        }
        moves.len() - 1
    }

    /// Match points for `seat` minus the opponent's, times 100, plus the opponent's Hirþ
    /// removed from the game minus its own.
    fn immediate_score(state: &HirthState, seat: Seat) -> f64 {
        let points =
            f64::from(state.points[seat.index()]) - f64::from(state.points[seat.other().index()]);
        let own = state.colour_of(seat);
        let removed = |c: Colour| f64::from(*state.position.removed.get(c));
        100.0 * points + removed(own.other()) - removed(own)
    }
}

/// Hirþ's Penningr decisions are read from the search's value (`penningr`).
impl Strategy for Hirth {
    fn searched(
        state: &Self::State,
        budget: Budget,
        seed: u64,
        cutoff: Option<Instant>,
    ) -> Analysis<Self::Move> {
        super::penningr::search(state, budget, seed, cutoff)
    }

    fn planned(
        state: &Self::State,
        budget: Budget,
        seed: u64,
        cutoff: Option<Instant>,
    ) -> TurnPlan<Self::Move> {
        super::penningr::plan(state, budget, seed, cutoff)
    }
}

/// Whether the mover's attack on `to` wins as it stands (H5: more power, or equal power with
/// only the attacker's Lofðungr in the battle).
fn attack_wins(state: &HirthState, to: Space) -> bool {
    let pos = &state.position;
    let (mut power, mut lofdungr) = (0, false);
    for line in pos.lines.iter().filter(|l| l.to == to) {
        power += line.pieces.power();
        lofdungr |= line.pieces.has_l();
    }
    let defence = pos.board.group(to, pos.mover.other());
    power > defence.power() || power == defence.power() && lofdungr && !defence.has_l()
}

/// How well `colour` stands, in rough units of a game's worth.
fn strength(state: &HirthState, colour: Colour) -> f64 {
    let pos = &state.position;
    let alive = 15.0 - f64::from(*pos.removed.get(colour));
    let middle = Space::MIDDLE
        .iter()
        .filter(|&&s| pos.controller(s) == Some(colour))
        .count() as f64;
    let midr = f64::from(u8::from(pos.controller(Space::MIDR) == Some(colour)));
    0.08 * alive + 0.12 * middle + 0.15 * midr - danger(state, colour)
}

/// The threat to `colour`'s Lofðungr: the enemy power next to it beyond its own guard, worst
/// on Miðr, where a lost battle kills it.
fn danger(state: &HirthState, colour: Colour) -> f64 {
    let board = &state.position.board;
    let Some(at) = Space::all().find(|&s| board.group(s, colour).has_l()) else {
        return 0.0;
    };
    let enemy = colour.other();
    let attack: u32 = at.neighbours().map(|s| board.group(s, enemy).power()).sum();
    let guard = board.group(at, colour).power();
    let threat = f64::from(attack.saturating_sub(guard)).min(3.0) / 3.0;
    threat * if at == Space::MIDR { 1.0 } else { 0.4 }
}
