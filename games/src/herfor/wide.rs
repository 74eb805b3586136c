//! The search's layout of the board: the size-7 hexagon in a padded 13 × 13 grid, so that a
//! step along each line is one fixed shift of a bit set.
//!
//! Cell `13·k + c` is the point at row `k`, column `c` (the coordinates of
//! [`geometry`](super::geometry)); 169 cells, 127 of them points, in three `u64` words. The
//! three positive steps are +1 (along a row), +13 (up a column) and +14 (up the diagonal).
//! Every step that would leave the hexagon across a row's end lands on a cell that is no point
//! (the two missing corners of the grid separate the rows), and such cells never hold a
//! stone, so shifts need no wrap masks: callers only intersect results with sets of points.
//!
//! Row by row, the cells of the points are contiguous here and in the compact numbering of
//! [`Point`], and both run bottom to top, left to right: converting a set is one window per
//! row, and iterating either form gives the points in the same order.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::geometry::{Bits, MAX_SIZE, MIN_SIZE, POINTS, Point};

/// Cells per row of the padded grid, and rows.
pub const STRIDE: u32 = 13;
/// Cells of the padded grid.
pub const CELLS: usize = 169;
/// The steps of the three lines, in the order of [`geometry::DIRECTIONS`](super::geometry::DIRECTIONS).
pub const LINE_STEPS: [u32; 3] = [1, STRIDE, STRIDE + 1];

/// A set of cells of the padded grid, bit `i` of word `i / 64` for cell `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wide(pub [u64; 3]);

impl Wide {
    /// The set with no cell.
    pub const EMPTY: Wide = Wide([0; 3]);

    /// The one-cell set.
    #[inline(always)]
    pub const fn cell(i: u8) -> Wide {
        // Each word chosen by comparison rather than by an index into an array, which would
        // put the set in memory: these run inside the playout's walks.
        let bit = 1 << (i % 64);
        let word = i / 64;
        Wide([
            if word == 0 { bit } else { 0 },
            if word == 1 { bit } else { 0 },
            if word == 2 { bit } else { 0 },
        ])
    }

    /// Whether the set holds no cell.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }

    /// How many cells the set holds: stones, when it is a colour's.
    #[inline(always)]
    pub fn count_ones(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }

    /// Whether cell `i` is in the set; false for any index off the grid.
    #[inline(always)]
    pub fn has(self, i: i32) -> bool {
        // A negative index wraps to a huge one: one comparison rules out both ends. The word
        // is chosen by two selects on the index's bits rather than by a branch (the walks that
        // call this stop at unpredictable cells) or an index (which would put the set in memory).
        let i = i as u32;
        let low = if i & 64 == 0 { self.0[0] } else { self.0[1] };
        let word = if i & 128 == 0 { low } else { self.0[2] };
        i < 192 && (word >> (i % 64)) & 1 != 0
    }

