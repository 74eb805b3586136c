//! "Find an opponent": the open challenges, each with a form that accepts it; the form that
//! makes one; and a challenge's own page, where its creator waits (and may cancel) and its
//! invited player accepts or declines. Every action is a plain form (POST): no script needed.

use maud::{Markup, html};

use crate::layout::layout;

/// A form with one button, posting to `action`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ButtonForm {
    /// Where it posts.
    pub action: String,
    /// The button's words.
    pub words: String,
    /// Whether it is the page's main action (a filled button) or a lesser one.
    pub main: bool,
}

/// One challenge in a list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChallengeRow {
    /// The game and who offers it (`Herfor with Ann`).
    pub heading: String,
    /// The challenge's page.
    pub href: String,
    /// The options, clock and colours, in words.
    pub details: String,
    /// How long ago it was made, in words.
    pub age: String,
    /// The form that accepts it, where the browser may.
    pub play: Option<ButtonForm>,
}

/// One choice of a `<select>`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Choice {
    /// The value sent.
    pub value: String,
    /// Its words.
    pub label: String,
}

/// A `<select>` of the create form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Select {
    /// The field's name and id.
    pub name: String,
    /// Its label.
    pub label: String,
    /// Its choices, the first chosen.
    pub choices: Vec<Choice>,
}

/// The form that makes a challenge.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CreateForm {
    /// Where it posts.
    pub action: String,
    /// Its heading.
    pub heading: String,
    /// The game, the clock, the colour.
    pub selects: Vec<Select>,
    /// The creator's name (for a browser without a player yet).
    pub name_label: Option<String>,
    /// The invited player's id field's label.
    pub invite_label: String,
    /// What the invited player's id is for, and where it is found.
    pub invite_hint: String,
    /// The button's words.
    pub button: String,
}

/// The list page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChallengesView {
    /// The page's title (`Find an opponent`).
    pub title: String,
    /// What the page is for.
    pub intro: String,
    /// The open challenges' heading.
    pub open_heading: String,
    /// What is said when there are none.
    pub none: String,
    /// The open challenges, newest first.
    pub rows: Vec<ChallengeRow>,
    /// The heading of the browser's player's own challenges and invitations.
    pub yours_heading: String,
    /// The browser's player's own open challenges and invitations.
    pub yours: Vec<ChallengeRow>,
    /// The create form.
    pub form: CreateForm,
}

/// A challenge's own page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChallengeView {
    /// The page's title and heading.
    pub title: String,
    /// Where it stands, in a sentence.
    pub status: String,
    /// The facts: game, options, clock, colours, who offers it.
    pub facts: Vec<String>,
    /// A line to pass on (the page's own address, for an open challenge's creator).
    pub share: Option<(String, String)>,
    /// The actions the browser may take.
    pub actions: Vec<ButtonForm>,
    /// A link onward (to the table, to the list).
    pub links: Vec<(String, String)>,
}

fn button_form(form: &ButtonForm) -> Markup {
    html! {
        form.inline method="post" action=(form.action) {
            button.button.secondary[!form.main] type="submit" { (form.words) }
        }
    }
}

fn rows(rows: &[ChallengeRow]) -> Markup {
    html! {
        ul.challenges {
            @for row in rows {
                li {
                    h3 { a href=(row.href) { (row.heading) } }
                    p { (row.details) " · " (row.age) }
                    @if let Some(play) = &row.play { (button_form(play)) }
                }
            }
        }
    }
}

fn create_form(form: &CreateForm) -> Markup {
    html! {
        form.challenge-form method="post" action=(form.action) {
            h2 #create { (form.heading) }
            @for select in &form.selects {
                p {
                    label for=(select.name) { (select.label) }
                    " "
                    select #(select.name) name=(select.name) {
                        @for choice in &select.choices {
                            option value=(choice.value) { (choice.label) }
                        }
                    }
                }
            }
            (crate::options::clock_fields("challenge"))
            @if let Some(label) = &form.name_label {
                p {
                    label for="name" { (label) }
                    " "
                    input #name type="text" name="name" maxlength="40" autocomplete="nickname";
                }
            }
            p {
                label for="invite" { (form.invite_label) }
                " "
                input #invite type="text" name="invite" maxlength="32" autocomplete="off"
                    aria-describedby="invite-hint" spellcheck="false";
                br;
                small #invite-hint { (form.invite_hint) }
            }
            p { button.button type="submit" { (form.button) } }
        }
    }
}

/// The list page.
pub fn list_page(view: &ChallengesView) -> Markup {
    layout(
        &view.title,
        html! {
            section.challenges-page {
                h1 { (view.title) }
                p { (view.intro) }
                @if !view.yours.is_empty() {
                    h2 { (view.yours_heading) }
                    (rows(&view.yours))
                }
                h2 { (view.open_heading) }
                @if view.rows.is_empty() {
                    p { (view.none) }
                } @else {
                    (rows(&view.rows))
                }
                (create_form(&view.form))
            }
        },
    )
}

/// A challenge's own page.
pub fn challenge_page(view: &ChallengeView) -> Markup {
    layout(
        &view.title,
        html! {
            section.challenge-page {
                h1 { (view.title) }
                p.status role="status" { (view.status) }
                ul { @for fact in &view.facts { li { (fact) } } }
                @if let Some((words, link)) = &view.share {
                    p { (words) " " code { (link) } }
                }
                @for action in &view.actions { (button_form(action)) }
                @for (href, words) in &view.links {
                    p { a href=(href) { (words) } }
                }
            }
            // Moves the waiting page on once the challenge is answered (its player's feed).
            script src=(crate::play::SCRIPT_HREF) defer {}
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_open_challenge_has_a_play_form_that_posts() {
        let view = ChallengesView {
            title: "Find an opponent".into(),
            rows: vec![ChallengeRow {
                heading: "Herfor with Ann".into(),
                href: "/challenges/ab".into(),
                details: "Standard options".into(),
                age: "made just now".into(),
                play: Some(ButtonForm {
                    action: "/challenges/ab/accept".into(),
                    words: "Play".into(),
                    main: true,
                }),
            }],
            ..ChallengesView::default()
        };
        let page = list_page(&view).into_string();
        assert!(
            page.contains(r#"<form class="inline" method="post" action="/challenges/ab/accept"><button class="button" type="submit">Play</button></form>"#),
            "{page}"
        );
    }
}
