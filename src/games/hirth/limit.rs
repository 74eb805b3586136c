//! The Karve limit (H8): after a turn no space but a home holds more than one Karve.
//!
//! [I] A step is legal only if the turn can still end with the limit kept, by further steps
//! within the five, then the battles and a choice of entries. The look-ahead is a depth-first
//! search that tries Karve moves first; from any position reached in play a repair is found
//! within a step or two. A node budget bounds it on crafted states (a state whose turn cannot
//! be shown to end within the budget is refused by `validate`).

use std::cell::Cell;

use super::battle;
use super::board::Space;
use super::moves::{Move, Stay};
use super::state::{Position, STEPS_PER_TURN};

/// Nodes the look-ahead may visit for one question.
const BUDGET: u32 = 20_000;

/// Karves of the mover per space once the turn ends with `stays`, counting a K on a line where
/// it attacked from unless it enters (or is lost).
fn limit_kept_after(pos: &Position, stays: &[Stay]) -> bool {
    let mut p = pos.clone();
    battle::resolve(&mut p, stays);
    Space::all()
        .filter(|s| !s.is_home())
        .all(|s| p.board.group(s, p.mover).karves.len() <= 1)
}

/// Cheap sufficient test: with every line's K counted where it attacked from, no pile-up. Then
/// letting everything but one K (or a non-K) enter keeps the limit.
fn no_pile_up(pos: &Position) -> bool {
    let mut counts = [0u8; Space::COUNT];
    for s in Space::all() {
        counts[s.index()] = pos.board.group(s, pos.mover).karves.len() as u8;
    }
    for line in &pos.lines {
        if let Some(from) = line.from {
            counts[from.index()] += line.pieces.karves.len() as u8;
        }
    }
    Space::all()
        .filter(|s| !s.is_home())
        .all(|s| counts[s.index()] <= 1)
}

/// The entry choices that end the movement phase with the limit kept (H8).
pub fn legal_entry_choices(pos: &Position) -> Vec<Vec<Stay>> {
    let won: Vec<Space> = battle::battles(pos)
        .iter()
        .filter(|b| b.attacker_wins)
        .map(|b| b.space)
        .collect();
    let choices = battle::entry_choices(pos, &won);
    let karve_attacks = pos.lines.iter().any(|l| !l.pieces.karves.is_empty());
    if no_pile_up(pos) && !karve_attacks {
        return choices;
    }
    choices
        .into_iter()
        .filter(|c| limit_kept_after(pos, c))
        .collect()
}

/// Whether the movement phase can end now with the limit kept.
pub fn can_end_now(pos: &Position) -> bool {
    if no_pile_up(pos) {
        return true;
    }
    let won: Vec<Space> = battle::battles(pos)
        .iter()
        .filter(|b| b.attacker_wins)
        .map(|b| b.space)
        .collect();
    battle::entry_choices(pos, &won)
        .iter()
        .any(|c| limit_kept_after(pos, c))
}

/// Whether the turn can still end with the limit kept, with the steps left (H8 [I]).
/// `None` when the budget ran out before an answer.
pub fn can_finish(pos: &Position) -> Option<bool> {
    let nodes = Cell::new(0u32);
    search(pos, &nodes)
}

fn search(pos: &Position, nodes: &Cell<u32>) -> Option<bool> {
    nodes.set(nodes.get() + 1);
    if nodes.get() > BUDGET {
        return None;
    }
    if can_end_now(pos) {
        return Some(true);
    }
    if pos.steps >= STEPS_PER_TURN {
        return Some(false);
    }
    let mut steps: Vec<Move> = Vec::new();
    pos.raw_steps(&mut steps);
    let mut unknown = false;
    for step in &steps {
        let mut next = pos.clone();
        next.apply_step(step);
        match search(&next, nodes) {
            Some(true) => return Some(true),
            Some(false) => {}
            None => unknown = true,
        }
        if nodes.get() > BUDGET {
            return None;
        }
    }
    if unknown { None } else { Some(false) }
}

/// H8 for one step: legal only if the turn can still end with the limit kept after it.
/// A look-ahead that runs out of budget counts as "cannot" (only crafted states get there).
pub fn step_keeps_limit(pos: &Position, step: &Move) -> bool {
    let mut next = pos.clone();
    next.apply_step(step);
    can_finish(&next) == Some(true)
}
