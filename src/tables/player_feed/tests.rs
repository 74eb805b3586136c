use super::*;

fn event(seat: Seat, notice: Notice) -> PlayerEvent {
    PlayerEvent {
        seq: 7,
        table_id: "ab12".to_owned(),
        seat,
        notice,
        time: 0,
    }
}

fn pushed(event: &PlayerEvent) -> Option<serde_json::Value> {
    push_payload(event).map(|text| serde_json::from_str(&text).unwrap())
}

#[test]
fn an_invitation_and_the_opponents_rematch_offer_are_pushed_and_ones_own_offer_is_not() {
    let invited = pushed(&event(
        Seat::First,
        Notice::ChallengeReceived {
            challenge_id: "ab12".to_owned(),
            game: "tara".to_owned(),
            from_id: "cd34".to_owned(),
            from: Some("Ann".to_owned()),
        },
    ))
    .expect("an invitation is pushed");
    assert_eq!(invited["body"], "Ann invites you to a game at Moot.");
    assert_eq!(invited["url"], "/challenges/ab12", "the invitation's page");
    let offered = pushed(&event(
        Seat::Second,
        Notice::RematchOffered { by: Seat::First },
    ))
    .expect("the opponent's offer is pushed");
    assert_eq!(offered["url"], "/table/ab12/mine");
    assert_eq!(
        pushed(&event(
            Seat::First,
            Notice::RematchOffered { by: Seat::First }
        )),
        None,
        "one's own offer is not pushed back"
    );
}
