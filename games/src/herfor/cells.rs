//! The two widths of the search's bit sets: [`Wide`] (three words, every board) and
//! [`Narrow`] (one `u128`, the boards of side 5 or less), behind one trait so that the fills
//! and walks of [`rules`](super::rules) and the playout's [`Position`](super::Position) are
//! written once.
//!
//! Both use the padded grid of [`super::wide`] (steps +1, +13, +14); a `Narrow` set is
//! that grid seen from cell [`Narrow::ORIGIN`], where the side-5 board starts. Its cells run
//! to 140, so the board and every neighbour of it fit in 128 bits: shifts and masks are two
//! words wide instead of three.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::geometry::Point;
use super::rules::Legal;
use super::wide::{self, Wide};

/// A set of cells of the padded grid, numbered from the set's [`ORIGIN`](Cells::ORIGIN).
pub trait Cells:
    Copy
    + Debug
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The set with no cell.
    const EMPTY: Self;
    /// The cell of the padded grid that is cell 0 here.
    const ORIGIN: u8;
    /// The largest board side whose points and neighbours this set holds.
    const MAX_SIZE: u8;
    /// Doubling steps an occluded fill needs to cross the longest run of stones a line of
    /// [`MAX_SIZE`](Cells::MAX_SIZE) can hold between a new stone and an enemy one (`2·side − 3`):
    /// 3 steps cross 7, 4 cross 15.
    const FILL_STEPS: u32;

    /// The one-cell set.
    fn cell(i: u8) -> Self;
    /// Whether the set holds no cell.
    fn is_empty(self) -> bool;
    /// How many cells the set holds: stones, when it is a colour's.
    fn count_ones(self) -> u32;
    /// Whether cell `i` is in the set; false for any index off the set.
    fn has(self, i: i32) -> bool;
    /// The set moved `n` cells up (towards higher indices): bits leaving the set are dropped.
    fn up(self, n: u32) -> Self;
    /// The set moved `n` cells down.
    fn down(self, n: u32) -> Self;
    /// The `n`-th cell of the set, lowest first; `None` when `n` is not below the count.
    fn nth(self, n: u32) -> Option<u8>;
    /// The cells below the set's lowest (every cell when it is empty).
    fn below_first(self) -> Self;
    /// The cells above the set's highest (every cell when it is empty).
    fn above_last(self) -> Self;
    /// The cells of the largest board strictly beyond cell `i` in direction `d` (in the order
    /// of [`DIRECTIONS`](super::geometry::DIRECTIONS)) that this set holds.
    fn ray(i: u8, d: usize) -> Self;
    /// [`rules::legal`](super::rules::legal) by vector instructions, where this width has
    /// such a path and the running CPU the instructions; `None` otherwise (the portable fills
    /// then run).
    #[inline(always)]
    fn legal_by_vector(_empty: Self, _own: Self, _enemy: Self) -> Option<Legal<Self>> {
        None
    }
    /// The same cells of a [`Wide`] set, which must hold none outside this set's reach.
    fn from_wide(set: Wide) -> Self;
    /// The same cells as a [`Wide`] set, the layout of the state.
    fn to_wide(self) -> Wide;

    /// The point at cell `i` here.
    #[inline(always)]
    fn point_of(i: u8) -> Point {
        wide::point_of(i + Self::ORIGIN)
    }

    /// The cell of point `p` here (a point of a board this set holds).
    #[inline(always)]
    fn cell_of(p: Point) -> u8 {
        wide::cell_of(p) - Self::ORIGIN
    }
}

impl Cells for Wide {
    const EMPTY: Wide = Wide::EMPTY;
    const ORIGIN: u8 = 0;
    const MAX_SIZE: u8 = 7;
    const FILL_STEPS: u32 = 4;

