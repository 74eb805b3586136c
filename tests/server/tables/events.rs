//! A table's event stream (`GET /api/v1/tables/{id}/events`, server-sent events): a follower
//! sees every change of a whole game in order, each with the table its change answered; one
//! that reconnects with `Last-Event-ID` misses nothing and gets nothing twice; the stream ends
//! after the table's last event; streams are bounded per table.

use std::pin::Pin;
use std::time::Duration;

use actix_web::body::{BoxBody, MessageBody};
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

/// One server-sent event: its `id`, `event` and `data` (as JSON).
#[derive(Debug)]
struct Sse {
    id: u64,
    kind: String,
    data: Value,
}

/// An open event stream, read frame by frame.
struct Stream {
    body: BoxBody,
    buffer: String,
}

impl Stream {
    /// The next event, skipping comments and `retry`; `None` when the stream ended.
    async fn next(&mut self) -> Option<Sse> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let frame: String = self.buffer.drain(..end + 2).collect();
                let field = |name: &str| {
                    frame
                        .lines()
                        .find_map(|line| line.strip_prefix(&format!("{name}: ")))
                        .map(str::to_owned)
                };
                let (Some(id), Some(kind), Some(data)) =
                    (field("id"), field("event"), field("data"))
                else {
                    continue;
                };
                return Some(Sse {
                    id: id.parse().expect("a numeric id"),
                    kind,
                    data: serde_json::from_str(&data).expect("JSON data"),
                });
            }
            let chunk = tokio::time::timeout(
                Duration::from_secs(20),
                std::future::poll_fn(|cx| Pin::new(&mut self.body).poll_next(cx)),
            )
            .await
            .expect("an event (or the end) within 20 s")?;
            let chunk = chunk.expect("the stream does not fail");
            self.buffer
                .push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
        }
    }
}

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
        // Read along every third move: between reads the channel may drop what the follower
        // did not take, and the follower reads it back from the database.
        if ply % 3 == 2 {
            seen.push(follower.next().await.expect("an event"));
        }
    }
    seen.extend(rest(&mut follower).await);
    (answered, seen)
}

/// The events of a whole game seen by a follower from its start: the table, then one `move`
/// per ply in order, each with the very table that move's 200 answered; then the stream ends.
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
        assert_eq!(&event.data["table"], table, "the table after change {seq}");
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
            assert_eq!(
                event.data["table"], answered[seq as usize],
                "replayed as answered"
            );
        }
        play_some(&mut table, &mut answered, 5).await;
        for seq in 11..=15 {
            let event = follower.next().await.expect("a new event");
            assert_eq!(event.id, seq);
            assert_eq!(event.data["table"], answered[seq as usize]);
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
        assert_eq!(events[0].data["table"], finished);

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
        assert_eq!(events[0].data["table"], answered[15]);
        // Without Last-Event-ID: the finished table as it stands, and the end.
        let mut fresh = open(&app, &id, None).await;
        let events = rest(&mut fresh).await;
        assert_eq!(events.len(), 1);
        assert_eq!((events[0].id, events[0].kind.as_str()), (16, "table"));
        assert_eq!(events[0].data["table"], finished);
    }
);

both!(
    event_streams_refuse_what_they_cannot_follow,
    |url: String| async move {
        let tables = db::tables(&url, 100).await.with_feed(FeedLimits {
            per_table: 2,
            in_all: 3,
        });
        let app = db::app(tables, roomy()).await;
        let unknown = call(&app, events_request(&"0".repeat(32), None)).await;
        unknown.problem(404, "unknown_table");
        let created = call(&app, create(json!({"game": "herfor"}))).await;
        let (id, _) = seats(&created.body);
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

        let _a = open(&app, &id, None).await;
        let _b = open(&app, &id, None).await;
        let third = call(&app, events_request(&id, None)).await;
        third.problem(503, "streams_full");
        let created = call(&app, create(json!({"game": "herfor"}))).await;
        let (other, _) = seats(&created.body);
        let _c = open(&app, &other, None).await;
        let fourth = call(&app, events_request(&other, None)).await;
        fourth.problem(503, "streams_full");
        drop(_a);
        let _again = open(&app, &id, None).await;
    }
);
