//! Hirþ in words: names of sides, seats and spaces, the words and headings for moves, and
//! what events did (reading the steps' notation back into words).

use moot_templates::hirth::Side;

use crate::games::Seat;
use crate::games::hirth::{Colour, Event, HirthState, Move, Space, Stay, Unit, Victory};

/// The side of the board picture a colour plays.
pub(super) fn side(colour: Colour) -> Side {
    match colour {
        Colour::Gull => Side::Gull,
        Colour::Silfr => Side::Silfr,
    }
}

pub(super) fn title(colour: Colour) -> &'static str {
    side(colour).word()
}

pub(super) fn seat_word(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "Player 1",
        Seat::Second => "Player 2",
    }
}

/// The name of a space for people (H1).
pub(super) fn long_name(space: Space) -> &'static str {
    match space.name() {
        '0' => "Gull's home",
        '1' => "Gull Norðr Delta",
        '2' => "Gull Suðr Delta",
        '3' => "Gull Norðr Archipelago",
        '4' => "Gull Suðr Archipelago",
        'm' => "Miðr",
        '5' => "Silfr Norðr Archipelago",
        '6' => "Silfr Suðr Archipelago",
        '7' => "Silfr Norðr Delta",
        '8' => "Silfr Suðr Delta",
        _ => "Silfr's home",
    }
}

/// A space in a sentence: `Miðr`, `Gull's home`, else its number.
pub(super) fn at(space: Space) -> String {
    match space.name() {
        'm' | '0' | '9' => long_name(space).to_string(),
        name => name.to_string(),
    }
}

fn unit_words(unit: Unit) -> String {
    match unit {
        Unit::L => "the L".to_string(),
        Unit::H => "an H".to_string(),
        Unit::K(0) => "the empty K".to_string(),
        Unit::K(crew) => format!("the K with {crew} H aboard"),
    }
}

/// Says who stays behind in an entry choice: `on 6 the L stays on Miðr`.
fn stay_words(stay: &Stay) -> String {
    let who = match (stay.unit, stay.count) {
        (Unit::H, 1) => "1 H stays".to_string(),
        (Unit::H, n) => format!("{n} H stay"),
        (Unit::K(crew), 1) => format!("the K with {crew} H stays"),
        (Unit::K(crew), n) => format!("{n} Ks with {crew} H each stay"),
        (Unit::L, _) => "the L stays".to_string(),
    };
    let where_ = match stay.from {
        Some(from) => format!("on {}", at(from)),
        None => "in the reserve".to_string(),
    };
    format!("at {}, {who} {where_}", at(stay.to))
}

/// A step's notation (`L13`, `Kii0>1`, `He`, `H3i`, `Hr3[Ki]`) in words, or `None` if it is
/// not one the engine writes.
fn step_words(notation: &str) -> Option<String> {
    let mut chars = notation.chars().peekable();
    let piece = chars.next()?;
    let mut crew = 0;
    while piece == 'K' && chars.peek() == Some(&'i') {
        chars.next();
        crew += 1;
    }
    let unit = match piece {
        'H' => Unit::H,
        'L' => Unit::L,
        'K' => Unit::K(crew),
        _ => return None,
    };
    let what = unit_words(unit);
    let space = |c: Option<char>| c.and_then(Space::from_name);
    match chars.next()? {
        'e' => {
            let what = if piece == 'K' { "an empty K" } else { "an H" };
            Some(match chars.next() {
                Some('>') => format!("entered {what} from the reserve, attacking its own home"),
                _ => format!("entered {what} from the reserve"),
            })
        }
        'r' => Some(format!(
            "took an H off the K on {}",
            at(space(chars.next())?)
        )),
        c => {
            let from = space(Some(c))?;
            match chars.next()? {
                'i' => Some(format!("put an H on {} aboard a K", at(from))),
                '>' => Some(format!(
                    "attacked {} from {} with {what}",
                    at(space(chars.next())?),
                    at(from)
                )),
                to => Some(format!(
                    "moved {what} from {} to {}",
                    at(from),
                    at(space(Some(to))?)
                )),
            }
        }
    }
}

