//! What a table's pages say in words: a seat's refusals over the board, an ending outside the
//! rules, the seats and the time as shown, and the lines of the pages that open a table.

use moot_games::{Seat, Status};
use moot_templates::options::{OptionField, OptionInput};
use moot_templates::play::{Notice, StatusLine};
use moot_templates::table::CreatedView;

use super::{EndedBy, Millis};
use crate::submit::refused_move;
use crate::words::capitalised;

/// A refusal of a seat's action that its page says over the board (the server answers it
/// with a status of its own choosing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatRefusal {
    /// The form came from an older page: the opponent moved since.
    StalePly,
    /// The opponent is to move.
    NotYourTurn,
    /// The table is over.
    Finished,
    /// A claim on time by the seat whose move is awaited.
    NotWaiting,
    /// A claim before the deadline, or at a table with no clock: why, in a phrase.
    TooEarly(String),
    /// A claim where no one has moved: a late first move aborts the table.
    NothingToClaim,
    /// An abort once both players have moved.
    BothMoved,
    /// A move the engine refused.
    Move {
        /// The move as sent.
        text: String,
        /// The engine's reason.
        why: String,
    },
    /// The form did not say which ply it was sent from.
    NoPly,
    /// The awaited move's deadline passed and the clock ended the game.
    TimeExpired,
    /// A vacation that cannot start or end: why, in a phrase.
    Vacation(String),
}

/// The notice over the board that says `refusal`.
pub fn notice(refusal: &SeatRefusal) -> Notice {
    let (title, detail) = match refusal {
        SeatRefusal::StalePly => (
            "The table moved on",
            "Your opponent moved after this page was shown: here is the table now.".to_owned(),
        ),
        SeatRefusal::NotYourTurn => (
            "Not your turn",
            "Your opponent is to move: reload to see whether they have.".to_owned(),
        ),
        SeatRefusal::Finished => (
            "The game is over",
            "Nothing more can be played at this table.".to_owned(),
        ),
        SeatRefusal::NotWaiting => (
            "Your move is awaited",
            "Only the player waiting for the other's move may claim the win.".to_owned(),
        ),
        SeatRefusal::TooEarly(why) => ("Too early to claim", format!("{}.", capitalised(why))),
        SeatRefusal::TimeExpired => (
            "Time is up",
            "The deadline passed, so the game ended on time: the waiting player wins.".to_owned(),
        ),
        SeatRefusal::Vacation(why) => ("No vacation", format!("{}.", capitalised(why))),
        SeatRefusal::NothingToClaim => (
            "Nothing to claim",
            "No one has moved yet: a table whose first move is late is aborted, with no result."
                .to_owned(),
        ),
        SeatRefusal::BothMoved => (
            "Too late to abort",
            "Both players have moved: the game can no longer be called off (you may resign)."
                .to_owned(),
        ),
        SeatRefusal::Move { text, why } => return refused_move(text, why),
        SeatRefusal::NoPly => (
            "No ply",
            "The form did not say which position it was sent from: reload the page and play again."
                .to_owned(),
        ),
    };
    Notice {
        title: title.to_owned(),
        detail,
    }
}

/// The player in `seat` as a spectator reads it: the name the seat was given (`names`, seat by
/// seat), else "the first player" or "the second player".
pub fn seat_words(seat: Seat, names: &[(Seat, Option<String>)]) -> String {
    names
        .iter()
        .find(|(named, _)| *named == seat)
        .and_then(|(_, name)| name.clone())
        .unwrap_or_else(|| match seat {
            Seat::First => "the first player".to_owned(),
            Seat::Second => "the second player".to_owned(),
        })
}

/// The status line of a table that ended outside the rules (a resignation, a claim on time,
/// the ply cap, abandoned) after `plies` moves, for the seat `you` (`None` for a spectator),
/// the seats named by `names` where they were given a name.
pub fn ended_outside_the_rules(
    (winner, ended_by): (Option<Seat>, EndedBy),
    you: Option<Seat>,
    plies: u64,
    names: &[(Seat, Option<String>)],
) -> StatusLine {
    let seat_words = |seat: Seat| seat_words(seat, names);
    let closed = |headline: &str, detail: String| StatusLine {
        headline: headline.to_owned(),
        detail,
        finished: true,
    };
    match ended_by {
        EndedBy::PlyLimit => {
            return closed(
                "Game over: a draw",
                format!("The table reached {plies} moves, the most a table may have"),
            );
        }
        EndedBy::Abandoned => {
            return closed(
                "Table closed: abandoned",
                "No one moved for too long, so the table ended with no winner".to_owned(),
            );
        }
        EndedBy::Aborted => {
            return closed(
                "Table aborted",
                "It was called off before both players had moved: no result".to_owned(),
            );
        }
        EndedBy::Rules | EndedBy::Resignation | EndedBy::Time => {}
    }
    let Some(winner) = winner else {
        return StatusLine {
            headline: "Game over: a draw".to_owned(),
            detail: String::new(),
            finished: true,
        };
    };
    let loser = winner.other();
    let (headline, detail) = match (you, ended_by) {
        (Some(you), EndedBy::Resignation) if you == winner => {
            ("Game over: you won", "your opponent resigned".to_owned())
        }
        (Some(_), EndedBy::Resignation) => ("Game over: you lost", "you resigned".to_owned()),
        (Some(you), _) if you == winner => (
            "Game over: you won",
            "your opponent's move was overdue and you claimed the win".to_owned(),
        ),
        (Some(_), _) => (
            "Game over: you lost",
            "your move was overdue and your opponent claimed the win".to_owned(),
        ),
        (None, EndedBy::Resignation) => (
            "Game over",
            format!("{} resigned; {} won", seat_words(loser), seat_words(winner)),
        ),
        (None, _) => (
            "Game over",
            format!(
                "{}'s move was overdue; {} claimed the win",
                capitalised(&seat_words(loser)),
                seat_words(winner)
            ),
        ),
    };
    StatusLine {
        headline: headline.to_owned(),
        detail: capitalised(&detail),
        finished: true,
    }
}

