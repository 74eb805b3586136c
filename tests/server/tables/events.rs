//! A table's event stream (`GET /api/v1/tables/{id}/events`, server-sent events): a follower
//! sees every change of a whole game in order, each telling where the table its change answered
//! stands; one that reconnects with `Last-Event-ID` misses nothing and gets nothing twice, and
//! one far behind gets the table once (`reset`); the stream ends after the table's last event;
//! streams are bounded per table, per seat and per address, and a seat's player always has a
//! place.

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::TestRequest;
use moot::games::Game;
use moot::games::herfor::Herfor;
use moot::games::hirth::Hirth;
use moot::games::tara::Tara;
use moot::tables::FeedLimits;
use rand::SeedableRng;
use serde_json::{Value, json};

use crate::both;
use crate::tables::db::{self, act, call, create, play, random_move, roomy, seats, to_act};

use crate::tables::sse::{Sse, Stream};

fn events_request(id: &str, last: Option<u64>) -> TestRequest {
    let request = TestRequest::get().uri(&format!("/api/v1/tables/{id}/events"));
    match last {
        Some(last) => request.insert_header(("Last-Event-ID", last.to_string())),
        None => request,
    }
}

/// Opens table `id`'s stream (after event `last`, if given).
async fn open<S, B>(app: &S, id: &str, last: Option<u64>) -> Stream
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    let response = app
        .call(events_request(id, last).to_request())
        .await
        .expect("the app answers");
    assert_eq!(response.status(), 200);
    let headers = response.headers();
    assert_eq!(headers.get("content-type").unwrap(), "text/event-stream");
    assert_eq!(
        headers.get("content-encoding").unwrap(),
        "identity",
        "never compressed"
    );
    Stream {
        body: response.map_into_boxed_body().into_body(),
        buffer: String::new(),
    }
}

/// Every event of `stream` until it ends.
async fn rest(stream: &mut Stream) -> Vec<Sse> {
    let mut events = Vec::new();
    while let Some(event) = stream.next().await {
        events.push(event);
    }
    events
}

/// Plays a table of `G` to its end with seeded random moves, a follower reading along from the
/// start; returns each table a move answered (the first: the new table) and the events seen.
async fn whole_game_followed<G: Game>(
    url: String,
    options: Value,
    seed: u64,
) -> (Vec<Value>, Vec<Sse>) {
    let app = db::app(db::tables(&url, 100).await, roomy()).await;
    let created = call(&app, create(json!({"game": G::ID, "options": options}))).await;
    let (id, credentials) = seats(&created.body);
    let mut follower = open(&app, &id, None).await;
    let mut table = created.body["table"].clone();
    let mut answered = vec![table.clone()];
    let mut seen = Vec::new();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    while table["status"] == "ongoing" {
        assert!(answered.len() < 5_000, "the game did not end");
        let text = random_move::<G>(&table, &mut rng);
        let ply = table["ply"].as_u64().unwrap();
        let answer = call(&app, play(&id, &credentials[to_act(&table)], &text, ply)).await;
        table = answer.ok().clone();
        answered.push(table.clone());
        // Read along but for every third move: the follower falls behind by a third of the
        // game (less than a reset's worth), the channel drops what it did not take, and the
        // follower reads it back from the database.
        if ply % 3 != 2 {
            seen.push(follower.next().await.expect("an event"));
        }
    }
    seen.extend(rest(&mut follower).await);
    (answered, seen)
}

/// That `event` tells where `table` (a move's or a creation's answer) stands: its ply, status,
/// awaited seat, result, deadline and time; the whole table only in a `table` or `reset` event.
#[track_caller]
fn assert_tells(event: &Sse, table: &Value) {
    for field in ["ply", "status", "to_act", "result", "deadline"] {
        assert_eq!(
            event.data[field], table[field],
            "{field} of event {}",
            event.id
        );
    }
    assert_eq!(event.data["time"], table["updated"]);
    assert_eq!(event.data["table_id"], table["id"]);
    assert_eq!(
        event.data["url"],
        format!("/api/v1/tables/{}", table["id"].as_str().unwrap())
    );
    match event.kind.as_str() {
        "table" | "reset" => assert_eq!(&event.data["table"], table, "the whole table"),
        _ => assert!(
            event.data.get("table").is_none(),
            "a change's event holds no table"
        ),
    }
}