    #[inline(always)]
    fn cell(i: u8) -> Wide {
        Wide::cell(i)
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        Wide::is_empty(self)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        Wide::count_ones(self)
    }
    #[inline(always)]
    fn has(self, i: i32) -> bool {
        Wide::has(self, i)
    }
    #[inline(always)]
    fn up(self, n: u32) -> Wide {
        Wide::up(self, n)
    }
    #[inline(always)]
    fn down(self, n: u32) -> Wide {
        Wide::down(self, n)
    }
    #[inline(always)]
    fn nth(self, n: u32) -> Option<u8> {
        Wide::nth(self, n)
    }
    #[inline(always)]
    fn below_first(self) -> Wide {
        Wide::below_first(self)
    }
    #[inline(always)]
    fn above_last(self) -> Wide {
        Wide::above_last(self)
    }
    #[inline(always)]
    fn ray(i: u8, d: usize) -> Wide {
        wide::RAYS[usize::from(i)][d]
    }
    #[inline(always)]
    fn legal_by_vector(empty: Wide, own: Wide, enemy: Wide) -> Option<Legal<Wide>> {
        #[cfg(target_arch = "x86_64")]
        if super::simd::available() {
            // SAFETY: the running CPU has the features `simd::legal` is compiled for, checked
            // just above.
            return Some(unsafe { super::simd::legal(empty, own, enemy) });
        }
        let _ = (empty, own, enemy); // (unused off x86-64)
        None
    }
    #[inline(always)]
    fn from_wide(set: Wide) -> Wide {
        set
    }
    #[inline(always)]
    fn to_wide(self) -> Wide {
        self
    }
}

/// A set of cells of the boards of side 5 or less: bit `i` for cell `i + ORIGIN` of the
/// padded grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Narrow(pub u128);

impl Narrow {
    /// The first cell of the side-5 board (row 2, column 2). Its last is 140 and its
    /// neighbours reach 154, so every cell that matters is below `ORIGIN + 128`.
    pub const ORIGIN: u8 = 2 * wide::STRIDE as u8 + 2;
}

impl Cells for Narrow {
    const EMPTY: Narrow = Narrow(0);
    const ORIGIN: u8 = Narrow::ORIGIN;
    const MAX_SIZE: u8 = 5;
    const FILL_STEPS: u32 = 3;

    #[inline(always)]
    fn cell(i: u8) -> Narrow {
        Narrow(1 << i)
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        // Two word counts: `u128::count_ones` does the same with the popcnt feature, but
        // without it this keeps the word-at-a-time fallback small.
        (self.0 as u64).count_ones() + ((self.0 >> 64) as u64).count_ones()
    }
    #[inline(always)]
    fn has(self, i: i32) -> bool {
        // A negative index wraps to a huge one: one comparison rules out both ends.
        let i = i as u32;
        i < 128 && (self.0 >> i) & 1 != 0
    }
    #[inline(always)]
    fn up(self, n: u32) -> Narrow {
        Narrow(self.0 << n)
    }
    #[inline(always)]
    fn down(self, n: u32) -> Narrow {
        Narrow(self.0 >> n)
    }
    #[inline(always)]
    fn nth(self, n: u32) -> Option<u8> {
        Wide([self.0 as u64, (self.0 >> 64) as u64, 0]).nth(n)
    }
    #[inline(always)]
    fn below_first(self) -> Narrow {
        Narrow(self.0.wrapping_sub(1) & !self.0)
    }
    #[inline(always)]
    fn above_last(self) -> Narrow {
        Narrow(!u128::MAX.checked_shr(self.0.leading_zeros()).unwrap_or(0))
    }
    #[inline(always)]
    fn ray(i: u8, d: usize) -> Narrow {
        NARROW_RAYS[usize::from(i)][d]
    }
    #[inline(always)]
    fn from_wide(set: Wide) -> Narrow {
        let low = set.down(u32::from(Narrow::ORIGIN)).0;
        Narrow(u128::from(low[0]) | (u128::from(low[1]) << 64))
    }
    #[inline(always)]
    fn to_wide(self) -> Wide {
        Wide([self.0 as u64, (self.0 >> 64) as u64, 0]).up(u32::from(Narrow::ORIGIN))
    }
}

/// [`wide::RAYS`] in the numbering of `Narrow` sets, without the cells they do not hold.
static NARROW_RAYS: [[Narrow; 6]; 128] = narrow_rays();

const fn narrow_rays() -> [[Narrow; 6]; 128] {
    let wide = wide::rays();
    let origin = Narrow::ORIGIN as u32;
    let mut out = [[Narrow(0); 6]; 128];
    let mut i = 0;
    while i < 128 && i + (origin as usize) < wide::CELLS {
        let mut d = 0;
        while d < 6 {
            // The three words moved down by the origin (less than 64 cells), the top dropped.
            let [a, b, c] = wide[i + origin as usize][d].0;
            let low = (a >> origin) | (b << (64 - origin));
            let high = (b >> origin) | (c << (64 - origin));
            out[i][d] = Narrow(low as u128 | ((high as u128) << 64));
            d += 1;
        }
        i += 1;
    }
    out
}

