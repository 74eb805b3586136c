//! Player keys and "your tables": a player made with `POST /api/v1/players` takes seats (at a
//! table's creation, or later with the seat's credential) and lists its tables with its
//! credential: the player's turn first, filtered by `to_act=me` and `status`, a page at a
//! time, revalidated with an `ETag`. Its credential never comes back in any answer.

use actix_web::dev::Service;
use actix_web::http::header;
use actix_web::test::TestRequest;
use moot::games::herfor::Herfor;
use moot::games::hirth::Hirth;
use moot::games::tara::Tara;
use moot::tables::TableLimits;
use rand::SeedableRng;
use serde_json::{Value, json};

use crate::both;
use crate::common::Answer;
use crate::tables::db::{self, call, create, get, play, random_move, roomy, seats, to_act};

/// `POST /api/v1/players` with `body`.
fn new_player(body: Value) -> TestRequest {
    TestRequest::post().uri("/api/v1/players").set_json(body)
}

/// `GET {uri}` with the player's `credential`.
fn as_player(uri: &str, credential: &str) -> TestRequest {
    TestRequest::get()
        .uri(uri)
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
}

/// `GET /api/v1/players/me/tables{query}` with the player's `credential`.
fn my_tables(credential: &str, query: &str) -> TestRequest {
    as_player(&format!("/api/v1/players/me/tables{query}"), credential)
}

/// `PUT /api/v1/tables/{id}/seats/{seat}/player` with the seat's credential (if any) and the
/// player's.
fn take_seat(id: &str, seat: &str, seat_credential: Option<&str>, player: &str) -> TestRequest {
    let request = TestRequest::put()
        .uri(&format!("/api/v1/tables/{id}/seats/{seat}/player"))
        .set_json(json!({"player_credential": player}));
    match seat_credential {
        Some(credential) => {
            request.insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
        }
        None => request,
    }
}

/// A new player named `name`: its id and credential.
async fn player<S, B>(app: &S, name: &str) -> (String, String)
where
    S: Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let made = call(app, new_player(json!({"name": name}))).await;
    assert_eq!(made.status, 201, "{made:#?}");
    assert_eq!(made.location.as_deref(), Some("/api/v1/players/me"));
    assert_eq!(made.body["name"], name);
    (
        made.body["id"].as_str().unwrap().to_owned(),
        made.body["credential"].as_str().unwrap().to_owned(),
    )
}

/// Every answer but a player's creation: none may hold a player's credential.
#[derive(Default)]
struct Watch {
    secrets: Vec<String>,
}

impl Watch {
    #[track_caller]
    fn check(&self, answer: &Answer) {
        let text = format!("{} {:?}", answer.body, answer.location);
        for secret in &self.secrets {
            assert!(
                !text.contains(secret.as_str()),
                "a player credential came back: {text}"
            );
        }
    }
}

/// The list's entries.
fn entries(answer: &Answer) -> Vec<Value> {
    assert_eq!(answer.status, 200, "{answer:#?}");
    answer.body["tables"].as_array().expect("tables").clone()
}

fn ids(entries: &[Value]) -> Vec<String> {
    entries
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}