/// The events of a whole game seen by a follower from its start: the table, then one `move`
/// per ply in order, each telling where the table that move's 200 answered stands; then the
/// stream ends.
fn assert_whole_game(answered: &[Value], seen: &[Sse]) {
    assert_eq!(
        seen.len(),
        answered.len(),
        "one event per change, and the table first"
    );
    for (seq, (event, table)) in seen.iter().zip(answered).enumerate() {
        assert_eq!(event.id, seq as u64, "in order, none twice, none missed");
        assert_eq!(event.data["seq"], seq as u64);
        let kind = if seq == 0 { "table" } else { "move" };
        assert_eq!(event.kind, kind);
        assert_eq!(event.data["type"], kind);
        assert_tells(event, table);
        if seq > 0 {
            assert_eq!(event.data["move"]["ply"], seq as u64);
        }
    }
}

both!(
    a_follower_sees_every_move_of_a_herfor_game_in_order,
    |url: String| async move {
        let (answered, seen) = whole_game_followed::<Herfor>(url, json!({"size": 5}), 11).await;
        assert_whole_game(&answered, &seen);
    }
);

both!(
    a_follower_sees_every_move_of_a_tara_match_in_order,
    |url: String| async move {
        let (answered, seen) =
            whole_game_followed::<Tara>(url, json!({"level": 2, "match": true}), 12).await;
        assert_whole_game(&answered, &seen);
    }
);

both!(
    a_follower_sees_every_move_of_a_hirth_match_in_order,
    |url: String| async move {
        // The match the whole-game test plays (the same seed): it ends in a few hundred plies.
        let (answered, seen) = whole_game_followed::<Hirth>(url, json!({"target": 3}), 4).await;
        assert_whole_game(&answered, &seen);
    }
);

both!(
    reconnecting_with_last_event_id_misses_nothing_and_repeats_nothing,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = call(
            &app,
            create(json!({"game": "hirth", "options": {"target": 1}})),
        )
        .await;
        let (id, credentials) = seats(&created.body);
        let mut table = created.body["table"].clone();
        let mut answered = vec![table.clone()];
        let mut rng = rand::rngs::SmallRng::seed_from_u64(21);
        let mut play_some = async |table: &mut Value, answered: &mut Vec<Value>, plies: u64| {
            for _ in 0..plies {
                if table["status"] != "ongoing" {
                    return;
                }
                let text = random_move::<Hirth>(table, &mut rng);
                let ply = table["ply"].as_u64().unwrap();
                let answer = call(&app, play(&id, &credentials[to_act(table)], &text, ply)).await;
                *table = answer.ok().clone();
                answered.push(table.clone());
            }
        };
        play_some(&mut table, &mut answered, 10).await;

        // A follower that saw event 4 reconnects: 5 to 10 come first, then what is played.
        let mut follower = open(&app, &id, Some(4)).await;
        for seq in 5..=10 {
            let event = follower.next().await.expect("a missed event");
            assert_eq!(event.id, seq);
            assert_tells(&event, &answered[seq as usize]);
        }
        play_some(&mut table, &mut answered, 5).await;
        for seq in 11..=15 {
            let event = follower.next().await.expect("a new event");
            assert_eq!(event.id, seq);
            assert_tells(&event, &answered[seq as usize]);
        }
        drop(follower);

        // The first seat resigns: one more change, `resign`, and the stream ends.
        let mut follower = open(&app, &id, Some(15)).await;
        let resigned = call(&app, act(&id, &credentials[0], "resign")).await;
        let finished = resigned.ok().clone();
        let events = rest(&mut follower).await;
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!((events[0].id, events[0].kind.as_str()), (16, "resign"));
        assert_eq!(events[0].data["seat"], "first");
        assert_tells(&events[0], &finished);

        // Reconnecting after the last event: 204, nothing more will come (EventSource stops).
        let done = app
            .call(events_request(&id, Some(16)).to_request())
            .await
            .unwrap();
        assert_eq!(done.status(), 204);
        // From the middle of a finished table: the rest, the resignation last, then the end.
        let mut late = open(&app, &id, Some(14)).await;
        let events = rest(&mut late).await;
        let ids: Vec<u64> = events.iter().map(|e| e.id).collect();
        assert_eq!(ids, [15, 16]);
        assert_tells(&events[0], &answered[15]);
        // The move before the resignation left the game going, with its seat awaited.
        assert_eq!(events[0].data["status"], "ongoing");
        assert_tells(&events[1], &finished);
        // Without Last-Event-ID: the finished table as it stands, and the end.
        let mut fresh = open(&app, &id, None).await;
        let events = rest(&mut fresh).await;
        assert_eq!(events.len(), 1);
        assert_eq!((events[0].id, events[0].kind.as_str()), (16, "table"));
        assert_tells(&events[0], &finished);
    }
);

