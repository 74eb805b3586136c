//! The game page: status, board, what happened, every legal action as a button, the record.

use maud::{Markup, html};

use crate::layout::{Preview, layout_with_preview};

/// Everything the game page shows.
#[derive(Clone, Debug, Default)]
pub struct PlayView {
    pub game_name: String,
    pub status: StatusLine,
    /// A submission that was refused, with the engine's reason.
    pub notice: Option<Notice>,
    /// The board as inline SVG.
    pub board: Markup,
    /// The facts beside the board.
    pub panel: Markup,
    /// Who plays whom (two at one screen, or against the computer).
    pub opponent: Option<String>,
    /// The moves since the player now acting last acted, each with what it caused.
    pub last: Vec<HappenedView>,
    pub groups: Vec<ActionGroup>,
    /// The form that plays a move typed in notation.
    pub notation_form: NotationForm,
    pub hint: Option<HintView>,
    pub undo_href: Option<String>,
    pub new_game_href: String,
    pub rules_href: String,
    /// The score breakdown, once the game is over.
    pub score: Option<Vec<(String, String)>>,
    pub record: RecordView,
    /// The link preview of this position, when the page knows its own address.
    pub preview: Option<Preview>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatusLine {
    pub headline: String,
    pub detail: String,
    pub finished: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notice {
    pub title: String,
    pub detail: String,
}

/// One move played and what it did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HappenedView {
    /// Who played it (`Black`).
    pub by: String,
    pub notation: String,
    pub events: Vec<String>,
}

/// The buttons of one kind of move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActionGroup {
    pub heading: String,
    pub actions: Vec<Action>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Action {
    pub label: String,
    pub notation: String,
    pub href: String,
}

/// A GET form back to the same page with the position in hidden fields and one text field.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NotationForm {
    pub action: String,
    pub hidden: Vec<(String, String)>,
    /// The name of the text field.
    pub field: String,
    /// What the field holds (the refused move, after a refusal).
    pub value: String,
}

/// The computer's advice: a button to ask for it, or its answer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HintView {
    /// The link that asks for a hint, until one is shown.
    pub ask_href: Option<String>,
    /// The advice, in words (`Best: place on c3 (value +0.42 for Black)`).
    pub advice: Option<String>,
    /// The link that plays the advised move.
    pub play: Option<Action>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordView {
    /// The game's record in its notation (empty before the first move).
    pub text: String,
    pub download_href: String,
}

pub fn page(view: &PlayView) -> Markup {
    layout_with_preview(
        &view.game_name,
        view.preview.as_ref(),
        html! {
            section.play {
                h1 { (view.game_name) }
                p.status.finished[view.status.finished] role="status" {
                    strong { (view.status.headline) }
                    @if !view.status.detail.is_empty() { " — " (view.status.detail) }
                }
                @if let Some(opponent) = &view.opponent { p.opponent { (opponent) } }
                @if let Some(notice) = &view.notice {
                    div.notice role="alert" {
                        strong { (notice.title) }
                        p { (notice.detail) }
                    }
                }
                div.table {
                    figure.board { (view.board) }
                    div.side {
                        div.panel { (view.panel) }
                        @if !view.last.is_empty() { (happened(&view.last)) }
                        @if let Some(score) = &view.score { (score_table(score)) }
                        (actions(view))
                        (links(view))
                    }
                }
                (record(&view.record))
            }
        },
    )
}

fn happened(plies: &[HappenedView]) -> Markup {
    html! {
        section.happened aria-label="What happened" {
            h2 { "What happened" }
            ol {
                @for ply in plies {
                    li {
                        (ply.by) " played " code { (ply.notation) }
                        @if !ply.events.is_empty() {
                            ul { @for event in &ply.events { li { (event) } } }
                        }
                    }
                }
            }
        }
    }
}

fn score_table(rows: &[(String, String)]) -> Markup {
    html! {
        section.score {
            h2 { "Score" }
            table.score {
                tbody {
                    @for (name, value) in rows { tr { th scope="row" { (name) } td { (value) } } }
                }
            }
        }
    }
}

