//! `Idempotency-Key` on the tables' changes: the same request sent again with its key is
//! answered as the first time and made once (a move, a resignation, a creation; two sent at
//! once too); the same key with another request is 422 `idempotency_key_reused`; a malformed
//! key is refused; a creation's remembered answer is not readable in the database; a move's
//! record keeps its position by reference, under a kilobyte, and answers the same after its
//! move was taken back; keys are forgotten by the sweep after a day.

use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::TestRequest;
use moot::games::Game;
use moot::games::herfor::Herfor;
use moot::tables::DAY;
use serde_json::{Value, json};

use crate::both;
use crate::common::{Answer, answer_of};
use crate::tables::db::{self, act, app, create, get, play, roomy, seats, tables, to_act};

/// `request` with `key` as its `Idempotency-Key`, sent to `app`: whether the answer says it
/// was replayed, and the answer.
async fn keyed<S, B>(app: &S, request: TestRequest, key: &str) -> (bool, Answer)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let response = app
        .call(request.insert_header(("Idempotency-Key", key)).to_request())
        .await
        .expect("the app answers");
    let replayed = response
        .headers()
        .get("idempotent-replayed")
        .is_some_and(|v| v == "true");
    (replayed, answer_of(response).await)
}

/// A new Herfor table on `app`: its id, the credential of the seat to act, and a legal move.
async fn first_move<S, B>(app: &S) -> (String, String, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let created = db::call(app, create(herfor())).await;
    let (id, credentials) = seats(&created.body);
    let table = &created.body["table"];
    let mv = db::random_move::<Herfor>(table, &mut rand::rng());
    (id, credentials[to_act(table)].clone(), mv)
}

const KEY: &str = "5f0c6a0e-8c1d-4b6e-9a43-0d9c1f2e7b10";

fn herfor() -> Value {
    json!({"game": "herfor", "options": {"size": 5}})
}

both!(
    a_move_sent_twice_with_one_key_is_played_once,
    |url: String| async move {
        let app = app(tables(&url, 100).await, roomy()).await;
        let (id, seat, mv) = first_move(&app).await;
        let seat = &seat;

        let (replayed, first) = keyed(&app, play(&id, seat, &mv, 0), KEY).await;
        assert!(!replayed);
        assert_eq!(first.ok()["ply"], 1);
        let (replayed, again) = keyed(&app, play(&id, seat, &mv, 0), KEY).await;
        assert!(replayed, "the second answer is the first, given again");
        assert_eq!(again.ok(), first.ok());
        assert_eq!(
            db::call(&app, get(&id)).await.ok()["ply"],
            1,
            "one move made"
        );

        // Without the key the same move is a stale ply; with the key and another move, refused.
        db::call(&app, play(&id, seat, &mv, 0))
            .await
            .problem(409, "stale_ply");
        let (_, other) = keyed(&app, play(&id, seat, &mv, 1), KEY).await;
        other.unprocessable("idempotency_key_reused", "Idempotency-Key");
    }
);

both!(
    a_resignation_sent_twice_with_one_key_ends_the_table_once,
    |url: String| async move {
        let app = app(tables(&url, 100).await, roomy()).await;
        let created = db::call(&app, create(herfor())).await;
        let (id, credentials) = seats(&created.body);
        let (_, first) = keyed(&app, act(&id, &credentials[0], "resign"), KEY).await;
        assert_eq!(first.ok()["status"], "finished");
        let (replayed, again) = keyed(&app, act(&id, &credentials[0], "resign"), KEY).await;
        assert!(replayed);
        assert_eq!(again.ok(), first.ok());
        // The other seat's credential with the key is another request.
        let (_, other) = keyed(&app, act(&id, &credentials[1], "resign"), KEY).await;
        other.unprocessable("idempotency_key_reused", "Idempotency-Key");
        db::call(&app, act(&id, &credentials[0], "resign"))
            .await
            .problem(410, "table_finished");
    }
);

