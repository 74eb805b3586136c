//! Placement legality and invasions (F2, F3, F6) on bitboards.
//!
//! Everything here is a pure function of the mover's stones (`own`) and the opponent's
//! (`enemy`) *before* the placement at `p`. Along one line through `p`, the maximal friendly run
//! containing the new stone ends where the first non-friendly point lies in each direction; it
//! is an invading phalanx when both of those points hold enemy stones.

use super::geometry::{Bits, GEOMETRY, Point, first_along};

/// The enemy stone directly beyond the friendly run through `p` in direction `d`, if any.
#[inline]
fn enemy_beyond(p: Point, d: usize, own: Bits, enemy: Bits) -> Option<Point> {
    let q = first_along(GEOMETRY.rays[p.index()][d] & !own, d)?;
    (enemy & q.bit() != 0).then_some(q)
}

/// The enemy phalanx along direction `d` starting at the enemy stone `a`.
#[inline]
fn phalanx_from(a: Point, d: usize, enemy: Bits) -> Bits {
    let ray = GEOMETRY.rays[a.index()][d];
    match first_along(ray & !enemy, d) {
        None => a.bit() | ray,
        Some(end) => a.bit() | (ray & !GEOMETRY.rays[end.index()][d] & !end.bit()),
    }
}

/// The `n` stones of a phalanx closest to its start, the phalanx running in direction `d`.
#[inline]
fn closest(mut phalanx: Bits, d: usize, n: u32) -> Bits {
    let mut taken = 0;
    for _ in 0..n {
        let Some(q) = first_along(phalanx, d) else {
            break;
        };
        taken |= q.bit();
        phalanx &= !q.bit();
    }
    taken
}

/// The two enemy stones bounding an invading phalanx along line `line` (0..3), if it is one.
#[inline]
fn invasion(p: Point, line: usize, own: Bits, enemy: Bits) -> Option<(Point, Point)> {
    let a = enemy_beyond(p, line, own, enemy)?;
    let b = enemy_beyond(p, line + 3, own, enemy)?;
    Some((a, b))
}

/// Whether placing at `p` forms at least one invading phalanx (F2).
#[inline(always)]
pub fn forms_invasion(p: Point, own: Bits, enemy: Bits) -> bool {
    let occupied = own | enemy;
    (0..3).any(|line| {
        // Both neighbours along the line must hold stones: a cheap test before the scans.
        let ends = GEOMETRY.line_neighbours[p.index()][line];
        occupied & ends == ends && invasion(p, line, own, enemy).is_some()
    })
}

/// Whether `p` touches a friendly stone.
#[inline]
pub fn touches_own(p: Point, own: Bits) -> bool {
    GEOMETRY.neighbours[p.index()] & own != 0
}

/// Whether the mover may place at the empty point `p` (F3).
#[inline]
pub fn placement_allowed(p: Point, own: Bits, enemy: Bits) -> bool {
    !touches_own(p, own) || forms_invasion(p, own, enemy)
}

/// The points touching any of `stones`.
#[inline]
fn touching(stones: Bits) -> Bits {
    let mut near = 0;
    let mut rest = stones;
    while rest != 0 {
        near |= GEOMETRY.neighbours[rest.trailing_zeros() as usize];
        rest &= rest - 1;
    }
    near
}

/// The legal placements among the `empty` points (F3): every point away from friendly stones,
/// and those next to them that form an invading phalanx.
#[inline]
pub fn legal_placements(empty: Bits, own: Bits, enemy: Bits) -> Bits {
    let near_own = touching(own);
    let mut legal = empty & !near_own;
    let mut rest = empty & near_own;
    while rest != 0 {
        let p = Point(rest.trailing_zeros() as u8);
        rest &= rest - 1;
        if forms_invasion(p, own, enemy) {
            legal |= p.bit();
        }
    }
    legal
}

/// Whether any empty point is a legal placement, stopping at the first.
#[inline]
pub fn any_placement(empty: Bits, own: Bits, enemy: Bits) -> bool {
    let near_own = touching(own);
    if empty & !near_own != 0 {
        return true;
    }
    let mut rest = empty;
    while rest != 0 {
        let p = Point(rest.trailing_zeros() as u8);
        rest &= rest - 1;
        if forms_invasion(p, own, enemy) {
            return true;
        }
    }
    false
}

/// The enemy stones flipped by a placement at `p` (F3): both invaded phalanxes of every
/// invading phalanx, all found on the board right after the placement. With `simple` (F6), only
/// the `N` stones of each closest to the invader, `N` being the shorter phalanx's length.
#[inline]
pub fn flips(p: Point, own: Bits, enemy: Bits, simple: bool) -> Bits {
    let mut flipped = 0;
    for line in 0..3 {
        let Some((a, b)) = invasion(p, line, own, enemy) else {
            continue;
        };
        let (up, down) = (
            phalanx_from(a, line, enemy),
            phalanx_from(b, line + 3, enemy),
        );
        if simple {
            let n = up.count_ones().min(down.count_ones());
            flipped |= closest(up, line, n) | closest(down, line + 3, n);
        } else {
            flipped |= up | down;
        }
    }
    flipped
}
