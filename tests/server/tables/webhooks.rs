//! Webhooks: each event of a table that names one is posted to its URL, signed with its
//! secret, once (a receiver that counts gets every event of a whole game exactly once, in
//! order); a receiver that fails twice gets the third attempt; an event that cannot be
//! delivered in its time is given up and shown on the table; URLs the server must not post
//! to, and weak secrets, are refused at creation, and the secret is never shown. Receivers
//! (host and port) are served fairly: one that never answers holds its share of deliveries and
//! delays no other's, and one that fails in a row is left alone until a trial.

use std::time::Duration;

use moot::games::herfor::Herfor;
use moot::tables::{HostShares, Tables};
use moot::webhooks::{Deliveries, DeliveryCounts, WebhookLimits};
use rand::SeedableRng;
use serde_json::{Value, json};

use crate::both;
use crate::common::receiver::{Receiver, Silent};
use crate::tables::db::{self, act, call, create, play, random_move, roomy, seats, to_act};

const SECRET: &str = "a-long-random-secret-kept-by-the-site";

/// The receivers of these tests listen on this machine.
fn private_allowed() -> moot::tables::TableLimits {
    moot::tables::TableLimits {
        allow_private_webhooks: true,
        ..roomy()
    }
}

/// The server's limits, with retries a hundred times sooner.
fn quick() -> WebhookLimits {
    WebhookLimits {
        retry_base: Duration::from_millis(10),
        allow_private: true,
        ..WebhookLimits::default()
    }
}

/// Starts the delivery worker of `tables` on the test's runtime; answers its counts.
fn deliver(tables: &Tables, limits: WebhookLimits) -> std::sync::Arc<DeliveryCounts> {
    let worker = Deliveries::new(tables.clone(), limits).expect("a client");
    let counts = worker.counts();
    tokio::spawn(worker.run(tokio_util::sync::CancellationToken::new()));
    counts
}

fn with_webhook(url: &str) -> Value {
    json!({
        "game": "herfor",
        "options": {"size": 3},
        "webhook": {"url": url, "secret": SECRET},
    })
}

both!(
    every_event_of_a_whole_game_is_posted_signed_once_in_order,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        deliver(&tables, quick());
        let app = db::app(tables, private_allowed()).await;
        let receiver = Receiver::start(SECRET, &[]);
        let created = call(&app, create(with_webhook(&receiver.url))).await;
        assert_eq!(created.status, 201, "{:#}", created.body);
        assert!(
            !created.body.to_string().contains(SECRET),
            "the secret is never shown"
        );
        assert_eq!(
            created.body["table"]["webhook"],
            json!({"status": "ok", "failed_events": 0})
        );
        let (id, credentials) = seats(&created.body);
        let mut table = created.body["table"].clone();
        let mut answered = Vec::new();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        // A few moves, then the seat to act resigns: moves and an ending.
        for _ in 0..6 {
            let text = random_move::<Herfor>(&table, &mut rng);
            let ply = table["ply"].as_u64().unwrap();
            table = call(&app, play(&id, &credentials[to_act(&table)], &text, ply))
                .await
                .ok()
                .clone();
            answered.push(table.clone());
            if table["status"] != "ongoing" {
                break;
            }
        }
        if table["status"] == "ongoing" {
            table = call(&app, act(&id, &credentials[to_act(&table)], "resign"))
                .await
                .ok()
                .clone();
            answered.push(table.clone());
        }
        let events = answered.len();
        let got = receiver
            .until(Duration::from_secs(20), |got| got.len() >= events)
            .await;
        // Nothing more comes (nothing twice).
        tokio::time::sleep(Duration::from_millis(300)).await;
        let got_all = receiver.deliveries();
        assert_eq!(got_all.len(), events, "each event once");
        for (seq, (delivery, table)) in (1..).zip(got.iter().zip(&answered)) {
            assert!(delivery.signed, "event {seq}: a valid signature");
            assert_eq!(delivery.answered, 200);
            assert_eq!(delivery.event_id, format!("{id}-{seq}"), "in order");
            assert_eq!(delivery.body["seq"], seq);
            let kind = if table["result"]["ended_by"] == "resignation" {
                "resign"
            } else {
                "move"
            };
            assert_eq!(delivery.kind, kind);
            assert_eq!(delivery.body["type"], kind);
            for field in ["ply", "status", "to_act", "result", "deadline"] {
                assert_eq!(
                    delivery.body[field], table[field],
                    "event {seq}: {field} of the table its change answered"
                );
            }
            assert_eq!(delivery.body["time"], table["updated"]);
            assert_eq!(delivery.body["table_id"], id.as_str());
            assert!(
                delivery.body.get("table").is_none(),
                "a change's event holds no table"
            );
        }
    }
);

