//! States from outside: options, serde, and every invariant `validate` checks, with its path.

use serde_json::{Value, json};

use super::*;
use crate::InvalidOptions;

/// A valid position after setup, as JSON (Red: D4 B6 F2 + F4; Blue: D7 F6 B2).
fn position() -> Value {
    json!({
        "version": 1,
        "options": {"first": "blue", "level": 1, "match": false},
        "game": 1,
        "ringforts": {"red": ["D4", "B6", "F2", "F4"], "blue": ["D7", "F6", "B2"]},
        "kings": {"red": ["D4", "B6", "F2"], "blue": ["D7", "F6", "B2"]},
        "to_move": "red",
        "battle": {"red": false, "blue": false},
        "captured": {"red": 0, "blue": 0},
        "passed": {"red": false, "blue": false},
        "sacrificed": {"red": null, "blue": null},
        "over": false
    })
}

fn path_of(value: Value) -> String {
    let state: TaraState = serde_json::from_value(value).expect("the JSON has the state's shape");
    match Tara::validate(&state) {
        Err(error) => error.path,
        Ok(()) => panic!("the state should be refused"),
    }
}

/// The JSON with the entry at `pointer` set (added when its parent lacks it).
fn with(mut value: Value, pointer: &str, new: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    match value.pointer_mut(parent).unwrap() {
        Value::Object(map) => {
            map.insert(key.to_string(), new);
        }
        Value::Array(list) => list[key.parse::<usize>().unwrap()] = new,
        other => panic!("{parent} is {other}"),
    }
    value
}

#[test]
fn valid_state_reads_validates_and_round_trips() {
    let state: TaraState = serde_json::from_value(position()).unwrap();
    Tara::validate(&state).unwrap();
    assert_eq!(serde_json::to_value(&state).unwrap(), position());
    let fresh = Tara::new_game(&TaraOptions::default()).unwrap();
    let back: TaraState = serde_json::from_str(&serde_json::to_string(&fresh).unwrap()).unwrap();
    assert_eq!(back, fresh);
}

