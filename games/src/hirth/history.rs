//! Checks of a received state's match and history: the target, the round, the finished games
//! (`results`) against the match points (H9–H11), and the record text (`record`, `log`) against
//! the H12 syntax and the turns it counts. The position itself is checked by `validate`.

use super::board::Colour;
use super::record;
use super::state::{GameResult, HirthState, MAX_ROUND, MAX_TARGET, Phase, Victory};
use crate::{InvalidState, Seat};

type Check = Result<(), InvalidState>;

fn fail(path: impl Into<String>, reason: impl Into<String>) -> Check {
    Err(InvalidState::new(path, reason))
}

/// The most points one game can score: Drepið, tripled (H9, H10).
const MOST_GAME_POINTS: u64 = 15;

/// The numbers the other checks rely on: the target and the round.
pub fn check_bounds(state: &HirthState) -> Check {
    let target = state.options.target;
    if !(1..=MAX_TARGET).contains(&target) {
        return fail(
            "options.target",
            format!("the match target is 1 to {MAX_TARGET} points (H11)"),
        );
    }
    if !(1..=MAX_ROUND).contains(&state.round) {
        return fail("round", format!("rounds count from 1 to {MAX_ROUND}"));
    }
    Ok(())
}

/// The finished games, the record and the log, against the rest of the state.
pub fn check(state: &HirthState) -> Check {
    results(state)?;
    record(state)?;
    log(state)
}

/// The seat playing Gull in game `index` (0-based): the seats alternate, First starts (H11).
fn gull_in_game(index: usize) -> Seat {
    if index.is_multiple_of(2) {
        Seat::First
    } else {
        Seat::Second
    }
}

fn results(state: &HirthState) -> Check {
    let target = u64::from(state.options.target);
    let over = state.phase == Phase::Over;
    // Every game scores at least a point and the match stops at the target.
    let most_games = 2 * target;
    if state.results.len() as u64 > most_games {
        return fail(
            "results",
            format!("a match to {target} points has at most {most_games} games"),
        );
    }
    let mut sums = [0u64; 2];
    for (i, r) in state.results.iter().enumerate() {
        let path = format!("results[{i}]");
        result(r, i, &path)?;
        if sums.iter().any(|&s| s >= target) {
            return fail(
                path,
                format!("the match ended at {target} points before this game (H11)"),
            );
        }
        sums[r.winner.index()] += u64::from(r.points);
    }
    for seat in Seat::BOTH {
        let (points, sum) = (u64::from(state.points[seat.index()]), sums[seat.index()]);
        if points != sum {
            return fail(
                format!("points[{}]", seat.index()),
                format!("the results give {sum} points to this seat, not {points} (H11)"),
            );
        }
    }
    if over && state.results.is_empty() {
        return fail("results", "a finished match has finished games");
    }
    let current = state.results.len() - usize::from(over);
    let gull = gull_in_game(current);
    if state.gull != gull {
        return fail(
            "gull",
            format!(
                "in game {} the {} seat plays Gull: the seats alternate, the first starts (H11)",
                current + 1,
                seat_word(gull)
            ),
        );
    }
    Ok(())
}

fn seat_word(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "first",
        Seat::Second => "second",
    }
}

/// One finished game: its factor, its points and the winner's colour fit together.
fn result(r: &GameResult, index: usize, path: &str) -> Check {
    if !(1..=3).contains(&r.factor) {
        return fail(format!("{path}.factor"), "the factor is 1, 2 or 3 (H10)");
    }
    let factor_fits = match r.victory {
        Victory::RefusedDouble => r.factor == 1,
        Victory::RefusedTriple => r.factor == 2,
        _ => true,
    };
    if !factor_fits {
        return fail(
            format!("{path}.factor"),
            "a double is refused at factor 1, a triple at factor 2 (H10)",
        );
    }
    let points = r.victory.points(r.factor);
    debug_assert!(u64::from(points) <= MOST_GAME_POINTS);
    if r.points != points {
        return fail(
            format!("{path}.points"),
            format!(
                "{} at factor {} scores {points} points (H9, H10)",
                r.victory.word(),
                r.factor
            ),
        );
    }
    let colour = if r.winner == gull_in_game(index) {
        Colour::Gull
    } else {
        Colour::Silfr
    };
    if r.winner_colour != colour {
        return fail(
            format!("{path}.winner_colour"),
            format!(
                "in game {} the {} seat plays {} (H11)",
                index + 1,
                seat_word(r.winner),
                colour.word()
            ),
        );
    }
    Ok(())
}

