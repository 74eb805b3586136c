//! The Karves of one group, stored inline: a colour has three (H2), so copying a position (what
//! the H8 look-ahead and the search do most) is a plain copy. Serialised as a plain list.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::state::Karve;

/// Karves one group can hold: a colour has three (H2); a received state with four to six in a
/// place is read, and `validate` refuses it; more are refused when read.
pub const CAPACITY: usize = 6;

const NONE: Karve = Karve {
    crew: 0,
    stopped: false,
};

/// A list of Karves held inline (`Copy`: a position copies without allocating), that behaves
/// as a slice (`Deref<Target = [Karve]>`).
#[derive(Clone, Copy)]
pub struct Karves {
    len: u8,
    items: [Karve; CAPACITY],
}

impl Default for Karves {
    fn default() -> Self {
        Karves::new()
    }
}

impl Karves {
    /// The empty list.
    #[inline]
    pub const fn new() -> Self {
        Karves {
            len: 0,
            items: [NONE; CAPACITY],
        }
    }

    /// Adds a Karve (panics past [`CAPACITY`]: the rules never put more than three together).
    #[inline]
    pub fn push(&mut self, karve: Karve) {
        assert!(
            (self.len as usize) < CAPACITY,
            "more than {CAPACITY} Karves in one place"
        );
        self.items[self.len as usize] = karve;
        self.len += 1;
    }

    /// How many (read without making a slice, as the step generation does for every space).
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the list holds no Karve.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Frees every Karve (the end of a turn, H4): all the slots at once, without a branch on
    /// how many are in use (the unused ones are never read).
    #[inline]
    pub fn free_all(&mut self) {
        for k in &mut self.items {
            k.stopped = false;
        }
    }

    /// Puts a Karve at `index`, moving the later ones up (panics past [`CAPACITY`] or when
    /// `index` is beyond the end, as `Vec::insert`).
    #[inline]
    pub fn insert(&mut self, index: usize, karve: Karve) {
        let n = self.len as usize;
        assert!(n < CAPACITY, "more than {CAPACITY} Karves in one place");
        assert!(index <= n, "Karve index {index} out of range");
        // Element by element: `copy_within` calls `memmove` for a few bytes.
        for i in (index..n).rev() {
            self.items[i + 1] = self.items[i];
        }
        self.items[index] = karve;
        self.len += 1;
    }

    /// Removes and returns the Karve at `index` (panics when out of range, as `Vec::remove`).
    #[inline]
    pub fn remove(&mut self, index: usize) -> Karve {
        let n = self.len as usize;
        assert!(index < n, "Karve index {index} out of range");
        let karve = self.items[index];
        for i in index..n - 1 {
            self.items[i] = self.items[i + 1];
        }
        self.items[n - 1] = NONE;
        self.len -= 1;
        karve
    }
}

impl Deref for Karves {
    type Target = [Karve];

    #[inline]
    fn deref(&self) -> &[Karve] {
        // `min`: `len` never passes the capacity, and saying so spares a check on every use.
        &self.items[..(self.len as usize).min(CAPACITY)]
    }
}

impl DerefMut for Karves {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Karve] {
        &mut self.items[..(self.len as usize).min(CAPACITY)]
    }
}

impl<'a> IntoIterator for &'a Karves {
    type Item = &'a Karve;
    type IntoIter = std::slice::Iter<'a, Karve>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Karves {
    type Item = &'a mut Karve;
    type IntoIter = std::slice::IterMut<'a, Karve>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// A list built by hand (tests): at most [`CAPACITY`] Karves.
impl From<Vec<Karve>> for Karves {
    fn from(all: Vec<Karve>) -> Self {
        let mut karves = Karves::new();
        for k in all {
            karves.push(k);
        }
        karves
    }
}

impl PartialEq for Karves {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl Eq for Karves {}

impl PartialEq<Vec<Karve>> for Karves {
    fn eq(&self, other: &Vec<Karve>) -> bool {
        self[..] == other[..]
    }
}

impl Hash for Karves {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self[..].hash(state);
    }
}

impl fmt::Debug for Karves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Karves {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self[..].serialize(s)
    }
}

impl<'de> Deserialize<'de> for Karves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let all = Vec::<Karve>::deserialize(d)?;
        if all.len() > CAPACITY {
            return Err(serde::de::Error::custom(format!(
                "a player has 3 Karves (H2): {} in one place",
                all.len()
            )));
        }
        Ok(Karves::from(all))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(crew: u8) -> Karve {
        Karve {
            crew,
            stopped: false,
        }
    }

    #[test]
    fn karves_behave_as_a_list() {
        let mut ks = Karves::new();
        let mut reference: Vec<Karve> = Vec::new();
        for crew in 0..CAPACITY as u8 {
            ks.push(k(crew));
            reference.push(k(crew));
            assert_eq!(ks, reference);
        }
        for i in [2, 0, 3, 0, 1, 0] {
            assert_eq!(ks.remove(i), reference.remove(i));
            assert_eq!(ks, reference);
        }
        assert!(ks.is_empty());
        assert_eq!(ks.len(), 0);
        for (i, crew) in [(0, 1), (0, 2), (2, 3), (1, 4), (4, 0), (2, 1)] {
            ks.insert(i, k(crew));
            reference.insert(i, k(crew));
            assert_eq!(ks, reference);
            assert_eq!(ks.len(), reference.len());
        }
        // Freeing every slot frees the Karves in use and changes nothing else.
        ks[1].stopped = true;
        ks[4].stopped = true;
        ks.free_all();
        assert_eq!(ks, reference);
        let two = Karves::from(vec![k(0), k(2)]);
        let json = serde_json::to_string(&two).unwrap();
        assert_eq!(json, serde_json::to_string(&vec![k(0), k(2)]).unwrap());
        let back: Karves = serde_json::from_str(&json).unwrap();
        assert_eq!(back, two);
        // Past the capacity a received list is refused, not a panic.
        let many = serde_json::to_string(&vec![k(0); CAPACITY + 1]).unwrap();
        let err = serde_json::from_str::<Karves>(&many).unwrap_err();
        assert!(err.to_string().contains("3 Karves (H2)"), "{err}");
    }
}
