//! The High Kings of Tara (rules T1–T13 of `rules/tara.md`), Levels 1 and 2, single games and
//! two-game matches.
//!
//! - [`geometry`]: the 45 hills, their names, neighbours and knight targets (one table);
//! - [`state`]: the versioned state, options and colours;
//! - [`board`]: bitboards and the questions the rules ask of a position;
//! - [`moves`]: the moves, legality, and why a move is refused;
//! - [`play`]: the effects of a move and the transitions between turns and games;
//! - [`scoring`], [`notation`], [`validate`].
//!
//! # Seats and colours
//! [`Seat::First`] is the player who moves first in game 1, with the colour of the `first`
//! option. Players keep their colours in both games of a match; game 2 starts with the other
//! player (T12 "each player starting one").
//!
//! # A match
//! When game 1 ends, the state stays at its final position with `over: true`; the status
//! remains ongoing and the only legal move is `next`, for the player who starts game 2. It
//! empties the board, keeps game 1's points in `game1_points`, and the score shows the totals.
//! The match is finished when game 2 is over; the winner has more points in total.
//!
//! # The state
//! `{"version": 1, "options", "game", "ringforts": {"red": [..], "blue": [..]}, "kings": {..},
//! "to_move", "battle": {..}, "captured": {..} (kings each colour captured), "passed": {..},
//! "final_turn" (who plays the one more turn of T10), "sacrificed": {"red": "B3", ..} (T11),
//! "over", "game1_points" (a match's game 1 points, during game 2)}`. Hill lists keep the order
//! pieces arrived in; `validate` names entries by it (`ringforts.red[2]`).
//!
//! # Interpretations (where the rules leave a choice)
//! - A setup placement counts as the move of the king placed, so T9 applies to it (the rulebook
//!   says kings may be captured "throughout the game").
//! - Battle entry is checked at the start of each turn after setup, with mobility judged under
//!   Manoeuvre rules; a player whose opponent is in Battle enters it at the start of its turn.
//!   The flags in the state are those in force for the player to move.
//! - A voluntary pass (T10) judges every king under Battle rules (vacant knight target not next
//!   to a friendly king): the player to move is in Battle when all its kings are immobile, and
//!   the opponent enters Battle at its next turn at the latest.
//! - T2 \[I\] "no ringfort left": a colour never has more than 30 ringforts on the board.
//!   Building (setup included) and capturing a ringfort use one of the mover's, so a player
//!   with 30 on the board has no king that can move to a vacant hill (it is immobile) and cannot
//!   capture a ringfort; a sacrifice needs a spare ringfort of the enemy's.
//! - A forced pass (no legal move) is listed as the only move, `pass`.
//! - The turn after a sacrifice moves only the sacrificing king. If it has a vacant target it
//!   must take one; otherwise it may backtrack (and sacrifice again) or capture a ringfort even
//!   if the player's other kings are mobile (T11 names only that king's mobility). If it can do
//!   none, it is captured at the start of that turn (a double capture).
//! - A sacrifice's capture of enemy kings (T9) is judged as the king lands, before its ringfort
//!   changes hands: the rulebook allows "capture an enemy king and sacrifice a ringfort, all in
//!   the same turn", which could not happen after the change. "A ringfort built this turn cannot
//!   be sacrificed" holds by construction: a backtrack builds nothing.
//! - A king on its sacrificed ringfort is immune during the opponent's next turn; kings on the
//!   enemy's ringforts are never captured by T9 (the ringfort is not "theirs"). The state keeps
//!   one marker per colour (`sacrificed`): both players may have sacrificed on consecutive
//!   turns, each king then immune during the other's turn and forced on its owner's.
//! - T11 \[I\]: a king still on its sacrificed ringfort when the game ends (other than by a double
//!   capture, which decides the game anyway) is captured by default.
//! - The one more turn after a pass or after the last hill is filled is played under the usual
//!   rules, forced pass included; the game ends after it whatever it was.
//! - The notation `D7xE5` is accepted only for a capture; `D7-E5` is read for any king move.

pub mod board;
pub mod geometry;
pub mod hills;
pub mod moves;
pub mod notation;
pub mod play;
pub mod scoring;
pub mod state;
pub mod validate;

#[cfg(test)]
pub(crate) mod tests; // its positions serve the page tests too

pub use geometry::Hill;
pub use moves::TaraMove;
pub use play::TaraEvent;
pub use scoring::{ColourScore, TaraScore};
pub use state::{Colour, PerColour, TaraOptions, TaraState};

use crate::{Game, InvalidOptions, InvalidState, MoveError, Seat, Status, Turn};

/// The engine of The High Kings of Tara.
pub struct Tara;

impl Tara {
    fn winner(state: &TaraState) -> Option<Colour> {
        if state.options.is_match {
            scoring::match_totals(state).and_then(|t| scoring::match_winner(&t))
        } else {
            scoring::points_and_winner(state).1
        }
    }

    fn decision(state: &TaraState) -> String {
        if state.between_games() {
            return "start game 2 of the match (next)".to_string();
        }
        if state.in_setup() {
            return "build a ringfort and place a king on it".to_string();
        }
        if let Some(king) = moves::forced_king(state) {
            return format!("move the king on {king}, which sacrificed last turn");
        }
        let moves = Tara::legal_moves(state);
        let last = if state.final_turn.is_some() {
            " (one more turn, then the game ends)"
        } else {
            ""
        };
        if moves == [TaraMove::Pass] {
            return format!("pass: no king can move{last}");
        }
        let mut decision = "move a king".to_string();
        if moves.contains(&TaraMove::Pass) {
            decision.push_str(" or pass");
        }
        decision + last
    }
}

