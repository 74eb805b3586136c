//! The search's hot path: a compact `Copy` position, its legal placements as one bit set to
//! sample from, and placements whose flips are computed once.
//!
//! A playout takes a [`Position`] from a state ([`HerforState::position`]), plays on it without
//! listing moves or allocating, and writes the end back ([`HerforState::set_position`]). The
//! moves and their effects are exactly those of [`Herfor`](super::Herfor)'s `apply`: the random
//! games of the tests check it ply by ply.

use rand::Rng;

use super::geometry::Point;
use super::rules;
use super::state::{Colour, HerforState};
use super::wide::{self, Wide, cell_of};

/// Random empty points [`Position::random_placement`] tries before it lists the legal ones.
const DRAWS_BEFORE_LISTING: u32 = 4;

/// A position of Herfor as the search plays it: the stones, the side to move, the pass and
/// swap state; `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// The stones of each colour, indexed by [`Colour::index`].
    stones: [Wide; 2],
    /// The empty points of the board.
    empty: Wide,
    to_move: Colour,
    button: Option<Colour>,
    passes_in_a_row: u8,
    /// The pie rule is on (F5).
    pie: bool,
    swapped: bool,
    simple: bool,
    moves_played: u32,
}

/// A legal placement of the mover's with the stones it flips, ready to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    cell: u8,
    flipped: Wide,
}

impl Placement {
    /// The point placed on.
    pub fn point(&self) -> Point {
        wide::point_of(self.cell)
    }

    /// How many enemy stones it flips (F3).
    pub fn flip_count(&self) -> u32 {
        self.flipped.count_ones()
    }
}

impl HerforState {
    /// The compact copy of this state for playouts.
    pub fn position(&self) -> Position {
        Position {
            stones: self.stones,
            empty: self.empty_cells(),
            to_move: self.to_move,
            button: self.button,
            passes_in_a_row: self.passes_in_a_row,
            pie: self.options.pie,
            swapped: self.swapped,
            simple: self.options.simple,
            moves_played: self.moves_played,
        }
    }

    /// Takes the stones, turn and counters of `position`, which must come from this state by
    /// playing (the options are not part of a position).
    pub fn set_position(&mut self, position: &Position) {
        self.stones = position.stones;
        self.to_move = position.to_move;
        self.button = position.button;
        self.passes_in_a_row = position.passes_in_a_row;
        self.swapped = position.swapped;
        self.moves_played = position.moves_played;
    }
}

impl Position {
    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Two passes in a row ended the game (F4).
    pub fn is_over(&self) -> bool {
        self.passes_in_a_row >= 2
    }

    /// The second player may swap instead of placing (F5).
    pub fn swap_available(&self) -> bool {
        self.pie && self.moves_played == 1 && !self.swapped
    }

    /// Two per stone of `colour`, one for the button (F4).
    pub fn doubled_score(&self, colour: Colour) -> u32 {
        2 * self.stones[colour.index()].count_ones() + u32::from(self.button == Some(colour))
    }

    /// The mover's legal placements (F3) as cells of the padded grid: pick one with
    /// [`Wide::nth`] and read it with [`placement`](Self::placement). Empty when the mover
    /// must pass (or the game is over).
    #[inline]
    pub fn placements(&self) -> Wide {
        if self.is_over() {
            return Wide::EMPTY;
        }
        let mover = self.to_move.index();
        rules::legal_placements(self.empty, self.stones[mover], self.stones[1 - mover])
    }

    /// A uniformly random legal placement of the mover's, `None` when it must pass (or the game
    /// is over). The swap is not among them. Draws random empty points and keeps the first
    /// legal one (a local test along three lines); only after a few misses does it build the
    /// whole legal set and draw from it. Either way each legal placement is equally likely.
    #[inline]
    pub fn random_placement(&self, rng: &mut impl Rng) -> Option<Placement> {
        let empty = self.empty.count_ones();
        if empty == 0 || self.is_over() {
            return None;
        }
        let mover = self.to_move.index();
        let (own, enemy) = (self.stones[mover], self.stones[1 - mover]);
        for _ in 0..DRAWS_BEFORE_LISTING {
            let cell = self.empty.nth(rng.random_range(0..empty))?;
            if rules::allowed_at(cell, own, enemy) {
                return Some(self.placement(cell));
            }
        }
        let legal = self.placements();
        let count = legal.count_ones();
        if count == 0 {
            return None;
        }
        legal
            .nth(rng.random_range(0..count))
            .map(|cell| self.placement(cell))
    }

