//! A takeback on a table's pages: where it stands and what each visitor may do. The seat that
//! played last asks to take its move back while the other seat is awaited; the other accepts
//! or declines; the seat that asked may withdraw. Spectators see a request standing.

use moot_games::Seat;
use moot_templates::play::OfferView;

use super::rematch::capitalised;
use super::words::seat_words;
use super::{KeptTable, Standing, TableLinks};

/// The takeback at `table` for the seat `you` (`None` for a spectator): `None` where there is
/// nothing to show or do (the table is over, or the seat has nothing to take back).
pub fn takeback_view(
    table: &KeptTable,
    links: &TableLinks,
    you: Option<Seat>,
) -> Option<OfferView> {
    let Standing::Ongoing { to_act } = table.standing else {
        return None;
    };
    let name = |seat: Seat| seat_words(seat, &table.seats);
    let asks = |by: Seat| {
        format!(
            "{} asks to take back their last move.",
            capitalised(&name(by))
        )
    };
    let Some(you) = you else {
        return table.takeback_asked_by.map(|by| OfferView {
            line: Some(asks(by)),
            ..OfferView::default()
        });
    };
    let (Some(ask), Some(decline)) = (&links.takeback, &links.decline_takeback) else {
        return None;
    };
    let action = |href: &String, label: &str, main: bool| (href.clone(), label.to_owned(), main);
    match table.takeback_asked_by {
        None if table.last_mover == Some(you) && to_act != you => Some(OfferView {
            line: None,
            link: None,
            actions: vec![action(ask, "Ask to take back your move", false)],
        }),
        None => None,
        Some(by) if by == you => Some(OfferView {
            line: Some(format!(
                "You asked to take back your last move; waiting for {} to answer.",
                name(you.other())
            )),
            link: None,
            actions: vec![action(decline, "Withdraw the request", false)],
        }),
        Some(by) => Some(OfferView {
            line: Some(asks(by)),
            link: None,
            actions: vec![
                action(ask, "Let them take it back", true),
                action(decline, "Decline", false),
            ],
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(to_act: Seat, last_mover: Option<Seat>, asked_by: Option<Seat>) -> KeptTable {
        KeptTable {
            ply: 3,
            seq: 3,
            standing: Standing::Ongoing { to_act },
            seats: vec![
                (Seat::First, Some("Ann".into())),
                (Seat::Second, Some("Bo".into())),
            ],
            days_per_move: None,
            clock: None,
            deadline: None,
            both_moved: true,
            last_mover,
            rematch_offered_by: None,
            takeback_asked_by: asked_by,
        }
    }

    fn links() -> TableLinks {
        TableLinks {
            takeback: Some("/t/seat/takeback".into()),
            decline_takeback: Some("/t/seat/takeback/decline".into()),
            ..TableLinks::default()
        }
    }

    #[test]
    fn the_last_mover_asks_while_the_other_seat_is_awaited_and_no_one_else() {
        let (first, second) = (Seat::First, Seat::Second);
        let ask = takeback_view(&table(second, Some(first), None), &links(), Some(first)).unwrap();
        assert_eq!(ask.line, None);
        assert_eq!(
            ask.actions,
            [(
                "/t/seat/takeback".into(),
                "Ask to take back your move".into(),
                false
            )]
        );
        // The seat awaited has nothing to take back; nor has a seat at ply 0 or a spectator.
        assert_eq!(
            takeback_view(&table(second, Some(first), None), &links(), Some(second)),
            None
        );
        assert_eq!(
            takeback_view(&table(first, None, None), &links(), Some(first)),
            None
        );
        assert_eq!(
            takeback_view(&table(second, Some(first), None), &links(), None),
            None
        );
    }

    #[test]
    fn a_request_standing_is_withdrawn_by_its_seat_and_answered_by_the_other() {
        let (first, second) = (Seat::First, Seat::Second);
        let asked = table(second, Some(first), Some(first));
        let mine = takeback_view(&asked, &links(), Some(first)).unwrap();
        assert_eq!(
            mine.line.as_deref(),
            Some("You asked to take back your last move; waiting for Bo to answer.")
        );
        assert_eq!(mine.actions[0].1, "Withdraw the request");
        let theirs = takeback_view(&asked, &links(), Some(second)).unwrap();
        assert_eq!(
            theirs.line.as_deref(),
            Some("Ann asks to take back their last move.")
        );
        let labels: Vec<_> = theirs
            .actions
            .iter()
            .map(|a| (a.0.as_str(), a.1.as_str(), a.2))
            .collect();
        assert_eq!(
            labels,
            [
                ("/t/seat/takeback", "Let them take it back", true),
                ("/t/seat/takeback/decline", "Decline", false)
            ]
        );
        let watching = takeback_view(&asked, &links(), None).unwrap();
        assert_eq!(
            watching.line.as_deref(),
            Some("Ann asks to take back their last move.")
        );
        assert!(watching.actions.is_empty());
        // Over: nothing.
        let over = KeptTable {
            standing: Standing::Finished {
                winner: None,
                ended_by: super::super::EndedBy::Aborted,
            },
            ..asked
        };
        assert_eq!(takeback_view(&over, &links(), Some(second)), None);
    }
}
