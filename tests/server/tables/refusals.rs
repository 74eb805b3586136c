//! Every refusal of the tables' routes, with its status and code.

use std::time::Duration;

use actix_web::dev::Service;
use actix_web::http::header;
use actix_web::test::{self, TestRequest};
use moot::games::herfor::Herfor;
use moot::tables::TableLimits;
use serde_json::json;

use crate::both;
use crate::tables::db::{self, act, call, create, play, random_move, roomy, seats};

both!(
    bad_creations_are_422_naming_the_member,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        call(&app, create(json!({"game": "chess"})))
            .await
            .unprocessable("invalid_request", "game");
        call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 9}})),
        )
        .await
        .unprocessable("invalid_options", "options.size");
        call(&app, create(json!({"game": "herfor", "days_per_move": 0})))
            .await
            .unprocessable("invalid_request", "days_per_move");
        call(
            &app,
            create(json!({"game": "herfor", "names": ["a", "b", "c"]})),
        )
        .await
        .unprocessable("invalid_request", "names");
        call(
            &app,
            create(json!({"game": "herfor", "names": ["a", "x".repeat(41)]})),
        )
        .await
        .unprocessable("invalid_request", "names[1]");
        // Hidden characters: a right-to-left override, a zero-width space, a BOM.
        for name in ["\u{202E}Bob", "An\u{200B}n", "\u{FEFF}Ann"] {
            call(&app, create(json!({"game": "herfor", "names": [name]})))
                .await
                .unprocessable("invalid_request", "names[0]");
        }
        call(&app, create(json!({"game": "herfor", "colour": "red"})))
            .await
            .unprocessable("invalid_request", "colour");
    }
);

both!(an_unknown_table_is_404, |url: String| async move {
    let app = db::app(db::tables(&url, 100).await, roomy()).await;
    for id in ["0123456789abcdef0123456789abcdef", "not-an-id"] {
        call(
            &app,
            TestRequest::get().uri(&format!("/api/v1/tables/{id}")),
        )
        .await
        .problem(404, "unknown_table");
        call(
            &app,
            TestRequest::get().uri(&format!("/api/v1/tables/{id}/moves")),
        )
        .await
        .problem(404, "unknown_table");
        call(&app, play(id, "x", "c3", 0))
            .await
            .problem(404, "unknown_table");
    }
});

both!(every_refusal_of_a_move, |url: String| async move {
    let app = db::app(db::tables(&url, 100).await, roomy()).await;
    let created = call(
        &app,
        create(json!({"game": "herfor", "options": {"size": 3, "pie": false}})),
    )
    .await;
    let (id, [first, second]) = seats(&created.body);

    // No credential, a wrong one: 401 with the scheme named.
    let unsigned = TestRequest::post()
        .uri(&format!("/api/v1/tables/{id}/moves"))
        .set_json(json!({"move": "a1", "ply": 0}));
    let response = app.call(unsigned.to_request()).await.unwrap();
    assert_eq!(response.status(), 401);
    assert_eq!(
        response.headers().get(header::WWW_AUTHENTICATE).unwrap(),
        "Bearer"
    );
    call(&app, play(&id, &"0".repeat(64), "a1", 0))
        .await
        .problem(401, "unauthorized");
    // The first seat's credential is no key to another table.
    let other = call(&app, create(json!({"game": "herfor"}))).await;
    let (other_id, _) = seats(&other.body);
    call(&app, play(&other_id, &first, "a1", 0))
        .await
        .problem(401, "unauthorized");

    // The second seat before its turn: 403.
    call(&app, play(&id, &second, "a1", 0))
        .await
        .problem(403, "not_your_turn");
    // A move the rules forbid, one that does not read: 422 as the stateless API answers.
    let unreadable = call(&app, play(&id, &first, "zz9", 0)).await;
    unreadable.unprocessable("unreadable_move", "move");
    assert_eq!(unreadable.body["move"], "zz9");
    // Raw escape and NUL characters from a request are escaped in the detail.
    let raw = call(&app, play(&id, &first, "z\u{1b}[2J\u{0}", 0)).await;
    raw.unprocessable("unreadable_move", "move");
    let detail = raw.body["detail"].as_str().unwrap();
    assert!(!detail.chars().any(char::is_control), "{detail:?}");
    assert!(detail.contains("\\u{1b}"), "{detail:?}");
    call(&app, play(&id, &first, "a1", 1))
        .await
        .problem(409, "stale_ply");
    call(&app, play(&id, &first, "a1", 0)).await.ok();
    // a1 is taken: F3 forbids it.
    let occupied = call(&app, play(&id, &second, "a1", 1)).await;
    occupied.unprocessable("illegal_move", "move");
    assert_eq!(occupied.body["rule"], "F3", "{occupied:#?}");
    // The ply the first seat saw before its move is stale now.
    call(&app, play(&id, &first, "b1", 0))
        .await
        .problem(409, "stale_ply");
    // A body without `ply`.
    let no_ply = TestRequest::post()
        .uri(&format!("/api/v1/tables/{id}/moves"))
        .insert_header((header::AUTHORIZATION, format!("Bearer {first}")))
        .set_json(json!({"move": "b1"}));
    let missing = call(&app, no_ply).await;
    let detail = missing.problem(422, "invalid_request")["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(detail.contains("`ply`"), "{detail}");
});

both!(
    resigning_ends_the_table_and_then_everything_is_410,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = call(&app, create(json!({"game": "tara"}))).await;
        let (id, [first, second]) = seats(&created.body);
        let table = call(&app, act(&id, &second, "resign")).await;
        let table = table.ok();
        assert_eq!(table["status"], "finished");
        assert_eq!(
            table["result"],
            json!({"winner": "first", "ended_by": "resignation"})
        );
        call(&app, act(&id, &first, "resign"))
            .await
            .problem(410, "table_finished");
        call(&app, act(&id, &first, "claim"))
            .await
            .problem(410, "table_finished");
        call(&app, play(&id, &first, "pass", 0))
            .await
            .problem(410, "table_finished");
    }
);

