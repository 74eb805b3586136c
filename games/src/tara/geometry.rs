//! The board of T1 as one geometry table: a 7×7 grid indexed `column + 7 × row` (A1 = 0,
//! G7 = 48) whose four corners do not exist, so 45 hills. Sets of hills are `u64` bitboards
//! over those 49 indices; the missing corners are never set in any table.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Width and height of the grid.
pub const SIZE: u8 = 7;
/// Number of grid squares (hills plus the four missing corners).
pub const SQUARES: usize = 49;
/// The number of hills on the board (T1).
pub const HILL_COUNT: u32 = 45;

/// The 45 hills that exist.
pub const HILLS: u64 = ((1u64 << 49) - 1) & !(1 | 1 << 6 | 1 << 42 | 1 << 48);

/// A hill, written column letter then row: `D7` (the corners `A1`, `A7`, `G1`, `G7` are not
/// hills). A name that is not a hill is refused with its path.
//
// Any text deserializes: squares that are not hills (the missing corners, or names off the
// grid, which become [`Hill::UNKNOWN`]) are reported by `validate` with their path, so a client
// learns which entry is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(value_type = String, example = "D4"))]
pub struct Hill(pub u8);

impl Hill {
    /// Stands for a name that is not a square of the grid.
    pub const UNKNOWN: Hill = Hill(u8::MAX);

    /// The hill at column `col` (0 = A) and row `row` (0 = 1), if it exists.
    pub fn at(col: u8, row: u8) -> Option<Hill> {
        let hill = Hill(col + SIZE * row);
        (col < SIZE && row < SIZE && hill.exists()).then_some(hill)
    }

    /// Whether this is one of the 45 hills.
    pub fn exists(self) -> bool {
        (self.0 as usize) < SQUARES && HILLS & self.bit() != 0
    }

    /// The one-hill set; empty for [`Hill::UNKNOWN`].
    pub fn bit(self) -> u64 {
        if (self.0 as usize) < SQUARES {
            1 << self.0
        } else {
            0
        }
    }

    /// The hill's column, 0 for `A` to 6 for `G`.
    pub fn col(self) -> u8 {
        self.0 % SIZE
    }

    /// The hill's row, 0 for `1` to 6 for `7`.
    pub fn row(self) -> u8 {
        self.0 / SIZE
    }

    /// The hills orthogonally adjacent (T1).
    pub fn neighbours(self) -> u64 {
        NEIGHBOURS.get(self.0 as usize).copied().unwrap_or(0)
    }

    /// The hills a knight's move away (T4).
    pub fn knight_targets(self) -> u64 {
        KNIGHT.get(self.0 as usize).copied().unwrap_or(0)
    }

    /// Reads `D7` (either case) as a grid square; corners are read too, so that the caller can
    /// say they do not exist.
    pub fn parse_square(text: &str) -> Option<Hill> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let col = bytes[0].to_ascii_uppercase().wrapping_sub(b'A');
        let row = bytes[1].wrapping_sub(b'1');
        // `then`, not `then_some`: the product overflows for the rows and columns refused here.
        (col < SIZE && row < SIZE).then(|| Hill(col + SIZE * row))
    }

    /// Reads the name of an existing hill.
    pub fn parse(text: &str) -> Option<Hill> {
        Hill::parse_square(text).filter(|h| h.exists())
    }

    /// The lowest hill of a non-empty set.
    pub fn first_of(set: u64) -> Hill {
        Hill(set.trailing_zeros() as u8)
    }
}

impl fmt::Display for Hill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if (self.0 as usize) < SQUARES {
            write!(f, "{}{}", (b'A' + self.col()) as char, self.row() + 1)
        } else {
            f.write_str("?")
        }
    }
}

impl Serialize for Hill {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Hill {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(Hill::parse_square(&text).unwrap_or(Hill::UNKNOWN))
    }
}

/// Iterates over the hills of a set, lowest first.
pub fn hills_of(mut set: u64) -> impl Iterator<Item = Hill> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let hill = Hill::first_of(set);
            set &= set - 1;
            hill
        })
    })
}

/// Every hill orthogonally adjacent to some hill of `set`.
pub fn spread(set: u64) -> u64 {
    const NOT_A: u64 = HILLS & column_mask_excluding(0);
    const NOT_G: u64 = HILLS & column_mask_excluding(6);
    (((set << 1) & NOT_A) | ((set >> 1) & NOT_G) | (set << 7) | (set >> 7)) & HILLS
}