fn millis(text: &Value) -> i128 {
    time::OffsetDateTime::parse(
        text.as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap()
    .unix_timestamp_nanos()
}

/// A table being played in the test: its id, both credentials, the player's seat index, and
/// how it stands.
struct Playing {
    id: String,
    credentials: [String; 2],
    mine: usize,
    table: Value,
    game: &'static str,
    /// Whether one seat made two moves in a row (a turn of several steps).
    several_steps: bool,
}

both!(
    a_players_list_and_its_filters_follow_three_games_to_their_ends,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (ann_id, ann) = player(&app, "Ann").await;
        let (_, bo) = player(&app, "Bo").await;
        let watch = Watch {
            secrets: vec![ann.clone(), bo.clone()],
        };

        // Herfor: Ann first and Bo second, at creation; Bo unnamed is named after his player.
        let herfor = call(
            &app,
            create(
                json!({"game": "herfor", "options": {"size": 3}, "player_credentials": [ann, bo]}),
            ),
        )
        .await;
        watch.check(&herfor);
        assert_eq!(herfor.status, 201, "{herfor:#?}");
        assert_eq!(herfor.body["table"]["seats"][1]["name"], "Bo");
        // Tara: Ann second, at creation, beside a named seat of no player.
        let tara = call(
            &app,
            create(json!({"game": "tara", "names": ["Cara"], "player_credentials": [null, ann]})),
        )
        .await;
        watch.check(&tara);
        assert_eq!(tara.status, 201, "{tara:#?}");
        // Hirþ: made without players; Ann takes the second seat with its credential.
        let hirth = call(
            &app,
            create(json!({"game": "hirth", "options": {"target": 1}, "names": ["Dag"], "days_per_move": 3})),
        )
        .await;
        let (hirth_id, hirth_seats) = seats(&hirth.body);
        let taken = call(
            &app,
            take_seat(&hirth_id, "second", Some(&hirth_seats[1]), &ann),
        )
        .await;
        watch.check(&taken);
        assert_eq!(taken.status, 200, "{taken:#?}");
        assert_eq!(taken.body["player"]["id"], ann_id.as_str());

        let playing = |created: &Answer, mine: usize, game: &'static str| {
            let (id, credentials) = seats(&created.body);
            Playing {
                id,
                credentials,
                mine,
                table: created.body["table"].clone(),
                game,
                several_steps: false,
            }
        };
        let mut tables = [
            playing(&herfor, 0, "herfor"),
            playing(&tara, 1, "tara"),
            playing(&hirth, 1, "hirth"),
        ];
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let mut rounds = 0;
        loop {
            check_list(&app, &watch, &ann, &tables).await;
            let Some(next) = tables.iter_mut().find(|t| t.table["status"] == "ongoing") else {
                break;
            };
            rounds += 1;
            assert!(rounds < 5_000, "the games did not end");
            let text = match next.game {
                "herfor" => random_move::<Herfor>(&next.table, &mut rng),
                "tara" => random_move::<Tara>(&next.table, &mut rng),
                _ => random_move::<Hirth>(&next.table, &mut rng),
            };
            let seat = to_act(&next.table);
            let ply = next.table["ply"].as_u64().unwrap();
            let answer = call(&app, play(&next.id, &next.credentials[seat], &text, ply)).await;
            watch.check(&answer);
            next.table = answer.ok().clone();
            if next.table["status"] == "ongoing" && to_act(&next.table) == seat {
                next.several_steps = true;
            }
        }
        assert!(
            tables[2].several_steps,
            "a Hirþ turn of several steps was played through"
        );
        // Bo sees his one table, finished, with Ann's name as the opponent's.
        let bos = entries(&call(&app, my_tables(&bo, "")).await);
        assert_eq!(ids(&bos), [tables[0].id.clone()]);
        assert_eq!(bos[0]["opponent_name"], "Ann");
        assert_eq!(bos[0]["seat"], "second");
    }
);

