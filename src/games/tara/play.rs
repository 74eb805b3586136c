//! Playing a move: its effects (T5–T11) and what happens between turns (Battle entry, the
//! trapped sacrificer, the one-more-turn endings of T10, the start of game 2 in a match).

use serde::Serialize;
use utoipa::ToSchema;

use super::board::Board;
use super::geometry::{Hill, hills_of};
use super::moves::{StepKind, TaraMove, forced_king, step_kind};
use super::scoring::outcome;
use super::state::{Colour, PerColour, TaraState};

/// What a move caused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TaraEvent {
    /// Setup (T3): a ringfort built and a king put on it.
    Placed { colour: Colour, hill: Hill },
    /// A king moved to a vacant hill and a ringfort was built under it (T5, T6).
    Built {
        colour: Colour,
        from: Hill,
        to: Hill,
    },
    /// An immobile king moved back onto a friendly ringfort (T6).
    Backtracked {
        colour: Colour,
        from: Hill,
        to: Hill,
    },
    /// A king captured a besieged single enemy ringfort (T8).
    RingfortCaptured {
        colour: Colour,
        from: Hill,
        to: Hill,
    },
    /// The king's backtrack sacrificed the ringfort it landed on (T11): the ringfort is now the
    /// enemy's and the king is immune during the enemy's next turn.
    Sacrificed {
        colour: Colour,
        from: Hill,
        to: Hill,
    },
    /// The king that moved, on `by`, captured the enemy kings on `hills` (T9).
    KingsCaptured {
        colour: Colour,
        by: Hill,
        hills: Vec<Hill>,
    },
    /// A player entered Battle at the start of its turn (T6).
    BattleStarted { colour: Colour },
    /// A player passed and its kings left the board (T10).
    Passed {
        colour: Colour,
        /// The player had no other legal move.
        forced: bool,
        kings_removed: Vec<Hill>,
    },
    /// This player has one more turn, then the game ends (T10).
    OneMoreTurn { colour: Colour },
    /// A king standing on the ringfort it sacrificed could not escape and is captured (T11).
    KingTrapped { colour: Colour, hill: Hill },
    /// The game is over (T10, T12).
    GameOver {
        #[serde(skip_serializing_if = "Option::is_none")]
        winner: Option<Colour>,
        points: PerColour<u32>,
        reason: String,
    },
    /// Game 2 of a match started with the other player (T12).
    GameStarted { game: u8, first: Colour },
}

fn replace(list: &mut [Hill], old: Hill, new: Hill) {
    if let Some(entry) = list.iter_mut().find(|h| **h == old) {
        *entry = new;
    }
}

fn remove(list: &mut Vec<Hill>, hill: Hill) {
    list.retain(|h| *h != hill);
}

/// Plays a legal move. `forced` tells whether a pass was the only legal move (for the event).
pub fn play(state: &mut TaraState, mv: TaraMove, forced: bool, ev: &mut impl FnMut(TaraEvent)) {
    let mover = state.to_move;
    match mv {
        TaraMove::Next => start_game_2(state, ev),
        TaraMove::Place(hill) => {
            state.kings.get_mut(mover).push(hill);
            state.ringforts.get_mut(mover).push(hill);
            ev(TaraEvent::Placed {
                colour: mover,
                hill,
            });
            capture_kings(state, hill, ev);
            finish_turn(state, false, ev);
        }
        TaraMove::Pass => {
            let kings_removed = std::mem::take(state.kings.get_mut(mover));
            *state.passed.get_mut(mover) = true;
            ev(TaraEvent::Passed {
                colour: mover,
                forced,
                kings_removed,
            });
            finish_turn(state, false, ev);
        }
        TaraMove::Step { from, to } => {
            let kind = step(state, from, to, ev);
            capture_kings(state, to, ev);
            let last_hill = kind == StepKind::Build && Board::of(state).vacant() == 0;
            finish_turn(state, last_hill, ev);
        }
        TaraMove::Sacrifice { from, to } => {
            step(state, from, to, ev);
            // The capture is judged as the king lands, before its ringfort changes hands:
            // the rulebook allows a capture and a sacrifice in one turn.
            capture_kings(state, to, ev);
            remove(state.ringforts.get_mut(mover), to);
            state.ringforts.get_mut(mover.other()).push(to);
            state.sacrifice = Some(super::state::Sacrifice {
                colour: mover,
                hill: to,
            });
            ev(TaraEvent::Sacrificed {
                colour: mover,
                from,
                to,
            });
            finish_turn(state, false, ev);
        }
    }
}

