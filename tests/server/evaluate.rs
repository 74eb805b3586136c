//! `POST /api/v1/games/{game}/evaluate`: the answer's shape in every game, determinism, the
//! budgets, the cache. (Its errors `budget_too_large` and `overloaded` are in `errors.rs`.)

use moot::games::GAME_IDS;
use moot::{AiConfig, Computer};
use serde_json::{Value, json};

use crate::common::{
    self, applied, endpoint, evaluate_all, first_moves_from, herfor_small, new_state,
    new_state_with, post_json,
};

#[actix_web::test]
async fn every_game_answers_value_best_move_pv_and_every_legal_move() {
    for game in GAME_IDS {
        let state = new_state(game).await;
        let legal = post_json(&endpoint(game, "legal-moves"), &json!({ "state": state })).await;
        let legal = legal.ok()["moves"].as_array().unwrap().clone();
        let answer = post_json(
            &endpoint(game, "evaluate"),
            &json!({"state": state, "playouts": 200, "seed": 3}),
        )
        .await;
        let body = answer.ok();
        let value = body["value"].as_f64().unwrap();
        assert!((-1.0..=1.0).contains(&value), "{game}: {body}");
        assert_eq!(body["playouts"], 200, "{game}");
        assert!(body["elapsed_ms"].as_f64().unwrap() >= 0.0);
        assert_eq!(body["cached"], false);
        assert_eq!(body["status"]["phase"], "ongoing");
        let best = body["best_move"].as_str().unwrap();
        assert!(legal.iter().any(|m| m == best), "{game}: {best} is legal");
        assert_eq!(
            body["pv"][0], best,
            "{game}: the pv starts with the best move"
        );
        let moves = body["moves"].as_array().unwrap();
        assert_eq!(moves.len(), legal.len(), "{game}: every legal move");
        let visits: u64 = moves.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
        assert_eq!(visits, 200, "{game}");
        assert!(
            moves
                .iter()
                .all(|m| m["move"].is_string() && m["value"].is_number())
        );
        // Only Herfor has a stone margin.
        assert_eq!(
            body["margin"].is_number(),
            *game == "herfor",
            "{game}: {body}"
        );
    }
}

#[actix_web::test]
async fn the_same_state_playouts_and_seed_give_the_same_answer() {
    let state = new_state("tara").await;
    let request = json!({"state": state, "playouts": 300, "seed": 11});
    // Two apps, so the second answer is searched again, not read from the cache.
    let first = post_json(&endpoint("tara", "evaluate"), &request).await;
    let second = post_json(&endpoint("tara", "evaluate"), &request).await;
    let strip = |a: &common::Answer| {
        let mut body = a.ok().clone();
        body["elapsed_ms"] = Value::Null;
        body
    };
    assert_eq!(second.body["cached"], false);
    assert_eq!(strip(&first), strip(&second));
}

#[actix_web::test]
async fn a_repeated_request_is_answered_from_the_cache() {
    let computer = Computer::new(AiConfig::default());
    let state = new_state("herfor").await;
    let request = json!({"state": state, "playouts": 100, "seed": 2});
    let answers = evaluate_all(
        &computer,
        &[("herfor", request.clone()), ("herfor", request.clone())],
    )
    .await;
    assert_eq!(answers[0].ok()["cached"], false);
    assert_eq!(answers[1].ok()["cached"], true);
    assert_eq!(answers[0].body["best_move"], answers[1].body["best_move"]);
    assert_eq!(answers[0].body["elapsed_ms"], answers[1].body["elapsed_ms"]);
    assert_eq!(computer.api().cached(), 1);
}

#[actix_web::test]
async fn time_budgets_are_searched_every_time_and_never_cached() {
    let computer = Computer::new(AiConfig::default());
    let state = new_state("herfor").await;
    let request = json!({"state": state, "millis": 20});
    let answers = evaluate_all(
        &computer,
        &[("herfor", request.clone()), ("herfor", request)],
    )
    .await;
    assert_eq!(answers[1].ok()["cached"], false);
    assert!(answers[0].ok()["playouts"].as_u64().unwrap() > 0);
    assert_eq!(computer.api().cached(), 0);
}

