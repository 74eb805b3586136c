//! The page a new friend's table answers with: the link to keep, the link to send, shown once.

use maud::{Markup, html};

use crate::layout::layout;
use crate::options::{DAYS_FIELD, DAYS_PER_MOVE, NAME_CHARS, NAME_FIELDS, clock_fields};

/// A new table's links, the friend's first: the one to send, then the one to keep.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CreatedView {
    /// The game's name (`Herfor`).
    pub game_name: String,
    /// Who moves first with the creator's seat, in words (`You play Black and move first`).
    pub you: String,
    /// The friend's seat page, absolute: the link to send.
    pub theirs: String,
    /// The friend's link's heading (`Send this link to Bo`).
    pub send: String,
    /// What the friend's link is (`It is Bo's seat: …`).
    pub send_note: String,
    /// The words a share sheet sends with the friend's link (`Play Herfor with me: …`).
    pub share_text: String,
    /// The creator's seat page, absolute: the link to keep.
    pub yours: String,
    /// The creator's link's heading (`Your seat — keep it`).
    pub keep: String,
    /// What the creator's link is (`It is how you play: …`).
    pub keep_note: String,
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
    /// Where the same game is offered to anyone instead ("Find an opponent"), and the game's
    /// id, sent with it.
    pub offer: Option<(String, String)>,
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
                    (clock_fields("option"))
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
                @if let Some((action, game)) = &view.offer {
                    form.options.offer method="post" action=(action) {
                        h2 { "Or play anyone" }
                        p { "Offer this game to anyone: it waits on Find an opponent until someone takes it up, and the game starts then." }
                        input type="hidden" name="game" value=(game);
                        @for (name, value) in &view.hidden { input type="hidden" name=(name) value=(value); }
                        div.field {
                            label for="offer-days" { "Clock" }
                            select id="offer-days" name="days_per_move" {
                                @for (value, words) in DAYS_PER_MOVE {
                                    option value=(value) selected[value == "3"] { (words) }
                                }
                            }
                        }
                        (clock_fields("offer"))
                        button type="submit" { "Offer it to anyone" }
                    }
                }
            }
        },
    )
}

/// One whole link, to select (a read-only field that wraps, so that two links never look
/// alike cut short), with its buttons, which the script shows: Copy, and Share (`share`: the
/// words sent with it) where the browser has a share sheet, in place of Copy.
fn link_field(id: &str, href: &str, share: Option<&str>) -> Markup {
    html! {
        textarea.link id=(id) readonly rows="3" spellcheck="false" { (href) }
        p.link-buttons {
            @if let Some(text) = share {
                button type="button" data-share=(id) data-text=(text) hidden { "Share the link" }
            }
            button.secondary type="button" data-copy=(id) data-copied="Copied" hidden { "Copy the link" }
        }
    }
}

/// The new table's page: the friend's link first, to send, then the creator's, to keep.
pub fn created_page(view: &CreatedView) -> Markup {
    layout(
        &format!("{}: a table for a friend", view.game_name),
        html! {
            section.created {
                h1 { (view.game_name) ": your table is ready" }
                p { (view.you) "." }
                section.seat-link.send aria-labelledby="send-heading" {
                    h2 #send-heading { label for="their-link" { (view.send) } }
                    p { (view.send_note) }
                    (link_field("their-link", &view.theirs, Some(&view.share_text)))
                }
                section.seat-link.keep aria-labelledby="keep-heading" {
                    h2 #keep-heading { label for="your-link" { (view.keep) } }
                    p { (view.keep_note) }
                    (link_field("your-link", &view.yours, None))
                    p.again { a.button href=(view.yours) { "Go to your seat" } }
                }
                p.note { "Moot shows these links only now: keep both until your friend has theirs." }
                h2 { label for="watch-link" { "Spectators may watch here" } }
                (link_field("watch-link", &view.watch, None))
            }
            script src=(crate::play::SCRIPT_HREF) defer {}
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_new_tables_page_shows_the_friends_link_first_whole_with_share_and_copy() {
        let page = created_page(&CreatedView {
            game_name: "Herfor".into(),
            you: "You play Black and move first".into(),
            theirs: "https://moot.example/table/ab/seat/d2".into(),
            send: "Send this link to Bo".into(),
            send_note: "It is Bo's seat.".into(),
            share_text: "Play Herfor with me".into(),
            yours: "https://moot.example/table/ab/seat/c1".into(),
            keep: "Your seat — keep it".into(),
            keep_note: "It is how you play.".into(),
            watch: "https://moot.example/table/ab".into(),
        })
        .into_string();
        let theirs = page
            .find(r#"<textarea class="link" id="their-link" readonly rows="3" spellcheck="false">https://moot.example/table/ab/seat/d2</textarea>"#)
            .expect(&page);
        let yours = page
            .find(r#"<textarea class="link" id="your-link" readonly rows="3" spellcheck="false">https://moot.example/table/ab/seat/c1</textarea>"#)
            .expect("the creator's link");
        assert!(theirs < yours, "the friend's link comes first");
        let send = page
            .find("Send this link to Bo")
            .expect("the friend's heading");
        let keep = page
            .find("Your seat — keep it")
            .expect("the creator's heading");
        assert!(send < theirs && theirs < keep && keep < yours);
        assert!(page.contains(
            r#"<button type="button" data-share="their-link" data-text="Play Herfor with me" hidden>Share the link</button>"#
        ));
        assert!(page.contains(
            r#"<button class="secondary" type="button" data-copy="their-link" data-copied="Copied" hidden>Copy the link</button>"#
        ));
        // Only the friend's link is shared.
        assert_eq!(page.matches("data-share=").count(), 1);
        assert!(page.contains(
            r#"<a class="button" href="https://moot.example/table/ab/seat/c1">Go to your seat</a>"#
        ));
    }
}
