//! States (and options) validated completely: every number in range,
//! contradictions between fields and unreachable turns refused, objects only at every level,
//! unknown members refused. Each case is a state the server itself wrote, tampered with one
//! field: the untouched state is accepted (so the test can fail), the tampered one is a 422
//! naming the field.

use serde_json::{Value, json};

use crate::common::{endpoint, first_moves, new_state, post_json};

/// Asserts that `state` is accepted by `legal-moves`.
async fn accepted(game: &str, state: &Value) {
    post_json(&endpoint(game, "legal-moves"), &json!({"state": state}))
        .await
        .ok();
}

/// Asserts that `state` is refused with 422 `invalid_state` naming `field`; returns the detail.
async fn refused(game: &str, state: &Value, field: &str) -> String {
    let answer = post_json(&endpoint(game, "legal-moves"), &json!({"state": state})).await;
    let problem = answer.problem(422, "invalid_state");
    assert_eq!(problem["field"], field, "{problem}");
    problem["detail"].as_str().unwrap().to_owned()
}

/// `state` with the member at `pointer` set to `value` (the parent must exist).
fn with(mut state: Value, pointer: &str, value: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    match state.pointer_mut(parent).expect("the parent exists") {
        Value::Object(members) => {
            members.insert(key.to_owned(), value);
        }
        Value::Array(items) => items[key.parse::<usize>().unwrap()] = value,
        other => panic!("{parent} is {other}"),
    }
    state
}

async fn hirth_state(target: u32) -> Value {
    let answer = post_json(
        &endpoint("hirth", "new"),
        &json!({"options": {"target": target}}),
    )
    .await;
    answer.ok()["state"].clone()
}

/// A Hirþ match to 3 whose first game Gull (the first seat) won by Yfirráð: the second game
/// under way, Silfr's seat now Gull.
async fn hirth_second_game() -> Value {
    let start = hirth_state(3).await;
    let mut state = with(start, "/points", json!([1, 0]));
    state = with(
        state,
        "/results",
        json!([{"winner": "first", "winner_colour": "gull", "victory": "yfirrad", "factor": 1, "points": 1}]),
    );
    state = with(state, "/gull", json!("second"));
    with(state, "/record", json!("G1 He /\n\n"))
}

#[actix_web::test]
async fn h11_target_out_of_range_refused() {
    accepted("hirth", &hirth_state(21).await).await;
    for target in [0u64, 22, 1000, 4_294_967_295] {
        let state = with(hirth_state(5).await, "/options/target", json!(target));
        refused("hirth", &state, "state.options.target").await;
    }
    let new = post_json(
        &endpoint("hirth", "new"),
        &json!({"options": {"target": 22}}),
    )
    .await;
    new.unprocessable("invalid_options", "options.target");
}

/// H11: a match to more than 21 points is refused at `new` with 422 `invalid_options`, its
/// detail naming the option and its range; 21 is taken.
#[actix_web::test]
async fn hirth_target_above_21_is_refused() {
    hirth_state(21).await;
    let answer = post_json(
        &endpoint("hirth", "new"),
        &json!({"options": {"target": 22}}),
    )
    .await;
    let problem = answer.unprocessable("invalid_options", "options.target");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("the match target is 1 to 21 points"),
        "{problem}"
    );
}

#[actix_web::test]
async fn h11_points_at_target_with_a_doubled_coin_cannot_wrap_into_a_new_game() {
    // The case: 4294967294 + 2 points wrapped to a new game at 0–0.
    let mut state = hirth_state(5).await;
    state = with(state, "/options/target", json!(4_294_967_295u64));
    state = with(state, "/points", json!([4_294_967_294u64, 0]));
    state = with(state, "/coin", json!({"factor": 2, "holder": "gull"}));
    let answer = post_json(
        &endpoint("hirth", "apply"),
        &json!({"state": state, "moves": ["offer", "give-up"]}),
    )
    .await;
    answer.unprocessable("invalid_state", "state.options.target");
}

#[actix_web::test]
async fn h11_points_without_the_results_that_scored_them_refused() {
    let state = hirth_second_game().await;
    accepted("hirth", &state).await;
    refused(
        "hirth",
        &with(state.clone(), "/points", json!([3, 0])),
        "state.points",
    )
    .await;
    let detail = refused(
        "hirth",
        &with(state.clone(), "/points", json!([2, 0])),
        "state.points[0]",
    )
    .await;
    assert!(detail.contains("H11"), "{detail}");
    refused(
        "hirth",
        &with(state, "/points", json!([1, 1])),
        "state.points[1]",
    )
    .await;
}