#[actix_web::test]
async fn the_cache_keeps_at_most_its_bound() {
    let computer = Computer::new(AiConfig {
        cache_entries: 2,
        ..AiConfig::default()
    });
    let state = new_state("herfor").await;
    let bodies: Vec<_> = (0..4)
        .map(|seed| {
            (
                "herfor",
                json!({"state": state, "playouts": 20, "seed": seed}),
            )
        })
        .collect();
    for answer in evaluate_all(&computer, &bodies).await {
        answer.ok();
    }
    assert_eq!(computer.api().cached(), 2);
}

#[actix_web::test]
async fn budgets_that_are_zero_doubled_or_unknown_are_422_invalid_request() {
    let state = new_state("herfor").await;
    let url = endpoint("herfor", "evaluate");
    let zero = post_json(&url, &json!({"state": state, "playouts": 0})).await;
    zero.unprocessable("invalid_request", "playouts");
    let both = post_json(&url, &json!({"state": state, "playouts": 10, "millis": 10})).await;
    both.problem(422, "invalid_request");
    let strength = post_json(&url, &json!({"state": state, "strength": "godlike"})).await;
    strength.unprocessable("invalid_request", "strength");
    let negative = post_json(&url, &json!({"state": state, "playouts": -1})).await;
    negative.unprocessable("invalid_request", "playouts");
}

#[actix_web::test]
async fn a_strength_or_no_budget_uses_the_strength_budget() {
    let state = new_state("herfor").await;
    let url = endpoint("herfor", "evaluate");
    let easy = post_json(&url, &json!({"state": state, "strength": "easy"})).await;
    let moot::ai::Budget::Playouts(n) =
        moot::ai::Strength::Easy.budget::<moot::games::herfor::Herfor>()
    else {
        panic!("strengths use playouts");
    };
    assert_eq!(easy.ok()["playouts"], n);
    let default = post_json(&url, &json!({"state": state})).await;
    let moot::ai::Budget::Playouts(n) =
        moot::ai::Strength::Normal.budget::<moot::games::herfor::Herfor>()
    else {
        panic!("strengths use playouts");
    };
    assert_eq!(default.ok()["playouts"], n);
}

#[actix_web::test]
async fn an_invalid_state_is_422_invalid_state_with_its_path() {
    let mut state = new_state("herfor").await;
    state["black"] = json!(["zz9"]);
    let answer = post_json(
        &endpoint("herfor", "evaluate"),
        &json!({"state": state, "playouts": 10}),
    )
    .await;
    answer.unprocessable("invalid_state", "state.black[0]");
}

#[actix_web::test]
async fn a_finished_game_has_a_value_and_no_best_move() {
    // Herfor on the smallest board: both players pass once the board is full.
    let mut state = herfor_small().await;
    loop {
        let analysis = post_json(
            &endpoint("herfor", "evaluate"),
            &json!({"state": state, "playouts": 20}),
        )
        .await;
        let body = analysis.ok().clone();
        let Some(best) = body["best_move"].as_str() else {
            assert_eq!(body["status"]["phase"], "finished");
            assert!(body["pv"].as_array().unwrap().is_empty());
            assert_eq!(body["playouts"], 0);
            assert!(body["value"].as_f64().unwrap().abs() == 1.0, "{body}");
            break;
        };
        state = applied("herfor", &state, best).await;
    }
}

#[actix_web::test]
async fn a_hirth_record_is_left_out_of_the_search_so_its_key_stays_small_and_cached() {
    let computer = Computer::new(AiConfig::default());
    let mut state = new_state("hirth").await;
    // The record is history (turns without steps, the round to match): near the body limit,
    // 1,024 keys holding it would take 1 GB.
    let mut record = String::new();
    let mut round = 1;
    while record.len() <= moot::api::evaluate::MAX_CACHED_STATE_BYTES {
        record.push_str(&format!("G{round} / /\nS{round} / /\n"));
        round += 1;
    }
    state["record"] = json!(record);
    state["round"] = json!(round);
    let request = json!({"state": state, "playouts": 10});
    let answers = evaluate_all(&computer, &[("hirth", request.clone()), ("hirth", request)]).await;
    assert_eq!(answers[0].ok()["playouts"], 10);
    assert_eq!(answers[1].ok()["cached"], true);
    assert_eq!(computer.api().cached(), 1);
}

