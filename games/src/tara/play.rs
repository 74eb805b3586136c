//! Playing a move: its effects (T5–T11) and what happens between turns (Battle entry, the
//! trapped sacrificer, the one-more-turn endings of T10, the start of game 2 in a match).

use serde::Serialize;

use super::board::Board;
use super::geometry::{Hill, hills_of};
use super::moves::{StepKind, TaraMove, forced_king, step_kind};
use super::scoring::{outcome, points_and_winner};
use super::state::{Colour, PerColour, TaraState};

/// What a move caused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TaraEvent {
    /// Setup (T3): a ringfort built and a king put on it.
    Placed {
        /// The colour that placed.
        colour: Colour,
        /// The hill of the new ringfort and king.
        hill: Hill,
    },
    /// A king moved to a vacant hill and a ringfort was built under it (T5, T6).
    Built {
        /// The colour that moved.
        colour: Colour,
        /// The hill the king left.
        from: Hill,
        /// The hill of the new ringfort, where the king now stands.
        to: Hill,
    },
    /// An immobile king moved back onto a friendly ringfort (T6).
    Backtracked {
        /// The colour that moved.
        colour: Colour,
        /// The hill the king left.
        from: Hill,
        /// The friendly ringfort it moved onto.
        to: Hill,
    },
    /// A king captured a besieged single enemy ringfort (T8).
    RingfortCaptured {
        /// The colour that moved and took the ringfort.
        colour: Colour,
        /// The hill the king left.
        from: Hill,
        /// The captured ringfort, now the mover's, where the king stands.
        to: Hill,
    },
    /// The king's backtrack sacrificed the ringfort it landed on (T11): the ringfort is now the
    /// enemy's and the king is immune during the enemy's next turn.
    Sacrificed {
        /// The colour that moved and gave up the ringfort.
        colour: Colour,
        /// The hill the king left.
        from: Hill,
        /// The sacrificed ringfort, now the enemy's, where the king stands.
        to: Hill,
    },
    /// The king that moved, on `by`, captured the enemy kings on `hills` (T9).
    KingsCaptured {
        /// The colour that captured.
        colour: Colour,
        /// The hill of the king that moved and captured.
        by: Hill,
        /// The hills of the captured enemy kings, one to three, in board order.
        hills: Vec<Hill>,
    },
    /// A player entered Battle at the start of its turn (T6).
    BattleStarted {
        /// The colour that entered Battle.
        colour: Colour,
    },
    /// A player passed and its kings left the board (T10).
    Passed {
        /// The colour that passed.
        colour: Colour,
        /// The player had no other legal move.
        forced: bool,
        /// The hills its kings stood on.
        kings_removed: Vec<Hill>,
    },
    /// This player has one more turn, then the game ends (T10).
    OneMoreTurn {
        /// The colour that has the last turn.
        colour: Colour,
    },
    /// A king standing on the ringfort it sacrificed could not escape and is captured (T11).
    KingTrapped {
        /// The colour of the captured king.
        colour: Colour,
        /// The sacrificed ringfort it stood on.
        hill: Hill,
    },
    /// The game is over (T10, T12).
    GameOver {
        /// The colour that won the game; absent when the points are equal.
        #[serde(skip_serializing_if = "Option::is_none")]
        winner: Option<Colour>,
        /// Each colour's points for this game (T12).
        #[cfg_attr(feature = "schema", schema(value_type = super::state::Points))]
        points: PerColour<u32>,
        /// How the game was decided, in words (`double capture by Red`).
        reason: String,
    },
    /// Game 2 of a match started with the other player (T12).
    GameStarted {
        /// The number of the game: 2.
        game: u8,
        /// The colour that moves first in it: the one that moved second in game 1.
        first: Colour,
    },
}

/// Where a move's events go: a closure receives them; [`Silent`] (the search's
/// `play_unchecked`) wants none, so those that cost an allocation or the scoring are not made.
pub trait Events {
    /// Whether anyone reads the events: false skips those that cost an allocation or the scoring.
    const WANTED: bool;
    /// Receives the move's events one by one, in the order they happen.
    fn emit(&mut self, event: TaraEvent);
}