both!(
    a_receiver_that_fails_twice_gets_the_third_attempt,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), private_allowed()).await;
        let receiver = Receiver::start(SECRET, &[500, 503]);
        let created = call(&app, create(with_webhook(&receiver.url))).await;
        let (id, credentials) = seats(&created.body);
        let text = random_move::<Herfor>(&created.body["table"], &mut rand::rng());
        call(&app, play(&id, &credentials[0], &text, 0)).await.ok();
        // Retries a second apart, to see the table while the event waits.
        deliver(
            &tables,
            WebhookLimits {
                retry_base: Duration::from_millis(700),
                ..quick()
            },
        );
        receiver
            .until(Duration::from_secs(10), |got| got.len() == 1)
            .await;
        // Between the first failure and the retry, the table says the webhook is retrying, once
        // the worker has written down the failure (the receiver counts a post before its answer
        // reaches the worker).
        let waited = std::time::Instant::now();
        let webhook = loop {
            let shown = call(&app, db::get(&id)).await;
            let webhook = shown.ok()["webhook"].clone();
            if webhook["status"] != "ok" || receiver.deliveries().len() > 1 {
                break webhook;
            }
            assert!(
                waited.elapsed() < Duration::from_secs(10),
                "the failure was never written down: {webhook}"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        if webhook["status"] == "retrying" {
            assert_eq!(webhook["failed_events"], 0);
            assert!(
                webhook["last_error"]
                    .as_str()
                    .unwrap()
                    .contains("the receiver answered 5"),
                "{webhook}"
            );
        } else {
            // The second attempt was already recorded: the table cannot be caught between.
            assert_eq!(receiver.deliveries().len(), 2, "{webhook}");
        }
        let got = receiver
            .until(Duration::from_secs(15), |got| got.len() == 3)
            .await;
        let statuses: Vec<u16> = got.iter().map(|d| d.answered).collect();
        assert_eq!(statuses, [500, 503, 200]);
        assert!(
            got.iter()
                .all(|d| d.signed && d.event_id == format!("{id}-1"))
        );
        assert!(
            got[2].at - got[1].at >= got[1].at - got[0].at - Duration::from_millis(400),
            "the waits grow: {:?} then {:?}",
            got[1].at - got[0].at,
            got[2].at - got[1].at
        );
        assert!(
            got[1].at - got[0].at >= Duration::from_millis(500),
            "backoff"
        );
        // Once delivered, the table's webhook is healthy again.
        let mut healthy = false;
        for _ in 0..100 {
            let shown = call(&app, db::get(&id)).await;
            if shown.ok()["webhook"] == json!({"status": "ok", "failed_events": 0}) {
                healthy = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(healthy, "the table's webhook is ok after the delivery");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(receiver.deliveries().len(), 3, "nothing after the delivery");
    }
);

both!(
    an_event_not_delivered_in_its_time_is_given_up_and_shown_on_the_table,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        deliver(
            &tables,
            WebhookLimits {
                give_up_after: Duration::from_millis(400),
                ..quick()
            },
        );
        let app = db::app(tables, private_allowed()).await;
        let receiver = Receiver::start(SECRET, &[500; 1000]);
        let created = call(&app, create(with_webhook(&receiver.url))).await;
        let (id, credentials) = seats(&created.body);
        let text = random_move::<Herfor>(&created.body["table"], &mut rand::rng());
        call(&app, play(&id, &credentials[0], &text, 0)).await.ok();
        let mut shown = Value::Null;
        for _ in 0..200 {
            shown = call(&app, db::get(&id)).await.ok().clone();
            if shown["webhook"]["status"] == "failed" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(shown["webhook"]["status"], "failed", "{shown:#}");
        assert_eq!(shown["webhook"]["failed_events"], 1);
        assert_eq!(
            shown["webhook"]["last_error"],
            "the receiver answered 500 Internal Server Error"
        );
        let attempts = receiver.deliveries().len();
        assert!(attempts >= 2, "retried before it was given up: {attempts}");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(receiver.deliveries().len(), attempts, "no attempt after");
    }
);

both!(
    a_webhook_must_name_a_public_http_url_and_a_long_secret,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let refused = |webhook: Value| create(json!({"game": "herfor", "webhook": webhook}));
        for (webhook, field, says) in [
            (
                json!({"url": "http://127.0.0.1:9/h", "secret": SECRET}),
                "webhook.url",
                "127.0.0.1 is not on the public internet",
            ),
            (
                json!({"url": "http://[::1]/h", "secret": SECRET}),
                "webhook.url",
                "not on the public internet",
            ),
            (
                json!({"url": "http://169.254.169.254/latest/meta-data", "secret": SECRET}),
                "webhook.url",
                "not on the public internet",
            ),
            (
                json!({"url": "http://localhost:8080/h", "secret": SECRET}),
                "webhook.url",
                "localhost is not on the public internet",
            ),
            (
                json!({"url": "gopher://games.example/h", "secret": SECRET}),
                "webhook.url",
                "an http or https URL",
            ),
            (
                json!({"url": "https://games.example/h", "secret": "short"}),
                "webhook.secret",
                "a secret has 16 to 256 characters",
            ),
        ] {
            let answer = call(&app, refused(webhook.clone())).await;
            let problem = answer.unprocessable("invalid_request", field);
            assert!(
                problem["detail"].as_str().unwrap().contains(says),
                "{webhook}: {problem:#}"
            );
        }
        let answer = call(
            &app,
            refused(json!({"url": "https://games.example/h", "secret": SECRET, "events": []})),
        )
        .await;
        assert_eq!(
            answer.status, 422,
            "unknown members refused: {:#}",
            answer.body
        );
        // A public URL is taken (nothing is posted until an event).
        let created = call(
            &app,
            create(json!({"game": "herfor", "webhook": {"url": "https://games.example/h", "secret": SECRET}})),
        )
        .await;
        assert_eq!(created.status, 201, "{:#}", created.body);
        let (id, _) = seats(&created.body);
        let shown = call(&app, db::get(&id)).await;
        assert!(!shown.body.to_string().contains(SECRET));
        assert!(
            !shown.body.to_string().contains("games.example"),
            "nor the URL"
        );
    }
);

both!(
    a_server_without_webhooks_says_so,
    |url: String| async move {
        let tables = Tables::new(moot::tables::Store::connect(&url).await.unwrap(), 100);
        let app = db::app(tables, roomy()).await;
        let answer = call(
            &app,
            create(json!({"game": "herfor", "webhook": {"url": "https://games.example/h", "secret": SECRET}})),
        )
        .await;
        answer.problem(501, "webhooks_off");
    }
);

/// A table with a webhook where `moves` moves were played; its id.
async fn table_with_events(tables: &Tables, moves: usize) -> String {
    table_with_events_to(tables, "http://127.0.0.1:9/hooks", moves).await
}

/// A table with a webhook to `url` where `moves` moves were played; its id.
async fn table_with_events_to(tables: &Tables, url: &str, moves: usize) -> String {
    let app = db::app(tables.clone(), private_allowed()).await;
    let created = call(&app, create(with_webhook(url))).await;
    assert_eq!(created.status, 201, "{:#}", created.body);
    let (id, credentials) = seats(&created.body);
    let mut table = created.body["table"].clone();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    for ply in 0..moves as u64 {
        let text = random_move::<Herfor>(&table, &mut rng);
        table = call(&app, play(&id, &credentials[to_act(&table)], &text, ply))
            .await
            .ok()
            .clone();
    }
    id
}

both!(
    a_tables_events_are_claimed_one_at_a_time_in_order_and_again_after_a_lease,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let id = table_with_events(&tables, 3).await;
        let now = moot::tables::now();
        let claimed = tables
            .claim_events(now, 1_000, 10, &HostShares::even(10))
            .await
            .unwrap();
        let ids: Vec<&str> = claimed.iter().map(|c| c.event_id.as_str()).collect();
        assert_eq!(ids, [format!("{id}-1")], "only the table's first event");
        assert_eq!(claimed[0].attempts, 1);
        assert!(
            tables
                .claim_events(now + 500, 1_000, 10, &HostShares::even(10))
                .await
                .unwrap()
                .is_empty(),
            "nothing while the first is out: the second waits for it"
        );
        // Its worker died: once the lease runs out, the event is claimed again.
        let again = tables
            .claim_events(now + 1_001, 1_000, 10, &HostShares::even(10))
            .await
            .unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].event_id, format!("{id}-1"));
        assert_eq!(again[0].attempts, 2);
        tables
            .event_delivered(&again[0], now + 1_100)
            .await
            .unwrap();
        let next = tables
            .claim_events(now + 1_100, 1_000, 10, &HostShares::even(10))
            .await
            .unwrap();
        assert_eq!(next.len(), 1);
        assert_eq!(
            next[0].event_id,
            format!("{id}-2"),
            "then the next, in order"
        );
        assert_eq!(next[0].kind, "move");
        let backlog = tables.backlog().await.unwrap();
        assert_eq!(backlog.pending, 2);
    }
);

