//! Every error the API answers: its status, its problem+json body and its stable `code`, with the
//! members that locate the fault (`field`, `rule`, `move`, `index`, `line`).

use actix_web::test::TestRequest;
use moot::games::{GAME_IDS, Game, Turn};
use moot::{AiConfig, Computer};
use serde_json::{Value, json};

use crate::common::{
    endpoint, evaluate_all, get, herfor_after_c3, herfor_small, new_state, post_json, post_raw,
    send,
};

/// Plays the first legal move until the game ends, with the engine itself; `None` when it has
/// not ended after many plies (a game whose first moves can cycle).
fn finished_state<G: Game>(options: &G::Options) -> Option<Value> {
    let mut state = G::new_game(options).unwrap();
    for _ in 0..10_000 {
        if !matches!(G::turn(&state), Turn::ToAct(_)) {
            return Some(serde_json::to_value(&state).unwrap());
        }
        let mv = G::legal_moves(&state)[0].clone();
        G::apply(&mut state, &mv).unwrap();
    }
    None
}

#[actix_web::test]
async fn malformed_json_is_400_malformed_json() {
    let answer = post_raw(
        &endpoint("herfor", "new"),
        Some("application/json"),
        "{\"options\": ",
    )
    .await;
    let problem = answer.problem(400, "malformed_json");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("not valid JSON")
    );
}

#[actix_web::test]
async fn unknown_game_is_404_before_the_body_is_read() {
    let answer = post_raw(
        "/api/v1/games/chess/new",
        Some("application/json"),
        "not json at all",
    )
    .await;
    let problem = answer.problem(404, "unknown_game");
    assert!(problem["detail"].as_str().unwrap().contains("\"chess\""));
    let too_big = post_raw(
        "/api/v1/games/chess/apply",
        Some("application/json"),
        vec![b' '; 2 << 20],
    )
    .await;
    too_big.problem(404, "unknown_game");
}

#[actix_web::test]
async fn unknown_route_is_404_not_found() {
    get("/api/v2/games").await.problem(404, "not_found");
    post_json("/api/v1/games/herfor/resign", &json!({}))
        .await
        .problem(404, "not_found");
}

#[actix_web::test]
async fn wrong_method_is_405_with_allow() {
    let answer = get(&endpoint("herfor", "apply")).await;
    answer.problem(405, "method_not_allowed");
    assert_eq!(answer.allow.as_deref(), Some("POST"));
    let listing = send(TestRequest::delete().uri("/api/v1/games")).await;
    listing.problem(405, "method_not_allowed");
    assert_eq!(listing.allow.as_deref(), Some("GET"));
}

/// A method is any token the client likes: the answer names a long one by an excerpt.
#[actix_web::test]
async fn a_long_unknown_method_is_405_naming_it_by_an_excerpt() {
    let name = "Q".repeat(100_000);
    let method = actix_web::http::Method::from_bytes(name.as_bytes()).expect("a token");
    let answer = send(TestRequest::default().method(method).uri("/healthz")).await;
    let problem = answer.problem(405, "method_not_allowed");
    let detail = problem["detail"].as_str().expect("a detail");
    assert!(
        detail.len() < 400
            && detail.starts_with("QQQ")
            && detail.ends_with("… is not served at /healthz; use GET"),
        "{detail}"
    );
    assert_eq!(answer.allow.as_deref(), Some("GET"));
}

#[actix_web::test]
async fn body_over_1_mib_is_413_payload_too_large() {
    let state = new_state("herfor").await;
    let padding = "x".repeat(1 << 20);
    let body = json!({"state": state, "move": padding});
    post_json(&endpoint("herfor", "apply"), &body)
        .await
        .problem(413, "payload_too_large");
    // Just under the limit is read (and then refused for what it says, not for its size).
    let under = vec![b' '; (1 << 20) - 2];
    let mut body = under;
    body.extend_from_slice(b"{}");
    post_raw(&endpoint("herfor", "new"), Some("application/json"), body)
        .await
        .ok();
}

#[actix_web::test]
async fn non_json_body_is_415_unsupported_media_type() {
    let form = post_raw(
        &endpoint("herfor", "new"),
        Some("application/x-www-form-urlencoded"),
        "a=1",
    )
    .await;
    form.problem(415, "unsupported_media_type");
    let untyped = post_raw(&endpoint("herfor", "new"), None, "{}").await;
    untyped.problem(415, "unsupported_media_type");
    let with_charset = post_raw(
        &endpoint("herfor", "new"),
        Some("application/json; charset=utf-8"),
        "{}",
    )
    .await;
    with_charset.ok();
}