both!(
    a_creation_sent_twice_with_one_key_makes_one_table,
    |url: String| async move {
        let tables = tables(&url, 100).await;
        let pool = tables.store().pool.clone();
        let app = app(tables, roomy()).await;
        let (replayed, first) = keyed(&app, create(herfor()), KEY).await;
        assert!(!replayed);
        assert_eq!(first.status, 201);
        let (replayed, again) = keyed(&app, create(herfor()), KEY).await;
        assert!(replayed);
        assert_eq!((again.status, &again.body), (first.status, &first.body));
        assert_eq!(again.location, first.location);
        let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moot_tables")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(open, 1, "one table made");

        // The remembered answer holds the credentials, sealed: not readable in the database.
        let (_, credentials) = seats(&first.body);
        let kept: Vec<String> = sqlx::query_scalar("SELECT answer FROM moot_idempotency")
            .fetch_all(&pool)
            .await
            .unwrap();
        assert_eq!(kept.len(), 1);
        assert!(
            kept.iter()
                .all(|k| !k.contains(&credentials[0]) && !k.contains("credential"))
        );

        let (_, other) = keyed(&app, create(json!({"game": "tara"})), KEY).await;
        other.unprocessable("idempotency_key_reused", "Idempotency-Key");
    }
);

both!(
    two_moves_sent_at_once_with_one_key_make_one_move,
    |url: String| async move {
        let app = app(tables(&url, 100).await, roomy()).await;
        let (id, seat, mv) = first_move(&app).await;
        let seat = &seat;
        let ((_, a), (_, b)) = tokio::join!(
            keyed(&app, play(&id, seat, &mv, 0), KEY),
            keyed(&app, play(&id, seat, &mv, 0), KEY)
        );
        assert_eq!(a.ok(), b.ok(), "both told of the one move");
        assert_eq!(db::call(&app, get(&id)).await.ok()["ply"], 1);
    }
);

both!(a_malformed_key_is_refused, |url: String| async move {
    let app = app(tables(&url, 100).await, roomy()).await;
    for key in ["short", &"k".repeat(256), "with space inside it"] {
        let (_, refused) = keyed(&app, create(herfor()), key).await;
        refused.unprocessable("invalid_request", "Idempotency-Key");
    }
    // A structured-field string (quoted) is the same key.
    let (_, first) = keyed(&app, create(herfor()), &format!("\"{KEY}\"")).await;
    let (replayed, _) = keyed(&app, create(herfor()), KEY).await;
    assert_eq!(first.status, 201);
    assert!(replayed);
});

both!(
    keys_are_forgotten_by_the_sweep_after_a_day,
    |url: String| async move {
        let tables = tables(&url, 100).await;
        let app = app(tables.clone(), roomy()).await;
        let (_, first) = keyed(&app, create(herfor()), KEY).await;
        assert_eq!(first.status, 201);
        let kept = || async {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM moot_idempotency")
                .fetch_one(&tables.store().pool)
                .await
                .unwrap()
        };
        let now = moot::tables::now();
        tables.sweep(now + DAY - 60_000, 90).await.unwrap();
        assert_eq!(kept().await, 1, "kept for a day");
        tables.sweep(now + DAY + 60_000, 90).await.unwrap();
        assert_eq!(kept().await, 0, "forgotten after");
    }
);

both!(
    a_keyed_moves_record_keeps_its_position_by_reference_in_under_a_kilobyte,
    |url: String| async move {
        let tables = tables(&url, 100).await;
        let app = app(tables.clone(), roomy()).await;
        let largest_kept = async || -> i64 {
            sqlx::query_scalar(
                "SELECT CAST(MAX(LENGTH(answer) + COALESCE(LENGTH(table_id), 0) + 8) AS BIGINT) \
                 FROM moot_idempotency",
            )
            .fetch_one(&tables.store().pool)
            .await
            .unwrap()
        };
        // A long Hirþ match (21 points): its position holds the match's record and grows with
        // it, to several kilobytes; the record of each keyed move stays under a kilobyte.
        let created = db::call(
            &app,
            create(json!({"game": "hirth", "options": {"target": 21}})),
        )
        .await;
        assert_eq!(created.status, 201, "{created:#?}");
        let (id, credentials) = seats(&created.body);
        let mut table = created.body["table"].clone();
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(5);
        let mut largest_answer = 0;
        let mut sent = Vec::new();
        for ply in 0..2000u64 {
            if table["status"] != "ongoing" || largest_answer > 6_000 {
                break;
            }
            let mv = db::random_move::<moot::games::hirth::Hirth>(&table, &mut rng);
            let key = format!("{KEY}-{ply}");
            let seat = credentials[to_act(&table)].clone();
            let (_, first) = keyed(&app, play(&id, &seat, &mv, ply), &key).await;
            table = first.ok().clone();
            largest_answer = largest_answer.max(table.to_string().len());
            sent.push((key, seat, mv, ply, table.clone()));
        }
        assert!(
            largest_answer > 6_000,
            "a Hirþ table's answer is large: {largest_answer} bytes"
        );
        let kept = largest_kept().await;
        assert!(
            kept <= 1024,
            "a keyed move's record is {kept} bytes, for answers up to {largest_answer} bytes"
        );
        // Every seventh sent again: its position rebuilt from the moves, the answer the same.
        for (key, seat, mv, ply, first) in sent.iter().step_by(7) {
            let (replayed, again) = keyed(&app, play(&id, seat, mv, *ply), key).await;
            assert!(replayed);
            assert_eq!(
                again.ok(),
                first,
                "the replay answers what the first answer said"
            );
        }
    }
);