both!(
    workers_claiming_at_once_never_claim_one_event_twice,
    |url: String| async move {
        // Two processes' worth of tables over one database (replicas, on PostgreSQL).
        let first = db::tables(&url, 1000).await;
        let second = db::tables(&url, 1000).await;
        let mut ids = Vec::new();
        for _ in 0..12 {
            ids.push(table_with_events(&first, 1).await);
        }
        let now = moot::tables::now();
        let mut claims = Vec::new();
        let shares = HostShares::even(10);
        for round in 0..6 {
            let (a, b) = tokio::join!(
                first.claim_events(now + round, 60_000, 2, &shares),
                second.claim_events(now + round, 60_000, 2, &shares)
            );
            claims.extend(a.unwrap());
            claims.extend(b.unwrap());
        }
        let mut claimed: Vec<String> = claims.into_iter().map(|c| c.event_id).collect();
        claimed.sort();
        let mut expected: Vec<String> = ids.iter().map(|id| format!("{id}-1")).collect();
        expected.sort();
        assert_eq!(claimed, expected, "every event claimed, none twice");
    }
);

both!(
    a_claim_takes_each_receivers_share_receivers_in_turn,
    |url: String| async move {
        let tables = db::tables(&url, 1000).await;
        let mut crowded = Vec::new();
        for _ in 0..6 {
            crowded.push(table_with_events_to(&tables, "http://127.0.0.1:9/a", 1).await);
        }
        // Another port is another receiver; the crowded one's events are all older.
        let alone = table_with_events_to(&tables, "http://127.0.0.1:10/b", 1).await;
        let now = moot::tables::now();
        let claimed = tables
            .claim_events(now, 60_000, 3, &HostShares::even(2))
            .await
            .unwrap();
        let hosts: Vec<&str> = claimed.iter().map(|c| c.host.as_str()).collect();
        assert_eq!(claimed.len(), 3, "{hosts:?}");
        assert_eq!(
            hosts.iter().filter(|h| **h == "127.0.0.1:9").count(),
            2,
            "the crowded receiver's share: {hosts:?}"
        );
        assert!(
            claimed.iter().any(|c| c.event_id == format!("{alone}-1")),
            "the other receiver's event is not starved: {hosts:?}"
        );
        // A receiver with no room (its share under way, or its breaker open) gets nothing.
        let full = HostShares {
            per_host: 2,
            fewer: vec![("127.0.0.1:9".to_owned(), 0)],
        };
        assert!(
            tables
                .claim_events(now, 60_000, 10, &full)
                .await
                .unwrap()
                .is_empty()
        );
        let one_more = HostShares {
            per_host: 2,
            fewer: vec![("127.0.0.1:9".to_owned(), 1)],
        };
        let more = tables
            .claim_events(now, 60_000, 10, &one_more)
            .await
            .unwrap();
        assert_eq!(more.len(), 1);
        assert_eq!(more[0].host, "127.0.0.1:9");
        // Put back unposted, it is due again at once, its attempt not counted.
        tables.event_released(&more[0], now).await.unwrap();
        // Held back (its breaker opened), none of the receiver's events is due until then.
        let held = tables
            .hold_receiver("127.0.0.1:9", now + 5_000)
            .await
            .unwrap();
        assert_eq!(held, 4);
        assert!(
            tables
                .claim_events(now + 4_999, 60_000, 10, &HostShares::even(10))
                .await
                .unwrap()
                .is_empty()
        );
        let rest = tables
            .claim_events(now + 5_000, 60_000, 10, &HostShares::even(10))
            .await
            .unwrap();
        assert_eq!(rest.len(), 4, "the crowded receiver's other events");
        let again = rest
            .iter()
            .find(|c| c.event_id == more[0].event_id)
            .expect("the event put back");
        assert_eq!(again.attempts, 1, "the put-back attempt was not counted");
        assert_eq!(crowded.len(), 6);
    }
);