both!(
    event_streams_refuse_what_they_cannot_follow,
    |url: String| async move {
        let tables = db::tables(&url, 100).await.with_feed(FeedLimits {
            per_table: 2,
            per_seat: 1,
            per_address: 100,
            per_site: 100,
            in_all: 10,
        });
        let app = db::app(tables, roomy()).await;
        let unknown = call(&app, events_request(&"0".repeat(32), None)).await;
        unknown.problem(404, "unknown_table");
        let created = call(&app, create(json!({"game": "herfor"}))).await;
        let (id, credentials) = seats(&created.body);
        let bad = call(
            &app,
            events_request(&id, None).insert_header(("Last-Event-ID", "seven")),
        )
        .await;
        bad.problem(422, "invalid_request");
        // Browsers never send it empty.
        call(
            &app,
            events_request(&id, None).insert_header(("Last-Event-ID", "")),
        )
        .await
        .problem(422, "invalid_request");
        let future = call(&app, events_request(&id, Some(3))).await;
        future.problem(422, "invalid_request");
        call(
            &app,
            events_request(&id, None).insert_header(("Authorization", "Bearer wrong")),
        )
        .await
        .problem(401, "unauthorized");

        let _a = open(&app, &id, None).await;
        let _b = open(&app, &id, None).await;
        let third = call(&app, events_request(&id, None)).await;
        third.problem(503, "streams_full");
        // Watchers took the table's places: its seats still follow it, each within its own.
        let first = open_as(&app, &id, &credentials[0]).await;
        let _second = open_as(&app, &id, &credentials[1]).await;
        call(&app, seat_events(&id, &credentials[0]))
            .await
            .problem(503, "streams_full");
        drop(first);
        let _first = open_as(&app, &id, &credentials[0]).await;
        drop(_a);
        let _again = open(&app, &id, None).await;
    }
);

/// Table `id`'s stream as the seat holding `credential` asks for it (as its page does: in the
/// query, which a browser's `EventSource` can send).
fn seat_events(id: &str, credential: &str) -> TestRequest {
    TestRequest::get().uri(&format!(
        "/api/v1/tables/{id}/events?credential={credential}"
    ))
}

/// Opens table `id`'s stream as the seat holding `credential`.
async fn open_as<S, B>(app: &S, id: &str, credential: &str) -> Stream
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    let response = app
        .call(seat_events(id, credential).to_request())
        .await
        .expect("the app answers");
    assert_eq!(response.status(), 200);
    Stream {
        body: response.map_into_boxed_body().into_body(),
        buffer: String::new(),
    }
}