both!(
    a_claim_needs_the_waiting_seat_and_a_passed_deadline,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let created = call(&app, create(json!({"game": "herfor", "days_per_move": 2}))).await;
        let (id, [first, second]) = seats(&created.body);
        assert!(
            created.body["table"]["deadline"].is_string(),
            "{:#}",
            created.body
        );
        call(&app, act(&id, &first, "claim"))
            .await
            .problem(403, "not_waiting");
        call(&app, act(&id, &second, "claim"))
            .await
            .problem(409, "claim_too_early");
        // Without a clock there is nothing to claim.
        let unclocked = call(&app, create(json!({"game": "herfor"}))).await;
        let (unclocked_id, [_, waiting]) = seats(&unclocked.body);
        call(&app, act(&unclocked_id, &waiting, "claim"))
            .await
            .problem(409, "claim_too_early");
        // Two days and a second later (a clock passed in), no one has moved: nothing to claim
        // (the deadline worker aborts such a table).
        let later = moot::tables::now() + 2 * moot::tables::DAY + 1000;
        let unstarted = tables.claim(&id, &second, later).await;
        assert!(
            matches!(unstarted, Err(moot::tables::TableError::Unstarted)),
            "{unstarted:?}"
        );
        // Once the first seat has moved, it waits, and wins on time two days later.
        let text = random_move::<Herfor>(&created.body["table"], &mut rand::rng());
        call(&app, play(&id, &first, &text, 0)).await.ok();
        call(&app, act(&id, &first, "claim"))
            .await
            .problem(409, "claim_too_early");
        let later = moot::tables::now() + 2 * moot::tables::DAY + 1000;
        let committed = tables.claim(&id, &first, later).await.expect("the claim");
        assert_eq!(
            committed.event,
            moot::tables::Event::TimeClaimed {
                seat: moot::games::Seat::First
            }
        );
        let table = call(
            &app,
            TestRequest::get().uri(&format!("/api/v1/tables/{id}")),
        )
        .await;
        assert_eq!(
            table.ok()["result"],
            json!({"winner": "first", "ended_by": "time"})
        );
    }
);

both!(
    etag_and_if_none_match_answer_304_until_a_move,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = call(&app, create(json!({"game": "herfor"}))).await;
        let (id, [first, _]) = seats(&created.body);
        let get = || TestRequest::get().uri(&format!("/api/v1/tables/{id}"));
        let response = app.call(get().to_request()).await.unwrap();
        assert_eq!(response.status(), 200);
        let etag = response
            .headers()
            .get(header::ETAG)
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let again = app
            .call(
                get()
                    .insert_header((header::IF_NONE_MATCH, etag.clone()))
                    .to_request(),
            )
            .await
            .unwrap();
        assert_eq!(again.status(), 304);
        assert!(test::read_body(again).await.is_empty());
        call(&app, play(&id, &first, "c3", 0)).await.ok();
        let moved = app
            .call(
                get()
                    .insert_header((header::IF_NONE_MATCH, etag.clone()))
                    .to_request(),
            )
            .await
            .unwrap();
        assert_eq!(moved.status(), 200);
        assert_ne!(
            moved.headers().get(header::ETAG).unwrap().to_str().unwrap(),
            etag
        );
    }
);