/// Ann's list and both its filters, as the tables stand: every table once, the player's turn
/// first, then the most recently changed; `your_turn` exactly where the table awaits Ann's
/// seat; each entry as the table says.
async fn check_list<S, B>(app: &S, watch: &Watch, ann: &str, tables: &[Playing])
where
    S: Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let all = call(app, my_tables(ann, "")).await;
    watch.check(&all);
    let all = entries(&all);
    assert_eq!(all.len(), 3, "{all:#?}");
    for entry in &all {
        let playing = tables
            .iter()
            .find(|t| entry["id"] == t.id.as_str())
            .expect("a table of Ann's");
        let table = &playing.table;
        let seat = ["first", "second"][playing.mine];
        let awaited = table["status"] == "ongoing" && to_act(table) == playing.mine;
        assert_eq!(entry["your_turn"], awaited, "{entry:#} at {table:#}");
        assert_eq!(entry["seat"], seat);
        assert_eq!(entry["game"], playing.game);
        assert_eq!(entry["ply"], table["ply"]);
        assert_eq!(entry["status"], table["status"]);
        assert_eq!(entry["updated"], table["updated"]);
        assert_eq!(entry.get("deadline"), table.get("deadline"));
        assert_eq!(entry.get("result"), table.get("result"));
        assert_eq!(entry["url"], format!("/api/v1/tables/{}", playing.id));
        let opponent = &table["seats"][1 - playing.mine]["name"];
        assert_eq!(&entry["opponent_name"], opponent, "{entry:#}");
    }
    // The order: your turn first, then the most recently changed.
    for pair in all.windows(2) {
        let key = |e: &Value| (e["your_turn"].as_bool().unwrap(), millis(&e["updated"]));
        assert!(key(&pair[0]) >= key(&pair[1]), "out of order: {all:#?}");
    }
    let mine = entries(&call(app, my_tables(ann, "?to_act=me")).await);
    let expected: Vec<Value> = all
        .iter()
        .filter(|e| e["your_turn"] == true)
        .cloned()
        .collect();
    assert_eq!(mine, expected, "to_act=me");
    for (status, finished) in [("ongoing", false), ("finished", true)] {
        let some = entries(&call(app, my_tables(ann, &format!("?status={status}"))).await);
        let expected: Vec<Value> = all
            .iter()
            .filter(|e| (e["status"] == "finished") == finished)
            .cloned()
            .collect();
        assert_eq!(some, expected, "status={status}");
    }
}

