//! The Karve limit (H8): after a turn no space but a home holds more than one Karve.
//!
//! \[I\] A step is legal only if the turn can still end with the limit kept, by further steps
//! within the five, then the battles and a choice of entries. The look-ahead is a depth-first
//! search that tries Karve moves first; from any position reached in play a repair is found
//! within a step or two. A node budget bounds it on crafted states (a state whose turn cannot
//! be shown to end within the budget is refused by `validate`).

use std::cell::Cell;

use smallvec::SmallVec;

use super::battle;
use super::board::{Colour, Space};
use super::moves::{Arrival, Move, Stay, Unit};
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
    within_limit(counts)
}

/// The same answer by playing the battles: the reference the counted test is checked against.
#[cfg(test)]
pub(super) fn limit_kept_after_resolving(pos: &Position, stays: &[Stay]) -> bool {
    let mut p = pos.clone();
    battle::resolve(&mut p, stays, false);
    Space::all()
        .filter(|s| !s.is_home())
        .all(|s| p.board.group(s, p.mover).karves.len() <= 1)
}

/// The spaces of the battles the mover wins as things stand (H5).
pub(super) fn won_battles(pos: &Position) -> SmallVec<[Space; STEPS_PER_TURN as usize]> {
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
pub fn no_pile_up(pos: &Position) -> bool {
    within_limit(karve_counts(pos))
}

/// Whether no space but a home counts more than one Karve (H8). Asked for every ply: the
/// homes are zeroed, and a count over one leaves a bit after a shift; one OR of them all,
/// without a branch per space.
#[inline]
fn within_limit(mut counts: [u8; Space::COUNT]) -> bool {
    for colour in Colour::BOTH {
        counts[colour.home().index()] = 0;
    }
    counts.into_iter().fold(0, |over, n| over | n >> 1) == 0
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

/// Pushes the moves that end the movement phase with the limit kept (H8): one per choice of
/// entries; without a battle, the plain `end` if the limit allows it, nothing listed.
/// (`calm`: whether `pos` has no pile-up, see `no_pile_up`.)
pub fn push_legal_ends_told(pos: &Position, out: &mut Vec<Move>, calm: bool) {
    if pos.lines.is_empty() {
        // No battle: the Karves stand where they are.
        if calm {
            out.push(Move::End { stays: Vec::new() });
        }
        return;
    }
    for_each_legal_entry_choice(pos, calm, |stays| out.push(Move::End { stays }));
}

/// The entry choices that end the movement phase with the limit kept (H8).
pub fn legal_entry_choices(pos: &Position) -> Vec<Vec<Stay>> {
    let mut choices = Vec::new();
    for_each_legal_entry_choice(pos, no_pile_up(pos), |stays| choices.push(stays));
    choices
}

/// [`legal_entry_choices`] handed one by one to `visit`, told whether `pos` has no pile-up
/// (`no_pile_up`).
fn for_each_legal_entry_choice(pos: &Position, calm: bool, mut visit: impl FnMut(Vec<Stay>)) {
    let won = won_battles(pos);
    let karve_attacks = pos.lines.iter().any(|l| !l.pieces.karves.is_empty());
    let every_choice_keeps = calm && !karve_attacks;
    battle::for_each_entry_choice(pos, &won, |stays| {
        if every_choice_keeps || limit_kept_after(pos, &won, &stays) {
            visit(stays);
        }
    });
}

/// The mover's Karves standing in each space (lines left out).
fn standing_karves(pos: &Position) -> [u8; Space::COUNT] {
    let mut counts = [0u8; Space::COUNT];
    for s in Space::all() {
        counts[s.index()] = pos.board.group(s, pos.mover).karves.len() as u8;
    }
    counts
}

/// Karves on the lines of one movement phase: the mover has three (H2), more only in a crafted
/// state (which `validate` refuses).
type LineKarves = SmallVec<[(Option<Space>, Space); 4]>;

/// Whether the movement phase can end now with the limit kept (H8): some choice of entries
/// leaves at most one Karve in every space but the homes. Only the Karves on the lines of won
/// battles have a choice (enter, or stay where they attacked from); each subset of them that
/// stays is tried, with H6's condition that at least one attacker enters each won battle
/// (other units than Karves can always enter). The same answer as trying every entry choice
/// (`can_end_now_by_choices`), without listing them.
pub fn can_end_now(pos: &Position) -> bool {
    if no_pile_up(pos) {
        return true;
    }
    // Battles move only the Karves on lines: a space whose standing Karves already break the
    // limit stays broken whatever the entries.
    let standing = standing_karves(pos);
    if !within_limit(standing) {
        return false;
    }
    let won = won_battles(pos);
    let mut karves = LineKarves::new();
    for line in pos.lines.iter().filter(|l| won.contains(&l.to)) {
        karves.extend(line.pieces.karves.iter().map(|_| (line.from, line.to)));
    }
    if karves.len() > 8 {
        // Only a crafted state gets here: list the choices.
        return can_end_now_by_choices(pos);
    }
    // Won battles only Karves attack: one of them must enter (H6).
    let karves_only = |to: Space| {
        pos.lines
            .iter()
            .filter(|l| l.to == to)
            .all(|l| l.pieces.loose_h() == 0 && !l.pieces.has_l())
    };
    (0..1u32 << karves.len()).any(|staying| {
        let mut counts = standing;
        let mut entering = [0u8; Space::COUNT];
        for (i, &(from, to)) in karves.iter().enumerate() {
            if staying >> i & 1 == 1 {
                // Back where it attacked from (from off the board: to reserve).
                if let Some(from) = from {
                    counts[from.index()] += 1;
                }
            } else {
                counts[to.index()] += 1;
                entering[to.index()] += 1;
            }
        }
        within_limit(counts)
            && won
                .iter()
                .all(|&b| entering[b.index()] > 0 || !karves_only(b))
    })
}

/// [`can_end_now`] by listing every entry choice: the reference it is checked against, and the
/// way for crafted states with more Karves than a player has.
pub(super) fn can_end_now_by_choices(pos: &Position) -> bool {
    if no_pile_up(pos) {
        return true;
    }
    let standing = standing_karves(pos);
    if !within_limit(standing) {
        return false;
    }
    let won = won_battles(pos);
    battle::entry_choices(pos, &won)
        .iter()
        .any(|c| limit_kept_after(pos, &won, c))
}

/// Whether the turn can still end with the limit kept, with the steps left (H8 \[I\]).
/// `None` when the budget ran out before an answer.
pub fn can_finish(pos: &Position) -> Option<bool> {
    let nodes = Cell::new(0u32);
    search::<true>(pos, &nodes, &mut Repair::new())
}

/// Steps that end a turn's pile-up: after them the movement phase can end with the limit kept.
pub type Repair = SmallVec<[Move; STEPS_PER_TURN as usize]>;

/// The steps the look-ahead finds that let the turn end with the limit kept (empty when it can
/// end now); `None` when there are none (or the budget ran out).
pub fn repair(pos: &Position) -> Option<Repair> {
    let nodes = Cell::new(0u32);
    let mut path = Repair::new();
    (search::<true>(pos, &nodes, &mut path) == Some(true)).then_some(path)
}

/// Whether `repair` (found for the position before one more step) still works in `p`: each
/// of its steps can be taken in turn, and then the movement phase can end with the limit kept.
/// A proof that the turn can finish; "no" proves nothing. Plays the steps on `p` itself
/// (the caller's copy: copying a position costs as much as the test).
fn repaired_by(p: &mut Position, repair: &Repair) -> bool {
    for step in repair {
        if !p.can_step(step) {
            return false;
        }
        p.apply_step(step);
    }
    can_end_now(p)
}

/// [`can_finish`] without the shortcut of [`hopeless`]: the reference it is checked against.
#[cfg(test)]
pub(super) fn can_finish_unpruned(pos: &Position) -> Option<bool> {
    let nodes = Cell::new(0u32);
    search::<false>(pos, &nodes, &mut Repair::new())
}

/// A certain "cannot" without searching: the Karves standing in a space leave it only by
/// stepping away, one per step, and a stopped Karve never does. So a space with two stopped
/// Karves stays over the limit, and more surplus Karves than steps left cannot all leave.
fn hopeless(pos: &Position) -> bool {
    let me = pos.mover;
    let left = STEPS_PER_TURN.saturating_sub(pos.steps);
    let mut surplus = 0u8;
    for s in Space::all().filter(|s| !s.is_home()) {
        let karves = &pos.board.group(s, me).karves;
        if karves.iter().filter(|k| k.stopped).count() > 1 {
            return true;
        }
        surplus = surplus.saturating_add((karves.len() as u8).saturating_sub(1));
    }
    surplus > left
}

/// The steps of one node of the look-ahead: held inline (a position offers a few dozen).
type Steps = SmallVec<[Move; 48]>;

/// The depth-first look-ahead; `PRUNE` stops early at [`hopeless`] positions. On "yes", `path`
/// holds the steps found (it is left as it came otherwise).
fn search<const PRUNE: bool>(pos: &Position, nodes: &Cell<u32>, path: &mut Repair) -> Option<bool> {
    nodes.set(nodes.get() + 1);
    if nodes.get() > BUDGET {
        return None;
    }
    if can_end_now(pos) {
        return Some(true);
    }
    if pos.steps >= STEPS_PER_TURN || (PRUNE && hopeless(pos)) {
        return Some(false);
    }
    // Karves leaving a space that holds too many first: the repair is usually one of them, and
    // the other steps need not be listed then. The order changes how soon an answer is found,
    // never the answer: every step is tried before "cannot".
    let counts = karve_counts(pos);
    let me = pos.mover;
    let mut first = Steps::new();
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
        if let Some(answer) = try_step::<PRUNE>(pos, step, nodes, path, &mut unknown) {
            return answer;
        }
    }
    let mut steps = Steps::new();
    pos.raw_steps(&mut steps);
    for step in steps.iter().filter(|s| !first.contains(s)) {
        if let Some(answer) = try_step::<PRUNE>(pos, step, nodes, path, &mut unknown) {
            return answer;
        }
    }
    if unknown { None } else { Some(false) }
}

/// Searches on after `step`: `Some(answer)` when the search is over (a way found, or the
/// budget spent), `None` to go on; `unknown` notes a child that ran out of budget.
fn try_step<const PRUNE: bool>(
    pos: &Position,
    step: &Move,
    nodes: &Cell<u32>,
    path: &mut Repair,
    unknown: &mut bool,
) -> Option<Option<bool>> {
    let mut next = pos.clone();
    next.apply_step(step);
    path.push(step.clone());
    match search::<PRUNE>(&next, nodes, path) {
        Some(true) => return Some(Some(true)),
        Some(false) => {}
        None => *unknown = true,
    }
    path.pop();
    (nodes.get() > BUDGET).then_some(None)
}

/// H8 for one step: legal only if the turn can still end with the limit kept after it.
/// A look-ahead that runs out of budget counts as "cannot" (only crafted states get there).
pub fn step_keeps_limit(pos: &Position, step: &Move) -> bool {
    keeps_limit(pos, step, no_pile_up(pos), &mut None)
}

/// What is known of a position with a pile-up, found once for all its steps.
pub struct Known {
    /// The steps that repair it, if any.
    repair: Option<Repair>,
    /// The repair is one Karve step, after which no space counts two Karves (lines counted
    /// where they attack from), and a step is left for it after one more.
    one_karve_step: bool,
}

impl Known {
    fn of(pos: &Position) -> Known {
        let repair = repair(pos);
        let one_karve_step = pos.steps + 2 <= STEPS_PER_TURN
            && repair.as_ref().is_some_and(|r| match r.as_slice() {
                [
                    step @ Move::Go {
                        unit: Unit::K(_), ..
                    },
                ] => {
                    let mut after = pos.clone();
                    after.apply_step(step);
                    no_pile_up(&after)
                }
                _ => false,
            });
        Known {
            repair,
            one_karve_step,
        }
    }
}

/// Keeps, of the steps `steps[first..]` (steps of `pos`), those that keep the limit (H8), in
/// their order.
#[cfg(test)]
pub fn retain_steps_keeping_limit(pos: &Position, steps: &mut Vec<Move>, first: usize) {
    retain_steps_told(pos, steps, first, no_pile_up(pos));
}

/// Keeps, of the steps `steps[first..]`, those that keep the limit (H8), told whether `pos` has
/// no pile-up (`no_pile_up`).
pub fn retain_steps_told(pos: &Position, steps: &mut Vec<Move>, first: usize, calm: bool) {
    // Without a pile-up and with two steps left, `keeps_limit` keeps every step (see there):
    // the common case needs no look at the steps.
    if calm && pos.steps + 2 <= STEPS_PER_TURN {
        return;
    }
    // Found once, for the first step that needs it: the repair of the pile-up standing now.
    let mut known: Option<Known> = None;
    let mut kept = first;
    for i in first..steps.len() {
        // Without a pile-up only a Karve's move can need a look (see `keeps_limit`).
        let plain = calm
            && !matches!(
                steps[i],
                Move::Go {
                    unit: Unit::K(_),
                    ..
                }
            );
        if plain || keeps_limit(pos, &steps[i], calm, &mut known) {
            if kept != i {
                steps.swap(kept, i);
            }
            kept += 1;
        }
    }
    steps.truncate(kept);
}

/// [`step_keeps_limit`], told whether `pos` has no pile-up (`no_pile_up`); `known` caches the
/// repair of `pos` (found when first needed).
fn keeps_limit(pos: &Position, step: &Move, calm: bool, known: &mut Option<Known>) -> bool {
    // Fast path: without a pile-up now, only a K stepping (not attacking) into a non-home space
    // that already counts a K of the mover can create one; every other step keeps none.
    if calm {
        let risky = match *step {
            Move::Go {
                unit: Unit::K(_),
                to,
                ..
            } => {
                !to.is_home()
                    && pos.arrival(to) == Arrival::Own
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
        // A K that steps into its own space did not stop (H4): with a step left it may step
        // back where it came from, and the counts are those of now, with no pile-up.
        if pos.steps + 2 <= STEPS_PER_TURN {
            return true;
        }
    }
    let known = (!calm).then(|| &*known.get_or_insert_with(|| Known::of(pos)));
    // A step that moves or enters no Karve but the mover's own at home (homes are outside the
    // limit) changes no count, and cannot get in the way of a one-step Karve repair: the K is
    // still there with its crew, and where it goes it still stands or attacks as before (the
    // mover never changes who holds a space of the enemy's, and an own or empty space both
    // leave it standing there). Boarding and disembarking move no Karve either and change no
    // control: a free K stays on the repair's space (one boarded or left stays free, H4), and
    // the same move of it, with its new crew, repairs as before.
    if known.is_some_and(|k| k.one_karve_step)
        && matches!(
            step,
            Move::Go {
                unit: Unit::H | Unit::L,
                ..
            } | Move::Enter { .. }
                | Move::Board { .. }
                | Move::Disembark { .. }
        )
    {
        return true;
    }
    let mut next = pos.clone();
    next.apply_step(step);
    // The step left no pile-up (it was a repair): the turn can end now, the first thing the
    // look-ahead would find.
    if no_pile_up(&next) {
        return true;
    }
    // Most steps leave a pile-up that the repair found before them still mends: a proof
    // without searching. Otherwise (the step was the repair, or got in its way) search.
    if let Some(repair) = known.and_then(|k| k.repair.as_ref()) {
        if repaired_by(&mut next, repair) {
            return true;
        }
        // The repair's steps were played on `next`: back to the position after `step`.
        next.clone_from(pos);
        next.apply_step(step);
    }
    can_finish(&next) == Some(true)
}