/// Moves a king and builds or captures under it.
fn step(state: &mut TaraState, from: Hill, to: Hill, ev: &mut impl FnMut(TaraEvent)) -> StepKind {
    let mover = state.to_move;
    let kind = step_kind(&Board::of(state), mover, to);
    replace(state.kings.get_mut(mover), from, to);
    if state.sacrifice.is_some_and(|s| s.colour == mover) {
        // The forced move of T11 is made: the marker ends (a new sacrifice sets it again).
        state.sacrifice = None;
    }
    match kind {
        StepKind::Build => {
            state.ringforts.get_mut(mover).push(to);
            ev(TaraEvent::Built {
                colour: mover,
                from,
                to,
            });
        }
        StepKind::Backtrack => ev(TaraEvent::Backtracked {
            colour: mover,
            from,
            to,
        }),
        StepKind::Capture => {
            remove(state.ringforts.get_mut(mover.other()), to);
            state.ringforts.get_mut(mover).push(to);
            ev(TaraEvent::RingfortCaptured {
                colour: mover,
                from,
                to,
            });
        }
    }
    kind
}

/// T9: the king that moved, now on `by`, captures the adjacent enemy kings on besieged singles.
fn capture_kings(state: &mut TaraState, by: Hill, ev: &mut impl FnMut(TaraEvent)) {
    let mover = state.to_move;
    let enemy = mover.other();
    let immune = state
        .sacrifice
        .filter(|s| s.colour == enemy)
        .map_or(0, |s| s.hill.bit());
    let captured = Board::of(state).captures_from(mover, by, immune);
    if captured == 0 {
        return;
    }
    state
        .kings
        .get_mut(enemy)
        .retain(|k| k.bit() & captured == 0);
    *state.captured.get_mut(mover) += captured.count_ones() as u8;
    ev(TaraEvent::KingsCaptured {
        colour: mover,
        by,
        hills: hills_of(captured).collect(),
    });
}

/// After the mover's turn: the endings of T9/T10, else the opponent's turn begins.
fn finish_turn(state: &mut TaraState, built_on_last_hill: bool, ev: &mut impl FnMut(TaraEvent)) {
    let mover = state.to_move;
    let opponent = mover.other();
    if *state.captured.get(mover) >= 2 || state.final_turn == Some(mover) {
        end_game(state, ev);
        return;
    }
    if *state.passed.get(mover) {
        if *state.passed.get(opponent) {
            end_game(state, ev);
            return;
        }
        state.final_turn = Some(opponent);
        ev(TaraEvent::OneMoreTurn { colour: opponent });
    } else if built_on_last_hill && state.final_turn.is_none() {
        state.final_turn = Some(opponent);
        ev(TaraEvent::OneMoreTurn { colour: opponent });
    }
    state.to_move = opponent;
    begin_turn(state, ev);
}

/// The start of a turn: the automatic entry into Battle (T6) and the trapped sacrificer (T11).
fn begin_turn(state: &mut TaraState, ev: &mut impl FnMut(TaraEvent)) {
    if state.in_setup() {
        return;
    }
    let player = state.to_move;
    let other = player.other();
    let board = Board::of(state);
    if !*state.battle.get(player)
        && board.kings(player) != 0
        && (*state.battle.get(other) || !board.any_mobile(player, false))
    {
        *state.battle.get_mut(player) = true;
        ev(TaraEvent::BattleStarted { colour: player });
    }
    if let Some(king) = forced_king(state) {
        let battle = *state.battle.get(player);
        let escapes = board.vacant_targets(player, king, battle)
            | board.backtrack_targets(player, king)
            | board.capture_targets(player, king);
        if escapes == 0 {
            state.sacrifice = None;
            trap(state, player, king, ev);
            if *state.captured.get(other) >= 2 {
                end_game(state, ev);
            }
        }
    }
}

/// T11: the king on the ringfort it sacrificed is captured by default.
fn trap(state: &mut TaraState, colour: Colour, king: Hill, ev: &mut impl FnMut(TaraEvent)) {
    remove(state.kings.get_mut(colour), king);
    *state.captured.get_mut(colour.other()) += 1;
    ev(TaraEvent::KingTrapped { colour, hill: king });
}

fn end_game(state: &mut TaraState, ev: &mut impl FnMut(TaraEvent)) {
    let double_capture = state.captured.red >= 2 || state.captured.blue >= 2;
    if let Some(marker) = state.sacrifice.take() {
        // T11 [I]: the game ends with a king still on the ringfort it sacrificed.
        if !double_capture {
            trap(state, marker.colour, marker.hill, ev);
        }
    }
    state.over = true;
    let result = outcome(state);
    ev(TaraEvent::GameOver {
        winner: result.winner,
        points: result.points,
        reason: result.reason,
    });
}

fn start_game_2(state: &mut TaraState, ev: &mut impl FnMut(TaraEvent)) {
    let points = outcome(state).points;
    let first = state.options.first.other();
    *state = TaraState::start(&state.options, 2, first);
    state.game1_points = Some(points);
    ev(TaraEvent::GameStarted { game: 2, first });
}
