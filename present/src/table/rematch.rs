//! A finished table's rematch on its pages: where it stands and what each visitor may do. A
//! seat offers one; the other seat accepts or declines it; the seat that offered may withdraw
//! it; once accepted, both seats and the spectators are linked to the rematch.

use moot_games::Seat;
use moot_templates::play::OfferView;

use super::words::{seat_name, seat_words};
use super::{KeptTable, TableLinks};

/// The rematch of finished `table` for the seat `you` (`None` for a spectator): `None` where
/// there is nothing to show (a spectator before any rematch).
pub fn rematch_view(table: &KeptTable, links: &TableLinks, you: Option<Seat>) -> Option<OfferView> {
    let name = |seat: Seat| seat_words(seat, &table.seats);
    if let Some(page) = &links.rematch_page {
        let words = match you {
            Some(_) => "Play the rematch",
            None => "Watch the rematch",
        };
        return Some(OfferView {
            line: None,
            link: Some((page.clone(), words.to_owned())),
            actions: Vec::new(),
        });
    }
    let (Some(you), Some(offer), Some(decline)) = (you, &links.rematch, &links.decline_rematch)
    else {
        return None;
    };
    let action = |href: &String, label: &str, main: bool| (href.clone(), label.to_owned(), main);
    Some(match table.rematch_offered_by {
        None => OfferView {
            line: None,
            link: None,
            actions: vec![action(offer, "Offer a rematch", true)],
        },
        Some(by) if by == you => OfferView {
            line: Some(format!(
                "You offered a rematch; waiting for {} to accept.",
                name(you.other())
            )),
            link: None,
            actions: vec![action(decline, "Withdraw the offer", false)],
        },
        Some(by) => OfferView {
            line: Some(format!(
                "{} offers a rematch: you would sit in the {} seat this time.",
                capitalised(&name(by)),
                seat_name(you.other())
            )),
            link: None,
            actions: vec![
                action(offer, "Accept the rematch", true),
                action(decline, "Decline", false),
            ],
        },
    })
}

/// `words` with a capital first letter (a sentence that starts with "the first player").
pub(super) fn capitalised(words: &str) -> String {
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{EndedBy, Standing};

    fn table(offered_by: Option<Seat>) -> KeptTable {
        KeptTable {
            ply: 4,
            seq: 5,
            standing: Standing::Finished {
                winner: Some(Seat::Second),
                ended_by: EndedBy::Resignation,
            },
            seats: vec![
                (Seat::First, Some("Ann".into())),
                (Seat::Second, Some("Bo".into())),
            ],
            days_per_move: None,
            clock: None,
            deadline: None,
            both_moved: true,
            last_mover: Some(Seat::Second),
            rematch_offered_by: offered_by,
            takeback_asked_by: None,
        }
    }

    fn links(page: Option<&str>) -> TableLinks {
        TableLinks {
            rematch: Some("/t/seat/rematch".into()),
            decline_rematch: Some("/t/seat/rematch/decline".into()),
            rematch_page: page.map(str::to_owned),
            ..TableLinks::default()
        }
    }

    #[test]
    fn a_seat_offers_withdraws_or_answers_the_other_seats_offer() {
        let offer = rematch_view(&table(None), &links(None), Some(Seat::First)).unwrap();
        assert_eq!(offer.line, None);
        assert_eq!(
            offer.actions,
            [("/t/seat/rematch".into(), "Offer a rematch".into(), true)]
        );
        let mine =
            rematch_view(&table(Some(Seat::First)), &links(None), Some(Seat::First)).unwrap();
        assert_eq!(
            mine.line.as_deref(),
            Some("You offered a rematch; waiting for Bo to accept.")
        );
        assert_eq!(mine.actions[0].1, "Withdraw the offer");
        let theirs =
            rematch_view(&table(Some(Seat::First)), &links(None), Some(Seat::Second)).unwrap();
        assert_eq!(
            theirs.line.as_deref(),
            Some("Ann offers a rematch: you would sit in the first seat this time.")
        );
        let labels: Vec<&str> = theirs.actions.iter().map(|a| a.1.as_str()).collect();
        assert_eq!(labels, ["Accept the rematch", "Decline"]);
    }

    #[test]
    fn once_accepted_seats_play_and_spectators_watch_the_rematch() {
        let played = rematch_view(
            &table(None),
            &links(Some("/table/new/mine")),
            Some(Seat::Second),
        );
        assert_eq!(
            played.unwrap().link,
            Some(("/table/new/mine".into(), "Play the rematch".into()))
        );
        let watched = rematch_view(&table(None), &links(Some("/table/new")), None).unwrap();
        assert_eq!(watched.link.unwrap().1, "Watch the rematch");
        assert!(watched.actions.is_empty());
        // A spectator before any rematch sees nothing of it.
        assert_eq!(
            rematch_view(&table(Some(Seat::First)), &TableLinks::default(), None),
            None
        );
    }
}
