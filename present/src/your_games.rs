//! "Your games": the tables a browser's player sits at, in words. The server hands each table
//! as plain facts ([`YourTable`]: the game, the opponent, whose turn, the ply, the clock, the
//! result) in the order it lists them (the player's turn first), and gets back the page's view
//! data; and the header's link to the page, with the count of tables awaiting the player.

use moot_games::Seat;
use moot_templates::your_games::{GameRow, RowClock, YourGamesView};

use crate::table::words::{iso_time, time_left, when};
use crate::table::{EndedBy, Millis};

/// The page's title, and the header link's words.
pub const TITLE: &str = "Your games";

/// What the page says of the player's id, which a friend needs to invite the player.
pub const PLAYER_ID_WORDS: &str = "Your player id, for a friend who wants to invite you:";

/// The header link's words: the page's title, and how many tables await the player's move.
pub fn link_words(awaiting: u64) -> String {
    if awaiting == 0 {
        TITLE.to_owned()
    } else {
        format!("{TITLE} ({awaiting})")
    }
}

/// The header link's name for a screen reader, saying what the count is; it starts with the
/// words shown, so that a voice command naming them finds the link.
pub fn link_label(awaiting: u64) -> String {
    match awaiting {
        0 => TITLE.to_owned(),
        1 => format!("{}, 1 awaits your move", link_words(1)),
        n => format!("{}, {n} await your move", link_words(n)),
    }
}

/// One of the player's tables, as the server lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct YourTable {
    /// The game's name (`Herfor`).
    pub game_name: String,
    /// The player's seat.
    pub seat: Seat,
    /// The other seat's name, if it has one.
    pub opponent: Option<String>,
    /// Whether the table awaits the player's move.
    pub your_turn: bool,
    /// Moves played.
    pub ply: u64,
    /// How it ended, once it has: the winner (`None` for a draw) and how.
    pub ended: Option<(Option<Seat>, EndedBy)>,
    /// When the awaited move is due, if the table has a clock and goes on.
    pub deadline: Option<Millis>,
    /// The player's own seat page (no credential in it).
    pub href: String,
}

/// The page's view data: the tables in the order given, at the time `now`; `friend` is where
/// "Play a friend" starts (shown when the list is empty, and under it).
pub fn view(tables: &[YourTable], friend: &str, now: Millis) -> YourGamesView {
    let awaiting = tables.iter().filter(|t| t.your_turn).count();
    let summary = match (tables.len(), awaiting) {
        (0, _) => "This browser has no games yet. Start one with a friend: the tables you open \
                   or join here are listed on this page."
            .to_owned(),
        (_, 0) => "No game awaits your move.".to_owned(),
        (_, 1) => "1 game awaits your move.".to_owned(),
        (_, n) => format!("{n} games await your move."),
    };
    YourGamesView {
        title: TITLE.to_owned(),
        summary,
        rows: tables.iter().map(|table| row(table, now)).collect(),
        friend_href: friend.to_owned(),
        friend_words: "Play a friend".to_owned(),
        notifications: None,
        challenges: None,
        player_id: None,
    }
}

fn row(table: &YourTable, now: Millis) -> GameRow {
    let opponent = match &table.opponent {
        Some(name) => format!("against {name}"),
        None => "against your friend".to_owned(),
    };
    let moves = match table.ply {
        1 => "1 move played".to_owned(),
        n => format!("{n} moves played"),
    };
    let (state, result) = match table.ended {
        Some(ended) => ("Finished".to_owned(), Some(result(table.seat, ended))),
        None if table.your_turn => ("Your turn".to_owned(), None),
        None => ("Your opponent's turn".to_owned(), None),
    };
    let clock = match (table.ended, table.deadline) {
        (None, Some(deadline)) => {
            let left_ms = deadline.saturating_sub(now);
            Some(RowClock {
                left_ms,
                left: time_left(left_ms),
                middle: ", due by ".to_owned(),
                deadline: iso_time(deadline),
                deadline_words: when(deadline),
            })
        }
        _ => None,
    };
    GameRow {
        href: table.href.clone(),
        heading: format!("{} {opponent}", table.game_name),
        state,
        your_turn: table.your_turn,
        moves,
        clock,
        result,
    }
}

/// How a table ended, for the seat `you`.
fn result(you: Seat, (winner, ended_by): (Option<Seat>, EndedBy)) -> String {
    match (ended_by, winner) {
        (EndedBy::Abandoned, _) => "Closed: no one moved for too long".to_owned(),
        (EndedBy::Aborted, _) => "Aborted: no result".to_owned(),
        (EndedBy::PlyLimit, _) => "A draw: the table reached its most moves".to_owned(),
        (_, None) => "A draw".to_owned(),
        (EndedBy::Resignation, Some(w)) if w == you => "You won: your opponent resigned".into(),
        (EndedBy::Resignation, Some(_)) => "You lost: you resigned".to_owned(),
        (EndedBy::Time, Some(w)) if w == you => "You won on time".to_owned(),
        (EndedBy::Time, Some(_)) => "You lost on time".to_owned(),
        (EndedBy::Rules, Some(w)) if w == you => "You won".to_owned(),
        (EndedBy::Rules, Some(_)) => "You lost".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(your_turn: bool) -> YourTable {
        YourTable {
            game_name: "Herfor".into(),
            seat: Seat::First,
            opponent: Some("Bo".into()),
            your_turn,
            ply: 3,
            ended: None,
            deadline: Some(2 * 86_400_000),
            href: "/table/ab/mine".into(),
        }
    }

    #[test]
    fn the_link_counts_only_the_tables_awaiting_the_player() {
        assert_eq!(link_words(0), "Your games");
        assert_eq!(link_words(2), "Your games (2)");
        assert_eq!(link_label(1), "Your games (1), 1 awaits your move");
    }

    #[test]
    fn a_row_says_the_game_the_opponent_whose_turn_the_moves_and_the_clock() {
        let page = view(&[table(true), table(false)], "/play/herfor/friend", 0);
        assert_eq!(page.summary, "1 game awaits your move.");
        let row = &page.rows[0];
        assert_eq!(row.heading, "Herfor against Bo");
        assert_eq!(row.state, "Your turn");
        assert_eq!(row.moves, "3 moves played");
        assert_eq!(
            row.clock.as_ref().map(|c| c.left.as_str()),
            Some("2 d 0 h left")
        );
        assert_eq!(page.rows[1].state, "Your opponent's turn");
    }

    #[test]
    fn a_finished_row_says_the_result_for_the_player_and_no_clock() {
        let mut done = table(false);
        done.ended = Some((Some(Seat::Second), EndedBy::Resignation));
        let row = &view(&[done], "/", 0).rows[0];
        assert_eq!(row.state, "Finished");
        assert_eq!(row.result.as_deref(), Some("You lost: you resigned"));
        assert!(row.clock.is_none());
    }

    #[test]
    fn an_empty_list_says_so() {
        let page = view(&[], "/play/herfor/friend", 0);
        assert!(page.rows.is_empty());
        assert!(page.summary.starts_with("This browser has no games yet"));
    }
}
