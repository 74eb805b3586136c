//! Tables that end outside their game's rules: the move that reaches the ply cap ends the table
//! drawn, and the sweep's closing ends a table left without a move as abandoned, once, with its
//! event; a seat aborts a table before both have moved, and a table no one moved in by its
//! first deadline is aborted by the deadline worker, once; the clock is passed in.

use actix_web::test::TestRequest;
use moot::games::Game;
use moot::games::herfor::{Herfor, HerforOptions};
use moot::tables::feed::{Next, Who};
use moot::tables::{
    Abandonment, CatchUp, Change, DAY, EndedBy, Event, Standing, TableError, Tables, Webhook,
};
use serde_json::json;

use crate::both;
use crate::tables::db::{self, call, create, get, play, roomy, seats, to_act};

/// A fixed start of time, so that the periods are counted from it.
const T0: i64 = 1_800_000_000_000;

/// The first legal move of a Herfor position, in notation.
fn first_move(state: &<Herfor as Game>::State) -> String {
    Herfor::format_move(state, &Herfor::legal_moves(state)[0])
}

/// The number of events of table `id` in the outbox, and their kinds, in order.
async fn outbox(tables: &Tables, id: &str) -> Vec<(i64, String)> {
    sqlx::query_as("SELECT seq, kind FROM moot_outbox WHERE table_id = $1 ORDER BY seq")
        .bind(id)
        .fetch_all(&tables.store().pool)
        .await
        .unwrap()
}

fn webhook() -> Option<Webhook> {
    Some(Webhook {
        url: "https://games.example/hooks/moot".to_owned(),
        secret: "a-long-random-secret-kept-by-the-site".to_owned(),
    })
}

both!(
    a_table_at_its_ply_cap_ends_drawn,
    |url: String| async move {
        let tables = db::tables(&url, 100).await.with_ply_cap(6);
        let app = db::app(tables.clone(), roomy()).await;
        let created = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 7}})),
        )
        .await;
        assert_eq!(created.status, 201, "{created:#?}");
        let created = created.body;
        let (id, credentials) = seats(&created);
        let mut table = created["table"].clone();
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(6);
        for ply in 0..6 {
            assert_eq!(table["status"], "ongoing", "ply {ply}: {table:#}");
            let mv = db::random_move::<Herfor>(&table, &mut rng);
            let seat = to_act(&table);
            let answer = call(&app, play(&id, &credentials[seat], &mv, ply)).await;
            table = answer.ok().clone();
        }
        // The sixth move was played, and ended the table: a draw, said so.
        assert_eq!(table["ply"], 6);
        assert_eq!(table["status"], "finished");
        assert_eq!(
            table["result"],
            json!({"ended_by": "ply_limit"}),
            "{table:#}"
        );
        assert!(table.get("to_act").is_none());
        let read = call(&app, get(&id)).await;
        assert_eq!(read.ok()["result"]["ended_by"], "ply_limit");
        // Nothing more is played.
        let state: <Herfor as Game>::State =
            serde_json::from_value(table["state"].clone()).unwrap();
        let more = call(&app, play(&id, &credentials[0], &first_move(&state), 6)).await;
        more.problem(410, "table_finished");
        // A follower catching up, from the start or from the move before, sees the last move end
        // the table.
        for seen in [0, 5] {
            let changes = caught_up(&tables, &id, seen).await;
            let last = changes.last().unwrap();
            assert_eq!(last.seq, 6);
            assert!(matches!(last.event, Event::Moved(_)));
            assert_eq!(
                last.after.standing,
                Standing::Finished {
                    winner: None,
                    ended_by: EndedBy::PlyLimit
                }
            );
        }
        // The seats' pages and the spectators' say it in words.
        for (page, headline) in [
            (&created["seats"][0]["play_url"], "Game over: a draw"),
            (&created["seats"][1]["play_url"], "Game over: a draw"),
            (&created["watch_page_url"], "Game over: a draw"),
        ] {
            let request = TestRequest::get().uri(page.as_str().unwrap()).to_request();
            let body = actix_web::test::call_and_read_body(&app, request).await;
            let body = String::from_utf8_lossy(&body);
            assert!(
                body.contains(headline)
                    && body.contains("The table reached 6 moves, the most a table may have"),
                "{body}"
            );
        }
    }
);

