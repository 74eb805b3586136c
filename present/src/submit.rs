//! The moves a page's form sends for one turn, checked before anything is played: the link's
//! pages and a kept table's seat both play them only once the engine took every one.

use moot_games::{MoveError, Seat, Turn};
use moot_templates::play::Notice;

use super::limits::{DETAIL_CHARS, EXCERPT_CHARS, MAX_MOVES, excerpt};
use super::link::{Link, SEPARATOR};
use super::page_game::PageGame;
use super::replay::Replayed;
use super::words::capitalised;

/// The move(s) sent: one move, typed in notation or a button's, or the steps of one turn
/// joined by `.` (a Hirþ turn composed on the page). Every move is checked, and all must be
/// the acting player's: the position after them, or the engine's reason for refusing one.
pub fn submit<G: PageGame>(
    position: &Link<G>,
    game: &Replayed<G>,
    typed: &str,
) -> Result<Link<G>, Notice> {
    if typed.trim().is_empty() {
        return Err(Notice {
            title: "No move given".to_owned(),
            detail: "Type a move in the game's notation, or click one.".to_owned(),
        });
    }
    let moves: Vec<&str> = typed.split(SEPARATOR).collect();
    if moves.len() > 1 && position.moves.len() + moves.len() > MAX_MOVES {
        return Err(Notice {
            title: "Too many moves".to_owned(),
            detail: format!("A game holds at most {MAX_MOVES} moves."),
        });
    }
    let mut state = game.state.clone();
    let mut next = position.clone();
    let mut actor: Option<Seat> = None;
    for text in moves {
        let refused = |why: String| refused_move(text, &why);
        let Turn::ToAct(seat) = G::turn(&state) else {
            return Err(refused(MoveError::GameOver.to_string()));
        };
        if actor.is_some_and(|first| first != seat) {
            return Err(refused(
                "the turn had ended before it: the moves sent together must be one player's turn"
                    .to_owned(),
            ));
        }
        actor = Some(seat);
        let mv = G::parse_move(&state, text).map_err(|e| refused(e.to_string()))?;
        let notation = G::format_move(&state, &mv);
        G::apply(&mut state, &mv).map_err(|e| refused(e.to_string()))?;
        next.moves.push(notation);
    }
    Ok(next)
}

/// A move the engine refused, over the board: the move as typed, and the engine's reason.
pub fn refused_move(text: &str, why: &str) -> Notice {
    Notice {
        title: format!("{:?} cannot be played", excerpt(text.trim(), EXCERPT_CHARS)),
        detail: excerpt(&capitalised(why), DETAIL_CHARS),
    }
}
