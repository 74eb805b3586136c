//! The legal placements of [`rules::legal`](super::rules::legal) for [`Wide`] sets with
//! AVX-512, where the CPU has it (checked at run time; the build targets baseline x86-64).
//!
//! A line's two occluded fills (towards lower cells and towards higher ones) run side by side
//! in one 512-bit vector: lanes 0–2 hold the first fill's three words, lanes 4–6 the second's,
//! lanes 3 and 7 stay zero. A shift moves the low half down and the high half up by the same
//! count, each a lane permutation and a funnel shift (`vpshldvq`), so one vector operation
//! does the work of six word operations of the portable fill. The steps are those of the
//! portable `enemy_beyond_up` / `enemy_beyond_down`, whose result this must equal (a test
//! compares them on every ply of random games).

use std::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_maskz_permutexvar_epi64, _mm512_or_si512, _mm512_setr_epi64,
    _mm512_shldv_epi64, _mm512_shuffle_i64x2,
};

use super::rules::Legal;
use super::wide::{STRIDE, Wide};

/// Whether the running CPU has the AVX-512 parts used here.
#[inline(always)]
pub fn available() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vbmi2")
}

/// The lane permutations and counts of one shift by `n` cells (`0 < n < 128`).
#[derive(Clone, Copy)]
struct Shift {
    /// For each lane, the lane whose word gives the result's upper bits (shifted left)...
    high: [i64; 8],
    high_mask: u8,
    /// ...and the lane whose word gives its lower bits; lanes off the mask read zero.
    low: [i64; 8],
    low_mask: u8,
    /// The funnel shift's count per lane.
    count: [i64; 8],
}

/// The shift by `n` cells: lanes 0–3 down (towards lower cells), lanes 4–7 up.
const fn shift(n: u32) -> Shift {
    let (k, r) = ((n / 64) as i64, (n % 64) as i64);
    let mut s = Shift {
        high: [0; 8],
        high_mask: 0,
        low: [0; 8],
        low_mask: 0,
        count: [0; 8],
    };
    // Lanes 3 and 7 read nothing: they stay zero.
    let mut i = 0;
    while i < 3 {
        // Down by n: word i becomes (w[i+k+1] << (64 − r)) | (w[i+k] >> r); with r = 0 just
        // w[i+k] (a count of 0 keeps the upper word).
        let (high, low) = if r == 0 {
            (i + k, i + k)
        } else {
            (i + k + 1, i + k)
        };
        if high < 3 {
            s.high[i as usize] = high;
            s.high_mask |= 1 << i;
        }
        if low < 3 {
            s.low[i as usize] = low;
            s.low_mask |= 1 << i;
        }
        s.count[i as usize] = (64 - r) % 64;
        // Up by n: word i becomes (w[i−k] << r) | (w[i−k−1] >> (64 − r)).
        let (high, low) = (i - k, i - k - 1);
        let lane = (4 + i) as usize;
        if high >= 0 && high < 3 {
            s.high[lane] = 4 + high;
            s.high_mask |= 1 << lane;
        }
        if r != 0 && low >= 0 && low < 3 {
            s.low[lane] = 4 + low;
            s.low_mask |= 1 << lane;
        }
        s.count[lane] = r;
        i += 1;
    }
    s
}

/// The shifts of one line's fill: by one step and by two, four and eight steps.
const fn line_shifts(step: u32) -> [Shift; 4] {
    [
        shift(step),
        shift(2 * step),
        shift(4 * step),
        shift(8 * step),
    ]
}

const SHIFTS: [[Shift; 4]; 3] = [line_shifts(1), line_shifts(STRIDE), line_shifts(STRIDE + 1)];

