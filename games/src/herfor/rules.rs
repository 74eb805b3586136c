//! Placement legality and invasions (F2, F3, F6) on the padded bitboards of [`wide`](super::wide).
//!
//! Everything here is a pure function of the mover's stones (`own`) and the opponent's
//! (`enemy`) *before* the placement at `p`. Along one line through `p`, the maximal friendly run
//! containing the new stone ends where the first non-friendly point lies in each direction; it
//! is an invading phalanx when both of those points hold enemy stones.
//!
//! The legal placements of a whole position come from six occluded fills (one per direction,
//! each a few shifts of the bit sets); a single placement's invasions and flips are short walks
//! cell by cell.

use super::geometry::Point;
use super::wide::{LINE_STEPS, STRIDE, Wide, cell_of};

/// The cells whose neighbour one `step` up starts a run of `own` stones (possibly empty)
/// ended by an `enemy` stone: from there, a new stone's friendly run in that direction has an
/// enemy beyond it. A Kogge–Stone fill: runs up to 15 stones long, more than a line holds.
#[inline(always)]
fn enemy_beyond_up<const STEP: u32>(own: Wide, enemy: Wide) -> Wide {
    let step = STEP;
    let (mut reach, mut run) = (enemy, own);
    reach |= run & reach.down(step);
    run &= run.down(step);
    reach |= run & reach.down(2 * step);
    run &= run.down(2 * step);
    reach |= run & reach.down(4 * step);
    run &= run.down(4 * step);
    reach |= run & reach.down(8 * step);
    reach.down(step)
}

/// The same, one `step` down.
#[inline(always)]
fn enemy_beyond_down<const STEP: u32>(own: Wide, enemy: Wide) -> Wide {
    let step = STEP;
    let (mut reach, mut run) = (enemy, own);
    reach |= run & reach.up(step);
    run &= run.up(step);
    reach |= run & reach.up(2 * step);
    run &= run.up(2 * step);
    reach |= run & reach.up(4 * step);
    run &= run.up(4 * step);
    reach |= run & reach.up(8 * step);
    reach.up(step)
}

/// The points touching any of `stones` (cells that are no point included: callers intersect).
#[inline(always)]
fn touching(stones: Wide) -> Wide {
    stones.up(1)
        | stones.down(1)
        | stones.up(STRIDE)
        | stones.down(STRIDE)
        | stones.up(STRIDE + 1)
        | stones.down(STRIDE + 1)
}

/// The points of `open` that form an invading phalanx along the line with step `STEP`.
/// (A const parameter, so that every shift is by a constant.)
#[inline(always)]
fn invading<const STEP: u32>(open: Wide, own: Wide, enemy: Wide) -> Wide {
    let up = enemy_beyond_up::<STEP>(own, enemy) & open;
    if up.is_empty() {
        return up;
    }
    up & enemy_beyond_down::<STEP>(own, enemy)
}

/// The legal placements among the `empty` points (F3): every point away from friendly stones,
/// and those next to them that form an invading phalanx.
#[inline(always)]
pub fn legal_placements(empty: Wide, own: Wide, enemy: Wide) -> Wide {
    let near_own = empty & touching(own);
    let legal = empty & !near_own;
    if near_own.is_empty() {
        return legal;
    }
    legal
        | invading::<1>(near_own, own, enemy)
        | invading::<STRIDE>(near_own, own, enemy)
        | invading::<{ STRIDE + 1 }>(near_own, own, enemy)
}

/// Whether any empty point is a legal placement.
#[inline]
pub fn any_placement(empty: Wide, own: Wide, enemy: Wide) -> bool {
    !(empty & !touching(own)).is_empty() || !legal_placements(empty, own, enemy).is_empty()
}

/// The first cell from `p` along `step` (signed) that holds no `own` stone.
#[inline(always)]
fn end_of_run(p: i32, step: i32, own: Wide) -> i32 {
    let mut q = p + step;
    while own.has(q) {
        q += step;
    }
    q
}

/// The cells of the enemy phalanx from `start` along `step`, at most `limit` of them, and how
/// many the whole phalanx has.
#[inline(always)]
fn phalanx(start: i32, step: i32, enemy: Wide, limit: u32) -> (Wide, u32) {
    let (mut cells, mut len, mut q) = (Wide::EMPTY, 0, start);
    while enemy.has(q) {
        if len < limit {
            cells |= Wide::cell(q as u8);
        }
        len += 1;
        q += step;
    }
    (cells, len)
}

/// The enemy stones bounding an invading phalanx along the line with `step`, if it is one.
#[inline(always)]
fn invasion(p: i32, step: i32, own: Wide, enemy: Wide) -> Option<(i32, i32)> {
    // Both neighbours along the line must hold stones: a quick test that rules most lines out.
    let occupied = own | enemy;
    if !occupied.has(p + step) || !occupied.has(p - step) {
        return None;
    }
    let a = end_of_run(p, step, own);
    if !enemy.has(a) {
        return None;
    }
    let b = end_of_run(p, -step, own);
    enemy.has(b).then_some((a, b))
}

/// Whether placing at `p` forms at least one invading phalanx (F2).
#[inline]
pub fn forms_invasion(p: Point, own: Wide, enemy: Wide) -> bool {
    forms_invasion_at(i32::from(cell_of(p)), own, enemy)
}

#[inline(always)]
fn forms_invasion_at(p: i32, own: Wide, enemy: Wide) -> bool {
    LINE_STEPS
        .iter()
        .any(|&s| invasion(p, s as i32, own, enemy).is_some())
}

/// Whether `p` touches a friendly stone.
#[inline]
pub fn touches_own(p: Point, own: Wide) -> bool {
    !(touching(Wide::cell(cell_of(p))) & own).is_empty()
}

/// Whether the mover may place at the empty point `p` (F3).
#[inline]
pub fn placement_allowed(p: Point, own: Wide, enemy: Wide) -> bool {
    !touches_own(p, own) || forms_invasion(p, own, enemy)
}

/// The enemy stones flipped by a placement at `p` (F3): both invaded phalanxes of every
/// invading phalanx, all found on the board right after the placement. With `simple` (F6), only
/// the `N` stones of each closest to the invader, `N` being the shorter phalanx's length.
#[inline]
pub fn flips(p: Point, own: Wide, enemy: Wide, simple: bool) -> Wide {
    flips_at(cell_of(p), own, enemy, simple)
}

/// [`flips`] for the point at `cell` of the padded grid.
#[inline(always)]
pub fn flips_at(cell: u8, own: Wide, enemy: Wide, simple: bool) -> Wide {
    let p = i32::from(cell);
    let mut flipped = Wide::EMPTY;
    for step in LINE_STEPS {
        let step = step as i32;
        let Some((a, b)) = invasion(p, step, own, enemy) else {
            continue;
        };
        let (up, up_len) = phalanx(a, step, enemy, u32::MAX);
        let (down, down_len) = phalanx(b, -step, enemy, u32::MAX);
        if simple && up_len != down_len {
            let n = up_len.min(down_len);
            flipped |= phalanx(a, step, enemy, n).0 | phalanx(b, -step, enemy, n).0;
        } else {
            flipped |= up | down;
        }
    }
    flipped
}
