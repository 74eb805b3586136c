//! The search's hot path: a compact `Copy` position, its legal placements as one bit set to
//! sample from, and placements whose flips are computed once.
//!
//! A playout takes a [`Position`] from a state ([`HerforState::position`]), plays on it without
//! listing moves or allocating, and writes the end back ([`HerforState::set_position`]). The
//! moves and their effects are exactly those of [`Herfor`](super::Herfor)'s `apply`: the random
//! games of the tests check it ply by ply.

use super::cells::Cells;
use super::geometry::Point;
use super::rules::{self, Legal};
use super::state::{Colour, HerforState};
use super::wide::Wide;

/// A position of Herfor as the search plays it: the stones, the side to move, the pass and
/// swap state; `Copy`. Its sets are [`Wide`] (every board) or, for boards of side 5 or less,
/// [`Narrow`](super::cells::Narrow) (one `u128`, cheaper to shift).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position<C = Wide> {
    /// The stones of each colour, indexed by [`Colour::index`].
    stones: [C; 2],
    /// The empty points of the board.
    empty: C,
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
pub struct Placement<C = Wide> {
    cell: u8,
    flipped: C,
}

impl<C: Cells> Placement<C> {
    /// The point placed on.
    pub fn point(&self) -> Point {
        C::point_of(self.cell)
    }

    /// How many enemy stones it flips (F3).
    pub fn flip_count(&self) -> u32 {
        self.flipped.count_ones()
    }
}

impl HerforState {
    /// The compact copy of this state for playouts.
    pub fn position(&self) -> Position {
        self.position_in().expect("a wide set holds every board")
    }

    /// The compact copy of this state with sets of type `C`, when they hold its board.
    pub fn position_in<C: Cells>(&self) -> Option<Position<C>> {
        if self.size() > C::MAX_SIZE {
            return None;
        }
        Some(Position {
            stones: self.stones.map(C::from_wide),
            empty: C::from_wide(self.empty_cells()),
            to_move: self.to_move,
            button: self.button,
            passes_in_a_row: self.passes_in_a_row,
            pie: self.options.pie,
            swapped: self.swapped,
            simple: self.options.simple,
            moves_played: self.moves_played,
        })
    }

    /// Takes the stones, turn and counters of `position`, which must come from this state by
    /// playing (the options are not part of a position).
    pub fn set_position<C: Cells>(&mut self, position: &Position<C>) {
        self.stones = position.stones.map(C::to_wide);
        self.to_move = position.to_move;
        self.button = position.button;
        self.passes_in_a_row = position.passes_in_a_row;
        self.swapped = position.swapped;
        self.moves_played = position.moves_played;
    }
}

impl<C: Cells> Position<C> {
    /// The colour to place or pass next.
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

    /// The mover's legal placements (F3) as cells of the set's numbering: pick one with
    /// [`Cells::nth`] and read it with [`placement`](Self::placement). Empty when the mover
    /// must pass (or the game is over).
    #[inline(always)]
    pub fn placements(&self) -> C {
        self.legal().cells
    }

    /// The mover's legal placements with the lines along which each invades: read one with
    /// [`placement_of`](Self::placement_of), which walks only those lines.
    #[inline(always)]
    pub fn legal(&self) -> Legal<C> {
        if self.is_over() {
            return Legal {
                cells: C::EMPTY,
                invading: [C::EMPTY; 3],
            };
        }
        let mover = self.to_move.index();
        rules::legal(self.empty, self.stones[mover], self.stones[1 - mover])
    }

    /// The placement of the mover's on `cell`, one of `legal`'s, which must be this
    /// position's [`legal`](Self::legal).
    #[inline(always)]
    pub fn placement_of(&self, legal: &Legal<C>, cell: u8) -> Placement<C> {
        let mover = self.to_move.index();
        let (own, enemy) = (self.stones[mover], self.stones[1 - mover]);
        Placement {
            cell,
            flipped: rules::flips_of_legal(legal, cell, own, enemy, self.simple),
        }
    }

    /// The placement of the mover's on `cell`, one of [`placements`](Self::placements).
    #[inline(always)]
    pub fn placement(&self, cell: u8) -> Placement<C> {
        let mover = self.to_move.index();
        let (own, enemy) = (self.stones[mover], self.stones[1 - mover]);
        Placement {
            cell,
            flipped: rules::flips_at(cell, own, enemy, self.simple),
        }
    }

    /// The placement on point `p` (see [`placement`](Self::placement)).
    pub fn placement_at(&self, p: Point) -> Placement<C> {
        self.placement(C::cell_of(p))
    }

    /// Plays a placement read from this position.
    #[inline(always)]
    pub fn place(&mut self, placement: Placement<C>) {
        let mover = self.to_move.index();
        let stone = C::cell(placement.cell);
        self.stones[mover] |= stone | placement.flipped;
        self.stones[1 - mover] &= !placement.flipped;
        self.empty &= !stone;
        self.end_move();
        self.passes_in_a_row = 0;
    }

    /// Passes (F4), when there is no placement: the first pass gives the opponent the button.
    #[inline(always)]
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

    /// Plays a legal move drawn uniformly, the swap counting as one when it is a move; a pass
    /// when there is no placement: a random playout's ply.
    #[inline(always)]
    pub fn play_random(&mut self, rng: &mut impl rand::Rng) {
        let legal = self.legal();
        let count = legal.cells.count_ones();
        if count == 0 {
            self.pass();
            return;
        }
        // An index past the placements is the swap, when it is a move (F5).
        let swap = u32::from(self.swap_available());
        match legal.cells.nth(rng.random_range(0..count + swap)) {
            Some(cell) => self.place(self.placement_of(&legal, cell)),
            None => self.swap(),
        }
    }

    fn end_move(&mut self) {
        self.to_move = self.to_move.other();
        self.moves_played += 1;
    }
}
