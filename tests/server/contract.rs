//! The contract check of the HTTP test suites (`tests/common/contract.rs`) catches what it is
//! there for, and the published schemas refuse what the server refuses.

use serde_json::{Value, json};

use crate::common::contract::{check, compile};
use crate::common::{self, applied, endpoint, new_state_with, post_json};

const JSON: &str = "application/json";

fn schema(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

#[actix_web::test]
async fn a_real_answer_passes_and_a_wrong_one_fails() {
    let path = endpoint("herfor", "new");
    let answer = post_json(&path, &json!({"options": {"size": 3}})).await;
    let body = answer.ok().clone();
    assert_eq!(check("POST", &path, 200, JSON, &body), Ok(()));

    // Tara's colour in a Herfor status.
    let mut wrong = body.clone();
    wrong["status"]["colour"] = json!("red");
    let broken = check("POST", &path, 200, JSON, &wrong).unwrap_err();
    assert!(broken.contains("/status"), "{broken}");

    // A state without its version, and an unknown member in a Herfor state.
    let mut wrong = body.clone();
    wrong["state"].as_object_mut().unwrap().remove("version");
    assert!(check("POST", &path, 200, JSON, &wrong).is_err());
    // A status the operation does not declare, and a problem sent as plain JSON.
    assert!(check("POST", &path, 404, "application/problem+json", &body).is_err());
    assert!(check("POST", &path, 422, JSON, &body).is_err());
}

#[actix_web::test]
async fn a_problem_without_its_code_breaks_the_contract() {
    let path = endpoint("tara", "apply");
    let answer = post_json(&path, &json!({"state": {}, "move": "D4"})).await;
    let problem = answer.problem(422, "invalid_state").clone();
    let media = "application/problem+json";
    assert_eq!(check("POST", &path, 422, media, &problem), Ok(()));
    let mut wrong = problem;
    wrong["code"] = json!("no_such_code");
    assert!(check("POST", &path, 422, media, &wrong).is_err());
}

#[test]
fn undocumented_paths_are_not_checked() {
    assert_eq!(
        check("GET", "/play/herfor", 200, "text/html", &json!("<html>")),
        Ok(())
    );
}

#[test]
fn evaluate_requests_take_one_budget_a_strength_name_and_a_javascript_safe_seed() {
    let request = compile(&schema("HerforEvaluateRequest")).unwrap();
    let state = json!({"version": 1, "options": {"size": 3, "pie": false, "simple": false},
        "black": [], "white": [], "to_move": "black", "passes_in_a_row": 0, "moves_played": 0,
        "swapped": false});
    let with = |extra: Value| {
        let mut body = json!({ "state": state });
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    assert!(request.is_valid(&with(json!({}))));
    assert!(request.is_valid(&with(
        json!({"playouts": 100, "seed": 9_007_199_254_740_991_u64})
    )));
    assert!(request.is_valid(&with(json!({"playouts": 100, "millis": null}))));
    assert!(!request.is_valid(&with(json!({"playouts": 100, "millis": 5}))));
    assert!(!request.is_valid(&with(json!({"strength": "normal", "millis": 5}))));
    assert!(request.is_valid(&with(json!({"strength": "perfect"}))));
    assert!(!request.is_valid(&with(json!({"strength": "hard"}))));
    assert!(!request.is_valid(&with(json!({"seed": 9_007_199_254_740_992_u64}))));
    assert!(!request.is_valid(&with(json!({"playouts": 0}))));
}

#[actix_web::test]
async fn the_server_refuses_a_seed_javascript_cannot_send() {
    let state = common::new_state("herfor").await;
    let answer = post_json(
        &endpoint("herfor", "evaluate"),
        &json!({"state": state, "playouts": 10, "seed": 9_007_199_254_740_992_u64}),
    )
    .await;
    answer.unprocessable("invalid_request", "seed");
    let answer = post_json(
        &endpoint("herfor", "evaluate"),
        &json!({"state": state, "playouts": 10, "seed": 9_007_199_254_740_991_u64}),
    )
    .await;
    answer.ok();
}

#[test]
fn options_and_states_are_typed_per_game() {
    let herfor = compile(&schema("HerforNewGameRequest")).unwrap();
    assert!(herfor.is_valid(&json!({"options": {"size": 3}})));
    assert!(!herfor.is_valid(&json!({"options": {"size": 9}})));
    assert!(!herfor.is_valid(&json!({"options": {"level": 2}})));
    let tara = compile(&schema("TaraNewGameRequest")).unwrap();
    assert!(tara.is_valid(&json!({"options": {"level": 2}})));
    assert!(!tara.is_valid(&json!({"options": {"level": 3}})));
    let hirth = compile(&schema("HirthNewGameRequest")).unwrap();
    assert!(hirth.is_valid(&json!({"options": {"target": 21}})));
    assert!(!hirth.is_valid(&json!({"options": {"target": 22}})));
    assert!(!hirth.is_valid(&json!({"options": {"target": 0}})));
}

#[test]
fn apply_and_replay_take_exactly_one_source_of_moves() {
    let apply = compile(&schema("HerforApplyRequest")).unwrap();
    let state = json!({"version": 1, "options": {"size": 3, "pie": false, "simple": false},
        "black": [], "white": [], "to_move": "black", "passes_in_a_row": 0, "moves_played": 0,
        "swapped": false});
    assert!(apply.is_valid(&json!({"state": state, "move": "c3"})));
    assert!(apply.is_valid(&json!({"state": state, "moves": ["c3"], "move": null})));
    assert!(!apply.is_valid(&json!({"state": state})));
    assert!(!apply.is_valid(&json!({"state": state, "move": null})));
    assert!(!apply.is_valid(&json!({"state": state, "move": "c3", "moves": ["c3"]})));
    let replay = compile(&schema("TaraReplayRequest")).unwrap();
    assert!(replay.is_valid(&json!({"record": "D4"})));
    assert!(!replay.is_valid(&json!({})));
    assert!(!replay.is_valid(&json!({"record": "D4", "moves": ["D4"]})));
}

/// JSON Schema calls `7.0` an integer; so does the server.
#[actix_web::test]
async fn a_whole_number_written_with_a_fraction_is_an_integer() {
    let answer = post_json(
        &endpoint("herfor", "new"),
        &json!({"options": {"size": 3.0}}),
    )
    .await;
    assert_eq!(answer.ok()["state"]["options"]["size"], 3);
    let answer = post_json(
        &endpoint("herfor", "new"),
        &json!({"options": {"size": 3.5}}),
    )
    .await;
    answer.unprocessable("invalid_options", "options.size");
}

/// A picture of a link with a move that does not read or that the rules refuse is a 422
/// problem, which the picture and animation operations declare.
#[actix_web::test]
async fn a_link_picture_declares_the_problems_it_answers() {
    for operation in ["picture", "animation"] {
        let path = format!("/api/v1/games/herfor/{operation}");
        let answer = common::get(&format!("{path}?moves=zz")).await;
        let problem = answer.problem(422, "unreadable_move");
        let media = "application/problem+json";
        assert_eq!(check("GET", &path, 422, media, problem), Ok(()));
        let answer = common::get(&format!("{path}?moves=c3.c3")).await;
        let problem = answer.problem(422, "illegal_move");
        assert_eq!(check("GET", &path, 422, media, problem), Ok(()));
        let answer = common::get(&format!("{path}?no_such_option=1")).await;
        let problem = answer.problem(422, "invalid_request");
        assert_eq!(check("GET", &path, 422, media, problem), Ok(()));
    }
}

/// Hirþ's fixed-length arrays and round say their bounds, as the state check has them.
#[actix_web::test]
async fn hirth_states_say_their_array_lengths_and_round_bound() {
    let state = common::new_state("hirth").await;
    let hirth_state = compile(&schema("HirthState")).unwrap();
    assert!(hirth_state.is_valid(&state));
    let with = |member: &str, value: Value| {
        let mut state = state.clone();
        state[member] = value;
        state
    };
    for points in [json!([0]), json!([0, 0, 0])] {
        assert!(!hirth_state.is_valid(&with("points", points.clone())));
        let answer = post_json(
            &endpoint("hirth", "score"),
            &json!({"state": with("points", points)}),
        )
        .await;
        answer.unprocessable("invalid_state", "state.points");
    }
    let too_late = with("round", json!(2_147_483_648_u64));
    assert!(!hirth_state.is_valid(&too_late));
    let answer = post_json(&endpoint("hirth", "score"), &json!({"state": too_late})).await;
    answer.unprocessable("invalid_state", "state.round");
    assert!(hirth_state.is_valid(&with("round", json!(2_147_483_647_u64))));
    let score = post_json(&endpoint("hirth", "score"), &json!({"state": state})).await;
    let hirth_score = compile(&schema("HirthScore")).unwrap();
    assert!(hirth_score.is_valid(&score.ok()["score"]));
    let result = compile(&schema("HirthGameResult")).unwrap();
    let won = json!({"winner": "first", "winner_colour": "gull", "victory": "yfirrad",
        "factor": 3, "points": 3});
    assert!(result.is_valid(&won));
    let mut wrong_factor = won.clone();
    wrong_factor["factor"] = json!(4);
    assert!(!result.is_valid(&wrong_factor));
    let mut wrong = score.ok()["score"].clone();
    wrong["removed"] = json!([0]);
    assert!(!hirth_score.is_valid(&wrong));
}

/// A Tara state's `sacrificed` may leave a colour out (it reads as `null`), in the schema as on
/// the server.
#[actix_web::test]
async fn a_tara_sacrificed_member_may_leave_a_colour_out() {
    let mut state = common::new_state("tara").await;
    let tara_state = compile(&schema("TaraState")).unwrap();
    for sacrificed in [json!({"red": null}), json!({})] {
        state["sacrificed"] = sacrificed;
        assert!(tara_state.is_valid(&state));
        post_json(&endpoint("tara", "score"), &json!({"state": state}))
            .await
            .ok();
    }
}

/// The Tara state bounds the schema says are the ones the server checks: a hill is one of the
/// 45, a colour has 3 kings at most and captures 3 at most, a hill is listed once.
#[actix_web::test]
async fn tara_states_say_their_hills_and_counts() {
    let state = common::new_state("tara").await;
    let tara_state = compile(&schema("TaraState")).unwrap();
    assert!(tara_state.is_valid(&state));
    let with = |pointer: &str, value: Value| {
        let mut state = state.clone();
        *state.pointer_mut(pointer).unwrap() = value;
        state
    };
    for (pointer, value, field) in [
        ("/ringforts/red", json!(["A1"]), "state.ringforts.red[0]"),
        ("/ringforts/red", json!(["H4"]), "state.ringforts.red[0]"),
        (
            "/ringforts/red",
            json!(["D4", "D4"]),
            "state.ringforts.red[1]",
        ),
        (
            "/kings/blue",
            json!(["B2", "D2", "F2", "D6"]),
            "state.kings.blue",
        ),
        ("/captured/red", json!(4), "state.captured.red"),
    ] {
        let bad = with(pointer, value);
        assert!(!tara_state.is_valid(&bad), "{pointer}");
        let answer = post_json(&endpoint("tara", "score"), &json!({"state": bad})).await;
        // The first check the state fails names its field (a fourth king stands off its
        // colour's ringforts, too).
        let named = answer.problem(422, "invalid_state")["field"]
            .as_str()
            .unwrap();
        assert!(named.starts_with(field), "{pointer}: {named}");
    }
    assert!(tara_state.is_valid(&with("/ringforts/red", json!(["a2", "G6", "D4"]))));
    assert!(tara_state.is_valid(&with("/captured/red", json!(3))));
}

/// F1, T13: a move off its game's pattern, or a Herfor state's point name off the point
/// pattern, is refused by the schema and by the server (422): the patterns refuse nothing the
/// server takes. (The patterns' agreement with the engines, string by string, is pinned in
/// `src/api/contract/patterns.rs`.)
#[actix_web::test]
async fn f1_t13_moves_and_points_off_their_patterns_are_refused_by_schema_and_server() {
    let herfor = common::new_state("herfor").await;
    let apply = compile(&schema("HerforApplyRequest")).unwrap();
    assert!(apply.is_valid(&json!({"state": herfor, "move": " C3 "})));
    for (off, code) in [
        ("", "unreadable_move"),
        ("c0", "unreadable_move"),
        ("c3 c4", "unreadable_move"),
        ("n1", "illegal_move"),
    ] {
        let body = json!({"state": herfor, "moves": [off]});
        assert!(!apply.is_valid(&body), "{off:?}");
        let answer = post_json(&endpoint("herfor", "apply"), &body).await;
        answer.problem(422, code);
    }
    let mut off_board = herfor.clone();
    off_board["black"] = json!(["z1"]);
    let herfor_state = compile(&schema("HerforState")).unwrap();
    assert!(!herfor_state.is_valid(&off_board));
    assert!(herfor_state.is_valid(&herfor));
    let answer = post_json(&endpoint("herfor", "score"), &json!({"state": off_board})).await;
    answer.problem(422, "invalid_state");

    let tara = common::new_state("tara").await;
    let apply = compile(&schema("TaraApplyRequest")).unwrap();
    assert!(apply.is_valid(&json!({"state": tara, "move": "d4"})));
    for off in ["A1", "D4+E5", "D4 E5", "pas"] {
        let body = json!({"state": tara, "move": off});
        assert!(!apply.is_valid(&body), "{off:?}");
        let answer = post_json(&endpoint("tara", "apply"), &body).await;
        answer.problem(422, "unreadable_move");
    }
}

/// Each game's picture and animation operations carry an example link the server draws.
#[actix_web::test]
async fn every_link_example_draws() {
    let document = moot::contract();
    for game in moot::games::GAME_IDS {
        for operation in ["picture", "animation"] {
            let path = format!("/api/v1/games/{game}/{operation}");
            let parameters = document["paths"][&path]["get"]["parameters"]
                .as_array()
                .expect("the operation has parameters");
            let moves = parameters
                .iter()
                .find(|p| p["name"] == "moves")
                .expect("a moves parameter");
            let example = moves["example"].as_str().expect("an example link");
            // Raw: the contract check reads JSON bodies, and a picture is a PNG.
            let app = actix_web::test::init_service(moot::app()).await;
            let request = actix_web::test::TestRequest::get()
                .uri(&format!("{path}?moves={example}"))
                .to_request();
            let answer = actix_web::test::call_service(&app, request).await;
            assert_eq!(answer.status(), 200, "{path}?moves={example}");
        }
    }
}

/// A Herfor point name off the board's size (F1: `g5` is on size 7, not on size 3) is refused
/// by the schema of the size the options say, in a state, an `apply` and a `replay`, as the
/// server refuses it; on the board it is accepted.
#[actix_web::test]
async fn f1_points_off_the_board_size_are_refused_by_schema_and_server() {
    let played = |size: u8, point: &'static str| async move {
        let new = new_state_with("herfor", json!({ "size": size })).await;
        applied("herfor", &new, point).await
    };
    let state = compile(&schema("HerforState")).unwrap();
    let on_seven = played(7, "g5").await;
    assert!(state.is_valid(&on_seven), "{on_seven}");
    let mut off_three = played(3, "c3").await;
    assert!(state.is_valid(&off_three));
    off_three["black"] = json!(["g5"]);
    assert!(!state.is_valid(&off_three));
    let answer = post_json(&endpoint("herfor", "score"), &json!({"state": off_three})).await;
    answer.unprocessable("invalid_state", "state.black[0]");

    let apply = compile(&schema("HerforApplyRequest")).unwrap();
    let three = played(3, "c3").await;
    for (mv, on_board) in [("g5", false), ("a1", true), (" PASS ", true)] {
        let body = json!({"state": three, "move": mv});
        assert_eq!(apply.is_valid(&body), on_board, "{mv}");
        let answer = post_json(&endpoint("herfor", "apply"), &body).await;
        if !on_board {
            assert_eq!(answer.problem(422, "illegal_move")["rule"], "F1");
        }
    }
    let replay = compile(&schema("HerforReplayRequest")).unwrap();
    assert!(!replay.is_valid(&json!({"options": {"size": 3}, "moves": ["c3", "g5"]})));
    assert!(replay.is_valid(&json!({"options": {"size": 7}, "moves": ["c3", "g5"]})));
    // Options left out or without a size: the default board, size 5 (rows a to i; row e
    // has 9 points, row i 5).
    assert!(replay.is_valid(&json!({"moves": ["e9", "i5"]})));
    assert!(!replay.is_valid(&json!({"moves": ["i9"]})));
    assert!(!replay.is_valid(&json!({"options": null, "moves": ["k9"]})));
    assert!(!replay.is_valid(&json!({"options": {"pie": false}, "moves": ["k9"]})));
}

/// A Level 1 Tara state has no sacrificed king (T11: sacrifices belong to Level 2): the
/// schema refuses one, as the server does; Level 2 may have one.
#[actix_web::test]
async fn t11_a_level_one_state_with_a_sacrifice_is_refused_by_schema_and_server() {
    let state = compile(&schema("TaraState")).unwrap();
    let mut level_one = common::new_state("tara").await;
    assert!(state.is_valid(&level_one));
    level_one["sacrificed"]["red"] = json!("D4");
    assert!(!state.is_valid(&level_one));
    let answer = post_json(&endpoint("tara", "score"), &json!({"state": level_one})).await;
    answer.unprocessable("invalid_state", "state.sacrificed.red");
    let mut level_two = level_one.clone();
    level_two["options"]["level"] = json!(2);
    assert!(state.is_valid(&level_two));
}

/// A Hirþ state's board is keyed by its spaces, and its phase has no member besides `kind`
/// (and a retreat's `from`): the schema refuses another, as the server does.
#[actix_web::test]
async fn h12_a_hirth_board_names_spaces_and_a_phase_has_no_unknown_member() {
    let state = compile(&schema("HirthState")).unwrap();
    let start = common::new_state("hirth").await;
    assert!(state.is_valid(&start));
    let mut odd_space = start.clone();
    odd_space["position"]["board"]["x"] = json!({});
    let mut odd_phase = start.clone();
    odd_phase["phase"]["note"] = json!(1);
    for (wrong, field) in [
        (odd_space, "state.position.board"),
        (odd_phase, "state.phase.note"),
    ] {
        assert!(!state.is_valid(&wrong), "{wrong}");
        let answer = post_json(&endpoint("hirth", "score"), &json!({"state": wrong})).await;
        answer.unprocessable("invalid_state", field);
    }
}
