//! The shares of event streams, so that no one client holds every place: one address at its
//! share of players' feeds (the API's and the pages' "Your games") is refused, naming the cap
//! and its flag, while another address still gets a feed; a site's key counts its streams
//! against the site, not the address its backend relays them from; a seat's streams from one
//! address have a share of their own, apart from that address's watchers; the server's cap is
//! named too. Addresses are the requests' peers in the app (which trusts no forwarded header),
//! and forwarded ones on the real binary (`--trust-forwarded`), whose flags set the caps.

use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header;
use actix_web::test::{self, TestRequest};
use serde_json::{Value, json};

use crate::both;
use crate::tables::db::{self, call, create, new_player, roomy, seats};
use moot::tables::{BellLimits, FeedLimits, Tables};

/// A site's key, as the keys file below names it.
const CLUB: &str = "club-secret-0123456789abcdef0123456789";
/// Long enough, but no site's.
const WRONG: &str = "wrong-secret-000000000000000000000000000";

/// Two addresses.
const HERE: &str = "192.0.2.7";
const THERE: &str = "198.51.100.7";

/// The whole app over `tables`, knowing the site `club` by its key [`CLUB`].
async fn app_with_a_site(
    tables: Tables,
) -> impl Service<
    actix_http::Request,
    Response = ServiceResponse<impl actix_web::body::MessageBody>,
    Error = actix_web::Error,
> {
    let keys = moot::site_keys::SiteKeys::parse(&format!("club:{CLUB}\n")).expect("the keys");
    let computer = moot::Computer::new(moot::AiConfig::default());
    let middleware =
        moot::serve::Middleware::new(moot::serve::Origins::Any, &computer).with_site_keys(keys);
    test::init_service(moot::app_for(
        computer,
        middleware,
        Some(moot::tables::TablePolicy::new(tables, roomy())),
    ))
    .await
}

/// `request` from `address`, with the site's `key` if given.
fn from(request: TestRequest, address: &str, key: Option<&str>) -> TestRequest {
    let request = request.peer_addr(format!("{address}:40000").parse().unwrap());
    match key {
        Some(key) => request.insert_header(("Moot-Site-Key", key)),
        None => request,
    }
}

/// The API's feed of the player holding `credential`.
fn feed(credential: &str) -> TestRequest {
    TestRequest::get()
        .uri("/api/v1/players/me/events")
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
}

/// The pages' "Your games" stream of the browser whose cookie holds `credential`.
fn your_games(credential: &str) -> TestRequest {
    TestRequest::get()
        .uri("/your-games/events")
        .insert_header((header::COOKIE, format!("moot_player={credential}")))
}

/// Table `id`'s stream, as a watcher or (with a seat's `credential`) as its seat.
fn table_stream(id: &str, credential: Option<&str>) -> TestRequest {
    let request = TestRequest::get().uri(&format!("/api/v1/tables/{id}/events"));
    match credential {
        Some(credential) => {
            request.insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
        }
        None => request,
    }
}

/// Asserts a `streams_full` refusal naming `cap` and, in its detail, `flag`.
#[track_caller]
fn refused_by(answer: &crate::common::Answer, cap: &str, flag: &str) {
    let body: &Value = answer.problem(503, "streams_full");
    assert_eq!(body["cap"], cap, "{body:#}");
    let detail = body["detail"].as_str().unwrap();
    assert!(detail.contains(flag), "{detail}");
    assert!(answer.retry_after.is_some(), "{answer:#?}");
}

/// `n` new players' credentials.
async fn players<S, B>(app: &S, n: usize) -> Vec<String>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let mut credentials = Vec::new();
    for i in 0..n {
        credentials.push(new_player(app, &format!("P{i}")).await.1);
    }
    credentials
}