fn actions(view: &PlayView) -> Markup {
    html! {
        @if !view.groups.is_empty() {
            section.actions aria-label="Your moves" {
                @for group in &view.groups {
                    h2 { (group.heading) }
                    ul.actions {
                        @for action in &group.actions {
                            li {
                                a.button href=(action.href) {
                                    (action.label) " " code { (action.notation) }
                                }
                            }
                        }
                    }
                }
                @if let Some(hint) = &view.hint { (hint_box(hint)) }
                (notation_form(&view.notation_form))
            }
        }
    }
}

fn hint_box(hint: &HintView) -> Markup {
    html! {
        div.hint {
            @if let Some(href) = &hint.ask_href { a.button.secondary href=(href) { "Hint" } }
            @if let Some(advice) = &hint.advice { p { (advice) } }
            @if let Some(play) = &hint.play {
                a.button href=(play.href) { (play.label) " " code { (play.notation) } }
            }
        }
    }
}

fn notation_form(form: &NotationForm) -> Markup {
    html! {
        form.notation method="get" action=(form.action) {
            @for (name, value) in &form.hidden { input type="hidden" name=(name) value=(value); }
            label for="notation" { "Or type a move in notation" }
            input #notation type="text" name=(form.field) value=(form.value) autocomplete="off" spellcheck="false";
            button type="submit" { "Play" }
        }
    }
}

fn links(view: &PlayView) -> Markup {
    html! {
        p.links {
            @if let Some(href) = &view.undo_href { a.button.secondary href=(href) rel="nofollow" { "Undo the last move" } }
            a.button.secondary href=(view.new_game_href) { "New game" }
            a href=(view.rules_href) { "Rules" }
        }
    }
}

fn record(record: &RecordView) -> Markup {
    html! {
        section.record {
            h2 { "Record" }
            @if record.text.is_empty() {
                p { "No move yet." }
            } @else {
                pre { (record.text) }
                p { a href=(record.download_href) download { "Download the record" } }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> PlayView {
        PlayView {
            game_name: "Herfor".into(),
            status: StatusLine {
                headline: "Black to play".into(),
                detail: "place a black stone".into(),
                finished: false,
            },
            groups: vec![ActionGroup {
                heading: "Placements".into(),
                actions: vec![Action {
                    label: "Place on a1".into(),
                    notation: "a1".into(),
                    href: "/play/herfor?moves=a1".into(),
                }],
            }],
            notation_form: NotationForm {
                action: "/play/herfor".into(),
                hidden: vec![("moves".into(), "c3.b2".into())],
                field: "play".into(),
                value: String::new(),
            },
            record: RecordView {
                text: "c3 b2".into(),
                download_href: "/play/herfor/record?moves=c3.b2".into(),
            },
            ..PlayView::default()
        }
    }

    #[test]
    fn play_page_lists_actions_under_their_heading_as_links() {
        let page = page(&view()).into_string();
        assert!(page.contains("<h2>Placements</h2><ul class=\"actions\"><li><a class=\"button\" href=\"/play/herfor?moves=a1\">Place on a1 <code>a1</code></a></li></ul>"), "{page}");
        assert!(page.contains(r#"<input type="hidden" name="moves" value="c3.b2">"#));
        assert!(page.contains("<pre>c3 b2</pre>"));
        assert!(!page.contains("role=\"alert\""));
    }

    #[test]
    fn play_page_shows_a_refusal_as_an_alert() {
        let mut view = view();
        view.notice = Some(Notice {
            title: "c3 cannot be played".into(),
            detail: "c3 already holds a black stone".into(),
        });
        let page = page(&view).into_string();
        assert!(page.contains("<div class=\"notice\" role=\"alert\"><strong>c3 cannot be played</strong><p>c3 already holds a black stone</p></div>"));
    }

    #[test]
    fn finished_game_shows_the_score_and_no_moves() {
        let mut view = view();
        view.groups.clear();
        view.status.finished = true;
        view.score = Some(vec![("Black total".into(), "5".into())]);
        let page = page(&view).into_string();
        assert!(page.contains("<th scope=\"row\">Black total</th><td>5</td>"));
        assert!(page.contains("class=\"status finished\""));
        assert!(!page.contains("Or type a move"));
    }
}