impl<F: FnMut(TaraEvent)> Events for F {
    const WANTED: bool = true;
    fn emit(&mut self, event: TaraEvent) {
        self(event)
    }
}

/// No events.
pub struct Silent;

impl Events for Silent {
    const WANTED: bool = false;
    fn emit(&mut self, _: TaraEvent) {}
}

/// Plays a legal move. `forced` tells whether a pass was the only legal move (for the event).
///
/// The bitboards are read from the lists once and then kept in step with them through the
/// move and the start of the next turn.
pub fn play<E: Events>(state: &mut TaraState, mv: TaraMove, forced: bool, ev: &mut E) {
    let mover = state.to_move;
    let board = &mut Board::of(state);
    let (m, o) = (mover.index(), mover.other().index());
    match mv {
        TaraMove::Next => start_game_2(state, ev),
        TaraMove::Place(hill) => {
            state.kings.get_mut(mover).push(hill);
            state.ringforts.get_mut(mover).push(hill);
            board.kings[m] |= hill.bit();
            board.ringforts[m] |= hill.bit();
            ev.emit(TaraEvent::Placed {
                colour: mover,
                hill,
            });
            capture_kings(state, board, hill, ev);
            finish_turn(state, board, false, ev);
        }
        TaraMove::Pass => {
            let kings_removed = state.kings.get_mut(mover).take();
            board.kings[m] = 0;
            *state.passed.get_mut(mover) = true;
            if E::WANTED {
                ev.emit(TaraEvent::Passed {
                    colour: mover,
                    forced,
                    kings_removed: kings_removed.to_vec(),
                });
            }
            finish_turn(state, board, false, ev);
        }
        TaraMove::Step { from, to } => {
            let kind = step(state, board, from, to, ev);
            capture_kings(state, board, to, ev);
            let last_hill = kind == StepKind::Build && board.vacant() == 0;
            finish_turn(state, board, last_hill, ev);
        }
        TaraMove::Sacrifice { from, to } => {
            step(state, board, from, to, ev);
            // The capture is judged as the king lands, before its ringfort changes hands:
            // the rulebook allows a capture and a sacrifice in one turn.
            capture_kings(state, board, to, ev);
            state.ringforts.get_mut(mover).remove(to);
            state.ringforts.get_mut(mover.other()).push(to);
            board.ringforts[m] &= !to.bit();
            board.ringforts[o] |= to.bit();
            *state.sacrificed.get_mut(mover) = Some(to);
            ev.emit(TaraEvent::Sacrificed {
                colour: mover,
                from,
                to,
            });
            finish_turn(state, board, false, ev);
        }
    }
}

/// Moves a king and builds or captures under it.
fn step(
    state: &mut TaraState,
    board: &mut Board,
    from: Hill,
    to: Hill,
    ev: &mut impl Events,
) -> StepKind {
    let mover = state.to_move;
    let (m, o) = (mover.index(), mover.other().index());
    let kind = step_kind(board, mover, to);
    state.kings.get_mut(mover).replace(from, to);
    board.kings[m] = (board.kings[m] & !from.bit()) | to.bit();
    // The forced move of T11, if any, is made: the marker ends (a new sacrifice sets it again).
    *state.sacrificed.get_mut(mover) = None;
    match kind {
        StepKind::Build => {
            state.ringforts.get_mut(mover).push(to);
            board.ringforts[m] |= to.bit();
            ev.emit(TaraEvent::Built {
                colour: mover,
                from,
                to,
            });
        }
        StepKind::Backtrack => ev.emit(TaraEvent::Backtracked {
            colour: mover,
            from,
            to,
        }),
        StepKind::Capture => {
            state.ringforts.get_mut(mover.other()).remove(to);
            state.ringforts.get_mut(mover).push(to);
            board.ringforts[o] &= !to.bit();
            board.ringforts[m] |= to.bit();
            ev.emit(TaraEvent::RingfortCaptured {
                colour: mover,
                from,
                to,
            });
        }
    }
    kind
}