/// The record holds one H12 line per finished turn, a blank line between games: its games match
/// `results`, and the turns of the game under way give its round and mover.
/// An empty record is a history left out (a hand-built position), not a contradiction.
fn record(state: &HirthState) -> Check {
    let text = &state.record;
    if text.is_empty() {
        return Ok(());
    }
    if !text.ends_with('\n') {
        return fail("record", "every line of the record ends with a newline");
    }
    let mut games = 0usize;
    let mut turns = 0usize;
    for (n, line) in text.split_terminator('\n').enumerate() {
        let fail = |reason: String| fail("record", format!("line {}: {reason}", n + 1));
        if line.is_empty() {
            if turns == 0 {
                return fail("a blank line ends a game, which has at least one turn".into());
            }
            games += 1;
            turns = 0;
            continue;
        }
        let colour = if turns.is_multiple_of(2) {
            Colour::Gull
        } else {
            Colour::Silfr
        };
        let label = format!("{}{}", colour.letter(), turns / 2 + 1);
        let rest = match line.split_once(' ') {
            Some((first, rest)) if first == label => rest,
            _ => {
                return fail(format!(
                    "turn {} of a game starts with {label} (H12)",
                    turns + 1
                ));
            }
        };
        record::check_line(rest).or_else(fail)?;
        turns += 1;
    }
    let over = state.phase == Phase::Over;
    let finished = state.results.len();
    let expected = if over { finished - 1 } else { finished };
    if games != expected {
        return fail(
            "record",
            format!("{finished} finished games, but the record separates {games}"),
        );
    }
    if over {
        if turns == 0 {
            return fail("record", "the last game of a finished match has its turns");
        }
        return Ok(());
    }
    let mover = if turns.is_multiple_of(2) {
        Colour::Gull
    } else {
        Colour::Silfr
    };
    let round = turns / 2 + 1;
    if state.position.mover != mover || state.round as usize != round {
        return fail(
            "record",
            format!(
                "{turns} turns of this game are recorded, so it is round {round} and {} moves",
                mover.word()
            ),
        );
    }
    Ok(())
}

/// The log of the turn under way: its steps, doubling and battle notes fit the phase.
fn log(state: &HirthState) -> Check {
    let log = &state.log;
    let steps = record::count_steps(&log.steps).or_else(|r| fail("log.steps", r).map(|_| 0))?;
    let doubling = log.doubling.as_bytes();
    if !doubling.len().is_multiple_of(2) || doubling.len() > 8 {
        return fail(
            "log.doubling",
            "offers and answers, two letters each (Gd Sa St …)",
        );
    }
    let mover = state.position.mover;
    for (i, pair) in doubling.chunks(2).enumerate() {
        let (who, expected) = if i % 2 == 0 {
            (mover, "d or t")
        } else {
            (mover.other(), "a")
        };
        let ok = pair[0] == who.letter() as u8
            && match i % 2 {
                0 => matches!(pair[1], b'd' | b't'),
                _ => pair[1] == b'a',
            };
        if !ok {
            return fail(
                "log.doubling",
                format!("note {} is {}'s {expected} (H10, H12)", i + 1, who.word()),
            );
        }
    }
    let offers_open = doubling.len() / 2 % 2 == 1;
    match state.phase {
        Phase::Over => {
            if *log != Default::default() {
                return fail("log", "a finished match has no turn under way");
            }
        }
        Phase::Movement | Phase::Offer => {
            // A hand-built state may leave its log out, never write more than happened.
            if steps > usize::from(state.position.steps) {
                return fail(
                    "log.steps",
                    format!(
                        "{steps} steps written, {} taken (position.steps)",
                        state.position.steps
                    ),
                );
            }
            if !doubling.is_empty() && offers_open != (state.phase == Phase::Offer) {
                return fail(
                    "log.doubling",
                    "an offer is open exactly while the phase is offer (H10)",
                );
            }
            if !log.battles.is_empty() {
                return fail(
                    "log.battles",
                    "battles are fought when the movement phase ends",
                );
            }
        }
        Phase::Retreat { .. } => {
            if offers_open {
                return fail("log.doubling", "an offer was left unanswered (H10)");
            }
            if !log.battles.is_empty() && log.battles.matches('?').count() != 1 {
                return fail(
                    "log.battles",
                    "the battle notes hold one ? for the retreat to be decided (H7, H12)",
                );
            }
            record::check_notes(&log.battles.replace('?', "^"))
                .or_else(|r| fail("log.battles", r))?;
        }
    }
    Ok(())
}
