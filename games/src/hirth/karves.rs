//! The Karves of one group, stored inline: a colour has three (H2), so cloning a position (what
//! the H8 look-ahead and the search do most) allocates nothing. Serialised as a plain list.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::state::Karve;

/// Karves held inline; more (only in a crafted state, which `validate` refuses) spill to the heap.
const INLINE: usize = 3;

const NONE: Karve = Karve {
    crew: 0,
    stopped: false,
};

/// A list of Karves that behaves as a slice (`Deref<Target = [Karve]>`).
#[derive(Clone)]
pub enum Karves {
    Inline { len: u8, items: [Karve; INLINE] },
    Heap(Vec<Karve>),
}

impl Default for Karves {
    fn default() -> Self {
        Karves::new()
    }
}

impl Karves {
    pub const fn new() -> Self {
        Karves::Inline {
            len: 0,
            items: [NONE; INLINE],
        }
    }

    pub fn push(&mut self, karve: Karve) {
        match self {
            Karves::Inline { len, items } if (*len as usize) < INLINE => {
                items[*len as usize] = karve;
                *len += 1;
            }
            Karves::Inline { len, items } => {
                let mut all = items[..*len as usize].to_vec();
                all.push(karve);
                *self = Karves::Heap(all);
            }
            Karves::Heap(all) => all.push(karve),
        }
    }

    /// Removes and returns the Karve at `index` (panics when out of range, as `Vec::remove`).
    pub fn remove(&mut self, index: usize) -> Karve {
        match self {
            Karves::Inline { len, items } => {
                let n = *len as usize;
                assert!(index < n, "Karve index {index} out of range");
                let karve = items[index];
                items.copy_within(index + 1..n, index);
                items[n - 1] = NONE;
                *len -= 1;
                karve
            }
            Karves::Heap(all) => all.remove(index),
        }
    }
}

impl Deref for Karves {
    type Target = [Karve];

    fn deref(&self) -> &[Karve] {
        match self {
            Karves::Inline { len, items } => &items[..*len as usize],
            Karves::Heap(all) => all,
        }
    }
}

impl DerefMut for Karves {
    fn deref_mut(&mut self) -> &mut [Karve] {
        match self {
            Karves::Inline { len, items } => &mut items[..*len as usize],
            Karves::Heap(all) => all,
        }
    }
}

impl<'a> IntoIterator for &'a Karves {
    type Item = &'a Karve;
    type IntoIter = std::slice::Iter<'a, Karve>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Karves {
    type Item = &'a mut Karve;
    type IntoIter = std::slice::IterMut<'a, Karve>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl From<Vec<Karve>> for Karves {
    fn from(all: Vec<Karve>) -> Self {
        let mut karves = Karves::new();
        if all.len() > INLINE {
            return Karves::Heap(all);
        }
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
        Vec::<Karve>::deserialize(d).map(Karves::from)
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
    fn karves_behave_as_a_list_inline_or_spilled() {
        let mut ks = Karves::new();
        let mut reference: Vec<Karve> = Vec::new();
        for crew in 0..6 {
            ks.push(k(crew));
            reference.push(k(crew));
            assert_eq!(ks, reference);
        }
        assert!(matches!(ks, Karves::Heap(_)));
        for i in [2, 0, 3, 0, 1, 0] {
            assert_eq!(ks.remove(i), reference.remove(i));
            assert_eq!(ks, reference);
        }
        assert!(ks.is_empty());
        let mut inline = Karves::new();
        for crew in 0..3 {
            inline.push(k(crew));
        }
        assert!(matches!(inline, Karves::Inline { .. }));
        assert_eq!(inline.remove(1), k(1));
        assert_eq!(inline, vec![k(0), k(2)]);
        // Equal contents are equal (and hash alike) whatever the storage.
        let spilled = Karves::Heap(vec![k(0), k(2)]);
        assert_eq!(inline, spilled);
        let json = serde_json::to_string(&inline).unwrap();
        assert_eq!(json, serde_json::to_string(&vec![k(0), k(2)]).unwrap());
        let back: Karves = serde_json::from_str(&json).unwrap();
        assert_eq!(back, inline);
    }
}
