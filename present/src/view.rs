//! Builds the game page's view data from a replayed game: generic over [`PageGame`].

use moot_templates::play::{
    Action, ActionGroup, HappenedView, HintView, LookBackView, Notice, PlayView, RecordView,
    StatusLine, TurnEntry, TurnForm,
};

use super::link::{HINT, Link, PLAY, UNDO, play_path};
use super::page_game::{PageGame, Playable, PlayerNames};
use super::replay::Replayed;
use super::words::capitalised;
use moot_ai::Thought;
use moot_games::{Game, Seat, Status};

/// At most this many moves are listed under "What happened".
const HAPPENED_MAX: usize = 12;
/// The move list shows at most this many turns, around the position shown (the download has
/// them all).
const LIST_MAX_TURNS: usize = 60;
/// Each turn of the move list is a link that repeats the game's moves: a long game's list
/// shows as many turns as fit in this many bytes of links (at least one), so that its page
/// stays small.
const LIST_LINK_BYTES: usize = 64 * 1024;

/// The element id of the `index`th legal move's button in the list of every move.
fn move_id(index: usize) -> String {
    format!("move-{index}")
}

/// Every legal move of the position, with its notation, which its button on the board sends
/// with the page's one form: the board does not repeat the game once per move.
pub fn playable<G: PageGame>(state: &G::State) -> Vec<Playable<G::Move>> {
    G::legal_moves(state)
        .into_iter()
        .map(|mv| {
            let notation = G::format_move(state, &mv);
            Playable {
                play: notation.clone(),
                notation,
                mv,
            }
        })
        .collect()
}

/// Whom a game page is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seating {
    /// A link's players: both at this screen, or one against the computer.
    #[default]
    Link,
    /// One seat of a kept table, whose opponent plays from elsewhere: its moves, when it acts
    /// and `may_play` (the table is not over outside the rules).
    Seat {
        /// The page's player's seat.
        seat: Seat,
        /// Whether the table still takes moves.
        may_play: bool,
    },
    /// A spectator of a kept table: no moves.
    Watching,
    /// A link's earlier position, shown to look at: no moves, no hint, no undo.
    LookingBack,
}

impl Seating {
    /// Whether the page offers the moves of the player to act (`to_act`).
    fn offers(self, to_act: Option<Seat>) -> bool {
        match self {
            Seating::Link => true,
            Seating::Seat { seat, may_play } => may_play && to_act == Some(seat),
            Seating::Watching | Seating::LookingBack => false,
        }
    }
}

/// What a page shows besides the position: a refused submission, a hint, whom it is for.
pub struct Extras<M> {
    /// Why the submitted move was refused, shown over the board.
    pub notice: Option<Notice>,
    /// The move typed in the notation form (kept after a refusal).
    pub typed: String,
    /// The computer's advice, when the link asks for a hint (`hint=1`).
    pub hint: Option<Thought<M>>,
    /// Whether the server runs the computer player, which gives hints.
    pub hints_offered: bool,
    /// Whom the page is for.
    pub seating: Seating,
}

impl<M> Default for Extras<M> {
    fn default() -> Self {
        Extras {
            notice: None,
            typed: String::new(),
            hint: None,
            hints_offered: true,
            seating: Seating::Link,
        }
    }
}

