//! Hirþ (Ion Game Design), as `rules/hirth.md` (H1–H12) says.
//!
//! Seats: [`Seat::First`] plays Gull in game 1; the seats alternate Gull game by game (H11),
//! and Gull starts each game. A match runs to `target` points (default 5; 1 plays one game); when
//! a game ends and the match goes on, the next game starts at once (event `next_game`).
//!
//! # Modules
//! - `board`: the eleven spaces and the one adjacency table (H1), the colours;
//! - `state`: the serialisable state (position, phase, Penningr, match, record);
//! - `moves`: the move type and the four kinds of step (H3, H4);
//! - `battle`: battles, losses and entries (H5, H6);
//! - `limit`: the Karve limit and its look-ahead (H8);
//! - `rules`: legal moves, playing them, retreats, victories, doubling, the match (H7, H9–H11);
//! - `notation`: the move notation; `record`: the H12 record format; `validate`.
//!
//! # Move notation
//! Every move is one step or one decision, written with the H12 step tokens:
//!
//! | move | notation |
//! |---|---|
//! | enter | `He`, `Ke`; `He>0` / `He>9` when the enemy holds the own home (an attack) |
//! | move | `L13`, `H3m`, `Kii03` (a K with its crew); `L1>3` when it attacks (`>` optional when read) |
//! | board | `H3i`; `H3i[Kii]` names the K by its crew (`*` if stopped) when several differ |
//! | disembark | `Hr3`; `Hr3[Kii]` names the K when several differ |
//! | end the movement phase | `end`; `end >6Lm >0H^`: per won battle, the attackers that stay where they attacked from (`^`: off the board, back to reserve); all others enter. Only entries that keep the Karve limit are offered |
//! | Penningr | `offer`, `accept`, `give-up` |
//! | retreat | `retreat 8` |
//!
//! Decisions of the player who is not moving (the answer to an offer, the Lofðungr's retreat)
//! are phases of the state; `turn()` and `status` name that player.
//!
//! # Record (H12)
//! `read_record` reads the rulebook's format (paths through own spaces, `i`, `r#`, doubling
//! notes, battle notes for entries and retreats), forgiving the slips of the rulebook's example
//! with warnings. `write_record` writes the finished turns kept in the state, one token per
//! step (`[K…]` qualifiers where the rulebook's notation would be ambiguous), a blank line
//! between games. `validate` does not replay the record: it is the client's history.
//!
//! # Interpretations (beyond those of hirth.md)
//! - Pieces stopped this turn are tracked per piece; a K carries one flag for itself and crew.
//! - An H may not move on after boarding within one record token (it moves with its K).
//! - The H8 look-ahead has a node budget; it is never reached from positions of play, and a
//!   crafted state whose turn cannot be shown to end within it is refused by `validate`.
//! - Yfirráð is checked for both players after the retreat (a retreat could complete it).
//! - A refused offer scores its points (1 or 2) unmultiplied.

mod battle;
mod board;
mod history;
mod karves;
mod limit;
mod moves;
mod notation;
pub mod random_play;
mod record;
mod rules;
mod state;
mod validate;

#[cfg(test)]
mod random_games;
#[cfg(test)]
pub(crate) mod tests; // fill_reserves serves the page tests too

pub use board::{Colour, Space};
pub use moves::{Move, Stay, Unit};
pub use rules::Event;
pub use state::{
    Cell, Coin, GameResult, Group, HirthOptions, HirthState, Karve, Karves, Line, Lines,
    MAX_TARGET, Phase, Position, Reserve, STEPS_PER_TURN, Victory,
};

use serde::Serialize;

use super::{
    Game, InvalidOptions, InvalidState, MoveError, Record, RecordError, Seat, Status, Turn,
};

/// The engine.
pub struct Hirth;

/// Match points, the Penningr and the game results.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "schema", schema(as = HirthScore))]
pub struct Score {
    /// Match points by seat (`[first, second]`).
    #[cfg_attr(feature = "schema", schema(min_items = 2, max_items = 2))]
    pub points: [u32; 2],
    /// The match points that win the match (H11): the option `target`.
    pub target: u32,
    /// The current game's doubling factor (H10).
    pub factor: u8,
    /// The seat holding the Penningr; absent while neutral.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coin_holder: Option<Seat>,
    /// The seat playing Gull in the current (or last) game.
    pub gull: Seat,
    /// The current game, counted from 1.
    pub game: u32,
    /// The result of the last finished game, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_result: Option<GameResult>,
    /// Hirþ removed from the game so far, by seat.
    #[cfg_attr(feature = "schema", schema(min_items = 2, max_items = 2))]
    pub removed: [u8; 2],
}

impl Hirth {
    fn match_winner(state: &HirthState) -> Option<Seat> {
        (state.phase == state::Phase::Over).then(|| {
            if state.points[0] >= state.points[1] {
                Seat::First
            } else {
                Seat::Second
            }
        })
    }
}

