//! "Find an opponent" in words: the open challenges, the form that makes one, and a challenge's
//! own page as its creator, its invited player, or anyone else sees it. The server hands each
//! challenge as plain facts ([`Offered`]) and gets back the pages' view data.

use moot_games::Seat;
use moot_templates::challenges::{
    ButtonForm, ChallengeRow, ChallengeView, ChallengesView, Choice, CreateForm, Select,
};

use crate::table::Millis;

/// The list page's title, and the words of the links to it.
pub const TITLE: &str = "Find an opponent";

/// The clocks the create form offers, in days per move (none first: no clock).
pub const CLOCKS: [u32; 5] = [1, 2, 3, 7, 14];

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Waiting for someone to accept it.
    Open,
    /// Accepted: its table is open.
    Accepted,
    /// Declined by the invited player.
    Declined,
    /// Called off by its creator.
    Cancelled,
    /// No one accepted it in time.
    Expired,
}

/// A challenge, as the server knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Offered {
    /// Its page; its forms post to `{href}/accept`, `{href}/decline` and `{href}/cancel`.
    pub href: String,
    /// The game's name (`Herfor`).
    pub game_name: String,
    /// The game's options, each as a name and a value (`size`, `9`).
    pub options: Vec<(String, String)>,
    /// The clock, if any.
    pub days_per_move: Option<u32>,
    /// Who offers it.
    pub creator: Option<String>,
    /// The creator's seat, or `None` for one drawn when someone accepts.
    pub creator_seat: Option<Seat>,
    /// Whether it invites one player.
    pub invitation: bool,
    /// Where it stands.
    pub standing: Standing,
    /// When it was made.
    pub created: Millis,
}

/// Who looks at a challenge's page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Its creator.
    Creator,
    /// The player it invites.
    Invited,
    /// Anyone else.
    Other,
}

/// The options in words: `size 9, komi 7`; the game's defaults when none is given.
fn options_words(options: &[(String, String)]) -> String {
    if options.is_empty() {
        return "the game's usual options".to_owned();
    }
    let listed: Vec<String> = options
        .iter()
        .map(|(name, value)| format!("{} {value}", name.replace('_', " ")))
        .collect();
    listed.join(", ")
}

/// A clock in words.
pub fn clock_words(days: Option<u32>) -> String {
    match days {
        None => "no clock".to_owned(),
        Some(1) => "1 day per move".to_owned(),
        Some(days) => format!("{days} days per move"),
    }
}

/// Who moves first, as the one who accepts reads it.
fn colours_words(creator_seat: Option<Seat>, creator: &str) -> String {
    match creator_seat {
        Some(Seat::First) => format!("{creator} moves first"),
        Some(Seat::Second) => "you move first".to_owned(),
        None => "who moves first is drawn at random".to_owned(),
    }
}

/// How long ago `created` was, at `now`.
pub fn age_words(created: Millis, now: Millis) -> String {
    let minutes = (now - created).max(0) / 60_000;
    match minutes {
        0 => "made just now".to_owned(),
        1 => "made 1 minute ago".to_owned(),
        2..=59 => format!("made {minutes} minutes ago"),
        60..=119 => "made 1 hour ago".to_owned(),
        120..=1439 => format!("made {} hours ago", minutes / 60),
        1440..=2879 => "made 1 day ago".to_owned(),
        _ => format!("made {} days ago", minutes / 1440),
    }
}

fn creator_name(offered: &Offered) -> String {
    offered
        .creator
        .clone()
        .unwrap_or_else(|| "a player".to_owned())
}

fn details(offered: &Offered) -> String {
    format!(
        "{}; {}; {}",
        options_words(&offered.options),
        clock_words(offered.days_per_move),
        colours_words(offered.creator_seat, &creator_name(offered))
    )
}

/// One challenge in a list; `play`: whether the browser may accept it from there.
fn row(offered: &Offered, play: bool, now: Millis) -> ChallengeRow {
    ChallengeRow {
        heading: format!("{} with {}", offered.game_name, creator_name(offered)),
        href: offered.href.clone(),
        details: details(offered),
        age: age_words(offered.created, now),
        play: play.then(|| ButtonForm {
            action: format!("{}/accept", offered.href),
            words: format!("Play {}", creator_name(offered)),
            main: true,
        }),
    }
}

/// The list page: the open challenges (`open`, each with its "Play" form unless it is the
/// browser's own), the browser's player's own challenges and invitations (`yours`), and the
/// create form posting to `create`, offering `games` (id and name). `named`: whether the
/// browser has a player already (else the form asks a name for the one it makes).
pub fn list_view(
    open: &[(Offered, bool)],
    yours: &[Offered],
    games: &[(String, String)],
    create: &str,
    named: bool,
    now: Millis,
) -> ChallengesView {
    let mut clocks = vec![Choice {
        value: String::new(),
        label: clock_words(None),
    }];
    clocks.extend(CLOCKS.iter().map(|days| Choice {
        value: days.to_string(),
        label: clock_words(Some(*days)),
    }));
    ChallengesView {
        title: TITLE.to_owned(),
        intro: "Challenges open to anyone: play one, and the game starts at once, your turn or \
                theirs. Or offer your own, and someone will take it up."
            .to_owned(),
        open_heading: "Open challenges".to_owned(),
        none: "No one is waiting just now. Offer a game below.".to_owned(),
        rows: open
            .iter()
            .map(|(offered, mine)| row(offered, !mine, now))
            .collect(),
        yours_heading: "Your challenges and invitations".to_owned(),
        yours: yours
            .iter()
            .map(|offered| row(offered, false, now))
            .collect(),
        form: CreateForm {
            action: create.to_owned(),
            heading: "Offer a game".to_owned(),
            selects: vec![
                Select {
                    name: "game".to_owned(),
                    label: "Game".to_owned(),
                    choices: games
                        .iter()
                        .map(|(id, name)| Choice {
                            value: id.clone(),
                            label: name.clone(),
                        })
                        .collect(),
                },
                Select {
                    name: "days_per_move".to_owned(),
                    label: "Clock".to_owned(),
                    choices: clocks,
                },
                Select {
                    name: "seat".to_owned(),
                    label: "Who moves first".to_owned(),
                    choices: [
                        ("random", "Drawn at random"),
                        ("first", "I do"),
                        ("second", "My opponent"),
                    ]
                    .into_iter()
                    .map(|(value, label)| Choice {
                        value: value.to_owned(),
                        label: label.to_owned(),
                    })
                    .collect(),
                },
            ],
            name_label: (!named).then(|| "Your name (optional)".to_owned()),
            invite_label: "Invite one player (optional)".to_owned(),
            invite_hint: "A friend's player id, shown on their Your games page. Left empty, \
                          anyone may take the game up."
                .to_owned(),
            button: "Offer the game".to_owned(),
        },
    }
}

