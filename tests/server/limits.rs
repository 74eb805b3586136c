//! The bounds on one request: moves per request, the per-ply list left out, input
//! echoed only as an excerpt, the body's deadline, the clients' shares of the computer player,
//! the wall-clock cap and the search root without Hirþ's history.

use std::pin::Pin;
use std::time::Duration;

use actix_web::dev::Service;
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::test::{self, TestRequest};
use actix_web::web::Bytes;
use futures_util::Stream;
use moot::limits::{EXCERPT_CHARS, MAX_MOVES, MAX_RECORD_WORDS};
use moot::{AiConfig, Computer};
use serde_json::{Value, json};

use crate::common::{self, answer_of, endpoint, evaluate_all, new_state, post_json, post_raw};

#[actix_web::test]
async fn more_moves_than_the_cap_are_refused_before_any_is_played() {
    let state = new_state("hirth").await;
    let too_many = vec!["end"; MAX_MOVES + 1];
    let answer = post_json(
        &endpoint("hirth", "apply"),
        &json!({"state": state, "moves": too_many}),
    )
    .await;
    let problem = answer.problem(422, "too_many_moves");
    assert_eq!(problem["field"], "moves");
    assert!(problem["detail"].as_str().unwrap().contains("5000"));
    let answer = post_json(&endpoint("hirth", "replay"), &json!({"moves": too_many})).await;
    answer.unprocessable("too_many_moves", "moves");
}

#[actix_web::test]
async fn a_record_of_more_words_than_any_capped_game_is_refused_unread() {
    let record = "end ".repeat(MAX_RECORD_WORDS + 1);
    let answer = post_json(&endpoint("herfor", "replay"), &json!({"record": record})).await;
    answer.unprocessable("too_many_moves", "record");
}

#[actix_web::test]
async fn the_cap_itself_is_played_and_the_plies_can_be_left_out() {
    let moves = vec!["end"; MAX_MOVES];
    let answer = post_json(
        &endpoint("hirth", "replay"),
        &json!({"moves": moves, "plies": false}),
    )
    .await;
    let body = answer.ok();
    assert_eq!(body["plies"], json!([]));
    assert!(
        !body["record"].as_str().unwrap().is_empty(),
        "{}",
        body["record"]
    );
    let answer = post_json(
        &endpoint("hirth", "replay"),
        &json!({"moves": ["end", "end"]}),
    )
    .await;
    assert_eq!(answer.ok()["plies"].as_array().unwrap().len(), 2);
    let state = new_state("herfor").await;
    let answer = post_json(
        &endpoint("herfor", "apply"),
        &json!({"state": state, "moves": ["c3"], "plies": false}),
    )
    .await;
    let body = answer.ok();
    assert_eq!(body["plies"], json!([]));
    assert_eq!(
        body["state"]["black"].as_array().unwrap().len(),
        1,
        "{body}"
    );
}

#[actix_web::test]
async fn the_openapi_document_states_the_cap() {
    let document = serde_json::to_value(moot::openapi()).unwrap();
    for schema in ["ApplyRequest", "ReplayRequest"] {
        let moves = &document["components"]["schemas"][schema]["properties"]["moves"];
        assert_eq!(moves["maxItems"], MAX_MOVES, "{schema}: {moves}");
    }
}

/// A problem body stays small whatever the client sent.
fn small(answer: &common::Answer) -> usize {
    let size = answer.body.to_string().len();
    assert!(size < 2_000, "{size} bytes: {}", answer.body);
    size
}

#[actix_web::test]
async fn a_megabyte_move_is_echoed_as_an_excerpt() {
    let state = new_state("herfor").await;
    let huge = "x".repeat(1_000_000);
    let answer = post_json(
        &endpoint("herfor", "apply"),
        &json!({"state": state, "move": huge}),
    )
    .await;
    let problem = answer.problem(422, "unreadable_move");
    small(&answer);
    let echoed = problem["move"].as_str().unwrap();
    assert_eq!(echoed.chars().count(), EXCERPT_CHARS);
    assert!(echoed.ends_with('…'));
    let answer = post_json(
        &endpoint("herfor", "apply"),
        &json!({"state": state, "moves": ["c3", huge]}),
    )
    .await;
    assert_eq!(answer.problem(422, "unreadable_move")["index"], 1);
    small(&answer);
}