#[test]
fn capped_cuts_a_budget_down_to_the_servers_caps_and_keeps_one_within_them() {
    use moot::ai::Budget;
    let computer = Computer::new(AiConfig {
        max_playouts: 10,
        max_millis: 5,
        ..AiConfig::default()
    });
    assert_eq!(
        computer.config().capped(Budget::Playouts(5_000)),
        Budget::Playouts(10)
    );
    assert_eq!(
        computer.config().capped(Budget::Playouts(7)),
        Budget::Playouts(7)
    );
    assert_eq!(
        computer.config().capped(Budget::Millis(2_000)),
        Budget::Millis(5)
    );
}

async fn size_3_start(pie: bool) -> Value {
    new_state_with("herfor", json!({"size": 3, "pie": pie})).await
}

/// `state` after `plies` more moves, each the first legal one.
async fn played_on(state: Value, plies: usize) -> Value {
    let (played, state) = first_moves_from("herfor", state, plies).await;
    assert_eq!(played.len(), plies, "the game ended first: {state}");
    state
}

#[actix_web::test]
async fn f4_herfor_size_3_is_answered_exactly_as_the_solver_proves() {
    use moot::ai::solver::Solver;
    use moot::games::Game;
    use moot::games::herfor::{Herfor, HerforState};
    for (pie, plies) in [(false, 8), (true, 7), (false, 11)] {
        let state = played_on(size_3_start(pie).await, plies).await;
        let answer = post_json(
            &endpoint("herfor", "evaluate"),
            &json!({"state": state, "playouts": 50, "seed": 4}),
        )
        .await;
        let body = answer.ok();
        assert_eq!(body["exact"], true, "{body}");
        let engine: HerforState = serde_json::from_value(state.clone()).unwrap();
        let proof = Solver::new().solve(&engine).expect("the game goes on");
        assert_eq!(body["value"], if proof.wins { 1.0 } else { -1.0 }, "{body}");
        let mut best: Vec<String> = body["best_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        best.sort();
        let mut proven: Vec<String> = proof
            .best
            .iter()
            .map(|mv| Herfor::format_move(&engine, mv))
            .collect();
        proven.sort();
        assert_eq!(best, proven);
        let best_move = body["best_move"].as_str().unwrap().to_owned();
        assert!(best.contains(&best_move), "{body}");
        assert_eq!(body["pv"][0], best_move.as_str());
        assert_eq!(body["playouts"], 0);
        assert!(body["margin"].is_null());
        for m in body["moves"].as_array().unwrap() {
            let wins = proof.wins && best.iter().any(|b| m["move"] == b.as_str());
            assert_eq!(m["value"], if wins { 1.0 } else { -1.0 }, "{m}");
        }
        // `perfect` gives the same proof.
        let perfect = post_json(
            &endpoint("herfor", "evaluate"),
            &json!({"state": state, "strength": "perfect", "seed": 4}),
        )
        .await;
        assert_eq!(perfect.ok()["exact"], true);
        assert_eq!(perfect.ok()["best_moves"], body["best_moves"]);
    }
}

#[actix_web::test]
async fn f4_the_empty_size_3_board_is_answered_exactly_from_the_book() {
    // Its proof alone settles 11 million positions, over a request's million: the opening
    // book answers it. Plain rules: the first player wins by a corner or the centre; with the
    // pie rule every first stone loses.
    for (pie, winning) in [
        (false, vec!["a1", "a3", "c1", "c3", "c5", "e1", "e3"]),
        (true, vec![]),
    ] {
        let state = size_3_start(pie).await;
        let answer = post_json(
            &endpoint("herfor", "evaluate"),
            &json!({"state": state, "strength": "perfect"}),
        )
        .await;
        let body = answer.ok();
        assert_eq!(body["exact"], true, "{body}");
        assert_eq!(body["playouts"], 0, "{body}");
        let value = if winning.is_empty() { -1.0 } else { 1.0 };
        assert_eq!(body["value"], value, "{body}");
        let mut won: Vec<&str> = body["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["value"] == 1.0)
            .map(|m| m["move"].as_str().unwrap())
            .collect();
        won.sort();
        assert_eq!(won, winning, "pie {pie}: {body}");
        if !winning.is_empty() {
            let mut best: Vec<&str> = body["best_moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            best.sort();
            assert_eq!(best, winning, "{body}");
        }
    }
}

#[actix_web::test]
async fn perfect_is_refused_where_the_game_is_not_solved() {
    for game in ["herfor", "tara", "hirth"] {
        let state = new_state(game).await;
        let answer = post_json(
            &endpoint(game, "evaluate"),
            &json!({"state": state, "strength": "perfect"}),
        )
        .await;
        let problem = answer.problem(422, "invalid_request");
        assert_eq!(problem["field"], "strength", "{game}");
        assert!(
            problem["detail"].as_str().unwrap().contains("solved"),
            "{game}: {problem}"
        );
    }
}

#[actix_web::test]
async fn search_answers_are_not_marked_exact() {
    let state = new_state("herfor").await;
    let answer = post_json(
        &endpoint("herfor", "evaluate"),
        &json!({"state": state, "playouts": 30}),
    )
    .await;
    let body = answer.ok();
    assert!(body.get("exact").is_none(), "{body}");
    assert!(body.get("best_moves").is_none(), "{body}");
}

#[actix_web::test]
async fn h11_evaluate_gives_up_where_playing_on_loses_more() {
    // Silfr's Lofðungr trapped on Miðr, Gull has offered: a Drepið at double stake ahead.
    let state = json!({"version":1,"options":{"target":5},
        "position":{"board":{"0":{"gull":{"l":true}},"3":{"gull":{"h":2}},"4":{"gull":{"h":1}},
            "5":{"gull":{"h":1}},"6":{"gull":{"h":1}},"m":{"silfr":{"l":true}},"9":{"silfr":{"h":2}}},
          "reserve":{"gull":{"h":10,"k":3},"silfr":{"h":13,"k":3}},"removed":{"gull":0,"silfr":0},
          "mover":"gull","steps":0},
        "phase":{"kind":"offer"},"coin":{"factor":1,"holder":null},"gull":"first",
        "points":[0,0],"round":9});
    let answer = post_json(
        &endpoint("hirth", "evaluate"),
        &json!({"state": state, "strength": "normal", "seed": 7}),
    )
    .await;
    assert_eq!(answer.ok()["best_move"], "give-up", "{}", answer.ok());
}

/// The member `name`'s value as the documented answer writes it (`"best_move": "d2"` → `"d2"`).
fn documented<'a>(answer: &'a str, name: &str) -> &'a str {
    let key = format!("\"{name}\": ");
    let start = answer
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {answer}"))
        + key.len();
    let rest = &answer[start..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim()
}

#[actix_web::test]
async fn the_documented_evaluate_example_is_what_the_server_answers() {
    let page = include_str!("../../docs/api.md");
    let section = page
        .split("## Evaluate: the computer player")
        .nth(1)
        .and_then(|rest| rest.split("```sh\n").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("docs/api.md shows an evaluate example");
    let options: Value = section
        .split("-d '")
        .nth(1)
        .and_then(|rest| rest.split('\'').next())
        .and_then(|text| serde_json::from_str(text).ok())
        .expect("the example starts a game with options");
    let answer: String = section
        .split("# → ")
        .nth(1)
        .expect("the example shows the answer")
        .lines()
        .map(|line| line.trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join(" ");
    let state = common::post_json(&endpoint("herfor", "new"), &options).await;
    let state = state.ok()["state"].clone();
    let body = post_json(
        &endpoint("herfor", "evaluate"),
        &json!({"state": state, "playouts": 2000, "seed": 1}),
    )
    .await;
    let body = body.ok();
    assert!(
        section.contains(r#"\"playouts\": 2000, \"seed\": 1"#),
        "the test asks what the example asks: {section}"
    );
    // Not a solved board: a search's answer, with Herfor's margin.
    assert!(body.get("exact").is_none_or(|e| e == false), "{body}");
    assert_eq!(
        documented(&answer, "best_move"),
        body["best_move"].to_string()
    );
    assert_eq!(
        documented(&answer, "playouts"),
        body["playouts"].to_string()
    );
    for name in ["value", "margin"] {
        let shown: f64 = documented(&answer, name).parse().expect("a number");
        let real = body[name].as_f64().expect("a number");
        assert!(
            (shown - real).abs() < 0.005,
            "{name}: shown {shown}, answered {real}"
        );
    }
    assert!(!answer.contains("\"exact\""), "{answer}");
}