    /// The set moved `n` cells up (towards higher indices), `n < 192`: bits leaving the grid
    /// are dropped.
    #[inline(always)]
    pub fn up(self, n: u32) -> Wide {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0; 3];
        for (i, word) in out.iter_mut().enumerate().skip(words) {
            let src = i - words;
            *word = self.0[src] << bits;
            if bits > 0 && src > 0 {
                *word |= self.0[src - 1] >> (64 - bits);
            }
        }
        Wide(out)
    }

    /// The set moved `n` cells down (towards lower indices), `n < 192`.
    #[inline(always)]
    pub fn down(self, n: u32) -> Wide {
        let (words, bits) = ((n / 64) as usize, n % 64);
        let mut out = [0; 3];
        for (i, word) in out.iter_mut().enumerate().take(3 - words) {
            let src = i + words;
            *word = self.0[src] >> bits;
            if bits > 0 && src + 1 < 3 {
                *word |= self.0[src + 1] << (64 - bits);
            }
        }
        Wide(out)
    }

    /// The cells below the set's lowest (every cell when it is empty).
    #[inline(always)]
    pub fn below_first(self) -> Wide {
        // x − 1 over the three words, borrowing upwards, turns the lowest set bit off and the
        // bits below it on: those, without x's bits.
        let [a, b, c] = self.0;
        let (a1, borrow) = a.overflowing_sub(1);
        let (b1, borrow) = b.overflowing_sub(u64::from(borrow));
        let c1 = c.wrapping_sub(u64::from(borrow));
        Wide([a1 & !a, b1 & !b, c1 & !c])
    }

    /// The cells above the set's highest (every cell when it is empty).
    #[inline(always)]
    pub fn above_last(self) -> Wide {
        // Each word's bits up to its highest set bit, or every bit under a word that has one.
        let up_to_last = |w: u64| u64::MAX.checked_shr(w.leading_zeros()).unwrap_or(0);
        let [a, b, c] = self.0;
        let high = up_to_last(c);
        let middle = if c != 0 { u64::MAX } else { up_to_last(b) };
        let low = if b | c != 0 { u64::MAX } else { up_to_last(a) };
        Wide([!low, !middle, !high])
    }

    /// The `n`-th cell of the set, lowest first (`n < self.count_ones()`): a random element
    /// without listing them all.
    #[inline(always)]
    pub fn nth(self, mut n: u32) -> Option<u8> {
        for (w, &word) in self.0.iter().enumerate() {
            let here = word.count_ones();
            if n < here {
                return Some(w as u8 * 64 + select(word, n));
            }
            n -= here;
        }
        None
    }

    /// The cells of the set, lowest first, without allocating.
    #[inline]
    pub fn cells(self) -> impl Iterator<Item = u8> {
        let mut words = self.0;
        let mut w = 0;
        std::iter::from_fn(move || {
            while w < 3 {
                if words[w] != 0 {
                    let i = words[w].trailing_zeros();
                    words[w] &= words[w] - 1;
                    return Some((w as u32 * 64 + i) as u8);
                }
                w += 1;
            }
            None
        })
    }

    /// The points of the set in the compact numbering (the set must hold points only).
    #[inline]
    pub fn points(self) -> impl Iterator<Item = Point> {
        self.cells().map(point_of)
    }

    /// Bits `start .. start + len` (len ≤ 64) as the low bits of a word.
    #[inline(always)]
    fn window(self, start: u32, len: u32) -> u64 {
        let (w, b) = ((start / 64) as usize, start % 64);
        let mut v = self.0[w] >> b;
        if b + len > 64 && w + 1 < 3 {
            v |= self.0[w + 1] << (64 - b);
        }
        v & ((1u64 << len) - 1)
    }

    /// The same points in the compact numbering of [`Point`].
    pub fn to_bits(self) -> Bits {
        LAYOUT.rows.iter().fold(0, |bits, row| {
            bits | (u128::from(self.window(row.cell, row.len)) << row.point)
        })
    }

    /// The points of a compact set in this layout.
    pub fn from_bits(bits: Bits) -> Wide {
        let mut out = Wide::EMPTY;
        for row in &LAYOUT.rows {
            let v = ((bits >> row.point) as u64) & ((1u64 << row.len) - 1);
            let (w, b) = ((row.cell / 64) as usize, row.cell % 64);
            out.0[w] |= v << b;
            if b + row.len > 64 && w + 1 < 3 {
                out.0[w + 1] |= v >> (64 - b);
            }
        }
        out
    }
}

impl BitAnd for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitand(self, o: Wide) -> Wide {
        Wide([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
}

impl BitOr for Wide {
    type Output = Wide;
    #[inline(always)]
    fn bitor(self, o: Wide) -> Wide {
        Wide([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
}

impl Not for Wide {
    type Output = Wide;
    #[inline(always)]
    fn not(self) -> Wide {
        Wide([!self.0[0], !self.0[1], !self.0[2]])
    }
}

impl BitAndAssign for Wide {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Wide) {
        *self = *self & o;
    }
}

impl BitOrAssign for Wide {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Wide) {
        *self = *self | o;
    }
}

/// Runs `work` compiled for the instructions the playouts use where the CPU has them (the
/// build targets baseline x86-64): `popcnt` to count the bits of a set (every x86-64 CPU since
/// about 2008; without it a count is a dozen shifts and masks), `bmi2`'s `pdep` to pick the
/// `n`-th legal placement (`select`), and AVX-512 for the legal placements of `Wide` sets
/// (`simd`). `work` and what it calls inline are compiled into the version with the features;
/// the result is the same in every version.
#[inline]
pub fn with_cpu_features<R>(work: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        let both = std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("bmi2");
        if both && super::simd::available() {
            #[target_feature(enable = "popcnt,bmi2,avx512f,avx512vbmi2")]
            fn with_vectors<R>(work: impl FnOnce() -> R) -> R {
                work()
            }
            // SAFETY: the running CPU has all four features, checked just above.
            return unsafe { with_vectors(work) };
        }
        if both {
            #[target_feature(enable = "popcnt,bmi2")]
            fn with_both<R>(work: impl FnOnce() -> R) -> R {
                work()
            }
            // SAFETY: the running CPU has `popcnt` and `bmi2`, checked just above.
            return unsafe { with_both(work) };
        }
        if std::is_x86_feature_detected!("popcnt") {
            #[target_feature(enable = "popcnt")]
            fn with_feature<R>(work: impl FnOnce() -> R) -> R {
                work()
            }
            // SAFETY: the running CPU has `popcnt`, checked just above.
            return unsafe { with_feature(work) };
        }
    }
    work()
}

/// The position of the `n`-th set bit of `word` (`n < word.count_ones()`): one `pdep` where
/// the CPU has `bmi2`, else a search by halves.
#[inline(always)]
fn select(word: u64, n: u32) -> u8 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2") {
        // SAFETY: the running CPU has `bmi2`, checked just above.
        return unsafe { select_pdep(word, n) };
    }
    select_by_halves(word, n)
}

