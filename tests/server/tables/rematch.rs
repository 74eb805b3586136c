//! A rematch at a finished table: offered by one seat, accepted by the other's offer in turn
//! (one new table, even for racing acceptances, between the same seats with their colours
//! swapped, the same options and clock, linked both ways), declined or withdrawn; the seats'
//! players told in their feeds; refused while the table goes on.

use actix_web::http::header;
use actix_web::test::TestRequest;
use moot::tables::Tables;
use moot::tables::player_feed::{FeedCatchUp, Notice};
use serde_json::{Value, json};

use crate::both;
use crate::tables::db::{self, call, create, get, roomy, seats};

/// `POST` (offer or accept) or `DELETE` (decline) `/api/v1/tables/{id}/rematch` with `credential`.
fn rematch(id: &str, credential: &str, offer: bool) -> TestRequest {
    let request = if offer {
        TestRequest::post()
    } else {
        TestRequest::delete()
    };
    request
        .uri(&format!("/api/v1/tables/{id}/rematch"))
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
}

/// The kinds of player `player`'s feed events about table `id`, from the start.
async fn told(tables: &Tables, player: &str, id: &str) -> Vec<&'static str> {
    match tables.feed_events(player, 0, 1000).await.unwrap() {
        FeedCatchUp::Events(events) => events
            .iter()
            .filter(|e| e.table_id == id)
            .map(|e| e.notice.kind())
            .collect(),
        FeedCatchUp::Reset { last } => panic!("a reset at {last}"),
    }
}

/// The first seat's resignation of a new Herfor table (size 3, two days a move) between Ann's
/// and Bo's player credentials: its id and the seats' own credentials.
async fn finished<S, B>(app: &S, players: [&str; 2]) -> (Value, [String; 2])
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let created = call(
        app,
        create(json!({
            "game": "herfor",
            "options": {"size": 3, "pie": false},
            "days_per_move": 2,
            "names": ["Ann", "Bo"],
            "player_credentials": players,
        })),
    )
    .await;
    assert_eq!(created.status, 201, "{created:#?}");
    let (id, credentials) = seats(&created.body);
    let resigned = call(app, db::act(&id, &credentials[0], "resign")).await;
    (resigned.ok().clone(), credentials)
}

