//! Web Push: the test plays the push service and the browser. It makes the browser's keys
//! (a P-256 key pair and 16 random bytes), subscribes with them through the API, and runs a
//! local HTTP endpoint that records what Moot posts: each push must decrypt (RFC 8291, with the
//! browser's private key) to the notice sent, and carry a VAPID JWT (RFC 8292) that verifies
//! with ES256 over the key `GET /api/v1/push/key` gives, for the endpoint's origin, valid for
//! at most a day, naming the server's contact. A push service's 410 drops the subscription, a
//! 500 is retried, two workers on one database post each push once, replicas share one key,
//! and the subscription routes refuse what they cannot use. The real binary posts with its
//! `--push-contact` and stops at SIGTERM with exit 0.

use std::collections::HashSet;
use std::time::Duration;

use actix_web::http::header;
use actix_web::test::TestRequest;
use base64ct::{Base64UrlUnpadded, Encoding};
use moot::push::{PushLimits, Pushes};
use moot::tables::subscriptions::Subscription;
use moot::tables::{TableError, Tables};
use serde_json::{Value, json};
use sqlx::Row;
use web_push_native::jwt_simple::prelude::{
    ECDSAP256PublicKeyLike, ES256PublicKey, NoCustomClaims,
};

use crate::both;
use crate::common::push_service::{PushBrowser as Browser, PushService};
use crate::tables::db::{self, call, new_player, roomy};

/// The server's contact, as `--push-contact` gives it.
const CONTACT: &str = "mailto:referee@games.example";

/// The push services of these tests listen on this machine, over plain HTTP.
fn private_allowed() -> moot::tables::TableLimits {
    moot::tables::TableLimits {
        allow_private_webhooks: true,
        ..roomy()
    }
}

/// The server's limits, with retries a hundred times sooner.
fn quick() -> PushLimits {
    PushLimits {
        retry_base: Duration::from_millis(10),
        allow_private: true,
        contact: CONTACT.to_owned(),
        ..PushLimits::default()
    }
}

/// Starts the push worker of `tables` on the test's runtime.
fn post_pushes(tables: &Tables) {
    let worker = Pushes::new(tables.clone(), quick()).expect("a client");
    tokio::spawn(worker.run(tokio_util::sync::CancellationToken::new()));
}

fn subscribe(credential: &str, body: &Value) -> TestRequest {
    TestRequest::post()
        .uri("/api/v1/players/me/push-subscriptions")
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
        .set_json(body)
}

fn unsubscribe(credential: &str, endpoint: &str) -> TestRequest {
    let query: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("endpoint", endpoint)
        .finish();
    TestRequest::delete()
        .uri(&format!("/api/v1/players/me/push-subscriptions?{query}"))
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
}

/// The pushes of the outbox: each one's status and attempts, by payload.
async fn outbox(tables: &Tables) -> Vec<(String, String, i64)> {
    sqlx::query("SELECT payload, status, attempts FROM moot_push_outbox ORDER BY created_ms, id")
        .fetch_all(&tables.store().pool)
        .await
        .unwrap()
        .iter()
        .map(|row| {
            (
                row.get::<String, _>("payload"),
                row.get::<String, _>("status"),
                row.get::<i64, _>("attempts"),
            )
        })
        .collect()
}

