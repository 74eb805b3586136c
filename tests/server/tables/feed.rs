//! A player's feed (`GET /api/v1/players/me/events`, server-sent events): a player seated at
//! three tables of three games hears every move of each, in order, once, with `your_turn` once
//! per turn (the steps of a Hirþ turn make one), `table_started` and `table_finished`; a
//! follower that reconnects with `Last-Event-ID` misses nothing and repeats nothing, and one far
//! behind is sent `reset`. Deadlines are told once, near and passed, whichever of two replicas
//! looks, with time passed in by the test, and a restart in between loses none.

use std::time::Duration;

use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header;
use actix_web::test::TestRequest;
use moot::games::Game;
use moot::games::herfor::{Herfor, HerforOptions};
use moot::games::hirth::Hirth;
use moot::games::tara::Tara;
use moot::tables::player_feed::{FeedCatchUp, Notice};
use moot::tables::{DAY, Tables, Webhook};
use rand::SeedableRng;
use serde_json::{Value, json};

use crate::both;
use crate::tables::db::{self, call, create, new_player, play, random_move, roomy, seats, to_act};
use crate::tables::sse::{Sse, Stream};

/// A fixed start of time, so that deadlines are counted from it.
const T0: i64 = 1_800_000_000_000;

/// `GET /api/v1/players/me/events` with the player's `credential` (after event `last`, if
/// given).
fn feed_request(credential: &str, last: Option<u64>) -> TestRequest {
    let request = TestRequest::get()
        .uri("/api/v1/players/me/events")
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")));
    match last {
        Some(last) => request.insert_header(("Last-Event-ID", last.to_string())),
        None => request,
    }
}

/// Opens the player's feed.
async fn open<S, B>(app: &S, credential: &str, last: Option<u64>) -> Stream
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody + 'static,
{
    let response = app
        .call(feed_request(credential, last).to_request())
        .await
        .expect("the app answers");
    assert_eq!(response.status(), 200);
    let headers = response.headers();
    assert_eq!(headers.get("content-type").unwrap(), "text/event-stream");
    assert_eq!(headers.get("content-encoding").unwrap(), "identity");
    Stream {
        body: response.map_into_boxed_body().into_body(),
        buffer: String::new(),
    }
}