impl BitAnd for Narrow {
    type Output = Narrow;
    #[inline(always)]
    fn bitand(self, o: Narrow) -> Narrow {
        Narrow(self.0 & o.0)
    }
}

impl BitOr for Narrow {
    type Output = Narrow;
    #[inline(always)]
    fn bitor(self, o: Narrow) -> Narrow {
        Narrow(self.0 | o.0)
    }
}

impl Not for Narrow {
    type Output = Narrow;
    #[inline(always)]
    fn not(self) -> Narrow {
        Narrow(!self.0)
    }
}

impl BitAndAssign for Narrow {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Narrow) {
        self.0 &= o.0;
    }
}

impl BitOrAssign for Narrow {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Narrow) {
        self.0 |= o.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::herfor::geometry::MIN_SIZE;
    use crate::herfor::wide::{LINE_STEPS, board};

    /// Every point of the boards up to side 5, and every neighbour of one, is a cell of a
    /// `Narrow` set, but for neighbours below its origin, which are no points of those boards
    /// (so dropping them changes nothing, F1).
    #[test]
    fn f1_small_boards_and_their_neighbours_fit_narrow() {
        for size in MIN_SIZE..=Narrow::MAX_SIZE {
            let points = board(size);
            assert_eq!(Narrow::from_wide(points).to_wide(), points, "size {size}");
            for step in LINE_STEPS {
                let above = points.up(step);
                assert_eq!(Narrow::from_wide(above).to_wide(), above, "size {size}");
                let below = points.down(step);
                let dropped = below & !Narrow::from_wide(below).to_wide();
                assert!(
                    dropped.down(u32::from(Narrow::ORIGIN)).is_empty(),
                    "size {size}"
                );
                assert!(
                    (dropped & board(Narrow::MAX_SIZE)).is_empty(),
                    "size {size}"
                );
            }
            for p in points.points() {
                let cell = Narrow::cell_of(p);
                assert!(Narrow::from_wide(points).has(i32::from(cell)));
                assert_eq!(Narrow::point_of(cell), p);
            }
        }
    }

    /// The cells below a set's first and above its last, and the rays from each cell, agree
    /// between the widths on every cell a `Narrow` set holds.
    #[test]
    fn f1_narrow_rays_and_ends_agree_with_wide() {
        let held = Narrow(u128::MAX).to_wide();
        assert_eq!(Narrow(0).below_first(), Narrow(u128::MAX));
        assert_eq!(Narrow(0).above_last(), Narrow(u128::MAX));
        for i in 0..128u8 {
            let one = Narrow::cell(i);
            let wide_one = one.to_wide();
            assert_eq!(one.below_first().to_wide(), wide_one.below_first() & held);
            assert_eq!(one.above_last().to_wide(), wide_one.above_last() & held);
            for d in 0..6 {
                let wide_ray = Wide::ray(i + Narrow::ORIGIN, d);
                assert_eq!(
                    Narrow::ray(i, d).to_wide(),
                    wide_ray & held,
                    "cell {i} d {d}"
                );
            }
        }
    }

    /// Shifts and picks agree between the widths on every cell the small boards use.
    #[test]
    fn f1_narrow_shifts_and_picks_agree_with_wide() {
        let points = board(5);
        let narrow = Narrow::from_wide(points);
        // Below its origin a `Narrow` set holds nothing: shifts drop what goes there.
        let from_origin = Wide([!((1 << Narrow::ORIGIN) - 1), u64::MAX, u64::MAX]);
        for step in LINE_STEPS {
            assert_eq!(narrow.up(step).to_wide(), points.up(step));
            assert_eq!(narrow.down(step).to_wide(), points.down(step) & from_origin);
        }
        for n in 0..=points.count_ones() {
            let picked = narrow.nth(n).map(Narrow::point_of);
            assert_eq!(picked, points.nth(n).map(wide::point_of), "n = {n}");
        }
    }
}