both!(
    a_table_without_moves_for_a_week_is_closed_as_abandoned,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let options = HerforOptions::default();
        let start = Herfor::new_game(&options).unwrap();
        let idle = tables
            .create::<Herfor>(&options, &start, None, [None, None], webhook(), T0)
            .await
            .unwrap();
        let id = idle.table.id.clone();
        let mut follower = tables.feed().follow(&id, Who::Watcher(None)).unwrap();
        let rules = Abandonment::default();

        // A week to the millisecond it is kept; a moment later it is closed, once.
        assert_eq!(tables.abandon(T0 + 7 * DAY, rules).await.unwrap(), 0);
        assert!(!tables.get(&id).await.unwrap().unwrap().is_finished());
        assert_eq!(tables.abandon(T0 + 7 * DAY + 1, rules).await.unwrap(), 1);
        assert_eq!(tables.abandon(T0 + 8 * DAY, rules).await.unwrap(), 0);
        let table = tables.get(&id).await.unwrap().unwrap();
        assert_eq!(
            table.standing,
            Standing::Finished {
                winner: None,
                ended_by: EndedBy::Abandoned
            }
        );
        assert_eq!(table.seq(), 1, "the closing is a change after ply 0");
        assert_eq!(table.updated, T0 + 7 * DAY + 1);
        // Its followers are told, its webhook gets the event.
        match follower.next().await {
            Some(Next::Change(change)) => {
                assert_eq!(change.event, Event::Abandoned);
                assert_eq!(change.seq, 1);
            }
            other => panic!("no change told: {other:?}"),
        }
        assert_eq!(outbox(&tables, &id).await, [(1, "abandoned".to_owned())]);
        let body: String = sqlx::query_scalar("SELECT body FROM moot_outbox WHERE table_id = $1")
            .bind(&id)
            .fetch_one(&tables.store().pool)
            .await
            .unwrap();
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["type"], "abandoned");
        assert_eq!(body["seq"], 1);
        assert_eq!(body["result"], json!({"ended_by": "abandoned"}));
        // A follower reconnecting after ply 0 is sent the closing.
        let changes = caught_up(&tables, &id, 0).await;
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].event, Event::Abandoned);
        // The API and the pages say so.
        let app = db::app(tables.clone(), roomy()).await;
        let read = call(&app, get(&id)).await;
        assert_eq!(read.ok()["result"], json!({"ended_by": "abandoned"}));
        for page in [
            moot::paths::watch(&id),
            moot::paths::seat(&id, &idle.credentials[1]),
        ] {
            let request = TestRequest::get().uri(&page).to_request();
            let body = actix_web::test::call_and_read_body(&app, request).await;
            let body = String::from_utf8_lossy(&body);
            assert!(
                body.contains("Table closed: abandoned")
                    && body
                        .contains("No one moved for too long, so the table ended with no winner"),
                "{body}"
            );
        }
        // Nothing more is played; it is swept once kept as long as finished tables are.
        let first = first_move(&start);
        assert!(matches!(
            tables
                .play(&id, &idle.credentials[0], 0, &first, T0 + 8 * DAY)
                .await,
            Err(TableError::Finished)
        ));
        assert_eq!(tables.sweep(T0 + 97 * DAY, 90).await.unwrap(), 0);
        assert_eq!(tables.sweep(T0 + 98 * DAY, 90).await.unwrap(), 1);
        assert!(tables.get(&id).await.unwrap().is_none());
    }
);