/// What a player expects next on its feed, in order: `(type, table id, ply)`.
type Expected = Vec<(&'static str, String, u64)>;

/// Reads the next `expected.len()` events of `stream` and checks each against what is
/// expected, its number following `seq`; returns them.
async fn expect(stream: &mut Stream, seq: &mut u64, expected: Expected) -> Vec<Sse> {
    let mut seen = Vec::new();
    for (kind, table, ply) in expected {
        let event = stream.next().await.expect("the feed goes on");
        *seq += 1;
        assert_eq!(
            event.id, *seq,
            "numbered in order, none skipped: {event:#?}"
        );
        assert_eq!(event.kind, kind, "{event:#?}");
        assert_eq!(event.data["type"], kind);
        assert_eq!(event.data["seq"], *seq);
        assert_eq!(event.data["table_id"], table.as_str(), "{event:#?}");
        assert_eq!(event.data["ply"], ply, "{event:#?}");
        seen.push(event);
    }
    seen
}

/// A table of the test: its id, credentials, the player's seat index, how it stands.
struct Playing {
    id: String,
    credentials: [String; 2],
    mine: usize,
    table: Value,
    game: &'static str,
}

both!(
    a_players_feed_tells_three_games_once_in_order_and_its_turn_once_per_turn,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let ann = new_player(&app, "Ann").await.1;
        let bo = new_player(&app, "Bo").await.1;
        let mut feed = open(&app, &ann, None).await;
        let opening = feed.next().await.unwrap();
        assert_eq!(opening.kind, "feed");
        assert_eq!(opening.id, 0);
        assert_eq!(opening.data["tables_url"], "/api/v1/players/me/tables");
        let mut seq = 0;
        let mut all = Vec::new();

        // Herfor: Ann first (her turn at once), Bo second.
        let herfor = call(
            &app,
            create(
                json!({"game": "herfor", "options": {"size": 3}, "player_credentials": [ann, bo]}),
            ),
        )
        .await;
        assert_eq!(herfor.status, 201, "{herfor:#?}");
        let (herfor_id, herfor_seats) = seats(&herfor.body);
        let started = expect(
            &mut feed,
            &mut seq,
            vec![
                ("table_started", herfor_id.clone(), 0),
                ("your_turn", herfor_id.clone(), 0),
            ],
        )
        .await;
        assert_eq!(started[0].data["game"], "herfor");
        assert_eq!(started[0].data["seat"], "first");
        assert_eq!(
            started[0].data["url"],
            format!("/api/v1/tables/{herfor_id}")
        );
        all.extend(started);
        // Tara: Ann second, at creation.
        let tara = call(
            &app,
            create(json!({"game": "tara", "player_credentials": [null, ann]})),
        )
        .await;
        let (tara_id, tara_seats) = seats(&tara.body);
        all.extend(
            expect(
                &mut feed,
                &mut seq,
                vec![("table_started", tara_id.clone(), 0)],
            )
            .await,
        );
        // Hirþ: made without players; Ann takes the second seat.
        let hirth = call(
            &app,
            create(json!({"game": "hirth", "options": {"target": 3}, "days_per_move": 3})),
        )
        .await;
        let (hirth_id, hirth_seats) = seats(&hirth.body);
        let taken = call(
            &app,
            TestRequest::put()
                .uri(&format!("/api/v1/tables/{hirth_id}/seats/second/player"))
                .insert_header((header::AUTHORIZATION, format!("Bearer {}", hirth_seats[1])))
                .set_json(json!({"player_credential": ann})),
        )
        .await;
        assert_eq!(taken.status, 200, "{taken:#?}");
        all.extend(
            expect(
                &mut feed,
                &mut seq,
                vec![("table_started", hirth_id.clone(), 0)],
            )
            .await,
        );

        let mut tables = vec![
            Playing {
                id: herfor_id,
                credentials: herfor_seats,
                mine: 0,
                table: herfor.body["table"].clone(),
                game: "herfor",
            },
            Playing {
                id: tara_id,
                credentials: tara_seats,
                mine: 1,
                table: tara.body["table"].clone(),
                game: "tara",
            },
            Playing {
                id: hirth_id,
                credentials: hirth_seats,
                mine: 1,
                table: hirth.body["table"].clone(),
                game: "hirth",
            },
        ];
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        let mut turns_of_several_steps = 0;
        let mut your_turns = 0;
        loop {
            // Round robin over the tables still going, one move each.
            while let Some(next) = tables
                .iter_mut()
                .filter(|t| t.table["status"] == "ongoing")
                .min_by_key(|t| t.table["ply"].as_u64())
            {
                let text = match next.game {
                    "herfor" => random_move::<Herfor>(&next.table, &mut rng),
                    "tara" => random_move::<Tara>(&next.table, &mut rng),
                    _ => random_move::<Hirth>(&next.table, &mut rng),
                };
                let mover = to_act(&next.table);
                let ply = next.table["ply"].as_u64().unwrap();
                let answer = call(&app, play(&next.id, &next.credentials[mover], &text, ply)).await;
                next.table = answer.ok().clone();
                let mut expected = vec![("move", next.id.clone(), ply + 1)];
                if next.table["status"] == "finished" {
                    expected.push(("table_finished", next.id.clone(), ply + 1));
                } else if to_act(&next.table) == next.mine && mover != next.mine {
                    // The move passed to Ann: her turn, told once however many steps it takes.
                    expected.push(("your_turn", next.id.clone(), ply + 1));
                    your_turns += 1;
                } else if to_act(&next.table) == mover && next.game == "hirth" {
                    turns_of_several_steps += 1;
                }
                let seen = expect(&mut feed, &mut seq, expected).await;
                // The move's event is the table's own, as its stream sends it.
                let event = &seen[0].data["event"];
                assert_eq!(event["type"], "move");
                assert_eq!(event["table_id"], next.id.as_str());
                assert_eq!(
                    event["move"]["seat"],
                    if mover == 0 { "first" } else { "second" }
                );
                assert_eq!(event["ply"], next.table["ply"]);
                assert_eq!(event["status"], next.table["status"]);
                if let Some(last) = seen.get(1).filter(|e| e.kind == "your_turn") {
                    assert_eq!(
                        last.data["to_act"],
                        if next.mine == 0 { "first" } else { "second" }
                    );
                    assert_eq!(last.data["deadline"], next.table["deadline"]);
                }
                if let Some(end) = seen.get(1).filter(|e| e.kind == "table_finished") {
                    assert_eq!(end.data["result"], next.table["result"], "{end:#?}");
                }
                all.extend(seen);
            }
            if turns_of_several_steps > 0 && seq > 210 {
                break;
            }
            // The games are random: until a Hirþ turn of several steps was played and the feed is
            // long enough to be reset, another Hirþ table, Ann first.
            let more = call(
                &app,
                create(
                    json!({"game": "hirth", "options": {"target": 1}, "player_credentials": [ann]}),
                ),
            )
            .await;
            assert_eq!(more.status, 201, "{more:#?}");
            let (id, credentials) = seats(&more.body);
            all.extend(
                expect(
                    &mut feed,
                    &mut seq,
                    vec![
                        ("table_started", id.clone(), 0),
                        ("your_turn", id.clone(), 0),
                    ],
                )
                .await,
            );
            tables.push(Playing {
                id,
                credentials,
                mine: 0,
                table: more.body["table"].clone(),
                game: "hirth",
            });
        }
        assert!(your_turns > 3, "Ann's turns were told");
        let last = seq;

        // Reconnecting: from any event, exactly what came after it.
        for from in [last - 150, last - 40, last - 1, last] {
            let mut again = open(&app, &ann, Some(from)).await;
            let mut at = from;
            for event in all.iter().filter(|e| e.id > from) {
                let resent = again.next().await.unwrap();
                at += 1;
                assert_eq!(resent.id, at);
                assert_eq!(resent.data, event.data, "sent again as it was sent");
            }
        }
        // A follower far behind is told to read its tables again, then follows from there.
        let mut behind = open(&app, &ann, Some(1)).await;
        let reset = behind.next().await.unwrap();
        assert_eq!(reset.kind, "reset");
        assert_eq!(reset.id, last);
        assert_eq!(reset.data["tables_url"], "/api/v1/players/me/tables");
        // A number the feed never had.
        let mut ahead = open(&app, &ann, Some(last + 5)).await;
        assert_eq!(ahead.next().await.unwrap().kind, "reset");

        // Bo, at the Herfor table only, heard only of it.
        let mut bos = open(&app, &bo, Some(0)).await;
        let first = bos.next().await.unwrap();
        assert_eq!(
            (first.kind.as_str(), first.data["seat"].as_str()),
            ("table_started", Some("second"))
        );
        let herfor_plies = tables[0].table["ply"].as_u64().unwrap();
        let mut moves = 0;
        let mut finished = 0;
        while moves < herfor_plies || finished == 0 {
            let event = bos.next().await.unwrap();
            assert_eq!(event.data["table_id"], tables[0].id.as_str(), "{event:#?}");
            match event.kind.as_str() {
                "move" => moves += 1,
                "table_finished" => finished += 1,
                "your_turn" => {}
                other => panic!("Bo was told {other}"),
            }
        }
        assert_eq!((moves, finished), (herfor_plies, 1));
    }
);