impl Game for Hirth {
    const ID: &'static str = "hirth";
    const NAME: &'static str = "Hirþ";
    const RULE_LETTER: char = 'H';
    const NOTATION: &'static str = "**Move notation (Hirþ, H12).** A turn is several moves: steps of the \
movement phase, then `end`, then any retreats. Pieces are `H` (Hirþ), `L` (the Lofðungr) and \
`K` (a Karve, `Kii` with two Hirþ aboard); spaces are `0`…`9` and `m` (Miðr), `e` is off the \
board (entering), `^` off the board (leaving). A move is one of:\n\
- enter: `He`, `Ke`; `He>0` (or `He>9`) attacks the own home space when the enemy holds it;\n\
- move: `L13` (the Lofðungr from 1 to 3), `H3m`, `Kii03` (a Karve with its crew); `L1>3` when \
the step attacks;\n\
- board: `H3i` (a Hirþ on 3 boards a Karve there); `H3i[Kii]` names the Karve by its crew \
(`[K]`…`[Kiiii]`, `*` if stopped: `[Ki*]`) when several differ;\n\
- disembark: `Hr3` (a Hirþ leaves the Karve on 3); `Hr3[Kii]` names the Karve;\n\
- end the movement phase: `end`, or `end >6Lm` / `end >0H^`: for each battle won, the attackers \
that stay where they attacked from (`^`: off the board); all others enter the space won;\n\
- the Penningr (H10): `offer`, then the other player's `accept` or `give-up`;\n\
- a retreat (H7): `retreat 8`, the space the beaten Lofðungr retreats to.\n\n\
`legal-moves` lists every move in this notation.";
    const EXAMPLE_MOVES: &'static [&'static str] = &["He", "end"];
    // Steps name Karves by their crews and battles by who stays: only described.
    const MOVE_FORM: Option<&'static str> = None;

    type Options = HirthOptions;
    type State = HirthState;
    type Move = Move;
    type Event = Event;
    type Score = Score;

    fn option_bounds(name: &str) -> Option<(i64, i64)> {
        (name == "target").then_some((1, state::MAX_TARGET.into()))
    }

    fn new_game(options: &HirthOptions) -> Result<HirthState, InvalidOptions> {
        if !(1..=state::MAX_TARGET).contains(&options.target) {
            return Err(InvalidOptions {
                field: "target".into(),
                reason: format!(
                    "the match target is 1 to {} points (H11)",
                    state::MAX_TARGET
                ),
            });
        }
        Ok(HirthState::new(options.clone()))
    }

    fn options(state: &HirthState) -> HirthOptions {
        state.options.clone()
    }

    fn validate(state: &HirthState) -> Result<(), InvalidState> {
        validate::validate(state)
    }

    fn turn(state: &HirthState) -> Turn {
        match Self::match_winner(state) {
            Some(seat) => Turn::Won(seat),
            None => Turn::ToAct(state.seat_of(rules::actor(state))),
        }
    }

    fn status(state: &HirthState) -> Status {
        if let Some(winner) = Self::match_winner(state) {
            let last = state.results.last();
            let reason = match last {
                Some(r) => {
                    let factor = match r.factor {
                        2 => ", doubled",
                        3 => ", tripled",
                        _ => "",
                    };
                    format!(
                        "{}{factor}: {} points; match {}–{}",
                        r.victory.word(),
                        r.points,
                        state.points[0],
                        state.points[1]
                    )
                }
                None => "match over".into(),
            };
            return Status::Finished {
                winner: Some(winner),
                winner_colour: last.map(|r| r.winner_colour.word().to_string()),
                reason,
            };
        }
        let colour = rules::actor(state);
        let decision = match state.phase {
            Phase::Offer => {
                let what = if state.coin.factor == 2 {
                    "triple"
                } else {
                    "double"
                };
                format!("answer the offer to {what} (accept or give-up)")
            }
            Phase::Retreat { from } => {
                format!("choose where the Lofðungr on {} retreats", from.name())
            }
            _ => format!(
                "take a step ({} of 5 taken), offer the Penningr or end the movement phase",
                state.position.steps
            ),
        };
        Status::Ongoing {
            to_act: state.seat_of(colour),
            colour: colour.word().to_string(),
            decision,
        }
    }

    fn legal_moves_into(state: &HirthState, out: &mut Vec<Move>) {
        rules::legal_moves(state, out);
    }

    fn apply(state: &mut HirthState, mv: &Move) -> Result<Vec<Event>, MoveError> {
        rules::check(state, mv)?;
        let mut events = Vec::new();
        rules::play(state, mv, Some(&mut events));
        Ok(events)
    }

    fn play_unchecked(state: &mut HirthState, mv: &Move) {
        rules::play(state, mv, None);
    }

    fn score(state: &HirthState) -> Score {
        let seat_removed = |seat: Seat| *state.position.removed.get(state.colour_of(seat));
        Score {
            points: state.points,
            target: state.options.target,
            factor: state.coin.factor,
            coin_holder: state.coin.holder.map(|c| state.seat_of(c)),
            gull: state.gull,
            game: state.results.len() as u32 + u32::from(state.phase != Phase::Over),
            last_result: state.results.last().copied(),
            removed: [seat_removed(Seat::First), seat_removed(Seat::Second)],
        }
    }

    fn parse_move(state: &HirthState, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(&state.position, text)
    }

    fn format_move(state: &HirthState, mv: &Move) -> String {
        notation::format_move(&state.position, mv)
    }

    fn read_record(options: &HirthOptions, text: &str) -> Result<Record<Move>, RecordError> {
        record::read_record(options, text)
    }

    fn write_record(state: &HirthState) -> Option<String> {
        Some(record::write_record(state))
    }
}
