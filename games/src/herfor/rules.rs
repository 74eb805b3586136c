//! Placement legality and invasions (F2, F3, F6) on the padded bitboards of [`wide`](super::wide).
//!
//! Everything here is a pure function of the mover's stones (`own`) and the opponent's
//! (`enemy`) *before* the placement at `p`. Along one line through `p`, the maximal friendly run
//! containing the new stone ends where the first non-friendly point lies in each direction; it
//! is an invading phalanx when both of those points hold enemy stones.
//!
//! The legal placements of a whole position come from six occluded fills (one per direction,
//! each a few shifts of the bit sets; with AVX-512 for `Wide` sets, see `simd`). A placement
//! the legal set has found flips along the lines it invades, read on the rays from its point
//! with set operations ([`flips_of_legal`]); any other placement's invasions and flips are short
//! walks cell by cell ([`flips`]).

use super::cells::Cells;
use super::geometry::Point;
use super::wide::{LINE_STEPS, STRIDE, Wide, cell_of};

/// The cells whose neighbour one `STEP` up starts a run of `own` stones (possibly empty)
/// ended by an `enemy` stone: from there, a new stone's friendly run in that direction has an
/// enemy beyond it. A Kogge–Stone fill of [`Cells::FILL_STEPS`] (3 or 4) doubling steps, enough
/// for the longest run a line of the set's largest board holds. `own_down` is `own` moved one
/// step down, which the caller has for the neighbours already.
#[inline(always)]
fn enemy_beyond_up<C: Cells, const STEP: u32>(own: C, own_down: C, enemy: C) -> C {
    // Written out step by step: every shift is then by a constant.
    let mut reach = enemy | (own & enemy.down(STEP));
    let mut run = own & own_down;
    reach |= run & reach.down(2 * STEP);
    run &= run.down(2 * STEP);
    reach |= run & reach.down(4 * STEP);
    if C::FILL_STEPS > 3 {
        run &= run.down(4 * STEP);
        reach |= run & reach.down(8 * STEP);
    }
    reach.down(STEP)
}

/// The same, one `STEP` down (`own_up` is `own` moved one step up).
#[inline(always)]
fn enemy_beyond_down<C: Cells, const STEP: u32>(own: C, own_up: C, enemy: C) -> C {
    let mut reach = enemy | (own & enemy.up(STEP));
    let mut run = own & own_up;
    reach |= run & reach.up(2 * STEP);
    run &= run.up(2 * STEP);
    reach |= run & reach.up(4 * STEP);
    if C::FILL_STEPS > 3 {
        run &= run.up(4 * STEP);
        reach |= run & reach.up(8 * STEP);
    }
    reach.up(STEP)
}

/// The points touching any of `stones` (cells that are no point included: callers intersect).
#[inline(always)]
fn touching<C: Cells>(stones: C) -> C {
    let (up, down) = moved(stones);
    up[0] | up[1] | up[2] | down[0] | down[1] | down[2]
}

/// `stones` moved one step up and one step down each line (in the order of [`LINE_STEPS`]).
#[inline(always)]
fn moved<C: Cells>(stones: C) -> ([C; 3], [C; 3]) {
    (
        [stones.up(1), stones.up(STRIDE), stones.up(STRIDE + 1)],
        [stones.down(1), stones.down(STRIDE), stones.down(STRIDE + 1)],
    )
}

/// The points of `open` that form an invading phalanx along the line with step `STEP`, given
/// `own` moved one step up and one step down it. (A const parameter, so that every shift is
/// by a constant.)
#[inline(always)]
fn invading<C: Cells, const STEP: u32>(open: C, own: C, own_up: C, own_down: C, enemy: C) -> C {
    let up = enemy_beyond_up::<C, STEP>(own, own_down, enemy) & open;
    if up.is_empty() {
        return up;
    }
    up & enemy_beyond_down::<C, STEP>(own, own_up, enemy)
}

/// The legal placements of a position (F3), and which of them invade along each line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Legal<C> {
    /// Every legal placement.
    pub cells: C,
    /// The placements forming an invading phalanx along each line (in the order of
    /// [`LINE_STEPS`]): a placement on none of them flips nothing.
    pub invading: [C; 3],
}

/// The legal placements among the `empty` points (F3): every point away from friendly stones,
/// and those next to them that form an invading phalanx. The invasions are found at every
/// empty point, away from friendly stones too: a lone stone between two enemy ones invades.
#[inline(always)]
pub fn legal<C: Cells>(empty: C, own: C, enemy: C) -> Legal<C> {
    match C::legal_by_vector(empty, own, enemy) {
        Some(legal) => legal,
        None => legal_portable(empty, own, enemy),
    }
}

/// [`legal`] by the portable fills, on every CPU.
#[inline(always)]
pub fn legal_portable<C: Cells>(empty: C, own: C, enemy: C) -> Legal<C> {
    // The neighbours serve twice: for the points touching friendly stones, and as the first
    // step of each line's fills.
    let (up, down) = moved(own);
    let away = empty & !(up[0] | up[1] | up[2] | down[0] | down[1] | down[2]);
    let invading = [
        invading::<C, 1>(empty, own, up[0], down[0], enemy),
        invading::<C, STRIDE>(empty, own, up[1], down[1], enemy),
        invading::<C, { STRIDE + 1 }>(empty, own, up[2], down[2], enemy),
    ];
    Legal {
        cells: away | invading[0] | invading[1] | invading[2],
        invading,
    }
}