both!(
    one_address_at_its_player_feed_share_is_refused_naming_the_cap_while_another_address_gets_a_feed,
    |url: String| async move {
        let tables = db::tables(&url, 100).await.with_player_feeds(BellLimits {
            per_player: 8,
            per_address: 3,
            per_site: 100,
            in_all: 100,
        });
        let app = app_with_a_site(tables).await;
        let credentials = players(&app, 4).await;
        let mut open = Vec::new();
        // The API's feeds and the pages' count against one share.
        for (credential, request) in [
            (&credentials[0], feed as fn(&str) -> TestRequest),
            (&credentials[1], feed),
            (&credentials[2], your_games),
        ] {
            let response = app
                .call(from(request(credential), HERE, None).to_request())
                .await
                .unwrap();
            assert_eq!(response.status(), 200);
            open.push(response);
        }
        let refused = call(&app, from(feed(&credentials[3]), HERE, None)).await;
        refused_by(&refused, "address", "--player-feeds-per-address");
        let page = call(&app, from(your_games(&credentials[3]), HERE, None)).await;
        refused_by(&page, "address", "--player-feeds-per-address");
        // Another address is let in meanwhile, and a feed closed gives its place back.
        let there = app
            .call(from(feed(&credentials[3]), THERE, None).to_request())
            .await
            .unwrap();
        assert_eq!(there.status(), 200);
        open.pop();
        let again = app
            .call(from(feed(&credentials[3]), HERE, None).to_request())
            .await
            .unwrap();
        assert_eq!(again.status(), 200);
    }
);

both!(
    a_site_keys_player_feeds_count_against_the_site_not_its_address,
    |url: String| async move {
        let tables = db::tables(&url, 100).await.with_player_feeds(BellLimits {
            per_player: 8,
            per_address: 1,
            per_site: 3,
            in_all: 100,
        });
        let app = app_with_a_site(tables).await;
        let credentials = players(&app, 4).await;
        let _own = app
            .call(from(feed(&credentials[0]), HERE, None).to_request())
            .await
            .unwrap();
        let refused = call(&app, from(feed(&credentials[1]), HERE, None)).await;
        refused_by(&refused, "address", "--player-feeds-per-address");
        // The site's backend, on the same address, relays its players' feeds on its share…
        let mut relayed = Vec::new();
        for credential in &credentials[1..] {
            let response = app
                .call(from(feed(credential), HERE, Some(CLUB)).to_request())
                .await
                .unwrap();
            assert_eq!(response.status(), 200);
            relayed.push(response);
        }
        // …up to it: from any address, a site is one holder.
        let full = call(&app, from(feed(&credentials[0]), THERE, Some(CLUB))).await;
        refused_by(&full, "site", "--player-feeds-per-site");
        // Its share took nothing of the address's, nor of another address's.
        let there = app
            .call(from(feed(&credentials[1]), THERE, None).to_request())
            .await
            .unwrap();
        assert_eq!(there.status(), 200);
        // A key that is no site's is refused, not counted by address.
        call(&app, from(feed(&credentials[0]), THERE, Some(WRONG)))
            .await
            .problem(401, "unknown_site_key");
        relayed.pop();
        let again = app
            .call(from(feed(&credentials[0]), THERE, Some(CLUB)).to_request())
            .await
            .unwrap();
        assert_eq!(again.status(), 200);
    }
);

both!(
    the_servers_cap_on_players_feeds_is_named,
    |url: String| async move {
        let tables = db::tables(&url, 100).await.with_player_feeds(BellLimits {
            per_player: 8,
            per_address: 8,
            per_site: 8,
            in_all: 2,
        });
        let app = app_with_a_site(tables).await;
        let credentials = players(&app, 3).await;
        let _here = app
            .call(from(feed(&credentials[0]), HERE, None).to_request())
            .await
            .unwrap();
        let _there = app
            .call(from(feed(&credentials[1]), THERE, None).to_request())
            .await
            .unwrap();
        let refused = call(&app, from(feed(&credentials[2]), "203.0.113.9", None)).await;
        refused_by(&refused, "server", "--max-player-feeds");
    }
);