both!(
    a_rematch_offered_by_one_seat_and_accepted_by_the_other_opens_one_table_colours_swapped,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (ann, ann_key) = db::new_player(&app, "Ann").await;
        let (bo, bo_key) = db::new_player(&app, "Bo").await;
        let (old, [first, second]) = finished(&app, [&ann_key, &bo_key]).await;
        let id = old["id"].as_str().unwrap().to_owned();

        // Ann offers (with her player's credential); offering again answers the same.
        for _ in 0..2 {
            let offered = call(&app, rematch(&id, &ann_key, true)).await;
            assert_eq!(offered.status, 200, "{offered:#?}");
            assert_eq!(offered.body["status"], "offered");
            assert_eq!(offered.body["table"]["rematch_offered_by"], "first");
            assert_eq!(offered.body.get("rematch"), None);
        }
        assert_eq!(
            call(&app, get(&id)).await.ok()["rematch_offered_by"],
            "first"
        );

        // Bo accepts with his seat's own credential: one new table, Bo first now.
        let accepted = call(&app, rematch(&id, &second, true)).await;
        assert_eq!(accepted.status, 201, "{accepted:#?}");
        let new = accepted.body["rematch"].clone();
        let new_id = new["id"].as_str().unwrap().to_owned();
        assert_eq!(
            accepted.location.as_deref(),
            Some(format!("/api/v1/tables/{new_id}").as_str())
        );
        assert_eq!(accepted.body["status"], "accepted");
        assert_eq!(accepted.body["table"]["rematched_by"], new_id.as_str());
        assert_eq!(accepted.body["table"].get("rematch_offered_by"), None);
        assert_eq!(new["rematch_of"], id.as_str());
        assert_eq!(new["status"], "ongoing");
        assert_eq!(new["ply"], 0);
        assert_eq!(new["options"], old["options"]);
        assert_eq!(new["days_per_move"], 2);
        assert!(new["deadline"].is_string(), "the clock runs: {new:#}");
        assert_eq!(
            new["seats"],
            json!([{"seat": "first", "name": "Bo"}, {"seat": "second", "name": "Ann"}])
        );
        // Each seat's own credential opens its seat at the new table, colours swapped: Bo's
        // old second seat's credential plays the new table's first move.
        let start = new["state"].clone();
        let mv = db::random_move::<moot::games::herfor::Herfor>(
            &json!({"state": start}),
            &mut <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(1),
        );
        call(&app, db::play(&new_id, &first, &mv, 0))
            .await
            .problem(403, "not_your_turn");
        assert_eq!(
            call(&app, db::play(&new_id, &second, &mv, 0)).await.ok()["ply"],
            1
        );
        // Each player finds the new table among its own.
        for (key, seat) in [(&ann_key, "second"), (&bo_key, "first")] {
            let mine = call(
                &app,
                TestRequest::get()
                    .uri("/api/v1/players/me/tables?status=ongoing")
                    .insert_header((header::AUTHORIZATION, format!("Bearer {key}"))),
            )
            .await
            .ok()
            .clone();
            let listed = mine["tables"].as_array().unwrap();
            assert_eq!(listed.len(), 1, "{mine:#}");
            assert_eq!(listed[0]["id"], new_id.as_str());
            assert_eq!(listed[0]["seat"], seat);
        }
        // Accepting again, by either seat, answers the rematch opened: no second table.
        for credential in [&first, &bo_key] {
            let again = call(&app, rematch(&id, credential, true)).await;
            assert_eq!(again.status, 200, "{again:#?}");
            assert_eq!(again.body["rematch"]["id"], new_id.as_str());
        }
        let tables_open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moot_tables")
            .fetch_one(&tables.store().pool)
            .await
            .unwrap();
        assert_eq!(tables_open, 2);
        call(&app, rematch(&id, &first, false))
            .await
            .problem(409, "already_rematched");
        // Both players were told, in order: the offer, the acceptance, the new table.
        assert_eq!(
            told(&tables, &ann, &id).await,
            [
                "table_started",
                "your_turn",
                "resign",
                "table_finished",
                "rematch_offered",
                "rematch_accepted"
            ]
        );
        assert_eq!(told(&tables, &bo, &new_id).await[0], "table_started");
        match tables.feed_events(&bo, 0, 1000).await.unwrap() {
            FeedCatchUp::Events(events) => assert!(events.iter().any(|e| e.notice
                == Notice::RematchAccepted {
                    rematch: new_id.clone()
                })),
            FeedCatchUp::Reset { last } => panic!("a reset at {last}"),
        }
    }
);

both!(
    two_racing_acceptances_open_one_table,
    |url: String| async move {
        let one = db::tables(&url, 100).await;
        let two = db::tables(&url, 100).await;
        let app = db::app(one.clone(), roomy()).await;
        let (_, ann_key) = db::new_player(&app, "Ann").await;
        let (_, bo_key) = db::new_player(&app, "Bo").await;
        let (old, [first, second]) = finished(&app, [&ann_key, &bo_key]).await;
        let id = old["id"].as_str().unwrap().to_owned();
        call(&app, rematch(&id, &first, true)).await.ok();
        // Two replicas accept at once, with the seat's own and its player's credential.
        let now = moot::tables::now();
        let (a, b) = tokio::join!(
            one.rematch(&id, &second, now),
            two.rematch(&id, &bo_key, now)
        );
        let opened = |r: &moot::tables::Rematched| match r {
            moot::tables::Rematched::Accepted { rematch, .. } => rematch.id.clone(),
            moot::tables::Rematched::Before(table) => table.rematch.by.clone().unwrap(),
            moot::tables::Rematched::Offered(_) => panic!("an offer, not an acceptance"),
        };
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(opened(&a), opened(&b), "one table for both");
        let accepted = [&a, &b]
            .iter()
            .filter(|r| matches!(r, moot::tables::Rematched::Accepted { .. }))
            .count();
        assert_eq!(accepted, 1, "one acceptance opened it");
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moot_tables")
            .fetch_one(&one.store().pool)
            .await
            .unwrap();
        assert_eq!(count, 2);
    }
);

