//! The turn at the level of the match: legal moves, playing them, the end of the movement
//! phase (battles, retreats, victories), the Penningr (H10) and the match (H11).

use serde::Serialize;

use super::battle;
use super::board::{Colour, Space};
use super::limit;
use super::moves::Move;
use super::notation;
use super::state::{GameResult, HirthState, Phase, Position, Victory};
use crate::{MoveError, Seat};

/// What a move caused.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "schema", schema(as = HirthEvent))]
pub enum Event {
    /// A step of the movement phase, in the move notation.
    Step {
        /// The seat that took the step.
        seat: Seat,
        /// That seat's colour in this game.
        colour: Colour,
        /// The step as written in the move notation (`He`, `L1>3`).
        notation: String,
    },
    /// The Penningr was offered: accepting makes the factor `factor`.
    Offered {
        /// The seat that offered.
        seat: Seat,
        /// The factor the game would play for: 2 for a double, 3 for a triple (H10).
        factor: u8,
    },
    /// The Penningr was accepted (H10): the factor rises and the accepter holds the coin.
    Accepted {
        /// The seat that accepted, which now holds the coin.
        seat: Seat,
        /// The game's factor now: 2 or 3.
        factor: u8,
    },
    /// The offer was refused (H10): the player gave up the game, which the offering player wins.
    GaveUp {
        /// The seat that gave up.
        seat: Seat,
    },
    /// One battle (H5, H6). `note` is its H12 battle note; `losses` and `entries` its items.
    Battle {
        /// The attacked space.
        space: Space,
        /// The attacking seat: the one moving.
        attacker: Seat,
        /// The attackers' power (H5).
        attack: u32,
        /// The defenders' power (H5).
        defence: u32,
        /// The seat that won the battle, on power or by the tie rules (H5).
        winner: Seat,
        /// The battle note (H12), as the record has it (`>6SL8GH6GLm`).
        note: String,
        /// Pieces removed (`x` from the game, `^` from play), as `GH x` style note items.
        losses: Vec<String>,
        /// Attackers that entered the conquered space.
        entries: Vec<String>,
    },
    /// A beaten Lofðungr retreated (H7).
    Retreat {
        /// The seat whose Lofðungr retreated.
        seat: Seat,
        /// The space it was beaten on.
        from: Space,
        /// The space it retreated to.
        to: Space,
    },
    /// Drepið: the Lofðungr was killed on Miðr.
    Killed {
        /// The seat whose Lofðungr was killed.
        seat: Seat,
        /// The space it was killed on: Miðr.
        space: Space,
    },
    /// Þungur Hnífur: the Lofðungr was forced off the board.
    ForcedOff {
        /// The seat whose Lofðungr was forced off.
        seat: Seat,
        /// The space it was beaten on, with no space to retreat to.
        from: Space,
    },
    /// A game of the match ended (H9, H10) and its points were scored.
    GameEnded {
        /// The seat that won the game.
        winner: Seat,
        /// The colour the winner played in that game.
        winner_colour: Colour,
        /// How the game was won.
        victory: Victory,
        /// The game's doubling factor: 1, 2 or 3 (H10).
        factor: u8,
        /// The match points the winner scored with it.
        points: u32,
    },
    /// The match goes on with a new game (H11), the players having swapped colours.
    NextGame {
        /// The number of the new game in the match, from 2.
        game: u32,
        /// The seat that plays Gull, and moves first, in the new game.
        gull: Seat,
    },
    /// A player reached the match target (H11).
    MatchEnded {
        /// The seat that won the match.
        winner: Seat,
        /// The match points at the end, by seat index (`[first, second]`).
        points: [u32; 2],
    },
}

/// Who acts: the mover, except for answers and retreats (the other player).
pub fn actor(state: &HirthState) -> Colour {
    match state.phase {
        Phase::Offer | Phase::Retreat { .. } => state.position.mover.other(),
        _ => state.position.mover,
    }
}

/// H10: the mover may offer while the coin is neutral or its own, up to the triple.
pub fn may_offer(state: &HirthState) -> bool {
    state.coin.factor < 3 && state.coin.holder.is_none_or(|h| h == state.position.mover)
}

/// H7: adjacent spaces that are empty or held by the Lofðungr's owner.
pub fn retreat_options(pos: &Position, from: Space, owner: Colour) -> Vec<Space> {
    from.neighbours()
        .filter(|&s| pos.controller(s).is_none_or(|c| c == owner))
        .collect()
}

