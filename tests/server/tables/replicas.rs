//! Two replicas on one PostgreSQL, each playing a table's next move from the table as it last
//! wrote it (without reading it first): whatever the other replica changed meanwhile (moves, a
//! takeback, a seat taken, any change of the row) is never overwritten and never refuses a
//! good move. Every change of a table's row or seats raises its version, which a move from
//! what was remembered must still find.

use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header;
use actix_web::test::TestRequest;
use moot::games::Game;
use moot::games::herfor::Herfor;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde_json::{Value, json};
use sqlx::Executor;

use crate::tables::db::{self, call, create, get, play, random_move, roomy, seats};

/// Two apps over one new PostgreSQL database, as two replicas; `None` without PostgreSQL.
async fn two_replicas() -> Option<(
    impl Service<
        actix_http::Request,
        Response = ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
    >,
    impl Service<
        actix_http::Request,
        Response = ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
    >,
    String,
)> {
    let url = db::postgres_url().await?;
    let one = db::app(db::tables(&url, 100).await, roomy()).await;
    let other = db::app(db::tables(&url, 100).await, roomy()).await;
    Some((one, other, url))
}

/// A new Herfor table on a small board without the pie rule: its id and seats' credentials.
async fn new_table<S, B>(app: &S) -> (String, [String; 2])
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let created = call(
        app,
        create(json!({"game": "herfor", "options": {"size": 3, "pie": false}})),
    )
    .await;
    assert_eq!(created.status, 201, "{created:#?}");
    seats(&created.body)
}

/// Plays a random legal move at table `id` through `app` with `credential`: the table after.
async fn move_on<S, B>(app: &S, id: &str, credential: &str, rng: &mut SmallRng) -> Value
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: actix_web::body::MessageBody,
{
    let table = call(app, get(id)).await.ok().clone();
    let mv = random_move::<Herfor>(&table, rng);
    let ply = table["ply"].as_u64().unwrap();
    let played = call(app, play(id, credential, &mv, ply)).await;
    assert_eq!(played.status, 200, "{mv} at ply {ply}: {played:#?}");
    played.body
}

/// The position of `table` after `mv`, as the engine plays it.
fn after(table: &Value, mv: &str) -> Value {
    let mut state: <Herfor as Game>::State =
        serde_json::from_value(table["state"].clone()).unwrap();
    let parsed = Herfor::parse_move(&state, mv).unwrap();
    Herfor::apply(&mut state, &parsed).unwrap();
    serde_json::to_value(&state).unwrap()
}

/// `POST /api/v1/tables/{id}/takeback` with `credential`: asks, or accepts the other's request.
fn takeback(id: &str, credential: &str) -> TestRequest {
    TestRequest::post()
        .uri(&format!("/api/v1/tables/{id}/takeback"))
        .insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
}