both!(
    a_receiver_that_never_answers_delays_only_its_own_tables,
    |url: String| async move {
        let tables = db::tables(&url, 1000).await;
        deliver(&tables, quick());
        let silent = Silent::start();
        for _ in 0..48 {
            table_with_events_to(&tables, &silent.url, 1).await;
        }
        let app = db::app(tables.clone(), private_allowed()).await;
        let receiver = Receiver::start(SECRET, &[]);
        let created = call(&app, create(with_webhook(&receiver.url))).await;
        let (id, credentials) = seats(&created.body);
        let text = random_move::<Herfor>(&created.body["table"], &mut rand::rng());
        call(&app, play(&id, &credentials[0], &text, 0)).await.ok();
        let moved = std::time::Instant::now();
        let got = receiver
            .until(Duration::from_secs(9), |got| !got.is_empty())
            .await;
        let late = got[0].at.saturating_duration_since(moved);
        eprintln!("the other receiver's delivery came {late:?} after the move");
        assert!(
            late <= Duration::from_secs(5),
            "delayed by the silent receiver: {late:?}"
        );
        assert!(
            silent.accepted() <= WebhookLimits::default().per_host,
            "the silent receiver holds its share of deliveries, no more: {}",
            silent.accepted()
        );
    }
);

both!(
    a_receiver_failing_in_a_row_is_left_alone_until_a_trial,
    |url: String| async move {
        let tables = db::tables(&url, 1000).await;
        let wait = Duration::from_millis(1500);
        let counts = deliver(
            &tables,
            WebhookLimits {
                breaker_failures: 5,
                breaker_wait: wait,
                ..quick()
            },
        );
        let receiver = Receiver::start(SECRET, &[500; 5]);
        let first = table_with_events_to(&tables, &receiver.url, 1).await;
        let failed = receiver
            .until(Duration::from_secs(10), |got| got.len() >= 5)
            .await;
        let opened = failed[4].at;
        // Another table's event to the same receiver waits too.
        let second = table_with_events_to(&tables, &receiver.url, 1).await;
        tokio::time::sleep(
            (opened + wait - Duration::from_millis(400))
                .saturating_duration_since(std::time::Instant::now()),
        )
        .await;
        assert_eq!(
            receiver.deliveries().len(),
            5,
            "nothing is posted while the breaker is open"
        );
        assert_eq!(
            counts
                .breakers_open
                .load(std::sync::atomic::Ordering::Relaxed),
            1
        );
        let got = receiver
            .until(Duration::from_secs(10), |got| got.len() >= 7)
            .await;
        // The trial (either table's event: both are due), then the other once it closed.
        let trial = &got[5];
        assert!(
            trial.at.duration_since(opened) >= wait - Duration::from_millis(100),
            "the trial waited for the breaker: {:?}",
            trial.at.duration_since(opened)
        );
        let mut after: Vec<&str> = got[5..].iter().map(|d| d.event_id.as_str()).collect();
        after.sort_unstable();
        let mut expected = [format!("{first}-1"), format!("{second}-1")];
        expected.sort_unstable();
        assert_eq!(after, expected);
        assert!(got[5..].iter().all(|d| d.answered == 200 && d.signed));
        assert_eq!(
            counts
                .breakers_open
                .load(std::sync::atomic::Ordering::Relaxed),
            0,
            "closed by the trial"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(receiver.deliveries().len(), 7, "each event once");
    }
);

both!(
    a_receiver_with_more_due_events_than_a_claim_looks_at_does_not_starve_another,
    |url: String| async move {
        let tables = db::tables(&url, 1000).await;
        let app = db::app(tables.clone(), private_allowed()).await;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for webhook in std::iter::repeat_n(
            "http://127.0.0.1:9/a",
            moot::tables::outbox::CLAIM_WINDOW + 10,
        )
        .chain(["http://127.0.0.1:10/b"])
        {
            let created = call(&app, create(with_webhook(webhook))).await;
            let (id, credentials) = seats(&created.body);
            let text = random_move::<Herfor>(&created.body["table"], &mut rng);
            call(&app, play(&id, &credentials[0], &text, 0)).await.ok();
        }
        let now = moot::tables::now();
        let first = tables
            .claim_events(now, 60_000, 16, &HostShares::even(2))
            .await
            .unwrap();
        let hosts: Vec<&str> = first.iter().map(|c| c.host.as_str()).collect();
        assert_eq!(
            hosts,
            ["127.0.0.1:9", "127.0.0.1:9"],
            "the crowded receiver's share"
        );
        // The next claim, with that receiver full, reaches the other.
        let full = HostShares {
            per_host: 2,
            fewer: vec![("127.0.0.1:9".to_owned(), 0)],
        };
        let next = tables.claim_events(now, 60_000, 16, &full).await.unwrap();
        let hosts: Vec<&str> = next.iter().map(|c| c.host.as_str()).collect();
        assert_eq!(hosts, ["127.0.0.1:10"]);
    }
);

both!(
    a_takeback_asked_and_declined_and_a_vacation_are_posted_to_the_tables_webhook,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        deliver(&tables, quick());
        let app = db::app(tables, private_allowed()).await;
        let receiver = Receiver::start(SECRET, &[]);
        let mut body = with_webhook(&receiver.url);
        body["options"]["pie"] = json!(false);
        body["clock"] = json!({"kind": "per_move", "hours": 24, "vacation_days": 5});
        let created = call(&app, create(body)).await;
        assert_eq!(created.status, 201, "{:#}", created.body);
        let (id, [first, second]) = seats(&created.body);
        let text = random_move::<Herfor>(
            &created.body["table"],
            &mut rand::rngs::SmallRng::seed_from_u64(6),
        );
        assert_eq!(call(&app, play(&id, &first, &text, 0)).await.status, 200);
        let bearer = |request: actix_web::test::TestRequest, credential: &str| {
            request.insert_header(("Authorization", format!("Bearer {credential}")))
        };
        let takeback = format!("/api/v1/tables/{id}/takeback");
        let vacation = format!("/api/v1/tables/{id}/vacation");
        // Asked, declined, asked again (the same change each time), then the awaited seat's
        // vacation, begun and ended.
        for (request, credential) in [
            (actix_web::test::TestRequest::post().uri(&takeback), &first),
            (
                actix_web::test::TestRequest::delete().uri(&takeback),
                &second,
            ),
            (actix_web::test::TestRequest::post().uri(&takeback), &first),
            (actix_web::test::TestRequest::post().uri(&vacation), &second),
            (
                actix_web::test::TestRequest::delete().uri(&vacation),
                &second,
            ),
        ] {
            let answer = call(&app, bearer(request, credential)).await;
            assert_eq!(answer.status, 200, "{answer:#?}");
        }
        let kinds = [
            "move",
            "takeback_asked",
            "takeback_declined",
            "takeback_asked",
            "vacation_started",
            "vacation_ended",
        ];
        let got = receiver
            .until(Duration::from_secs(20), |got| got.len() >= kinds.len())
            .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(receiver.deliveries().len(), kinds.len(), "each once");
        for (delivery, kind) in got.iter().zip(kinds) {
            assert!(delivery.signed, "{kind}: a valid signature");
            assert_eq!(
                (delivery.kind.as_str(), delivery.body["type"].as_str()),
                (kind, Some(kind))
            );
            // A notice carries the change it follows: the move.
            assert_eq!(delivery.body["seq"], 1, "{kind}");
            assert_eq!(delivery.body["table_id"], id.as_str());
        }
        let seats_of: Vec<&str> = got[1..]
            .iter()
            .map(|d| d.body["seat"].as_str().unwrap())
            .collect();
        assert_eq!(seats_of, ["first", "second", "first", "second", "second"]);
        let ids: std::collections::HashSet<&str> =
            got.iter().map(|d| d.event_id.as_str()).collect();
        assert_eq!(ids.len(), kinds.len(), "every event its own id");
    }
);

