//! The Tara board's view data: hills with their ringforts, kings and links, the bridges
//! between linked ringforts, and the marks of the last move.

use moot_templates::parts::{BoardLink, Refusal};
use moot_templates::tara::{Bridge, HillView, LastMark, Side, TaraBoardView};

use super::words::label;
use crate::page_game::Playable;
use crate::refusal::{refusal, refused, sentence};
use crate::replay::Ply;
use moot_games::tara::board::Board;
use moot_games::tara::geometry::{HILLS, Hill, hills_of};
use moot_games::tara::{Colour, Tara, TaraEvent, TaraMove, TaraState};
use moot_games::{Game, Status};

fn side(colour: Colour) -> Side {
    match colour {
        Colour::Red => Side::Red,
        Colour::Blue => Side::Blue,
    }
}

fn colour_at(sets: [u64; 2], hill: Hill) -> Option<Colour> {
    Colour::BOTH
        .into_iter()
        .find(|c| sets[c.index()] & hill.bit() != 0)
}

/// The hill a click plays this move on; `pass` and `next` have none.
/// Marks on `view` the hill where the computer's hinted move ends (a pass has none).
pub fn mark_hint(view: &mut TaraBoardView, hint: &TaraMove) {
    let hinted = target(hint).map(|hill| hill.to_string());
    for h in &mut view.hills {
        h.hinted = hinted.as_deref() == Some(h.name.as_str());
    }
}

pub(super) fn target(mv: &TaraMove) -> Option<Hill> {
    match *mv {
        TaraMove::Place(hill) => Some(hill),
        TaraMove::Step { to, .. } | TaraMove::Sacrifice { to, .. } => Some(to),
        TaraMove::Pass | TaraMove::Next => None,
    }
}

/// The hill a king leaves.
fn from(mv: &TaraMove) -> Option<Hill> {
    match *mv {
        TaraMove::Step { from, .. } | TaraMove::Sacrifice { from, .. } => Some(from),
        TaraMove::Place(_) | TaraMove::Pass | TaraMove::Next => None,
    }
}

/// Which king moves to a hill (`s`: it sacrifices there); placements need no tag.
fn tag(mv: &TaraMove) -> String {
    match *mv {
        TaraMove::Step { from, .. } => from.to_string(),
        TaraMove::Sacrifice { from, .. } => format!("{from}s"),
        TaraMove::Place(_) | TaraMove::Pass | TaraMove::Next => String::new(),
    }
}

/// `Red to move: move a king`, or how the game ended.
pub(super) fn headline(state: &TaraState) -> String {
    match Tara::status(state) {
        Status::Ongoing {
            to_act, decision, ..
        } => format!(
            "{} to move: {decision}",
            state.options.colour_of(to_act).title()
        ),
        Status::Finished { reason, .. } => format!("Game over: {reason}"),
    }
}

/// The hills the last move used: where it placed a king, or the king's move from → to. A pass
/// and the start of a match's next game use none.
fn last_marks(last: &[Ply<Tara>]) -> Vec<(Hill, LastMark)> {
    match last.last().map(|ply| ply.mv) {
        Some(TaraMove::Place(hill)) => vec![(hill, LastMark::Placed)],
        Some(TaraMove::Step { from, to } | TaraMove::Sacrifice { from, to }) => {
            vec![(from, LastMark::From), (to, LastMark::To)]
        }
        Some(TaraMove::Pass | TaraMove::Next) | None => Vec::new(),
    }
}

/// What a move on the board changes besides its king, for the script to draw at once.
#[derive(Debug, Default)]
struct Changes {
    /// The ringforts it turns to the other colour (captured, or sacrificed).
    turns: Vec<String>,
    /// The hills whose kings it captures.
    removes: Vec<String>,
    /// The bridges it makes (`F4-F5`): the mover's, and the other colour's (a sacrifice).
    bridges: Vec<String>,
    their_bridges: Vec<String>,
}

/// [`Changes`] by the engine: the move played on a copy, its events, and the bridges of the
/// board after it that `before` (the board's now) lacks. None on a picture, which has no
/// buttons.
fn changes(state: &TaraState, before: &[(Colour, Hill, Hill)], p: &Playable<TaraMove>) -> Changes {
    let mut changes = Changes::default();
    if p.play.is_empty() {
        return changes;
    }
    let mut after = state.clone();
    let Ok(events) = Tara::apply(&mut after, &p.mv) else {
        return changes;
    };
    for event in events {
        match event {
            TaraEvent::RingfortCaptured { to, .. } | TaraEvent::Sacrificed { to, .. } => {
                changes.turns.push(to.to_string());
            }
            TaraEvent::KingsCaptured { hills, .. } => {
                changes.removes.extend(hills.iter().map(Hill::to_string));
            }
            TaraEvent::KingTrapped { hill, .. } => changes.removes.push(hill.to_string()),
            _ => {}
        }
    }
    for bridge in bridges(&Board::of(&after)) {
        if before.contains(&bridge) {
            continue;
        }
        let (colour, a, b) = bridge;
        let list = if colour == state.to_move {
            &mut changes.bridges
        } else {
            &mut changes.their_bridges
        };
        list.push(format!("{a}-{b}"));
    }
    changes
}

