//! The API's endpoints answering well-formed requests: every game in the registry goes through
//! new → legal-moves → apply → score → replay, plus the service's own routes.

use moot::games::{GAME_IDS, Game};
use serde_json::{Value, json};

use crate::common::{endpoint, first_moves, get, herfor_after_c3, new_state, post_json, post_raw};

#[actix_web::test]
async fn healthz_answers_ok() {
    let answer = get("/healthz").await;
    assert_eq!(answer.ok(), &json!({"status": "ok"}));
}

#[actix_web::test]
async fn games_lists_every_registered_game_with_its_default_options() {
    let answer = get("/api/v1/games").await;
    let games = answer.ok()["games"].as_array().expect("a list of games");
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, GAME_IDS);
    for (game, info) in games.iter().zip(moot::games::all_games()) {
        assert_eq!(game["name"], info.name);
        assert_eq!(game["default_options"], info.default_options);
        assert_eq!(game["rules_url"], format!("/rules/{}", info.id));
        let names: Vec<&str> = game["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        let defaults: Vec<&str> = info
            .default_options
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(names, defaults, "{}: every option is listed", info.id);
    }
}

#[actix_web::test]
async fn new_with_an_empty_body_starts_with_the_default_options() {
    for game in GAME_IDS {
        let empty = post_raw(&endpoint(game, "new"), None, "").await;
        let defaults = post_json(&endpoint(game, "new"), &json!({"options": {}})).await;
        assert_eq!(empty.ok(), defaults.ok(), "{game}");
        assert_eq!(empty.body["status"]["phase"], "ongoing", "{game}");
        assert_eq!(empty.body["status"]["to_act"], "first", "{game}");
    }
}

/// Every game: start, list the moves, play the first one, score, and replay the same moves both
/// as a list and as the record the replay wrote, landing on the same state each way.
#[actix_web::test]
async fn every_game_round_trips_new_legal_moves_apply_score_replay() {
    for game in GAME_IDS {
        let state = new_state(game).await;

        let legal = post_json(&endpoint(game, "legal-moves"), &json!({"state": state})).await;
        let moves = legal.ok()["moves"].as_array().expect("moves").clone();
        assert!(!moves.is_empty(), "{game}: the first player has a move");
        assert_eq!(legal.body["status"]["to_act"], "first", "{game}");

        let first = moves[0].as_str().unwrap();
        let applied = post_json(
            &endpoint(game, "apply"),
            &json!({"state": state, "move": first}),
        )
        .await;
        let applied = applied.ok();
        assert_ne!(
            applied["state"], state,
            "{game}: the move changed the state"
        );
        assert_eq!(applied["plies"].as_array().unwrap().len(), 1);
        assert_eq!(
            applied["plies"][0]["move"], first,
            "{game}: notation round-trips"
        );
        assert_eq!(applied["plies"][0]["status"], applied["status"]);
        assert!(applied["plies"][0]["events"].is_array());

        let score = post_json(
            &endpoint(game, "score"),
            &json!({"state": applied["state"]}),
        )
        .await;
        assert!(!score.ok()["score"].is_null(), "{game}");
        assert_eq!(score.body["status"], applied["status"]);

        let replayed = post_json(&endpoint(game, "replay"), &json!({"moves": [first]})).await;
        let replayed = replayed.ok();
        assert_eq!(replayed["state"], applied["state"], "{game}");
        assert_eq!(replayed["plies"], applied["plies"], "{game}");
        assert_eq!(replayed["warnings"], json!([]));

        // A record reads back to itself. It holds the whole game where the record is the list
        // of moves; a game with a format of its own may record complete turns only (Hirþ, H12).
        let from_record = post_json(
            &endpoint(game, "replay"),
            &json!({"record": replayed["record"]}),
        )
        .await;
        assert_eq!(from_record.ok()["record"], replayed["record"], "{game}");
        if !has_own_record_format(game) {
            assert_eq!(replayed["record"], first, "{game}");
            assert_eq!(from_record.body["state"], applied["state"], "{game}");
        }
    }
}

/// Whether the game writes records in a format of its own rather than as the list of moves.
fn has_own_record_format(game: &str) -> bool {
    moot::with_game!(game, G => {
        let state = G::new_game(&Default::default()).unwrap();
        G::write_record(&state).is_some()
    }, else unreachable!())
}

