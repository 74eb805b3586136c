//! What a move caused ([`HerforEvent`]) and the score ([`HerforScore`], F4).

use serde::Serialize;

use super::state::{Colour, HerforState};
use crate::Seat;

/// What a move caused, for clients and pages.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HerforEvent {
    /// A stone was placed (F3) and these stones flipped to its colour.
    Placed {
        /// The colour of the stone placed.
        colour: Colour,
        /// The point it was placed on (F1 name).
        point: String,
        /// The enemy stones the invasions flipped (F3), in point order; empty when none.
        flipped: Vec<String>,
    },
    /// A player passed (F4); `button_to` is set when this first pass gave out the button.
    Passed {
        /// The colour that passed.
        colour: Colour,
        /// The colour that got the button (F4): the opponent's, on the game's first pass only.
        button_to: Option<Colour>,
    },
    /// The second player took Black (F5); the first player now plays White and moves next.
    Swapped {
        /// The seat that plays Black now: always the second.
        black: Seat,
    },
    /// Two passes in a row ended the game (F4).
    GameOver {
        /// The colour with the higher score; the button makes every game decisive (F4).
        winner: Colour,
        /// Black's final score: stones, plus ½ with the button.
        black_total: f64,
        /// White's final score: stones, plus ½ with the button.
        white_total: f64,
    },
}

/// The score at any moment (F4): stones on the board, plus half a point for the button.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(example = json!({
    "black_stones": 31, "white_stones": 30, "button": "white",
    "black_total": 31.0, "white_total": 30.5,
    "leader": "black", "winner": "black", "black_seat": "first", "white_seat": "second"
})))]
pub struct HerforScore {
    /// Black's stones on the board.
    pub black_stones: u32,
    /// White's stones on the board.
    pub white_stones: u32,
    /// Who holds the button, once someone has passed.
    pub button: Option<Colour>,
    /// Black's stones, plus ½ with the button.
    pub black_total: f64,
    /// White's stones, plus ½ with the button.
    pub white_total: f64,
    /// The colour ahead now; absent when level.
    pub leader: Option<Colour>,
    /// The winner, once the game is over.
    pub winner: Option<Colour>,
    /// The seat playing Black (the second seat after a swap).
    pub black_seat: Seat,
    /// The seat playing White (the first seat after a swap).
    pub white_seat: Seat,
}

/// The colour ahead on doubled scores, if any.
pub fn leader(state: &HerforState) -> Option<Colour> {
    let (b, w) = (
        state.doubled_score(Colour::Black),
        state.doubled_score(Colour::White),
    );
    match b.cmp(&w) {
        std::cmp::Ordering::Greater => Some(Colour::Black),
        std::cmp::Ordering::Less => Some(Colour::White),
        std::cmp::Ordering::Equal => None,
    }
}

/// The score of a position (F4), at any moment of the game.
pub fn score(state: &HerforState) -> HerforScore {
    let leader = leader(state);
    HerforScore {
        black_stones: state.stone_count(Colour::Black),
        white_stones: state.stone_count(Colour::White),
        button: state.button(),
        black_total: f64::from(state.doubled_score(Colour::Black)) / 2.0,
        white_total: f64::from(state.doubled_score(Colour::White)) / 2.0,
        leader,
        winner: if state.is_over() { leader } else { None },
        black_seat: state.seat_of(Colour::Black),
        white_seat: state.seat_of(Colour::White),
    }
}
