//! The table's panel beside the game: who sits where, the clock, and the seat's actions
//! outside the rules (resigning, aborting before both have moved, claiming a win on time).

use moot_games::Seat;
use moot_templates::play::{ClockView, TableView};

use super::words::{iso_time, seat_name, time_left, when};
use super::{KeptTable, Millis, Standing, TableLinks};

/// Who sits where, the clock, and the seat's actions outside the rules, for the seat `you`
/// (`None` for a spectator) at the time `now`.
pub fn table_view(
    table: &KeptTable,
    links: &TableLinks,
    you: Option<Seat>,
    now: Millis,
) -> TableView {
    let ongoing = match table.standing {
        Standing::Ongoing { to_act } => Some(to_act),
        Standing::Finished { .. } => None,
    };
    let mut lines = Vec::new();
    lines.push(match you {
        Some(seat) => format!(
            "You sit in the {} seat; your opponent plays from their own link.",
            seat_name(seat)
        ),
        None => "You are watching this game.".to_owned(),
    });
    let names: Vec<String> = table
        .seats
        .iter()
        .filter_map(|(seat, name)| {
            name.as_ref()
                .map(|name| format!("{name} ({} seat)", seat_name(*seat)))
        })
        .collect();
    if !names.is_empty() {
        lines.push(format!("Players: {}.", names.join(", ")));
    }
    let mut clock = None;
    let lead = match (&table.clock, table.days_per_move) {
        (_, Some(days)) => Some(format!(
            "{days} day{} per move: ",
            if days == 1 { "" } else { "s" }
        )),
        (Some(shown), None) => Some(format!("{}: ", shown.words)),
        (None, None) => None,
    };
    if let Some(shown) = &table.clock
        && ongoing.is_some()
    {
        if !shown.banks.is_empty() {
            let banks: Vec<String> = shown
                .banks
                .iter()
                .map(|(seat, bank)| format!("{} {}", seat_name(*seat), bank_words(*bank)))
                .collect();
            lines.push(format!("Banks as each turn starts: {}.", banks.join(", ")));
        }
        for (seat, until) in &shown.vacations {
            let who = match you {
                Some(you) if you == *seat => "You are".to_owned(),
                _ => format!("The {} player is", seat_name(*seat)),
            };
            lines.push(format!(
                "{who} on vacation until {}: their clock is stopped.",
                when(*until)
            ));
        }
    }
    let claims = table.clock.as_ref().is_none_or(|shown| shown.claims);
    let overdue = match (lead, table.deadline, ongoing) {
        (Some(lead), Some(deadline), Some(to_act)) => {
            let whose = match you {
                Some(you) if you == to_act => "your move".to_owned(),
                Some(_) => "your opponent's move".to_owned(),
                None => format!("the {} player's move", seat_name(to_act)),
            };
            let left_ms = deadline.saturating_sub(now);
            clock = Some(ClockView {
                lead,
                left_ms,
                left: time_left(left_ms),
                middle: format!(" for {whose}, due by "),
                deadline: iso_time(deadline),
                deadline_words: when(deadline),
            });
            now > deadline
        }
        (None, _, Some(_)) => {
            lines.push("No clock: each of you moves when you like.".to_owned());
            false
        }
        _ => false,
    };
    // Only a seat waiting for its opponent has a move to reload for.
    let waiting = matches!((you, ongoing), (Some(you), Some(to_act)) if to_act != you);
    TableView {
        lines,
        clock,
        // No fragment: a link to the page's own address and fragment would only scroll.
        reload_href: ongoing.map(|_| links.here.clone()),
        reload_words: waiting.then(|| "Reload to see the opponent's move".to_owned()),
        resign_action: ongoing.and_then(|_| links.resign.clone()),
        abort_action: ongoing
            .filter(|_| !table.both_moved)
            .and_then(|_| links.abort.clone()),
        // Where no one has moved, a late first move aborts the table: nothing to claim.
        claim_action: match (you, ongoing) {
            (Some(you), Some(to_act)) if to_act != you && overdue && claims && table.ply > 0 => {
                links.claim.clone()
            }
            _ => None,
        },
        vacation: match (&table.clock, you, ongoing, &links.vacation) {
            (Some(shown), Some(you), Some(_), Some(action)) if shown.vacation_days > 0 => {
                let away = shown.vacations.iter().any(|(seat, _)| *seat == you);
                Some((
                    action.clone(),
                    if away {
                        "Back from vacation: start my clock again".to_owned()
                    } else {
                        format!(
                            "Go on vacation: stop my clock (up to {} days a year)",
                            shown.vacation_days
                        )
                    },
                ))
            }
            _ => None,
        },
        watch_href: Some(links.watch.clone()),
        events_href: ongoing.map(|_| links.events.clone()),
        seq: table.seq,
        your_turn: ongoing.is_some() && ongoing == you,
        notifications: None,
    }
}

/// A bank's time in words: `bank 3 d 4 h`, `bank 5 h 10 min`.
fn bank_words(bank: Millis) -> String {
    let left = time_left(bank);
    match left.strip_suffix(" left") {
        Some(time) => format!("bank {time}"),
        None => "bank empty".to_owned(),
    }
}
