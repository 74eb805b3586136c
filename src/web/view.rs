//! Builds the game page's view data from a replayed game: generic over [`PageGame`].

use moot_templates::play::{
    Action, ActionGroup, HappenedView, HintView, NotationForm, Notice, PlayView, RecordView,
    StatusLine,
};
use serde_json::Value;

use super::page_game::{PageGame, Playable};
use super::position::{PLAY, Position, play_path};
use super::replay::Replayed;
use crate::ai::Analysis;
use crate::games::{Game, Status};

/// At most this many moves are listed under "What happened".
const HAPPENED_MAX: usize = 12;

/// Every legal move of the position, with its notation and the link that plays it.
pub fn playable<G: PageGame>(position: &Position<G>, state: &G::State) -> Vec<Playable<G::Move>> {
    G::legal_moves(state)
        .into_iter()
        .map(|mv| {
            let notation = G::format_move(state, &mv);
            Playable {
                href: position.with_move(notation.clone()).href(),
                notation,
                mv,
            }
        })
        .collect()
}

/// What a page shows besides the position: a refused submission, a hint.
pub struct Extras<M> {
    pub notice: Option<Notice>,
    /// The move typed in the notation form (kept after a refusal).
    pub typed: String,
    pub hint: Option<Analysis<M>>,
    /// Whether the server runs the computer player, which gives hints.
    pub hints_offered: bool,
}

impl<M> Default for Extras<M> {
    fn default() -> Self {
        Extras {
            notice: None,
            typed: String::new(),
            hint: None,
            hints_offered: true,
        }
    }
}

/// The game page of a replayed link.
pub fn play_view<G: PageGame>(
    position: &Position<G>,
    game: &Replayed<G>,
    extras: Extras<G::Move>,
) -> PlayView {
    let state = &game.state;
    let playable = playable(position, state);
    let status = G::status(state);
    let finished = matches!(status, Status::Finished { .. });
    let Extras {
        notice,
        typed,
        hint,
        hints_offered,
    } = extras;
    PlayView {
        game_name: G::NAME.to_owned(),
        status: status_line(&status),
        notice,
        board: G::board(state, &playable, game.last_turn()),
        panel: G::panel(state),
        opponent: opponent_words(position, &status),
        last: happened(game, if finished { 2 } else { 1 }),
        groups: groups::<G>(state, &playable),
        notation_form: NotationForm {
            action: play_path(G::ID),
            hidden: position.pairs(),
            field: PLAY.to_owned(),
            value: typed,
        },
        hint: (!finished && hints_offered).then(|| hint_view(position, state, hint.as_ref())),
        undo_href: undo_href(position, game),
        new_game_href: position.options_href(),
        rules_href: format!("/rules/{}", G::ID),
        score: finished.then(|| score_rows(&G::score(state))),
        record: RecordView {
            text: game.record(),
            download_href: position.record_href(),
        },
        preview: None,
    }
}

/// Undo takes back the last move, or against the computer, the player's last move and the
/// computer's answers to it.
fn undo_href<G: Game>(position: &Position<G>, game: &Replayed<G>) -> Option<String> {
    let keep = match position.opponent {
        None => position.moves.len().checked_sub(1)?,
        Some(computer) => game.plies.iter().rposition(|p| p.seat != computer.seat)?,
    };
    Some(position.truncated(keep).href())
}

fn opponent_words<G: Game>(position: &Position<G>, status: &Status) -> Option<String> {
    let computer = position.opponent?;
    let strength = computer.strength.name();
    Some(match status {
        Status::Ongoing { to_act, colour, .. } if *to_act != computer.seat => {
            format!("You play {colour} against the computer ({strength}).")
        }
        _ => format!("Against the computer ({strength})."),
    })
}

fn hint_view<G: PageGame>(
    position: &Position<G>,
    state: &G::State,
    hint: Option<&Analysis<G::Move>>,
) -> HintView {
    let Some(analysis) = hint else {
        return HintView {
            ask_href: Some(position.hint_href()),
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
    HintView {
        ask_href: None,
        advice: Some(format!(
            "The computer suggests: {} (value {:+.2} for {colour}, from −1 lost to +1 won{margin}; {} playouts).",
            G::label(state, best),
            analysis.value,
            analysis.playouts
        )),
        play: Some(Action {
            label: "Play the hint".to_owned(),
            href: position.with_move(notation.clone()).href(),
            notation,
        }),
    }
}

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
    for p in playable {
        let heading = G::group(state, &p.mv);
        let action = Action {
            label: G::label(state, &p.mv),
            notation: p.notation.clone(),
            href: p.href.clone(),
        };
        match groups.iter_mut().find(|g| g.heading == heading) {
            Some(group) => group.actions.push(action),
            None => groups.push(ActionGroup {
                heading,
                actions: vec![action],
            }),
        }
    }
    groups
}

/// The last `runs` runs of moves by one colour (a whole Hirþ turn, one Herfor placement; at
/// the end, the last two, such as both passes).
fn happened<G: PageGame>(game: &Replayed<G>, runs: usize) -> Vec<HappenedView> {
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
            by: capitalised(&ply.colour),
            notation: ply.notation.clone(),
            events: ply.events.iter().map(G::describe).collect(),
        })
        .collect()
}

/// The engine's score breakdown as rows of words: every member, nested ones by their path.
pub fn score_rows<S: serde::Serialize>(score: &S) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    if let Ok(value) = serde_json::to_value(score) {
        flatten("", &value, &mut rows);
    }
    rows
}

fn flatten(path: &str, value: &Value, rows: &mut Vec<(String, String)>) {
    match value {
        Value::Object(members) => {
            for (name, member) in members {
                let words = name.replace('_', " ");
                let path = if path.is_empty() {
                    capitalised(&words)
                } else {
                    format!("{path}, {words}")
                };
                flatten(&path, member, rows);
            }
        }
        Value::Null => rows.push((path.to_owned(), "—".to_owned())),
        Value::Bool(b) => rows.push((path.to_owned(), if *b { "yes" } else { "no" }.to_owned())),
        Value::String(s) => rows.push((path.to_owned(), s.clone())),
        Value::Array(items) => {
            let words: Vec<String> = items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect();
            rows.push((path.to_owned(), words.join(", ")));
        }
        Value::Number(n) => rows.push((path.to_owned(), n.to_string())),
    }
}

pub fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_rows_flatten_nested_members_in_words() {
        let score = serde_json::json!({"black_total": 5.5, "button": null, "points": {"red": 3}, "won": true});
        assert_eq!(
            score_rows(&score),
            [
                ("Black total".to_owned(), "5.5".to_owned()),
                ("Button".to_owned(), "—".to_owned()),
                ("Points, red".to_owned(), "3".to_owned()),
                ("Won".to_owned(), "yes".to_owned()),
            ]
        );
    }

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
