//! Hirþ in words: names of sides, seats and spaces, the words and headings for moves, and
//! what events did (reading the steps' notation back into words).

use moot_templates::hirth::Side;

use crate::page_game::PlayerNames;
use crate::replay::Ply;
use moot_games::hirth::{Colour, Event, Hirth, HirthState, Move, Space, Stay, Unit, Victory};
use moot_games::{Game, Seat, Turn};

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

/// The players of one game of a match, named as the page names them: Gull and Silfr swap
/// seats from game to game (H11), so a seat's colour is the one of the game an event
/// belongs to.
#[derive(Clone, Copy)]
pub(super) struct Sides {
    pub gull: Seat,
    pub players: PlayerNames,
}

impl Sides {
    /// The sides of the game `state` is in.
    pub fn of(state: &HirthState, players: PlayerNames) -> Sides {
        Sides {
            gull: state.gull,
            players,
        }
    }

    pub fn colour(self, seat: Seat) -> Colour {
        if seat == self.gull {
            Colour::Gull
        } else {
            Colour::Silfr
        }
    }

    pub fn seat(self, colour: Colour) -> Seat {
        match colour {
            Colour::Gull => self.gull,
            Colour::Silfr => self.gull.other(),
        }
    }

    /// `Gull`, `You (Gull)`, `Computer (Silfr)`.
    pub fn name(self, seat: Seat) -> String {
        self.players.name(seat, self.colour(seat).word())
    }

    pub fn name_of(self, colour: Colour) -> String {
        self.name(self.seat(colour))
    }

