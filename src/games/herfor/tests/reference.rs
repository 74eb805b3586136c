//! A slow, direct reference for F1–F3 and F6: a grid of (row, column) cells read from point
//! names, scanned step by step along the three lines. It shares no code with the bitboards.

use std::collections::BTreeSet;

use crate::games::herfor::{Colour, HerforState};

/// A run of cells, closest to the placed stone first.
type Run = Vec<(i32, i32)>;

const LINES: [(i32, i32); 3] = [(0, 1), (1, 0), (1, 1)];

pub struct RefBoard {
    radius: i32,
    cells: [[Option<Colour>; 13]; 13],
}

impl RefBoard {
    pub fn from_state(state: &HerforState) -> Self {
        let mut board = RefBoard {
            radius: state.size() as i32 - 1,
            cells: [[None; 13]; 13],
        };
        for colour in Colour::BOTH {
            for name in state.stone_names(colour) {
                let (k, c) = board.coords(&name);
                assert!(board.on(k, c), "{name} off the reference board");
                board.cells[k as usize][c as usize] = Some(colour);
            }
        }
        board
    }

    fn on(&self, k: i32, c: i32) -> bool {
        let r = self.radius;
        k >= 0 && c >= 0 && k <= 2 * r && c <= 2 * r && (c - k).abs() <= r
    }

    /// Row letter from the bottom, number from the left within the row.
    pub fn coords(&self, name: &str) -> (i32, i32) {
        let k = i32::from(name.as_bytes()[0] - b'a');
        let number: i32 = name[1..].parse().unwrap();
        (k, number - 1 + (k - self.radius).max(0))
    }

    pub fn name(&self, k: i32, c: i32) -> String {
        format!(
            "{}{}",
            (b'a' + k as u8) as char,
            c - (k - self.radius).max(0) + 1
        )
    }

    fn get(&self, k: i32, c: i32) -> Option<Colour> {
        if self.on(k, c) {
            self.cells[k as usize][c as usize]
        } else {
            None
        }
    }

    pub fn points(&self) -> Vec<(i32, i32)> {
        let n = 2 * self.radius + 1;
        (0..n)
            .flat_map(|k| (0..n).map(move |c| (k, c)))
            .filter(|&(k, c)| self.on(k, c))
            .collect()
    }

    /// The enemy run met just past the mover's run from (k, c) in direction (dk, dc).
    fn enemy_run(&self, k: i32, c: i32, (dk, dc): (i32, i32), mover: Colour) -> Run {
        let (mut k, mut c) = (k + dk, c + dc);
        while self.get(k, c) == Some(mover) {
            k += dk;
            c += dc;
        }
        let mut run = Vec::new();
        while self.get(k, c) == Some(mover.other()) {
            run.push((k, c));
            k += dk;
            c += dc;
        }
        run
    }

    /// The two invaded phalanxes along each line, closest stone first.
    fn invasions(&self, k: i32, c: i32, mover: Colour) -> Vec<(Run, Run)> {
        LINES
            .iter()
            .map(|&(dk, dc)| {
                (
                    self.enemy_run(k, c, (dk, dc), mover),
                    self.enemy_run(k, c, (-dk, -dc), mover),
                )
            })
            .filter(|(a, b)| !a.is_empty() && !b.is_empty())
            .collect()
    }

    pub fn legal(&self, k: i32, c: i32, mover: Colour) -> bool {
        if self.get(k, c).is_some() {
            return false;
        }
        let touches = LINES
            .iter()
            .flat_map(|&(dk, dc)| [(dk, dc), (-dk, -dc)])
            .any(|(dk, dc)| self.get(k + dk, c + dc) == Some(mover));
        !touches || !self.invasions(k, c, mover).is_empty()
    }

    pub fn legal_names(&self, mover: Colour) -> BTreeSet<String> {
        self.points()
            .into_iter()
            .filter(|&(k, c)| self.legal(k, c, mover))
            .map(|(k, c)| self.name(k, c))
            .collect()
    }

    pub fn flips(&self, k: i32, c: i32, mover: Colour, simple: bool) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for (a, b) in self.invasions(k, c, mover) {
            let n = if simple {
                a.len().min(b.len())
            } else {
                usize::MAX
            };
            for &(k2, c2) in a.iter().take(n).chain(b.iter().take(n)) {
                out.insert(self.name(k2, c2));
            }
        }
        out
    }
}