both!(
    a_players_feed_refuses_what_it_cannot_follow,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let ann = new_player(&app, "Ann").await.1;
        let none = call(&app, TestRequest::get().uri("/api/v1/players/me/events")).await;
        none.problem(401, "unknown_player_key");
        let wrong = call(&app, feed_request(&"0".repeat(64), None)).await;
        wrong.problem(401, "unknown_player_key");
        let bad = call(
            &app,
            feed_request(&ann, None).insert_header(("Last-Event-ID", "soon")),
        )
        .await;
        bad.problem(422, "invalid_request");
        // A browser's EventSource sends the credential in the query.
        let response = app
            .call(
                TestRequest::get()
                    .uri(&format!("/api/v1/players/me/events?credential={ann}"))
                    .to_request(),
            )
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        // Eight places a player (that one, and seven more); the ninth is refused.
        let mut open_feeds = vec![response];
        for _ in 0..7 {
            let response = app
                .call(feed_request(&ann, None).to_request())
                .await
                .unwrap();
            assert_eq!(response.status(), 200);
            open_feeds.push(response);
        }
        let ninth = call(&app, feed_request(&ann, None)).await;
        ninth.problem(503, "streams_full");
        // A feed closed gives its place back.
        open_feeds.pop();
        let again = app
            .call(feed_request(&ann, None).to_request())
            .await
            .unwrap();
        assert_eq!(again.status(), 200);
    }
);