pub fn legal_moves(state: &HirthState, out: &mut Vec<Move>) {
    let pos = &state.position;
    match state.phase {
        Phase::Movement => {
            let first = out.len();
            pos.raw_steps(out);
            // Whether a pile-up stands now: both the steps and the ends ask.
            let calm = limit::no_pile_up(pos);
            limit::retain_steps_told(pos, out, first, calm);
            if may_offer(state) {
                out.push(Move::Offer);
            }
            limit::push_legal_ends_told(pos, out, calm);
        }
        Phase::Offer => {
            out.push(Move::Accept);
            out.push(Move::GiveUp);
        }
        Phase::Retreat { from } => {
            out.extend(
                retreat_options(pos, from, pos.mover.other())
                    .into_iter()
                    .map(Move::Retreat),
            );
        }
        Phase::Over => {}
    }
}

/// Says why `mv` is not legal now, or `Ok`.
pub fn check(state: &HirthState, mv: &Move) -> Result<(), MoveError> {
    let pos = &state.position;
    let wrong_phase = |what: &str| Err(MoveError::illegal("H3", format!("{what} now")));
    match (state.phase, mv) {
        (Phase::Over, _) => Err(MoveError::GameOver),
        (Phase::Movement, step) if step.is_step() => {
            if let Some((rule, reason)) = pos.step_error(step) {
                return Err(MoveError::illegal(rule, reason));
            }
            if !limit::step_keeps_limit(pos, step) {
                return Err(MoveError::illegal(
                    "H8",
                    "after this step the turn could not end with at most one Karve per space",
                ));
            }
            Ok(())
        }
        (Phase::Movement, Move::Offer) => {
            if may_offer(state) {
                Ok(())
            } else if state.coin.factor >= 3 {
                Err(MoveError::illegal(
                    "H10",
                    "the game is already tripled: no more offers",
                ))
            } else {
                Err(MoveError::illegal(
                    "H10",
                    "the other player holds the Penningr",
                ))
            }
        }
        (Phase::Movement, Move::End { stays }) => {
            let won: Vec<Space> = battle::battles(pos)
                .iter()
                .filter(|b| b.attacker_wins)
                .map(|b| b.space)
                .collect();
            battle::stays_fit(pos, &won, stays).map_err(|r| MoveError::illegal("H6", r))?;
            if limit::legal_entry_choices(pos).contains(stays) {
                Ok(())
            } else {
                Err(MoveError::illegal(
                    "H8",
                    "after these entries a space other than a home would hold more than one Karve",
                ))
            }
        }
        (Phase::Offer, Move::Accept | Move::GiveUp) => Ok(()),
        (Phase::Retreat { from }, Move::Retreat(to)) => {
            if retreat_options(pos, from, pos.mover.other()).contains(to) {
                Ok(())
            } else {
                Err(MoveError::illegal(
                    "H7",
                    format!(
                        "the Lofðungr on {} cannot retreat to {}: not an adjacent space that is empty or its owner's",
                        from.name(),
                        to.name()
                    ),
                ))
            }
        }
        (Phase::Movement, _) => {
            wrong_phase("the mover takes steps, offers or ends the movement phase")
        }
        (Phase::Offer, _) => wrong_phase("the doubling offer must be answered (accept or give-up)"),
        (Phase::Retreat { .. }, _) => wrong_phase("the beaten Lofðungr must retreat"),
    }
}