#[actix_web::test]
async fn missing_or_unknown_members_are_422_invalid_request() {
    for game in GAME_IDS {
        let missing = post_json(&endpoint(game, "legal-moves"), &json!({})).await;
        let problem = missing.problem(422, "invalid_request");
        assert!(
            problem["detail"].as_str().unwrap().contains("state"),
            "{problem}"
        );

        let state = new_state(game).await;
        let extra = post_json(
            &endpoint(game, "score"),
            &json!({"state": state, "colour": "black"}),
        )
        .await;
        let problem = extra.problem(422, "invalid_request");
        assert!(
            problem["detail"].as_str().unwrap().contains("colour"),
            "{problem}"
        );

        let both = post_json(
            &endpoint(game, "apply"),
            &json!({"state": state, "move": "a1", "moves": []}),
        )
        .await;
        both.unprocessable("invalid_request", "moves");
        let neither = post_json(&endpoint(game, "apply"), &json!({"state": state})).await;
        neither.unprocessable("invalid_request", "move");
        let neither = post_json(&endpoint(game, "replay"), &json!({})).await;
        neither.unprocessable("invalid_request", "moves");
        let both = post_json(
            &endpoint(game, "replay"),
            &json!({"moves": [], "record": ""}),
        )
        .await;
        both.unprocessable("invalid_request", "record");
        let not_a_list = post_json(
            &endpoint(game, "apply"),
            &json!({"state": state, "moves": "a1"}),
        )
        .await;
        not_a_list.unprocessable("invalid_request", "moves");
    }
}