both!(
    a_table_without_a_move_for_30_days_is_closed_as_abandoned,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let options = HerforOptions::default();
        let start = Herfor::new_game(&options).unwrap();
        let created = tables
            .create::<Herfor>(&options, &start, None, [None, None], None, T0)
            .await
            .unwrap();
        let id = created.table.id.clone();
        let moved = T0 + 6 * DAY;
        tables
            .play(&id, &created.credentials[0], 0, &first_move(&start), moved)
            .await
            .unwrap();
        let rules = Abandonment::default();
        // Started: the week no longer counts, 30 days after the last move do.
        assert_eq!(tables.abandon(moved + 29 * DAY, rules).await.unwrap(), 0);
        assert_eq!(tables.abandon(moved + 30 * DAY, rules).await.unwrap(), 0);
        assert_eq!(
            tables.abandon(moved + 30 * DAY + 1, rules).await.unwrap(),
            1
        );
        let table = tables.get(&id).await.unwrap().unwrap();
        assert_eq!(table.ply, 1);
        assert_eq!(table.seq(), 2);
        let changes = caught_up(&tables, &id, 0).await;
        assert!(matches!(changes[0].event, Event::Moved(_)));
        assert!(!changes[0].is_last());
        assert_eq!(changes[1].event, Event::Abandoned);
    }
);

both!(
    a_table_with_a_clock_is_abandoned_30_days_after_a_deadline_nobody_claimed,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let options = HerforOptions::default();
        let start = Herfor::new_game(&options).unwrap();
        let clocked = tables
            .create::<Herfor>(&options, &start, Some(60), [None, None], None, T0)
            .await
            .unwrap();
        let unstarted = tables
            .create::<Herfor>(&options, &start, Some(3), [None, None], None, T0)
            .await
            .unwrap();
        let id = clocked.table.id.clone();
        tables
            .play(&id, &clocked.credentials[0], 0, &first_move(&start), T0)
            .await
            .unwrap();
        let deadline = T0 + 60 * DAY;
        let rules = Abandonment::default();
        // The clock's 60 days are kept whole, well past 30 days without a move; the
        // unstarted table waits a week past its first deadline (3 days).
        assert_eq!(tables.abandon(T0 + 10 * DAY, rules).await.unwrap(), 0);
        assert_eq!(tables.abandon(T0 + 10 * DAY + 1, rules).await.unwrap(), 1);
        assert!(
            tables
                .get(&unstarted.table.id)
                .await
                .unwrap()
                .unwrap()
                .is_finished()
        );
        assert_eq!(tables.abandon(deadline + 30 * DAY, rules).await.unwrap(), 0);
        // Past the deadline the waiting seat could claim; a month later no one has, and the
        // table is closed with no winner.
        assert_eq!(
            tables
                .abandon(deadline + 30 * DAY + 1, rules)
                .await
                .unwrap(),
            1
        );
        let table = tables.get(&id).await.unwrap().unwrap();
        assert_eq!(
            table.standing,
            Standing::Finished {
                winner: None,
                ended_by: EndedBy::Abandoned
            }
        );
        assert_eq!(table.deadline, None);
    }
);

both!(
    two_replicas_closing_at_once_close_a_table_once,
    |url: String| async move {
        let one = db::tables(&url, 100).await;
        let other = db::tables(&url, 100).await;
        let options = HerforOptions::default();
        let start = Herfor::new_game(&options).unwrap();
        let mut ids = Vec::new();
        for _ in 0..20 {
            let created = one
                .create::<Herfor>(&options, &start, None, [None, None], webhook(), T0)
                .await
                .unwrap();
            ids.push(created.table.id);
        }
        let now = T0 + 8 * DAY;
        let rules = Abandonment::default();
        let (a, b) = tokio::join!(one.abandon(now, rules), other.abandon(now, rules));
        assert_eq!(
            a.unwrap() + b.unwrap(),
            20,
            "each table closed by one of them"
        );
        for id in &ids {
            assert_eq!(outbox(&one, id).await, [(1, "abandoned".to_owned())]);
        }
        let open: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM moot_tables WHERE status = 'ongoing'")
                .fetch_one(&one.store().pool)
                .await
                .unwrap();
        assert_eq!(open, 0);
    }
);