/// A hill, as a regular expression: columns `A`–`G`, rows 1–7 but the corners, either case.
macro_rules! hill_form {
    () => {
        "([B-Fb-f][1-7]|[AaGg][2-6])"
    };
}

/// A hill, as a regular expression (unanchored): what a state's hill lists hold.
pub const HILL_FORM: &str = hill_form!();

impl Game for Tara {
    const ID: &'static str = "tara";
    const NAME: &'static str = "The High Kings of Tara";
    const RULE_LETTER: char = 'T';
    const NOTATION: &'static str = "**Move notation (The High Kings of Tara, T13).** Hills are written \
column letter then row, `A2`…`G6` (the corners `A1`, `A7`, `G1`, `G7` are not hills). A move is \
one of:\n\
- a setup placement: the hill, `D4`;\n\
- a king's move to a vacant hill, or a backtrack: `D7-E5`;\n\
- a ringfort capture: `D7xE5` (`D7-E5` is accepted too: the position tells them apart);\n\
- a sacrifice (T11, level 2): `C5sB3`;\n\
- `pass`;\n\
- `next`: starts game 2 of a match (T12).";
    const EXAMPLE_MOVES: &'static [&'static str] = &["D4", "C5"];
    const MOVE_FORM: Option<&'static str> = Some(concat!(
        hill_form!(),
        "|",
        hill_form!(),
        "[-xXsS]",
        hill_form!(),
        "|[pP][aA][sS][sS]|[nN][eE][xX][tT]"
    ));

    type Options = TaraOptions;
    type State = TaraState;
    type Move = TaraMove;
    type Event = TaraEvent;
    type Score = TaraScore;

    fn option_bounds(name: &str) -> Option<(i64, i64)> {
        // T11: the Level 1 game, or Level 2 with the ringfort sacrifices.
        (name == "level").then_some((1, 2))
    }

    fn new_game(options: &TaraOptions) -> Result<TaraState, InvalidOptions> {
        if !matches!(options.level, 1 | 2) {
            return Err(InvalidOptions {
                field: "level".into(),
                reason: format!("{} is not a level: use 1 or 2", options.level),
            });
        }
        Ok(TaraState::start(options, 1, options.first))
    }

    fn options(state: &TaraState) -> TaraOptions {
        state.options.clone()
    }

    fn validate(state: &TaraState) -> Result<(), InvalidState> {
        validate::validate(state)
    }

    fn turn(state: &TaraState) -> Turn {
        if state.between_games() {
            return Turn::ToAct(state.options.seat_of(state.options.first.other()));
        }
        if !state.over {
            return Turn::ToAct(state.options.seat_of(state.to_move));
        }
        match Tara::winner(state) {
            Some(colour) => Turn::Won(state.options.seat_of(colour)),
            None => Turn::Drawn,
        }
    }

    fn status(state: &TaraState) -> Status {
        match Tara::turn(state) {
            Turn::ToAct(seat) => Status::Ongoing {
                to_act: seat,
                colour: state.options.colour_of(seat).name().to_string(),
                decision: Tara::decision(state),
            },
            turn => {
                let winner = match turn {
                    Turn::Won(seat) => Some(seat),
                    _ => None,
                };
                let result = scoring::outcome(state);
                let points = |p: PerColour<u32>| format!("Red {}, Blue {}", p.red, p.blue);
                let reason = match scoring::match_totals(state) {
                    Some(totals) => format!(
                        "game 2: {}; match points: {}",
                        result.reason,
                        points(totals)
                    ),
                    None => format!("{}; points: {}", result.reason, points(result.points)),
                };
                Status::Finished {
                    winner,
                    winner_colour: winner.map(|s| state.options.colour_of(s).name().to_string()),
                    reason,
                }
            }
        }
    }

    fn legal_moves_into(state: &TaraState, out: &mut Vec<TaraMove>) {
        moves::generate(state, out);
    }

    fn apply(state: &mut TaraState, mv: &TaraMove) -> Result<Vec<TaraEvent>, MoveError> {
        let legal = Tara::legal_moves(state);
        if !legal.contains(mv) {
            return Err(moves::explain_illegal(state, mv));
        }
        let mut events = Vec::new();
        play::play(state, *mv, legal.len() == 1, &mut |e| events.push(e));
        Ok(events)
    }

    fn play_unchecked(state: &mut TaraState, mv: &TaraMove) {
        play::play(state, *mv, false, &mut play::Silent);
    }

    fn score(state: &TaraState) -> TaraScore {
        scoring::score(state)
    }

    fn parse_move(state: &TaraState, text: &str) -> Result<TaraMove, MoveError> {
        notation::parse_move(state, text)
    }

    fn format_move(state: &TaraState, mv: &TaraMove) -> String {
        notation::format_move(state, mv)
    }
}

/// The seat whose colour is `colour` (for tests and clients).
pub fn seat_of(state: &TaraState, colour: Colour) -> Seat {
    state.options.seat_of(colour)
}
