//! A table's page as view data: the game page of the table's moves, seen from a seat or by a
//! spectator, with the table's panel, its record and, at an earlier position, the steps back
//! to it.

use moot_games::Game;
use moot_templates::play::{PlayView, TurnForm};

use super::panel::table_view;
use super::rematch::rematch_view;
use super::takeback::takeback_view;
use super::words::ended_outside_the_rules;
use super::{EndedBy, KeptTable, PLY_FIELD, Standing, Visit};
use crate::limits::{EXCERPT_CHARS, excerpt};
use crate::link::{AT, HINT, Link, LinkError, PLAY, UNDO, at_of, encode};
use crate::page_game::PageGame;
use crate::preview::preview;
use crate::replay::replay;
use crate::view::{Extras, Seating, earlier_view, play_view, record_view};

/// A table's page: its view data, and the position it shows.
pub struct TablePage<G: Game> {
    /// The page's view data.
    pub view: PlayView,
    /// The position the page shows (the table's, or an earlier one): its picture and, once
    /// it has a move, its animation are the record's downloads, which the server offers
    /// within what its pictures may draw.
    pub shown: Link<G>,
}

/// The player a seat waits for, as its page names them: by the name their seat was given, with
/// their colour (`Bob (Black)`), else as the game page does (`mover`: `Opponent (Black)`).
fn waited_for(mover: &str, seat: moot_games::Seat, table: &KeptTable) -> String {
    let name = table
        .seats
        .iter()
        .find(|(named, _)| *named == seat)
        .and_then(|(_, name)| name.as_deref());
    match (name, mover.rsplit_once(" (")) {
        (Some(name), Some((_, colour))) => format!("{name} ({colour}"),
        (Some(name), None) => name.to_owned(),
        (None, _) => mover.to_owned(),
    }
}

/// The page of a table whose game has `options` and `moves`, for `visit`: the position now,
/// or the earlier one the visit asks for (`at`).
pub fn table_page<G: PageGame>(
    options: G::Options,
    moves: Vec<String>,
    table: &KeptTable,
    visit: Visit,
) -> Result<TablePage<G>, LinkError> {
    let mut position = Link::<G>::start(options)?;
    position.moves = moves;
    let game = replay(&position)?;
    let links = &visit.links;
    // The table's positions on this page's surface: `?at=` on the page itself.
    let here = &links.here;
    let moves_played = position.moves.len();
    let positions = |count: usize| {
        if count == moves_played {
            here.clone()
        } else {
            format!("{here}?{AT}={count}")
        }
    };
    let at = visit
        .at
        .as_deref()
        .map(|text| at_of(text, moves_played))
        .transpose()?;
    if let Some(at) = at.filter(|&at| at < moves_played) {
        let then = position.truncated(at);
        let shown = replay(&then)?;
        let mut view = earlier_view(&position, &game, &shown, at, &positions);
        view.record.href = Some(links.record.clone());
        if matches!(visit.seating, Seating::Watching) {
            let mut shared = preview(&visit.origin, &then, &shown);
            shared.url = format!("{}{}", visit.origin, positions(at));
            view.preview = Some(shared);
        }
        return Ok(TablePage { view, shown: then });
    }
    let finished = matches!(table.standing, Standing::Finished { .. });
    let seating = match visit.seating {
        Seating::Seat { seat, .. } => Seating::Seat {
            seat,
            may_play: !finished,
        },
        other => other,
    };
    let you = match seating {
        Seating::Seat { seat, .. } => Some(seat),
        _ => None,
    };
    let extras = Extras {
        notice: visit.notice,
        typed: excerpt(&visit.typed, EXCERPT_CHARS),
        hint: None,
        hints_offered: false,
        seating,
    };
    let mut view = play_view(&position, &game, extras);
    view.record = record_view(&game, moves_played, &positions);
    view.form = TurnForm {
        action: here.clone(),
        method: "post".to_owned(),
        hidden: vec![(PLY_FIELD.to_owned(), table.ply.to_string())],
        field: PLAY.to_owned(),
        undo_field: UNDO.to_owned(),
        hint_field: HINT.to_owned(),
        value: view.form.value,
        record_action: links.record.clone(),
    };
    view.record.href = Some(links.record.clone());
    view.steps_href = Some(position.href());
    view.opponent = None;
    // Again with the same friend: the same options, a new table.
    view.play_again_href = (finished && you.is_some())
        .then(|| format!("{}?{}", links.friend, encode(position.option_pairs())));
    view.takeback = takeback_view(table, links, you);
    // At a finished table, a rematch between the same seats in place of a new friend table.
    if let Standing::Finished { .. } = table.standing {
        view.rematch = rematch_view(table, links, you);
        if view.rematch.is_some() {
            view.play_again_href = None;
        }
    }
    if let Standing::Finished {
        winner,
        ended_by:
            ended_by @ (EndedBy::Resignation
            | EndedBy::Time
            | EndedBy::PlyLimit
            | EndedBy::Abandoned
            | EndedBy::Aborted),
    } = table.standing
    {
        view.status = ended_outside_the_rules((winner, ended_by), you, table.ply, &table.seats);
    } else if let (Some(you), Standing::Ongoing { to_act }) = (you, &table.standing)
        && *to_act != you
    {
        view.status.headline = format!("Waiting for {}", waited_for(&view.mover, *to_act, table));
    }
    view.table = Some(table_view(table, links, you, visit.now));
    if you.is_none() {
        view.preview = Some(preview(&visit.origin, &position, &game));
    }
    Ok(TablePage {
        view,
        shown: position,
    })
}