/// The notices of `player`'s feed (by its id) from the start, with the table each tells of.
async fn notices(tables: &Tables, player: &str) -> Vec<(String, Notice)> {
    match tables.feed_events(player, 0, 1000).await.unwrap() {
        FeedCatchUp::Events(events) => events.into_iter().map(|e| (e.table_id, e.notice)).collect(),
        FeedCatchUp::Reset { last } => panic!("a reset at {last}"),
    }
}

/// The kinds of `notices` about table `id`.
fn kinds(notices: &[(String, Notice)], id: &str) -> Vec<&'static str> {
    notices
        .iter()
        .filter(|(t, _)| t == id)
        .map(|(_, n)| n.kind())
        .collect()
}

both!(
    deadlines_are_told_once_near_and_passed_across_two_replicas_and_a_restart,
    |url: String| async move {
        let one = db::tables(&url, 100).await;
        let other = db::tables(&url, 100).await;
        let ann = one
            .create_player(Some("Ann".into()), None, T0)
            .await
            .unwrap();
        let bo = one
            .create_player(Some("Bo".into()), None, T0)
            .await
            .unwrap();
        let options = HerforOptions {
            size: 3,
            ..HerforOptions::default()
        };
        let start = Herfor::new_game(&options).unwrap();
        let created = one
            .create_seated::<Herfor>(
                &options,
                &start,
                Some(moot::tables::Clock::days_per_move(1)),
                [None, None],
                [Some(ann.credential.clone()), Some(bo.credential.clone())],
                Some(Webhook {
                    url: "https://games.example/hooks/moot".into(),
                    secret: "a-long-random-secret-kept-by-the-site".into(),
                }),
                None,
                T0,
            )
            .await
            .unwrap();
        let id = created.table.id.clone();
        // Ann moves at once (a first deadline passed with no move aborts the table instead):
        // Bo's move is due a day later.
        let mv = Herfor::format_move(&start, &Herfor::legal_moves(&start)[0]);
        let after = one.play(&id, &ann.credential, 0, &mv, T0).await.unwrap();
        let deadline = T0 + DAY;
        // Before four fifths of the day: nothing.
        assert_eq!(one.notice_deadlines(T0 + DAY * 4 / 5 - 1).await.unwrap(), 0);
        // Both replicas look at once, at four fifths: one notice.
        let near = T0 + DAY * 4 / 5;
        let (a, b) = tokio::join!(one.notice_deadlines(near), other.notice_deadlines(near));
        assert_eq!(a.unwrap() + b.unwrap(), 1, "told once");
        assert_eq!(other.notice_deadlines(near + 1000).await.unwrap(), 0);
        // A restart: new processes find nothing left to tell until the deadline passes.
        drop((one, other));
        let one = db::tables(&url, 100).await;
        let other = db::tables(&url, 100).await;
        assert_eq!(
            one.notice_deadlines(deadline).await.unwrap(),
            0,
            "not passed at the deadline itself"
        );
        let passed = deadline + 1;
        let (a, b) = tokio::join!(one.notice_deadlines(passed), other.notice_deadlines(passed));
        assert_eq!(a.unwrap() + b.unwrap(), 1, "told once");
        assert_eq!(one.notice_deadlines(passed + DAY).await.unwrap(), 0);

        let bos = notices(&one, &bo.player.id).await;
        assert_eq!(
            kinds(&bos, &id),
            [
                "table_started",
                "move",
                "your_turn",
                "deadline_near",
                "deadline_passed"
            ]
        );
        assert!(
            matches!(bos[3].1, Notice::DeadlineNear { ply: 1, deadline: d, .. } if d == deadline)
        );
        // Ann waits: she hears the deadline pass (she may claim), not that it is near.
        let anns = notices(&one, &ann.player.id).await;
        assert_eq!(
            kinds(&anns, &id),
            ["table_started", "your_turn", "move", "deadline_passed"]
        );

        // Bo moves late (no one claimed): Ann's move is awaited with a new deadline, whose
        // notices are due again. Found only once it has passed: told passed, not near.
        let moved_at = passed + 1000;
        let position: <Herfor as Game>::State =
            serde_json::from_value(after.table.state.clone()).unwrap();
        let mv = Herfor::format_move(&position, &Herfor::legal_moves(&position)[0]);
        one.play(&id, &bo.credential, 1, &mv, moved_at)
            .await
            .unwrap();
        assert_eq!(one.notice_deadlines(moved_at + DAY + 1).await.unwrap(), 1);
        assert_eq!(other.notice_deadlines(moved_at + DAY + 2).await.unwrap(), 0);
        let anns = notices(&one, &ann.player.id).await;
        assert_eq!(
            kinds(&anns, &id),
            [
                "table_started",
                "your_turn",
                "move",
                "deadline_passed",
                "move",
                "your_turn",
                "deadline_passed"
            ]
        );
        // Bo, waiting, claims: the table is over, and no deadline is told of it again.
        one.claim(&id, &bo.credential, moved_at + DAY + 3)
            .await
            .unwrap();
        assert_eq!(one.notice_deadlines(moved_at + 10 * DAY).await.unwrap(), 0);
        let bos = notices(&one, &bo.player.id).await;
        assert_eq!(
            kinds(&bos, &id),
            [
                "table_started",
                "move",
                "your_turn",
                "deadline_near",
                "deadline_passed",
                "move",
                "deadline_passed",
                "claim",
                "table_finished"
            ]
        );
        // The table's webhook was told the same deadlines, each after the change it follows.
        let posted: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT seq, kind, body FROM moot_outbox WHERE table_id = $1 ORDER BY seq, created_ms",
        )
        .bind(&id)
        .fetch_all(&one.store().pool)
        .await
        .unwrap();
        let told: Vec<(i64, &str)> = posted.iter().map(|(s, k, _)| (*s, k.as_str())).collect();
        assert_eq!(
            told,
            [
                (1, "move"),
                (1, "deadline_near"),
                (1, "deadline_passed"),
                (2, "move"),
                (2, "deadline_passed"),
                (3, "claim")
            ]
        );
        let near: Value = serde_json::from_str(&posted[1].2).unwrap();
        assert_eq!(near["type"], "deadline_near");
        assert_eq!(near["to_act"], "second");
        assert_eq!(near["status"], "ongoing");
        assert_eq!(near["ply"], 1);
        assert_eq!(near["deadline"], "2027-01-16T08:00:00Z");
    }
);