#[actix_web::test]
async fn huge_records_options_and_unknown_members_are_echoed_as_excerpts() {
    let huge = "y".repeat(900_000);
    let cases: Vec<(&str, Value, &str)> = vec![
        ("replay", json!({"record": huge}), "invalid_record"),
        ("new", json!({"options": {"size": huge}}), "invalid_options"),
        ("new", json!({ huge.clone(): 1 }), "invalid_request"),
        (
            "new",
            json!({"options": { huge.clone(): 1 }}),
            "invalid_options",
        ),
    ];
    for (operation, body, code) in cases {
        let answer = post_json(&endpoint("herfor", operation), &body).await;
        answer.problem(422, code);
        small(&answer);
    }
}

#[actix_web::test]
async fn a_page_link_over_the_cap_or_a_huge_typed_move_gets_a_small_page() {
    let typed = "z".repeat(50_000);
    let answer = common::get(&format!(
        "/play/herfor?pie=false&simple=false&size=3&moves=c3&play={typed}"
    ))
    .await;
    assert_eq!(answer.status.as_u16(), 422);
    let html = answer.body.as_str().unwrap();
    assert!(html.len() < 20_000, "{} bytes", html.len());
    assert!(html.contains('…'));
}

type Chunks = Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>>;

#[actix_web::test]
async fn a_body_that_never_arrives_is_cut_off_with_408() {
    let app = test::init_service(
        moot::app().app_data(moot::api::body::BodyDeadline(Duration::from_millis(50))),
    )
    .await;
    let request = TestRequest::post()
        .uri(&endpoint("herfor", "legal-moves"))
        .insert_header((header::CONTENT_TYPE, "application/json"))
        .insert_header((header::CONTENT_LENGTH, "100"))
        .to_request();
    // The head says 100 bytes; not one comes.
    let never: Chunks = Box::pin(futures_util::stream::pending());
    let (request, _) = request.replace_payload(actix_web::dev::Payload::from(never));
    let answer = answer_of(app.call(request).await.expect("the app answers")).await;
    answer.problem(408, "request_timeout");
}

#[actix_web::test]
async fn a_body_in_time_is_read_as_before() {
    let answer = post_raw(
        &endpoint("herfor", "new"),
        Some("application/json"),
        r#"{"options": {"size": 3}}"#,
    )
    .await;
    answer.ok();
}

