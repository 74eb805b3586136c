//! A site's one webhook (`/api/v1/site/webhook`, by its `Moot-Site-Key`): it gets every event
//! of the tables and players the site's key made — the same bodies and event ids as their own
//! webhooks, signed with the site's secret, each table's and player's in order — and nothing of
//! what was made without the key; it is refused naming the field at fault, read back without
//! its secret (by either key of a site being rotated), stops at its removal, and counts its
//! own give-ups.

use std::time::Duration;

use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::{self, TestRequest};
use moot::games::herfor::Herfor;
use moot::tables::{TableLimits, TablePolicy, Tables};
use moot::webhooks::{Deliveries, WebhookLimits};
use rand::SeedableRng;
use serde_json::{Value, json};

use crate::both;
use crate::common::receiver::{Delivery, Receiver};
use crate::tables::db::{self, act, call, create, play, random_move, roomy, seats, to_act};

/// The site's key, and the other key of the same site (as while a key is rotated).
const KEY: &str = "club-key-0123456789abcdef0123456789abcdef";
const ROTATED: &str = "club-key-fedcba9876543210fedcba9876543210";
/// Long enough, but no site's.
const WRONG: &str = "wrong-key-00000000000000000000000000000000";
/// The site webhook's secret, and the tables' and players' own.
const SITE_SECRET: &str = "the-site-s-own-secret-for-all-of-its-events";
const OWN_SECRET: &str = "a-long-random-secret-kept-by-the-site";

/// The whole app over `tables`, knowing the site `club` by both its keys.
async fn app(
    tables: Tables,
    limits: TableLimits,
) -> impl Service<
    actix_http::Request,
    Response = ServiceResponse<impl actix_web::body::MessageBody>,
    Error = actix_web::Error,
> {
    let keys = moot::site_keys::SiteKeys::parse(&format!("club:{KEY}\nclub:{ROTATED}\n"))
        .expect("the keys");
    let computer = moot::Computer::new(moot::AiConfig::default());
    let middleware =
        moot::serve::Middleware::new(moot::serve::Origins::Any, &computer).with_site_keys(keys);
    test::init_service(moot::app_for(
        computer,
        middleware,
        Some(TablePolicy::new(tables, limits)),
    ))
    .await
}

/// The tables' limits, the receivers of these tests listening on this machine.
fn private_allowed() -> TableLimits {
    TableLimits {
        allow_private_webhooks: true,
        ..roomy()
    }
}

/// Starts the delivery worker of `tables`, retrying soon, giving up after `give_up_after`.
fn deliver(tables: &Tables, give_up_after: Duration) {
    let worker = Deliveries::new(
        tables.clone(),
        WebhookLimits {
            retry_base: Duration::from_millis(10),
            give_up_after,
            allow_private: true,
            ..WebhookLimits::default()
        },
    )
    .expect("a client");
    tokio::spawn(worker.run(tokio_util::sync::CancellationToken::new()));
}

/// `request` sent with the site's `key`.
fn keyed(request: TestRequest, key: &str) -> TestRequest {
    request.insert_header(("Moot-Site-Key", key))
}

/// `PUT /api/v1/site/webhook` of `url` and `secret`.
fn put_webhook(url: &str, secret: &str) -> TestRequest {
    TestRequest::put()
        .uri("/api/v1/site/webhook")
        .set_json(json!({"url": url, "secret": secret}))
}

/// A new player named `name`, made with `key` if given: its id and credential.
async fn player<S, B>(app: &S, name: &str, key: Option<&str>) -> (String, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let request = TestRequest::post()
        .uri("/api/v1/players")
        .set_json(json!({"name": name}));
    let request = match key {
        Some(key) => keyed(request, key),
        None => request,
    };
    let made = call(app, request).await;
    assert_eq!(made.status, 201, "{made:#?}");
    let text = |field: &str| made.body[field].as_str().unwrap().to_owned();
    (text("id"), text("credential"))
}