#[actix_web::test]
async fn h9_h10_results_contradicting_their_victory_refused() {
    let state = hirth_second_game().await;
    accepted("hirth", &state).await;
    let r = "/results/0";
    refused(
        "hirth",
        &with(state.clone(), &format!("{r}/points"), json!(2)),
        "state.results[0].points",
    )
    .await;
    refused(
        "hirth",
        &with(state.clone(), &format!("{r}/factor"), json!(4)),
        "state.results[0].factor",
    )
    .await;
    let refused_triple = with(
        with(
            state.clone(),
            &format!("{r}/victory"),
            json!("refused_triple"),
        ),
        &format!("{r}/points"),
        json!(2),
    );
    refused("hirth", &refused_triple, "state.results[0].factor").await;
    refused(
        "hirth",
        &with(state, &format!("{r}/winner_colour"), json!("silfr")),
        "state.results[0].winner_colour",
    )
    .await;
}

#[actix_web::test]
async fn h11_gull_alternates_by_game() {
    let state = hirth_second_game().await;
    refused("hirth", &with(state, "/gull", json!("first")), "state.gull").await;
}

#[actix_web::test]
async fn h11_results_after_the_match_was_won_refused() {
    // Three results in a match to 3, the first winning 5 points: the match ended after it.
    let mut state = hirth_state(3).await;
    let drepid = json!({"winner": "first", "winner_colour": "gull", "victory": "drepid", "factor": 1, "points": 5});
    let second = json!({"winner": "second", "winner_colour": "gull", "victory": "yfirrad", "factor": 1, "points": 1});
    state = with(state, "/results", json!([drepid, second]));
    state = with(state, "/points", json!([5, 1]));
    state = with(state, "/phase", json!({"kind": "over"}));
    state = with(state, "/gull", json!("second"));
    refused("hirth", &state, "state.results[1]").await;
}

#[actix_web::test]
async fn h11_round_out_of_range_refused() {
    let state = hirth_state(5).await;
    accepted("hirth", &state).await;
    refused(
        "hirth",
        &with(state.clone(), "/round", json!(0)),
        "state.round",
    )
    .await;
    refused(
        "hirth",
        &with(state, "/round", json!(4_294_967_295u64)),
        "state.round",
    )
    .await;
}

#[actix_web::test]
async fn h12_garbage_record_text_refused() {
    let state = hirth_second_game().await;
    for garbage in [
        "hello\n",
        "G1 He /",
        "G1 He /\n\n\n",
        "S1 He /\n\n",
        "G1 He <script>\n\n",
    ] {
        let detail = refused(
            "hirth",
            &with(state.clone(), "/record", json!(garbage)),
            "state.record",
        )
        .await;
        assert!(!detail.is_empty());
    }
    // A record that does not separate the one finished game.
    refused(
        "hirth",
        &with(state, "/record", json!("G1 He /\n")),
        "state.record",
    )
    .await;
}

#[actix_web::test]
async fn h12_record_turns_contradicting_the_round_refused() {
    // One turn recorded in the game under way: Silfr moves in round 1, not Gull.
    let state = with(hirth_state(5).await, "/record", json!("G1 He /\n"));
    let detail = refused("hirth", &state, "state.record").await;
    assert!(detail.contains("round 1"), "{detail}");
}

#[actix_web::test]
async fn h12_garbage_turn_log_refused() {
    let state = hirth_state(5).await;
    let log = |steps: &str, doubling: &str| json!({"steps": steps, "doubling": doubling});
    refused(
        "hirth",
        &with(state.clone(), "/log", log("zzz", "")),
        "state.log.steps",
    )
    .await;
    // A step written that was never taken (position.steps is 0).
    refused(
        "hirth",
        &with(state.clone(), "/log", log("He", "")),
        "state.log.steps",
    )
    .await;
    refused(
        "hirth",
        &with(state.clone(), "/log", log("", "Sa")),
        "state.log.doubling",
    )
    .await;
    // Gull offered, but the phase is not an offer.
    refused(
        "hirth",
        &with(state, "/log", log("", "Gd")),
        "state.log.doubling",
    )
    .await;
}