both!(
    abandoned_tables_make_room_under_the_open_tables_cap,
    |url: String| async move {
        let tables = db::tables(&url, 2).await;
        let options = HerforOptions::default();
        let start = Herfor::new_game(&options).unwrap();
        for _ in 0..2 {
            tables
                .create::<Herfor>(&options, &start, None, [None, None], None, T0)
                .await
                .unwrap();
        }
        let later = T0 + 8 * DAY;
        assert!(matches!(
            tables
                .create::<Herfor>(&options, &start, None, [None, None], None, later)
                .await,
            Err(TableError::Full(2))
        ));
        assert_eq!(
            tables.abandon(later, Abandonment::default()).await.unwrap(),
            2
        );
        tables
            .create::<Herfor>(&options, &start, None, [None, None], None, later)
            .await
            .unwrap();
    }
);

both!(
    a_hirth_table_to_more_than_21_points_is_refused,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let refused = call(
            &app,
            create(json!({"game": "hirth", "options": {"target": 22}})),
        )
        .await;
        let problem = refused.unprocessable("invalid_options", "options.target");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .contains("the match target is 1 to 21 points"),
            "{problem}"
        );
        let taken = call(
            &app,
            create(json!({"game": "hirth", "options": {"target": 21}})),
        )
        .await;
        assert_eq!(taken.status, 201, "{taken:#?}");
    }
);

both!(
    a_move_racing_the_closing_either_plays_or_finds_the_table_closed,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let sweeper = db::tables(&url, 100).await;
        let options = HerforOptions::default();
        let start = Herfor::new_game(&options).unwrap();
        let now = T0 + 31 * DAY;
        for _ in 0..10 {
            let created = tables
                .create::<Herfor>(&options, &start, None, [None, None], webhook(), T0)
                .await
                .unwrap();
            let id = created.table.id.clone();
            let first = tables
                .play(&id, &created.credentials[0], 0, &first_move(&start), T0)
                .await
                .unwrap();
            let state: <Herfor as Game>::State =
                serde_json::from_value(first.table.state.clone()).unwrap();
            let second = first_move(&state);
            let (moved, closed) = tokio::join!(
                tables.play(&id, &created.credentials[1], 1, &second, now),
                sweeper.abandon(now, Abandonment::default()),
            );
            let table = tables.get(&id).await.unwrap().unwrap();
            let kinds: Vec<String> = outbox(&tables, &id)
                .await
                .into_iter()
                .map(|(_, k)| k)
                .collect();
            match (moved, closed.unwrap()) {
                (Ok(_), 0) => {
                    assert_eq!(table.ply, 2);
                    assert!(!table.is_finished());
                    assert_eq!(kinds, ["move", "move"]);
                }
                (Err(TableError::Finished), 1) => {
                    assert_eq!(table.ply, 1);
                    assert_eq!(
                        table.standing,
                        Standing::Finished {
                            winner: None,
                            ended_by: EndedBy::Abandoned
                        }
                    );
                    assert_eq!(kinds, ["move", "abandoned"]);
                }
                (moved, closed) => panic!("a move {moved:?} and {closed} closed: {table:?}"),
            }
        }
    }
);

/// The changes a follower of table `id` who saw change `seen` is sent (near enough for no
/// reset).
async fn caught_up(tables: &Tables, id: &str, seen: u64) -> Vec<Change> {
    match tables.catch_up(id, seen, 32).await.unwrap() {
        CatchUp::Changes(changes) => changes,
        CatchUp::Reset(table) => panic!("a reset at ply {}", table.ply),
    }
}