both!(
    a_seat_is_claimed_with_its_own_credential_once_per_player_and_again_idempotently,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (ann_id, ann) = player(&app, "Ann").await;
        let (_, bo) = player(&app, "Bo").await;
        let watch = Watch {
            secrets: vec![ann.clone(), bo.clone()],
        };
        let created = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 3}})),
        )
        .await;
        let (id, credentials) = seats(&created.body);
        let stranger = "ab".repeat(32);

        // No seat's credential, the other seat's, none.
        for credential in [Some(stranger.as_str()), Some(credentials[1].as_str()), None] {
            let refused = call(&app, take_seat(&id, "first", credential, &ann)).await;
            watch.check(&refused);
            refused.problem(401, "unauthorized");
        }
        let first = call(&app, take_seat(&id, "first", Some(&credentials[0]), &ann)).await;
        watch.check(&first);
        assert_eq!(first.status, 200, "{first:#?}");
        assert_eq!(first.body["player"]["id"], ann_id.as_str());
        assert_eq!(first.body["seat"], "first");
        let again = call(&app, take_seat(&id, "first", Some(&credentials[0]), &ann)).await;
        assert_eq!(again.status, 200, "{again:#?}");
        assert_eq!(again.body, first.body, "the same claim answers the same");

        let held = call(&app, take_seat(&id, "first", Some(&credentials[0]), &bo)).await;
        watch.check(&held);
        held.problem(409, "seat_taken");
        let both = call(&app, take_seat(&id, "second", Some(&credentials[1]), &ann)).await;
        both.problem(409, "seat_taken");
        let unknown = call(
            &app,
            take_seat(&id, "first", Some(&credentials[0]), &stranger),
        )
        .await;
        assert_eq!(
            unknown.problem(401, "unknown_player_key")["field"],
            "player_credential"
        );
        let third = call(&app, take_seat(&id, "third", Some(&credentials[0]), &ann)).await;
        assert_eq!(third.problem(404, "not_found")["field"], "seat");
        call(
            &app,
            take_seat(&"0".repeat(32), "first", Some(&credentials[0]), &ann),
        )
        .await
        .problem(404, "unknown_table");
        let no_body = TestRequest::put()
            .uri(&format!("/api/v1/tables/{id}/seats/first/player"))
            .insert_header((header::AUTHORIZATION, format!("Bearer {}", credentials[0])))
            .set_json(json!({}));
        call(&app, no_body).await.problem(422, "invalid_request");

        // The seats' credentials keep working alone; Bo takes the second seat.
        let table = &created.body["table"];
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let text = random_move::<Herfor>(table, &mut rng);
        let moved = call(&app, play(&id, &credentials[to_act(table)], &text, 0)).await;
        watch.check(&moved);
        moved.ok();
        let bos = call(&app, take_seat(&id, "second", Some(&credentials[1]), &bo)).await;
        assert_eq!(bos.status, 200, "{bos:#?}");
        let read = call(&app, get(&id)).await;
        watch.check(&read);
        assert!(
            !read.body.to_string().contains(&ann_id),
            "no player id on the table"
        );

        // `me`, with a credential and without.
        let me = call(&app, as_player("/api/v1/players/me", &ann)).await;
        watch.check(&me);
        assert_eq!(me.ok(), &json!({"id": ann_id, "name": "Ann"}));
        call(&app, as_player("/api/v1/players/me", &stranger))
            .await
            .problem(401, "unknown_player_key");
        call(&app, TestRequest::get().uri("/api/v1/players/me"))
            .await
            .problem(401, "unknown_player_key");

        // Players made and used at a creation: names checked, credentials known and distinct.
        let nameless = call(&app, new_player(json!({}))).await;
        assert_eq!(nameless.status, 201, "{nameless:#?}");
        assert!(nameless.body.get("name").is_none());
        let bad = call(&app, new_player(json!({"name": "a\u{202e}b"}))).await;
        assert_eq!(bad.problem(422, "invalid_request")["field"], "name");
        let twice = call(
            &app,
            create(json!({"game": "herfor", "player_credentials": [ann, ann]})),
        )
        .await;
        twice.problem(422, "invalid_request");
        let wrong = call(
            &app,
            create(json!({"game": "herfor", "player_credentials": [null, stranger]})),
        )
        .await;
        assert_eq!(
            wrong.problem(401, "unknown_player_key")["field"],
            "player_credentials[1]"
        );
        for (body, field) in [
            (
                json!({"game": "herfor", "player_credentials": [ann, null, bo]}),
                "player_credentials",
            ),
            (
                json!({"game": "herfor", "player_credentials": [1]}),
                "player_credentials",
            ),
            (
                json!({"game": "herfor", "player_credentials": ann}),
                "player_credentials",
            ),
        ] {
            let refused = call(&app, create(body)).await;
            watch.check(&refused);
            assert_eq!(refused.problem(422, "invalid_request")["field"], field);
        }
        let extra = call(
            &app,
            TestRequest::put()
                .uri(&format!("/api/v1/tables/{id}/seats/first/player"))
                .insert_header((header::AUTHORIZATION, format!("Bearer {}", credentials[0])))
                .set_json(json!({"player_credential": ann, "seat": "first"})),
        )
        .await;
        watch.check(&extra);
        extra.problem(422, "invalid_request");
        call(&app, new_player(json!({"name": 7})))
            .await
            .problem(422, "invalid_request");
    }
);

both!(
    wrong_player_credentials_are_throttled_but_the_right_one_passes,
    |url: String| async move {
        let limits = TableLimits {
            create_burst: 2,
            guess_burst: 2,
            ..TableLimits::default()
        };
        let app = db::app(db::tables(&url, 100).await, limits).await;
        let (_, ann) = player(&app, "Ann").await;
        let stranger = "cd".repeat(32);
        for _ in 0..2 {
            call(&app, as_player("/api/v1/players/me", &stranger))
                .await
                .problem(401, "unknown_player_key");
        }
        let barred = call(&app, as_player("/api/v1/players/me", &stranger)).await;
        barred.problem(429, "rate_limited");
        assert!(barred.retry_after.is_some());
        call(&app, as_player("/api/v1/players/me", &ann)).await.ok();
        call(&app, my_tables(&ann, "")).await.ok();

        // Players are made at the rate tables are.
        player(&app, "Bo").await;
        call(&app, new_player(json!({})))
            .await
            .problem(429, "rate_limited");
    }
);

