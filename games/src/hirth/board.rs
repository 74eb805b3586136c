//! The board of H1: eleven spaces, one adjacency table, the two colours.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A space, by its index in board order `0 1 2 3 4 m 5 6 7 8 9` (the order of battle notes, H12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Space(u8);

/// The notation name of each space, in board order.
const NAMES: [char; 11] = ['0', '1', '2', '3', '4', 'm', '5', '6', '7', '8', '9'];

/// H1: the single adjacency table (indices in board order). Two lanes, 0-1-3-5-7-9 and
/// 0-2-4-6-8-9, joined by Miðr.
const ADJACENT: [&[u8]; 11] = [
    &[1, 2],       // 0
    &[0, 3],       // 1
    &[0, 4],       // 2
    &[1, 5, 6],    // 3: 1 m 5
    &[2, 5, 7],    // 4: 2 m 6
    &[3, 4, 6, 7], // m: 3 4 5 6
    &[3, 5, 8],    // 5: 3 m 7
    &[4, 5, 9],    // 6: 4 m 8
    &[6, 10],      // 7: 5 9
    &[7, 10],      // 8: 6 9
    &[8, 9],       // 9: 7 8
];

/// [`ADJACENT`] as fixed arrays, each with its length: step generation copies from these.
const NEIGHBOURS: [([Space; 4], u8); 11] = {
    let mut out = [([Space(0); 4], 0u8); 11];
    let mut i = 0;
    while i < 11 {
        let mut j = 0;
        while j < ADJACENT[i].len() {
            out[i].0[j] = Space(ADJACENT[i][j]);
            j += 1;
        }
        out[i].1 = j as u8;
        i += 1;
    }
    out
};

impl Space {
    /// How many spaces the board has: eleven (H1).
    pub const COUNT: usize = 11;
    /// Miðr, the centre space where a beaten L with no retreat is killed (H7, H9).
    pub const MIDR: Space = Space(5);
    /// The archipelago: the five middle spaces of Yfirráð (H9).
    pub const MIDDLE: [Space; 5] = [Space(3), Space(4), Space(5), Space(6), Space(7)];

    /// Every space, in board order.
    #[inline]
    pub fn all() -> impl Iterator<Item = Space> {
        (0..Self::COUNT as u8).map(Space)
    }

    /// The space's place in board order, 0 (Gull home) to 10 (Silfr home): an index into per-space
    /// arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The space at that place in board order; `None` from 11 on.
    #[inline]
    pub fn from_index(index: usize) -> Option<Space> {
        (index < Self::COUNT).then_some(Space(index as u8))
    }

    /// The space's name in the notation (H12): `0`–`9` or `m`.
    pub fn name(self) -> char {
        NAMES[self.index()]
    }

    /// The space with that notation name (`0`–`9` or `m`), if any.
    pub fn from_name(c: char) -> Option<Space> {
        NAMES.iter().position(|&n| n == c).map(|i| Space(i as u8))
    }

    /// The adjacent spaces (H1), in board order.
    #[inline]
    pub fn neighbours(self) -> impl Iterator<Item = Space> {
        self.neighbour_list().iter().copied()
    }

    /// The adjacent spaces, in board order.
    #[inline]
    pub fn neighbour_list(self) -> &'static [Space] {
        let (spaces, n) = &NEIGHBOURS[self.index()];
        &spaces[..*n as usize]
    }

    /// Whether the two spaces are adjacent (H1).
    #[inline]
    pub fn is_adjacent(self, other: Space) -> bool {
        ADJACENT[self.index()].contains(&other.0)
    }

    /// Whether this is a home space, Gull's `0` or Silfr's `9`: the only spaces where several Ks
    /// may stay (H8).
    #[inline]
    pub fn is_home(self) -> bool {
        self == Colour::Gull.home() || self == Colour::Silfr.home()
    }
}

impl Serialize for Space {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(self.name())
    }
}

impl<'de> Deserialize<'de> for Space {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let mut chars = text.chars();
        match (chars.next().and_then(Space::from_name), chars.next()) {
            (Some(space), None) => Ok(space),
            _ => Err(serde::de::Error::custom(format!(
                "{text:?} is not a space (0-9 or m)"
            ))),
        }
    }
}

#[cfg(feature = "schema")]
impl utoipa::PartialSchema for Space {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(NAMES.iter().map(|c| c.to_string())))
            .description(Some("A space of the board (H1): 0-9 or m"))
            .into()
    }
}

#[cfg(feature = "schema")]
impl utoipa::ToSchema for Space {
    fn name() -> std::borrow::Cow<'static, str> {
        "HirthSpace".into()
    }
}

/// A player's colour in one game (H2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "schema", schema(as = HirthColour))]
pub enum Colour {
    /// The player with the gold pieces, home space `0`; Gull starts each game (H11).
    Gull,
    /// The player with the silver pieces, home space `9`.
    Silfr,
}

impl Colour {
    /// Both colours, Gull first: the order of [`Colour::index`].
    pub const BOTH: [Colour; 2] = [Colour::Gull, Colour::Silfr];

    /// The opponent's colour.
    #[inline]
    pub fn other(self) -> Colour {
        match self {
            Colour::Gull => Colour::Silfr,
            Colour::Silfr => Colour::Gull,
        }
    }

    /// 0 for Gull, 1 for Silfr: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour's home space, where its L starts and its pieces enter (H2, H3).
    #[inline]
    pub fn home(self) -> Space {
        match self {
            Colour::Gull => Space(0),
            Colour::Silfr => Space(10),
        }
    }

    /// The colour's letter in the notation (H12).
    pub fn letter(self) -> char {
        match self {
            Colour::Gull => 'G',
            Colour::Silfr => 'S',
        }
    }

    /// The colour with that notation letter, `G` or `S` (H12).
    pub fn from_letter(c: char) -> Option<Colour> {
        match c {
            'G' => Some(Colour::Gull),
            'S' => Some(Colour::Silfr),
            _ => None,
        }
    }

    /// The colour's name in the JSON form and in words (`gull`).
    pub fn word(self) -> &'static str {
        match self {
            Colour::Gull => "gull",
            Colour::Silfr => "silfr",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h1_adjacency_is_symmetric_and_names_round_trip() {
        for a in Space::all() {
            assert_eq!(Space::from_name(a.name()), Some(a));
            for b in a.neighbours() {
                assert!(b.is_adjacent(a), "{} -> {}", a.name(), b.name());
                assert_ne!(a, b);
            }
        }
        let m = Space::MIDR;
        let names: String = m.neighbours().map(Space::name).collect();
        assert_eq!(names, "3456");
    }
}