/// The game page of a replayed link.
pub fn play_view<G: PageGame>(
    position: &Link<G>,
    game: &Replayed<G>,
    extras: Extras<G::Move>,
) -> PlayView {
    let state = &game.state;
    let Extras {
        notice,
        typed,
        hint,
        hints_offered,
        seating,
    } = extras;
    let to_act = match G::turn(state) {
        moot_games::Turn::ToAct(seat) => Some(seat),
        _ => None,
    };
    let playable = if seating.offers(to_act) {
        playable::<G>(state)
    } else {
        Vec::new()
    };
    let status = G::status(state);
    let finished = matches!(status, Status::Finished { .. });
    let linked = seating == Seating::Link;
    let hinted = hint.as_ref().and_then(|h| h.analysis.best_move.as_ref());
    let board = G::board(state, &playable, game.last_turn(), hinted);
    let on_board = drawn_on_board(&board.0, &playable);
    let groups = groups::<G>(state, &playable);
    let players = players(position, seating);
    PlayView {
        game_name: G::NAME.to_owned(),
        status: players_status::<G>(state, &status, players),
        notice,
        panel: G::panel(state, players),
        opponent: opponent_words(position, game, &status),
        last: happened(
            players,
            (&position.options, game),
            if finished || players.personal() { 2 } else { 1 },
        ),
        controls: controls(&groups, &on_board),
        groups,
        board,
        form: TurnForm {
            action: play_path(G::ID),
            method: "get".to_owned(),
            hidden: position.pairs(),
            field: PLAY.to_owned(),
            undo_field: UNDO.to_owned(),
            hint_field: HINT.to_owned(),
            value: typed,
            record_action: format!("{}/record", play_path(G::ID)),
        },
        hint: (!finished && hints_offered && linked)
            .then(|| hint_view::<G>(state, &playable, hint.as_ref())),
        can_undo: linked && undo_position(position, game).is_some(),
        new_game_href: position.options_href(),
        play_again_href: (finished && linked).then(|| position.truncated(0).href()),
        rematch: None,
        takeback: None,
        rules_href: format!("/rules/{}", G::ID),
        score: finished.then(|| G::score_words(state, players)),
        record: record_view(game, game.plies.len(), &link_positions(position)),
        looking_back: None,
        preview: None,
        waiting: match (position.opponent, seating) {
            (Some(_), _) => "The computer is thinking…",
            (None, Seating::Link) => "Playing…",
            (None, _) => "Sending the move…",
        }
        .to_owned(),
        mover: match &status {
            Status::Ongoing { to_act, colour, .. } => players.name(*to_act, colour),
            Status::Finished { .. } => String::new(),
        },
        table: None,
        steps_href: None,
        sound: "Move sound".to_owned(),
    }
}

/// The notations of the moves the board offers: those whose button the drawing holds.
fn drawn_on_board<M>(board: &str, playable: &[Playable<M>]) -> Vec<String> {
    playable
        .iter()
        .filter(|p| {
            board.contains(&format!(
                "value=\"{}\"",
                maud::html! { (p.play) }.into_string()
            ))
        })
        .map(|p| p.notation.clone())
        .collect()
}

/// The moves the board does not offer (pass, swap, the end of a turn, answers, retreats),
/// under their headings: the turn's controls, the secondary ones last.
fn controls(groups: &[ActionGroup], on_board: &[String]) -> Vec<ActionGroup> {
    let mut controls: Vec<ActionGroup> = groups
        .iter()
        .filter_map(|group| {
            let actions: Vec<Action> = group
                .actions
                .iter()
                .filter(|a| !on_board.contains(&a.notation))
                .cloned()
                .collect();
            (!actions.is_empty()).then(|| ActionGroup {
                heading: group.heading.clone(),
                actions,
                secondary: group.secondary,
            })
        })
        .collect();
    // Stable: the others keep the order of the legal moves.
    controls.sort_by_key(|group| group.secondary);
    controls
}

/// The address of the page showing a game's position after its first `count` moves: its
/// own page when `count` is all of them.
pub type PositionHref<'a> = &'a dyn Fn(usize) -> String;

/// The positions of a link's game: `at` links, and the link itself for the last.
pub fn link_positions<G: Game>(position: &Link<G>) -> impl Fn(usize) -> String + '_ {
    move |count| {
        if count == position.moves.len() {
            position.href()
        } else {
            position.at_href(count)
        }
    }
}