/// Plays table `created` to its end (a few moves, then the seat to act resigns); answers how
/// many changes it made.
async fn play_out<S, B>(app: &S, created: &Value) -> usize
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let (id, credentials) = seats(created);
    let mut table = created["table"].clone();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
    let mut changes = 0;
    for _ in 0..4 {
        if table["status"] != "ongoing" {
            return changes;
        }
        let text = random_move::<Herfor>(&table, &mut rng);
        let ply = table["ply"].as_u64().unwrap();
        let answer = call(app, play(&id, &credentials[to_act(&table)], &text, ply)).await;
        table = answer.ok().clone();
        changes += 1;
    }
    if table["status"] == "ongoing" {
        call(app, act(&id, &credentials[to_act(&table)], "resign"))
            .await
            .ok();
        changes += 1;
    }
    changes
}

/// One move at `table` (as last answered) of the table `created`: the table after it.
async fn one_move<S, B>(app: &S, table: &Value, created: &Value) -> Value
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let (id, credentials) = seats(created);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(table["ply"].as_u64().unwrap());
    let text = random_move::<Herfor>(table, &mut rng);
    let ply = table["ply"].as_u64().unwrap();
    let seat = &credentials[to_act(table)];
    call(app, play(&id, seat, &text, ply)).await.ok().clone()
}

/// The deliveries whose event id starts with `prefix`, as (id, kind, body).
fn of(deliveries: &[Delivery], prefix: &str) -> Vec<(String, String, Value)> {
    deliveries
        .iter()
        .filter(|d| d.event_id.starts_with(prefix))
        .map(|d| (d.event_id.clone(), d.kind.clone(), d.body.clone()))
        .collect()
}

/// Whether `deliveries` hold player `id`'s `table_finished`: the last of its feed here.
fn finished(deliveries: &[Delivery], id: &str) -> bool {
    deliveries
        .iter()
        .any(|d| d.event_id.starts_with(&format!("player:{id}-")) && d.kind == "table_finished")
}

both!(
    a_site_webhook_gets_every_event_of_the_tables_and_players_its_key_made_signed_in_order,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        deliver(&tables, Duration::from_secs(60));
        let app = app(tables, private_allowed()).await;
        let site = Receiver::start(SITE_SECRET, &[]);
        let set = call(&app, keyed(put_webhook(&site.url, SITE_SECRET), KEY)).await;
        assert_eq!(set.status, 200, "{:#}", set.body);
        // Ann is the site's, with a webhook of her own; Bo was made without the key.
        let (ann, ann_key) = player(&app, "Ann", Some(KEY)).await;
        let (bo, bo_key) = player(&app, "Bo", None).await;
        let anns = Receiver::start(OWN_SECRET, &[]);
        let named = TestRequest::put()
            .uri("/api/v1/players/me/webhook")
            .insert_header(("Authorization", format!("Bearer {ann_key}")))
            .set_json(json!({"url": anns.url, "secret": OWN_SECRET}));
        assert_eq!(call(&app, named).await.status, 200);
        // The table is the site's (made with its key) and has a webhook of its own too.
        let own = Receiver::start(OWN_SECRET, &[]);
        let body = json!({
            "game": "herfor",
            "options": {"size": 3},
            "player_credentials": [ann_key, bo_key],
            "webhook": {"url": own.url, "secret": OWN_SECRET},
        });
        let created = call(&app, keyed(create(body), KEY)).await;
        assert_eq!(created.status, 201, "{:#}", created.body);
        let id = created.body["table"]["id"].as_str().unwrap().to_owned();
        let changes = play_out(&app, &created.body).await;
        let within = Duration::from_secs(20);
        let own = own.until(within, |got| got.len() >= changes).await;
        let anns = anns.until(within, |got| finished(got, &ann)).await;
        site.until(within, |got| {
            of(got, &format!("{id}-")).len() >= changes && finished(got, &ann)
        })
        .await;
        // Nothing more comes (nothing twice).
        tokio::time::sleep(Duration::from_millis(300)).await;
        let got = site.deliveries();
        assert!(
            got.iter().all(|d| d.signed && d.answered == 200),
            "every delivery signed with the site's secret"
        );
        // The table's events, as its own webhook got them: same ids, kinds, bodies, order.
        assert_eq!(of(&got, &format!("{id}-")), of(&own, ""));
        let seqs: Vec<u64> = of(&got, &format!("{id}-"))
            .iter()
            .map(|(_, _, body)| body["seq"].as_u64().unwrap())
            .collect();
        assert_eq!(seqs, (1..=changes as u64).collect::<Vec<_>>(), "in order");
        // Ann's feed, as her own webhook got it; nothing of Bo's.
        assert_eq!(of(&got, &format!("player:{ann}-")), of(&anns, ""));
        assert!(
            of(&got, &format!("player:{bo}-")).is_empty(),
            "Bo is no site's"
        );
        assert_eq!(
            got.len(),
            own.len() + anns.len(),
            "nothing but the table's and Ann's events"
        );
    }
);

