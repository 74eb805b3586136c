//! Whole games through tables: two seats play with their credentials, each move chosen by a
//! seeded random pick among the engine's legal moves, to the end; then the history's record
//! replays (stateless `replay`) to the stored state.

use moot::games::Game;
use moot::games::herfor::Herfor;
use moot::games::hirth::Hirth;
use moot::games::tara::Tara;
use rand::SeedableRng;
use serde_json::{Value, json};

use crate::both;
use crate::tables::db::{self, call, create, play, random_move, roomy, seats, to_act};

/// Plays a table of `G` with `options` to its end; returns the finished table and the plies.
async fn whole_game<G: Game>(url: String, options: Value, seed: u64) -> (Value, u64) {
    let app = db::app(db::tables(&url, 100).await, roomy()).await;
    let created = call(
        &app,
        create(json!({"game": G::ID, "options": options, "names": ["Ana", "Bo"]})),
    )
    .await;
    assert_eq!(created.status, 201, "{created:#?}");
    assert_eq!(
        created.location.as_deref(),
        Some(&*format!(
            "/api/v1/tables/{}",
            created.body["table"]["id"].as_str().unwrap()
        ))
    );
    let (id, credentials) = seats(&created.body);
    let mut table = created.body["table"].clone();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut plies = 0;
    while table["status"] == "ongoing" {
        assert!(plies < 20_000, "the game did not end");
        let text = random_move::<G>(&table, &mut rng);
        let seat = to_act(&table);
        let ply = table["ply"].as_u64().unwrap();
        let answer = call(&app, play(&id, &credentials[seat], &text, ply)).await;
        table = answer.ok().clone();
        assert_eq!(table["ply"], ply + 1, "{table:#}");
        plies += 1;
    }
    assert_eq!(table["result"]["ended_by"], "rules", "{table:#}");
    assert!(table.get("to_act").is_none());

    // The history: every ply once, in order, by the seat that played it; its record replays.
    let history = call(
        &app,
        actix_web::test::TestRequest::get().uri(&format!("/api/v1/tables/{id}/moves")),
    )
    .await;
    let history = history.ok();
    let moves = history["moves"].as_array().expect("moves");
    assert_eq!(moves.len() as u64, plies);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i as u64 + 1, "{m}");
    }
    let replay = call(
        &app,
        actix_web::test::TestRequest::post()
            .uri(&format!("/api/v1/games/{}/replay", G::ID))
            .set_json(
                json!({"options": table["options"], "record": history["record"], "plies": false}),
            ),
    )
    .await;
    assert_eq!(
        replay.ok()["state"],
        table["state"],
        "the record replays to the stored state"
    );
    (table, plies)
}

both!(herfor_size_3_to_the_end, |url: String| async move {
    whole_game::<Herfor>(url, json!({"size": 3}), 1).await;
});

both!(herfor_size_5_to_the_end, |url: String| async move {
    whole_game::<Herfor>(url, json!({"size": 5}), 2).await;
});

both!(tara_level_2_match_to_the_end, |url: String| async move {
    whole_game::<Tara>(url, json!({"level": 2, "match": true}), 3).await;
});

both!(hirth_match_to_3_to_the_end, |url: String| async move {
    whole_game::<Hirth>(url, json!({"target": 3}), 4).await;
});

/// An in-memory SQLite database (`sqlite::memory:`) is its connection's own: the tables keep
/// one connection to it, so requests made at once all see the same tables.
#[actix_web::test]
async fn an_in_memory_sqlite_database_serves_requests_made_at_once() {
    let app = db::app(db::tables("sqlite::memory:", 100).await, roomy()).await;
    let creates = (0..8).map(|_| call(&app, create(json!({"game": "herfor"}))));
    for created in futures_util::future::join_all(creates).await {
        assert_eq!(created.status, 201, "{created:#?}");
    }
    whole_game::<Herfor>("sqlite::memory:".to_owned(), json!({"size": 3}), 5).await;
}