both!(
    a_players_tables_page_once_each_revalidate_and_leave_when_swept,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (_, ann) = player(&app, "Ann").await;
        let mut made = Vec::new();
        for _ in 0..5 {
            let created = call(
                &app,
                create(
                    json!({"game": "herfor", "options": {"size": 3}, "player_credentials": [ann]}),
                ),
            )
            .await;
            assert_eq!(created.status, 201, "{created:#?}");
            made.push(seats(&created.body));
        }
        let mut expected: Vec<String> = made.iter().map(|(id, _)| id.clone()).collect();
        expected.sort();

        // limit=1 walks every table once, by the `next` links.
        for filter in ["", "&status=ongoing"] {
            let mut walked = Vec::new();
            let mut next = Some(format!("/api/v1/players/me/tables?limit=1{filter}"));
            while let Some(uri) = next {
                let page = call(&app, as_player(&uri, &ann)).await;
                let page_entries = entries(&page);
                assert!(page_entries.len() <= 1);
                walked.extend(ids(&page_entries));
                next = page.body["next"].as_str().map(str::to_owned);
                assert!(walked.len() <= 5, "the walk ends: {walked:?}");
            }
            walked.sort();
            assert_eq!(walked, expected, "every table once ({filter})");
        }
        let whole = entries(&call(&app, my_tables(&ann, "?limit=100")).await);
        assert_eq!(whole.len(), 5);

        // ETag: 304 until a move changes a table of the list.
        let first = app.call(my_tables(&ann, "").to_request()).await.unwrap();
        assert_eq!(first.status(), 200);
        let tag = first.headers().get(header::ETAG).expect("an ETag").clone();
        let again = app
            .call(
                my_tables(&ann, "")
                    .insert_header((header::IF_NONE_MATCH, tag.clone()))
                    .to_request(),
            )
            .await
            .unwrap();
        assert_eq!(again.status(), 304);
        let (id, credentials) = &made[2];
        let table = call(&app, get(id)).await.ok().clone();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(2);
        let text = random_move::<Herfor>(&table, &mut rng);
        call(&app, play(id, &credentials[to_act(&table)], &text, 0))
            .await
            .ok();
        let changed = app
            .call(
                my_tables(&ann, "")
                    .insert_header((header::IF_NONE_MATCH, tag.clone()))
                    .to_request(),
            )
            .await
            .unwrap();
        assert_eq!(changed.status(), 200);
        assert_ne!(changed.headers().get(header::ETAG), Some(&tag));

        // Bad queries: 400 naming the parameter.
        for (query, parameter) in [
            ("?status=over", "status"),
            ("?status=", "status"),
            ("?to_act=you", "to_act"),
            ("?limit=0", "limit"),
            ("?limit=101", "limit"),
            ("?limit=ten", "limit"),
            ("?after=nowhere", "after"),
            ("?after=1.2.3", "after"),
            ("?colour=red", "colour"),
            ("?status=ongoing&status=finished", "status"),
        ] {
            let refused = call(&app, my_tables(&ann, query)).await;
            assert_eq!(
                refused.problem(400, "invalid_query")["field"],
                parameter,
                "{query}"
            );
        }

        // A finished table, once swept, leaves the list; the others stay.
        let (gone, gone_seats) = &made[4];
        call(&app, db::act(gone, &gone_seats[0], "resign"))
            .await
            .ok();
        let finished = entries(&call(&app, my_tables(&ann, "?status=finished")).await);
        assert_eq!(ids(&finished), std::slice::from_ref(gone));
        let swept = tables
            .sweep(moot::tables::now() + 2 * moot::tables::DAY, 1)
            .await
            .expect("the sweep");
        assert_eq!(swept, 1);
        let left = entries(&call(&app, my_tables(&ann, "")).await);
        assert_eq!(left.len(), 4);
        assert!(!ids(&left).contains(gone));
    }
);

