//! "Your games": the tables a browser's player sits at, each a link to the player's own seat;
//! and the header's link to it, which the server puts in the header's place for it.

use maud::{Markup, html};

use crate::layout::layout;
use crate::notifications::{NotificationsView, control};

/// The page: a summary line, then the tables (the player's turn first).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct YourGamesView {
    /// The page's title (`Your games`).
    pub title: String,
    /// How many await the player's move, or that there are none.
    pub summary: String,
    /// The tables, in the server's order.
    pub rows: Vec<GameRow>,
    /// Where a game with a friend starts.
    pub friend_href: String,
    /// Its words (`Play a friend`).
    pub friend_words: String,
    /// "Turn on notifications", for a browser with a player (whose notices they are).
    pub notifications: Option<NotificationsView>,
    /// "Find an opponent": its link and words.
    pub challenges: Option<(String, String)>,
    /// The player's id, with the words that say what it is for (a friend's invitation).
    pub player_id: Option<(String, String)>,
}

/// One table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRow {
    /// The player's own seat page.
    pub href: String,
    /// The game and the opponent (`Herfor against Bo`).
    pub heading: String,
    /// Whose turn, or `Finished`.
    pub state: String,
    /// Whether the table awaits the player's move.
    pub your_turn: bool,
    /// The moves played, in words.
    pub moves: String,
    /// The time left for the awaited move, if the table has a clock and goes on.
    pub clock: Option<RowClock>,
    /// How it ended, once it has.
    pub result: Option<String>,
}

/// A table's clock on the list, counted down by the script as on the table's page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowClock {
    /// Milliseconds left when the page was made.
    pub left_ms: i64,
    /// The time left in words.
    pub left: String,
    /// The words between the time left and the deadline.
    pub middle: String,
    /// The deadline, as `<time datetime>` holds it.
    pub deadline: String,
    /// The deadline in words.
    pub deadline_words: String,
}

/// The list of tables (also what the script takes from a fresh copy of the page).
pub fn list(view: &YourGamesView) -> Markup {
    html! {
        div #your-games-list {
            p.summary { (view.summary) }
            @if !view.rows.is_empty() {
                ul.your-games {
                    @for row in &view.rows {
                        li.turn[row.your_turn] {
                            h2 { a href=(row.href) { (row.heading) } }
                            p {
                                strong { (row.state) } " · " (row.moves)
                                @if let Some(result) = &row.result { " · " (result) }
                            }
                            @if let Some(clock) = &row.clock {
                                p.clock {
                                    span.countdown data-left=(clock.left_ms) { (clock.left) }
                                    (clock.middle)
                                    time datetime=(clock.deadline) { (clock.deadline_words) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The whole page.
pub fn page(view: &YourGamesView) -> Markup {
    layout(
        &view.title,
        html! {
            section.your-games-page {
                h1 { (view.title) }
                (list(view))
                p {
                    a.button href=(view.friend_href) { (view.friend_words) }
                    @if let Some((href, words)) = &view.challenges {
                        " " a.button.secondary href=(href) { (words) }
                    }
                }
                @if let Some((words, id)) = &view.player_id {
                    p.player-id { (words) " " code { (id) } }
                }
                @if let Some(notifications) = &view.notifications {
                    (control(notifications))
                }
            }
            script src=(crate::play::SCRIPT_HREF) defer {}
        },
    )
}

/// The header's link to the page: its words say how many tables await the player's move,
/// and the script updates it (`data-count`) from the player's feed.
pub fn header_link(href: &str, words: &str, label: &str, awaiting: u64) -> Markup {
    html! {
        a.your-games-link href=(href) aria-label=(label) data-count=(awaiting) { (words) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_links_to_the_players_seat_and_the_turn_is_marked() {
        let view = YourGamesView {
            title: "Your games".into(),
            summary: "1 game awaits your move.".into(),
            rows: vec![GameRow {
                href: "/table/ab/mine".into(),
                heading: "Herfor against Bo".into(),
                state: "Your turn".into(),
                your_turn: true,
                moves: "3 moves played".into(),
                clock: None,
                result: None,
            }],
            friend_href: "/".into(),
            friend_words: "Play a friend".into(),
            notifications: None,
            challenges: None,
            player_id: None,
        };
        let page = page(&view).into_string();
        assert!(
            page.contains(
                r#"<li class="turn"><h2><a href="/table/ab/mine">Herfor against Bo</a></h2>"#
            ),
            "{page}"
        );
        assert!(page.contains(r#"<a class="button" href="/">Play a friend</a>"#));
    }
}