/// A body is read in one pass into the game's types, but the problem still names the first
/// fault in the API's order: the request's own members (unknown ones, `move` or `moves`), then
/// the state, then the options, wherever each sits in the body.
#[actix_web::test]
async fn a_body_with_several_faults_is_refused_for_the_first_in_the_apis_order() {
    let mut state = herfor_after_c3().await;
    state["black"] = json!(["c3", 7]);
    let wrong_options = json!({"size": "large"});
    for (operation, body, code, field) in [
        // `zzz` comes after `state` in the body, and in any order serde reads it.
        (
            "legal-moves",
            json!({"state": state, "zzz": 1}),
            "invalid_request",
            None,
        ),
        (
            "apply",
            json!({"state": state}),
            "invalid_request",
            Some("move"),
        ),
        (
            "apply",
            json!({"state": state, "move": "c3", "moves": ["c3"]}),
            "invalid_request",
            Some("moves"),
        ),
        (
            "replay",
            json!({"options": wrong_options}),
            "invalid_request",
            Some("moves"),
        ),
        (
            "new",
            json!({"options": wrong_options, "zzz": 1}),
            "invalid_request",
            None,
        ),
        (
            "apply",
            json!({"state": state, "move": "c3"}),
            "invalid_state",
            Some("state.black[1]"),
        ),
        (
            "replay",
            json!({"options": wrong_options, "moves": []}),
            "invalid_options",
            Some("options.size"),
        ),
    ] {
        let answer = post_json(&endpoint("herfor", operation), &body).await;
        let problem = answer.problem(422, code);
        match field {
            Some(field) => assert_eq!(problem["field"], field, "{operation} {body}: {problem}"),
            None => assert!(
                problem["detail"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("zzz"),
                "{operation} {body}: {problem}"
            ),
        }
    }
}

#[actix_web::test]
async fn options_of_the_wrong_type_are_422_invalid_options_naming_the_field() {
    let answer = post_json(
        &endpoint("herfor", "new"),
        &json!({"options": {"size": "large"}}),
    )
    .await;
    let problem = answer.unprocessable("invalid_options", "options.size");
    assert_eq!(
        problem["detail"], "options.size: size must be a whole number from 3 to 7, not \"large\"",
        "said in the game's words, not serde's"
    );
    // Out of the type's range, the same words; each game's numbers and switches alike.
    for (game, name, value, says) in [
        (
            "herfor",
            "size",
            json!(300),
            "size must be a whole number from 3 to 7, not 300",
        ),
        (
            "herfor",
            "pie",
            json!("yes"),
            "pie must be true or false, not \"yes\"",
        ),
        (
            "hirth",
            "target",
            json!(-1),
            "target must be a whole number from",
        ),
        (
            "tara",
            "level",
            json!(1.5),
            "level must be a whole number from 1 to 2, not 1.5",
        ),
        (
            "tara",
            "match",
            json!(1),
            "match must be true or false, not 1",
        ),
    ] {
        let answer = post_json(&endpoint(game, "new"), &json!({"options": {name: value}})).await;
        let field = format!("options.{name}");
        let problem = answer.unprocessable("invalid_options", &field);
        let detail = problem["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(says), "{game}: {detail}");
        assert!(!detail.contains("expected"), "{game}: {detail}");
    }
    let unknown = post_json(
        &endpoint("herfor", "new"),
        &json!({"options": {"colour": "red"}}),
    )
    .await;
    unknown.problem(422, "invalid_options");
}

#[actix_web::test]
async fn options_the_game_refuses_are_422_invalid_options() {
    let answer = post_json(&endpoint("herfor", "new"), &json!({"options": {"size": 9}})).await;
    let problem = answer.problem(422, "invalid_options");
    assert_eq!(problem["field"], "options.size");
    let replay = post_json(
        &endpoint("herfor", "replay"),
        &json!({"options": {"size": 2}, "moves": []}),
    )
    .await;
    replay.problem(422, "invalid_options");
}

#[actix_web::test]
async fn a_state_member_of_the_wrong_type_is_422_invalid_state_with_its_path() {
    let mut state = herfor_after_c3().await;
    state["black"] = json!(["c3", 7]);
    let answer = post_json(&endpoint("herfor", "legal-moves"), &json!({"state": state})).await;
    answer.unprocessable("invalid_state", "state.black[1]");
}

#[actix_web::test]
async fn a_state_breaking_an_invariant_is_422_invalid_state_with_its_path() {
    // The same point cannot hold a black and a white stone (F1).
    let mut state = herfor_after_c3().await;
    state["white"] = json!(["c3"]);
    for operation in ["legal-moves", "score"] {
        let answer = post_json(&endpoint("herfor", operation), &json!({"state": state})).await;
        let problem = answer.problem(422, "invalid_state");
        assert_eq!(problem["field"], "state.white[0]", "{operation}: {problem}");
    }
    let apply = post_json(
        &endpoint("herfor", "apply"),
        &json!({"state": state, "move": "a1"}),
    )
    .await;
    apply.unprocessable("invalid_state", "state.white[0]");
}

#[actix_web::test]
async fn f4_a_state_over_without_two_passes_is_invalid_state_naming_the_rule() {
    let mut state = herfor_after_c3().await;
    state["game_over"] = json!(true);
    let answer = post_json(&endpoint("herfor", "legal-moves"), &json!({"state": state})).await;
    let problem = answer.problem(422, "invalid_state");
    assert_eq!(problem["rule"], "F4", "{problem}");
    assert_eq!(problem["rule_url"], "/rules/herfor#F4", "{problem}");
}

#[actix_web::test]
async fn an_invalid_state_citing_no_rule_has_no_rule_member() {
    let mut state = herfor_after_c3().await;
    state["black"] = json!(["c3", 7]);
    let answer = post_json(&endpoint("herfor", "legal-moves"), &json!({"state": state})).await;
    let problem = answer.unprocessable("invalid_state", "state.black[1]");
    assert!(problem.get("rule").is_none(), "{problem}");
}

#[actix_web::test]
async fn a_move_outside_the_notation_is_422_unreadable_move() {
    let state = herfor_after_c3().await;
    let answer = post_json(
        &endpoint("herfor", "apply"),
        &json!({"state": state, "move": "castle"}),
    )
    .await;
    let problem = answer.problem(422, "unreadable_move");
    assert_eq!(problem["move"], "castle");
    assert_eq!(problem["field"], "move");
}

#[actix_web::test]
async fn f3_placing_on_an_occupied_point_is_illegal_move_naming_move_index_and_rule() {
    let state = herfor_small().await;
    let answer = post_json(
        &endpoint("herfor", "apply"),
        &json!({"state": state, "moves": ["a1", "c3", "c3"]}),
    )
    .await;
    let problem = answer.problem(422, "illegal_move");
    assert_eq!(problem["rule"], "F3");
    assert_eq!(problem["move"], "c3");
    assert_eq!(problem["index"], 2);
    assert_eq!(problem["field"], "moves[2]");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .starts_with("moves[2]: c3"),
        "{problem}"
    );
}

#[actix_web::test]
async fn a_single_illegal_move_names_the_move_and_rule_without_index() {
    let state = herfor_after_c3().await;
    let answer = post_json(
        &endpoint("herfor", "apply"),
        &json!({"state": state, "move": "c3"}),
    )
    .await;
    let problem = answer.problem(422, "illegal_move");
    assert_eq!(
        (&problem["rule"], &problem["move"], &problem["field"]),
        (&json!("F3"), &json!("c3"), &json!("move"))
    );
    assert!(problem.get("index").is_none());
}

#[actix_web::test]
async fn replaying_an_illegal_move_names_its_index() {
    let body = json!({"options": {"size": 3, "pie": false}, "moves": ["c3", "c3"]});
    let answer = post_json(&endpoint("herfor", "replay"), &body).await;
    let problem = answer.problem(422, "illegal_move");
    assert_eq!(
        (&problem["index"], &problem["field"]),
        (&json!(1), &json!("moves[1]"))
    );
}

#[actix_web::test]
async fn a_move_after_the_end_is_422_game_over() {
    for game in GAME_IDS {
        let finished: Option<Value> = moot::with_game!(*game, G => finished_state::<G>(&Default::default()), else unreachable!());
        let Some(state) = finished else {
            assert_ne!(*game, "herfor", "a game of Herfor always ends (F4)");
            continue;
        };
        let legal = post_json(&endpoint(game, "legal-moves"), &json!({"state": state})).await;
        assert_eq!(legal.ok()["moves"], json!([]), "{game}");
        assert_eq!(legal.body["status"]["phase"], "finished", "{game}");
        let any_move = post_json(
            &endpoint(game, "legal-moves"),
            &json!({"state": new_state(game).await}),
        )
        .await;
        let mv = any_move.ok()["moves"][0].clone();
        let answer = post_json(
            &endpoint(game, "apply"),
            &json!({"state": state, "moves": [mv]}),
        )
        .await;
        let problem = answer.problem(422, "game_over");
        assert_eq!(problem["index"], 0, "{game}");
    }
}

#[actix_web::test]
async fn an_unreadable_record_is_422_invalid_record_with_its_line() {
    let body = json!({"options": {"size": 3, "pie": false}, "record": "c3 a1\nb1 zz\n"});
    let answer = post_json(&endpoint("herfor", "replay"), &body).await;
    let problem = answer.problem(422, "invalid_record");
    assert_eq!(problem["line"], 2);
    assert_eq!(problem["field"], "record");
}

#[test]
fn an_engine_panic_becomes_a_500_internal_error() {
    let result: Result<(), _> = moot::api::problem::problem_on_panic(|| panic!("a bug"));
    let error = result.unwrap_err();
    assert_eq!(error.code(), moot::api::ErrorCode::InternalError);
    assert!(error.0.detail.contains("a bug"));
    let response = actix_web::ResponseError::error_response(&error);
    assert_eq!(response.status(), 500);
}

/// Regression: a hill named `a0` in a Tara state overflowed the hill arithmetic (a panic, which
/// the guard turned into a 500); it is an invalid state.
#[actix_web::test]
async fn tara_state_naming_hill_a0_is_422_invalid_state() {
    let mut state = new_state("tara").await;
    state["ringforts"]["blue"] = json!(["a0"]);
    for operation in ["legal-moves", "score"] {
        let answer = post_json(&endpoint("tara", operation), &json!({"state": state})).await;
        let problem = answer.problem(422, "invalid_state");
        assert!(
            problem["field"].as_str().unwrap().starts_with("state."),
            "{problem}"
        );
    }
}

#[actix_web::test]
async fn a_budget_over_the_cap_is_422_budget_too_large_naming_field_and_cap() {
    let computer = Computer::new(AiConfig {
        max_playouts: 500,
        max_millis: 100,
        ..AiConfig::default()
    });
    let state = new_state("hirth").await;
    let answers = evaluate_all(
        &computer,
        &[
            ("hirth", json!({"state": state, "playouts": 501})),
            ("hirth", json!({"state": state, "millis": 101})),
            ("hirth", json!({"state": state, "playouts": 500})),
        ],
    )
    .await;
    let problem = answers[0].problem(422, "budget_too_large");
    assert_eq!(problem["field"], "playouts");
    assert!(
        problem["detail"].as_str().unwrap().contains("500"),
        "{problem}"
    );
    let problem = answers[1].problem(422, "budget_too_large");
    assert_eq!(problem["field"], "millis");
    assert!(
        problem["detail"].as_str().unwrap().contains("100"),
        "{problem}"
    );
    assert_eq!(answers[2].ok()["playouts"], 500);
}

#[actix_web::test]
async fn a_full_concurrency_limit_is_503_overloaded_with_retry_after() {
    let computer = Computer::new(AiConfig {
        max_evaluations: 1,
        ..AiConfig::default()
    });
    let state = new_state("herfor").await;
    let request = json!({"state": state, "playouts": 10});
    // A search holds the only permit.
    let held = computer.api().pool().try_acquire().expect("a free permit");
    let answers = evaluate_all(&computer, &[("herfor", request.clone())]).await;
    answers[0].problem(503, "overloaded");
    // Truthful: every running search ends within the wall-clock cap (2.5 s by default).
    assert_eq!(answers[0].retry_after.as_deref(), Some("3"));
    drop(held);
    let answers = evaluate_all(&computer, &[("herfor", request)]).await;
    answers[0].ok();
}

#[actix_web::test]
async fn an_evaluation_waits_its_turn_and_is_answered_once_a_permit_frees() {
    let computer = Computer::new(AiConfig {
        max_evaluations: 1,
        ..AiConfig::default()
    });
    let state = new_state("herfor").await;
    let held = computer.api().pool().try_acquire().expect("a free permit");
    let waiting = {
        let computer = computer.clone();
        let request = json!({"state": state, "playouts": 10});
        actix_web::rt::spawn(async move { evaluate_all(&computer, &[("herfor", request)]).await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(computer.api().pool().waiting(), 1, "in line, not refused");
    drop(held);
    let answers = waiting.await.expect("the request ends");
    assert_eq!(answers[0].ok()["playouts"], 10);
    assert_eq!(computer.api().pool().refused(), 0);
}

#[actix_web::test]
async fn a_strength_over_the_playout_cap_names_the_strength_field_not_playouts() {
    let computer = Computer::new(AiConfig {
        max_playouts: 500,
        ..AiConfig::default()
    });
    let state = new_state("herfor").await;
    let answers = evaluate_all(
        &computer,
        &[
            ("herfor", json!({"state": state, "strength": "strong"})),
            // No budget at all is the normal strength, which is over this cap too.
            ("herfor", json!({"state": state})),
        ],
    )
    .await;
    let problem = answers[0].problem(422, "budget_too_large");
    assert_eq!(problem["field"], "strength");
    assert_eq!(
        problem["detail"],
        "strength: strong is 20000 playouts, over this server's cap of 500"
    );
    let problem = answers[1].problem(422, "budget_too_large");
    assert_eq!(problem["field"], "strength");
    assert_eq!(
        problem["detail"],
        "strength: normal is 600 playouts, over this server's cap of 500"
    );
}

#[actix_web::test]
async fn with_max_evaluations_0_evaluate_is_501_evaluate_off_not_503_retry() {
    let computer = Computer::new(AiConfig {
        max_evaluations: 0,
        ..AiConfig::default()
    });
    let state = new_state("herfor").await;
    let answers = evaluate_all(
        &computer,
        &[("herfor", json!({"state": state, "playouts": 10}))],
    )
    .await;
    let problem = answers[0].problem(501, "evaluate_off");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("--max-evaluations 0"),
        "{problem}"
    );
    assert_eq!(answers[0].retry_after, None, "retrying would not help");
}

#[actix_web::test]
async fn a_budget_beyond_u32_is_422_budget_too_large_with_the_cap_not_expected_u32() {
    let state = new_state("herfor").await;
    let answer = post_json(
        &endpoint("herfor", "evaluate"),
        &json!({"state": state, "playouts": 4_294_967_296_u64}),
    )
    .await;
    let problem = answer.problem(422, "budget_too_large");
    assert_eq!(problem["field"], "playouts");
    assert_eq!(
        problem["detail"],
        format!(
            "playouts: 4294967296 is over this server's cap of {}",
            AiConfig::default().max_playouts
        )
    );
}