both!(
    the_backlogs_gauges_count_each_receivers_waiting_events_within_a_second,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        // Nothing listens at either receiver: their events wait, retried.
        table_with_events_to(&tables, "http://127.0.0.1:9/a", 3).await;
        table_with_events_to(&tables, "http://127.0.0.1:10/b", 1).await;
        let backlog = tables.backlog().await.unwrap();
        assert_eq!(backlog.pending, 4);
        let by_receiver: Vec<(&str, u64)> = backlog
            .receivers
            .iter()
            .map(|r| (r.host.as_str(), r.pending))
            .collect();
        assert_eq!(by_receiver, [("127.0.0.1:9", 3), ("127.0.0.1:10", 1)]);
        assert!(backlog.oldest.is_some_and(|at| at <= moot::tables::now()));
        // The worker's gauges read the same within a second of its start, and again after
        // more events, whatever the deliveries are doing.
        let counts = deliver(&tables, quick());
        let gauges = |counts: &DeliveryCounts| {
            let receivers = counts.receivers.lock().unwrap().clone();
            (
                counts.pending.load(std::sync::atomic::Ordering::Relaxed),
                receivers
                    .iter()
                    .map(|r| (r.host.clone(), r.pending))
                    .collect::<Vec<_>>(),
            )
        };
        let mut seen = gauges(&counts);
        for _ in 0..30 {
            if seen.0 == 4 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            seen = gauges(&counts);
        }
        assert_eq!(
            seen,
            (
                4,
                vec![
                    ("127.0.0.1:9".to_owned(), 3),
                    ("127.0.0.1:10".to_owned(), 1)
                ]
            )
        );
        table_with_events_to(&tables, "http://127.0.0.1:10/b", 2).await;
        tokio::time::sleep(Duration::from_millis(1_100)).await;
        assert_eq!(gauges(&counts).0, 6, "counted again within a second");
    }
);