both!(
    a_players_feed_is_posted_to_its_webhook_signed_once_in_order,
    |url: String| async move {
        const SECRET: &str = "a-long-random-secret-kept-by-the-site";
        let tables = db::tables(&url, 100).await;
        let worker = moot::webhooks::Deliveries::new(
            tables.clone(),
            moot::webhooks::WebhookLimits {
                allow_private: true,
                ..Default::default()
            },
        )
        .unwrap();
        tokio::spawn(worker.run(tokio_util::sync::CancellationToken::new()));
        let limits = moot::tables::TableLimits {
            allow_private_webhooks: true,
            ..roomy()
        };
        let app = db::app(tables, limits).await;
        let receiver = crate::common::receiver::Receiver::start(SECRET, &[]);
        let ann = new_player(&app, "Ann").await.1;
        let as_ann = |request: TestRequest| {
            request.insert_header((header::AUTHORIZATION, format!("Bearer {ann}")))
        };
        // Refused: a URL the server does not post to, a weak secret; no credential.
        let hook = |url: &str, secret: &str| {
            as_ann(TestRequest::put().uri("/api/v1/players/me/webhook"))
                .set_json(json!({"url": url, "secret": secret}))
        };
        let local = call(&app, hook("ftp://games.example/", SECRET)).await;
        assert_eq!(local.problem(422, "invalid_request")["field"], "url");
        let weak = call(&app, hook(&receiver.url, "short")).await;
        assert_eq!(weak.problem(422, "invalid_request")["field"], "secret");
        let anonymous = call(
            &app,
            TestRequest::put()
                .uri("/api/v1/players/me/webhook")
                .set_json(json!({"url": receiver.url, "secret": SECRET})),
        )
        .await;
        anonymous.problem(401, "unknown_player_key");
        // Named: shown on the player, its secret never.
        let named = call(&app, hook(&receiver.url, SECRET)).await;
        assert_eq!(named.status, 200, "{named:#?}");
        assert_eq!(named.body["webhook_url"], receiver.url.as_str());
        let me = call(&app, as_ann(TestRequest::get().uri("/api/v1/players/me"))).await;
        assert_eq!(me.body["webhook_url"], receiver.url.as_str());
        assert!(!me.body.to_string().contains(SECRET));

        // A whole Herfor game, Ann first.
        let created = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 3}, "player_credentials": [ann]})),
        )
        .await;
        let (id, credentials) = seats(&created.body);
        let mut table = created.body["table"].clone();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        while table["status"] == "ongoing" {
            let text = random_move::<Herfor>(&table, &mut rng);
            let ply = table["ply"].as_u64().unwrap();
            let seat = to_act(&table);
            table = call(&app, play(&id, &credentials[seat], &text, ply))
                .await
                .ok()
                .clone();
        }
        // The feed, read from its start, ends with the table's end.
        let mut feed = open(&app, &ann, Some(0)).await;
        let mut told = Vec::new();
        loop {
            let event = feed.next().await.unwrap();
            let done = event.kind == "table_finished";
            told.push(event);
            if done {
                break;
            }
        }
        let got = receiver
            .until(Duration::from_secs(20), |got| got.len() >= told.len())
            .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(receiver.deliveries().len(), told.len(), "each event once");
        let player_id = me.body["id"].as_str().unwrap();
        for (delivery, event) in got.iter().zip(&told) {
            assert!(delivery.signed, "{delivery:#?}");
            assert_eq!(
                delivery.event_id,
                format!("player:{player_id}-{}", event.id),
                "in order"
            );
            assert_eq!(delivery.kind, event.kind);
            assert_eq!(delivery.body, event.data, "as the feed sends it");
        }
        // Dropped: the next table's events are not posted.
        let dropped = call(
            &app,
            as_ann(TestRequest::delete().uri("/api/v1/players/me/webhook")),
        )
        .await;
        assert_eq!(dropped.status, 204);
        let me = call(&app, as_ann(TestRequest::get().uri("/api/v1/players/me"))).await;
        assert!(me.body.get("webhook_url").is_none(), "{:#}", me.body);
        let more = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 3}, "player_credentials": [ann]})),
        )
        .await;
        assert_eq!(more.status, 201);
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            receiver.deliveries().len(),
            told.len(),
            "nothing more posted"
        );
    }
);