both!(
    watchers_from_one_address_have_a_share_of_the_servers_streams,
    |url: String| async move {
        let tables = db::tables(&url, 100).await.with_feed(FeedLimits {
            per_table: 32,
            per_seat: 4,
            per_address: 3,
            per_site: 100,
            in_all: 100,
        });
        let app = db::app(tables, roomy()).await;
        let from = |address: &'static str| {
            move |id: &str| {
                events_request(id, None).peer_addr(format!("{address}:40000").parse().unwrap())
            }
        };
        let (here, there) = (from("192.0.2.7"), from("198.51.100.7"));
        let mut ids = Vec::new();
        for _ in 0..4 {
            let created = call(&app, create(json!({"game": "tara"}))).await;
            ids.push(seats(&created.body));
        }
        let mut streams = Vec::new();
        for (id, _) in &ids[..3] {
            let response = app.call(here(id).to_request()).await.unwrap();
            assert_eq!(response.status(), 200);
            streams.push(response);
        }
        let (fourth, credentials) = &ids[3];
        let refused = call(&app, here(fourth)).await;
        refused.problem(503, "streams_full");
        assert!(
            refused.body["detail"]
                .as_str()
                .unwrap()
                .contains("this address"),
            "{}",
            refused.body
        );
        // Another address, and the seat's own player from this one, still follow it.
        assert_eq!(
            app.call(there(fourth).to_request()).await.unwrap().status(),
            200
        );
        let _seat = open_as(&app, fourth, &credentials[0]).await;
        // A watcher that leaves gives its place back.
        streams.pop();
        assert_eq!(
            app.call(here(fourth).to_request()).await.unwrap().status(),
            200
        );
    }
);

/// Plays seeded random Hirþ moves at a new table until it has at least `plies` (the match
/// long enough); returns the table's id and every table answered (the new one first).
async fn long_hirth_table<S, B>(app: &S, plies: u64) -> (String, Vec<Value>)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    let created = call(
        app,
        create(json!({"game": "hirth", "options": {"target": 21}})),
    )
    .await;
    let (id, credentials) = seats(&created.body);
    let mut table = created.body["table"].clone();
    let mut answered = vec![table.clone()];
    let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
    while table["ply"].as_u64().unwrap() < plies {
        assert_eq!(table["status"], "ongoing", "the match ended too soon");
        let text = random_move::<Hirth>(&table, &mut rng);
        let ply = table["ply"].as_u64().unwrap();
        table = call(app, play(&id, &credentials[to_act(&table)], &text, ply))
            .await
            .ok()
            .clone();
        answered.push(table.clone());
    }
    (id, answered)
}

both!(
    a_follower_far_behind_gets_the_table_once_and_a_near_one_every_change,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (id, answered) = long_hirth_table(&app, 260).await;
        let now = answered.last().unwrap();
        // 259 changes behind (more than 200): the table as it stands, once, then live.
        let mut far = open(&app, &id, Some(1)).await;
        let reset = far.next().await.expect("a reset");
        assert_eq!((reset.id, reset.kind.as_str()), (260, "reset"));
        assert_tells(&reset, now);
        // 180 behind: each change, read a page at a time, in order.
        let mut near = open(&app, &id, Some(80)).await;
        for (seq, table) in answered.iter().enumerate().skip(81) {
            let event = near.next().await.expect("a missed change");
            assert_eq!((event.id, event.kind.as_str()), (seq as u64, "move"));
            assert_tells(&event, table);
        }
    }
);

both!(
    a_tables_followers_hear_its_deadlines_as_they_come,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let created = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 3}, "days_per_move": 1})),
        )
        .await;
        let (id, credentials) = seats(&created.body);
        let mut stream = open(&app, &id, None).await;
        assert_eq!(stream.next().await.unwrap().kind, "table");
        // The first seat moves (a first deadline passed with no move aborts the table instead):
        // the second's move is due a day later.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let mv = random_move::<Herfor>(&created.body["table"], &mut rng);
        let table = call(&app, play(&id, &credentials[0], &mv, 0))
            .await
            .ok()
            .clone();
        assert_eq!(stream.next().await.unwrap().kind, "move");
        let now = moot::tables::now();
        let day = moot::tables::DAY;
        // Four fifths of the day, then the deadline passed: each told once, as a notice
        // following the change it names (the move: 1).
        for (at, kind) in [
            (now + day * 9 / 10, "deadline_near"),
            (now + day + 1000, "deadline_passed"),
        ] {
            assert_eq!(tables.notice_deadlines(at).await.unwrap(), 1);
            let notice = stream.next().await.unwrap();
            assert_eq!((notice.id, notice.kind.as_str()), (1, kind), "{notice:#?}");
            assert_eq!(notice.data["type"], kind);
            assert_eq!(notice.data["to_act"], "second");
            assert_eq!(notice.data["status"], "ongoing");
            assert_eq!(notice.data["deadline"], table["deadline"]);
        }
        // A follower that comes back after the notices is not sent them again: the next
        // change is what follows.
        let mut again = open(&app, &id, Some(1)).await;
        let mv = random_move::<Herfor>(&table, &mut rng);
        call(&app, play(&id, &credentials[1], &mv, 1)).await.ok();
        let next = again.next().await.unwrap();
        assert_eq!((next.id, next.kind.as_str()), (2, "move"));
        assert_eq!(stream.next().await.unwrap().kind, "move");
    }
);