both!(
    a_seat_aborts_its_table_while_a_seat_has_not_moved_and_not_after,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        // At once: the second seat calls it off, with no result.
        let created = call(&app, create(json!({"game": "herfor", "days_per_move": 2}))).await;
        let (id, [_, second]) = seats(&created.body);
        let aborted = call(&app, db::act(&id, &second, "abort")).await;
        let table = aborted.ok();
        assert_eq!(table["status"], "finished");
        assert_eq!(table["result"], json!({"ended_by": "aborted"}));
        assert_eq!(table.get("deadline"), None, "{table:#}");
        let history = caught_up(&tables, &id, 0).await;
        assert_eq!(
            history.iter().map(|c| &c.event).collect::<Vec<_>>(),
            [&Event::Aborted]
        );
        call(&app, db::act(&id, &second, "abort"))
            .await
            .problem(410, "table_finished");
        // After the first seat's move, the second has not moved: either may still abort.
        let created = call(&app, create(json!({"game": "herfor"}))).await;
        let (id, [first, second]) = seats(&created.body);
        let start = serde_json::from_value(created.body["table"]["state"].clone()).unwrap();
        let moved = call(&app, play(&id, &first, &first_move(&start), 0)).await;
        let after: <Herfor as Game>::State =
            serde_json::from_value(moved.ok()["state"].clone()).unwrap();
        let aborted = call(&app, db::act(&id, &first, "abort")).await;
        assert_eq!(aborted.ok()["result"], json!({"ended_by": "aborted"}));
        assert_eq!(aborted.ok()["ply"], 1);
        // Once both have moved, it is too late: resign instead.
        let created = call(&app, create(json!({"game": "herfor"}))).await;
        let (id, [first, second_too]) = seats(&created.body);
        call(&app, play(&id, &first, &first_move(&start), 0))
            .await
            .ok();
        call(&app, play(&id, &second_too, &first_move(&after), 1))
            .await
            .ok();
        for seat in [&first, &second_too] {
            call(&app, db::act(&id, seat, "abort"))
                .await
                .problem(409, "both_moved");
        }
        assert_eq!(call(&app, get(&id)).await.ok()["status"], "ongoing");
        // A credential that is no seat's is refused as for any change.
        call(&app, db::act(&id, &second, "abort"))
            .await
            .problem(401, "unauthorized");
    }
);

both!(
    a_table_no_one_moved_in_by_its_first_deadline_is_aborted_once_across_two_replicas,
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
        let options = HerforOptions::default();
        let start = Herfor::new_game(&options).unwrap();
        let created = one
            .create_seated::<Herfor>(
                &options,
                &start,
                Some(moot::tables::Clock::days_per_move(1)),
                [None, None],
                [Some(ann.credential.clone()), Some(bo.credential.clone())],
                webhook(),
                None,
                T0,
            )
            .await
            .unwrap();
        let id = created.table.id.clone();
        // Past the first deadline, before the worker looks: the waiting seat cannot win it.
        let late = T0 + DAY + 1;
        assert!(matches!(
            one.claim(&id, &bo.credential, late).await,
            Err(TableError::Unstarted)
        ));
        // Both replicas look at once: the table is aborted once, its deadline not told passed.
        let (a, b) = tokio::join!(one.notice_deadlines(late), other.notice_deadlines(late));
        assert_eq!(a.unwrap() + b.unwrap(), 1, "aborted once");
        assert_eq!(other.notice_deadlines(late + DAY).await.unwrap(), 0);
        let table = one.get(&id).await.unwrap().unwrap();
        assert_eq!(
            table.standing,
            Standing::Finished {
                winner: None,
                ended_by: EndedBy::Aborted
            }
        );
        assert_eq!(table.seq(), 1, "the abort is a change after ply 0");
        // A follower reconnecting after ply 0 is sent the abort (live followers are told as
        // of an abandoned table's closing: the same code).
        let changes = caught_up(&one, &id, 0).await;
        assert_eq!(
            changes.iter().map(|c| &c.event).collect::<Vec<_>>(),
            [&Event::Aborted]
        );
        assert_eq!(outbox(&one, &id).await, [(1, "aborted".to_owned())]);
        // Both players hear it, and that the table is over.
        for player in [&ann.player.id, &bo.player.id] {
            let told: Vec<&str> = match one.feed_events(player, 0, 100).await.unwrap() {
                moot::tables::player_feed::FeedCatchUp::Events(events) => events
                    .iter()
                    .map(|e| e.notice.kind())
                    .filter(|k| !matches!(*k, "table_started" | "your_turn"))
                    .collect(),
                other => panic!("{other:?}"),
            };
            assert_eq!(told, ["aborted", "table_finished"]);
        }
        // A move now finds it over; the sweep has nothing more to close.
        assert!(matches!(
            one.play(&id, &ann.credential, 0, &first_move(&start), late + 1)
                .await,
            Err(TableError::Finished)
        ));
        assert_eq!(
            one.abandon(late + 30 * DAY, Abandonment::default())
                .await
                .unwrap(),
            0
        );
    }
);