/// The squares not in column `col`.
const fn column_mask_excluding(col: u8) -> u64 {
    let mut mask = (1u64 << 49) - 1;
    let mut row = 0;
    while row < SIZE {
        mask &= !(1 << (col + SIZE * row));
        row += 1;
    }
    mask
}

/// The orthogonally connected groups (kingdoms, T7) of a set of hills.
pub fn groups(mut set: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let mut group = set & set.wrapping_neg();
            loop {
                let grown = (group | spread(group)) & set;
                if grown == group {
                    break;
                }
                group = grown;
            }
            set &= !group;
            group
        })
    })
}

const fn table(steps: &[(i8, i8)]) -> [u64; SQUARES] {
    let mut out = [0u64; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        if HILLS & (1 << sq) != 0 {
            let col = (sq % 7) as i8;
            let row = (sq / 7) as i8;
            let mut i = 0;
            while i < steps.len() {
                let (dc, dr) = steps[i];
                let (c, r) = (col + dc, row + dr);
                if c >= 0 && c < 7 && r >= 0 && r < 7 {
                    out[sq] |= (1u64 << (c + 7 * r)) & HILLS;
                }
                i += 1;
            }
        }
        sq += 1;
    }
    out
}

/// Orthogonal neighbours of each square that exist.
pub const NEIGHBOURS: [u64; SQUARES] = table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
/// Knight targets of each square that exist.
pub const KNIGHT: [u64; SQUARES] = table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

#[cfg(test)]
mod tests {
    use super::*;

    fn h(name: &str) -> Hill {
        Hill::parse(name).unwrap()
    }

    fn set(names: &[&str]) -> u64 {
        names.iter().map(|n| h(n).bit()).fold(0, |a, b| a | b)
    }

    #[test]
    fn t1_board_has_45_hills_without_the_corners() {
        assert_eq!(HILLS.count_ones(), HILL_COUNT);
        for corner in ["A1", "A7", "G1", "G7"] {
            assert_eq!(Hill::parse(corner), None, "{corner}");
            assert!(Hill::parse_square(corner).is_some());
        }
        assert_eq!(Hill::parse("H1"), None);
        assert_eq!(Hill::parse("d4"), Some(h("D4")));
        for hill in hills_of(HILLS) {
            assert_eq!(Hill::parse(&hill.to_string()), Some(hill));
        }
    }

    #[test]
    fn t1_neighbours_are_orthogonal_and_stop_at_missing_corners() {
        assert_eq!(h("D4").neighbours(), set(&["C4", "E4", "D3", "D5"]));
        assert_eq!(h("B1").neighbours(), set(&["C1", "B2"]));
        assert_eq!(h("A2").neighbours(), set(&["A3", "B2"]));
        assert_eq!(h("G4").neighbours(), set(&["G3", "G5", "F4"]));
    }

    #[test]
    fn t4_knight_moves_at_the_edge_and_near_the_missing_corners() {
        assert_eq!(h("D4").knight_targets().count_ones(), 8);
        assert_eq!(h("B2").knight_targets(), set(&["A4", "C4", "D3", "D1"]));
        // B3 could reach A1 and A5: A1 is a missing corner.
        assert_eq!(
            h("B3").knight_targets(),
            set(&["A5", "C5", "D4", "D2", "C1"])
        );
        // C6 would reach the missing A7.
        assert_eq!(
            h("C6").knight_targets(),
            set(&["A5", "B4", "D4", "E5", "E7"])
        );
        // On the edge: G4 has four targets.
        assert_eq!(h("G4").knight_targets(), set(&["F6", "E5", "E3", "F2"]));
        // B1 next to the missing corner: A3, C3, D2.
        assert_eq!(h("B1").knight_targets(), set(&["A3", "C3", "D2"]));
    }

    #[test]
    fn t7_groups_are_orthogonally_connected() {
        let kingdoms: Vec<u64> = groups(set(&["B2", "B3", "C3", "E5", "F6", "F5", "A2"])).collect();
        assert_eq!(kingdoms.len(), 2);
        assert!(kingdoms.contains(&set(&["E5", "F5", "F6"])));
        assert!(kingdoms.contains(&set(&["A2", "B2", "B3", "C3"])));
        // Diagonal hills are separate kingdoms.
        assert_eq!(groups(set(&["B2", "C3"])).count(), 2);
        // Spread never wraps across the board's sides.
        assert_eq!(spread(h("G3").bit()), set(&["G2", "G4", "F3"]));
        assert_eq!(spread(h("A3").bit()), set(&["A2", "A4", "B3"]));
    }
}