/// Plays a legal move. With `events` (the checked path) it pushes the events and keeps the
/// record (H12); without (the search's fast path) it writes no text at all and leaves the
/// history out: `record` and `log` are emptied, as in a hand-built state (see `history`).
pub fn play(state: &mut HirthState, mv: &Move, mut events: Option<&mut Vec<Event>>) {
    let mover = state.position.mover;
    let keep = events.is_some();
    if !keep {
        forget_history(state);
    }
    let mut emit = |e: Event| {
        if let Some(ev) = events.as_deref_mut() {
            ev.push(e);
        }
    };
    match mv {
        step if step.is_step() => {
            if !keep {
                state.position.apply_step(step);
                return;
            }
            let text = notation::format_step(&state.position, step);
            state.position.apply_step(step);
            state.log.steps.push_str(&text);
            emit(Event::Step {
                seat: state.seat_of(mover),
                colour: mover,
                notation: text,
            });
        }
        Move::Offer => {
            let triple = state.coin.factor == 2;
            if keep {
                state.log.doubling.push(mover.letter());
                state.log.doubling.push(if triple { 't' } else { 'd' });
            }
            state.phase = Phase::Offer;
            emit(Event::Offered {
                seat: state.seat_of(mover),
                factor: state.coin.factor + 1,
            });
        }
        Move::Accept => {
            let accepter = mover.other();
            if keep {
                note_offer_left_out(state);
                state.log.doubling.push(accepter.letter());
                state.log.doubling.push('a');
            }
            state.coin.factor += 1;
            state.coin.holder = Some(accepter);
            state.phase = Phase::Movement;
            emit(Event::Accepted {
                seat: state.seat_of(accepter),
                factor: state.coin.factor,
            });
        }
        Move::GiveUp => {
            let quitter = mover.other();
            if keep {
                note_offer_left_out(state);
                state.log.doubling.push(quitter.letter());
                state.log.doubling.push('g');
            }
            emit(Event::GaveUp {
                seat: state.seat_of(quitter),
            });
            let victory = if state.coin.factor == 2 {
                Victory::RefusedTriple
            } else {
                Victory::RefusedDouble
            };
            state.position.settle();
            end_game(state, mover, victory, keep, &mut emit);
        }
        Move::End { stays } => {
            let attacker = state.seat_of(mover);
            let defender = attacker.other();
            let after = battle::resolve(&mut state.position, stays, keep);
            for (b, note) in after.battles.iter().zip(&after.notes) {
                let (losses, entries) = note_items(note, mover, b.space);
                emit(Event::Battle {
                    space: b.space,
                    attacker,
                    attack: b.attack,
                    defence: b.defence,
                    winner: if b.attacker_wins { attacker } else { defender },
                    note: note.clone(),
                    losses,
                    entries,
                });
            }
            if keep {
                state.log.battles = after.notes.join(" ");
            }
            if let Some(from) = after.beaten_l {
                let options = retreat_options(&state.position, from, mover.other());
                match options.as_slice() {
                    [] => {
                        // H7: no retreat: killed on Miðr (Drepið), else off the board.
                        let (mark, victory, event) = if from == Space::MIDR {
                            (
                                'x',
                                Victory::Drepid,
                                Event::Killed {
                                    seat: defender,
                                    space: from,
                                },
                            )
                        } else {
                            (
                                '^',
                                Victory::ThungurHnifur,
                                Event::ForcedOff {
                                    seat: defender,
                                    from,
                                },
                            )
                        };
                        if keep {
                            state.log.battles =
                                state.log.battles.replacen('?', &mark.to_string(), 1);
                        }
                        emit(event);
                        end_game(state, mover, victory, keep, &mut emit);
                        return;
                    }
                    [only] => retreat(state, from, *only, &mut emit),
                    _ => {
                        state.phase = Phase::Retreat { from };
                        return;
                    }
                }
            }
            end_turn(state, keep, &mut emit);
        }
        Move::Retreat(to) => {
            if let Phase::Retreat { from } = state.phase {
                retreat(state, from, *to, &mut emit);
                end_turn(state, keep, &mut emit);
            }
        }
        _ => {}
    }
}

/// The fast path keeps no history: an empty record and log (what `history` reads as a
/// history left out) cost nothing to carry through the search.
fn forget_history(state: &mut HirthState) {
    if !state.record.is_empty() {
        state.record.clear();
    }
    let log = &state.log;
    if !(log.steps.is_empty() && log.doubling.is_empty() && log.battles.is_empty()) {
        state.log = Default::default();
    }
}

/// Splits a battle note into lost pieces and attackers that entered `space`.
fn note_items(note: &str, attacker: Colour, space: Space) -> (Vec<String>, Vec<String>) {
    let mut losses = Vec::new();
    let mut entries = Vec::new();
    let chars: Vec<char> = note.chars().skip(2).collect();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        i += 2;
        while i < chars.len() && chars[i] == 'i' {
            i += 1;
        }
        i += 1;
        let item: String = chars[start..i.min(chars.len())].iter().collect();
        match item.chars().last() {
            Some('x' | '^') => losses.push(item),
            Some(c) if c == space.name() && item.starts_with(attacker.letter()) => {
                entries.push(item)
            }
            _ => {}
        }
    }
    (losses, entries)
}