#[test]
fn options_have_defaults_refuse_unknown_fields_and_bad_levels() {
    let options: TaraOptions = serde_json::from_str("{}").unwrap();
    assert_eq!(options, TaraOptions::default());
    let options: TaraOptions = serde_json::from_str(r#"{"first": "blue", "match": true}"#).unwrap();
    assert_eq!(
        (options.first, options.level, options.is_match),
        (Colour::Blue, 1, true)
    );
    assert!(serde_json::from_str::<TaraOptions>(r#"{"colour": "red"}"#).is_err());
    assert!(serde_json::from_str::<TaraOptions>(r#"{"first": "green"}"#).is_err());
    let bad = TaraOptions {
        level: 3,
        ..TaraOptions::default()
    };
    assert!(
        matches!(Tara::new_game(&bad), Err(InvalidOptions { ref field, .. }) if field == "level")
    );
}

#[test]
fn t1_validate_refuses_hills_that_do_not_exist() {
    assert_eq!(
        path_of(with(position(), "/ringforts/red/2", json!("Z9"))),
        "ringforts.red[2]"
    );
    assert_eq!(
        path_of(with(position(), "/ringforts/blue/1", json!("A7"))),
        "ringforts.blue[1]"
    );
    assert_eq!(
        path_of(with(position(), "/kings/red/0", json!("G1"))),
        "kings.red[0]"
    );
}

#[test]
fn t2_validate_refuses_two_pieces_on_one_hill() {
    assert_eq!(
        path_of(with(position(), "/ringforts/blue/0", json!("D4"))),
        "ringforts.blue[0]"
    );
    let two_kings = with(
        with(position(), "/ringforts/blue/2", json!("D5")),
        "/kings/blue/2",
        json!("D4"),
    );
    assert_eq!(path_of(two_kings), "kings.blue[2]");
}

#[test]
fn t2_validate_refuses_a_king_off_its_own_ringfort() {
    assert_eq!(
        path_of(with(position(), "/kings/red/1", json!("D7"))),
        "kings.red[1]"
    );
    assert_eq!(
        path_of(with(position(), "/kings/red/1", json!("A4"))),
        "kings.red[1]"
    );
}

#[test]
fn t2_validate_refuses_too_many_pieces() {
    let hills: Vec<String> = (0..49u8)
        .map(Hill)
        .filter(|h| h.exists())
        .map(|h| h.to_string())
        .collect();
    let too_many = json!({"red": hills[..31], "blue": []});
    let value = with(
        with(position(), "/ringforts", too_many),
        "/kings",
        json!({"red": [], "blue": []}),
    );
    assert_eq!(path_of(value), "ringforts.red");
    let four = with(
        with(
            position(),
            "/ringforts/red",
            json!(["D4", "B6", "F2", "F4", "A2"]),
        ),
        "/kings/red",
        json!(["D4", "B6", "F2", "A2"]),
    );
    assert_eq!(path_of(four), "kings.red");
    assert_eq!(
        path_of(with(position(), "/captured/blue", json!(1))),
        "captured.blue"
    );
}

#[test]
fn t4_validate_refuses_adjacent_friendly_kings() {
    let value = with(
        with(
            position(),
            "/ringforts/red",
            json!(["D4", "B6", "F2", "F4", "D5"]),
        ),
        "/kings/red",
        json!(["D4", "B6", "D5"]),
    );
    let value = with(value, "/battle", json!({"red": true, "blue": true}));
    assert_eq!(path_of(value), "kings.red[0]");
}

#[test]
fn validate_refuses_version_turn_marker_and_battle_flags() {
    assert_eq!(path_of(with(position(), "/version", json!(2))), "version");
    assert_eq!(
        path_of(with(position(), "/options/level", json!(0))),
        "options.level"
    );
    assert_eq!(path_of(with(position(), "/game", json!(2))), "game");
    // Setup: Red placed two kings, Blue one, so it is Blue's turn.
    let setup = json!({"red": ["D4", "B6"], "blue": ["D7"]});
    let value = with(
        with(
            with(position(), "/ringforts", setup.clone()),
            "/kings",
            setup,
        ),
        "/options/first",
        json!("red"),
    );
    assert_eq!(path_of(value.clone()), "to_move");
    assert_eq!(
        path_of(with(
            with(value, "/to_move", json!("blue")),
            "/battle/red",
            json!(true)
        )),
        "battle.red"
    );
    // Blue in Battle and Red to move: Red entered it at the start of its turn.
    assert_eq!(
        path_of(with(position(), "/battle/blue", json!(true))),
        "battle.red"
    );
    // Manoeuvres: own ringforts never touch.
    assert_eq!(
        path_of(with(position(), "/ringforts/red/3", json!("D3"))),
        "ringforts.red[0]"
    );
}

#[test]
fn validate_refuses_inconsistent_endings_and_sacrifice_markers() {
    assert_eq!(path_of(with(position(), "/over", json!(true))), "over");
    assert_eq!(
        path_of(with(position(), "/final_turn", json!("red"))),
        "final_turn"
    );
    let passed = with(
        with(position(), "/passed/blue", json!(true)),
        "/kings/blue",
        json!([]),
    );
    assert_eq!(path_of(passed), "passed.blue");
    assert_eq!(
        path_of(with(position(), "/captured/red", json!(2))),
        "captured.red"
    );
    let marker = json!({"red": "D4", "blue": null});
    assert_eq!(
        path_of(with(position(), "/sacrificed", marker.clone())),
        "sacrificed.red"
    );
    let level2 = with(
        with(position(), "/options/level", json!(2)),
        "/sacrificed",
        marker,
    );
    let state: TaraState = serde_json::from_value(level2).unwrap();
    let error = Tara::validate(&state).unwrap_err();
    assert_eq!(error.path, "sacrificed.red");
    assert!(
        error.reason.contains("not a blue ringfort"),
        "{}",
        error.reason
    );
}

#[cfg(feature = "schema")]
#[test]
fn openapi_schemas_describe_the_state_and_options() {
    use utoipa::PartialSchema;
    let state = serde_json::to_string(&TaraState::schema()).unwrap();
    for field in ["ringforts", "kings", "battle", "sacrificed", "game1_points"] {
        assert!(state.contains(field), "{field} missing from {state}");
    }
    let options = serde_json::to_string(&TaraOptions::schema()).unwrap();
    assert!(
        options.contains("\"match\"") && options.contains("level"),
        "{options}"
    );
}
