//! The Hirþ parts of the play pages: the board picture with its links, words for moves and
//! events, the side panel and the rules for players.
//!
//! A click on the board says a move only where it is unambiguous: a space a piece can move to
//! (one tagged badge per piece and origin when several can), the reserve's H and K to enter
//! them, a retreat space. Boarding, disembarking, ending the movement phase (with the choice
//! of entries) and the Penningr are left to the page's buttons.

use maud::{Markup, html};
use moot_templates::hirth::{
    self as view, AttackView, BattleView, HirthBoardView, KarveView, Lane, Pieces, ReserveView,
    Side, SpaceView,
};
use moot_templates::parts::{BoardLink, Fact, facts_table};

use super::page_game::{PageGame, Playable};
use super::replay::Ply;
use crate::games::Seat;
use crate::games::hirth::{
    Colour, Event, Group, Hirth, HirthOptions, HirthState, Karve, Line, Move, Phase, Reserve,
    STEPS_PER_TURN, Space, Stay, Unit, Victory,
};

fn side(colour: Colour) -> Side {
    match colour {
        Colour::Gull => Side::Gull,
        Colour::Silfr => Side::Silfr,
    }
}

fn title(colour: Colour) -> &'static str {
    side(colour).word()
}

fn seat_word(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "Player 1",
        Seat::Second => "Player 2",
    }
}

/// The name of a space for people (H1).
fn long_name(space: Space) -> &'static str {
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
fn at(space: Space) -> String {
    match space.name() {
        'm' | '0' | '9' => long_name(space).to_string(),
        name => name.to_string(),
    }
}

/// Where a space is drawn: two lanes from Gull's home (left) to Silfr's, Miðr between them.
fn place(space: Space) -> (u8, Lane) {
    match space.name() {
        '0' => (0, Lane::Middle),
        '1' => (1, Lane::North),
        '2' => (1, Lane::South),
        '3' => (2, Lane::North),
        '4' => (2, Lane::South),
        'm' => (3, Lane::Middle),
        '5' => (4, Lane::North),
        '6' => (4, Lane::South),
        '7' => (5, Lane::North),
        '8' => (5, Lane::South),
        _ => (6, Lane::Middle),
    }
}