fn retreat(state: &mut HirthState, from: Space, to: Space, emit: &mut impl FnMut(Event)) {
    let owner = state.position.mover.other();
    state.position.board.group_mut(to, owner).l = true;
    if !state.log.battles.is_empty() {
        state.log.battles = state.log.battles.replacen('?', &to.name().to_string(), 1);
    }
    state.phase = Phase::Movement;
    emit(Event::Retreat {
        seat: state.seat_of(owner),
        from,
        to,
    });
}

/// After battles and retreats: Yfirráð (H9), then the turn passes.
fn end_turn(state: &mut HirthState, keep: bool, emit: &mut impl FnMut(Event)) {
    let pos = &state.position;
    for colour in [pos.mover, pos.mover.other()] {
        if Space::MIDDLE
            .iter()
            .all(|&s| !pos.board.group(s, colour).is_empty())
        {
            end_game(state, colour, Victory::Yfirrad, keep, emit);
            return;
        }
    }
    write_line(state, keep);
    let next = state.position.mover.other();
    state.position.mover = next;
    state.position.steps = 0;
    if next == Colour::Gull {
        // A received round is at most MAX_ROUND (validate): no wrapping.
        state.round = state.round.saturating_add(1);
    }
    state.phase = Phase::Movement;
}

/// Appends the H12 line of the turn just finished and clears the turn log (the fast path
/// keeps neither).
fn write_line(state: &mut HirthState, keep: bool) {
    if !keep {
        return;
    }
    let log = std::mem::take(&mut state.log);
    if !history_kept(state) {
        return;
    }
    let mover = state.position.mover;
    let steps = if log.steps.is_empty() {
        "/".to_string()
    } else {
        log.steps
    };
    let tail = match (log.doubling.is_empty(), log.battles.is_empty()) {
        (true, true) => "/".to_string(),
        (false, true) => format!("{} /", log.doubling),
        (_, false) => format!("{}{}", log.doubling, log.battles),
    };
    let line = format!("{}{} {steps} {tail}\n", mover.letter(), state.round);
    state.record.push_str(&line);
}

/// Notes the open offer when a hand-built state left it out of the log (`history` takes an
/// empty log as left out), so that the answer written next follows its offer (H12). The offer
/// is the mover's, a double or a triple as the coin says.
fn note_offer_left_out(state: &mut HirthState) {
    if state.log.doubling.is_empty() {
        let offer = if state.coin.factor == 2 { 't' } else { 'd' };
        state.log.doubling.push(state.position.mover.letter());
        state.log.doubling.push(offer);
    }
}

/// Whether the record holds the match's whole history: it has lines, or this is the match's
/// very first turn. A hand-built state's empty record is a history left out (`history`), and it
/// stays left out: a line appended to it would start mid-match and contradict the state.
fn history_kept(state: &HirthState) -> bool {
    !state.record.is_empty()
        || (state.results.is_empty() && state.round == 1 && state.position.mover == Colour::Gull)
}

/// H9/H10/H11: scores the game, then ends the match or starts the next game.
fn end_game(
    state: &mut HirthState,
    winner: Colour,
    victory: Victory,
    keep: bool,
    emit: &mut impl FnMut(Event),
) {
    write_line(state, keep);
    let seat = state.seat_of(winner);
    let factor = state.coin.factor;
    let points = victory.points(factor);
    // Points stay under the target (at most `MAX_TARGET`, validate) until this game: no wrapping.
    state.points[seat.index()] = state.points[seat.index()].saturating_add(points);
    state.results.push(GameResult {
        winner: seat,
        winner_colour: winner,
        victory,
        factor,
        points,
    });
    emit(Event::GameEnded {
        winner: seat,
        winner_colour: winner,
        victory,
        factor,
        points,
    });
    if state.points[seat.index()] >= state.options.target {
        state.phase = Phase::Over;
        emit(Event::MatchEnded {
            winner: seat,
            points: state.points,
        });
        return;
    }
    // H11: the players alternate Gull; Gull starts each game.
    state.gull = state.gull.other();
    state.position = Position::start();
    state.coin = super::state::Coin {
        factor: 1,
        holder: None,
    };
    state.round = 1;
    state.phase = Phase::Movement;
    if keep && !state.record.is_empty() {
        state.record.push('\n');
    }
    emit(Event::NextGame {
        game: state.results.len() as u32 + 1,
        gull: state.gull,
    });
}
