//! Takebacks: a seat asks to take back its last move (a whole Hirþ turn) while the other seat
//! has not moved; the other accepts (the table goes back to the position before it, the same
//! seat awaited with a fresh deadline, its followers told) or declines; a move by the other
//! seat lets the request lapse; nothing to take back is refused clearly.

use actix_web::http::header;
use actix_web::test::TestRequest;
use moot::games::herfor::Herfor;
use moot::games::hirth::Hirth;
use moot::tables::player_feed::{FeedCatchUp, Notice};
use moot::tables::{CatchUp, Event, Tables};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde_json::{Value, json};

use crate::both;
use crate::tables::db::{self, call, create, get, roomy, seats};

/// `POST` (ask or accept) or `DELETE` (decline or withdraw) `/api/v1/tables/{id}/takeback`.
fn takeback(id: &str, credential: &str, ask: bool) -> TestRequest {
    let request = if ask {
        TestRequest::post()
    } else {
        TestRequest::delete()
    };
    request
        .uri(&format!("/api/v1/tables/{id}/takeback"))
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
}

/// An RFC 3339 time of an answer, as a time.
fn instant(text: &Value) -> time::OffsetDateTime {
    let text = text.as_str().expect("a time");
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Table `id`'s `ETag` as `GET` answers it.
async fn etag<S, B>(app: &S, id: &str) -> String
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
{
    let answer = app.call(get(id).to_request()).await.expect("an answer");
    let tag = answer.headers().get("etag").expect("an ETag");
    tag.to_str().expect("an ASCII ETag").to_owned()
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

both!(
    a_takeback_asked_and_accepted_puts_the_table_back_before_the_askers_move,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (ann, ann_key) = db::new_player(&app, "Ann").await;
        let (bo, bo_key) = db::new_player(&app, "Bo").await;
        let created = call(
            &app,
            create(json!({
                "game": "herfor",
                "options": {"size": 4, "pie": false},
                "days_per_move": 2,
                "names": ["Ann", "Bo"],
                "player_credentials": [ann_key, bo_key],
            })),
        )
        .await;
        assert_eq!(created.status, 201, "{created:#?}");
        let (id, [first, second]) = seats(&created.body);
        let mut rng = SmallRng::seed_from_u64(7);
        let mut table = created.body["table"].clone();
        let mut positions = vec![table["state"].clone()];
        let mut tags = Vec::new();
        for ply in 0..3 {
            tags.push(etag(&app, &id).await);
            let credential = [&first, &second][db::to_act(&table)];
            let mv = db::random_move::<Herfor>(&table, &mut rng);
            table = call(&app, db::play(&id, credential, &mv, ply))
                .await
                .ok()
                .clone();
            positions.push(table["state"].clone());
        }
        assert_eq!(table["to_act"], "second");
        let before = etag(&app, &id).await;

        // Ann played last: she asks (with her player's credential); asking again answers
        // the same, and the table shows her request.
        for _ in 0..2 {
            let asked = call(&app, takeback(&id, &ann_key, true)).await;
            assert_eq!(asked.status, 200, "{asked:#?}");
            assert_eq!(asked.body["status"], "asked");
            assert_eq!(asked.body["table"]["takeback_asked_by"], "first");
            assert_eq!(asked.body["table"]["ply"], 3);
        }
        assert_eq!(
            call(&app, get(&id)).await.ok()["takeback_asked_by"],
            "first"
        );
        assert!(told(&tables, &bo, &id).await.ends_with(&["takeback_asked"]));
        // A request standing changes the table's ETag (a client revalidating sees it).
        let asked_tag = etag(&app, &id).await;
        assert_ne!(asked_tag, before);

        // Bo accepts with his seat's credential: back at ply 2, Ann to move, the position
        // the one before her move, the deadline fresh.
        let accepted = call(&app, takeback(&id, &second, true)).await;
        assert_eq!(accepted.status, 200, "{accepted:#?}");
        assert_eq!(accepted.body["status"], "taken_back");
        let back = &accepted.body["table"];
        assert_eq!(back["ply"], 2);
        assert_eq!(back["to_act"], "first");
        assert_eq!(back["state"], positions[2]);
        assert_eq!(back.get("takeback_asked_by"), None);
        // As times, not words: RFC 3339 writes as few digits of a second as it needs.
        assert!(instant(&back["deadline"]) > instant(&table["deadline"]));
        // Back at ply 2, the table is not what it was at ply 2: its ETag says so.
        let taken = etag(&app, &id).await;
        assert!(
            !tags.contains(&taken) && taken != asked_tag,
            "{taken} in {tags:?}"
        );
        let history = call(
            &app,
            TestRequest::get().uri(&format!("/api/v1/tables/{id}/moves")),
        )
        .await;
        assert_eq!(history.ok()["moves"].as_array().unwrap().len(), 2);
        let ann_told = told(&tables, &ann, &id).await;
        assert!(
            ann_told.ends_with(&["takeback_asked", "takeback", "your_turn"]),
            "{ann_told:?}"
        );
        assert!(told(&tables, &bo, &id).await.ends_with(&["takeback"]));

        // The change numbers grow on: the takeback's is 2 + 2 × 1 = 4, after the moves' 3.
        // A follower that saw it reads the next move; one that saw only the moves taken back
        // is given the table anew.
        let replay = call(
            &app,
            db::play(&id, &first, &db::random_move::<Herfor>(back, &mut rng), 2),
        )
        .await;
        assert_eq!(replay.ok()["ply"], 3);
        match tables.catch_up(&id, 4, 10).await.unwrap() {
            CatchUp::Changes(changes) => {
                assert_eq!(changes.len(), 1, "{changes:#?}");
                assert_eq!(changes[0].seq, 5);
                assert!(matches!(&changes[0].event, Event::Moved(p) if p.ply == 3));
            }
            CatchUp::Reset(table) => panic!("a reset at {}", table.seq()),
        }
        for seen in [2, 3] {
            match tables.catch_up(&id, seen, 10).await.unwrap() {
                CatchUp::Reset(table) => assert_eq!((table.ply, table.seq()), (3, 5)),
                CatchUp::Changes(changes) => panic!("changes after {seen}: {changes:#?}"),
            }
        }
        match tables.catch_up(&id, 3, 10).await.unwrap() {
            CatchUp::Reset(_) => {}
            other => panic!("{other:?}"),
        }
        // The stream and webhook's event: `takeback`, Ann's plies, the table after.
        let FeedCatchUp::Events(events) = tables.feed_events(&bo, 0, 1000).await.unwrap() else {
            panic!("a reset");
        };
        let change = events
            .iter()
            .find_map(|e| match &e.notice {
                Notice::Change(change) if change.event.name() == "takeback" => Some(change),
                _ => None,
            })
            .expect("the takeback told");
        assert_eq!(change.seq, 4);
        assert_eq!(change.after.ply, 2);
        assert!(matches!(
            change.event,
            Event::TakenBack {
                seat: moot::games::Seat::First,
                plies: 1
            }
        ));
    }
);

both!(
    a_takeback_declined_withdrawn_or_lapsed_leaves_the_table_as_it_was,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (ann, ann_key) = db::new_player(&app, "Ann").await;
        let (_, bo_key) = db::new_player(&app, "Bo").await;
        let created = call(
            &app,
            create(json!({
                "game": "herfor",
                "options": {"size": 3, "pie": false},
                "player_credentials": [ann_key, bo_key],
            })),
        )
        .await;
        let (id, [first, second]) = seats(&created.body);
        let mut rng = SmallRng::seed_from_u64(3);
        let table = created.body["table"].clone();
        let mv = db::random_move::<Herfor>(&table, &mut rng);
        let table = call(&app, db::play(&id, &first, &mv, 0)).await.ok().clone();

        // Declined by Bo: the table unchanged, Ann told.
        call(&app, takeback(&id, &first, true)).await.ok();
        let declined = call(&app, takeback(&id, &second, false)).await;
        let declined = declined.ok();
        assert_eq!(declined.get("takeback_asked_by"), None);
        assert_eq!(declined["ply"], 1);
        assert_eq!(declined["state"], table["state"]);
        assert!(
            told(&tables, &ann, &id)
                .await
                .ends_with(&["takeback_declined"])
        );
        let again = call(&app, takeback(&id, &second, false)).await;
        again.problem(409, "no_takeback_request");

        // Withdrawn by Ann herself.
        call(&app, takeback(&id, &first, true)).await.ok();
        let withdrawn = call(&app, takeback(&id, &ann_key, false)).await;
        assert_eq!(withdrawn.ok().get("takeback_asked_by"), None);

        // Asked again, then Bo moves instead: the request lapses, and Ann has nothing to take
        // back now (Bo moved since her move); Bo could ask for his.
        call(&app, takeback(&id, &first, true)).await.ok();
        let mv = db::random_move::<Herfor>(&table, &mut rng);
        let moved = call(&app, db::play(&id, &second, &mv, 1)).await;
        assert_eq!(moved.ok().get("takeback_asked_by"), None, "{moved:#?}");
        let late = call(&app, takeback(&id, &first, true)).await;
        late.problem(409, "nothing_to_take_back");
        let accept_gone = call(&app, takeback(&id, &first, false)).await;
        accept_gone.problem(409, "no_takeback_request");
    }
);