    /// The placement of the mover's on `cell`, one of [`placements`](Self::placements).
    #[inline]
    pub fn placement(&self, cell: u8) -> Placement {
        let mover = self.to_move.index();
        let (own, enemy) = (self.stones[mover], self.stones[1 - mover]);
        Placement {
            cell,
            flipped: rules::flips_at(cell, own, enemy, self.simple),
        }
    }

    /// The placement on point `p` (see [`placement`](Self::placement)).
    pub fn placement_at(&self, p: Point) -> Placement {
        self.placement(cell_of(p))
    }

    /// Plays a placement read from this position.
    #[inline]
    pub fn place(&mut self, placement: Placement) {
        let mover = self.to_move.index();
        let stone = Wide::cell(placement.cell);
        self.stones[mover] |= stone | placement.flipped;
        self.stones[1 - mover] &= !placement.flipped;
        self.empty &= !stone;
        self.end_move();
        self.passes_in_a_row = 0;
    }

    /// Passes (F4), when there is no placement: the first pass gives the opponent the button.
    #[inline]
    pub fn pass(&mut self) {
        self.button = self.button.or(Some(self.to_move.other()));
        self.end_move();
        self.passes_in_a_row += 1;
    }

    /// Swaps (F5), when [`swap_available`](Self::swap_available): White stays to move.
    pub fn swap(&mut self) {
        self.swapped = true;
        self.moves_played += 1;
    }

    fn end_move(&mut self) {
        self.to_move = self.to_move.other();
        self.moves_played += 1;
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::*;
    use crate::Game;
    use crate::herfor::{Herfor, HerforOptions};

    /// F3: the drawn placements are exactly the legal ones, each about equally often, in
    /// positions where most empty points are illegal (so the listing fallback runs) and where
    /// most are legal (so the quick draws decide).
    #[test]
    fn f3_random_placements_are_the_legal_ones_uniformly() {
        let mut rng = SmallRng::seed_from_u64(11);
        for plies in [10, 40] {
            let mut state = Herfor::new_game(&HerforOptions::default()).unwrap();
            for _ in 0..plies {
                let moves = Herfor::legal_moves(&state);
                let mv = moves[rng.random_range(0..moves.len())];
                Herfor::apply(&mut state, &mv).unwrap();
            }
            let position = state.position();
            let legal = position.placements();
            let count = legal.count_ones() as usize;
            assert!(count > 1, "{plies} plies: a choice to draw from");
            let draws = 400 * count;
            let mut seen = [0usize; 256];
            for _ in 0..draws {
                let placement = position
                    .random_placement(&mut rng)
                    .expect("legal placements");
                assert!(
                    legal.has(i32::from(placement.cell)),
                    "only legal placements"
                );
                assert_eq!(placement, position.placement(placement.cell));
                seen[placement.cell as usize] += 1;
            }
            for cell in legal.cells() {
                // 400 expected: ±100 is five standard deviations.
                let n = seen[cell as usize];
                assert!(
                    (300..=500).contains(&n),
                    "{plies} plies: cell {cell} drawn {n} times"
                );
            }
        }
    }

    /// F4: with no legal placement there is nothing to draw: the mover must pass.
    #[test]
    fn f4_no_random_placement_when_the_mover_must_pass() {
        let mut rng = SmallRng::seed_from_u64(5);
        let mut state = Herfor::new_game(&HerforOptions {
            size: 3,
            pie: false,
            simple: false,
        })
        .unwrap();
        while !state.is_over() {
            let moves = Herfor::legal_moves(&state);
            let position = state.position();
            let drawn = position.random_placement(&mut rng);
            assert_eq!(drawn.is_none(), moves == [crate::herfor::HerforMove::Pass]);
            Herfor::apply(&mut state, &moves[0]).unwrap();
        }
        assert_eq!(state.position().random_placement(&mut rng), None);
    }
}