#[actix_web::test]
async fn a_move_after_a_takeback_and_another_move_on_the_other_replica_plays_on_the_table_as_it_is()
{
    let Some((one, other, _)) = two_replicas().await else {
        return;
    };
    let mut rng = SmallRng::seed_from_u64(7);
    let (id, [first, second]) = new_table(&one).await;
    move_on(&one, &id, &first, &mut rng).await;
    let remembered = move_on(&one, &id, &second, &mut rng).await;
    // On the other replica: the second seat's move taken back, and another played instead.
    assert_eq!(
        call(&other, takeback(&id, &second)).await.ok()["status"],
        "asked"
    );
    let taken = call(&other, takeback(&id, &first)).await.ok().clone();
    assert_eq!(
        (taken["status"].as_str(), taken["table"]["ply"].as_u64()),
        (Some("taken_back"), Some(1))
    );
    let instead = loop {
        let table = move_on(&other, &id, &second, &mut rng).await;
        if table["state"] != remembered["state"] {
            break table;
        }
        // The same move again: taken back once more, so that the position differs.
        call(&other, takeback(&id, &second)).await.ok();
        call(&other, takeback(&id, &first)).await.ok();
    };
    // The first replica remembers the table at ply 2 with the other move: it plays on the
    // table as it is.
    let mv = random_move::<Herfor>(&instead, &mut rng);
    let played = call(&one, play(&id, &first, &mv, 2)).await;
    assert_eq!(played.status, 200, "{played:#?}");
    assert_eq!(played.body["ply"], 3);
    assert_eq!(played.body["state"], after(&instead, &mv));
    let seen = call(&other, get(&id)).await.ok().clone();
    assert_eq!(seen["state"], played.body["state"]);
    let history = call(
        &other,
        TestRequest::get().uri(&format!("/api/v1/tables/{id}/moves")),
    )
    .await
    .ok()
    .clone();
    let notations: Vec<&str> = history["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(notations.len(), 3, "{history:#}");
    assert_eq!(notations[2], mv);
}

#[actix_web::test]
async fn a_move_at_the_ply_the_other_replica_reached_is_played_not_refused() {
    let Some((one, other, _)) = two_replicas().await else {
        return;
    };
    let mut rng = SmallRng::seed_from_u64(8);
    let (id, [first, second]) = new_table(&one).await;
    move_on(&one, &id, &first, &mut rng).await;
    let there = move_on(&other, &id, &second, &mut rng).await;
    // The first replica remembers ply 1; the client saw ply 2 on the other.
    let mv = random_move::<Herfor>(&there, &mut rng);
    let played = call(&one, play(&id, &first, &mv, 2)).await;
    assert_eq!(played.status, 200, "{played:#?}");
    assert_eq!(played.body["state"], after(&there, &mv));
    // And a client that is really behind is still told so.
    let stale = call(&one, play(&id, &second, &mv, 2)).await;
    assert_eq!(stale.status, 409, "{stale:#?}");
    assert_eq!(stale.body["code"], "stale_ply");
}

#[actix_web::test]
async fn a_seat_taken_by_a_player_on_the_other_replica_opens_to_that_player_at_once() {
    let Some((one, other, _)) = two_replicas().await else {
        return;
    };
    let mut rng = SmallRng::seed_from_u64(9);
    let (id, [first, second]) = new_table(&one).await;
    move_on(&one, &id, &first, &mut rng).await;
    move_on(&one, &id, &second, &mut rng).await;
    let (_, player) = db::new_player(&other, "Ann").await;
    let taken = call(
        &other,
        TestRequest::put()
            .uri(&format!("/api/v1/tables/{id}/seats/first/player"))
            .insert_header((header::AUTHORIZATION, format!("Bearer {first}")))
            .set_json(json!({"player_credential": player})),
    )
    .await;
    assert!(taken.status.is_success(), "{taken:#?}");
    // The first replica remembers the seats before the player sat: the player's credential
    // opens the seat there all the same.
    move_on(&one, &id, &player, &mut rng).await;
}

#[actix_web::test]
async fn every_change_of_a_tables_row_or_of_its_seats_raises_its_version() {
    let Some((one, _, url)) = two_replicas().await else {
        return;
    };
    let (id, _) = new_table(&one).await;
    let mut db = <sqlx::AnyConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    let version = async |db: &mut sqlx::AnyConnection| -> i64 {
        sqlx::query_scalar("SELECT version FROM moot_tables WHERE id = $1")
            .bind(&id)
            .fetch_one(db)
            .await
            .unwrap()
    };
    let before = version(&mut db).await;
    // Changes that change no value, by statements that do not name the version.
    db.execute(&*format!(
        "UPDATE moot_tables SET webhook_failed = webhook_failed WHERE id = '{id}'"
    ))
    .await
    .unwrap();
    assert_eq!(version(&mut db).await, before + 1);
    db.execute(&*format!(
        "UPDATE moot_seats SET name = name WHERE table_id = '{id}' AND seat = 1"
    ))
    .await
    .unwrap();
    assert_eq!(version(&mut db).await, before + 2);
}