both!(
    a_takeback_is_refused_where_there_is_nothing_to_take_back,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables, roomy()).await;
        let created = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 3, "pie": false}})),
        )
        .await;
        let (id, [first, second]) = seats(&created.body);
        // No move yet.
        let none = call(&app, takeback(&id, &first, true)).await;
        none.problem(409, "nothing_to_take_back");
        assert!(
            none.body["detail"].as_str().unwrap().contains("no move"),
            "{none:#?}"
        );
        let mv = db::random_move::<Herfor>(&created.body["table"], &mut SmallRng::seed_from_u64(1));
        call(&app, db::play(&id, &first, &mv, 0)).await.ok();
        // The seat awaited has nothing to take back: its own move is due.
        let awaited = call(&app, takeback(&id, &second, true)).await;
        awaited.problem(409, "nothing_to_take_back");
        // A wrong credential, an unknown table, a finished table.
        call(&app, takeback(&id, "nope", true))
            .await
            .problem(401, "unauthorized");
        let unknown = "0123456789abcdef0123456789abcdef";
        call(&app, takeback(unknown, &first, true))
            .await
            .problem(404, "unknown_table");
        call(&app, db::act(&id, &second, "resign")).await.ok();
        call(&app, takeback(&id, &first, true))
            .await
            .problem(410, "table_finished");
        call(&app, takeback(&id, &first, false))
            .await
            .problem(410, "table_finished");
    }
);