both!(
    a_table_kept_before_its_awaited_seat_was_kept_lists_whose_turn_once_claimed,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (_, ann) = player(&app, "Ann").await;
        let created = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 3}})),
        )
        .await;
        let (id, credentials) = seats(&created.body);
        // As a server of an older version wrote it: no awaited seat beside the state.
        sqlx::query("UPDATE moot_tables SET to_act = NULL WHERE id = $1")
            .bind(&id)
            .execute(&tables.store().pool)
            .await
            .unwrap();
        let taken = call(&app, take_seat(&id, "first", Some(&credentials[0]), &ann)).await;
        assert_eq!(taken.status, 200, "{taken:#?}");
        let listed = entries(&call(&app, my_tables(&ann, "?to_act=me")).await);
        assert_eq!(ids(&listed), [id], "the first seat's move is awaited");
    }
);

both!(
    a_players_credential_plays_and_resigns_at_the_seats_its_player_took_and_no_other,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (_, ann) = player(&app, "Ann").await;
        let (_, bo) = player(&app, "Bo").await;
        let (_, cy) = player(&app, "Cy").await;
        let created = call(
            &app,
            create(
                json!({"game": "herfor", "options": {"size": 3, "pie": false},
                          "player_credentials": [ann, null]}),
            ),
        )
        .await;
        assert_eq!(created.status, 201, "{created:#?}");
        let (id, credentials) = seats(&created.body);
        let taken = call(&app, take_seat(&id, "second", Some(&credentials[1]), &bo)).await;
        assert_eq!(taken.status, 200, "{taken:#?}");
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut table = created.body["table"].clone();

        // Ann's key plays the first seat's move; Bo's and Cy's do not.
        let mv = random_move::<Herfor>(&table, &mut rng);
        call(&app, play(&id, &bo, &mv, 0))
            .await
            .problem(403, "not_your_turn");
        call(&app, play(&id, &cy, &mv, 0))
            .await
            .problem(401, "unauthorized");
        let played = call(&app, play(&id, &ann, &mv, 0)).await;
        assert_eq!(played.status, 200, "{played:#?}");
        table = played.body.clone();
        assert_eq!(to_act(&table), 1);

        // Bo's key plays the second seat's, and the seat's own credential still does.
        let mv = random_move::<Herfor>(&table, &mut rng);
        let played = call(&app, play(&id, &bo, &mv, 1)).await;
        assert_eq!(played.status, 200, "{played:#?}");
        table = played.body.clone();
        let mv = random_move::<Herfor>(&table, &mut rng);
        let played = call(&app, play(&id, &credentials[0], &mv, 2)).await;
        assert_eq!(played.status, 200, "{played:#?}");

        // Cy's key resigns nothing; Bo's resigns the second seat: the first wins.
        call(&app, db::act(&id, &cy, "resign"))
            .await
            .problem(401, "unauthorized");
        let resigned = call(&app, db::act(&id, &bo, "resign")).await;
        assert_eq!(resigned.status, 200, "{resigned:#?}");
        let after = call(&app, get(&id)).await;
        assert_eq!(after.body["status"], "finished", "{after:#?}");
        assert_eq!(after.body["result"]["winner"], "first", "{after:#?}");
        for answer in [&played, &resigned, &after] {
            let text = answer.body.to_string();
            assert!(!text.contains(&ann) && !text.contains(&bo), "{text}");
        }
    }
);