both!(
    a_rematch_offer_is_declined_or_withdrawn_and_refused_while_the_table_goes_on,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (ann, ann_key) = db::new_player(&app, "Ann").await;
        let (_, bo_key) = db::new_player(&app, "Bo").await;
        let (old, [first, second]) = finished(&app, [&ann_key, &bo_key]).await;
        let id = old["id"].as_str().unwrap().to_owned();
        call(&app, rematch(&id, &second, false))
            .await
            .problem(409, "no_rematch_offer");
        // Bo offers, Ann declines: no offer stands, both told.
        call(&app, rematch(&id, &second, true)).await.ok();
        let declined = call(&app, rematch(&id, &first, false)).await.ok().clone();
        assert_eq!(declined.get("rematch_offered_by"), None, "{declined:#}");
        assert_eq!(declined.get("rematched_by"), None);
        // Ann offers then withdraws her own offer.
        call(&app, rematch(&id, &first, true)).await.ok();
        let withdrawn = call(&app, rematch(&id, &ann_key, false)).await.ok().clone();
        assert_eq!(withdrawn.get("rematch_offered_by"), None);
        assert_eq!(
            told(&tables, &ann, &id).await[4..],
            [
                "rematch_offered",
                "rematch_declined",
                "rematch_offered",
                "rematch_declined"
            ]
        );
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moot_tables")
            .fetch_one(&tables.store().pool)
            .await
            .unwrap();
        assert_eq!(count, 1, "no table opened");

        // While a table goes on, there is no rematch to offer; a wrong credential is 401.
        let created = call(&app, create(json!({"game": "tara"}))).await;
        let (ongoing, [tara_first, _]) = seats(&created.body);
        call(&app, rematch(&ongoing, &tara_first, true))
            .await
            .problem(409, "not_finished");
        call(&app, rematch(&ongoing, &tara_first, false))
            .await
            .problem(409, "not_finished");
        call(&app, rematch(&id, &tara_first, true))
            .await
            .problem(401, "unauthorized");
        call(
            &app,
            rematch("0123456789abcdef0123456789abcdef", &first, true),
        )
        .await
        .problem(404, "unknown_table");
        let bare = call(
            &app,
            TestRequest::post().uri(&format!("/api/v1/tables/{id}/rematch")),
        )
        .await;
        bare.problem(401, "unauthorized");
    }
);

both!(
    rematches_count_against_the_clients_share_of_new_tables,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        // Two new tables a client, and no more for an hour.
        let limits = moot::tables::TableLimits {
            create_burst: 2,
            create_every: std::time::Duration::from_secs(3600),
            ..roomy()
        };
        let app = db::app(tables.clone(), limits).await;
        let (_, ann_key) = db::new_player(&app, "Ann").await;
        let (_, bo_key) = db::new_player(&app, "Bo").await;
        // The first table, and the offer of its rematch: the client's two.
        let (old, _) = finished(&app, [&ann_key, &bo_key]).await;
        let id = old["id"].as_str().unwrap().to_owned();
        let offered = call(&app, rematch(&id, &ann_key, true)).await;
        assert_eq!(offered.status, 200, "{offered:#?}");
        // Accepting would open a third: refused as `POST /tables` would be, and none opens.
        let accepted = call(&app, rematch(&id, &bo_key, true)).await;
        assert_eq!(accepted.status, 429, "{accepted:#?}");
        assert_eq!(accepted.body["code"], "rate_limited", "{accepted:#?}");
        assert!(accepted.retry_after.is_some(), "{accepted:#?}");
        let table = call(&app, get(&id)).await;
        assert_eq!(
            table.ok().get("rematched_by"),
            None,
            "no rematch opened: {table:#?}"
        );
        let another = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 3, "pie": false}})),
        )
        .await;
        assert_eq!(another.status, 429, "the share is the same: {another:#?}");
    }
);
