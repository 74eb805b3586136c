//! The Hirþ board's view data: the engine's position, its playable moves and the last turn
//! turned into the board picture's spaces, links, attacks and reserves.

use moot_templates::hirth::{
    AttackView, BattleView, HirthBoardView, KarveView, Lane, Pieces, ReserveView, Side, SpaceView,
};
use moot_templates::parts::{BoardLink, Refusal};

use super::words::{at, label, long_name, side, title};
use crate::page_game::Playable;
use crate::refusal::{refusal, refused, sentence};
use crate::replay::Ply;
use moot_games::hirth::{
    Colour, Event, Group, Hirth, HirthState, Line, Move, Phase, STEPS_PER_TURN, Space, Unit,
};

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

fn unit_tag(unit: Unit) -> String {
    match unit {
        Unit::L => "L".to_string(),
        Unit::H => "H".to_string(),
        Unit::K(crew) => format!("K{crew}"),
    }
}

/// The space a click on the board plays this move on, and the badge telling it from other
/// moves there. Moves a click cannot say have none.
pub(super) fn board_spot(mv: &Move) -> Option<(Space, String)> {
    match *mv {
        Move::Go { from, unit, to } => Some((to, format!("{}←{}", unit_tag(unit), from.name()))),
        Move::Retreat(to) => Some((to, "L".to_string())),
        _ => None,
    }
}

fn link(state: &HirthState, p: &Playable<Move>, tag: String) -> BoardLink {
    BoardLink {
        play: p.play.clone(),
        title: label(state, &p.mv),
        tag,
        ..BoardLink::default()
    }
}

pub(super) fn caption(state: &HirthState) -> String {
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
        // A target of 1 point is a single game, not a match.
        Phase::Over if state.options.target == 1 => "The game is over".to_string(),
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
pub(super) fn last_traces(last: &[Ply<Hirth>]) -> (Vec<Space>, Vec<Space>) {
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

/// The mover's, when all its pieces on `space` have gone onto attack lines out of it: they
/// still control it (H4), though it holds nothing.
fn held_from_lines(state: &HirthState, space: Space) -> Option<Side> {
    let pos = &state.position;
    let attacking_from_here = pos.lines.iter().any(|l| l.from == Some(space));
    (attacking_from_here && pos.board.group(space, pos.mover).is_empty()).then(|| side(pos.mover))
}

/// The owner's, on the space where its Lofðungr was beaten and waits to retreat (H7): the
/// engine has taken it off the board until its owner chooses where it goes.
fn beaten_l(state: &HirthState, space: Space) -> Option<Side> {
    (state.phase == Phase::Retreat { from: space }).then(|| side(state.position.mover.other()))
}

/// Marks on `view` where the computer's hinted step ends: the space a move or retreat goes
/// to, or the reserve half it enters from. Other decisions (board, end, offer) have no spot.
pub fn mark_hint(view: &mut HirthBoardView, state: &HirthState, hint: &Move) {
    let space = board_spot(hint).map(|(space, _)| space.name().to_string());
    for s in &mut view.spaces {
        s.hinted = space.as_deref() == Some(s.name.as_str());
    }
    let mover = state.position.mover;
    for (c, reserve) in Colour::BOTH.into_iter().zip(&mut view.reserves) {
        reserve.hinted = match hint {
            Move::Enter { karve } if c == mover => Some(*karve),
            _ => None,
        };
    }
}

/// The pieces of a group that may be named in a step: the Lofðungr, a loose Hirþ, each Karve.
fn units(group: &Group) -> Vec<Unit> {
    let mut units = Vec::new();
    if group.has_l() {
        units.push(Unit::L);
    }
    if group.loose_h() > 0 {
        units.push(Unit::H);
    }
    units.extend(group.karves.iter().map(|k| Unit::K(k.crew)));
    units
}

/// Why no step ends on `space` now, by the engine, on a page where the mover has steps
/// elsewhere (`playable`); `None` where a step ends, and outside the movement phase.
///
/// A space of the mover's own pieces: where they may step (a tap there plays nothing; the
/// spaces they go to do), or why none may (stopped, H4; five steps taken, H3). Elsewhere: why
/// the reserve that enters on the home space, why a piece next to it may not come (stopped
/// or on an attack line, H4; the Karve limit, H8), or that no piece is near (H3).
pub fn space_refusal(
    state: &HirthState,
    playable: &[Playable<Move>],
    space: Space,
) -> Option<Refusal> {
    let ends_here = playable
        .iter()
        .any(|p| board_spot(&p.mv).is_some_and(|(s, _)| s == space));
    if state.phase != Phase::Movement || ends_here {
        return None;
    }
    let pos = &state.position;
    let me = pos.mover;
    let go =
        |from: Space, unit: Unit, to: Space| refused::<Hirth>(state, &Move::Go { from, unit, to });
    let here = pos.board.group(space, me);
    if !here.is_empty() {
        let mut ends: Vec<String> = Vec::new();
        for p in playable {
            if let Move::Go { from, to, .. } = p.mv
                && from == space
                && !ends.contains(&at(to))
            {
                ends.push(at(to));
            }
        }
        if !ends.is_empty() {
            return Some(refusal::<Hirth>(
                "H3",
                format!(
                    "{}'s pieces on {} step to a space next to it ({}): tap the space one goes to.",
                    title(me),
                    at(space),
                    ends.join(", ")
                ),
            ));
        }
        let (rule, reason) = units(here)
            .into_iter()
            .flat_map(|unit| space.neighbours().map(move |to| (unit, to)))
            .find_map(|(unit, to)| go(space, unit, to))?;
        return Some(refusal::<Hirth>(rule, sentence(&reason)));
    }
    if space == me.home() && playable.iter().any(|p| matches!(p.mv, Move::Enter { .. })) {
        return Some(refusal::<Hirth>(
            "H3",
            format!(
                "A piece enters {} from {}'s reserve: tap the reserve.",
                at(space),
                title(me)
            ),
        ));
    }
    if let Some((rule, reason)) = space
        .neighbours()
        .flat_map(|from| {
            units(pos.board.group(from, me))
                .into_iter()
                .map(move |unit| (from, unit))
        })
        .find_map(|(from, unit)| go(from, unit, space))
    {
        return Some(refusal::<Hirth>(rule, sentence(&reason)));
    }
    Some(refusal::<Hirth>(
        "H3",
        format!(
            "{} has no piece on {} or next to it: a piece steps only to a neighbouring space.",
            title(me),
            at(space)
        ),
    ))
}

pub(super) fn board_view(
    state: &HirthState,
    playable: &[Playable<Move>],
    last: &[Ply<Hirth>],
) -> HirthBoardView {
    let pos = &state.position;
    let (left, reached) = last_traces(last);
    // A page where the mover steps says why a space takes no step; a picture does not.
    let may_play = playable.iter().any(|p| !p.play.is_empty());
    let spaces = Space::all()
        .map(|space| {
            let (col, lane) = place(space);
            SpaceView {
                refusal: may_play
                    .then(|| space_refusal(state, playable, space))
                    .flatten(),
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
                note: None,
                last_from: left.contains(&space),
                last_to: reached.contains(&space),
                held_from_lines: held_from_lines(state, space),
                beaten_l: beaten_l(state, space),
                hinted: false,
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
            hinted: None,
        }
    });
    HirthBoardView {
        caption: caption(state),
        spaces,
        paths,
        attacks,
        reserves,
        mover: side(pos.mover),
    }
}