#[actix_web::test]
async fn apply_plays_a_list_of_moves_in_order_like_one_at_a_time() {
    for game in GAME_IDS {
        let (moves, after) = first_moves(game, 4).await;
        let start = new_state(game).await;
        let answer = post_json(
            &endpoint(game, "apply"),
            &json!({"state": start, "moves": moves}),
        )
        .await;
        assert_eq!(answer.ok()["state"], after, "{game}");
        let plies: Vec<Value> = answer.body["plies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["move"].clone())
            .collect();
        assert_eq!(
            plies,
            moves.iter().map(|m| json!(m)).collect::<Vec<_>>(),
            "{game}"
        );
    }
}

#[actix_web::test]
async fn replay_of_a_whitespace_and_comma_record_matches_the_moves() {
    for game in GAME_IDS.iter().filter(|game| !has_own_record_format(game)) {
        let (moves, after) = first_moves(game, 3).await;
        let record = moves.join(",\n");
        let answer = post_json(&endpoint(game, "replay"), &json!({"record": record})).await;
        assert_eq!(answer.ok()["state"], after, "{game}");
        assert_eq!(answer.body["plies"].as_array().unwrap().len(), moves.len());
    }
}

#[actix_web::test]
async fn herfor_new_takes_partial_options_and_defaults_the_rest() {
    let answer = post_json(&endpoint("herfor", "new"), &json!({"options": {"size": 3}})).await;
    let options = &answer.ok()["state"]["options"];
    assert_eq!(options["size"], 3);
    assert_eq!(options["pie"], true, "the pie rule is on by default (F5)");
    let legal = post_json(
        &endpoint("herfor", "legal-moves"),
        &json!({"state": answer.body["state"]}),
    )
    .await;
    assert_eq!(
        legal.ok()["moves"].as_array().unwrap().len(),
        19,
        "a size-3 board has 19 points (F1)"
    );
}

#[actix_web::test]
async fn herfor_score_counts_stones_on_the_board() {
    let after = herfor_after_c3().await;
    let score = post_json(&endpoint("herfor", "score"), &json!({"state": after})).await;
    assert_eq!(score.ok()["score"]["black_stones"], 1, "{}", score.body);
    assert_eq!(score.body["score"]["white_stones"], 0);
    assert_eq!(score.body["status"]["colour"], "white");
}

#[actix_web::test]
async fn home_page_lists_the_games_and_links_rules_and_docs() {
    let answer = get("/").await;
    assert_eq!(answer.status, 200);
    assert!(answer.content_type.starts_with("text/html"));
    let page = answer.body.as_str().unwrap();
    for game in moot::games::all_games() {
        assert!(
            page.contains(&format!(r#"href="/rules/{}""#, game.id)),
            "{}",
            game.id
        );
        assert!(page.contains(&format!("<h3>{}</h3>", game.name)));
        for option in game.default_options.as_object().unwrap().keys() {
            assert!(page.contains(&format!("<code>{option}</code>")), "{option}");
        }
    }
    assert!(page.contains(r#"href="/docs/""#));
    assert!(page.contains(r#"href="/static/moot.css""#));
}

#[actix_web::test]
async fn stylesheet_is_served_from_the_binary() {
    let answer = get("/static/moot.css").await;
    assert_eq!(answer.status, 200);
    assert!(answer.content_type.starts_with("text/css"));
    assert_eq!(answer.body.as_str().unwrap(), moot::site::MOOT_CSS);
}

#[actix_web::test]
async fn docs_redirects_to_swagger_ui_which_loads_the_openapi_document() {
    let redirect = get("/docs").await;
    assert_eq!(redirect.status, 308);
    assert_eq!(redirect.location.as_deref(), Some("/docs/"));
    let ui = get("/docs/").await;
    assert_eq!(ui.status, 200);
    let page = ui.body.as_str().unwrap();
    // Moot's page around Swagger UI: a phone's viewport, a main landmark, its colours.
    for part in [
        r#"<meta name="viewport""#,
        r#"<main id="swagger-ui"></main>"#,
        r#"<link rel="stylesheet" href="./moot.css">"#,
        r#"<script src="./swagger-ui-bundle.js""#,
    ] {
        assert!(page.contains(part), "{part}: {page}");
    }
    for (file, kind) in [
        ("moot.css", "text/css"),
        ("moot.js", "text/javascript"),
        ("swagger-ui.css", "text/css"),
    ] {
        let answer = get(&format!("/docs/{file}")).await;
        assert_eq!(answer.status, 200, "{file}");
        assert!(
            answer.content_type.starts_with(kind),
            "{file}: {}",
            answer.content_type
        );
    }
    let config = get("/docs/swagger-initializer.js").await;
    let config = config.body.as_str().unwrap();
    for setting in [
        "/api-docs/openapi.json",
        r#""deepLinking": false"#,
        r#""layout": "BaseLayout""#,
    ] {
        assert!(config.contains(setting), "{setting}: {config}");
    }
    let document = get("/api-docs/openapi.json").await;
    assert_eq!(document.ok()["info"]["title"], "Moot");
}

/// Every game's events are told apart by `type`; Tara's and Hirþ's, tagged `event` before,
/// still carry `event` with the same value (deprecated), Herfor's never had it.
#[actix_web::test]
async fn every_games_events_are_tagged_type_and_the_former_event_tag_stays_beside_it() {
    for (game, plies) in [("herfor", 1), ("tara", 2), ("hirth", 1)] {
        let (moves, _) = crate::common::first_moves(game, plies).await;
        let answer = crate::common::post_json(
            &crate::common::endpoint(game, "replay"),
            &serde_json::json!({"moves": moves}),
        )
        .await;
        let events: Vec<serde_json::Value> = answer.ok()["plies"]
            .as_array()
            .expect("plies")
            .iter()
            .flat_map(|ply| ply["events"].as_array().cloned().unwrap_or_default())
            .collect();
        assert!(!events.is_empty(), "{game}: some events");
        for event in events {
            let tag = event["type"]
                .as_str()
                .unwrap_or_else(|| panic!("{game}: {event}"));
            match game {
                "herfor" => assert!(event.get("event").is_none(), "{event}"),
                _ => assert_eq!(event["event"], tag, "{game}: {event}"),
            }
        }
    }
}