/// T9: the king that moved, now on `by`, captures the adjacent enemy kings on besieged singles.
fn capture_kings<E: Events>(state: &mut TaraState, board: &mut Board, by: Hill, ev: &mut E) {
    let mover = state.to_move;
    let enemy = mover.other();
    let immune = state.sacrificed_by(enemy).map_or(0, Hill::bit);
    debug_assert_eq!(*board, Board::of(state), "the bitboards kept in step");
    let captured = board.captures_from(mover, by, immune);
    if captured == 0 {
        return;
    }
    board.kings[enemy.index()] &= !captured;
    state
        .kings
        .get_mut(enemy)
        .retain(|k| k.bit() & captured == 0);
    *state.captured.get_mut(mover) += captured.count_ones() as u8;
    if E::WANTED {
        ev.emit(TaraEvent::KingsCaptured {
            colour: mover,
            by,
            hills: hills_of(captured).collect(),
        });
    }
}

/// After the mover's turn: the endings of T9/T10, else the opponent's turn begins.
fn finish_turn(
    state: &mut TaraState,
    board: &mut Board,
    built_on_last_hill: bool,
    ev: &mut impl Events,
) {
    debug_assert_eq!(*board, Board::of(state), "the bitboards kept in step");
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
        ev.emit(TaraEvent::OneMoreTurn { colour: opponent });
    } else if built_on_last_hill && state.final_turn.is_none() {
        state.final_turn = Some(opponent);
        ev.emit(TaraEvent::OneMoreTurn { colour: opponent });
    }
    state.to_move = opponent;
    begin_turn(state, board, ev);
}

/// The start of a turn: the automatic entry into Battle (T6) and the trapped sacrificer (T11).
fn begin_turn(state: &mut TaraState, board: &mut Board, ev: &mut impl Events) {
    if state.in_setup() {
        return;
    }
    let player = state.to_move;
    let other = player.other();
    debug_assert_eq!(*board, Board::of(state), "the bitboards kept in step");
    if !*state.battle.get(player)
        && board.kings(player) != 0
        && (*state.battle.get(other) || !board.any_mobile(player, false))
    {
        *state.battle.get_mut(player) = true;
        ev.emit(TaraEvent::BattleStarted { colour: player });
    }
    if let Some(king) = forced_king(state) {
        let battle = *state.battle.get(player);
        let escapes = board.vacant_targets(player, king, battle)
            | board.backtrack_targets(player, king)
            | board.capture_targets(player, king);
        if escapes == 0 {
            *state.sacrificed.get_mut(player) = None;
            board.kings[player.index()] &= !king.bit();
            trap(state, player, king, ev);
            if *state.captured.get(other) >= 2 {
                end_game(state, ev);
            }
        }
    }
}

/// T11: the king on the ringfort it sacrificed is captured by default.
fn trap(state: &mut TaraState, colour: Colour, king: Hill, ev: &mut impl Events) {
    state.kings.get_mut(colour).remove(king);
    *state.captured.get_mut(colour.other()) += 1;
    ev.emit(TaraEvent::KingTrapped { colour, hill: king });
}

fn end_game<E: Events>(state: &mut TaraState, ev: &mut E) {
    let double_capture = state.captured.red >= 2 || state.captured.blue >= 2;
    if !double_capture {
        for colour in Colour::BOTH {
            if let Some(king) = state.sacrificed.get_mut(colour).take() {
                // T11 [I]: the game ends with a king still on the ringfort it sacrificed.
                trap(state, colour, king, ev);
            }
        }
    }
    state.over = true;
    if E::WANTED {
        let result = outcome(state);
        ev.emit(TaraEvent::GameOver {
            winner: result.winner,
            points: result.points,
            reason: result.reason,
        });
    }
}

fn start_game_2(state: &mut TaraState, ev: &mut impl Events) {
    let points = points_and_winner(state).0;
    let first = state.options.first.other();
    *state = TaraState::start(&state.options, 2, first);
    state.game1_points = Some(points);
    ev.emit(TaraEvent::GameStarted { game: 2, first });
}