both!(
    a_table_and_a_player_made_without_the_site_key_send_nothing_to_the_site_webhook,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        deliver(&tables, Duration::from_secs(60));
        let app = app(tables, private_allowed()).await;
        let site = Receiver::start(SITE_SECRET, &[]);
        let set = call(&app, keyed(put_webhook(&site.url, SITE_SECRET), KEY)).await;
        assert_eq!(set.status, 200, "{:#}", set.body);
        let (ann, ann_key) = player(&app, "Ann", None).await;
        let own = Receiver::start(OWN_SECRET, &[]);
        let body = json!({
            "game": "herfor",
            "options": {"size": 3},
            "player_credentials": [ann_key],
            "webhook": {"url": own.url, "secret": OWN_SECRET},
        });
        let created = call(&app, create(body)).await;
        assert_eq!(created.status, 201, "{:#}", created.body);
        let changes = play_out(&app, &created.body).await;
        own.until(Duration::from_secs(20), |got| got.len() >= changes)
            .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            site.deliveries().is_empty(),
            "Ann {ann} and the table are no site's: {:#?}",
            site.deliveries()
        );
    }
);

both!(
    a_site_webhook_is_refused_naming_the_field_at_fault,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        // Private addresses are refused here, as a server refuses them by default.
        let app = app(tables, roomy()).await;
        let public = "https://games.example/hooks/site";
        let refusals = [
            (
                put_webhook(public, SITE_SECRET),
                401,
                "unknown_site_key",
                "Moot-Site-Key",
            ),
            (
                keyed(put_webhook(public, SITE_SECRET), WRONG),
                401,
                "unknown_site_key",
                "Moot-Site-Key",
            ),
            (
                keyed(put_webhook("ftp://games.example/hooks", SITE_SECRET), KEY),
                422,
                "invalid_request",
                "url",
            ),
            (
                keyed(put_webhook("http://127.0.0.1:9/hooks", SITE_SECRET), KEY),
                422,
                "invalid_request",
                "url",
            ),
            (
                keyed(put_webhook(public, "too-short"), KEY),
                422,
                "invalid_request",
                "secret",
            ),
            (
                TestRequest::get().uri("/api/v1/site/webhook"),
                401,
                "unknown_site_key",
                "Moot-Site-Key",
            ),
            (
                keyed(TestRequest::delete().uri("/api/v1/site/webhook"), WRONG),
                401,
                "unknown_site_key",
                "Moot-Site-Key",
            ),
        ];
        for (request, status, code, field) in refusals {
            let refused = call(&app, request).await;
            assert_eq!(refused.status, status, "{:#}", refused.body);
            assert_eq!(refused.body["code"], code, "{:#}", refused.body);
            assert_eq!(refused.body["field"], field, "{:#}", refused.body);
            assert!(!refused.body.to_string().contains(SITE_SECRET));
        }
        let none = call(
            &app,
            keyed(TestRequest::get().uri("/api/v1/site/webhook"), KEY),
        )
        .await;
        assert_eq!(none.status, 404, "nothing was kept: {:#}", none.body);
    }
);