#[actix_web::test]
async fn h2_counts_beyond_the_pieces_refused_before_they_are_added() {
    let state = hirth_state(5).await;
    let big = with(
        state,
        "/position/board/0",
        json!({"gull": {"h": 200, "h_stopped": 200, "l": true}}),
    );
    refused("hirth", &big, "state.position.board.0.gull").await;
}

#[actix_web::test]
async fn hirth_unknown_members_refused_naming_them() {
    let new = post_json(
        &endpoint("hirth", "new"),
        &json!({"options": {"traget": 1}}),
    )
    .await;
    let problem = new.problem(422, "invalid_options");
    assert!(
        problem["detail"].as_str().unwrap().contains("traget"),
        "{problem}"
    );
    let state = hirth_state(5).await;
    for (pointer, member) in [
        ("/colour", "colour"),
        ("/options/traget", "traget"),
        ("/position/steps_taken", "steps_taken"),
        ("/position/reserve/gull/x", "`x`"),
        ("/coin/holders", "holders"),
        ("/log/battle", "battle"),
        ("/phase/from", "from"),
    ] {
        let answer = post_json(
            &endpoint("hirth", "legal-moves"),
            &json!({"state": with(state.clone(), pointer, json!(1))}),
        )
        .await;
        assert_eq!(answer.code(), "invalid_state", "{pointer}: {answer:?}");
        let problem = answer.problem(422, "invalid_state");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(member), "{pointer}: {problem}");
    }
}

#[actix_web::test]
async fn positional_arrays_refused_at_every_level() {
    // The case: {"options": [7, false, true]} was a size-7 board.
    let answer = post_json(
        &endpoint("herfor", "new"),
        &json!({"options": [7, false, true]}),
    )
    .await;
    let problem = answer.problem(422, "invalid_options");
    assert_eq!(problem["field"], "options", "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("not an array"),
        "{problem}"
    );
    for game in ["hirth", "tara"] {
        let answer = post_json(&endpoint(game, "new"), &json!({"options": [1]})).await;
        answer.problem(422, "invalid_options");
    }
    let hirth = hirth_state(5).await;
    for (pointer, value, field) in [
        ("/options", json!([5]), "state.options"),
        ("/coin", json!([1, null]), "state.coin"),
        (
            "/position/reserve/gull",
            json!([15, 3]),
            "state.position.reserve.gull",
        ),
        (
            "/position/reserve",
            json!([{"h": 15, "k": 3}, {"h": 15, "k": 3}]),
            "state.position.reserve",
        ),
        ("/position/board/0", json!([]), "state.position.board.0"),
        ("/phase", json!(["movement"]), "state.phase"),
        ("/log", json!([]), "state.log"),
    ] {
        let answer = post_json(
            &endpoint("hirth", "legal-moves"),
            &json!({"state": with(hirth.clone(), pointer, value)}),
        )
        .await;
        let problem = answer.problem(422, "invalid_state");
        assert_eq!(problem["field"], field, "{pointer}: {problem}");
    }
    for game in ["tara", "herfor"] {
        let state = new_state(game).await;
        let answer = post_json(
            &endpoint(game, "score"),
            &json!({"state": with(state, "/options", json!([1, false, false]))}),
        )
        .await;
        let problem = answer.problem(422, "invalid_state");
        assert_eq!(problem["field"], "state.options", "{game}: {problem}");
    }
    // A whole state as an array.
    let answer = post_json(&endpoint("tara", "score"), &json!({"state": [1]})).await;
    answer.unprocessable("invalid_state", "state");
}

/// A Tara match in game 2, nothing played yet: Blue starts it (T12).
async fn tara_game_2() -> Value {
    let answer = post_json(
        &endpoint("tara", "new"),
        &json!({"options": {"match": true}}),
    )
    .await;
    let mut state = answer.ok()["state"].clone();
    state = with(state, "/game", json!(2));
    state = with(state, "/to_move", json!("blue"));
    with(state, "/game1_points", json!({"red": 4, "blue": 1}))
}

