//! The notation of T13: `D4`, `D7-E5`, `D7xE5` (or `D7-E5`), `C5sB3`, `pass`; and `next`
//! for the start of game 2 of a match.

use super::board::Board;
use super::geometry::Hill;
use super::moves::{StepKind, TaraMove, step_kind};
use super::state::TaraState;
use crate::MoveError;

/// Writes a move in the notation of T13, in this position (before it is played): a step onto
/// an enemy ringfort is written with `x`.
pub fn format_move(state: &TaraState, mv: &TaraMove) -> String {
    match *mv {
        TaraMove::Place(hill) => hill.to_string(),
        TaraMove::Step { from, to } => {
            let capture = step_kind(&Board::of(state), state.to_move, to) == StepKind::Capture;
            format!("{from}{}{to}", if capture { 'x' } else { '-' })
        }
        TaraMove::Sacrifice { from, to } => format!("{from}s{to}"),
        TaraMove::Pass => "pass".to_string(),
        TaraMove::Next => "next".to_string(),
    }
}

fn hill(text: &str, whole: &str) -> Result<Hill, MoveError> {
    Hill::parse(text).ok_or_else(|| {
        let reason = if Hill::parse_square(text).is_some() {
            format!(
                "{} does not exist: the corners A1, A7, G1 and G7 are not hills",
                text.to_uppercase()
            )
        } else {
            format!("{text:?} is not a hill (columns A–G, rows 1–7)")
        };
        MoveError::unreadable(whole, reason)
    })
}

/// Reads a move in the notation of T13, letters in either case; `D7-E5` stands for a capture
/// too, as the position tells. Whether the move is legal is checked when it is played.
pub fn parse_move(state: &TaraState, text: &str) -> Result<TaraMove, MoveError> {
    let trimmed = text.trim();
    match trimmed.to_ascii_lowercase().as_str() {
        "pass" => return Ok(TaraMove::Pass),
        "next" => return Ok(TaraMove::Next),
        _ => {}
    }
    if trimmed.len() == 2 {
        return Ok(TaraMove::Place(hill(trimmed, text)?));
    }
    let (Some(from), Some(sep), Some(to)) = (trimmed.get(..2), trimmed.get(2..3), trimmed.get(3..))
    else {
        return Err(MoveError::unreadable(
            text,
            "expected a hill (D4), a move (D7-E5, D7xE5, C5sB3), pass or next",
        ));
    };
    let (from, to) = (hill(from, text)?, hill(to, text)?);
    match sep {
        "-" => Ok(TaraMove::Step { from, to }),
        "x" | "X" => {
            if step_kind(&Board::of(state), state.to_move, to) != StepKind::Capture {
                return Err(MoveError::illegal(
                    "T13",
                    format!("`x` marks a ringfort capture, but {to} holds no enemy ringfort"),
                ));
            }
            Ok(TaraMove::Step { from, to })
        }
        "s" | "S" => Ok(TaraMove::Sacrifice { from, to }),
        _ => Err(MoveError::unreadable(
            text,
            format!("{sep:?} is not a move sign: use -, x or s"),
        )),
    }
}