/// With PostgreSQL, a player's follower on one replica hears at once of the events another
/// replica writes (through `NOTIFY`, well before an idle stream's heartbeat would read them).
#[actix_web::test]
async fn a_players_follower_on_one_replica_hears_another_replicas_events() {
    let Some(url) = db::postgres_url().await else {
        return;
    };
    let writer = db::tables(&url, 100).await;
    let follower = db::tables(&url, 100).await;
    let stop = tokio_util::sync::CancellationToken::new();
    let listening = tokio::spawn(follower.clone().listen(url.clone(), stop.clone()));
    let app = db::app(follower, roomy()).await;
    let ann = new_player(&app, "Ann").await.1;
    let mut feed = open(&app, &ann, None).await;
    assert_eq!(feed.next().await.unwrap().kind, "feed");
    // Give the listener its connection before the first notice is sent.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let options = HerforOptions {
        size: 3,
        ..HerforOptions::default()
    };
    let start = Herfor::new_game(&options).unwrap();
    let created = writer
        .create_seated::<Herfor>(
            &options,
            &start,
            None,
            [None, None],
            [Some(ann.clone()), None],
            None,
            None,
            T0,
        )
        .await
        .unwrap();
    let id = created.table.id.clone();
    let started = std::time::Instant::now();
    let mut seq = 0;
    expect(
        &mut feed,
        &mut seq,
        vec![
            ("table_started", id.clone(), 0),
            ("your_turn", id.clone(), 0),
        ],
    )
    .await;
    let mv = Herfor::format_move(&start, &Herfor::legal_moves(&start)[0]);
    writer.play(&id, &ann, 0, &mv, T0 + 1000).await.unwrap();
    expect(&mut feed, &mut seq, vec![("move", id.clone(), 1)]).await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "heard through NOTIFY, not at a heartbeat: {:?}",
        started.elapsed()
    );
    stop.cancel();
    listening.await.unwrap();
}