/// The page of an earlier position of a game, `shown`: the game replayed to its first `at`
/// moves (fewer than the game's). Its board is there to look at, with no move, hint or
/// computer reply; the steps go to the turns before and after it, back to the game, and on
/// from it (as a link's game); the whole game's move list marks it. `href` addresses the
/// game's positions on the page's surface.
pub fn earlier_view<G: PageGame>(
    position: &Link<G>,
    game: &Replayed<G>,
    shown: &Replayed<G>,
    at: usize,
    href: PositionHref,
) -> PlayView {
    let then = position.truncated(at);
    let mut view = play_view(
        &then,
        shown,
        Extras {
            hints_offered: false,
            seating: Seating::LookingBack,
            ..Extras::default()
        },
    );
    let ends = turn_ends(game);
    let shown_turns = ends.iter().filter(|&&end| end <= at).count();
    view.status = looking_back_status(game, at);
    view.looking_back = Some(LookBackView {
        words: match at {
            0 => "The start of the game".to_owned(),
            _ if ends.contains(&at) => format!("After turn {shown_turns} of {}", ends.len()),
            _ => format!(
                "During turn {} of {}, after {} of its moves",
                shown_turns + 1,
                ends.len(),
                at - game.turn_start(at)
            ),
        },
        // The turn before: where the turn that `at` ends (or is inside) starts.
        previous_href: (at > 0).then(|| href(game.turn_start(at))),
        next_href: href(
            ends.iter()
                .copied()
                .find(|&end| end > at)
                .unwrap_or(game.plies.len()),
        ),
        back_href: href(game.plies.len()),
        play_on_href: then.href(),
    });
    // The record's download is the whole game's, as on the game's own page.
    view.form.hidden = position.pairs();
    view.record = record_view(game, at, href);
    view
}

/// The status line over an earlier position (after `at` of the game's moves): which move it
/// shows, and the way back to the game, instead of whose turn it was then.
fn looking_back_status<G: Game>(game: &Replayed<G>, at: usize) -> StatusLine {
    let total = game.plies.len();
    let headline = match at.checked_sub(1).and_then(|last| game.plies.get(last)) {
        Some(ply) => format!(
            "Move {at} of {total}: {} played {}",
            capitalised(&ply.colour),
            ply.notation
        ),
        None => format!("The start of the game, before move 1 of {total}"),
    };
    StatusLine {
        headline,
        detail: "looking back; “Back to the game” shows it as it stands".to_owned(),
        finished: false,
    }
}

/// Where each turn of the game ends: the number of moves played after it, in order. A turn
/// is a run of moves by one colour.
fn turn_ends<G: Game>(game: &Replayed<G>) -> Vec<usize> {
    let plies = &game.plies;
    (1..=plies.len())
        .filter(|&end| end == plies.len() || plies[end].colour != plies[end - 1].colour)
        .collect()
}

/// The move list, turn by turn, each a link (`href`) to the position after it, with the turn
/// whose position is shown (after `shown` moves) marked; a long game lists the turns around
/// it.
pub fn record_view<G: Game>(game: &Replayed<G>, shown: usize, href: PositionHref) -> RecordView {
    let plies = &game.plies;
    if plies.is_empty() {
        return RecordView::default();
    }
    let ends = turn_ends(game);
    let start_href = href(0);
    // The links that fit the budget: the start's and the listed turns' but the one shown
    // (it is this page).
    let fit = LIST_LINK_BYTES / start_href.len().max(1);
    let listed = fit.clamp(1, LIST_MAX_TURNS);
    // The turn shown, or the one it is inside: the window is centred on it.
    let current = ends.iter().position(|&end| end >= shown).unwrap_or(0);
    let first = (current + 1)
        .saturating_sub(listed.div_ceil(2))
        .min(ends.len().saturating_sub(listed));
    let last = (first + listed).min(ends.len());
    let turns = (first..last)
        .map(|index| {
            let end = ends[index];
            let start = index.checked_sub(1).map_or(0, |i| ends[i]);
            let current = shown > start && shown <= end;
            TurnEntry {
                number: index + 1,
                by: capitalised(&plies[start].colour),
                moves: plies[start..end]
                    .iter()
                    .map(|p| p.notation.clone())
                    .collect(),
                href: (shown != end).then(|| href(end)),
                current,
            }
        })
        .collect();
    RecordView {
        turns,
        earlier: first,
        later: ends.len() - last,
        start_href: (shown > 0 && fit >= 2).then_some(start_href),
        at_start: shown == 0,
        ..RecordView::default()
    }
}