/// A battle note item (`SHx`, `GKii^`, `GH6`) in words.
pub(super) fn item_words(item: &str) -> String {
    let mut chars = item.chars();
    let colour = match chars.next() {
        Some('G') => "Gull's",
        Some('S') => "Silfr's",
        _ => return item.to_string(),
    };
    let rest: String = chars.collect();
    let crew = rest.matches('i').count();
    let piece = match rest.chars().next() {
        Some('H') => "H".to_string(),
        Some('L') => "Lofðungr".to_string(),
        Some('K') => format!("K with {crew} H aboard"),
        _ => return item.to_string(),
    };
    match rest.chars().last() {
        Some('x') => format!("{colour} {piece} (out of the game)"),
        Some('^') => format!("{colour} {piece} (back to the reserve)"),
        _ => format!("{colour} {piece}"),
    }
}

pub(super) fn victory_words(victory: Victory, factor: u8) -> String {
    let factor = match (victory, factor) {
        (Victory::RefusedDouble | Victory::RefusedTriple, _) | (_, 1) => "",
        (_, 2) => ", doubled",
        _ => ", tripled",
    };
    format!("{}{factor}", victory.word())
}

pub(super) fn label(state: &HirthState, mv: &Move) -> String {
    let pos = &state.position;
    let enemy_holds = |s: Space| pos.controller(s).is_some_and(|c| c != pos.mover);
    match mv {
        Move::Enter { karve } => {
            let what = if *karve { "an empty K" } else { "an H" };
            if enemy_holds(pos.mover.home()) {
                format!("Enter {what} from the reserve, attacking your home held by the enemy")
            } else {
                format!("Enter {what} from the reserve")
            }
        }
        Move::Go { from, unit, to } => {
            let what = unit_words(*unit);
            if enemy_holds(*to) {
                format!("Attack {} from {} with {what}", at(*to), at(*from))
            } else if pos.controller(*to).is_none() {
                format!(
                    "Move {what} from {} to {} (it stops there)",
                    at(*from),
                    at(*to)
                )
            } else {
                format!("Move {what} from {} to {}", at(*from), at(*to))
            }
        }
        Move::Board { space, karve } => format!(
            "Put an H on {} aboard the K holding {}{}",
            at(*space),
            karve.crew,
            if karve.stopped { " (stopped)" } else { "" }
        ),
        Move::Disembark { space, crew } => {
            format!("Take an H off the K holding {crew} on {}", at(*space))
        }
        Move::End { stays } if pos.lines.is_empty() => "End the turn (no battles)".to_string(),
        Move::End { stays } if stays.is_empty() => {
            "End the movement phase and fight; all winning attackers enter".to_string()
        }
        Move::End { stays } => {
            let stays: Vec<String> = stays.iter().map(stay_words).collect();
            format!(
                "End the movement phase and fight; {}; the other winning attackers enter",
                stays.join("; ")
            )
        }
        Move::Offer => {
            let what = if state.coin.factor == 2 {
                "triple"
            } else {
                "double"
            };
            format!(
                "Offer the Penningr: {what} the game to ×{}",
                state.coin.factor + 1
            )
        }
        Move::Accept => {
            let what = if state.coin.factor == 2 {
                "tripling"
            } else {
                "doubling"
            };
            format!(
                "Accept the {what} (game now worth ×{})",
                state.coin.factor + 1
            )
        }
        Move::GiveUp => {
            let points = if state.coin.factor == 2 { 2 } else { 1 };
            format!(
                "Give up the game ({} scores {points} point{})",
                title(pos.mover),
                if points == 1 { "" } else { "s" }
            )
        }
        Move::Retreat(to) => format!("Retreat the Lofðungr to {}", at(*to)),
    }
}