/// With PostgreSQL, a deadline told by one replica reaches the table's followers on another.
#[actix_web::test]
async fn a_deadline_told_on_one_replica_reaches_the_followers_on_another() {
    let Some(url) = db::postgres_url().await else {
        return;
    };
    let teller = db::tables(&url, 100).await;
    let follower = db::tables(&url, 100).await;
    let stop = tokio_util::sync::CancellationToken::new();
    let listening = tokio::spawn(follower.clone().listen(url.clone(), stop.clone()));
    let app = db::app(follower, roomy()).await;
    let created = call(
        &app,
        create(json!({"game": "herfor", "options": {"size": 3}, "days_per_move": 2})),
    )
    .await;
    let (id, _) = seats(&created.body);
    let mut stream = open(&app, &id, None).await;
    assert_eq!(stream.next().await.unwrap().kind, "table");
    // Give the listener its connection before the notice is sent.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let started = std::time::Instant::now();
    let at = moot::tables::now() + 2 * moot::tables::DAY * 9 / 10;
    assert_eq!(teller.notice_deadlines(at).await.unwrap(), 1);
    let notice = stream.next().await.unwrap();
    assert_eq!((notice.id, notice.kind.as_str()), (0, "deadline_near"));
    assert_eq!(notice.data["deadline"], created.body["table"]["deadline"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    stop.cancel();
    listening.await.unwrap();
}

/// `POST` (ask or accept) or `DELETE` (decline) `/api/v1/tables/{id}/takeback`.
fn takeback(id: &str, credential: &str, ask: bool) -> TestRequest {
    let request = if ask {
        TestRequest::post()
    } else {
        TestRequest::delete()
    };
    request
        .uri(&format!("/api/v1/tables/{id}/takeback"))
        .insert_header(("Authorization", format!("Bearer {credential}")))
}

both!(
    a_tables_followers_hear_a_takeback_asked_declined_and_made,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 3, "pie": false}})),
        )
        .await;
        let (id, [first, second]) = seats(&created.body);
        let mut stream = open(&app, &id, None).await;
        assert_eq!(stream.next().await.unwrap().kind, "table");
        let mv = random_move::<Herfor>(
            &created.body["table"],
            &mut rand::rngs::SmallRng::seed_from_u64(2),
        );
        call(&app, play(&id, &first, &mv, 0)).await.ok();
        assert_eq!(stream.next().await.unwrap().kind, "move");
        // The request and its refusal: notices following the move (1), naming their seat.
        call(&app, takeback(&id, &first, true)).await.ok();
        call(&app, takeback(&id, &second, false)).await.ok();
        for (kind, seat) in [("takeback_asked", "first"), ("takeback_declined", "second")] {
            let notice = stream.next().await.unwrap();
            assert_eq!((notice.id, notice.kind.as_str()), (1, kind), "{notice:#?}");
            assert_eq!(notice.data["seat"], seat);
            assert_eq!(
                (notice.data["ply"].as_u64(), notice.data["to_act"].as_str()),
                (Some(1), Some("second"))
            );
        }
        // Asked again and let go: the takeback, change 2 (ply 0 + twice the ply taken back).
        call(&app, takeback(&id, &first, true)).await.ok();
        assert_eq!(stream.next().await.unwrap().kind, "takeback_asked");
        call(&app, takeback(&id, &second, true)).await.ok();
        let taken = stream.next().await.unwrap();
        assert_eq!(
            (taken.id, taken.kind.as_str()),
            (2, "takeback"),
            "{taken:#?}"
        );
        assert_eq!(taken.data["seat"], "first");
        assert_eq!(taken.data["plies"], 1);
        assert_eq!(
            (taken.data["ply"].as_u64(), taken.data["to_act"].as_str()),
            (Some(0), Some("first"))
        );
        // A follower that saw only the move taken back is given the table anew.
        let mut late = open(&app, &id, Some(1)).await;
        let reset = late.next().await.unwrap();
        assert_eq!((reset.id, reset.kind.as_str()), (2, "reset"));
        assert_eq!(reset.data["table"]["ply"], 0);
    }
);

