//! The board geometry (F1): one table for the largest board, built at compile time.
//!
//! Points are indexed on the size-7 board (127 points, so a set of points is a `u128`), row by
//! row from the bottom, left to right. A smaller board of size n is the **central hexagon** of
//! that board: [`board_mask`] selects its points. Rays and neighbours are those of the size-7
//! board; on a smaller board they also reach points outside it, but those points never hold a
//! stone, so every scan along a line stops there exactly as it would at the edge.
//!
//! Coordinates are (row `k`, column `c`) with rows from the bottom; the three line directions
//! are (0,1) along a row and (1,0), (1,1) up the two diagonals. Point `(k, c)` is on the board
//! of radius `r = n - 1` when `0 <= k, c <= 2r` and `|c - k| <= r`.

/// A set of points on the size-7 board, bit `i` for point `i`.
pub type Bits = u128;

/// The largest board side.
pub const MAX_SIZE: u8 = 7;
/// The smallest board side.
pub const MIN_SIZE: u8 = 3;
/// Points on the largest board.
pub const POINTS: usize = 127;
/// Rows on the largest board.
const ROWS: usize = 13;
const RADIUS: i32 = 6;
/// No point (off the largest board).
pub const NONE: u8 = u8::MAX;

/// The six directions as (row, column) steps: the three positive ones, which lead to higher
/// point indices, then their opposites in the same order (direction `d + 3` is `-d`).
pub const DIRECTIONS: [(i32, i32); 6] = [(0, 1), (1, 0), (1, 1), (0, -1), (-1, 0), (-1, -1)];

/// A point of the largest board (its index), valid on a given board when in [`board_mask`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u8);

impl Point {
    /// The set of [`Bits`] holding only this point.
    pub const fn bit(self) -> Bits {
        1u128 << self.0
    }
    /// The point's index on the largest board, 0 to 126: an index into the [`Geometry`] tables.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Everything about the largest board that the rules look up.
pub struct Geometry {
    /// (row, column) of each point on the largest board.
    pub coords: [(i8, i8); POINTS],
    /// Point at (row, column), or [`NONE`].
    pub at: [[u8; ROWS]; ROWS],
    /// The up to six neighbouring points.
    pub neighbours: [Bits; POINTS],
    /// The points strictly beyond a point in each direction, to the edge of the largest board.
    pub rays: [[Bits; 6]; POINTS],
    /// The two neighbours of a point along each line (0..3), or all bits when the point lies on
    /// the edge of the largest board across that line: an invasion along the line needs both
    /// occupied, so this is a quick test that rules most lines out.
    pub line_neighbours: [[Bits; 3]; POINTS],
    /// The points of the board of each size (index = size; 0 for unsupported sizes).
    pub boards: [Bits; MAX_SIZE as usize + 1],
}

const fn on_board(k: i32, c: i32, radius: i32) -> bool {
    k >= 0 && c >= 0 && k <= 2 * radius && c <= 2 * radius && c - k >= -radius && c - k <= radius
}

pub(super) const fn build() -> Geometry {
    let mut g = Geometry {
        coords: [(0, 0); POINTS],
        at: [[NONE; ROWS]; ROWS],
        neighbours: [0; POINTS],
        rays: [[0; 6]; POINTS],
        line_neighbours: [[0; 3]; POINTS],
        boards: [0; MAX_SIZE as usize + 1],
    };
    let mut next = 0;
    let mut k = 0;
    while k < ROWS as i32 {
        let mut c = 0;
        while c < ROWS as i32 {
            if on_board(k, c, RADIUS) {
                g.coords[next] = (k as i8, c as i8);
                g.at[k as usize][c as usize] = next as u8;
                next += 1;
            }
            c += 1;
        }
        k += 1;
    }
    let mut p = 0;
    while p < POINTS {
        let (k, c) = (g.coords[p].0 as i32, g.coords[p].1 as i32);
        let mut d = 0;
        while d < 6 {
            let (dk, dc) = DIRECTIONS[d];
            let (mut k2, mut c2) = (k + dk, c + dc);
            if on_board(k2, c2, RADIUS) {
                g.neighbours[p] |= 1u128 << g.at[k2 as usize][c2 as usize];
            }
            while on_board(k2, c2, RADIUS) {
                g.rays[p][d] |= 1u128 << g.at[k2 as usize][c2 as usize];
                k2 += dk;
                c2 += dc;
            }
            d += 1;
        }
        let mut line = 0;
        while line < 3 {
            let (dk, dc) = DIRECTIONS[line];
            g.line_neighbours[p][line] =
                if on_board(k + dk, c + dc, RADIUS) && on_board(k - dk, c - dc, RADIUS) {
                    (1u128 << g.at[(k + dk) as usize][(c + dc) as usize])
                        | (1u128 << g.at[(k - dk) as usize][(c - dc) as usize])
                } else {
                    Bits::MAX
                };
            line += 1;
        }
        let mut size = MIN_SIZE as i32;
        while size <= MAX_SIZE as i32 {
            let offset = MAX_SIZE as i32 - size;
            if on_board(k - offset, c - offset, size - 1) {
                g.boards[size as usize] |= 1u128 << p;
            }
            size += 1;
        }
        p += 1;
    }
    g
}

/// The one geometry table.
pub static GEOMETRY: Geometry = build();

/// The points of the board with `size` points per side (0 when the size is unsupported).
#[inline]
pub fn board_mask(size: u8) -> Bits {
    GEOMETRY.boards.get(size as usize).copied().unwrap_or(0)
}

/// The first point of `bits` along direction `d` (`bits` must lie on one ray in direction `d`).
#[inline]
pub fn first_along(bits: Bits, d: usize) -> Option<Point> {
    if bits == 0 {
        None
    } else if d < 3 {
        Some(Point(bits.trailing_zeros() as u8))
    } else {
        Some(Point(127 - bits.leading_zeros() as u8))
    }
}

/// Iterates the points of a set, lowest index first, without allocating.
#[inline]
pub fn points(mut bits: Bits) -> impl Iterator<Item = Point> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let p = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(Point(p))
        }
    })
}