/// [`select`] by `pdep`: the `n`-th set bit of `word` is where bit `n` of a dense word lands
/// when deposited into `word`'s set bits. Inlined into [`with_cpu_features`]'s version with
/// `bmi2`, a call elsewhere.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
fn select_pdep(word: u64, n: u32) -> u8 {
    std::arch::x86_64::_pdep_u64(1 << n, word).trailing_zeros() as u8
}

/// [`select`] without `pdep`: a binary search by halves, then the last few bits one by one.
#[inline(always)]
fn select_by_halves(mut word: u64, mut n: u32) -> u8 {
    let mut base = 0;
    for width in [32, 16, 8] {
        let low = (word & ((1u64 << width) - 1)).count_ones();
        if n >= low {
            n -= low;
            word >>= width;
            base += width;
        }
    }
    for _ in 0..n {
        word &= word - 1;
    }
    (base + word.trailing_zeros()) as u8
}

/// One row of the board in both numberings.
struct Row {
    /// The first point's cell here.
    cell: u32,
    /// The first point's compact index.
    point: u32,
    len: u32,
}

/// The tables between the two numberings.
struct Layout {
    /// The cell of each point.
    cell: [u8; POINTS],
    /// The point of each cell (any value for cells that are no point: they hold no stone).
    /// (256 entries, so that any `u8` indexes it without a check.)
    point: [u8; 256],
    rows: [Row; 13],
    /// The points of the board of each size (index = size; empty for unsupported sizes).
    boards: [Wide; MAX_SIZE as usize + 1],
}

const fn build() -> Layout {
    let geometry = super::geometry::build();
    let mut layout = Layout {
        cell: [0; POINTS],
        point: [u8::MAX; 256],
        rows: [const {
            Row {
                cell: 0,
                point: 0,
                len: 0,
            }
        }; 13],
        boards: [Wide::EMPTY; MAX_SIZE as usize + 1],
    };
    let mut p = 0;
    while p < POINTS {
        let (k, c) = geometry.coords[p];
        let cell = (k as u32 * STRIDE + c as u32) as u8;
        layout.cell[p] = cell;
        layout.point[cell as usize] = p as u8;
        let row = &mut layout.rows[k as usize];
        if row.len == 0 {
            row.cell = cell as u32;
            row.point = p as u32;
        }
        row.len += 1;
        let mut size = MIN_SIZE as usize;
        while size <= MAX_SIZE as usize {
            if geometry.boards[size] & (1u128 << p) != 0 {
                layout.boards[size].0[(cell / 64) as usize] |= 1 << (cell % 64);
            }
            size += 1;
        }
        p += 1;
    }
    layout
}

static LAYOUT: Layout = build();

/// The cells of the largest board strictly beyond each cell in each direction (in the order of
/// [`DIRECTIONS`](super::geometry::DIRECTIONS): the three lines up, then down), to its edge;
/// empty for cells that are no point. A placement's flips are read along these, bit-parallel.
pub static RAYS: [[Wide; 6]; CELLS] = rays();

pub(super) const fn rays() -> [[Wide; 6]; CELLS] {
    let geometry = super::geometry::build();
    const fn cell_at((k, c): (i8, i8)) -> usize {
        k as usize * STRIDE as usize + c as usize
    }
    let mut out = [[Wide::EMPTY; 6]; CELLS];
    let mut p = 0;
    while p < POINTS {
        let cell = cell_at(geometry.coords[p]);
        let mut d = 0;
        while d < 6 {
            let mut bits = geometry.rays[p][d];
            while bits != 0 {
                let q = cell_at(geometry.coords[bits.trailing_zeros() as usize]);
                out[cell][d].0[q / 64] |= 1 << (q % 64);
                bits &= bits - 1;
            }
            d += 1;
        }
        p += 1;
    }
    out
}

/// The cell of a point of the largest board.
#[inline(always)]
pub fn cell_of(p: Point) -> u8 {
    LAYOUT.cell[p.index() % POINTS]
}

/// The point at a cell (meaningless for cells that are no point).
#[inline(always)]
pub fn point_of(cell: u8) -> Point {
    Point(LAYOUT.point[cell as usize])
}