/// A seat as the pages name it: `first`, `second`.
pub fn seat_name(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "first",
        Seat::Second => "second",
    }
}

/// A time as the pages write it: `2026-12-05 15:00 UTC`.
pub fn when(millis: Millis) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000)
        .map(|t| {
            format!(
                "{}-{:02}-{:02} {:02}:{:02} UTC",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute()
            )
        })
        .unwrap_or_default()
}

/// A time as a `<time datetime>` holds it: `2026-12-05T15:00:00Z`.
pub fn iso_time(millis: Millis) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(millis) * 1_000_000)
        .map(|t| {
            format!(
                "{}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute(),
                t.second()
            )
        })
        .unwrap_or_default()
}

/// The time left before a deadline, `left` milliseconds away, to the two largest units that
/// matter: `2 d 4 h left`, `3 h 12 min left`, `12 min 5 s left`, `40 s left`; `no time left`
/// once past. The pages' script counts down in the same words.
pub fn time_left(left: Millis) -> String {
    if left <= 0 {
        return "no time left".to_owned();
    }
    // Whole seconds, rounded up: a moment before the deadline is not "0 s left".
    let seconds = left.saturating_add(999) / 1000;
    let (days, hours, minutes, seconds) = (
        seconds / 86_400,
        seconds / 3600 % 24,
        seconds / 60 % 60,
        seconds % 60,
    );
    if days > 0 {
        format!("{days} d {hours} h left")
    } else if hours > 0 {
        format!("{hours} h {minutes} min left")
    } else if minutes > 0 {
        format!("{minutes} min {seconds} s left")
    } else {
        format!("{seconds} s left")
    }
}

/// The new table's line for its creator, from the game's status at the start: the colour
/// they play, who move first.
pub fn opening_words(status: &Status) -> String {
    match status {
        Status::Ongoing { colour, .. } => {
            format!("You play {} and move first", capitalised(colour))
        }
        Status::Finished { .. } => "The game is over before it began".to_owned(),
    }
}

/// The links a new table shows once, absolute: the creator's seat, the friend's, the
/// spectators' page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NewTableLinks {
    /// The creator's seat page: the link to keep.
    pub yours: String,
    /// The friend's seat page: the link to send.
    pub theirs: String,
    /// The spectators' page.
    pub watch: String,
}

/// The new table's page for `game_name`, whose creator plays as `you` says: the friend's
/// link first, named by the `friend`'s name when given, then the creator's own.
pub fn created_view(
    game_name: &str,
    you: String,
    links: NewTableLinks,
    friend: Option<&str>,
) -> CreatedView {
    let (send, send_note) = match friend {
        Some(name) => (
            format!("Send this link to {name}"),
            format!("It is {name}'s seat: whoever opens it plays {name}'s side, so send it to {name} alone."),
        ),
        None => (
            "Send this link to your friend".to_owned(),
            "It is your friend's seat: whoever opens it plays their side, so send it to them alone."
                .to_owned(),
        ),
    };
    CreatedView {
        game_name: game_name.to_owned(),
        you,
        theirs: links.theirs,
        send,
        send_note,
        share_text: format!("Play {game_name} with me on Moot: this link is your seat."),
        yours: links.yours,
        keep: "Your seat — keep it".to_owned(),
        keep_note: "It is how you play: anyone with it plays your side. Do not send it.".to_owned(),
        watch: links.watch,
    }
}

