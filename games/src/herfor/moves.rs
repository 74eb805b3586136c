//! Moves and their notation: a point name (F1, `e5`), `pass` (F4) or `swap` (F5), read
//! case-insensitively.

use super::geometry::{NameError, Point, parse_point, point_name};
use super::state::HerforState;
use crate::MoveError;

/// A move of Herfor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HerforMove {
    /// Place a stone of the mover's colour (F3).
    Place(Point),
    /// Pass, only when no placement is legal (F4).
    Pass,
    /// Take Black, as the answer to the first placement (F5).
    Swap,
}

/// Reads a move on this state's board.
pub fn parse(state: &HerforState, text: &str) -> Result<HerforMove, MoveError> {
    let word = text.trim();
    if word.eq_ignore_ascii_case("pass") {
        return Ok(HerforMove::Pass);
    }
    if word.eq_ignore_ascii_case("swap") {
        return Ok(HerforMove::Swap);
    }
    let size = state.size();
    match parse_point(size, word) {
        Ok(p) => Ok(HerforMove::Place(p)),
        Err(NameError::Malformed) => Err(MoveError::unreadable(
            text,
            "expected a point name such as e5, or pass, or swap",
        )),
        Err(NameError::OffBoard) => Err(MoveError::illegal(
            "F1",
            format!(
                "{} is not a point of the size-{size} board",
                word.to_ascii_lowercase()
            ),
        )),
    }
}

/// Writes a move; a point off this board (never a legal move) is written as its index.
pub fn format(state: &HerforState, mv: &HerforMove) -> String {
    match mv {
        HerforMove::Place(p) => point_name(state.size(), *p).unwrap_or_else(|| format!("#{}", p.0)),
        HerforMove::Pass => "pass".to_string(),
        HerforMove::Swap => "swap".to_string(),
    }
}