/// Waits until the outbox holds no pending push.
async fn settled(tables: &Tables) {
    for _ in 0..250 {
        if tables.pending_pushes().await.unwrap() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("pushes still pending: {:?}", outbox(tables).await);
}

/// The JWT's claims as sent, read without a library: its middle part, base64url JSON.
fn claims_of(token: &str) -> Value {
    let payload = token.split('.').nth(1).expect("a JWT of three parts");
    serde_json::from_slice(&Base64UrlUnpadded::decode_vec(payload).expect("base64url"))
        .expect("JSON claims")
}

both!(
    a_push_reaches_the_browser_encrypted_for_it_and_signed_with_the_servers_key,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), private_allowed()).await;
        let key = call(&app, TestRequest::get().uri("/api/v1/push/key")).await;
        assert_eq!(key.status, 200, "{:#}", key.body);
        let public_key = key.body["public_key"].as_str().unwrap().to_owned();
        assert_eq!(
            key.body["subscriptions_url"],
            "/api/v1/players/me/push-subscriptions"
        );
        let service = PushService::start(&[]);
        let browser = Browser::new(&service, "aoife-phone");
        let (player_id, credential) = new_player(&app, "Aoife").await;
        let kept = call(&app, subscribe(&credential, &browser.subscription())).await;
        assert_eq!(kept.status, 201, "{:#}", kept.body);
        assert_eq!(kept.body["endpoint"], browser.endpoint.as_str());
        let again = call(&app, subscribe(&credential, &browser.subscription())).await;
        assert_eq!(
            again.status, 200,
            "the same endpoint again: {:#}",
            again.body
        );

        let notice = json!({"type": "your_turn", "title": "Your move", "body": "Tara, ply 7", "url": "/play/x"}).to_string();
        let written = tables
            .push_to_player(&player_id, &notice, moot::tables::now())
            .await
            .unwrap();
        assert_eq!(written, 1, "one push per subscription");
        post_pushes(&tables);
        service
            .until(Duration::from_secs(10), |posts| !posts.is_empty())
            .await;
        settled(&tables).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let posts = service.posts();
        assert_eq!(posts.len(), 1, "posted once");
        let post = &posts[0];
        assert_eq!(post.path, browser.path());
        assert_eq!(browser.read(post), notice, "the browser reads the notice");
        assert_eq!(post.header("content-encoding"), Some("aes128gcm"));
        assert_eq!(
            post.header("content-type"),
            Some("application/octet-stream")
        );
        assert_eq!(post.header("ttl"), Some("86400"));
        assert_eq!(post.header("urgency"), Some("normal"));

        let authorization = post.header("authorization").expect("VAPID's header");
        let (token, k) = authorization
            .strip_prefix("vapid t=")
            .and_then(|rest| rest.split_once(", k="))
            .unwrap_or_else(|| panic!("`vapid t=…, k=…`: {authorization}"));
        assert_eq!(k, public_key, "k= is the key the route gives");
        let verifier =
            ES256PublicKey::from_bytes(&Base64UrlUnpadded::decode_vec(&public_key).unwrap())
                .expect("the route's key is a P-256 point");
        verifier
            .verify_token::<NoCustomClaims>(token, None)
            .expect("the JWT verifies with ES256 over the server's key");
        let claims = claims_of(token);
        assert_eq!(claims["aud"], service.origin.as_str(), "aud: the origin");
        assert_eq!(claims["sub"], CONTACT);
        let now = (moot::tables::now() / 1000) as u64;
        let exp = claims["exp"].as_u64().expect("exp");
        assert!(
            exp > now && exp <= now + 24 * 60 * 60,
            "exp within a day: {exp} at {now}"
        );
        assert_eq!(
            outbox(&tables).await,
            [(notice.clone(), "delivered".to_owned(), 1)]
        );
    }
);

both!(
    a_push_service_answering_410_drops_the_subscription,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), private_allowed()).await;
        let service = PushService::start(&[410]);
        let browser = Browser::new(&service, "unsubscribed");
        let (player_id, credential) = new_player(&app, "Aoife").await;
        let kept = call(&app, subscribe(&credential, &browser.subscription())).await;
        assert_eq!(kept.status, 201, "{:#}", kept.body);
        let now = moot::tables::now();
        tables
            .push_to_player(&player_id, "{\"n\":1}", now)
            .await
            .unwrap();
        post_pushes(&tables);
        service
            .until(Duration::from_secs(10), |posts| posts.len() == 1)
            .await;
        settled(&tables).await;
        assert!(
            tables.subscriptions(&player_id).await.unwrap().is_empty(),
            "the subscription is deleted"
        );
        assert_eq!(
            outbox(&tables).await,
            [("{\"n\":1}".to_owned(), "gone".to_owned(), 1)]
        );
        assert_eq!(
            tables
                .push_to_player(&player_id, "{\"n\":2}", now)
                .await
                .unwrap(),
            0,
            "nothing more is written for it"
        );
        call(&app, unsubscribe(&credential, &browser.endpoint))
            .await
            .problem(404, "not_found");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(service.posts().len(), 1, "never posted again");
    }
);

both!(
    a_push_service_answering_500_gets_the_push_again,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), private_allowed()).await;
        let service = PushService::start(&[500, 503]);
        let browser = Browser::new(&service, "flaky");
        let (player_id, credential) = new_player(&app, "Aoife").await;
        call(&app, subscribe(&credential, &browser.subscription())).await;
        let notice = "{\"type\":\"deadline_near\"}";
        tables
            .push_to_player(&player_id, notice, moot::tables::now())
            .await
            .unwrap();
        post_pushes(&tables);
        let posts = service
            .until(Duration::from_secs(10), |posts| posts.len() == 3)
            .await;
        settled(&tables).await;
        let answered: Vec<u16> = posts.iter().map(|p| p.answered).collect();
        assert_eq!(answered, [500, 503, 201]);
        for post in &posts {
            assert_eq!(browser.read(post), notice, "each attempt sealed anew");
        }
        assert_ne!(
            posts[0].body, posts[1].body,
            "a fresh key and salt each time"
        );
        assert_eq!(
            outbox(&tables).await,
            [(notice.to_owned(), "delivered".to_owned(), 3)]
        );
        assert_eq!(tables.subscriptions(&player_id).await.unwrap().len(), 1);
    }
);