pub(super) fn group(_state: &HirthState, mv: &Move) -> String {
    match mv {
        Move::Enter { .. } => "Enter from the reserve".to_string(),
        Move::Go { from, .. } => format!("Move from {}", at(*from)),
        Move::Board { .. } | Move::Disembark { .. } => "Board or leave a Karve".to_string(),
        Move::End { .. } => "End the movement phase".to_string(),
        Move::Offer => "The Penningr".to_string(),
        Move::Accept | Move::GiveUp => "Answer the offer".to_string(),
        Move::Retreat(_) => "Retreat the Lofðungr".to_string(),
    }
}

pub(super) fn describe(event: &Event) -> String {
    match event {
        Event::Step {
            colour, notation, ..
        } => match step_words(notation) {
            Some(words) => format!("{} {words}", title(*colour)),
            None => format!("{} took the step {notation}", title(*colour)),
        },
        Event::Offered { seat, factor } => format!(
            "{} offered the Penningr: accepting makes the game worth ×{factor}",
            seat_word(*seat)
        ),
        Event::Accepted { seat, factor } => format!(
            "{} accepted: the game is worth ×{factor}, and {} holds the Penningr",
            seat_word(*seat),
            seat_word(*seat)
        ),
        Event::GaveUp { seat } => format!("{} gave up the game", seat_word(*seat)),
        Event::Battle {
            space,
            attacker,
            attack,
            defence,
            winner,
            losses,
            entries,
            ..
        } => {
            let side = if winner == attacker {
                "the attacker"
            } else {
                "the defender"
            };
            let mut words = format!(
                "Battle on {}: attack {attack} against defence {defence}; {} ({side}) wins",
                at(*space),
                seat_word(*winner)
            );
            if !losses.is_empty() {
                let lost: Vec<String> = losses.iter().map(|i| item_words(i)).collect();
                words.push_str(&format!(". Lost: {}", lost.join(", ")));
            }
            if !entries.is_empty() {
                let entered: Vec<String> = entries.iter().map(|i| item_words(i)).collect();
                words.push_str(&format!(". Entered {}: {}", at(*space), entered.join(", ")));
            }
            words
        }
        Event::Retreat { seat, from, to } => format!(
            "{}'s Lofðungr retreated from {} to {}",
            seat_word(*seat),
            at(*from),
            at(*to)
        ),
        Event::Killed { seat, space } => format!(
            "{}'s Lofðungr had nowhere to retreat and was killed on {}: Drepið",
            seat_word(*seat),
            at(*space)
        ),
        Event::ForcedOff { seat, from } => format!(
            "{}'s Lofðungr had nowhere to retreat from {} and left the board: Þungur Hnífur",
            seat_word(*seat),
            at(*from)
        ),
        Event::GameEnded {
            winner,
            winner_colour,
            victory,
            factor,
            points,
        } => format!(
            "{} ({}) won the game by {}: {points} point{}",
            seat_word(*winner),
            title(*winner_colour),
            victory_words(*victory, *factor),
            if *points == 1 { "" } else { "s" }
        ),
        Event::NextGame { game, gull } => format!(
            "Game {game} begins: {} plays Gull and moves first",
            seat_word(*gull)
        ),
        Event::MatchEnded { winner, points } => format!(
            "{} won the match, {} to {}",
            seat_word(*winner),
            points[0],
            points[1]
        ),
    }
}

/// The match's score in words: each side's points and Hirþ out of the game, the last game's
/// result (no codes such as `yfirrad`).
pub(super) fn score_words(state: &HirthState) -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = Colour::BOTH
        .iter()
        .map(|&c| {
            let points = state.points[state.seat_of(c).index()];
            (
                format!("{} (now)", title(c)),
                format!(
                    "{points} match point{}, {} H out of the game",
                    if points == 1 { "" } else { "s" },
                    state.position.removed.get(c)
                ),
            )
        })
        .collect();
    rows.push((
        "The match".to_owned(),
        format!("goes to {} points", state.options.target),
    ));
    if let Some(last) = state.results.last() {
        rows.push((
            "Last game".to_owned(),
            format!(
                "won by {} ({}), {}: {} point{}",
                title(last.winner_colour),
                seat_word(last.winner),
                victory_words(last.victory, last.factor),
                last.points,
                if last.points == 1 { "" } else { "s" }
            ),
        ));
    }
    rows
}