#[actix_web::test]
async fn t12_game1_points_out_of_range_refused() {
    let state = tara_game_2().await;
    accepted("tara", &state).await;
    // The case: both at 4294967295 named Blue the match winner.
    let huge = json!({"red": 4_294_967_295u64, "blue": 4_294_967_295u64});
    refused(
        "tara",
        &with(state.clone(), "/game1_points", huge),
        "state.game1_points.red",
    )
    .await;
    refused(
        "tara",
        &with(
            state.clone(),
            "/game1_points",
            json!({"red": 1, "blue": 33}),
        ),
        "state.game1_points.blue",
    )
    .await;
    // No game ends 0 to 0, or with both winning.
    for points in [json!({"red": 0, "blue": 0}), json!({"red": 3, "blue": 3})] {
        refused(
            "tara",
            &with(state.clone(), "/game1_points", points),
            "state.game1_points",
        )
        .await;
    }
    for points in [
        json!({"red": 1, "blue": 1}),
        json!({"red": 0, "blue": 32}),
        json!({"red": 2, "blue": 2}),
    ] {
        accepted("tara", &with(state.clone(), "/game1_points", points)).await;
    }
}

#[actix_web::test]
async fn t3_t5_twelve_ringforts_with_blue_to_move_refused() {
    // Setup (six placements) and six turns of manoeuvres, each building a ringfort.
    let (played, state) = first_moves("tara", 12).await;
    assert_eq!(played.len(), 12);
    let built = state["ringforts"]["red"].as_array().unwrap().len()
        + state["ringforts"]["blue"].as_array().unwrap().len();
    assert_eq!(built, 12, "{state}");
    assert_eq!(state["battle"], json!({"red": false, "blue": false}));
    assert_eq!(state["to_move"], "red");
    accepted("tara", &state).await;
    let detail = refused(
        "tara",
        &with(state, "/to_move", json!("blue")),
        "state.to_move",
    )
    .await;
    assert!(detail.contains("T5"), "{detail}");
}

/// `value` with `null` for each member of `names` it leaves out: what a generated client writes
/// for the optional members it holds no value for (pydantic's `model_dump_json`).
fn nulls_for(value: &mut Value, names: &[&str]) {
    if let Value::Object(members) = value {
        for name in names {
            members.entry(*name).or_insert(Value::Null);
        }
    }
}

/// A Hirþ state with `null` for every optional member it leaves out, at every level.
fn hirth_with_nulls(state: &Value) -> Value {
    fn group(value: &mut Value) {
        nulls_for(value, &["h", "h_stopped", "l", "l_stopped", "karves"]);
        for karve in value["karves"].as_array_mut().into_iter().flatten() {
            nulls_for(karve, &["stopped"]);
        }
    }
    let mut state = state.clone();
    nulls_for(&mut state, &["results"]);
    nulls_for(&mut state["log"], &["steps", "doubling", "battles"]);
    nulls_for(&mut state["phase"], &["from"]);
    let position = &mut state["position"];
    nulls_for(position, &["lines"]);
    for cell in position["board"].as_object_mut().unwrap().values_mut() {
        nulls_for(cell, &["gull", "silfr"]);
        for colour in ["gull", "silfr"] {
            if cell[colour].is_object() {
                group(&mut cell[colour]);
            }
        }
    }
    for line in position["lines"].as_array_mut().into_iter().flatten() {
        group(&mut line["pieces"]);
    }
    state
}

#[actix_web::test]
async fn null_for_an_optional_member_is_read_as_left_out_in_every_game() {
    // A Hirþ match mid-turn: pieces on the board and on attack lines, Karves, a turn's log.
    let (_, state) = first_moves("hirth", 9).await;
    let nulled = hirth_with_nulls(&state);
    assert!(nulled.to_string().matches("null").count() > 15, "{nulled}");
    let uri = endpoint("hirth", "legal-moves");
    let with_nulls = post_json(&uri, &json!({"state": nulled})).await;
    let without = post_json(&uri, &json!({"state": state})).await;
    assert_eq!(with_nulls.ok(), without.ok());
    // Options: null is the default.
    for (game, options) in [
        ("hirth", json!({"target": null})),
        ("herfor", json!({"size": null, "pie": null, "simple": null})),
        ("tara", json!({"first": null, "level": null, "match": null})),
    ] {
        let start = post_json(&endpoint(game, "new"), &json!({"options": options})).await;
        assert_eq!(start.ok()["state"], new_state(game).await, "{game}");
    }
    // A required member given as null is still missing.
    let detail = refused("hirth", &with(state, "/round", Value::Null), "state").await;
    assert!(detail.contains("missing field `round`"), "{detail}");
}