both!(open_tables_are_capped_with_503, |url: String| async move {
    let app = db::app(db::tables(&url, 1).await, roomy()).await;
    assert_eq!(
        call(&app, create(json!({"game": "herfor"}))).await.status,
        201
    );
    let full = call(&app, create(json!({"game": "herfor"}))).await;
    full.problem(503, "tables_full");
    assert!(full.retry_after.is_some());
});

both!(
    racing_creations_never_open_more_than_the_cap,
    |url: String| async move {
        // Two servers' worth of tables on one database, 24 creations at once, a cap of 5.
        let (a, b) = (db::tables(&url, 5).await, db::tables(&url, 5).await);
        let options = moot::games::herfor::HerforOptions::default();
        let start = <moot::games::herfor::Herfor as moot::games::Game>::new_game(&options).unwrap();
        let creations = (0..24).map(|i| {
            let tables = if i % 2 == 0 { a.clone() } else { b.clone() };
            let start = start.clone();
            async move {
                tables
                    .create::<moot::games::herfor::Herfor>(
                        &options,
                        &start,
                        None,
                        [None, None],
                        None,
                        moot::tables::now(),
                    )
                    .await
            }
        });
        let outcomes = futures_util::future::join_all(creations).await;
        let made = outcomes.iter().filter(|o| o.is_ok()).count();
        let full = outcomes
            .iter()
            .filter(|o| matches!(o, Err(moot::tables::TableError::Full(_))))
            .count();
        assert_eq!((made, full), (5, 19), "{outcomes:?}");
        let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moot_tables")
            .fetch_one(&a.store().pool)
            .await
            .unwrap();
        assert_eq!(open, 5);
    }
);

both!(
    a_client_creating_past_its_share_is_429,
    |url: String| async move {
        let limits = TableLimits {
            create_burst: 2,
            create_every: Duration::from_secs(3600),
            ..roomy()
        };
        let app = db::app(db::tables(&url, 100).await, limits).await;
        for _ in 0..2 {
            assert_eq!(
                call(&app, create(json!({"game": "hirth"}))).await.status,
                201
            );
        }
        let refused = call(&app, create(json!({"game": "hirth"}))).await;
        refused.problem(429, "rate_limited");
        assert!(refused.retry_after.is_some());
    }
);

both!(
    guessing_credentials_is_429_at_that_table_but_never_for_the_right_one,
    |url: String| async move {
        let limits = TableLimits {
            guess_burst: 3,
            guess_every: Duration::from_secs(3600),
            ..roomy()
        };
        let app = db::app(db::tables(&url, 100).await, limits).await;
        let created = call(&app, create(json!({"game": "herfor"}))).await;
        let (id, credentials) = seats(&created.body);
        let wrong = "f".repeat(64);
        for _ in 0..3 {
            call(&app, play(&id, &wrong, "c3", 0))
                .await
                .problem(401, "unauthorized");
        }
        let barred = call(&app, play(&id, &wrong, "c3", 0)).await;
        barred.problem(429, "rate_limited");
        assert!(barred.retry_after.is_some());
        // A missing credential is no guess: 401 even now, and not counted.
        call(
            &app,
            TestRequest::post().uri(&format!("/api/v1/tables/{id}/resign")),
        )
        .await
        .problem(401, "unauthorized");
        // Barred, the right credential still plays: a site relaying its players' moves from one
        // address is not stalled by one player's mistakes.
        let table = call(&app, db::get(&id)).await.body;
        let mv = db::random_move::<moot::games::herfor::Herfor>(&table, &mut rand::rng());
        let seat = &credentials[db::to_act(&table)];
        call(&app, play(&id, seat, &mv, 0)).await.ok();
        // Another table from the same address: its own share.
        let other = call(&app, create(json!({"game": "herfor"}))).await;
        let (other, _) = seats(&other.body);
        call(&app, play(&other, &wrong, "c3", 0))
            .await
            .problem(401, "unauthorized");
    }
);

#[actix_web::test]
async fn a_server_without_tables_answers_501() {
    crate::common::post_json("/api/v1/tables", &json!({"game": "herfor"}))
        .await
        .problem(501, "tables_off");
}