both!(
    two_workers_on_one_database_post_each_push_once,
    |url: String| async move {
        let first = db::tables(&url, 100).await;
        let second = db::tables(&url, 100).await;
        let app = db::app(first.clone(), private_allowed()).await;
        let service = PushService::start(&[]);
        let (player_id, credential) = new_player(&app, "Aoife").await;
        let browsers: Vec<Browser> = (0..3)
            .map(|i| Browser::new(&service, &format!("browser-{i}")))
            .collect();
        for browser in &browsers {
            let kept = call(&app, subscribe(&credential, &browser.subscription())).await;
            assert_eq!(kept.status, 201, "{:#}", kept.body);
        }
        post_pushes(&first);
        post_pushes(&second);
        let notices = 12;
        for n in 0..notices {
            // Written through either process: each rings its own worker only.
            let tables = if n % 2 == 0 { &first } else { &second };
            let written = tables
                .push_to_player(&player_id, &format!("{{\"n\":{n}}}"), moot::tables::now())
                .await
                .unwrap();
            assert_eq!(written, 3);
        }
        let expected = notices * browsers.len();
        service
            .until(Duration::from_secs(20), |posts| posts.len() >= expected)
            .await;
        settled(&first).await;
        // Leases of a minute: nothing is claimed twice while both workers live.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let posts = service.posts();
        assert_eq!(posts.len(), expected, "each push posted once");
        let read: HashSet<(String, String)> = posts
            .iter()
            .map(|post| {
                let browser = browsers
                    .iter()
                    .find(|b| b.path() == post.path)
                    .expect("a subscribed browser");
                (post.path.clone(), browser.read(post))
            })
            .collect();
        assert_eq!(read.len(), expected, "every notice reached every browser");
    }
);

both!(
    replicas_make_one_vapid_key_and_share_it,
    |url: String| async move {
        let first = db::tables(&url, 100).await;
        let second = db::tables(&url, 100).await;
        let now = moot::tables::now();
        let (a, b) = tokio::join!(first.push_key(now), second.push_key(now));
        assert_eq!(a.unwrap(), b.unwrap(), "both made one, one was kept");
        let third = db::tables(&url, 100).await;
        let app = db::app(third, roomy()).await;
        let key = call(&app, TestRequest::get().uri("/api/v1/push/key")).await;
        assert_eq!(key.status, 200, "{:#}", key.body);
        let cache = key.body.clone();
        let again = call(&app, TestRequest::get().uri("/api/v1/push/key")).await;
        assert_eq!(again.body, cache, "the same key at every request");
        let kept: i64 = sqlx::query("SELECT COUNT(*) AS n FROM moot_push_keys")
            .fetch_one(&first.store().pool)
            .await
            .unwrap()
            .get("n");
        assert_eq!(kept, 1);
    }
);

both!(
    an_eleventh_subscription_replaces_the_oldest,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (player_id, _) = new_player(&app, "Aoife").await;
        let service = PushService::start(&[]);
        let start = moot::tables::now();
        let mut endpoints = Vec::new();
        for i in 0..11 {
            let browser = Browser::new(&service, &format!("device-{i}"));
            let sent = browser.subscription();
            let subscription = Subscription {
                endpoint: browser.endpoint.clone(),
                p256dh: sent["keys"]["p256dh"].as_str().unwrap().to_owned(),
                auth: sent["keys"]["auth"].as_str().unwrap().to_owned(),
            };
            tables
                .subscribe(&player_id, &subscription, start + i)
                .await
                .unwrap();
            endpoints.push(browser.endpoint);
        }
        let kept: Vec<String> = tables
            .subscriptions(&player_id)
            .await
            .unwrap()
            .into_iter()
            .map(|s| s.endpoint)
            .collect();
        let newest: Vec<String> = endpoints[1..].iter().rev().cloned().collect();
        assert_eq!(kept, newest, "the ten newest, the first one dropped");
    }
);