/// Undo takes back the last turn (all the steps of a Hirþ turn), or against the computer, the
/// player's last turn and the computer's answers to it: the position before them.
pub fn undo_position<G: Game>(position: &Link<G>, game: &Replayed<G>) -> Option<Link<G>> {
    let last = match position.opponent {
        None => game.plies.len().checked_sub(1)?,
        Some(computer) => game.plies.iter().rposition(|p| p.seat != computer.seat)?,
    };
    Some(position.truncated(game.turn_start(last + 1)))
}

/// Against the computer: the player's side, from the position (when the player acts) or
/// the player's last move.
fn opponent_words<G: Game>(
    position: &Link<G>,
    game: &Replayed<G>,
    status: &Status,
) -> Option<String> {
    let computer = position.opponent?;
    let strength = computer.strength.name();
    let yours = match status {
        Status::Ongoing { to_act, colour, .. } if *to_act != computer.seat => Some(colour.clone()),
        _ => game
            .plies
            .iter()
            .rev()
            .find(|p| p.seat != computer.seat)
            .map(|p| p.colour.clone()),
    };
    Some(match yours {
        Some(colour) => format!(
            "You ({}) play against the computer ({strength}).",
            capitalised(&colour)
        ),
        None => format!("Against the computer ({strength})."),
    })
}

fn hint_view<G: PageGame>(
    state: &G::State,
    playable: &[Playable<G::Move>],
    hint: Option<&Thought<G::Move>>,
) -> HintView {
    let Some(Thought { analysis, proof }) = hint else {
        return HintView {
            ask: true,
            ..HintView::default()
        };
    };
    let Some(best) = &analysis.best_move else {
        return HintView {
            advice: Some("The computer has no move to suggest.".to_owned()),
            ..HintView::default()
        };
    };
    let notation = G::format_move(state, best);
    let colour = match G::status(state) {
        Status::Ongoing { colour, .. } => colour,
        Status::Finished { .. } => String::new(),
    };
    let margin = analysis
        .margin
        .map(|m| format!(", expected margin {m:+.1}"))
        .unwrap_or_default();
    let why = match proof {
        Some(proof) if proof.wins => format!("proven: {colour} wins with it, whatever the reply"),
        Some(_) => format!("proven: {colour} loses against perfect play, whatever it plays"),
        None => format!(
            "value {:+.2} for {colour}, from −1 lost to +1 won{margin}; {} playouts",
            analysis.value, analysis.playouts
        ),
    };
    HintView {
        ask: false,
        advice: Some(format!(
            "The computer suggests: {} ({why}).",
            G::label(state, best)
        )),
        play: Some(Action {
            label: "Play the hint".to_owned(),
            id: String::new(),
            continues: continues::<G>(state, best),
            notation: notation.clone(),
        }),
        target: playable
            .iter()
            .any(|p| p.notation == notation)
            .then(|| notation.clone()),
    }
}

/// Whether the player who plays `mv` acts again after it (a step of a Hirþ turn).
fn continues<G: Game>(state: &G::State, mv: &G::Move) -> bool {
    let mut after = state.clone();
    G::apply(&mut after, mv).is_ok()
        && matches!(G::turn(&after), moot_games::Turn::ToAct(_))
        && G::turn(&after) == G::turn(state)
}

/// The line over the board: who is to play and what they must decide, or who won and why.
pub fn status_line(status: &Status) -> StatusLine {
    match status {
        Status::Ongoing {
            colour, decision, ..
        } => StatusLine {
            headline: format!("{} to play", capitalised(colour)),
            detail: decision.clone(),
            finished: false,
        },
        Status::Finished {
            winner_colour,
            reason,
            ..
        } => StatusLine {
            headline: match winner_colour {
                Some(colour) => format!("Game over: {} wins", capitalised(colour)),
                None => "Game over: a draw".to_owned(),
            },
            detail: reason.clone(),
            finished: true,
        },
    }
}