/// The legal placements among the `empty` points (F3), as one set: the invasions are looked
/// for only next to friendly stones, and not at all while there are none.
#[inline(always)]
pub fn legal_placements<C: Cells>(empty: C, own: C, enemy: C) -> C {
    let (up, down) = moved(own);
    let near_own = empty & (up[0] | up[1] | up[2] | down[0] | down[1] | down[2]);
    let away = empty & !near_own;
    if near_own.is_empty() {
        return away;
    }
    away | invading::<C, 1>(near_own, own, up[0], down[0], enemy)
        | invading::<C, STRIDE>(near_own, own, up[1], down[1], enemy)
        | invading::<C, { STRIDE + 1 }>(near_own, own, up[2], down[2], enemy)
}

/// Whether any empty point is a legal placement.
#[inline]
pub fn any_placement(empty: Wide, own: Wide, enemy: Wide) -> bool {
    !(empty & !touching(own)).is_empty() || !legal_placements(empty, own, enemy).is_empty()
}

/// The first cell from `p` along `step` (signed) that holds no `own` stone.
#[inline(always)]
fn end_of_run<C: Cells>(p: i32, step: i32, own: C) -> i32 {
    let mut q = p + step;
    while own.has(q) {
        q += step;
    }
    q
}

/// The cells of the enemy phalanx from `start` along `step`, at most `limit` of them, and how
/// many the whole phalanx has.
#[inline(always)]
fn phalanx<C: Cells>(start: i32, step: i32, enemy: C, limit: u32) -> (C, u32) {
    let (mut cells, mut len, mut q) = (C::EMPTY, 0, start);
    while enemy.has(q) {
        if len < limit {
            cells |= C::cell(q as u8);
        }
        len += 1;
        q += step;
    }
    (cells, len)
}

/// The enemy stones bounding an invading phalanx along the line with `step`, if it is one.
#[inline(always)]
fn invasion<C: Cells>(p: i32, step: i32, own: C, enemy: C) -> Option<(i32, i32)> {
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

/// [`flips`] for the point at `cell` of a set's numbering.
#[inline(always)]
pub fn flips_at<C: Cells>(cell: u8, own: C, enemy: C, simple: bool) -> C {
    let p = i32::from(cell);
    let mut flipped = C::EMPTY;
    for step in LINE_STEPS {
        let step = step as i32;
        if let Some((a, b)) = invasion(p, step, own, enemy) {
            flipped |= invaded(a, b, step, enemy, simple);
        }
    }
    flipped
}

/// [`flips`] for a legal placement at `cell` whose invading lines `legal` has found: nothing
/// read along the lines where it invades nothing (most placements invade nowhere), and
/// bit-parallel along the others.
#[inline(always)]
pub fn flips_of_legal<C: Cells>(legal: &Legal<C>, cell: u8, own: C, enemy: C, simple: bool) -> C {
    let p = i32::from(cell);
    let mut flipped = C::EMPTY;
    for line in 0..LINE_STEPS.len() {
        if legal.invading[line].has(p) {
            flipped |= invaded_along(cell, line, own, enemy, simple);
        }
    }
    flipped
}

/// The stones flipped by the invading phalanx that a placement at `cell` forms along `line`,
/// as [`invaded`] finds them, but on the line's two rays from `cell` with set operations instead
/// of walks: up the line, the friendly run is the ray below its first non-friendly cell, and the
/// invaded phalanx the rest of the ray below its first non-enemy cell beyond; down the line the
/// same with "above the last".
#[inline(always)]
fn invaded_along<C: Cells>(cell: u8, line: usize, own: C, enemy: C, simple: bool) -> C {
    let up = C::ray(cell, line);
    let beyond = up & !(up & !own).below_first();
    let mut up_phalanx = beyond & (beyond & !enemy).below_first();
    let down = C::ray(cell, line + 3);
    let beyond = down & !(down & !own).above_last();
    let mut down_phalanx = beyond & (beyond & !enemy).above_last();
    if simple {
        // F6: the `N` stones of each phalanx closest to the invader, `N` the shorter's length.
        let (up_len, down_len) = (up_phalanx.count_ones(), down_phalanx.count_ones());
        if up_len > down_len {
            // The lowest `down_len` of the upper phalanx.
            if let Some(first_dropped) = up_phalanx.nth(down_len) {
                up_phalanx &= C::cell(first_dropped).below_first();
            }
        } else if down_len > up_len {
            // The highest `up_len` of the lower phalanx.
            if let Some(first_kept) = down_phalanx.nth(down_len - up_len) {
                down_phalanx &= !C::cell(first_kept).below_first();
            }
        }
    }
    up_phalanx | down_phalanx
}

/// The stones flipped by an invading phalanx along the line with `step` whose ends are held
/// by the enemy stones at `a` (up) and `b` (down): both phalanxes whole, or with `simple`
/// (F6) the `N` stones of each closest to the invader.
#[inline(always)]
fn invaded<C: Cells>(a: i32, b: i32, step: i32, enemy: C, simple: bool) -> C {
    let (up, up_len) = phalanx(a, step, enemy, u32::MAX);
    let (down, down_len) = phalanx(b, -step, enemy, u32::MAX);
    if simple && up_len != down_len {
        let n = up_len.min(down_len);
        phalanx(a, step, enemy, n).0 | phalanx(b, -step, enemy, n).0
    } else {
        up | down
    }
}
