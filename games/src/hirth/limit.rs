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
use super::moves::{Move, Stay, Unit};
use super::state::{Position, STEPS_PER_TURN};

/// Nodes the look-ahead may visit for one question.
const BUDGET: u32 = 20_000;

/// Karves of the mover per space once the turn ends with `stays`, counting a K on a line where
/// it attacked from unless it enters (or is lost). Counted without playing the battles: the
/// mover's Karves stay where they stand, a lost battle sends its attacking Karves to reserve, a
/// won one puts the staying ones on the space attacked from and the others on the conquered
/// space (`won`: the spaces of the won battles).
fn limit_kept_after(pos: &Position, won: &[Space], stays: &[Stay]) -> bool {
    let me = pos.mover;
    let mut counts = [0u8; Space::COUNT];
    for s in Space::all() {
        counts[s.index()] = pos.board.group(s, me).karves.len() as u8;
    }
    for line in &pos.lines {
        let n = line.pieces.karves.len() as u8;
        if n == 0 || !won.contains(&line.to) {
            continue;
        }
        let staying: u8 = stays
            .iter()
            .filter(|s| s.to == line.to && s.from == line.from && matches!(s.unit, Unit::K(_)))
            .map(|s| s.count)
            .sum();
        if let Some(from) = line.from {
            counts[from.index()] += staying;
        }
        counts[line.to.index()] += n - staying;
    }
    Space::all()
        .filter(|s| !s.is_home())
        .all(|s| counts[s.index()] <= 1)
}

/// The same answer by playing the battles: the reference the counted test is checked against.
#[cfg(test)]
pub(super) fn limit_kept_after_resolving(pos: &Position, stays: &[Stay]) -> bool {
    let mut p = pos.clone();
    battle::resolve(&mut p, stays);
    Space::all()
        .filter(|s| !s.is_home())
        .all(|s| p.board.group(s, p.mover).karves.len() <= 1)
}

/// The spaces of the battles the mover wins as things stand (H5).
pub(super) fn won_battles(pos: &Position) -> Vec<Space> {
    battle::battles(pos)
        .iter()
        .filter(|b| b.attacker_wins)
        .map(|b| b.space)
        .collect()
}

#[cfg(test)]
pub(super) fn limit_kept_after_counting(pos: &Position, stays: &[Stay]) -> bool {
    limit_kept_after(pos, &won_battles(pos), stays)
}

/// Cheap sufficient test: with every line's K counted where it attacked from, no pile-up. Then
/// letting everything but one K (or a non-K) enter keeps the limit.
fn no_pile_up(pos: &Position) -> bool {
    let counts = karve_counts(pos);
    Space::all()
        .filter(|s| !s.is_home())
        .all(|s| counts[s.index()] <= 1)
}

/// The mover's Karves per space, a K on a line counted where it attacked from.
fn karve_counts(pos: &Position) -> [u8; Space::COUNT] {
    let mut counts = [0u8; Space::COUNT];
    for s in Space::all() {
        counts[s.index()] = pos.board.group(s, pos.mover).karves.len() as u8;
    }
    for line in &pos.lines {
        if let Some(from) = line.from {
            counts[from.index()] += line.pieces.karves.len() as u8;
        }
    }
    counts
}

/// The entry choices that end the movement phase with the limit kept (H8).
pub fn legal_entry_choices(pos: &Position) -> Vec<Vec<Stay>> {
    let won = won_battles(pos);
    let choices = battle::entry_choices(pos, &won);
    let karve_attacks = pos.lines.iter().any(|l| !l.pieces.karves.is_empty());
    if no_pile_up(pos) && !karve_attacks {
        return choices;
    }
    choices
        .into_iter()
        .filter(|c| limit_kept_after(pos, &won, c))
        .collect()
}

/// Whether the movement phase can end now with the limit kept.
pub fn can_end_now(pos: &Position) -> bool {
    if no_pile_up(pos) {
        return true;
    }
    // Battles move only the Karves on lines: a space whose standing Karves already break the
    // limit stays broken whatever the entries.
    let me = pos.mover;
    if Space::all().any(|s| !s.is_home() && pos.board.group(s, me).karves.len() > 1) {
        return false;
    }
    let won = won_battles(pos);
    battle::entry_choices(pos, &won)
        .iter()
        .any(|c| limit_kept_after(pos, &won, c))
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
    // Karves leaving a space that holds too many first: the repair is usually one of them, and
    // the other steps need not be listed then. The order changes how soon an answer is found,
    // never the answer: every step is tried before "cannot".
    let counts = karve_counts(pos);
    let me = pos.mover;
    let mut first: Vec<Move> = Vec::new();
    for from in Space::all().filter(|s| !s.is_home() && counts[s.index()] > 1) {
        let mut last: Option<u8> = None;
        for k in pos
            .board
            .group(from, me)
            .karves
            .iter()
            .filter(|k| !k.stopped)
        {
            if last == Some(k.crew) {
                continue;
            }
            last = Some(k.crew);
            for to in from.neighbours() {
                first.push(Move::Go {
                    from,
                    unit: Unit::K(k.crew),
                    to,
                });
            }
        }
    }
    let mut unknown = false;
    for step in &first {
        if let Some(answer) = try_step(pos, step, nodes, &mut unknown) {
            return answer;
        }
    }
    let mut steps: Vec<Move> = Vec::with_capacity(48);
    pos.raw_steps(&mut steps);
    for step in steps.iter().filter(|s| !first.contains(s)) {
        if let Some(answer) = try_step(pos, step, nodes, &mut unknown) {
            return answer;
        }
    }
    if unknown { None } else { Some(false) }
}

/// Searches on after `step`: `Some(answer)` when the search is over (a way found, or the
/// budget spent), `None` to go on; `unknown` notes a child that ran out of budget.
fn try_step(
    pos: &Position,
    step: &Move,
    nodes: &Cell<u32>,
    unknown: &mut bool,
) -> Option<Option<bool>> {
    let mut next = pos.clone();
    next.apply_step(step);
    match search(&next, nodes) {
        Some(true) => return Some(Some(true)),
        Some(false) => {}
        None => *unknown = true,
    }
    (nodes.get() > BUDGET).then_some(None)
}

/// H8 for one step: legal only if the turn can still end with the limit kept after it.
/// A look-ahead that runs out of budget counts as "cannot" (only crafted states get there).
pub fn step_keeps_limit(pos: &Position, step: &Move) -> bool {
    // Fast path: without a pile-up now, only a K stepping (not attacking) into a non-home space
    // that already counts a K of the mover can create one; every other step keeps none.
    if no_pile_up(pos) {
        let risky = match *step {
            Move::Go {
                unit: super::moves::Unit::K(_),
                to,
                ..
            } => {
                !to.is_home()
                    && pos.arrival(to) == super::moves::Arrival::Own
                    && (!pos.board.group(to, pos.mover).karves.is_empty()
                        || pos
                            .lines
                            .iter()
                            .any(|l| l.from == Some(to) && !l.pieces.karves.is_empty()))
            }
            _ => false,
        };
        if !risky {
            return true;
        }
    }
    let mut next = pos.clone();
    next.apply_step(step);
    can_finish(&next) == Some(true)
}
