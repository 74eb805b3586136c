//! The link's tests: options and moves through the query string, `at`, the opponent.

use super::*;
use moot_games::herfor::{Herfor, HerforOptions};

fn read(query: &str) -> Result<(Link<Herfor>, bool), LinkError> {
    Link::<Herfor>::read(&Query::parse(query))
}

#[test]
fn options_and_moves_round_trip_through_the_link() {
    let (position, has_moves) = read("size=3&pie=0&moves=c3.b2").expect("accepted");
    assert!(has_moves);
    assert_eq!(
        position.options,
        HerforOptions {
            size: 3,
            pie: false,
            simple: false
        }
    );
    assert_eq!(position.moves, ["c3", "b2"]);
    assert_eq!(
        position.href(),
        "/play/herfor?pie=false&simple=false&size=3&moves=c3.b2"
    );
}

#[test]
fn at_names_an_earlier_position_of_the_links_game() {
    let query = Query::parse("size=3&pie=0&moves=c3.b2&at=1");
    let (position, _) = Link::<Herfor>::read(&query).expect("accepted");
    assert_eq!(
        position.moves,
        ["c3", "b2"],
        "at is not an option or a move"
    );
    assert_eq!(position.read_at(&query), Ok(Some(1)));
    assert_eq!(
        position.at_href(0),
        "/play/herfor?pie=false&simple=false&size=3&moves=c3.b2&at=0"
    );
    for refused in ["3", "-1", "one", ""] {
        let query = Query::parse(&format!("size=3&moves=c3.b2&at={refused}"));
        let error = position.read_at(&query).expect_err(refused).to_string();
        assert!(error.contains("from 0 to the 2 of this game"), "{error}");
    }
    assert_eq!(position.read_at(&Query::parse("moves=c3.b2")), Ok(None));
}

#[test]
fn a_query_without_moves_only_chooses_options() {
    let (position, has_moves) = read("size=4").expect("accepted");
    assert!(!has_moves);
    assert_eq!(position.options.size, 4);
    // Between two people the options page is told so: it proposes the computer otherwise.
    assert_eq!(
        position.options_href(),
        "/play/herfor?pie=true&simple=false&size=4&computer="
    );
}

#[test]
fn the_computer_opponent_travels_in_the_link_before_the_moves() {
    let (position, _) = read("size=3&computer=second&strength=easy&moves=c3").expect("accepted");
    assert_eq!(
        position.href(),
        "/play/herfor?pie=true&simple=false&size=3&computer=second&strength=easy&moves=c3"
    );
    assert!(read("computer=third&moves=").is_err());
}

#[test]
fn notations_with_spaces_and_signs_are_encoded() {
    let position = read("moves=").expect("accepted").0.with_move("end >6Lm");
    assert!(
        position.href().ends_with("moves=end+%3E6Lm"),
        "{}",
        position.href()
    );
    let back = read(position.href().split_once('?').unwrap().1).unwrap().0;
    assert_eq!(back.moves, ["end >6Lm"]);
}

#[test]
fn bad_options_name_the_option() {
    let detail = |q: &str| read(q).expect_err("refused").to_string();
    assert!(
        detail("size=9&moves=").contains("size"),
        "{}",
        detail("size=9")
    );
    assert!(
        detail("size=big").contains("size cannot be \"big\": expected a whole number from 3 to 7")
    );
    // A huge number is named in words, not as serde's type error.
    assert_eq!(
        detail("size=1e20"),
        "The option size cannot be \"1e20\": expected a whole number from 3 to 7."
    );
    assert!(detail("size=99999999999").contains("from 3 to 7"));
    assert!(detail("size=4.5").contains("from 3 to 7"));
    assert!(detail("pie=maybe").contains("pie cannot be \"maybe\": expected true or false"));
    assert!(
        detail("colour=red")
            .contains("\"colour\" is not an option of Herfor (its options: pie, simple, size)")
    );
    assert!(detail("size=3&size=4").contains("given more than once"));
    assert!(matches!(
        read("size=9").expect_err("refused"),
        LinkError::Unreadable(_)
    ));
}

#[test]
fn empty_moves_in_the_list_are_refused_by_position() {
    let error = read("moves=c3..b2").expect_err("refused").to_string();
    assert!(error.contains("Move 2 of the link is empty"), "{error}");
    assert!(
        read("moves=&moves=c3")
            .expect_err("refused")
            .to_string()
            .contains("\"moves\" is given more than once")
    );
}

#[test]
fn opponent_reads_seat_and_strength_with_normal_by_default() {
    assert_eq!(Opponent::read(None, Some("strong")).ok(), Some(None));
    assert_eq!(
        Opponent::read(Some("second"), None).ok(),
        Some(Some(Opponent {
            seat: Seat::Second,
            strength: Strength::Normal
        }))
    );
    let bad = Opponent::read(Some("both"), None).expect_err("refused");
    assert!(bad.to_string().contains("\"both\""), "{bad}");
    let bad = Opponent::read(Some("first"), Some("genius")).expect_err("refused");
    assert!(bad.to_string().contains("\"genius\" is not a strength"));
}