both!(
    a_taken_back_keyed_move_sent_again_answers_its_first_answer_not_the_position_after,
    |url: String| async move {
        let app = app(tables(&url, 100).await, roomy()).await;
        let created = db::call(&app, create(herfor())).await;
        let (id, credentials) = seats(&created.body);
        let table = created.body["table"].clone();
        let mover = credentials[to_act(&table)].clone();
        let other = credentials[1 - to_act(&table)].clone();
        let state: <Herfor as Game>::State =
            serde_json::from_value(table["state"].clone()).unwrap();
        let moves = Herfor::legal_moves(&state);
        let text = |i: usize| Herfor::format_move(&state, &moves[i]);
        let (_, first) = keyed(&app, play(&id, &mover, &text(0), 0), KEY).await;
        let first = first.ok().clone();
        // Taken back (asked by the mover, accepted by the other seat), then another move.
        let takeback = |credential: &str| {
            TestRequest::post()
                .uri(&format!("/api/v1/tables/{id}/takeback"))
                .insert_header(("Authorization", format!("Bearer {credential}")))
        };
        db::call(&app, takeback(&mover)).await.ok();
        let accepted = db::call(&app, takeback(&other)).await;
        assert_eq!(accepted.ok()["table"]["ply"], 0, "{accepted:#?}");
        let other_move = db::call(&app, play(&id, &mover, &text(1), 0)).await;
        assert_eq!(other_move.ok()["ply"], 1);
        assert_ne!(other_move.body["state"], first["state"]);
        // The first move's key: its own answer, position and all.
        let (replayed, again) = keyed(&app, play(&id, &mover, &text(0), 0), KEY).await;
        assert!(replayed);
        assert_eq!(again.ok(), &first);
    }
);

both!(
    an_address_past_its_share_of_idempotency_keys_is_refused_until_it_has_more,
    |url: String| async move {
        let app = app(tables(&url, 100).await, roomy()).await;
        let (id, seat, mv) = first_move(&app).await;
        // Each keyed request costs the address a key of its share, answered or refused: a
        // stale ply here, so that the table stays as it is.
        db::call(&app, play(&id, &seat, &mv, 0)).await.ok();
        // The share refills one key a second while the burst is sent: the first refusal comes
        // after the burst and at most one key more a second.
        let started = std::time::Instant::now();
        let mut sent = 0u32;
        let past = loop {
            let (_, answer) = keyed(&app, play(&id, &seat, &mv, 0), &format!("{KEY}-{sent}")).await;
            if answer.status == 429 {
                break answer;
            }
            answer.problem(409, "stale_ply");
            sent += 1;
            assert!(
                sent <= 2 * moot::limits::tables::KEYS_BURST,
                "never refused"
            );
        };
        let refills = started.elapsed().as_secs() as u32 + 1;
        assert!(
            (moot::limits::tables::KEYS_BURST..=moot::limits::tables::KEYS_BURST + refills)
                .contains(&sent),
            "refused after {sent} keys"
        );
        past.problem(429, "rate_limited");
        assert!(
            past.body["detail"]
                .as_str()
                .is_some_and(|d| d.contains("Idempotency-Key")),
            "{:#}",
            past.body
        );
        // Without a key, the same request is answered as before.
        db::call(&app, play(&id, &seat, &mv, 0))
            .await
            .problem(409, "stale_ply");
    }
);