/// `{"x":[{"":0},{"":0},…]}` of about `bytes`: tiny objects that cost far more parsed than sent.
fn tiny_objects(bytes: usize) -> String {
    let count = bytes / 7;
    format!(r#"{{"x":[{}]}}"#, vec![r#"{"":0}"#; count].join(","))
}

#[actix_web::test]
async fn a_megabyte_of_tiny_objects_is_refused_before_it_is_parsed() {
    for operation in ["legal-moves", "score", "new", "apply"] {
        let body = tiny_objects(1_000_000);
        let answer = post_raw(
            &endpoint("herfor", operation),
            Some("application/json"),
            body,
        )
        .await;
        answer.problem(413, "payload_too_large");
        let detail = answer.body["detail"].as_str().expect("a detail");
        assert!(
            detail.contains("more than 4096 objects and arrays"),
            "{operation}: {detail}"
        );
    }
}

#[actix_web::test]
async fn nesting_deeper_than_the_bound_is_refused_naming_where() {
    let body = format!(r#"{{"state": {}{}}}"#, "[".repeat(100), "]".repeat(100));
    let answer = post_raw(&endpoint("tara", "score"), Some("application/json"), body).await;
    answer.problem(413, "payload_too_large");
    let detail = answer.body["detail"].as_str().expect("a detail");
    assert!(
        detail.contains("more than 32 deep (at state[0]"),
        "{detail}"
    );
}

#[actix_web::test]
async fn a_member_named_twice_is_refused_naming_it_and_its_path() {
    let answer = post_raw(
        &endpoint("herfor", "new"),
        Some("application/json"),
        r#"{"options": {"size": 3, "size": 5}}"#,
    )
    .await;
    answer.problem(422, "invalid_request");
    assert_eq!(answer.body["field"], "options.size", "{}", answer.body);
    assert!(
        answer.body["detail"]
            .as_str()
            .expect("a detail")
            .contains("named twice")
    );
}

#[actix_web::test]
async fn a_large_body_is_answered_by_every_endpoint_from_the_blocking_pool() {
    let state = new_state("herfor").await;
    // Spaces make the body large without making it costly: over 16 KiB, it is decoded off
    // the workers, and the operation runs there too.
    let padded = |body: Value| format!("{body}{}", " ".repeat(20_000));
    for (operation, body) in [
        ("legal-moves", json!({ "state": state })),
        ("score", json!({ "state": state })),
        ("new", json!({"options": {"size": 5}})),
    ] {
        let answer = post_raw(
            &endpoint("herfor", operation),
            Some("application/json"),
            padded(body),
        )
        .await;
        answer.ok();
    }
}

#[actix_web::test]
async fn bodies_past_the_decoding_budget_are_refused_503_with_retry_after() {
    use moot::api::body::DecodingBudget;
    use moot::compute::budget::Budget;
    let budget = Budget::new(4_000);
    let app = test::init_service(moot::app().app_data(DecodingBudget(budget.clone()))).await;
    let send = |body: String| {
        let request = TestRequest::post()
            .uri(&endpoint("herfor", "new"))
            .insert_header((header::CONTENT_TYPE, "application/json"))
            .set_payload(body)
            .to_request();
        app.call(request)
    };
    let small = r#"{"options": {"size": 3}}"#.to_owned();
    answer_of(send(small.clone()).await.expect("an answer"))
        .await
        .ok();
    assert_eq!(budget.taken(), 0, "given back once answered");
    let held = budget.try_take(3_000).expect("free");
    let answer = answer_of(send(small.clone()).await.expect("an answer")).await;
    answer.problem(503, "overloaded");
    assert_eq!(answer.retry_after.as_deref(), Some("1"));
    drop(held);
    answer_of(send(small).await.expect("an answer")).await.ok();
    assert_eq!(budget.refused(), 1);
}

#[actix_web::test]
async fn a_list_of_moves_takes_what_playing_it_costs_from_the_budget_until_answered() {
    use moot::api::body::{BYTES_PER_MOVE, DecodingBudget};
    use moot::compute::budget::Budget;
    // Room for one list of the most moves (10 MiB) and its body (bounded at about 5 MB before it
    // is read, 0.4 MB once scanned), not for two.
    let budget = Budget::new(MAX_MOVES * BYTES_PER_MOVE + (6 << 20));
    let app = test::init_service(moot::app().app_data(DecodingBudget(budget.clone()))).await;
    let send = |moves: usize| {
        let request = TestRequest::post()
            .uri(&endpoint("hirth", "replay"))
            .insert_header((header::CONTENT_TYPE, "application/json"))
            .set_payload(json!({"moves": vec!["end"; moves]}).to_string())
            .to_request();
        app.call(request)
    };
    let answer = answer_of(send(MAX_MOVES).await.expect("an answer")).await;
    assert_eq!(
        answer.ok()["plies"].as_array().map(Vec::len),
        Some(MAX_MOVES)
    );
    assert_eq!(budget.taken(), 0, "given back once answered");
    // Another long list is playing: no room for this one's moves.
    let playing = budget.try_take(MAX_MOVES * BYTES_PER_MOVE).expect("free");
    let answer = answer_of(send(MAX_MOVES).await.expect("an answer")).await;
    let problem = answer.problem(503, "overloaded");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("playing as many moves"),
        "{problem}"
    );
    assert_eq!(answer.retry_after.as_deref(), Some("1"));
    // A short list still fits beside it.
    answer_of(send(10).await.expect("an answer")).await.ok();
    drop(playing);
    // Past the cap the list costs no more than the cap: refused for its length, not its cost.
    let answer = answer_of(send(MAX_MOVES + 1).await.expect("an answer")).await;
    answer.problem(422, "too_many_moves");
    assert_eq!(budget.taken(), 0);
}

/// A large body takes its length's worst case before it is read: a flood of megabyte bodies is
/// refused without reading them. This one (a 200 KB string, which parsed would cost little)
/// does not fit a 1 MiB budget by its length's bound.
#[actix_web::test]
async fn a_large_body_is_refused_by_its_declared_length_before_it_is_read() {
    use moot::api::body::DecodingBudget;
    use moot::compute::budget::Budget;
    let budget = Budget::new(1 << 20);
    let app = test::init_service(moot::app().app_data(DecodingBudget(budget.clone()))).await;
    let body = json!({"state": "x".repeat(200_000)}).to_string();
    let request = TestRequest::post()
        .uri(&endpoint("herfor", "legal-moves"))
        .insert_header((header::CONTENT_TYPE, "application/json"))
        .set_payload(body)
        .to_request();
    let answer = answer_of(app.call(request).await.expect("an answer")).await;
    answer.problem(503, "overloaded");
    assert_eq!(answer.retry_after.as_deref(), Some("1"));
    assert_eq!((budget.taken(), budget.refused()), (0, 1));
}

fn computer(config: AiConfig) -> Computer {
    Computer::new(config)
}

#[actix_web::test]
async fn a_client_past_its_burst_gets_429_with_the_wait() {
    let computer = computer(AiConfig {
        client_burst: 2,
        client_every_ms: 60_000,
        ..AiConfig::default()
    });
    let state = new_state("herfor").await;
    let request = |seed: u64| {
        (
            "herfor",
            json!({"state": state, "playouts": 5, "seed": seed}),
        )
    };
    let answers = evaluate_all(&computer, &[request(1), request(2), request(3)]).await;
    answers[0].ok();
    answers[1].ok();
    answers[2].problem(429, "rate_limited");
    // The next request is allowed a minute after the first two.
    let wait: u64 = answers[2].retry_after.as_deref().unwrap().parse().unwrap();
    assert!((59..=60).contains(&wait), "{wait}");
    // A cached answer costs no search and no share.
    let again = evaluate_all(&computer, &[request(1)]).await;
    assert_eq!(again[0].ok()["cached"], true);
}

#[actix_web::test]
async fn one_client_cannot_hold_every_permit() {
    let computer = computer(AiConfig {
        max_evaluations: 3,
        ..AiConfig::default()
    });
    // Two of this client's searches run (the test requests have no peer address: one client).
    let _mine = [
        computer.api().pool().try_acquire().unwrap(),
        computer.api().pool().try_acquire().unwrap(),
    ];
    let state = new_state("herfor").await;
    let slots: Vec<_> = std::iter::from_fn(|| computer.pages().clients().start(None).ok())
        .take(5)
        .collect();
    // The pages' share of one client is all but one of their permits.
    assert_eq!(slots.len(), 1);
    drop(slots);
    let answers = evaluate_all(
        &computer,
        &[("herfor", json!({"state": state, "playouts": 5}))],
    )
    .await;
    // One permit is free and the client runs nothing yet: it gets it.
    answers[0].ok();
}

#[actix_web::test]
async fn every_search_stops_at_the_wall_clock_cap_and_a_cut_answer_is_not_cached() {
    let computer = computer(AiConfig {
        max_millis: 1,
        search_cap_ms: 1,
        max_playouts: 1_000_000,
        ..AiConfig::default()
    });
    let state = new_state("hirth").await;
    let request = json!({"state": state, "playouts": 1_000_000, "seed": 1});
    let answers = evaluate_all(&computer, &[("hirth", request.clone()), ("hirth", request)]).await;
    let first = answers[0].ok();
    let run = first["playouts"].as_u64().unwrap();
    assert!((1..1_000_000).contains(&run), "{first}");
    assert_eq!(answers[1].ok()["cached"], false);
    assert_eq!(computer.api().cached(), 0);
}

#[actix_web::test]
async fn hirth_history_is_not_part_of_the_search_nor_of_its_key() {
    let computer = computer(AiConfig::default());
    let played = post_json(
        &endpoint("hirth", "replay"),
        &json!({"moves": ["end", "end"], "plies": false}),
    )
    .await;
    let state = played.ok()["state"].clone();
    assert!(
        !state["record"].as_str().unwrap_or_default().is_empty(),
        "{state}"
    );
    // The same position with its history left out (an empty record is accepted as that;
    // garbage record text is refused as an invalid state).
    let mut bare = state.clone();
    bare["record"] = json!("");
    let request = |state: &Value| ("hirth", json!({"state": state, "playouts": 30, "seed": 2}));
    let answers = evaluate_all(&computer, &[request(&state), request(&bare)]).await;
    let (plain, bare) = (answers[0].ok(), answers[1].ok());
    assert_eq!(bare["cached"], true, "the same key");
    assert_eq!(plain["best_move"], bare["best_move"]);
}

#[actix_web::test]
async fn identical_hints_at_once_share_one_search() {
    use moot::games::Game;
    use moot::games::herfor::Herfor;
    use moot::present::link::Link;
    use moot::web::opponent;
    let computer = computer(AiConfig::default());
    let position = Link::<Herfor>::start(Default::default()).expect("the defaults");
    let state = Herfor::new_game(&position.options).expect("a start");
    // One client (no peer address) may run one page search at once: without the shared
    // search the second hint would be refused as busy.
    let (first, second) = futures_util::future::join(
        opponent::hint(computer.pages(), None, &position, state.clone()),
        opponent::hint(computer.pages(), None, &position, state.clone()),
    )
    .await;
    let (first, second) = (first.expect("a hint"), second.expect("the same hint"));
    assert_eq!(first, second);
    assert_eq!(computer.pages().pool().started(), 1);
    assert_eq!(computer.pages().hints_in_flight(), 0);
    // Once it is over, the same hint asked again is searched again (the count counts).
    opponent::hint(computer.pages(), None, &position, state)
        .await
        .expect("a hint");
    assert_eq!(computer.pages().pool().started(), 2);
}

/// A path with a query that makes the whole target `bytes` long.
fn target_of(path: &str, bytes: usize) -> String {
    let prefix = format!("{path}?moves=");
    format!("{prefix}{}", "a".repeat(bytes - prefix.len()))
}

/// Herfor's play path with its default options written out, as a page writes its links.
const HERFOR_PLAY: &str = "/play/herfor?pie=true&simple=false&size=5";

#[actix_web::test]
async fn a_target_at_the_link_limit_is_read_and_one_byte_more_gets_414() {
    use moot::limits::MAX_LINK_BYTES;
    // At the limit Moot reads the link: this one holds no legal move, which its page says.
    let at = format!(
        "{HERFOR_PLAY}&moves={}",
        "a".repeat(MAX_LINK_BYTES - HERFOR_PLAY.len() - 7)
    );
    assert_eq!(at.len(), MAX_LINK_BYTES);
    let read = common::get(&at).await;
    assert!(
        [400, 422].contains(&read.status.as_u16()),
        "{}",
        read.status
    );
    // One byte more: a friendly page for a link, small, pointing home.
    let page = common::get(&target_of("/play/herfor", MAX_LINK_BYTES + 1)).await;
    assert_eq!(page.status.as_u16(), 414);
    assert!(page.content_type.starts_with("text/html"), "{page:?}");
    let html = page.body.as_str().unwrap();
    assert!(html.contains("This link is too long"), "{html}");
    assert!(html.contains("href=\"/\""), "{html}");
    assert!(html.len() < 20_000, "{} bytes", html.len());
    // Under /api: a problem (declared in the contract, which `get` checks).
    let api = target_of(&endpoint("herfor", "picture"), MAX_LINK_BYTES + 1);
    let problem = common::get(&api).await;
    problem.problem(414, "uri_too_long");
    assert!(
        problem.body["detail"]
            .as_str()
            .unwrap()
            .contains(&MAX_LINK_BYTES.to_string())
    );
    // At the limit, with the options written out (the link as a page would write it is shorter).
    let picture = format!(
        "{}?pie=true&simple=false&size=5",
        endpoint("herfor", "picture")
    );
    let api_at = format!(
        "{picture}&moves={}",
        "a".repeat(MAX_LINK_BYTES - picture.len() - 7)
    );
    assert_eq!(api_at.len(), MAX_LINK_BYTES);
    let api_at = common::get(&api_at).await;
    assert_ne!(api_at.status.as_u16(), 414, "{api_at:?}");
    assert!(api_at.status.is_client_error(), "{api_at:?}");
}

#[actix_web::test]
async fn a_link_the_page_would_write_back_longer_than_the_limit_gets_414() {
    use moot::limits::MAX_LINK_BYTES;
    // A hand-made link with `[` sent as itself: under the limit as sent, but the page writes
    // every `[` back as `%5B`, and its links must still reach Moot (MAX_LINK_GROWTH).
    let brackets = MAX_LINK_BYTES / 2;
    let sent = format!("{HERFOR_PLAY}&moves={}", "[".repeat(brackets));
    assert!(sent.len() <= MAX_LINK_BYTES);
    let page = common::get(&sent).await;
    assert_eq!(page.status.as_u16(), 414, "{page:?}");
    let html = page.body.as_str().unwrap();
    assert!(html.contains("This link is too long"), "{html}");
    // As written back, the length the page reports.
    let written = HERFOR_PLAY.len() + "&moves=".len() + 3 * brackets;
    assert!(html.contains(&written.to_string()), "{html}");
    // Defaults left out are written out too: a link at the limit without them is over it.
    let bare = target_of("/play/herfor", MAX_LINK_BYTES);
    assert_eq!(common::get(&bare).await.status.as_u16(), 414);
    // The same moves percent-encoded as Moot writes them, at the limit, are read.
    let encoded = format!(
        "{HERFOR_PLAY}&moves={}",
        "%5B".repeat((MAX_LINK_BYTES - HERFOR_PLAY.len() - 7) / 3)
    );
    let read = common::get(&encoded).await;
    assert!([400, 422].contains(&read.status.as_u16()), "{read:?}");
    // The picture links of the API read links the same way: a problem, never a 500.
    let picture = format!(
        "{}?moves={}",
        endpoint("herfor", "picture"),
        "[".repeat(brackets)
    );
    common::get(&picture).await.problem(414, "uri_too_long");
}