    /// `Gull's`, `your`, `the computer's`.
    pub fn whose(self, colour: Colour) -> String {
        self.players.whose(self.seat(colour), colour.word())
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

/// A battle note item (`SHx`, `GKii^`, `GH6`) in words: `Silfr's H (out of the game)`,
/// `your H`.
pub(super) fn item_words(item: &str, sides: Sides) -> String {
    let mut chars = item.chars();
    let Some(colour) = chars.next().and_then(Colour::from_letter) else {
        return item.to_string();
    };
    let colour = sides.whose(colour);
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
                "Give up the game (your opponent scores {points} point{})",
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

/// What each event of a played move did, in words, naming the players as `players` does in
/// the colours of the game each event belongs to (a move that ends a game and begins the
/// next holds events of both).
/// A `single` game (a target of 1 point) tells how its game ended, and no match.
pub(super) fn describe(ply: &Ply<Hirth>, single: bool, players: PlayerNames) -> Vec<String> {
    let mover = if ply.colour == Colour::Gull.word() {
        ply.seat
    } else {
        ply.seat.other()
    };
    let mut sides = Sides {
        gull: mover,
        players,
    };
    ply.events
        .iter()
        .filter(|event| !(single && matches!(event, Event::MatchEnded { .. })))
        .map(|event| {
            let words = describe_event(event, sides);
            if let Event::NextGame { gull, .. } = event {
                sides.gull = *gull;
            }
            words
        })
        .collect()
}

/// One event in words, the players named by `sides`: those of the game the event belongs to
/// (for the start of the next game, the one that ended).
pub(super) fn describe_event(event: &Event, sides: Sides) -> String {
    match event {
        Event::Step { seat, notation, .. } => match step_words(notation) {
            Some(words) => format!("{} {words}", sides.name(*seat)),
            None => format!("{} took the step {notation}", sides.name(*seat)),
        },
        Event::Offered { seat, factor } => format!(
            "{} offered the Penningr: accepting makes the game worth ×{factor}",
            sides.name(*seat)
        ),
        Event::Accepted { seat, factor } => format!(
            "{} accepted and took the Penningr: the game is worth ×{factor}",
            sides.name(*seat)
        ),
        Event::GaveUp { seat } => format!("{} gave up the game", sides.name(*seat)),
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
                "Battle on {}: attack {attack} against defence {defence}; {} won it as {side}",
                at(*space),
                sides.name(*winner)
            );
            if !losses.is_empty() {
                let lost: Vec<String> = losses.iter().map(|i| item_words(i, sides)).collect();
                words.push_str(&format!(". Lost: {}", lost.join(", ")));
            }
            if !entries.is_empty() {
                let entered: Vec<String> = entries.iter().map(|i| item_words(i, sides)).collect();
                words.push_str(&format!(". Entered {}: {}", at(*space), entered.join(", ")));
            }
            words
        }
        Event::Retreat { seat, from, to } => format!(
            "{} retreated the Lofðungr from {} to {}",
            sides.name(*seat),
            at(*from),
            at(*to)
        ),
        Event::Killed { seat, space } => format!(
            "{} lost the Lofðungr: with nowhere to retreat, it was killed on {}: Drepið",
            sides.name(*seat),
            at(*space)
        ),
        Event::ForcedOff { seat, from } => format!(
            "{} lost the Lofðungr: with nowhere to retreat from {}, it left the board: Þungur Hnífur",
            sides.name(*seat),
            at(*from)
        ),
        Event::GameEnded {
            winner,
            victory,
            factor,
            points,
            ..
        } => format!(
            "{} won the game by {}: {points} point{}",
            sides.name(*winner),
            victory_words(*victory, *factor),
            if *points == 1 { "" } else { "s" }
        ),
        Event::NextGame { game, gull } => {
            let next = Sides {
                gull: *gull,
                ..sides
            };
            match sides.players.personal() {
                true => format!(
                    "Game {game} begins with the colours swapped: {} against {}; Gull moves first",
                    next.name(*gull),
                    next.name(gull.other())
                ),
                false => format!(
                    "Game {game} begins with the colours swapped: the player who had {} plays Gull now and moves first",
                    title(sides.colour(*gull))
                ),
            }
        }
        Event::MatchEnded { winner, points } => format!(
            "{} won the match, {} to {}",
            sides.name(*winner),
            points[winner.index()],
            points[winner.other().index()]
        ),
    }
}

/// The end of the match in words, the winner and their points first: `You (Gull) won the
/// match 5–0, the last game by Drepið, doubled: 4 points` (the engine's status says the
/// score in seat order, `match 0–5`). None while the match goes on.
pub(super) fn match_end_words(state: &HirthState, players: PlayerNames) -> Option<String> {
    let Turn::Won(winner) = Hirth::turn(state) else {
        return None;
    };
    let points = |seat: Seat| state.points[seat.index()];
    let winner_name = Sides::of(state, players).name(winner);
    // A target of 1 point is a single game: its end is the game's, said once.
    if state.options.target == 1 {
        return Some(match state.results.last() {
            Some(last) => format!(
                "{winner_name} won the game by {}: {} point{}",
                victory_words(last.victory, last.factor),
                last.points,
                if last.points == 1 { "" } else { "s" }
            ),
            None => format!("{winner_name} won the game"),
        });
    }
    let mut words = format!(
        "{} won the match {}–{}",
        winner_name,
        points(winner),
        points(winner.other())
    );
    if let Some(last) = state.results.last() {
        words.push_str(&format!(
            ", the last game by {}: {} point{}",
            victory_words(last.victory, last.factor),
            last.points,
            if last.points == 1 { "" } else { "s" }
        ));
    }
    Some(words)
}

/// The match's score in words: each player's points and Hirþ out of the game, the last
/// game's result (no codes such as `yfirrad`), the players named as `players` does.
pub(super) fn score_words(state: &HirthState, players: PlayerNames) -> Vec<(String, String)> {
    let sides = Sides::of(state, players);
    // A target of 1 point is a single game: points, not match points, and no match row.
    let single = state.options.target == 1;
    let mut rows: Vec<(String, String)> = Colour::BOTH
        .iter()
        .map(|&c| {
            let points = state.points[sides.seat(c).index()];
            (
                sides.name_of(c),
                format!(
                    "{points} {}point{}, {} H out of the game",
                    if single { "" } else { "match " },
                    if points == 1 { "" } else { "s" },
                    state.position.removed.get(c)
                ),
            )
        })
        .collect();
    if !single {
        rows.push((
            "The match".to_owned(),
            format!("goes to {} points", state.options.target),
        ));
    }
    if !state.results.is_empty() {
        rows.push(("Last game".to_owned(), last_game_words(state, players)));
    }
    rows
}

/// The last game's result: `won by You (Silfr), playing Gull then, by Drepið: 5 points`; the
/// winner is named as now, with the colour they had if it has changed since.
pub(super) fn last_game_words(state: &HirthState, players: PlayerNames) -> String {
    let Some(last) = state.results.last() else {
        return String::new();
    };
    let sides = Sides::of(state, players);
    let then = if sides.colour(last.winner) == last.winner_colour {
        String::new()
    } else {
        format!(", playing {} then,", title(last.winner_colour))
    };
    format!(
        "won by {}{then} by {}: {} point{}",
        sides.name(last.winner),
        victory_words(last.victory, last.factor),
        last.points,
        if last.points == 1 { "" } else { "s" }
    )
}