both!(
    the_subscription_routes_refuse_what_they_cannot_use,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        // As a server runs by default: push services on the internet, over https.
        let app = db::app(tables.clone(), roomy()).await;
        let (player_id, credential) = new_player(&app, "Aoife").await;
        let service = PushService::start(&[]);
        let browser = Browser::new(&service, "refused");
        let good = json!({
            "endpoint": "https://push.example/send/abc",
            "keys": browser.subscription()["keys"].clone(),
        });
        let with = |pointer: &str, value: Value| {
            let mut body = good.clone();
            *body.pointer_mut(pointer).unwrap() = value;
            body
        };

        let anonymous = TestRequest::post()
            .uri("/api/v1/players/me/push-subscriptions")
            .set_json(&good);
        call(&app, anonymous)
            .await
            .problem(401, "unknown_player_key");
        call(&app, subscribe(&"ab".repeat(32), &good))
            .await
            .problem(401, "unknown_player_key");

        for (endpoint, says) in [
            ("http://push.example/send/abc", "https"),
            ("https://127.0.0.1/send/abc", "not on the public internet"),
            ("https://localhost/send/abc", "not on the public internet"),
            ("not a url", "not a URL"),
            ("ftp://push.example/x", "http or https"),
        ] {
            let refused = call(
                &app,
                subscribe(&credential, &with("/endpoint", json!(endpoint))),
            )
            .await;
            let problem = refused.unprocessable("invalid_request", "endpoint");
            assert!(
                problem["detail"].as_str().unwrap().contains(says),
                "{endpoint}: {problem:#}"
            );
        }
        let off_curve = Base64UrlUnpadded::encode_string(&[&[4u8][..], &[7u8; 64][..]].concat());
        for p256dh in ["BAD!", "BCVx", off_curve.as_str()] {
            call(
                &app,
                subscribe(&credential, &with("/keys/p256dh", json!(p256dh))),
            )
            .await
            .unprocessable("invalid_request", "keys.p256dh");
        }
        for auth in [
            "AAAAAAAAAAA",
            "!!",
            &Base64UrlUnpadded::encode_string(&[1; 32]),
        ] {
            call(
                &app,
                subscribe(&credential, &with("/keys/auth", json!(auth))),
            )
            .await
            .unprocessable("invalid_request", "keys.auth");
        }
        let no_keys = json!({"endpoint": "https://push.example/send/abc"});
        call(&app, subscribe(&credential, &no_keys))
            .await
            .problem(422, "invalid_request");
        assert!(tables.subscriptions(&player_id).await.unwrap().is_empty());

        let kept = call(&app, subscribe(&credential, &good)).await;
        assert_eq!(kept.status, 201, "{:#}", kept.body);
        let no_endpoint = TestRequest::delete()
            .uri("/api/v1/players/me/push-subscriptions")
            .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")));
        call(&app, no_endpoint).await.problem(400, "invalid_query");
        call(&app, unsubscribe(&credential, "https://push.example/other"))
            .await
            .problem(404, "not_found");
        let gone = call(
            &app,
            unsubscribe(&credential, "https://push.example/send/abc"),
        )
        .await;
        assert_eq!(gone.status, 204);
        call(
            &app,
            unsubscribe(&credential, "https://push.example/send/abc"),
        )
        .await
        .problem(404, "not_found");

        let too_large = "x".repeat(moot::tables::push::MAX_PAYLOAD_BYTES + 1);
        assert!(matches!(
            tables
                .push_to_player(&player_id, &too_large, moot::tables::now())
                .await,
            Err(TableError::PushTooLarge(_))
        ));
    }
);