/// The name of a point on the board of `size` (F1): row letter from the bottom (`a`…), then the
/// number within the row from the left (`1`…). `None` when the point is not on that board.
pub fn point_name(size: u8, p: Point) -> Option<String> {
    if board_mask(size) & p.bit() == 0 {
        return None;
    }
    let radius = size as i32 - 1;
    let offset = MAX_SIZE as i32 - size as i32;
    let (k, c) = GEOMETRY.coords[p.index()];
    let (k, c) = (k as i32 - offset, c as i32 - offset);
    let number = c - (k - radius).max(0) + 1;
    // Written by hand, not with `format!`: every legal move's name is written for each
    // `legal-moves` answer, and `format!` here took about 6 % of the server's time under `wrk`.
    let mut name = String::with_capacity(3);
    name.push((b'a' + k as u8) as char);
    if number >= 10 {
        name.push((b'0' + (number / 10) as u8) as char);
    }
    name.push((b'0' + (number % 10) as u8) as char);
    Some(name)
}

/// Where a point lies on the board of `size`, for drawing: (row from the bottom, column), both
/// from 0, where columns run along the diagonal direction (1,1), so that the point sits at
/// x = column − row/2, y = row·√3/2 on a plane with unit distance between neighbours. `None`
/// when the point is not on that board.
pub fn point_coords(size: u8, p: Point) -> Option<(u8, u8)> {
    if board_mask(size) & p.bit() == 0 {
        return None;
    }
    let offset = MAX_SIZE - size;
    let (k, c) = GEOMETRY.coords[p.index()];
    Some((k as u8 - offset, c as u8 - offset))
}

/// Why a point name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Not of the form letter + number ≥ 1.
    Malformed,
    /// Well formed, but no such point on this board.
    OffBoard,
}

/// Reads a point name (case-insensitive) on the board of `size`.
pub fn parse_point(size: u8, text: &str) -> Result<Point, NameError> {
    let bytes = text.as_bytes();
    let (letter, digits) = match bytes.split_first() {
        Some((l, rest)) if l.is_ascii_alphabetic() && !rest.is_empty() => {
            (l.to_ascii_lowercase(), rest)
        }
        _ => return Err(NameError::Malformed),
    };
    if !digits.iter().all(u8::is_ascii_digit) || digits[0] == b'0' {
        return Err(NameError::Malformed);
    }
    // At most three digits can be read without overflow; anything longer is off every board.
    if digits.len() > 3 || !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(NameError::OffBoard);
    }
    let number: i32 = digits.iter().fold(0, |n, d| n * 10 + i32::from(d - b'0'));
    let radius = size as i32 - 1;
    let k = i32::from(letter - b'a');
    if k > 2 * radius {
        return Err(NameError::OffBoard);
    }
    let row_len = size as i32 + k.min(2 * radius - k);
    if number > row_len {
        return Err(NameError::OffBoard);
    }
    let c = number - 1 + (k - radius).max(0);
    let offset = MAX_SIZE as i32 - size as i32;
    Ok(Point(
        GEOMETRY.at[(k + offset) as usize][(c + offset) as usize],
    ))
}