/// With PostgreSQL, a takeback asked for and made on one replica reaches the table's followers
/// on another: the request as its notice, the takeback as the table anew (the moves the
/// follower holds are gone).
#[actix_web::test]
async fn a_takeback_on_one_replica_reaches_the_followers_on_another() {
    let Some(url) = db::postgres_url().await else {
        return;
    };
    let teller = db::tables(&url, 100).await;
    let follower = db::tables(&url, 100).await;
    let stop = tokio_util::sync::CancellationToken::new();
    let listening = tokio::spawn(follower.clone().listen(url.clone(), stop.clone()));
    let app = db::app(follower, roomy()).await;
    let created = call(
        &app,
        create(json!({"game": "herfor", "options": {"size": 3, "pie": false}})),
    )
    .await;
    let (id, [first, second]) = seats(&created.body);
    let mv = random_move::<Herfor>(
        &created.body["table"],
        &mut rand::rngs::SmallRng::seed_from_u64(4),
    );
    call(&app, play(&id, &first, &mv, 0)).await.ok();
    let mut stream = open(&app, &id, None).await;
    assert_eq!(stream.next().await.unwrap().kind, "table");
    // Give the listener its connection before the notice is sent.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let started = std::time::Instant::now();
    let now = moot::tables::now();
    teller.takeback(&id, &first, now).await.unwrap();
    let notice = stream.next().await.unwrap();
    assert_eq!(
        (notice.id, notice.kind.as_str()),
        (1, "takeback_asked"),
        "{notice:#?}"
    );
    assert_eq!(notice.data["seat"], "first");
    teller.takeback(&id, &second, now).await.unwrap();
    let reset = stream.next().await.unwrap();
    assert_eq!((reset.id, reset.kind.as_str()), (2, "reset"), "{reset:#?}");
    assert_eq!(reset.data["table"]["ply"], 0);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    stop.cancel();
    listening.await.unwrap();
}

both!(
    a_tables_followers_hear_a_seat_go_on_vacation_and_come_back,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = call(
            &app,
            create(json!({
                "game": "herfor",
                "options": {"size": 3},
                "clock": {"kind": "per_move", "hours": 24, "vacation_days": 3},
            })),
        )
        .await;
        assert_eq!(created.status, 201, "{created:#?}");
        let (id, [first, _]) = seats(&created.body);
        let due = created.body["table"]["deadline"].clone();
        let mut stream = open(&app, &id, None).await;
        assert_eq!(stream.next().await.unwrap().kind, "table");
        let vacation = |ask: bool| {
            let request = if ask {
                TestRequest::post()
            } else {
                TestRequest::delete()
            };
            request
                .uri(&format!("/api/v1/tables/{id}/vacation"))
                .insert_header(("Authorization", format!("Bearer {first}")))
        };
        // The first seat, awaited, goes on vacation: its deadline moves on, as the notice says.
        call(&app, vacation(true)).await.ok();
        let started = stream.next().await.unwrap();
        assert_eq!(
            (started.id, started.kind.as_str()),
            (0, "vacation_started"),
            "{started:#?}"
        );
        assert_eq!(started.data["seat"], "first");
        // As times, not words: RFC 3339 writes as few digits of a second as it needs.
        let instant = |text: &Value| {
            let rfc3339 = &time::format_description::well_known::Rfc3339;
            time::OffsetDateTime::parse(text.as_str().expect("a time"), rfc3339).expect("a time")
        };
        assert!(
            instant(&started.data["deadline"]) > instant(&due),
            "{started:#?}"
        );
        // Back at once: the deadline as it stands.
        call(&app, vacation(false)).await.ok();
        let ended = stream.next().await.unwrap();
        assert_eq!(
            (ended.id, ended.kind.as_str()),
            (0, "vacation_ended"),
            "{ended:#?}"
        );
        assert_eq!(ended.data["to_act"], "first");
    }
);