/// The legal moves as buttons, under their groups in the order the groups first appear.
fn groups<G: PageGame>(state: &G::State, playable: &[Playable<G::Move>]) -> Vec<ActionGroup> {
    let mut groups: Vec<ActionGroup> = Vec::new();
    for (index, p) in playable.iter().enumerate() {
        let heading = G::group(state, &p.mv);
        let action = Action {
            label: G::label(state, &p.mv),
            notation: p.notation.clone(),
            id: move_id(index),
            continues: continues::<G>(state, &p.mv),
        };
        match groups.iter_mut().find(|g| g.heading == heading) {
            Some(group) => group.actions.push(action),
            None => groups.push(ActionGroup {
                heading,
                actions: vec![action],
                secondary: G::secondary(state, &p.mv),
            }),
        }
    }
    groups
}

/// Who plays on the page: the computer's seat, if it plays; the page's player's seat at a
/// table.
pub fn players<G: Game>(position: &Link<G>, seating: Seating) -> PlayerNames {
    PlayerNames {
        computer: position.opponent.map(|o| o.seat),
        you: match seating {
            Seating::Seat { seat, .. } => Some(seat),
            Seating::Link | Seating::Watching | Seating::LookingBack => None,
        },
    }
}

/// The status line, in the page's names of the players; when the page speaks to one player
/// (against the computer, at a table's seat) the end says "You won" or "You lost"; the game may
/// say the end its own way ([`PageGame::end_words`]).
fn players_status<G: PageGame>(
    state: &G::State,
    status: &Status,
    players: PlayerNames,
) -> StatusLine {
    let mut line = status_line(status);
    let end_words = G::end_words(state, players);
    if let Some(words) = &end_words {
        line.detail.clone_from(words);
    }
    let you = match (players.computer, players.you) {
        (Some(computer), _) => computer.other(),
        (None, Some(you)) => you,
        (None, None) => return line,
    };
    match status {
        Status::Ongoing { to_act, colour, .. } => {
            line.headline = format!("{} to play", players.name(*to_act, colour));
        }
        Status::Finished {
            winner,
            winner_colour,
            ..
        } => {
            line.headline = match winner {
                Some(seat) if *seat == you => "Game over: you won".to_owned(),
                Some(_) => "Game over: you lost".to_owned(),
                None => "Game over: a draw".to_owned(),
            };
            if let (Some(seat), Some(colour), None) = (winner, winner_colour, &end_words) {
                line.detail = format!("{} won — {}", players.name(*seat, colour), line.detail);
            }
        }
    }
    line
}

/// The last `runs` runs of moves by one colour (a whole Hirþ turn, one Herfor placement; at
/// the end, the last two, such as both passes; against the computer, the player's move and
/// the computer's answer). Against the computer its moves are "The computer"'s, the
/// others "You".
fn happened<G: PageGame>(
    players: PlayerNames,
    (options, game): (&G::Options, &Replayed<G>),
    runs: usize,
) -> Vec<HappenedView> {
    let plies = &game.plies;
    let (mut start, mut changes) = (plies.len(), 0);
    while start > 0 && plies.len() - start < HAPPENED_MAX {
        if start < plies.len() && plies[start - 1].colour != plies[start].colour {
            changes += 1;
            if changes == runs {
                break;
            }
        }
        start -= 1;
    }
    plies[start..]
        .iter()
        .map(|ply| HappenedView {
            by: players.name(ply.seat, &ply.colour),
            notation: ply.notation.clone(),
            events: G::describe(ply, options, players),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_line_names_the_colour_and_the_winner() {
        let line = status_line(&Status::Finished {
            winner: None,
            winner_colour: Some("white".into()),
            reason: "both passed".into(),
        });
        assert_eq!(line.headline, "Game over: White wins");
        assert!(line.finished);
    }
}