/// The points of the board with `size` points per side (empty when the size is unsupported).
#[inline(always)]
pub fn board(size: u8) -> Wide {
    LAYOUT
        .boards
        .get(size as usize)
        .copied()
        .unwrap_or(Wide::EMPTY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::herfor::geometry::{DIRECTIONS, GEOMETRY, NONE, board_mask, points};

    #[test]
    fn f1_every_board_converts_both_ways() {
        for size in MIN_SIZE..=MAX_SIZE {
            let mask = board_mask(size);
            assert_eq!(board(size).to_bits(), mask, "size {size}");
            assert_eq!(Wide::from_bits(mask), board(size), "size {size}");
            assert_eq!(board(size).count_ones(), mask.count_ones());
        }
        let some: Bits = 0x5555_1234_9876_0f0f_aaaa_0000_ffff_1357 & board_mask(7);
        assert_eq!(Wide::from_bits(some).to_bits(), some);
        let listed: Vec<Point> = Wide::from_bits(some).points().collect();
        assert_eq!(listed, points(some).collect::<Vec<_>>(), "same order");
    }

    /// Both ways of picking the `n`-th set bit give the lowest-first order of listing the bits
    /// one by one, on words of every density (the playouts' uniform pick of a placement).
    #[test]
    fn select_picks_the_nth_set_bit_lowest_first() {
        let mut word: u64 = 0x9e37_79b9_7f4a_7c15;
        for round in 0..2_000u32 {
            // A xorshift step, thinned or thickened so that sparse and dense words both come.
            word ^= word << 13;
            word ^= word >> 7;
            word ^= word << 17;
            let set = match round % 3 {
                0 => word & word.rotate_left(11),
                1 => word | word.rotate_left(29),
                _ => word,
            };
            let listed: Vec<u8> = (0..64).filter(|&i| (set >> i) & 1 != 0).collect();
            for (n, &bit) in listed.iter().enumerate() {
                let n = n as u32;
                assert_eq!(select_by_halves(set, n), bit, "{set:#x} n = {n}");
                assert_eq!(select(set, n), bit, "{set:#x} n = {n}");
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("bmi2") {
                    // SAFETY: the running CPU has `bmi2`, checked just above.
                    assert_eq!(unsafe { select_pdep(set, n) }, bit, "{set:#x} n = {n}");
                }
            }
        }
        assert_eq!(select(u64::MAX, 63), 63);
        assert_eq!(select(1 << 63, 0), 63);
    }

    /// The cells below a set's first and above its last, against their definition cell by
    /// cell, for sets of one or two cells in every word and the empty set (the flips' rays).
    #[test]
    fn below_first_and_above_last_follow_their_definition() {
        let all = Wide([u64::MAX; 3]);
        assert_eq!(Wide::EMPTY.below_first(), all);
        assert_eq!(Wide::EMPTY.above_last(), all);
        for first in 0..192u32 {
            for last in [first, (first + 77).min(191), 191] {
                let set = Wide::cell(first as u8) | Wide::cell(last as u8);
                let cells_where = |keep: &dyn Fn(u32) -> bool| {
                    (0..192u32)
                        .filter(|&i| keep(i))
                        .fold(Wide::EMPTY, |w, i| w | Wide::cell(i as u8))
                };
                assert_eq!(set.below_first(), cells_where(&|i| i < first), "{set:?}");
                assert_eq!(set.above_last(), cells_where(&|i| i > last), "{set:?}");
            }
        }
    }

    /// A shift by a line's step moves every point to its neighbour in that direction, or off
    /// the board: the padding keeps rows from wrapping (F1's six neighbours).
    #[test]
    fn f1_shifts_follow_the_six_directions() {
        let all = board(7);
        for p in all.points() {
            let one = Wide::cell(cell_of(p));
            for (line, &step) in LINE_STEPS.iter().enumerate() {
                for (d, moved) in [(line, one.up(step)), (line + 3, one.down(step))] {
                    let (k, c) = GEOMETRY.coords[p.index()];
                    let (dk, dc) = DIRECTIONS[d];
                    let (k2, c2) = (k as i32 + dk, c as i32 + dc);
                    let expected = if (0..13).contains(&k2) && (0..13).contains(&c2) {
                        let q = GEOMETRY.at[k2 as usize][c2 as usize];
                        if q == NONE {
                            Wide::EMPTY
                        } else {
                            Wide::cell(cell_of(Point(q)))
                        }
                    } else {
                        Wide::EMPTY
                    };
                    assert_eq!(moved & all, expected, "point {p:?} direction {d}");
                }
            }
        }
    }
}