both!(
    a_takeback_of_a_hirth_turn_takes_back_every_step_of_it,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables, roomy()).await;
        let created = call(
            &app,
            create(json!({"game": "hirth", "options": {"target": 3}})),
        )
        .await;
        assert_eq!(created.status, 201, "{created:#?}");
        let (id, credentials) = seats(&created.body);
        let mut rng = SmallRng::seed_from_u64(11);
        let mut table = created.body["table"].clone();
        // Played until a turn of two plies or more ends with the other seat awaited.
        let mut positions: Vec<Value> = vec![table["state"].clone()];
        let mut movers: Vec<usize> = Vec::new();
        let (asker, turn_start) = loop {
            assert_eq!(
                table["status"], "ongoing",
                "no long turn before the end: {movers:?}"
            );
            let seat = db::to_act(&table);
            let mv = db::random_move::<Hirth>(&table, &mut rng);
            let ply = table["ply"].as_u64().unwrap();
            table = call(&app, db::play(&id, &credentials[seat], &mv, ply))
                .await
                .ok()
                .clone();
            positions.push(table["state"].clone());
            movers.push(seat);
            let run = movers.iter().rev().take_while(|s| **s == seat).count();
            if table["status"] == "ongoing" && db::to_act(&table) != seat && run >= 2 {
                break (seat, movers.len() - run);
            }
        };
        let asked = call(&app, takeback(&id, &credentials[asker], true)).await;
        assert_eq!(
            asked.ok()["table"]["takeback_asked_by"],
            ["first", "second"][asker]
        );
        let accepted = call(&app, takeback(&id, &credentials[1 - asker], true)).await;
        let back = &accepted.ok()["table"];
        assert_eq!(
            back["ply"], turn_start as u64,
            "the whole turn is taken back"
        );
        assert_eq!(back["state"], positions[turn_start]);
        assert_eq!(db::to_act(back), asker);
    }
);

both!(
    a_takeback_asked_and_withdrawn_three_times_is_refused_the_fourth_time_until_the_next_move,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let created = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 4, "pie": false}})),
        )
        .await;
        assert_eq!(created.status, 201, "{created:#?}");
        let (id, [first, second]) = seats(&created.body);
        let mut rng = SmallRng::seed_from_u64(11);
        let mut table = created.body["table"].clone();
        let mut play = async |table: &Value, credential: &str, ply: u64| {
            let mv = db::random_move::<Herfor>(table, &mut rng);
            call(&app, db::play(&id, credential, &mv, ply))
                .await
                .ok()
                .clone()
        };
        table = play(&table, &first, 0).await;
        for cycle in 0..3 {
            let asked = call(&app, takeback(&id, &first, true)).await;
            assert_eq!(asked.status, 200, "ask {cycle}: {asked:#?}");
            // Asking again while the request stands is the same request, not counted.
            assert_eq!(call(&app, takeback(&id, &first, true)).await.status, 200);
            let withdrawn = call(&app, takeback(&id, &first, false)).await;
            assert_eq!(withdrawn.status, 200, "withdrawal {cycle}: {withdrawn:#?}");
        }
        let refused = call(&app, takeback(&id, &first, true)).await;
        refused.problem(429, "rate_limited");
        assert!(
            refused.body["detail"]
                .as_str()
                .is_some_and(|d| d.contains("at most 3") && d.contains("next move")),
            "{:#}",
            refused.body
        );
        assert_eq!(
            call(&app, get(&id)).await.ok()["takeback_asked_by"],
            Value::Null,
            "the refused request does not stand"
        );
        // After the next moves, the first seat may ask again.
        table = play(&table, &second, 1).await;
        table = play(&table, &first, 2).await;
        assert_eq!(table["ply"], 3);
        let asked = call(&app, takeback(&id, &first, true)).await;
        assert_eq!(asked.status, 200, "{asked:#?}");
        assert_eq!(asked.body["status"], "asked");
    }
);