#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
fn vector(s: [i64; 8]) -> __m512i {
    _mm512_setr_epi64(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
}

/// `v`'s low half moved down and its high half moved up by the cells of `s`.
#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
fn apart(v: __m512i, s: &Shift) -> __m512i {
    let high = _mm512_maskz_permutexvar_epi64(s.high_mask, vector(s.high), v);
    let low = _mm512_maskz_permutexvar_epi64(s.low_mask, vector(s.low), v);
    _mm512_shldv_epi64(high, low, vector(s.count))
}

/// The same set in both halves.
#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
fn both(set: Wide) -> __m512i {
    let [a, b, c] = set.0.map(|w| w as i64);
    _mm512_setr_epi64(a, b, c, 0, a, b, c, 0)
}

/// The AND of `v`'s two halves, as a set.
#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
fn halves_and(v: __m512i) -> Wide {
    words(_mm512_and_si512(
        v,
        _mm512_shuffle_i64x2::<0b01_00_11_10>(v, v),
    ))
}

/// The OR of `v`'s two halves, as a set.
#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
fn halves_or(v: __m512i) -> Wide {
    words(_mm512_or_si512(
        v,
        _mm512_shuffle_i64x2::<0b01_00_11_10>(v, v),
    ))
}

/// The low half's three words.
#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
fn words(v: __m512i) -> Wide {
    // SAFETY: a vector of 512 bits and an array of eight u64 have the same size, and every
    // bit pattern is a valid value of either.
    let lanes: [u64; 8] = unsafe { std::mem::transmute(v) };
    Wide([lanes[0], lanes[1], lanes[2]])
}

/// One line's two fills (see the module's introduction): the points of `open` with an enemy
/// stone beyond a run of `own` stones towards higher cells (low half) and towards lower ones
/// (high half). `near` is `own` moved one step apart.
#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
fn line(open: __m512i, own: __m512i, near: __m512i, enemy: __m512i, s: &[Shift; 4]) -> __m512i {
    let and = _mm512_and_si512;
    let or = _mm512_or_si512;
    let mut reach = or(enemy, and(own, apart(enemy, &s[0])));
    let mut run = and(own, near);
    reach = or(reach, and(run, apart(reach, &s[1])));
    run = and(run, apart(run, &s[1]));
    reach = or(reach, and(run, apart(reach, &s[2])));
    run = and(run, apart(run, &s[2]));
    reach = or(reach, and(run, apart(reach, &s[3])));
    and(apart(reach, &s[0]), open)
}

/// [`rules::legal`](super::rules::legal) for [`Wide`] sets. Call only where [`available`].
#[inline]
#[target_feature(enable = "avx512f,avx512vbmi2")]
pub fn legal(empty: Wide, own: Wide, enemy: Wide) -> Legal<Wide> {
    let (open, mine, theirs) = (both(empty), both(own), both(enemy));
    // `own` one step apart along each line: the points touching it, and each fill's start.
    let near = [
        apart(mine, &SHIFTS[0][0]),
        apart(mine, &SHIFTS[1][0]),
        apart(mine, &SHIFTS[2][0]),
    ];
    let touching = halves_or(_mm512_or_si512(_mm512_or_si512(near[0], near[1]), near[2]));
    let invading = [
        halves_and(line(open, mine, near[0], theirs, &SHIFTS[0])),
        halves_and(line(open, mine, near[1], theirs, &SHIFTS[1])),
        halves_and(line(open, mine, near[2], theirs, &SHIFTS[2])),
    ];
    Legal {
        cells: (empty & !touching) | invading[0] | invading[1] | invading[2],
        invading,
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::Game;
    use crate::herfor::rules::legal_portable;
    use crate::herfor::wide::board;
    use crate::herfor::{Herfor, HerforOptions};

    /// Both fills, for `own` to move.
    fn assert_same(empty: Wide, own: Wide, enemy: Wide, what: &str) {
        // SAFETY: the callers check `available` first.
        let fast = unsafe { legal(empty, own, enemy) };
        assert_eq!(fast, legal_portable(empty, own, enemy), "{what}");
    }

    /// F3: the vector fills find exactly the portable fills' placements and invading lines, for
    /// either colour to move, at every ply of 1,000 random games on every board size.
    #[test]
    fn f3_vector_fills_equal_the_portable_ones_at_every_ply() {
        if !available() {
            eprintln!("this CPU has no AVX-512: the vector fills never run here");
            return;
        }
        let mut rng = SmallRng::seed_from_u64(0x51d0);
        let mut moves = Vec::new();
        for game in 0..1_000 {
            let options = HerforOptions {
                size: 3 + (game % 5) as u8,
                pie: game % 2 == 0,
                simple: game % 3 == 0,
            };
            let mut state = Herfor::new_game(&options).unwrap();
            loop {
                let [black, white] = state.stones;
                let empty = state.empty_cells();
                let json = serde_json::to_string(&state).unwrap();
                assert_same(empty, black, white, &json);
                assert_same(empty, white, black, &json);
                if state.is_over() {
                    break;
                }
                moves.clear();
                Herfor::legal_moves_into(&state, &mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                Herfor::apply(&mut state, &mv).unwrap();
            }
        }
    }

    /// F3: the same on random fillings of the largest board where one colour dominates, so that
    /// the long runs (up to the whole line) that need the fill's last doubling step are common.
    #[test]
    fn f3_vector_fills_equal_the_portable_ones_on_long_runs() {
        if !available() {
            eprintln!("this CPU has no AVX-512: the vector fills never run here");
            return;
        }
        let mut rng = SmallRng::seed_from_u64(0x1071);
        let points: Vec<u8> = board(7).cells().collect();
        for round in 0..20_000 {
            // Chances out of 16 of an own stone and of an enemy one; the rest stay empty.
            let (own_share, enemy_share) = [(13, 2), (8, 7), (3, 12), (14, 1)][round % 4];
            let (mut own, mut enemy) = (Wide::EMPTY, Wide::EMPTY);
            for &cell in &points {
                let draw = rng.random_range(0..16);
                if draw < own_share {
                    own |= Wide::cell(cell);
                } else if draw < own_share + enemy_share {
                    enemy |= Wide::cell(cell);
                }
            }
            let empty = board(7) & !(own | enemy);
            assert_same(empty, own, enemy, &format!("{own:?} {enemy:?}"));
        }
    }
}