/// The bridges of a board (T2, T6): each pair of orthogonally adjacent ringforts of one
/// colour, once, from the lower hill to the higher.
fn bridges(board: &Board) -> Vec<(Colour, Hill, Hill)> {
    let mut bridges = Vec::new();
    for colour in Colour::BOTH {
        let forts = board.ringforts(colour);
        for hill in hills_of(forts) {
            for next in hills_of(hill.neighbours() & forts).filter(|n| n.0 > hill.0) {
                bridges.push((colour, hill, next));
            }
        }
    }
    bridges
}

/// Why no move ends on `hill` now, by the engine, on a page where the player has moves
/// elsewhere (`playable`); `None` where a move ends, and on a king that can move, where a
/// tap picks it.
///
/// In setup, why no king is placed there (T3). Then, on the mover's king that cannot move,
/// why one of its knight's moves is refused; elsewhere, why the move of a king a knight's move
/// away is refused (a king there, next to a friendly king, T4; next to a friendly ringfort,
/// T5; no capture, T8), or that no king is a knight's move away (T4).
pub fn hill_refusal(
    state: &TaraState,
    playable: &[Playable<TaraMove>],
    hill: Hill,
) -> Option<Refusal> {
    if playable.iter().any(|p| target(&p.mv) == Some(hill)) {
        return None;
    }
    if playable.iter().any(|p| matches!(p.mv, TaraMove::Place(_))) {
        let (rule, reason) = refused::<Tara>(state, &TaraMove::Place(hill))?;
        return Some(refusal::<Tara>(rule, sentence(&reason)));
    }
    let board = Board::of(state);
    let kings = board.kings(state.to_move);
    let step = |from: Hill| refused::<Tara>(state, &TaraMove::Step { from, to: hill });
    if kings & hill.bit() != 0 {
        if playable.iter().any(|p| from(&p.mv) == Some(hill)) {
            return None;
        }
        let (rule, reason) = hills_of(hill.knight_targets() & HILLS)
            .find_map(|to| refused::<Tara>(state, &TaraMove::Step { from: hill, to }))?;
        return Some(refusal::<Tara>(
            rule,
            format!("The king on {hill} has no move now: for one, {reason}."),
        ));
    }
    if let Some((rule, reason)) = hills_of(kings)
        .filter(|king| king.knight_targets() & hill.bit() != 0)
        .find_map(step)
    {
        return Some(refusal::<Tara>(rule, sentence(&reason)));
    }
    Some(refusal::<Tara>(
        "T4",
        format!(
            "No {} king is a knight's move (two hills one way, one the other) from {hill}.",
            state.to_move.title()
        ),
    ))
}

pub(super) fn board_view(
    state: &TaraState,
    playable: &[Playable<TaraMove>],
    last: &[Ply<Tara>],
) -> TaraBoardView {
    let board = Board::of(state);
    let now = bridges(&board);
    let marks = last_marks(last);
    let immune: Vec<Hill> = Colour::BOTH
        .into_iter()
        .filter_map(|c| state.sacrificed_by(c))
        .collect();
    // A page where the player moves says why a hill takes no move; a picture does not.
    let may_play = playable.iter().any(|p| !p.play.is_empty());
    let hills = hills_of(HILLS)
        .map(|hill| HillView {
            refusal: may_play
                .then(|| hill_refusal(state, playable, hill))
                .flatten(),
            name: hill.to_string(),
            col: hill.col(),
            row: hill.row(),
            ringfort: colour_at(board.ringforts, hill).map(side),
            king: colour_at(board.kings, hill).map(side),
            note: immune
                .contains(&hill)
                .then(|| "this king sacrificed its ringfort: immune for a turn".to_string()),
            links: playable
                .iter()
                .filter(|p| target(&p.mv) == Some(hill))
                .map(|p| {
                    let changes = changes(state, &now, p);
                    BoardLink {
                        play: p.play.clone(),
                        title: label(state, &p.mv),
                        tag: tag(&p.mv),
                        from: from(&p.mv).map(|h| h.to_string()).unwrap_or_default(),
                        to: hill.to_string(),
                        turns: changes.turns,
                        removes: changes.removes,
                        bridges: changes.bridges,
                        their_bridges: changes.their_bridges,
                    }
                })
                .collect(),
            last: marks.iter().find(|(h, _)| *h == hill).map(|(_, m)| *m),
            hinted: false,
        })
        .collect();
    let bridges = now
        .into_iter()
        .map(|(colour, a, b)| Bridge {
            side: side(colour),
            a: (a.col(), a.row()),
            b: (b.col(), b.row()),
        })
        .collect();
    TaraBoardView {
        title: headline(state),
        hills,
        bridges,
        moving: Some(side(state.to_move)),
    }
}