/// `method path` on the server at `base`, with `credential` and a JSON `body`: the status and
/// the answer as JSON.
async fn http(
    base: &str,
    method: reqwest::Method,
    path: &str,
    credential: Option<&str>,
    body: &Value,
) -> (u16, Value) {
    let mut request = reqwest::Client::new()
        .request(method, format!("{base}{path}"))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(credential) = credential {
        request = request.bearer_auth(credential);
    }
    let answer = request.send().await.expect("the server answers");
    let status = answer.status().as_u16();
    let text = answer.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

both!(
    the_server_binary_posts_pushes_signed_with_its_contact_and_stops_at_sigterm,
    |url: String| async move {
        let contact = "mailto:ops@games.example";
        let port = crate::common::ports::free_port();
        let mut server = crate::common::ports::moot(
            port,
            &[
                "--database",
                &url,
                "--allow-private-webhooks",
                "--push-contact",
                contact,
            ],
        );
        let base = format!("http://127.0.0.1:{port}");
        let (status, key) = http(
            &base,
            reqwest::Method::GET,
            "/api/v1/push/key",
            None,
            &json!({}),
        )
        .await;
        assert_eq!(status, 200, "{key:#}");
        let (status, made) = http(
            &base,
            reqwest::Method::POST,
            "/api/v1/players",
            None,
            &json!({}),
        )
        .await;
        assert_eq!(status, 201, "{made:#}");
        let credential = made["credential"].as_str().unwrap();
        let service = PushService::start(&[]);
        let browser = Browser::new(&service, "from-the-binary");
        let (status, kept) = http(
            &base,
            reqwest::Method::POST,
            "/api/v1/players/me/push-subscriptions",
            Some(credential),
            &browser.subscription(),
        )
        .await;
        assert_eq!(status, 201, "{kept:#}");
        // Written beside the server, as another replica would: its worker finds it by itself.
        let tables = db::tables(&url, 100).await;
        let notice = "{\"type\":\"your_turn\"}";
        let player_id = made["id"].as_str().unwrap();
        tables
            .push_to_player(player_id, notice, moot::tables::now())
            .await
            .unwrap();
        let posts = service
            .until(Duration::from_secs(15), |posts| !posts.is_empty())
            .await;
        assert_eq!(browser.read(&posts[0]), notice);
        let authorization = posts[0].header("authorization").unwrap();
        let (token, k) = authorization
            .strip_prefix("vapid t=")
            .and_then(|rest| rest.split_once(", k="))
            .unwrap();
        assert_eq!(k, key["public_key"].as_str().unwrap());
        assert_eq!(
            claims_of(token)["sub"],
            contact,
            "--push-contact is the JWT's sub"
        );
        settled(&tables).await;

        let pid = rustix::process::Pid::from_raw(server.0.id() as i32).expect("a pid");
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("SIGTERM");
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = server.0.try_wait().unwrap() {
                break status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the server did not stop within 20 s of SIGTERM"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(status.code(), Some(0), "exit status after SIGTERM");
    }
);

both!(
    a_players_turn_and_its_deadline_near_are_pushed_to_its_browser,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), private_allowed()).await;
        let service = PushService::start(&[]);
        let browser = Browser::new(&service, "ann-phone");
        let (_, ann) = new_player(&app, "Aoife").await;
        let kept = call(&app, subscribe(&ann, &browser.subscription())).await;
        assert_eq!(kept.status, 201, "{:#}", kept.body);
        post_pushes(&tables);
        // Ann sits second at a table of a day per move, made two days ago (the clock is passed
        // in, so that her deadline comes near now): her sitting down is not pushed, nor the
        // first seat's turn.
        use moot::games::Game;
        use moot::games::herfor::{Herfor, HerforOptions};
        let now = moot::tables::now();
        let day = moot::tables::DAY;
        let options = HerforOptions {
            size: 3,
            ..HerforOptions::default()
        };
        let state = Herfor::new_game(&options).unwrap();
        let created = tables
            .create_seated::<Herfor>(
                &options,
                &state,
                Some(moot::tables::Clock::days_per_move(1)),
                [None, None],
                [None, Some(ann.clone())],
                None,
                None,
                now - 2 * day,
            )
            .await
            .unwrap();
        let id = created.table.id.clone();
        // The first seat moves, 19/20 of a day ago: Ann's turn, pushed.
        let mv = Herfor::format_move(&state, &Herfor::legal_moves(&state)[0]);
        tables
            .play(&id, &created.credentials[0], 0, &mv, now - day * 19 / 20)
            .await
            .unwrap();
        service
            .until(Duration::from_secs(10), |posts| !posts.is_empty())
            .await;
        // Four fifths of her day have passed: her deadline near, pushed.
        assert_eq!(tables.notice_deadlines(now).await.unwrap(), 1);
        service
            .until(Duration::from_secs(10), |posts| posts.len() >= 2)
            .await;
        settled(&tables).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let posts = service.posts();
        assert_eq!(posts.len(), 2, "her turn and her deadline, nothing else");
        let read: Vec<Value> = posts
            .iter()
            .map(|post| serde_json::from_str(&browser.read(post)).unwrap())
            .collect();
        assert_eq!(read[0]["type"], "your_turn");
        assert_eq!(read[1]["type"], "deadline_near");
        for notice in &read {
            assert_eq!(notice["table_id"], id.as_str());
            assert_eq!(notice["url"], format!("/table/{id}/mine"));
            assert!(notice["title"].as_str().is_some_and(|t| !t.is_empty()));
            assert!(notice["body"].as_str().is_some_and(|b| !b.is_empty()));
        }
    }
);