/// A challenge's page as `viewer` sees it; `share` is the page's own address (for its creator
/// to pass on); `table` the viewer's seat page once accepted, where the viewer holds a seat;
/// `list` the list of challenges.
pub fn page_view(
    offered: &Offered,
    viewer: Viewer,
    (share, table, list): (&str, Option<&str>, &str),
    now: Millis,
) -> ChallengeView {
    let creator = creator_name(offered);
    let open = offered.standing == Standing::Open;
    let status = match (offered.standing, viewer) {
        (Standing::Open, Viewer::Creator) if offered.invitation => {
            "Waiting for your friend to answer the invitation.".to_owned()
        }
        (Standing::Open, Viewer::Creator) => "Waiting for an opponent to take it up.".to_owned(),
        (Standing::Open, Viewer::Invited) => format!("{creator} invites you to a game."),
        (Standing::Open, Viewer::Other) if offered.invitation => {
            "This game is an invitation to another player.".to_owned()
        }
        (Standing::Open, Viewer::Other) => format!("{creator} is waiting for an opponent."),
        (Standing::Accepted, _) => "Accepted: the game has started.".to_owned(),
        (Standing::Declined, _) => "Declined: the invitation was turned down.".to_owned(),
        (Standing::Cancelled, _) => "Cancelled by the one who offered it.".to_owned(),
        (Standing::Expired, _) => "Expired: no one took it up within 7 days.".to_owned(),
    };
    let mut actions = Vec::new();
    let form = |action: &str, words: &str, main: bool| ButtonForm {
        action: format!("{}/{action}", offered.href),
        words: words.to_owned(),
        main,
    };
    match viewer {
        _ if !open => {}
        Viewer::Creator => actions.push(form("cancel", "Cancel the challenge", false)),
        Viewer::Invited => {
            actions.push(form("accept", "Accept", true));
            actions.push(form("decline", "Decline", false));
        }
        Viewer::Other if !offered.invitation => {
            actions.push(form("accept", &format!("Play {creator}"), true))
        }
        Viewer::Other => {}
    }
    let mut links = Vec::new();
    if let Some(table) = table {
        links.push((table.to_owned(), "Go to the game".to_owned()));
    }
    links.push((list.to_owned(), TITLE.to_owned()));
    ChallengeView {
        title: format!("{} with {creator}", offered.game_name),
        status,
        facts: vec![
            format!("Options: {}", options_words(&offered.options)),
            format!("Clock: {}", clock_words(offered.days_per_move)),
            format!(
                "Colours: {}",
                colours_words(offered.creator_seat, &creator)
                    .replace("you move", "the opponent moves")
            ),
            age_words(offered.created, now),
        ],
        share: (open && viewer == Viewer::Creator && !offered.invitation).then(|| {
            (
                "To play a friend, send them this page's address:".to_owned(),
                share.to_owned(),
            )
        }),
        actions,
        links,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered(standing: Standing, invitation: bool) -> Offered {
        Offered {
            href: "/challenges/ab".into(),
            game_name: "Herfor".into(),
            options: vec![("size".into(), "9".into())],
            days_per_move: Some(3),
            creator: Some("Ann".into()),
            creator_seat: None,
            invitation,
            standing,
            created: 0,
        }
    }

    #[test]
    fn the_creator_may_cancel_the_invited_accept_or_decline_and_others_play() {
        let open = offered(Standing::Open, false);
        let creator = page_view(&open, Viewer::Creator, ("x", None, "/challenges"), 0);
        assert_eq!(creator.actions.len(), 1);
        assert_eq!(creator.actions[0].action, "/challenges/ab/cancel");
        let other = page_view(&open, Viewer::Other, ("x", None, "/challenges"), 0);
        assert_eq!(other.actions[0].action, "/challenges/ab/accept");
        let invitation = offered(Standing::Open, true);
        let invited = page_view(&invitation, Viewer::Invited, ("x", None, "/challenges"), 0);
        assert_eq!(invited.actions.len(), 2);
        assert!(
            page_view(&invitation, Viewer::Other, ("x", None, "/challenges"), 0)
                .actions
                .is_empty()
        );
        let closed = offered(Standing::Cancelled, false);
        assert!(
            page_view(&closed, Viewer::Other, ("x", None, "/challenges"), 0)
                .actions
                .is_empty()
        );
    }

    #[test]
    fn a_row_says_the_options_clock_and_colours() {
        let row = row(&offered(Standing::Open, false), true, 3 * 60_000);
        assert_eq!(
            row.details,
            "size 9; 3 days per move; who moves first is drawn at random"
        );
        assert_eq!(row.age, "made 3 minutes ago");
    }
}
