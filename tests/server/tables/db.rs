//! A fresh database for each test: an SQLite file in the temporary directory, or a PostgreSQL
//! database made for it; and an app or a client over it.

use std::sync::atomic::{AtomicU32, Ordering};

use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header;
use actix_web::test::{self, TestRequest};
use moot::tables::{Store, Tables};
use moot::tables::{TableLimits, TablePolicy};
use serde_json::{Value, json};
use sqlx::Executor;

use crate::common::{Answer, answer_of};

/// The variable that names the PostgreSQL server the tests make their databases on.
pub const POSTGRES_VAR: &str = "MOOT_TEST_POSTGRES_URL";
/// Set to `1` (as `scripts/test` does) to fail, not skip, when [`POSTGRES_VAR`] is unset: the
/// whole suite never passes without its PostgreSQL half.
pub const REQUIRE_VAR: &str = "MOOT_TEST_REQUIRE_POSTGRES";

fn unique() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "{}_{}_{nanos}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A new SQLite file's URL.
pub fn sqlite_url() -> String {
    let file = std::env::temp_dir().join(format!("moot-tables-{}.db", unique()));
    format!("sqlite://{}", file.display())
}

/// A new PostgreSQL database's URL, or `None` when no PostgreSQL server is named: the
/// developer's fast loop (`cargo test -p moot --test server`) runs the SQLite half alone.
pub async fn postgres_url() -> Option<String> {
    let Ok(server) = std::env::var(POSTGRES_VAR) else {
        assert_ne!(
            std::env::var(REQUIRE_VAR).as_deref(),
            Ok("1"),
            "{POSTGRES_VAR} is not set but {REQUIRE_VAR}=1: these tests need a PostgreSQL server \
             (scripts/test starts Debian's and sets it)"
        );
        eprintln!("{POSTGRES_VAR} is not set: the PostgreSQL half of this test is skipped");
        return None;
    };
    sqlx::any::install_default_drivers();
    let name = format!("moot_t_{}", unique());
    let mut admin = <sqlx::AnyConnection as sqlx::Connection>::connect(&server)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to {POSTGRES_VAR}: {e}"));
    admin
        .execute(&*format!("CREATE DATABASE {name}"))
        .await
        .expect("a database for the test");
    let (base, _) = server.rsplit_once('/').expect("a URL with a database");
    Some(format!("{base}/{name}"))
}

/// The tables on `url`, migrated, with room for `max_open` open tables, taking webhooks as the
/// server does.
pub async fn tables(url: &str, max_open: u64) -> Tables {
    Tables::new(
        Store::connect(url).await.expect("the database opens"),
        max_open,
    )
    .with_webhooks(moot::api::tables::events::TableEvent::webhook_body)
    .with_notice_webhooks(
        moot::api::tables::my_events::PlayerFeedEvent::webhook_body,
        moot::api::tables::events::TableEvent::deadline_body,
        moot::api::tables::events::TableEvent::seat_notice_body,
    )
}

/// The whole app over `tables` under `limits`.
pub async fn app(
    tables: Tables,
    limits: TableLimits,
) -> impl Service<
    actix_http::Request,
    Response = ServiceResponse<impl actix_web::body::MessageBody>,
    Error = actix_web::Error,
> {
    let computer = moot::Computer::new(moot::AiConfig::default());
    let middleware = moot::serve::Middleware::new(moot::serve::Origins::Any, &computer);
    test::init_service(moot::app_for(
        computer,
        middleware,
        Some(TablePolicy::new(tables, limits)),
    ))
    .await
}

/// Generous limits, so that a test meets only those it is about.
pub fn roomy() -> TableLimits {
    TableLimits {
        create_burst: 1000,
        guess_burst: 1000,
        ..TableLimits::default()
    }
}

/// A new player named `name`, made through the API: its id and credential.
pub async fn new_player<S, B>(app: &S, name: &str) -> (String, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let made = call(
        app,
        TestRequest::post()
            .uri("/api/v1/players")
            .set_json(json!({"name": name})),
    )
    .await;
    assert_eq!(made.status, 201, "{made:#?}");
    let text = |field: &str| made.body[field].as_str().unwrap().to_owned();
    (text("id"), text("credential"))
}

/// Sends `request` to `app`.
pub async fn call<S, B>(app: &S, request: TestRequest) -> Answer
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    answer_of(
        app.call(request.to_request())
            .await
            .expect("the app answers"),
    )
    .await
}

/// `POST /api/v1/tables` with `body`.
pub fn create(body: Value) -> TestRequest {
    TestRequest::post().uri("/api/v1/tables").set_json(body)
}

/// `POST /api/v1/tables/{id}/moves` of `mv` at `ply` with `credential`.
pub fn play(id: &str, credential: &str, mv: &str, ply: u64) -> TestRequest {
    TestRequest::post()
        .uri(&format!("/api/v1/tables/{id}/moves"))
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
        .set_json(json!({"move": mv, "ply": ply}))
}

/// `POST /api/v1/tables/{id}/{action}` (`resign`, `claim`) with `credential`.
pub fn act(id: &str, credential: &str, action: &str) -> TestRequest {
    TestRequest::post()
        .uri(&format!("/api/v1/tables/{id}/{action}"))
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
}

/// A created table's id and its seats' credentials, the first seat's first.
pub fn seats(created: &Value) -> (String, [String; 2]) {
    let id = created["table"]["id"].as_str().expect("an id").to_owned();
    let credential = |i: usize| {
        created["seats"][i]["credential"]
            .as_str()
            .expect("a credential")
            .to_owned()
    };
    (id, [credential(0), credential(1)])
}

/// The index of the seat a table awaits.
pub fn to_act(table: &Value) -> usize {
    match table["to_act"].as_str() {
        Some("first") => 0,
        Some("second") => 1,
        other => panic!("no seat to act: {other:?} in {table:#}"),
    }
}

/// `GET /api/v1/tables/{id}`.
pub fn get(id: &str) -> TestRequest {
    TestRequest::get().uri(&format!("/api/v1/tables/{id}"))
}

/// A random legal move of `G` in `table`'s position (`rng` seeded for a game that can be
/// played again), in the game's notation.
pub fn random_move<G: moot::games::Game>(table: &Value, rng: &mut impl rand::Rng) -> String {
    use rand::seq::IndexedRandom;
    let state: G::State = serde_json::from_value(table["state"].clone()).expect("a state");
    let mv = G::legal_moves(&state)
        .choose(rng)
        .cloned()
        .expect("a legal move: the table goes on");
    G::format_move(&state, &mv)
}