/// The options chosen on the options form, in words, one line each (`Board size: 5`): a
/// choice by its words, a number or a text as it is.
pub fn chosen_options(fields: Vec<OptionField>) -> Vec<String> {
    fields
        .into_iter()
        .map(|field| {
            let value = match field.input {
                OptionInput::Choice { choices, selected } => choices
                    .into_iter()
                    .find(|(value, _)| *value == selected)
                    .map_or(selected, |(_, words)| words),
                OptionInput::Number { value, .. } | OptionInput::Text { value } => value,
            };
            format!("{}: {value}", field.label)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_tables_friend_link_is_named_after_the_friend_and_the_creators_is_to_keep() {
        let links = NewTableLinks {
            yours: "https://m.example/table/t/seat/a".into(),
            theirs: "https://m.example/table/t/seat/b".into(),
            watch: "https://m.example/table/t".into(),
        };
        let view = created_view("Tara", "You play Red".into(), links.clone(), Some("Bo"));
        assert_eq!(view.send, "Send this link to Bo");
        assert!(
            view.send_note.starts_with("It is Bo's seat"),
            "{}",
            view.send_note
        );
        assert_eq!(view.theirs, links.theirs);
        assert_eq!(view.yours, links.yours);
        assert_eq!(view.keep, "Your seat — keep it");
        assert_eq!(
            view.share_text,
            "Play Tara with me on Moot: this link is your seat."
        );
        let view = created_view("Tara", "You play Red".into(), links, None);
        assert_eq!(view.send, "Send this link to your friend");
        assert!(view.send_note.starts_with("It is your friend's seat"));
    }

    #[test]
    fn a_deadline_is_written_in_utc_to_the_minute() {
        // 2026-12-05 15:00:59.999 UTC: the seconds are not shown.
        assert_eq!(when(1_796_482_859_999), "2026-12-05 15:00 UTC");
        assert_eq!(when(0), "1970-01-01 00:00 UTC");
    }

    #[test]
    fn a_deadline_is_machine_readable_to_the_second() {
        assert_eq!(iso_time(1_796_482_859_999), "2026-12-05T15:00:59Z");
    }

    #[test]
    fn the_time_left_is_told_in_its_two_largest_units() {
        let (second, minute, hour, day) = (1000, 60_000, 3_600_000, 86_400_000);
        assert_eq!(time_left(2 * day + 4 * hour + 59 * minute), "2 d 4 h left");
        assert_eq!(time_left(day), "1 d 0 h left");
        assert_eq!(time_left(day - second), "23 h 59 min left");
        assert_eq!(
            time_left(3 * hour + 12 * minute + 30 * second),
            "3 h 12 min left"
        );
        assert_eq!(time_left(12 * minute + 5 * second), "12 min 5 s left");
        assert_eq!(time_left(40 * second), "40 s left");
        assert_eq!(time_left(1), "1 s left");
        assert_eq!(time_left(i64::MAX), "106751991167 d 7 h left");
        assert_eq!(time_left(0), "no time left");
        assert_eq!(time_left(-hour), "no time left");
        assert_eq!(time_left(i64::MIN), "no time left");
    }

    #[test]
    fn a_spectator_reads_who_resigned_and_who_won() {
        let line =
            ended_outside_the_rules((Some(Seat::First), EndedBy::Resignation), None, 12, &[]);
        assert_eq!(line.headline, "Game over");
        assert_eq!(
            line.detail,
            "The second player resigned; the first player won"
        );
        let line = ended_outside_the_rules(
            (Some(Seat::Second), EndedBy::Time),
            Some(Seat::First),
            12,
            &[],
        );
        assert_eq!(line.headline, "Game over: you lost");
        assert_eq!(
            line.detail,
            "Your move was overdue and your opponent claimed the win"
        );
    }

    #[test]
    fn a_spectator_reads_the_players_by_the_names_they_were_given() {
        let names = [
            (Seat::First, Some("Ann".to_owned())),
            (Seat::Second, Some("Bob".to_owned())),
        ];
        let line =
            ended_outside_the_rules((Some(Seat::First), EndedBy::Resignation), None, 9, &names);
        assert_eq!(line.detail, "Bob resigned; Ann won");
        let line = ended_outside_the_rules((Some(Seat::Second), EndedBy::Time), None, 9, &names);
        assert_eq!(line.detail, "Ann's move was overdue; Bob claimed the win");
        // One seat named, the other not.
        let names = [(Seat::First, Some("Ann".to_owned())), (Seat::Second, None)];
        let line =
            ended_outside_the_rules((Some(Seat::First), EndedBy::Resignation), None, 9, &names);
        assert_eq!(line.detail, "The second player resigned; Ann won");
    }

    #[test]
    fn a_table_at_its_ply_cap_or_abandoned_says_so_to_seats_and_spectators() {
        for you in [Some(Seat::First), None] {
            let line = ended_outside_the_rules((None, EndedBy::PlyLimit), you, 10_000, &[]);
            assert_eq!(line.headline, "Game over: a draw");
            assert_eq!(
                line.detail,
                "The table reached 10000 moves, the most a table may have"
            );
            let line = ended_outside_the_rules((None, EndedBy::Abandoned), you, 3, &[]);
            assert_eq!(line.headline, "Table closed: abandoned");
            assert_eq!(
                line.detail,
                "No one moved for too long, so the table ended with no winner"
            );
            assert!(line.finished);
        }
    }
}
