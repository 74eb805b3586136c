//! A slow, direct reference for F1–F3 and F6: a grid of (row, column) cells, scanned step by
//! step along the three lines. It shares no geometry with the engine: it learns which engine
//! point each cell is only through the point's F1 name, once per board size.

use crate::herfor::geometry::{Bits, parse_point};
use crate::herfor::{Colour, HerforState};

/// A run of cells, closest to the placed stone first.
type Run = Vec<(i32, i32)>;

const LINES: [(i32, i32); 3] = [(0, 1), (1, 0), (1, 1)];

pub struct RefBoard {
    radius: i32,
    cells: [[Option<Colour>; 13]; 13],
    /// The engine's point index of each cell, found through its name.
    index: [[u8; 13]; 13],
    /// The cells of the board, and the cell of each engine point.
    cells_on_board: Vec<(i32, i32)>,
    cell_of: [(i32, i32); 128],
}

impl RefBoard {
    /// An empty board of this size.
    pub fn new(size: u8) -> Self {
        let radius = i32::from(size) - 1;
        let n = 2 * radius + 1;
        let mut board = RefBoard {
            radius,
            cells: [[None; 13]; 13],
            index: [[u8::MAX; 13]; 13],
            cells_on_board: Vec::new(),
            cell_of: [(-1, -1); 128],
        };
        let on_board: Vec<(i32, i32)> = (0..n)
            .flat_map(|k| (0..n).map(move |c| (k, c)))
            .filter(|&(k, c)| board.on(k, c))
            .collect();
        for &(k, c) in &on_board {
            let p = parse_point(size, &board.name(k, c)).unwrap().0;
            board.index[k as usize][c as usize] = p;
            board.cell_of[p as usize] = (k, c);
        }
        board.cells_on_board = on_board;
        board
    }

    /// Loads the stones of a state.
    pub fn load(&mut self, state: &HerforState) {
        for i in 0..self.cells_on_board.len() {
            let (k, c) = self.cells_on_board[i];
            let bit = 1u128 << self.index[k as usize][c as usize];
            self.cells[k as usize][c as usize] = Colour::BOTH
                .into_iter()
                .find(|&col| state.stones(col) & bit != 0);
        }
        let total =
            state.stones(Colour::Black).count_ones() + state.stones(Colour::White).count_ones();
        let seen = self
            .points()
            .iter()
            .filter(|&&(k, c)| self.cells[k as usize][c as usize].is_some())
            .count();
        assert_eq!(seen as u32, total, "stones off the reference board");
    }

    fn on(&self, k: i32, c: i32) -> bool {
        let r = self.radius;
        k >= 0 && c >= 0 && k <= 2 * r && c <= 2 * r && (c - k).abs() <= r
    }

    /// Row letter from the bottom, number from the left within the row.
    pub fn name(&self, k: i32, c: i32) -> String {
        format!(
            "{}{}",
            (b'a' + k as u8) as char,
            c - (k - self.radius).max(0) + 1
        )
    }

    fn bit(&self, (k, c): (i32, i32)) -> Bits {
        1u128 << self.index[k as usize][c as usize]
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

    /// The cell of an engine point.
    pub fn cell(&self, index: u8) -> (i32, i32) {
        self.cell_of[index as usize]
    }

    /// Whether an enemy stone lies just past the mover's run from (k, c) in direction (dk, dc).
    fn enemy_beyond(&self, k: i32, c: i32, (dk, dc): (i32, i32), mover: Colour) -> bool {
        let (mut k, mut c) = (k + dk, c + dc);
        while self.get(k, c) == Some(mover) {
            k += dk;
            c += dc;
        }
        self.get(k, c) == Some(mover.other())
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
        !touches
            || LINES.iter().any(|&(dk, dc)| {
                self.enemy_beyond(k, c, (dk, dc), mover)
                    && self.enemy_beyond(k, c, (-dk, -dc), mover)
            })
    }

    /// The legal placements of `mover`, as engine points.
    pub fn legal_set(&self, mover: Colour) -> Bits {
        self.points()
            .iter()
            .filter(|&&(k, c)| self.legal(k, c, mover))
            .map(|&p| self.bit(p))
            .fold(0, |a, b| a | b)
    }

    /// The stones a placement at (k, c) flips, as engine points.
    pub fn flips(&self, k: i32, c: i32, mover: Colour, simple: bool) -> Bits {
        let mut out = 0;
        for (a, b) in self.invasions(k, c, mover) {
            let n = if simple {
                a.len().min(b.len())
            } else {
                usize::MAX
            };
            for &cell in a.iter().take(n).chain(b.iter().take(n)) {
                out |= self.bit(cell);
            }
        }
        out
    }
}
