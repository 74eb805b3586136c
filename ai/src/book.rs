//! The opening book of Herfor size 3: the proven result of every position within the first
//! plies of a game, under each set of rules (plain, pie, simple, both), computed offline by
//! `moot-lab solve --size 3 --book FILE` and committed as `herfor3.book`. A request's proof is
//! bounded ([`perfect`](super::perfect)), and the opening is beyond that bound (the empty
//! board's proof settles 11 million positions); with the book's answers taken as proven, the
//! positions just past it are within the bound (the `--book` command checks those).
//!
//! The format: 16-byte little-endian records sorted by the position's [`key_of`], the result
//! (whether the player to act wins) in the top bit, which keys never use.

use std::collections::HashSet;

use super::solver::{Key, Solver, key_of};
use moot_games::herfor::{Herfor, HerforOptions, HerforState};
use moot_games::{Game, Turn};

/// The book of Herfor size 3, and the plies from the start it covers (it was written with
/// these: 5150 positions, every one up to 3 plies in).
pub static HERFOR_3: &[u8] = include_bytes!("herfor3.book");
/// The plies from the start [`HERFOR_3`] covers; the depth `moot-lab solve --book` writes
/// unless told otherwise.
pub const BOOK_PLIES: usize = 3;

const RECORD: usize = 16;
const WINS: u128 = 1 << 127;

/// Every set of rules: (pie, simple).
pub const RULES: [(bool, bool); 4] = [(false, false), (true, false), (false, true), (true, true)];

/// Whether the player to act wins in the position with this key, if `book` holds it.
pub fn lookup(book: &[u8], key: Key) -> Option<bool> {
    let record = |i: usize| {
        let bytes: [u8; RECORD] = book[i * RECORD..(i + 1) * RECORD]
            .try_into()
            .expect("a whole record");
        u128::from_le_bytes(bytes)
    };
    let (mut low, mut high) = (0, book.len() / RECORD);
    while low < high {
        let middle = (low + high) / 2;
        let found = record(middle);
        match (found & !WINS).cmp(&key) {
            std::cmp::Ordering::Less => low = middle + 1,
            std::cmp::Ordering::Greater => high = middle,
            std::cmp::Ordering::Equal => return Some(found & WINS != 0),
        }
    }
    None
}

/// The positions (still to be played) of each set of rules on boards of `size`, by how many
/// plies from the start they are first reached (index 0: the starts), up to `plies`; each
/// position once, at its shallowest.
pub fn positions_by_ply(size: u8, plies: usize) -> Result<Vec<Vec<HerforState>>, String> {
    let mut seen = HashSet::new();
    let mut levels = vec![Vec::new(); plies + 1];
    for (pie, simple) in RULES {
        let options = HerforOptions { size, pie, simple };
        let of_rules = positions_of(&options, plies, &mut seen)?;
        for (level, more) in levels.iter_mut().zip(of_rules) {
            level.extend(more);
        }
    }
    Ok(levels)
}

/// [`positions_by_ply`] under one set of rules, leaving out those in `seen` (and adding the
/// others to it).
fn positions_of(
    options: &HerforOptions,
    plies: usize,
    seen: &mut HashSet<Key>,
) -> Result<Vec<Vec<HerforState>>, String> {
    let mut frontier = vec![Herfor::new_game(options).map_err(|e| e.to_string())?];
    let mut levels = Vec::new();
    for _ in 0..=plies {
        let mut level = Vec::new();
        let mut next = Vec::new();
        for state in frontier {
            if !matches!(Herfor::turn(&state), Turn::ToAct(_)) || !seen.insert(key_of(&state)) {
                continue;
            }
            for mv in Herfor::legal_moves(&state) {
                let mut after = state.clone();
                Herfor::play_unchecked(&mut after, &mv);
                next.push(after);
            }
            level.push(state);
        }
        levels.push(level);
        frontier = next;
    }
    Ok(levels)
}

/// The book of every position within `plies` plies of each start of boards of `size`, each
/// proven by an unbounded solver (one set of rules at a time: its table is what costs memory).
pub fn build(size: u8, plies: usize) -> Result<Vec<u8>, String> {
    let mut records: Vec<u128> = Vec::new();
    let mut seen = HashSet::new();
    for (pie, simple) in RULES {
        let options = HerforOptions { size, pie, simple };
        let mut solver = Solver::new();
        // Shallowest first: the start's proof settles most of what the others need.
        for state in positions_of(&options, plies, &mut seen)?
            .into_iter()
            .flatten()
        {
            let wins = solver.wins(&state);
            records.push(key_of(&state) | if wins { WINS } else { 0 });
        }
    }
    records.sort_unstable_by_key(|r| r & !WINS);
    Ok(records.iter().flat_map(|r| r.to_le_bytes()).collect())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;

    use super::*;

    #[test]
    fn a_book_answers_what_it_holds_and_nothing_else() {
        let entries: [u128; 3] = [3, 7 | WINS, 12];
        let book: Vec<u8> = entries.iter().flat_map(|r| r.to_le_bytes()).collect();
        let book: &'static [u8] = Box::leak(book.into_boxed_slice());
        assert_eq!(lookup(book, 3), Some(false));
        assert_eq!(lookup(book, 7), Some(true));
        assert_eq!(lookup(book, 12), Some(false));
        for missing in [0, 5, 8, 13, u128::MAX >> 1] {
            assert_eq!(lookup(book, missing), None);
        }
        assert_eq!(lookup(&[], 3), None);
    }

    #[test]
    fn f4_the_committed_book_holds_the_size_3_openings() {
        // Every start and every position after one ply, under each set of rules.
        let levels = positions_by_ply(3, 1).expect("size 3 is a board");
        for state in levels.iter().flatten() {
            assert!(
                lookup(HERFOR_3, key_of(state)).is_some(),
                "{}",
                serde_json::to_string(state).unwrap()
            );
        }
        // F5: with the pie rule the second player wins; F4, plain: the first.
        let starts = &levels[0];
        let plain = starts.iter().find(|s| s.options() == rules(false, false));
        let pie = starts.iter().find(|s| s.options() == rules(true, false));
        assert_eq!(lookup(HERFOR_3, key_of(plain.unwrap())), Some(true));
        assert_eq!(lookup(HERFOR_3, key_of(pie.unwrap())), Some(false));
    }

    #[test]
    fn f4_the_book_agrees_with_the_solver_on_sampled_positions() {
        // The deepest positions of the book, where a solver without it proves each quickly
        // (the shallow ones take millions of positions): sampled, under each set of rules.
        let levels = positions_by_ply(3, BOOK_PLIES).expect("size 3 is a board");
        let deepest = levels.last().expect("levels");
        let mut rng = SmallRng::seed_from_u64(4);
        let mut solver = Solver::new();
        for state in deepest.choose_multiple(&mut rng, 6) {
            assert_eq!(
                lookup(HERFOR_3, key_of(state)),
                Some(solver.wins(state)),
                "{}",
                serde_json::to_string(state).unwrap()
            );
        }
    }

    fn rules(pie: bool, simple: bool) -> HerforOptions {
        HerforOptions {
            size: 3,
            pie,
            simple,
        }
    }
}