both!(
    reading_a_site_webhook_never_shows_its_secret,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = app(tables, roomy()).await;
        let read = || keyed(TestRequest::get().uri("/api/v1/site/webhook"), ROTATED);
        let none = call(&app, read()).await;
        assert_eq!(none.status, 404, "{:#}", none.body);
        assert_eq!(none.body["code"], "not_found");
        let hook = "https://games.example/hooks/site";
        let set = call(&app, keyed(put_webhook(hook, SITE_SECRET), KEY)).await;
        assert_eq!(set.status, 200, "{:#}", set.body);
        let expected = json!({"url": hook, "status": "ok", "failed_events": 0});
        assert_eq!(set.body, expected);
        // The other key of the same site reads the same webhook: a site is its name.
        let got = call(&app, read()).await;
        assert_eq!(got.status, 200, "{:#}", got.body);
        assert_eq!(got.body, expected);
        assert!(
            !got.body.to_string().contains(SITE_SECRET),
            "never the secret"
        );
    }
);

both!(
    removing_a_site_webhook_stops_new_deliveries,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        deliver(&tables, Duration::from_secs(60));
        let app = app(tables, private_allowed()).await;
        let site = Receiver::start(SITE_SECRET, &[]);
        let set = call(&app, keyed(put_webhook(&site.url, SITE_SECRET), KEY)).await;
        assert_eq!(set.status, 200, "{:#}", set.body);
        let own = Receiver::start(OWN_SECRET, &[]);
        let body = json!({
            "game": "herfor",
            "options": {"size": 3},
            "webhook": {"url": own.url, "secret": OWN_SECRET},
        });
        let created = call(&app, keyed(create(body), KEY)).await;
        let table = one_move(&app, &created.body["table"], &created.body).await;
        let within = Duration::from_secs(20);
        site.until(within, |got| got.len() == 1).await;
        let removed = keyed(TestRequest::delete().uri("/api/v1/site/webhook"), KEY);
        assert_eq!(call(&app, removed).await.status, 204);
        one_move(&app, &table, &created.body).await;
        own.until(within, |got| got.len() == 2).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let got = site.deliveries();
        assert_eq!(got.len(), 1, "nothing after the removal: {got:#?}");
        let id = created.body["table"]["id"].as_str().unwrap();
        assert_eq!(got[0].event_id, format!("{id}-1"));
        let read = keyed(TestRequest::get().uri("/api/v1/site/webhook"), KEY);
        assert_eq!(call(&app, read).await.status, 404);
    }
);

both!(
    a_site_delivery_given_up_is_counted_on_the_site_webhook_not_the_table,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        deliver(&tables, Duration::from_millis(400));
        let app = app(tables, private_allowed()).await;
        let site = Receiver::start(SITE_SECRET, &[500; 200]);
        let set = call(&app, keyed(put_webhook(&site.url, SITE_SECRET), KEY)).await;
        assert_eq!(set.status, 200, "{:#}", set.body);
        let own = Receiver::start(OWN_SECRET, &[]);
        let body = json!({
            "game": "herfor",
            "options": {"size": 3},
            "webhook": {"url": own.url, "secret": OWN_SECRET},
        });
        let created = call(&app, keyed(create(body), KEY)).await;
        let id = created.body["table"]["id"].as_str().unwrap().to_owned();
        one_move(&app, &created.body["table"], &created.body).await;
        own.until(Duration::from_secs(20), |got| got.len() == 1)
            .await;
        let read = || keyed(TestRequest::get().uri("/api/v1/site/webhook"), KEY);
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let webhook = loop {
            let got = call(&app, read()).await;
            if got.body["failed_events"] == 1 {
                break got.body;
            }
            assert!(std::time::Instant::now() < deadline, "{:#}", got.body);
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(webhook["status"], "failed", "{webhook:#}");
        assert!(
            webhook["last_error"]
                .as_str()
                .is_some_and(|e| e.contains("500")),
            "{webhook:#}"
        );
        // The table's own webhook delivered its event and gave up none.
        let read_table = TestRequest::get().uri(&format!("/api/v1/tables/{id}"));
        let table = call(&app, read_table).await;
        assert_eq!(
            table.body["webhook"],
            json!({"status": "ok", "failed_events": 0}),
            "{:#}",
            table.body
        );
    }
);