both!(
    delivered_events_are_forgotten_after_their_days_and_waiting_ones_never,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let first = table_with_events(&tables, 2).await;
        let second = table_with_events(&tables, 1).await;
        let now = moot::tables::now();
        let claimed = tables
            .claim_events(now, 60_000, 10, &HostShares::even(10))
            .await
            .unwrap();
        let head = claimed
            .iter()
            .find(|c| c.event_id == format!("{first}-1"))
            .expect("the first table's head");
        tables.event_delivered(head, now).await.unwrap();
        assert_eq!(
            tables.forget_deliveries(now).await.unwrap(),
            0,
            "kept until its days are over"
        );
        assert_eq!(tables.forget_deliveries(now + 1).await.unwrap(), 1);
        let backlog = tables.backlog().await.unwrap();
        assert_eq!(backlog.pending, 2, "the waiting events are kept");
        // The first table's chain goes on with its next event.
        let next = tables
            .claim_events(now + 60_001, 60_000, 10, &HostShares::even(10))
            .await
            .unwrap();
        let mut ids: Vec<&str> = next.iter().map(|c| c.event_id.as_str()).collect();
        ids.sort_unstable();
        let mut expected = [format!("{first}-2"), format!("{second}-1")];
        expected.sort_unstable();
        assert_eq!(ids, expected);
    }
);