both!(
    a_site_keys_table_streams_count_against_the_site_and_seats_have_a_share_apart,
    |url: String| async move {
        let tables = db::tables(&url, 100).await.with_feed(FeedLimits {
            per_table: 32,
            per_seat: 4,
            per_address: 1,
            per_site: 2,
            in_all: 100,
        });
        let app = app_with_a_site(tables).await;
        let mut ids = Vec::new();
        for _ in 0..3 {
            let created = call(&app, create(json!({"game": "tara"}))).await;
            ids.push(seats(&created.body));
        }
        let open = |request: TestRequest| {
            let app = &app;
            async move {
                let response = app.call(request.to_request()).await.unwrap();
                assert_eq!(response.status(), 200);
                response
            }
        };
        // The address's one watcher's place, and its one seat's place apart from it.
        let _watcher = open(from(table_stream(&ids[0].0, None), HERE, None)).await;
        let seat = open(from(
            table_stream(&ids[0].0, Some(ids[0].1[0].as_str())),
            HERE,
            None,
        ))
        .await;
        let watcher = call(&app, from(table_stream(&ids[1].0, None), HERE, None)).await;
        refused_by(&watcher, "address", "--event-streams-per-address");
        let seated = call(
            &app,
            from(
                table_stream(&ids[1].0, Some(ids[1].1[0].as_str())),
                HERE,
                None,
            ),
        )
        .await;
        refused_by(&seated, "address", "--event-streams-per-address");
        // The site's backend on the same address has the site's share.
        let mut relayed = Vec::new();
        for (id, _) in &ids[1..] {
            relayed.push(open(from(table_stream(id, None), HERE, Some(CLUB))).await);
        }
        let full = call(&app, from(table_stream(&ids[0].0, None), HERE, Some(CLUB))).await;
        refused_by(&full, "site", "--event-streams-per-site");
        call(&app, from(table_stream(&ids[0].0, None), HERE, Some(WRONG)))
            .await
            .problem(401, "unknown_site_key");
        // A seat's stream closed gives its place back.
        drop(seat);
        let _seat = open(from(
            table_stream(&ids[1].0, Some(ids[1].1[0].as_str())),
            HERE,
            None,
        ))
        .await;
    }
);

/// The player `name`'s credential, made on the binary at `port`.
fn binary_player(port: u16, name: &str) -> String {
    let (status, body) = binary_request(
        port,
        &format!(
            "POST /api/v1/players HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{{\"name\":\"{name}\"}}",
            name.len() + 11
        ),
    );
    assert_eq!(status, 201, "{body:#}");
    body["credential"].as_str().unwrap().to_owned()
}

/// `head_and_body` sent to the binary at `port`: its status and its body as JSON.
fn binary_request(port: u16, head_and_body: &str) -> (u16, Value) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("a connection");
    stream
        .write_all(head_and_body.as_bytes())
        .expect("a request");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    let status = answer[9..12].parse().expect("a status");
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// The feed of the player holding `credential` on the binary at `port`, from `address` (a
/// forwarded one): the open stream, or the refusal's status and body.
fn binary_feed(
    port: u16,
    credential: &str,
    address: &str,
) -> Result<std::net::TcpStream, (u16, Value)> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("a connection");
    write!(
        stream,
        "GET /api/v1/players/me/events HTTP/1.0\r\nAuthorization: Bearer {credential}\r\n\
         X-Forwarded-For: {address}\r\n\r\n"
    )
    .expect("a request");
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).expect("an answer");
    if &head[9..12] == b"200" {
        return Ok(stream);
    }
    let mut rest = String::new();
    stream.read_to_string(&mut rest).expect("the refusal");
    let body = rest.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let status = String::from_utf8_lossy(&head[9..12]).parse().unwrap();
    Err((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

/// The binary's flags set the players' feeds' caps: `--player-feeds-per-address 1` refuses an
/// address's second feed, naming it, while another address gets one; `--max-player-feeds 2`
/// refuses a third address.
#[test]
fn the_player_feed_caps_follow_the_binarys_flags() {
    let port = crate::common::ports::free_port();
    let _server = crate::common::ports::moot(
        port,
        &[
            "--trust-forwarded",
            "--player-feeds-per-address",
            "1",
            "--max-player-feeds",
            "2",
        ],
    );
    let [ann, bo, cy] = ["Ann", "Bo", "Cy"].map(|name| binary_player(port, name));
    let _ann = binary_feed(port, &ann, "10.0.0.1").expect("a feed");
    let (status, refused) = binary_feed(port, &bo, "10.0.0.1").expect_err("the address's share");
    assert_eq!(
        (status, &refused["cap"]),
        (503, &json!("address")),
        "{refused:#}"
    );
    assert!(
        refused["detail"]
            .as_str()
            .unwrap()
            .contains("--player-feeds-per-address"),
        "{refused:#}"
    );
    let _bo = binary_feed(port, &bo, "10.0.0.2").expect("another address's feed");
    let (status, refused) = binary_feed(port, &cy, "10.0.0.3").expect_err("the server's cap");
    assert_eq!(
        (status, &refused["cap"]),
        (503, &json!("server")),
        "{refused:#}"
    );
}
