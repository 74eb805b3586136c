//! [`HillList`]: a list of hills in the order the pieces arrived, kept inline (no allocation,
//! so a state copies as one block) together with its bitboard, which every change keeps in
//! step: the engine reads the set, clients and `validate` the list.

use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::geometry::Hill;

/// The most entries a list holds: more than the 45 hills, so a list read from outside with a
/// repeated or unknown entry still reaches `validate`, which names the entry. A longer list
/// cannot be a state (it repeats a square) and is refused when read.
pub const CAPACITY: usize = 64;

/// Hills in arrival order, with their set. Dereferences to the slice of entries; changes go
/// through the methods, which keep the set in step.
#[derive(Clone, Copy)]
pub struct HillList {
    /// Every entry's [`Hill::bit`] (names that are no square add none).
    set: u64,
    len: u8,
    hills: [Hill; CAPACITY],
}

impl HillList {
    /// The empty list.
    pub const fn new() -> HillList {
        HillList {
            set: 0,
            len: 0,
            hills: [Hill::UNKNOWN; CAPACITY],
        }
    }

    /// The hills of the list as a bitboard.
    #[inline(always)]
    pub fn set(&self) -> u64 {
        self.set
    }

    /// Adds a hill at the end. A full list (never a state's: a colour has 30 ringforts and 3
    /// kings) keeps its entries.
    #[inline]
    pub fn push(&mut self, hill: Hill) {
        debug_assert!((self.len as usize) < CAPACITY, "a hill list is full");
        if let Some(slot) = self.hills.get_mut(self.len as usize) {
            *slot = hill;
            self.len += 1;
            self.set |= hill.bit();
        }
    }

    /// Removes every entry of `hill`, keeping the order of the others.
    #[inline]
    pub fn remove(&mut self, hill: Hill) {
        self.retain(|h| *h != hill);
    }

    /// Keeps the entries for which `keep` holds, in order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(&Hill) -> bool) {
        let mut kept = 0;
        for i in 0..self.len as usize {
            let hill = self.hills[i];
            if keep(&hill) {
                self.hills[kept] = hill;
                kept += 1;
            }
        }
        self.len = kept as u8;
        self.resync();
    }

    /// Puts `new` in place of the first entry of `old`, if any.
    #[inline]
    pub fn replace(&mut self, old: Hill, new: Hill) {
        if let Some(entry) = self.hills[..self.len as usize]
            .iter_mut()
            .find(|h| **h == old)
        {
            *entry = new;
            self.resync();
        }
    }

    /// Empties the list, returning what it held.
    #[inline]
    pub fn take(&mut self) -> HillList {
        std::mem::take(self)
    }

    fn resync(&mut self) {
        self.set = self.iter().fold(0, |set, hill| set | hill.bit());
    }
}

impl Default for HillList {
    fn default() -> Self {
        HillList::new()
    }
}

impl Deref for HillList {
    type Target = [Hill];
    #[inline(always)]
    fn deref(&self) -> &[Hill] {
        &self.hills[..self.len as usize]
    }
}

impl PartialEq for HillList {
    fn eq(&self, other: &HillList) -> bool {
        **self == **other
    }
}

impl Eq for HillList {}

impl fmt::Debug for HillList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Hill> for HillList {
    fn from_iter<I: IntoIterator<Item = Hill>>(iter: I) -> Self {
        let mut list = HillList::new();
        for hill in iter {
            list.push(hill);
        }
        list
    }
}

impl From<Vec<Hill>> for HillList {
    fn from(hills: Vec<Hill>) -> Self {
        hills.into_iter().collect()
    }
}

impl<'a> IntoIterator for &'a HillList {
    type Item = &'a Hill;
    type IntoIter = std::slice::Iter<'a, Hill>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Serialize for HillList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for HillList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let hills = Vec::<Hill>::deserialize(deserializer)?;
        if hills.len() > CAPACITY {
            return Err(serde::de::Error::custom(format!(
                "{} entries: a list of hills has at most {CAPACITY} (45 hills, each once)",
                hills.len()
            )));
        }
        Ok(hills.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(name: &str) -> Hill {
        Hill::parse(name).unwrap()
    }

    #[test]
    fn t2_the_set_follows_every_change_and_the_order_is_kept() {
        let mut list: HillList = vec![h("D4"), h("B2"), h("C3")].into();
        assert_eq!(list.set(), h("D4").bit() | h("B2").bit() | h("C3").bit());
        list.replace(h("B2"), h("E5"));
        assert_eq!(&*list, &[h("D4"), h("E5"), h("C3")]);
        list.remove(h("D4"));
        list.push(Hill::UNKNOWN);
        assert_eq!(&*list, &[h("E5"), h("C3"), Hill::UNKNOWN]);
        assert_eq!(list.set(), h("E5").bit() | h("C3").bit());
        let taken = list.take();
        assert_eq!((list.len(), list.set(), taken.len()), (0, 0, 3));
    }

    #[test]
    fn t2_a_list_reads_and_writes_as_json_names_and_an_overlong_one_is_refused() {
        let list: HillList = serde_json::from_str(r#"["D4","b2","A1","Z9"]"#).unwrap();
        assert_eq!(&list[..2], &[h("D4"), h("B2")]);
        assert_eq!(list.len(), 4, "corners and unknown names stay for validate");
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            r#"["D4","B2","A1","?"]"#
        );
        let long = format!("[{}]", vec![r#""D4""#; CAPACITY + 1].join(","));
        let err = serde_json::from_str::<HillList>(&long).unwrap_err();
        assert!(err.to_string().contains("at most 64"), "{err}");
    }
}
