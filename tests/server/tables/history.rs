//! A table's history a page at a time (`GET /api/v1/tables/{id}/moves?from=…&limit=…`): the
//! pages hold every move once, in order, each linking the next; the game's record comes with
//! the whole history only; the `ETag` answers 304 until the table changes; a page out of range
//! is a clear 422.

use actix_web::dev::Service;
use actix_web::test::TestRequest;
use moot::games::herfor::Herfor;
use rand::SeedableRng;
use serde_json::{Value, json};

use crate::both;
use crate::tables::db::{self, call, create, play, random_move, roomy, seats, to_act};

fn page(id: &str, query: &str) -> TestRequest {
    TestRequest::get().uri(&format!("/api/v1/tables/{id}/moves{query}"))
}

both!(
    a_history_is_read_a_page_at_a_time_and_revalidated,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 5}})),
        )
        .await;
        let (id, credentials) = seats(&created.body);
        let mut table = created.body["table"].clone();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for _ in 0..7 {
            let text = random_move::<Herfor>(&table, &mut rng);
            let ply = table["ply"].as_u64().unwrap();
            table = call(&app, play(&id, &credentials[to_act(&table)], &text, ply))
                .await
                .ok()
                .clone();
        }
        let whole = call(&app, page(&id, "")).await.ok().clone();
        assert_eq!(whole["ply"], 7);
        assert_eq!(whole["moves"].as_array().unwrap().len(), 7);
        assert!(
            whole["record"].is_string(),
            "the whole history has the record"
        );
        assert!(whole.get("next").is_none());

        // Pages of three: 1–3, 4–6, 7, each naming the next; no record in a part.
        let mut moves: Vec<Value> = Vec::new();
        let mut next = Some(format!("/api/v1/tables/{id}/moves?limit=3"));
        let mut pages = 0;
        while let Some(uri) = next {
            let answer = call(&app, TestRequest::get().uri(&uri)).await;
            let body = answer.ok().clone();
            assert!(body.get("record").is_none(), "a part has no record: {body}");
            moves.extend(body["moves"].as_array().unwrap().iter().cloned());
            next = body["next"].as_str().map(str::to_owned);
            pages += 1;
        }
        assert_eq!(pages, 3);
        assert_eq!(
            Value::from(moves),
            whole["moves"],
            "every move once, in order"
        );
        let tail = call(&app, page(&id, "?from=6")).await.ok().clone();
        let plies: Vec<u64> = tail["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["ply"].as_u64().unwrap())
            .collect();
        assert_eq!(plies, [6, 7]);
        let past = call(&app, page(&id, "?from=99")).await.ok().clone();
        assert_eq!(past["moves"], json!([]));

        // Revalidated: 304 while nothing changed, 200 once a move is played.
        let first = app.call(page(&id, "?limit=3").to_request()).await.unwrap();
        let tag = first.headers().get("etag").expect("an ETag").clone();
        let again = app
            .call(
                page(&id, "?limit=3")
                    .insert_header(("If-None-Match", tag.clone()))
                    .to_request(),
            )
            .await
            .unwrap();
        assert_eq!(again.status(), 304);
        let text = random_move::<Herfor>(&table, &mut rng);
        call(&app, play(&id, &credentials[to_act(&table)], &text, 7))
            .await
            .ok();
        let changed = app
            .call(
                page(&id, "?limit=3")
                    .insert_header(("If-None-Match", tag))
                    .to_request(),
            )
            .await
            .unwrap();
        assert_eq!(changed.status(), 200);

        for query in [
            "?from=0",
            "?limit=0",
            "?limit=1001",
            "?from=-1",
            "?limit=three",
        ] {
            let refused = call(&app, page(&id, query)).await;
            let problem = refused.problem(422, "invalid_request");
            assert!(
                problem["detail"].as_str().is_some_and(|d| !d.is_empty()),
                "{query}: {problem}"
            );
        }
        call(&app, page(&"0".repeat(32), ""))
            .await
            .problem(404, "unknown_table");
    }
);