fn pieces(group: &Group) -> Pieces {
    Pieces {
        l: group.has_l(),
        l_stopped: group.l_stopped,
        h: group.loose_h(),
        h_stopped: group.h_stopped,
        karves: group
            .karves
            .iter()
            .map(|k| KarveView {
                crew: k.crew,
                stopped: k.stopped,
            })
            .collect(),
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

fn unit_tag(unit: Unit) -> String {
    match unit {
        Unit::L => "L".to_string(),
        Unit::H => "H".to_string(),
        Unit::K(crew) => format!("K{crew}"),
    }
}

/// The space a click on the board plays this move on, and the badge telling it from other
/// moves there. Moves a click cannot say have none.
fn board_spot(mv: &Move) -> Option<(Space, String)> {
    match *mv {
        Move::Go { from, unit, to } => Some((to, format!("{}←{}", unit_tag(unit), from.name()))),
        Move::Retreat(to) => Some((to, "L".to_string())),
        _ => None,
    }
}

fn link(state: &HirthState, p: &Playable<Move>, tag: String) -> BoardLink {
    BoardLink {
        href: p.href.clone(),
        title: Hirth::label(state, &p.mv),
        tag,
    }
}

fn caption(state: &HirthState) -> String {
    let pos = &state.position;
    let worth = format!("game worth ×{}", state.coin.factor);
    match state.phase {
        Phase::Movement => format!(
            "{} to move · {} of {STEPS_PER_TURN} steps left · {worth}",
            title(pos.mover),
            STEPS_PER_TURN.saturating_sub(pos.steps)
        ),
        Phase::Offer => format!(
            "{} offers the Penningr: {} must accept or give up · {worth}",
            title(pos.mover),
            title(pos.mover.other())
        ),
        Phase::Retreat { from } => format!(
            "{} chooses where the beaten Lofðungr on {} retreats · {worth}",
            title(pos.mover.other()),
            at(from)
        ),
        Phase::Over => "The match is over".to_string(),
    }
}

/// The powers of the battle the lines make on `space` (H5), if it is attacked.
fn battle_on(state: &HirthState, space: Space) -> Option<BattleView> {
    let pos = &state.position;
    let mut attackers = pos.lines.iter().filter(|l| l.to == space).peekable();
    attackers.peek()?;
    Some(BattleView {
        attack: attackers.map(|l| l.pieces.power()).sum(),
        defence: pos.board.group(space, pos.mover.other()).power(),
    })
}

/// The spaces the last turn's pieces left and came to: a move's two ends, an entry's home, a
/// boarding's space, a retreat's two ends. A turn that ended a game goes on on a fresh board,
/// where only its later moves count.
fn last_traces(last: &[Ply<Hirth>]) -> (Vec<Space>, Vec<Space>) {
    let (mut left, mut reached) = (Vec::new(), Vec::new());
    for ply in last {
        if ply
            .events
            .iter()
            .any(|e| matches!(e, Event::NextGame { .. }))
        {
            left.clear();
            reached.clear();
            continue;
        }
        match &ply.mv {
            Move::Go { from, to, .. } => {
                left.push(*from);
                reached.push(*to);
            }
            Move::Board { space, .. } | Move::Disembark { space, .. } => reached.push(*space),
            _ => {}
        }
        for event in &ply.events {
            match event {
                Event::Step { colour, .. } if matches!(ply.mv, Move::Enter { .. }) => {
                    reached.push(colour.home());
                }
                Event::Retreat { from, to, .. } => {
                    left.push(*from);
                    reached.push(*to);
                }
                _ => {}
            }
        }
    }
    (left, reached)
}

fn board_view(
    state: &HirthState,
    playable: &[Playable<Move>],
    last: &[Ply<Hirth>],
) -> HirthBoardView {
    let pos = &state.position;
    let (left, reached) = last_traces(last);
    let spaces = Space::all()
        .map(|space| {
            let (col, lane) = place(space);
            SpaceView {
                name: space.name().to_string(),
                long_name: long_name(space).to_string(),
                col,
                lane,
                pieces: Colour::BOTH.map(|c| pieces(pos.board.group(space, c))),
                links: playable
                    .iter()
                    .filter_map(|p| match board_spot(&p.mv) {
                        Some((s, tag)) if s == space => Some(link(state, p, tag)),
                        _ => None,
                    })
                    .collect(),
                battle: battle_on(state, space),
                note: (state.phase == Phase::Retreat { from: space })
                    .then(|| format!("{}'s beaten L must retreat", title(pos.mover.other()))),
                last_from: left.contains(&space),
                last_to: reached.contains(&space),
            }
        })
        .collect();
    let paths = Space::all()
        .flat_map(|a| {
            a.neighbours()
                .filter(move |b| b.index() > a.index())
                .map(move |b| (a.index(), b.index()))
        })
        .collect();
    let attacks = pos
        .lines
        .iter()
        .map(|line: &Line| AttackView {
            from: line.from.map(Space::index),
            to: line.to.index(),
            side: side(pos.mover),
            pieces: pieces(&line.pieces),
            power: line.pieces.power(),
        })
        .collect();
    let enter = |karve: bool| {
        playable
            .iter()
            .find(|p| p.mv == Move::Enter { karve })
            .map(|p| link(state, p, String::new()))
    };
    let reserves = Colour::BOTH.map(|c| {
        let r = pos.reserve.get(c);
        let mine = c == pos.mover;
        ReserveView {
            h: r.h,
            k: r.k,
            removed: *pos.removed.get(c),
            enter_h: enter(false).filter(|_| mine),
            enter_k: enter(true).filter(|_| mine),
        }
    });
    HirthBoardView {
        caption: caption(state),
        spaces,
        paths,
        attacks,
        reserves,
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
fn item_words(item: &str) -> String {
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

fn victory_words(victory: Victory, factor: u8) -> String {
    let factor = match (victory, factor) {
        (Victory::RefusedDouble | Victory::RefusedTriple, _) | (_, 1) => "",
        (_, 2) => ", doubled",
        _ => ", tripled",
    };
    format!("{}{factor}", victory.word())
}

impl PageGame for Hirth {
    fn board(state: &HirthState, playable: &[Playable<Move>], last: &[Ply<Hirth>]) -> Markup {
        view::board(&board_view(state, playable, last))
    }

    fn label(state: &HirthState, mv: &Move) -> String {
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

    fn group(_state: &HirthState, mv: &Move) -> String {
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

    fn describe(event: &Event) -> String {
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

    fn panel(state: &HirthState) -> Markup {
        let pos = &state.position;
        let players =
            Colour::BOTH.map(|c| format!("{} ({})", title(c), seat_word(state.seat_of(c))));
        let both = |f: &dyn Fn(Colour) -> String| Colour::BOTH.map(f).to_vec();
        let mut facts = vec![
            Fact::new(
                "Match points",
                both(&|c| state.points[state.seat_of(c).index()].to_string()),
            ),
            Fact::new(
                "Reserve",
                both(&|c| {
                    let r = pos.reserve.get(c);
                    format!("{} H, {} K", r.h, r.k)
                }),
            ),
            Fact::new(
                "H out of the game",
                both(&|c| pos.removed.get(c).to_string()),
            ),
        ];
        if state.phase == Phase::Movement {
            facts.push(Fact::new(
                "Steps left this turn",
                [format!(
                    "{} of {STEPS_PER_TURN} ({} moving)",
                    STEPS_PER_TURN.saturating_sub(pos.steps),
                    title(pos.mover)
                )],
            ));
        }
        let coin = match state.coin.holder {
            Some(c) => format!(
                "×{}; the Penningr is held by {}",
                state.coin.factor,
                title(c)
            ),
            None => format!("×{}; the Penningr is neutral", state.coin.factor),
        };
        facts.push(Fact::new("Game worth", [coin]));
        facts.push(Fact::new(
            "Game",
            [format!(
                "game {}, round {}; the match goes to {} points",
                state.results.len() + usize::from(state.phase != Phase::Over),
                state.round,
                state.options.target
            )],
        ));
        // Who acts is the page's status line; the notes say what else is going on.
        let mut notes = Vec::new();
        if let Some(last) = state.results.last() {
            notes.push(format!(
                "Last game: {} ({}) won by {}, {} point{}.",
                seat_word(last.winner),
                title(last.winner_colour),
                victory_words(last.victory, last.factor),
                last.points,
                if last.points == 1 { "" } else { "s" }
            ));
        }
        facts_table(&players, &facts, &notes)
    }

    fn rules() -> Markup {
        html! {
            p { "Two war-bands, Gull (gold) and Silfr (silver), fight over an archipelago of eleven spaces. Each has 15 Hirþ (H, warriors), 3 Karves (K, boats) and a Lofðungr (L, the king)." }
            figure.board {
                (view::board(&board_view(&example(), &[], &[])))
                figcaption { "Each space shows its pieces: the L, the H with their count, each Karve with the number of H aboard; pieces that have stopped for the turn are faded. Arrows are attacks waiting for battle; an attacked space shows attack against defence. Each reserve sits beside its home." }
            }
            h2 { "A turn" }
            p { "Take up to five steps, then fight the battles. A step is one of:" }
            ul {
                li { strong { "enter" } ": put an H or an empty K from your reserve on your home space;" }
                li { strong { "move" } ": move one piece (an H, the L, or a K with its crew) to a neighbouring space;" }
                li { strong { "board" } " an H into a K in the same space (up to 4 aboard), or " strong { "disembark" } " one." }
            }
            p { "A piece that enters an empty space stops there for the turn. A piece that moves towards a space the enemy holds stops on the path and " em { "attacks" } " it." }
            h2 { "Battles" }
            p { "After the steps, each attacked space is a battle. Power: H 1, L 1, a K with n H aboard n + 1 (an empty K 0). More power wins; on a tie the side with its L in the battle wins, otherwise the defender." }
            p { "Losing H leave the game for good; a losing K and its crew go back to the reserve. If the attacker wins, you choose which attackers enter the space. A beaten defending L retreats to a neighbouring space that is empty or its own; its owner chooses." }
            p { "At the end of a turn no space but a home may hold more than one K." }
            h2 { "Winning" }
            ul {
                li { strong { "Drepið" } " (5 points): the enemy L is beaten on Miðr and cannot retreat." }
                li { strong { "Þungur Hnífur" } " (2 points): the enemy L cannot retreat anywhere else and leaves the board." }
                li { strong { "Yfirráð" } " (1 point): you hold all five middle spaces (3, 4, Miðr, 5, 6) at the end of a turn." }
            }
            p { "During your steps you may offer the Penningr, the doubling coin, while it is neutral or yours: the other player accepts (the game is worth double, later triple, and they hold the coin) or gives up (you score 1, or 2 for a triple offer). A match goes to a target score (5 by default); players swap colours each game and Gull always starts." }
        }
    }
}

/// A position for the rules page: Gull attacks Miðr from 3 (its L and an H) and 4 (an H),
/// power 3 against the 2 of Silfr's L and H there.
fn example() -> HirthState {
    // The names are the board's own, so the lookup cannot fail.
    let at = |name: char| Space::from_name(name).expect("one of the eleven space names");
    let mut state = HirthState::new(HirthOptions::default());
    let pos = &mut state.position;
    for (name, h) in [('0', 1), ('1', 2), ('3', 1), ('4', 1)] {
        pos.board.group_mut(at(name), Colour::Gull).h = h;
    }
    pos.board.group_mut(at('0'), Colour::Gull).l = false;
    pos.board.group_mut(at('9'), Colour::Silfr).l = false;
    let midr = pos.board.group_mut(Space::MIDR, Colour::Silfr);
    midr.l = true;
    midr.h = 1;
    pos.board.group_mut(at('5'), Colour::Silfr).h = 2;
    pos.board
        .group_mut(at('7'), Colour::Silfr)
        .add_karve(Karve {
            crew: 2,
            stopped: false,
        });
    let from_3 = pos.line_mut(Some(at('3')), Space::MIDR);
    from_3.l = true;
    from_3.h = 1;
    pos.line_mut(Some(at('4')), Space::MIDR).h = 1;
    pos.reserve.gull.h = 8;
    pos.reserve.silfr = Reserve { h: 10, k: 2 };
    pos.steps = 3;
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::games::hirth::tests::fill_reserves;
    use crate::web::position::{Position, Query};
    use crate::web::replay::replay;

    fn playable(state: &HirthState) -> Vec<Playable<Move>> {
        Hirth::legal_moves(state)
            .into_iter()
            .map(|mv| {
                let notation = Hirth::format_move(state, &mv);
                // Hrefs as the page writes them: URL-encoded, so escaping leaves them alone.
                let path = notation.replace(' ', "_").replace('>', "%3E");
                let href = format!("/play/hirth/{path}");
                Playable { mv, notation, href }
            })
            .collect()
    }

    fn hrefs(svg: &str) -> Vec<&str> {
        svg.split(r#"href=""#)
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect()
    }

    fn sp(name: char) -> Space {
        Space::from_name(name).unwrap()
    }

    fn play(state: &mut HirthState, text: &str) -> Vec<Event> {
        let mv = Hirth::parse_move(state, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        Hirth::apply(state, &mv).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// Mid-game, Gull moving with two steps taken: an H from each of 3 and 4 (where another H
    /// stands) attacks Silfr's lone L on Miðr (2 against 1); Gull's L and a K with 2 H stand on
    /// 1; Silfr holds 9 and 7.
    fn battle_position() -> HirthState {
        let mut state = HirthState::new(HirthOptions::default());
        let pos = &mut state.position;
        pos.board = Default::default();
        pos.steps = 2;
        pos.board.group_mut(sp('1'), Colour::Gull).l = true;
        pos.board.group_mut(sp('1'), Colour::Gull).add_karve(Karve {
            crew: 2,
            stopped: false,
        });
        pos.board.group_mut(sp('m'), Colour::Silfr).l = true;
        pos.board.group_mut(sp('9'), Colour::Silfr).h = 1;
        pos.board.group_mut(sp('7'), Colour::Silfr).h = 2;
        pos.board.group_mut(sp('3'), Colour::Gull).h = 1;
        pos.board.group_mut(sp('4'), Colour::Gull).h = 1;
        pos.line_mut(Some(sp('3')), sp('m')).h = 1;
        pos.line_mut(Some(sp('4')), sp('m')).h = 1;
        fill_reserves(&mut state);
        Hirth::validate(&state).expect("a valid position");
        state
    }

    /// After the battle: Silfr's L, beaten on Miðr, may retreat to 5 or 6.
    fn retreat_position() -> HirthState {
        let mut state = battle_position();
        play(&mut state, "end");
        assert_eq!(state.phase, Phase::Retreat { from: sp('m') });
        state
    }

    fn positions() -> Vec<HirthState> {
        let mut start = Hirth::new_game(&HirthOptions::default()).unwrap();
        let mut positions = vec![start.clone()];
        for step in ["Ke", "He", "H0i", "Ki01"] {
            play(&mut start, step);
            positions.push(start.clone());
        }
        let mut offer = battle_position();
        play(&mut offer, "offer");
        positions.extend([battle_position(), retreat_position(), offer]);
        positions
    }

    /// The board of a link's moves, as the page draws it (without links).
    fn board_of(moves: &str) -> String {
        let query = Query::parse(&format!("moves={moves}"));
        let (position, _) = Position::<Hirth>::read(&query).unwrap();
        let game = replay(&position).unwrap();
        Hirth::board(&game.state, &[], game.last_turn()).into_string()
    }

    /// Each space's long name and what its title says the last turn did there.
    fn traces(svg: &str) -> Vec<(&str, &str)> {
        svg.split("<title>")
            .filter_map(|t| t.split("</title>").next())
            .filter_map(|t| t.split_once(" — last turn: "))
            .map(|(space, words)| (space.split(':').next().unwrap_or(space), words))
            .collect()
    }

    #[test]
    fn the_board_marks_the_spaces_the_last_turn_moved_pieces_from_and_to() {
        // Gull enters an H on its home and moves its L from there to 1.
        let svg = board_of("He.L01.end");
        assert_eq!(
            traces(&svg),
            [
                ("Gull's home", "pieces moved from and to here"),
                ("Gull Norðr Delta", "pieces moved here"),
            ]
        );
        assert_eq!(svg.matches(r#"class="last to""#).count(), 2);
        assert!(!svg.contains(r#"class="last from""#));
        // Then Silfr's turn: only its own entry is marked.
        let svg = board_of("He.L01.end.He.L98");
        assert_eq!(
            traces(&svg),
            [
                ("Silfr Suðr Delta", "pieces moved here"),
                ("Silfr's home", "pieces moved from and to here"),
            ]
        );
        let svg = board_of("He.L01.end.L98");
        assert_eq!(
            traces(&svg),
            [
                ("Silfr Suðr Delta", "pieces moved here"),
                ("Silfr's home", "pieces moved from here"),
            ]
        );
        assert_eq!(svg.matches(r#"class="last from""#).count(), 1);
    }

    #[test]
    fn a_turn_that_ends_a_game_marks_only_what_it_did_on_the_next_games_board() {
        let ply = |mv: Move, events: Vec<Event>| Ply::<Hirth> {
            notation: String::new(),
            seat: Seat::First,
            colour: "gull".into(),
            mv,
            events,
        };
        let step = Event::Step {
            seat: Seat::First,
            colour: Colour::Gull,
            notation: "He".into(),
        };
        let next = Event::NextGame {
            game: 2,
            gull: Seat::First,
        };
        let go = Move::Go {
            from: sp('1'),
            unit: Unit::L,
            to: sp('3'),
        };
        let turn = [
            ply(go, vec![]),
            ply(Move::End { stays: vec![] }, vec![next]),
            ply(Move::Enter { karve: false }, vec![step]),
        ];
        assert_eq!(last_traces(&turn), (vec![], vec![sp('0')]));
        assert_eq!(last_traces(&turn[..1]), (vec![sp('1')], vec![sp('3')]));
    }

    #[test]
    fn a_new_game_marks_no_space() {
        let svg = board_of("");
        assert!(traces(&svg).is_empty());
        assert!(!svg.contains(r#"class="last"#));
    }

    #[test]
    fn every_legal_move_has_words_and_a_heading() {
        let mut seen = 0;
        for state in positions() {
            for mv in Hirth::legal_moves(&state) {
                assert!(!Hirth::label(&state, &mv).is_empty(), "{mv:?}");
                assert!(!Hirth::group(&state, &mv).is_empty(), "{mv:?}");
                seen += 1;
            }
        }
        assert!(seen > 40, "{seen} moves");
        let state = battle_position();
        let words = |text: &str| Hirth::label(&state, &Hirth::parse_move(&state, text).unwrap());
        assert_eq!(words("L13"), "Move the L from 1 to 3");
        assert_eq!(
            words("L10"),
            "Move the L from 1 to Gull's home (it stops there)"
        );
        assert_eq!(
            words("Kii10"),
            "Move the K with 2 H aboard from 1 to Gull's home (it stops there)"
        );
        assert_eq!(words("offer"), "Offer the Penningr: double the game to ×2");
        assert_eq!(
            words("end >mH3"),
            "End the movement phase and fight; at Miðr, 1 H stays on 3; the other winning attackers enter"
        );
        assert_eq!(
            Hirth::group(&state, &Hirth::parse_move(&state, "L13").unwrap()),
            "Move from 1"
        );
        let retreat = retreat_position();
        assert_eq!(
            Hirth::label(&retreat, &Move::Retreat(sp('5'))),
            "Retreat the Lofðungr to 5"
        );
        let mut offer = battle_position();
        play(&mut offer, "offer");
        assert_eq!(
            Hirth::label(&offer, &Move::Accept),
            "Accept the doubling (game now worth ×2)"
        );
        assert_eq!(Hirth::group(&offer, &Move::Accept), "Answer the offer");
    }

    #[test]
    fn the_board_links_only_playable_moves_and_every_move_a_click_can_say() {
        for state in positions() {
            let moves = playable(&state);
            let svg = Hirth::board(&state, &moves, &[]).into_string();
            let mut linked = hrefs(&svg);
            linked.sort();
            let mut expected: Vec<&str> = moves
                .iter()
                .filter(|p| board_spot(&p.mv).is_some() || matches!(p.mv, Move::Enter { .. }))
                .map(|p| p.href.as_str())
                .collect();
            expected.sort();
            assert_eq!(linked, expected, "{}", caption(&state));
        }
    }

    #[test]
    fn the_mid_game_board_shows_the_attack_its_power_and_the_steps_left() {
        let state = battle_position();
        let svg = Hirth::board(&state, &playable(&state), &[]).into_string();
        assert_eq!(svg.matches(r#"class="attack""#).count(), 2);
        assert!(svg.contains(
            "<title>Gull attacks Miðr from Gull Norðr Archipelago with 1 Hirþ (power 1)</title>"
        ));
        assert!(svg.contains("<title>Gull: the Lofðungr, a Karve with 2 Hirþ aboard</title>"));
        assert!(svg.contains(">Gull to move · 3 of 5 steps left · game worth ×1</text>"));
        assert_eq!(svg.matches(r#"class="battle""#).count(), 1);
        assert!(
            svg.contains(">⚔2:1</text>"),
            "two H attack the lone L on Miðr"
        );
        // Two moves end on 3 (the L and the K from 1): badges naming them.
        assert!(svg.contains(r#"<a class="move badge" href="/play/hirth/L13">"#));
        assert!(svg.contains(">K2←1</text>"));
        // Entering from the reserve is a click on the reserve's H or K.
        assert!(svg.contains(
            r#"<a class="move" href="/play/hirth/He"><title>Enter an H from the reserve</title>"#
        ));
    }

    #[test]
    fn the_retreat_decision_links_the_spaces_the_lofdungr_may_go_to() {
        let state = retreat_position();
        let moves = playable(&state);
        assert_eq!(moves.len(), 2);
        let svg = Hirth::board(&state, &moves, &[]).into_string();
        assert_eq!(
            hrefs(&svg),
            ["/play/hirth/retreat_5", "/play/hirth/retreat_6"]
        );
        assert!(svg.contains("<title>Retreat the Lofðungr to 5</title>"));
        assert!(svg.contains("Silfr chooses where the beaten Lofðungr on Miðr retreats"));
        assert!(!svg.contains(r#"class="attack""#), "the battle is over");
        assert!(svg.contains(">Silfr's beaten L must retreat</text>"));
    }

    #[test]
    fn every_event_is_described() {
        let (m, s6) = (sp('m'), sp('6'));
        let first = Seat::First;
        let events = [
            Event::Step {
                seat: first,
                colour: Colour::Gull,
                notation: "Kii0>1".into(),
            },
            Event::Offered {
                seat: first,
                factor: 2,
            },
            Event::Accepted {
                seat: Seat::Second,
                factor: 2,
            },
            Event::GaveUp { seat: Seat::Second },
            Event::Battle {
                space: s6,
                attacker: first,
                attack: 3,
                defence: 2,
                winner: first,
                note: ">6SKii^SHxGH6".into(),
                losses: vec!["SKii^".into(), "SHx".into()],
                entries: vec!["GH6".into()],
            },
            Event::Retreat {
                seat: Seat::Second,
                from: s6,
                to: sp('8'),
            },
            Event::Killed {
                seat: Seat::Second,
                space: m,
            },
            Event::ForcedOff {
                seat: Seat::Second,
                from: s6,
            },
            Event::GameEnded {
                winner: Seat::Second,
                winner_colour: Colour::Silfr,
                victory: Victory::Drepid,
                factor: 2,
                points: 10,
            },
            Event::NextGame {
                game: 2,
                gull: Seat::Second,
            },
            Event::MatchEnded {
                winner: Seat::Second,
                points: [0, 10],
            },
        ];
        let mut kinds = std::collections::BTreeSet::new();
        for event in &events {
            // Naming each variant here makes a new one fail to compile until it is described.
            kinds.insert(match event {
                Event::Step { .. } => "step",
                Event::Offered { .. } => "offered",
                Event::Accepted { .. } => "accepted",
                Event::GaveUp { .. } => "gave up",
                Event::Battle { .. } => "battle",
                Event::Retreat { .. } => "retreat",
                Event::Killed { .. } => "killed",
                Event::ForcedOff { .. } => "forced off",
                Event::GameEnded { .. } => "game ended",
                Event::NextGame { .. } => "next game",
                Event::MatchEnded { .. } => "match ended",
            });
            assert!(Hirth::describe(event).len() > 10, "{event:?}");
        }
        assert_eq!(kinds.len(), events.len());
        assert_eq!(
            Hirth::describe(&events[0]),
            "Gull attacked 1 from Gull's home with the K with 2 H aboard"
        );
        assert_eq!(
            Hirth::describe(&events[4]),
            "Battle on 6: attack 3 against defence 2; Player 1 (the attacker) wins. Lost: Silfr's K with 2 H aboard (back to the reserve), Silfr's H (out of the game). Entered 6: Gull's H"
        );
        assert_eq!(
            Hirth::describe(&events[8]),
            "Player 2 (Silfr) won the game by Drepið, doubled: 10 points"
        );
    }

    #[test]
    fn every_step_the_engine_writes_reads_as_words() {
        let mut state = Hirth::new_game(&HirthOptions::default()).unwrap();
        let mut written = Vec::new();
        for text in ["He", "Ke", "H0i", "Hr0", "L01"] {
            for event in play(&mut state, text) {
                written.push(Hirth::describe(&event));
            }
        }
        assert_eq!(
            written,
            [
                "Gull entered an H from the reserve",
                "Gull entered an empty K from the reserve",
                "Gull put an H on Gull's home aboard a K",
                "Gull took an H off the K on Gull's home",
                "Gull moved the L from Gull's home to 1",
            ]
        );
    }

    #[test]
    fn odd_step_notations_are_described_without_panicking() {
        let step = |notation: &str| {
            Hirth::describe(&Event::Step {
                seat: Seat::First,
                colour: Colour::Silfr,
                notation: notation.into(),
            })
        };
        assert_eq!(
            step("He>9"),
            "Silfr entered an H from the reserve, attacking its own home"
        );
        assert_eq!(step("Hr3[Kii]"), "Silfr took an H off the K on 3");
        for odd in ["", "Z", "K", "Kiii", "L1>", "L1>z", "H1?", "Hr", "ééé"] {
            assert_eq!(step(odd), format!("Silfr took the step {odd}"));
        }
        assert_eq!(item_words("??"), "??");
    }

    #[test]
    fn the_played_battle_and_retreat_are_described() {
        let mut state = battle_position();
        let words: Vec<String> = play(&mut state, "end")
            .iter()
            .map(Hirth::describe)
            .collect();
        assert_eq!(
            words,
            [
                "Battle on Miðr: attack 2 against defence 1; Player 1 (the attacker) wins. Entered Miðr: Gull's H, Gull's H"
            ]
        );
        let words: Vec<String> = play(&mut state, "retreat 6")
            .iter()
            .map(Hirth::describe)
            .collect();
        assert_eq!(words, ["Player 2's Lofðungr retreated from Miðr to 6"]);
    }

    #[test]
    fn a_lofdungr_with_nowhere_to_go_dies_and_the_finished_match_has_no_links() {
        let mut state = battle_position();
        for space in ['5', '6'] {
            state.position.board.group_mut(sp(space), Colour::Gull).h = 1;
        }
        fill_reserves(&mut state);
        let words: Vec<String> = play(&mut state, "end")
            .iter()
            .map(Hirth::describe)
            .collect();
        assert!(
            words.contains(
                &"Player 2's Lofðungr had nowhere to retreat and was killed on Miðr: Drepið"
                    .to_string()
            ),
            "{words:?}"
        );
        assert!(
            words.contains(&"Player 1 (Gull) won the game by Drepið: 5 points".to_string()),
            "{words:?}"
        );
        assert!(
            words.contains(&"Player 1 won the match, 5 to 0".to_string()),
            "{words:?}"
        );
        assert!(playable(&state).is_empty());
        let svg = Hirth::board(&state, &[], &[]).into_string();
        assert!(svg.contains(">The match is over</text>"));
        assert!(!svg.contains("<a "));
        assert!(
            Hirth::panel(&state)
                .into_string()
                .contains("Last game: Player 1 (Gull) won by Drepið, 5 points.")
        );
    }

    #[test]
    fn the_panel_shows_reserves_steps_doubling_and_score() {
        let mut state = battle_position();
        state.points = [3, 1];
        state.coin.factor = 2;
        state.coin.holder = Some(Colour::Silfr);
        let panel = Hirth::panel(&state).into_string();
        assert!(
            panel.contains(r#"<th scope="row">Match points</th><td>3</td><td>1</td>"#),
            "{panel}"
        );
        assert!(
            panel.contains(r#"<th scope="row">Reserve</th><td>9 H, 2 K</td><td>12 H, 3 K</td>"#),
            "{panel}"
        );
        assert!(panel.contains("3 of 5 (Gull moving)"));
        assert!(panel.contains("×2; the Penningr is held by Silfr"));
        assert!(panel.contains("Gull (Player 1)"));
    }

    #[test]
    fn the_rules_show_a_valid_example_board_without_links() {
        let example = example();
        Hirth::validate(&example).expect("the example is a valid position");
        let rules = Hirth::rules().into_string();
        assert!(rules.contains(r#"<svg class="board hirth""#));
        assert_eq!(rules.matches(r#"class="attack""#).count(), 2);
        assert!(rules.contains(">⚔3:2</text>"));
        assert!(!rules.contains("<a "));
    }
}
