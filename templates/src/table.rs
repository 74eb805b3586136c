//! The page a new friend's table answers with: the link to keep, the link to send, shown once.

use maud::{Markup, html};

use crate::layout::layout;
use crate::options::{DAYS_FIELD, DAYS_PER_MOVE, NAME_CHARS, NAME_FIELDS};

/// A new table's links.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CreatedView {
    /// The game's name (`Herfor`).
    pub game_name: String,
    /// Who moves first with the creator's seat, in words (`You play Black and move first`).
    pub you: String,
    /// The creator's seat page, absolute: the link to keep.
    pub yours: String,
    /// The friend's seat page, absolute: the link to send.
    pub theirs: String,
    /// The spectators' page, absolute.
    pub watch: String,
}

/// The page that opens a table for a friend: the options chosen, and the clock to choose.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FriendView {
    /// The game's name (`Herfor`).
    pub game_name: String,
    /// Where the form posts to open the table.
    pub action: String,
    /// The options chosen, sent again as hidden fields.
    pub hidden: Vec<(String, String)>,
    /// The options chosen, in words, one line each.
    pub options: Vec<String>,
    /// The options page, to change them.
    pub options_href: String,
}

/// The page before a friend's table opens: the clock, then "Open the table" (a POST: it
/// makes the table).
pub fn friend_page(view: &FriendView) -> Markup {
    layout(
        &format!("Play {} with a friend", view.game_name),
        html! {
            section.options {
                h1 { "Play " (view.game_name) " with a friend" }
                p { "Moot keeps the game: you get a link to your seat and one to send to your friend, and each of you plays when you like." }
                @if !view.options.is_empty() {
                    ul { @for line in &view.options { li { (line) } } }
                }
                p { a href=(view.options_href) { "Change the options" } }
                form.options method="post" action=(view.action) {
                    @for (name, value) in &view.hidden { input type="hidden" name=(name) value=(value); }
                    div.field {
                        label for="option-days" { "Clock" }
                        select id="option-days" name=(DAYS_FIELD) {
                            @for (value, words) in DAYS_PER_MOVE {
                                option value=(value) selected[value == "3"] { (words) }
                            }
                        }
                        small { "Past a move's deadline, the waiting player may claim the win." }
                    }
                    div.field {
                        label for="option-name" { "Your name" }
                        input id="option-name" type="text" name=(NAME_FIELDS[0]) maxlength=(NAME_CHARS) autocomplete="nickname";
                        small { "Optional: shown to both of you and to spectators." }
                    }
                    div.field {
                        label for="option-friend" { "Your friend's name" }
                        input id="option-friend" type="text" name=(NAME_FIELDS[1]) maxlength=(NAME_CHARS) autocomplete="off";
                    }
                    button type="submit" { "Open the table" }
                }
            }
        },
    )
}

/// One link to copy: a read-only field (select it without the script) and a copy button the
/// script shows.
fn copyable(id: &str, label: &str, href: &str) -> Markup {
    html! {
        div.field.copy {
            label for=(id) { (label) }
            input id=(id) type="text" readonly value=(href);
            button.secondary type="button" data-copy=(id) hidden { "Copy" }
        }
    }
}

/// The new table's page.
pub fn created_page(view: &CreatedView) -> Markup {
    layout(
        &format!("{}: a table for a friend", view.game_name),
        html! {
            section.created {
                h1 { (view.game_name) ": your table is ready" }
                p { (view.you) "." }
                (copyable("your-link", "Your link: keep it, it is how you play (anyone with it plays your side)", &view.yours))
                (copyable("their-link", "Send this link to your friend: it is their seat", &view.theirs))
                p.note { "Moot shows these links only now: keep both until your friend has theirs." }
                p.again { a.button href=(view.yours) { "Go to your seat" } }
                (copyable("watch-link", "Spectators may watch here", &view.watch))
            }
            script src=(crate::play::SCRIPT_HREF) defer {}
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_new_tables_page_shows_both_seats_links_to_select_and_copy() {
        let page = created_page(&CreatedView {
            game_name: "Herfor".into(),
            you: "You play Black and move first".into(),
            yours: "https://moot.example/table/ab/seat/c1".into(),
            theirs: "https://moot.example/table/ab/seat/d2".into(),
            watch: "https://moot.example/table/ab".into(),
        })
        .into_string();
        assert!(page.contains(r#"<input id="your-link" type="text" readonly value="https://moot.example/table/ab/seat/c1">"#), "{page}");
        assert!(page.contains(r#"<input id="their-link" type="text" readonly value="https://moot.example/table/ab/seat/d2">"#));
        assert!(page.contains(
            r#"<button class="secondary" type="button" data-copy="their-link" hidden>Copy</button>"#
        ));
        assert!(page.contains(
            r#"<a class="button" href="https://moot.example/table/ab/seat/c1">Go to your seat</a>"#
        ));
    }
}
