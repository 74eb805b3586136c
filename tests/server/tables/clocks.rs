//! Clocks at tables, by a clock passed in: each kind's expiry ends the game once across two
//! replicas, a late change is refused 410 `time_expired` and ends the table on time, a late
//! read shows it ended, `on_expiry: "claim"` keeps the claim; a bank's increment, maximum and
//! slow move; a Friday deadline moved past the weekend; a vacation that stops the clock and
//! runs out; the clock carried by a challenge; bad clocks refused naming the field.

use moot::games::Game;
use moot::games::herfor::{Herfor, HerforOptions};
use moot::tables::clock::HOUR;
use moot::tables::{
    Clock, Created, DAY, EndedBy, OnExpiry, Pace, Standing, TableError, Tables, Webhook,
};
use serde_json::json;

use crate::both;
use crate::tables::db::{self, act, call, create, get, play, roomy};

/// A fixed start of time: Friday 2027-01-15, 08:00 UTC.
const T0: i64 = 1_800_000_000_000;

/// The Friday of [`T0`], 00:00 UTC.
const FRIDAY: i64 = T0 - T0 % DAY;

fn first_move(state: &<Herfor as Game>::State) -> String {
    Herfor::format_move(state, &Herfor::legal_moves(state)[0])
}

/// The first legal move at table `table` (its state as JSON).
fn move_at(table: &moot::tables::Table) -> String {
    let state: <Herfor as Game>::State = serde_json::from_value(table.state.clone()).unwrap();
    first_move(&state)
}

fn webhook() -> Option<Webhook> {
    Some(Webhook {
        url: "https://games.example/hooks/moot".to_owned(),
        secret: "a-long-random-secret-kept-by-the-site".to_owned(),
    })
}

fn per_move(hours: u32, on_expiry: OnExpiry) -> Clock {
    Clock {
        pace: Pace::PerMove { hours },
        weekends_paused: false,
        on_expiry,
        vacation_days: 0,
    }
}

fn bank(initial_hours: u32, increment_hours: u32, max_hours: u32) -> Clock {
    Clock {
        pace: Pace::Bank {
            initial_hours,
            increment_hours,
            max_hours,
        },
        ..per_move(1, OnExpiry::Ends)
    }
}

/// A new Herfor table with `clock`, made at `now`, with a webhook (so its events are kept in
/// the outbox).
async fn clocked(tables: &Tables, clock: Clock, now: i64) -> Created {
    let options = HerforOptions::default();
    let start = Herfor::new_game(&options).unwrap();
    tables
        .create_seated::<Herfor>(
            &options,
            &start,
            Some(clock),
            [None, None],
            [None, None],
            webhook(),
            None,
            now,
        )
        .await
        .unwrap()
}

/// The events of table `id` in the outbox, in order.
async fn outbox(tables: &Tables, id: &str) -> Vec<(i64, String)> {
    sqlx::query_as("SELECT seq, kind FROM moot_outbox WHERE table_id = $1 ORDER BY seq")
        .bind(id)
        .fetch_all(&tables.store().pool)
        .await
        .unwrap()
}

/// The first seat's move at `created` at `now`: the table then awaits the second seat.
async fn first_seat_moves(tables: &Tables, created: &Created, now: i64) -> moot::tables::Table {
    tables
        .play(
            &created.table.id,
            &created.credentials[0],
            0,
            &move_at(&created.table),
            now,
        )
        .await
        .unwrap()
        .table
}

fn won_on_time_by_first() -> Standing {
    Standing::Finished {
        winner: Some(moot::games::Seat::First),
        ended_by: EndedBy::Time,
    }
}

both!(
    each_clock_kind_expires_once_across_two_replicas,
    |url: String| async move {
        let one = db::tables(&url, 100).await;
        let other = db::tables(&url, 100).await;
        let kinds = [
            per_move(5, OnExpiry::Ends),
            bank(2, 1, 4),
            Clock {
                weekends_paused: true,
                ..per_move(5, OnExpiry::Ends)
            },
        ];
        let mut ids = Vec::new();
        for clock in kinds {
            let created = clocked(&one, clock, T0).await;
            let moved = first_seat_moves(&one, &created, T0 + HOUR).await;
            assert!(moved.deadline.is_some(), "{clock:?}");
            ids.push((created.table.id.clone(), moved.deadline.unwrap()));
        }
        let late = T0 + 10 * DAY;
        let (a, b) = tokio::join!(one.notice_deadlines(late), other.notice_deadlines(late));
        assert_eq!(
            a.unwrap() + b.unwrap(),
            ids.len() as u64,
            "each table ended by one of them"
        );
        for (id, deadline) in &ids {
            let table = one.get_at(id, late).await.unwrap().unwrap();
            assert_eq!(table.standing, won_on_time_by_first(), "{deadline}");
            assert_eq!(table.updated, late);
            assert_eq!(
                outbox(&one, id).await,
                [(1, "move".to_owned()), (2, "claim".to_owned())],
                "one event, like a claim's"
            );
        }
        // Run again: nothing more.
        assert_eq!(one.notice_deadlines(late + DAY).await.unwrap(), 0);
    }
);

both!(
    a_deadline_is_kept_to_the_millisecond_and_ended_a_moment_after,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let created = clocked(&tables, per_move(5, OnExpiry::Ends), T0).await;
        let moved = first_seat_moves(&tables, &created, T0).await;
        let deadline = T0 + 5 * HOUR;
        assert_eq!(moved.deadline, Some(deadline));
        assert_eq!(tables.notice_deadlines(deadline).await.unwrap(), 1, "near");
        let id = &created.table.id;
        assert!(
            !tables
                .get_at(id, deadline)
                .await
                .unwrap()
                .unwrap()
                .is_finished()
        );
        assert_eq!(tables.notice_deadlines(deadline + 1).await.unwrap(), 1);
        assert_eq!(
            tables
                .get_at(id, deadline + 1)
                .await
                .unwrap()
                .unwrap()
                .standing,
            won_on_time_by_first()
        );
    }
);

both!(
    a_change_after_expiry_is_refused_and_ends_the_table_on_time,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let late = T0 + DAY;
        for change in ["move", "resign", "claim", "abort"] {
            let created = clocked(&tables, per_move(5, OnExpiry::Ends), T0).await;
            let moved = first_seat_moves(&tables, &created, T0).await;
            let id = &created.table.id;
            let second = &created.credentials[1];
            let refused = match change {
                "move" => tables
                    .play(id, second, 1, &move_at(&moved), late)
                    .await
                    .map(drop),
                "resign" => tables.resign(id, second, late).await.map(drop),
                "claim" => tables
                    .claim(id, &created.credentials[0], late)
                    .await
                    .map(drop),
                _ => tables.abort(id, second, late).await.map(drop),
            };
            assert!(
                matches!(refused, Err(TableError::TimeExpired)),
                "{change}: {refused:?}"
            );
            // Ended on time by that request, not by a worker: the read needs no ending.
            let stored: String = sqlx::query_scalar("SELECT status FROM moot_tables WHERE id = $1")
                .bind(id)
                .fetch_one(&tables.store().pool)
                .await
                .unwrap();
            assert_eq!(stored, "finished", "{change}");
            let table = tables.get_at(id, late).await.unwrap().unwrap();
            assert_eq!(table.standing, won_on_time_by_first(), "{change}");
            assert_eq!(
                outbox(&tables, id).await,
                [(1, "move".to_owned()), (2, "claim".to_owned())]
            );
        }
    }
);

both!(
    a_late_move_through_the_api_is_410_time_expired_and_a_late_read_shows_the_end,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        // The API keeps the real time: tables made two days ago, an hour per move.
        let then = moot::tables::now() - 2 * DAY;
        let played = clocked(&tables, per_move(1, OnExpiry::Ends), then).await;
        let moved = first_seat_moves(&tables, &played, then).await;
        let id = &played.table.id;
        let answer = call(&app, play(id, &played.credentials[1], &move_at(&moved), 1)).await;
        let problem = answer.problem(410, "time_expired");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .contains("ended on time"),
            "{problem}"
        );
        let read = call(&app, get(id)).await;
        let read = read.ok();
        assert_eq!(read["status"], "finished");
        assert_eq!(
            read["result"],
            json!({"winner": "first", "ended_by": "time"})
        );
        // Never moved in since: the read ends it.
        let read_only = clocked(&tables, per_move(1, OnExpiry::Ends), then).await;
        first_seat_moves(&tables, &read_only, then).await;
        let read = call(&app, get(&read_only.table.id)).await;
        assert_eq!(
            read.ok()["result"],
            json!({"winner": "first", "ended_by": "time"})
        );
        assert_eq!(
            outbox(&tables, &read_only.table.id).await,
            [(1, "move".to_owned()), (2, "claim".to_owned())]
        );
        // A table no one moved in is aborted, as the worker would.
        let unstarted = clocked(&tables, per_move(1, OnExpiry::Ends), then).await;
        let answer = call(
            &app,
            act(&unstarted.table.id, &unstarted.credentials[0], "resign"),
        )
        .await;
        answer.problem(410, "time_expired");
        let read = call(&app, get(&unstarted.table.id)).await;
        assert_eq!(read.ok()["result"], json!({"ended_by": "aborted"}));
    }
);

both!(
    on_expiry_claim_keeps_the_claim_and_the_late_move,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let late = T0 + DAY;
        let claimed = clocked(&tables, per_move(5, OnExpiry::Claim), T0).await;
        first_seat_moves(&tables, &claimed, T0).await;
        let played = clocked(&tables, per_move(5, OnExpiry::Claim), T0).await;
        let moved = first_seat_moves(&tables, &played, T0).await;
        // The worker tells the deadline passed, and ends nothing.
        assert_eq!(tables.notice_deadlines(late).await.unwrap(), 2);
        for id in [&claimed.table.id, &played.table.id] {
            assert!(
                !tables
                    .get_at(id, late)
                    .await
                    .unwrap()
                    .unwrap()
                    .is_finished()
            );
        }
        let won = tables
            .claim(&claimed.table.id, &claimed.credentials[0], late)
            .await
            .unwrap();
        assert_eq!(won.table.standing, won_on_time_by_first());
        let answered = tables
            .play(
                &played.table.id,
                &played.credentials[1],
                1,
                &move_at(&moved),
                late,
            )
            .await
            .unwrap();
        assert_eq!(answered.table.ply, 2);
        assert_eq!(answered.table.deadline, Some(late + 5 * HOUR));
    }
);

both!(
    a_bank_gains_its_increment_stops_at_its_maximum_and_pays_for_a_slow_move,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let created = clocked(&tables, bank(48, 24, 60), T0).await;
        assert_eq!(created.table.deadline, Some(T0 + 48 * HOUR));
        let id = &created.table.id;
        // A quick first move: 48 - 1 + 24, held to 60.
        let first = first_seat_moves(&tables, &created, T0 + HOUR).await;
        let banks = |table: &moot::tables::Table| {
            table
                .clock_times
                .unwrap()
                .seats
                .map(|seat| seat.bank / HOUR)
        };
        assert_eq!(banks(&first), [60, 48]);
        assert_eq!(first.deadline, Some(T0 + HOUR + 48 * HOUR));
        // A slow answer (40 h): 48 - 40 + 24.
        let second = tables
            .play(
                id,
                &created.credentials[1],
                1,
                &move_at(&first),
                T0 + 41 * HOUR,
            )
            .await
            .unwrap()
            .table;
        assert_eq!(banks(&second), [60, 32]);
        assert_eq!(second.deadline, Some(T0 + 41 * HOUR + 60 * HOUR));
        // The API shows each bank.
        let app = db::app(tables.clone(), roomy()).await;
        let read = call(&app, get(id)).await;
        let read = read.ok();
        assert_eq!(read["seats"][0]["bank_seconds"], 60 * 3600);
        assert_eq!(read["seats"][1]["bank_seconds"], 32 * 3600);
        assert_eq!(
            read["clock"],
            json!({"kind": "bank", "initial_hours": 48, "increment_hours": 24,
                "max_hours": 60, "weekends_paused": false, "on_expiry": "ends",
                "vacation_days": 0})
        );
    }
);

both!(
    a_deadline_set_on_a_friday_lands_after_the_weekend,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let paused = Clock {
            weekends_paused: true,
            ..per_move(24, OnExpiry::Ends)
        };
        let noon = FRIDAY + 12 * HOUR;
        let created = clocked(&tables, paused, noon).await;
        assert_eq!(created.table.deadline, Some(FRIDAY + 3 * DAY + 12 * HOUR));
        // Not ended on Sunday, though more than 24 h went by.
        let sunday = FRIDAY + 2 * DAY + 23 * HOUR;
        assert_eq!(
            tables.notice_deadlines(sunday).await.unwrap(),
            1,
            "near only"
        );
        let id = &created.table.id;
        assert!(
            !tables
                .get_at(id, sunday)
                .await
                .unwrap()
                .unwrap()
                .is_finished()
        );
        // A move on Sunday pays for Friday's 12 hours only: a bank is charged weekdays.
        let banked = clocked(
            &tables,
            Clock {
                weekends_paused: true,
                ..bank(24, 0, 24)
            },
            noon,
        )
        .await;
        let moved = first_seat_moves(&tables, &banked, sunday).await;
        assert_eq!(moved.clock_times.unwrap().seats[0].bank, 12 * HOUR);
        // The second seat's turn starts on Sunday: its day runs on Monday.
        assert_eq!(moved.deadline, Some(FRIDAY + 4 * DAY));
    }
);

both!(
    bad_clocks_are_refused_naming_the_field,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        for (clock, field) in [
            (json!({"kind": "per_move", "hours": 0}), "clock.hours"),
            (json!({"kind": "per_move", "hours": 1441}), "clock.hours"),
            (json!({"kind": "per_move"}), "clock.hours"),
            (
                json!({"kind": "per_move", "hours": 5, "max_hours": 9}),
                "clock.max_hours",
            ),
            (
                json!({"kind": "bank", "initial_hours": 48, "max_hours": 60}),
                "clock.increment_hours",
            ),
            (
                json!({"kind": "bank", "initial_hours": 48, "increment_hours": 1, "max_hours": 24}),
                "clock.max_hours",
            ),
            (
                json!({"kind": "per_move", "hours": 5, "vacation_days": 61}),
                "clock.vacation_days",
            ),
        ] {
            let refused = call(&app, create(json!({"game": "herfor", "clock": clock}))).await;
            refused.unprocessable("invalid_request", field);
        }
        let both = call(
            &app,
            create(json!({"game": "herfor", "days_per_move": 3,
                "clock": {"kind": "per_move", "hours": 5}})),
        )
        .await;
        let problem = both.unprocessable("invalid_request", "clock");
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .contains("days_per_move"),
            "{problem}"
        );
        let unknown = call(
            &app,
            create(json!({"game": "herfor", "clock": {"kind": "hourglass", "hours": 5}})),
        )
        .await;
        assert_eq!(unknown.status, 422, "{unknown:#?}");
        assert!(
            unknown.body["detail"].as_str().unwrap().contains("clock"),
            "{unknown:#?}"
        );
    }
);

both!(
    days_per_move_stays_the_shorthand_of_a_claiming_per_move_clock,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let made = call(&app, create(json!({"game": "herfor", "days_per_move": 3}))).await;
        assert_eq!(made.status, 201, "{made:#?}");
        let table = &made.body["table"];
        assert_eq!(table["days_per_move"], 3);
        assert_eq!(
            table["clock"],
            json!({"kind": "per_move", "hours": 72, "weekends_paused": false,
                "on_expiry": "claim", "vacation_days": 0})
        );
        let clocked = call(
            &app,
            create(json!({"game": "herfor",
                "clock": {"kind": "per_move", "hours": 30, "weekends_paused": true}})),
        )
        .await;
        assert_eq!(clocked.status, 201, "{clocked:#?}");
        let table = &clocked.body["table"];
        assert!(table.get("days_per_move").is_none(), "{table:#}");
        assert_eq!(table["clock"]["on_expiry"], "ends");
        assert!(table["deadline"].is_string());
    }
);

both!(
    a_vacation_moves_the_deadline_by_the_time_taken_and_runs_out,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let away = Clock {
            vacation_days: 2,
            ..per_move(24, OnExpiry::Ends)
        };
        // Back after 5 hours: the deadline moves on by 5 hours.
        let back = clocked(&tables, away, T0).await;
        first_seat_moves(&tables, &back, T0).await;
        let id = &back.table.id;
        let second = &back.credentials[1];
        let on = tables.vacation(id, second, true, T0 + HOUR).await.unwrap();
        assert_eq!(
            on.deadline,
            Some(T0 + 24 * HOUR + 2 * DAY),
            "the allowance counted"
        );
        assert!(matches!(
            tables.vacation(id, second, true, T0 + 2 * HOUR).await,
            Err(TableError::Vacation(_))
        ));
        let returned = tables
            .vacation(id, second, false, T0 + 6 * HOUR)
            .await
            .unwrap();
        let deadline = T0 + 29 * HOUR;
        assert_eq!(returned.deadline, Some(deadline));
        tables.notice_deadlines(deadline).await.unwrap();
        assert!(
            !tables
                .get_at(id, deadline)
                .await
                .unwrap()
                .unwrap()
                .is_finished()
        );
        tables.notice_deadlines(deadline + 1).await.unwrap();
        assert_eq!(
            tables
                .get_at(id, deadline + 1)
                .await
                .unwrap()
                .unwrap()
                .standing,
            won_on_time_by_first()
        );
        // Never back: the vacation ends by itself after the two days, and the clock runs on.
        let gone = clocked(&tables, away, T0).await;
        first_seat_moves(&tables, &gone, T0).await;
        let id = &gone.table.id;
        let on = tables
            .vacation(id, &gone.credentials[1], true, T0 + HOUR)
            .await
            .unwrap();
        let deadline = T0 + 24 * HOUR + 2 * DAY;
        assert_eq!(on.deadline, Some(deadline));
        tables.notice_deadlines(deadline).await.unwrap();
        assert!(
            !tables
                .get_at(id, deadline)
                .await
                .unwrap()
                .unwrap()
                .is_finished()
        );
        assert!(
            matches!(
                tables
                    .vacation(id, &gone.credentials[1], true, deadline - HOUR)
                    .await,
                Err(TableError::Vacation(_))
            ),
            "the allowance is used up"
        );
        tables.notice_deadlines(deadline + 1).await.unwrap();
        assert_eq!(
            tables
                .get_at(id, deadline + 1)
                .await
                .unwrap()
                .unwrap()
                .standing,
            won_on_time_by_first()
        );
    }
);

both!(
    a_vacation_through_the_api_is_seen_by_both_seats_and_ends_on_delete,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let made = call(
            &app,
            create(json!({"game": "herfor",
                "clock": {"kind": "per_move", "hours": 48, "vacation_days": 3}})),
        )
        .await;
        assert_eq!(made.status, 201, "{made:#?}");
        let (id, credentials) = db::seats(&made.body);
        let vacation = |method: actix_web::test::TestRequest, credential: &str| {
            method
                .uri(&format!("/api/v1/tables/{id}/vacation"))
                .insert_header(("Authorization", format!("Bearer {credential}")))
        };
        let on = call(
            &app,
            vacation(actix_web::test::TestRequest::post(), &credentials[1]),
        )
        .await;
        let on = on.ok();
        assert!(on["seats"][1]["vacation_until"].is_string(), "{on:#}");
        assert!(on["seats"][0].get("vacation_until").is_none(), "{on:#}");
        assert_eq!(on["seats"][0]["vacation_left_seconds"], 3 * 86400);
        // The opponent reads it in the table.
        let read = call(&app, get(&id)).await;
        assert_eq!(
            read.ok()["seats"][1]["vacation_until"],
            on["seats"][1]["vacation_until"]
        );
        let again = call(
            &app,
            vacation(actix_web::test::TestRequest::post(), &credentials[1]),
        )
        .await;
        again.problem(409, "vacation_refused");
        let off = call(
            &app,
            vacation(actix_web::test::TestRequest::delete(), &credentials[1]),
        )
        .await;
        assert!(off.ok()["seats"][1].get("vacation_until").is_none());
        let wrong = call(
            &app,
            vacation(actix_web::test::TestRequest::post(), "not-a-seat"),
        )
        .await;
        wrong.problem(401, "unauthorized");
        // A clock without vacation days gives none.
        let plain = call(
            &app,
            create(json!({"game": "herfor", "clock": {"kind": "per_move", "hours": 48}})),
        )
        .await;
        let (plain_id, plain_credentials) = db::seats(&plain.body);
        let refused = call(
            &app,
            actix_web::test::TestRequest::post()
                .uri(&format!("/api/v1/tables/{plain_id}/vacation"))
                .insert_header(("Authorization", format!("Bearer {}", plain_credentials[0]))),
        )
        .await;
        refused.problem(409, "vacation_refused");
    }
);

both!(
    a_challenge_carries_its_clock_to_the_table_and_refuses_a_bad_one,
    |url: String| async move {
        use actix_web::test::TestRequest;
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (_, ann) = db::new_player(&app, "Ann").await;
        let (_, bo) = db::new_player(&app, "Bo").await;
        let bearer = |request: TestRequest, credential: &str| {
            request.insert_header(("Authorization", format!("Bearer {credential}")))
        };
        let clock = json!({"kind": "bank", "initial_hours": 72, "increment_hours": 24,
            "max_hours": 120, "weekends_paused": true, "on_expiry": "ends", "vacation_days": 7});
        let bad = call(
            &app,
            bearer(
                TestRequest::post().uri("/api/v1/challenges").set_json(
                    json!({"game": "tara", "clock": {"kind": "bank", "initial_hours": 72,
                        "increment_hours": 24, "max_hours": 24}}),
                ),
                &ann,
            ),
        )
        .await;
        bad.unprocessable("invalid_request", "clock.max_hours");
        let made = call(
            &app,
            bearer(
                TestRequest::post()
                    .uri("/api/v1/challenges")
                    .set_json(json!({"game": "tara", "clock": clock})),
                &ann,
            ),
        )
        .await;
        assert_eq!(made.status, 201, "{made:#?}");
        assert_eq!(made.body["clock"], clock);
        let id = made.body["id"].as_str().unwrap();
        let accepted = call(
            &app,
            bearer(
                TestRequest::post()
                    .uri(&format!("/api/v1/challenges/{id}/accept"))
                    .set_json(json!({})),
                &bo,
            ),
        )
        .await;
        assert_eq!(accepted.status, 201, "{accepted:#?}");
        let table = &accepted.body["table"];
        assert_eq!(table["clock"], clock, "{table:#}");
        assert_eq!(table["seats"][0]["bank_seconds"], 72 * 3600);
        assert!(table["deadline"].is_string());
    }
);

both!(
    the_seat_page_shows_the_clock_the_banks_and_a_vacation_button_that_works_without_javascript,
    |url: String| async move {
        use actix_web::test::TestRequest;
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let made = call(
            &app,
            create(
                json!({"game": "herfor", "clock": {"kind": "bank", "initial_hours": 72,
                "increment_hours": 24, "max_hours": 120, "weekends_paused": true,
                "vacation_days": 7}}),
            ),
        )
        .await;
        assert_eq!(made.status, 201, "{made:#?}");
        let page_of = |uri: &str| {
            let uri = uri.to_owned();
            let app = &app;
            async move {
                let request = TestRequest::get().uri(&uri).to_request();
                let body = actix_web::test::call_and_read_body(app, request).await;
                String::from_utf8_lossy(&body).into_owned()
            }
        };
        let seat_page = made.body["seats"][1]["play_url"].as_str().unwrap();
        let page = page_of(seat_page).await;
        assert!(
            page.contains("Bank of 3 d, 1 d more after each move, at most 5 d, weekends paused: "),
            "{page}"
        );
        assert!(
            page.contains("Banks as each turn starts: first bank 3 d 0 h, second bank 3 d 0 h."),
            "{page}"
        );
        assert!(page.contains("class=\"countdown\""), "{page}");
        let action = format!("{seat_page}/vacation");
        assert!(page.contains(&format!("action=\"{action}\"")), "{page}");
        assert!(
            page.contains("Go on vacation: stop my clock (up to 7 days a year)"),
            "{page}"
        );
        // A plain form post: the seat goes on vacation, the page says so, and the spectators'.
        let request = TestRequest::post().uri(&action).to_request();
        let answer = actix_web::test::call_service(&app, request).await;
        assert_eq!(answer.status(), 303);
        let page = page_of(seat_page).await;
        assert!(page.contains("You are on vacation until"), "{page}");
        assert!(
            page.contains("Back from vacation: start my clock again"),
            "{page}"
        );
        let watch = page_of(made.body["watch_page_url"].as_str().unwrap()).await;
        assert!(
            watch.contains("The second player is on vacation until"),
            "{watch}"
        );
        assert!(!watch.contains("/vacation\""), "no button for spectators");
        // Pressed again: back.
        let request = TestRequest::post().uri(&action).to_request();
        actix_web::test::call_service(&app, request).await;
        let page = page_of(seat_page).await;
        assert!(!page.contains("You are on vacation until"), "{page}");
    }
);

both!(
    the_create_forms_offer_a_clock_of_ones_own_without_javascript,
    |url: String| async move {
        use actix_web::http::header;
        use actix_web::test::TestRequest;
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let page_of = |request: TestRequest| {
            let app = &app;
            async move {
                let answer = actix_web::test::call_service(app, request.to_request()).await;
                let status = answer.status().as_u16();
                let body = actix_web::test::read_body(answer).await;
                (status, String::from_utf8_lossy(&body).into_owned())
            }
        };
        let post = |uri: &str, body: &str| {
            TestRequest::post()
                .uri(uri)
                .insert_header((header::CONTENT_TYPE, "application/x-www-form-urlencoded"))
                .set_payload(body.to_owned())
        };
        // "Play a friend" (both its forms) and "Find an opponent" offer the fields.
        let (_, friend) = page_of(TestRequest::get().uri("/play/herfor/friend?size=3")).await;
        for id in ["option-clock_kind", "offer-clock_kind"] {
            assert!(
                friend.contains(&format!(r#"<select id="{id}" name="clock_kind">"#)),
                "{friend}"
            );
        }
        let (_, challenges) = page_of(TestRequest::get().uri("/challenges")).await;
        assert!(challenges.contains(r#"name="clock_kind""#), "{challenges}");
        // A bank with weekends paused, a claim and vacation, from the friend form.
        let (status, created) = page_of(post(
            "/play/herfor/friend",
            "size=3&pie=false&simple=false&moves=&days=3&clock_kind=bank&clock_hours=48\
             &clock_increment=12&clock_max=96&clock_weekends=on&clock_expiry=claim\
             &clock_vacation=5",
        ))
        .await;
        assert_eq!(status, 200, "{created}");
        let at = created.find("/table/").expect("a seat link") + "/table/".len();
        let id = &created[at..at + 32];
        let table = tables.get(id).await.unwrap().unwrap();
        assert_eq!(
            table.clock,
            Some(Clock {
                pace: Pace::Bank {
                    initial_hours: 48,
                    increment_hours: 12,
                    max_hours: 96
                },
                weekends_paused: true,
                on_expiry: OnExpiry::Claim,
                vacation_days: 5,
            })
        );
        assert_eq!(
            table.options["size"], 3,
            "the clock's fields are no options"
        );
        // Out of range: refused naming the field.
        let (status, refused) = page_of(post(
            "/play/herfor/friend",
            "size=3&days=3&clock_kind=bank&clock_hours=48&clock_increment=1&clock_max=24",
        ))
        .await;
        assert_eq!(status, 400, "{refused}");
        assert!(refused.contains("clock_max"), "{refused}");
    }
);

both!(
    a_follower_catching_up_is_told_the_last_moves_deadline_as_the_clock_gives_it,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let created = clocked(&tables, bank(48, 24, 60), T0).await;
        let first = first_seat_moves(&tables, &created, T0 + HOUR).await;
        let second = tables
            .play(
                &created.table.id,
                &created.credentials[1],
                1,
                &move_at(&first),
                T0 + 41 * HOUR,
            )
            .await
            .unwrap()
            .table;
        let changes = match tables.catch_up(&created.table.id, 0, 32).await.unwrap() {
            moot::tables::CatchUp::Changes(changes) => changes,
            moot::tables::CatchUp::Reset(table) => panic!("a reset at ply {}", table.ply),
        };
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[1].after.deadline, second.deadline);
        assert_eq!(second.deadline, Some(T0 + 41 * HOUR + 60 * HOUR));
    }
);

both!(
    the_opponents_feed_hears_of_a_vacation_started_and_ended,
    |url: String| async move {
        use actix_web::test::TestRequest;
        use moot::tables::player_feed::Notice;
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (ann_id, ann) = db::new_player(&app, "Ann").await;
        let (bo_id, bo) = db::new_player(&app, "Bo").await;
        let made = call(
            &app,
            create(json!({"game": "herfor", "player_credentials": [ann, bo],
                "clock": {"kind": "per_move", "hours": 48, "vacation_days": 3}})),
        )
        .await;
        assert_eq!(made.status, 201, "{made:#?}");
        let id = made.body["table"]["id"].as_str().unwrap().to_owned();
        for method in [TestRequest::post(), TestRequest::delete()] {
            let answer = call(
                &app,
                method
                    .uri(&format!("/api/v1/tables/{id}/vacation"))
                    .insert_header(("Authorization", format!("Bearer {ann}"))),
            )
            .await;
            answer.ok();
        }
        let kinds = |player: String| {
            let tables = tables.clone();
            async move {
                match tables.feed_events(&player, 0, 100).await.unwrap() {
                    moot::tables::player_feed::FeedCatchUp::Events(events) => events
                        .into_iter()
                        .map(|event| event.notice)
                        .collect::<Vec<_>>(),
                    other => panic!("{other:?}"),
                }
            }
        };
        let bos = kinds(bo_id).await;
        assert!(
            matches!(
                bos.as_slice(),
                [
                    Notice::TableStarted { .. },
                    Notice::VacationStarted {
                        by: moot::games::Seat::First,
                        ..
                    },
                    Notice::VacationEnded {
                        by: moot::games::Seat::First,
                        ..
                    }
                ]
            ),
            "{bos:#?}"
        );
        let anns = kinds(ann_id).await;
        assert!(
            !anns
                .iter()
                .any(|n| matches!(n, Notice::VacationStarted { .. })),
            "the seat's own player knows: {anns:#?}"
        );
    }
);

both!(
    a_takeback_restarts_the_asking_seats_turn_on_its_clock,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let created = clocked(
            &tables,
            Clock {
                weekends_paused: true,
                ..bank(48, 24, 60)
            },
            T0,
        )
        .await;
        let id = &created.table.id;
        first_seat_moves(&tables, &created, T0 + HOUR).await;
        tables
            .takeback(id, &created.credentials[0], T0 + 2 * HOUR)
            .await
            .unwrap();
        let accepted = tables
            .takeback(id, &created.credentials[1], T0 + 3 * HOUR)
            .await
            .unwrap();
        let table = tables.get_at(id, T0 + 3 * HOUR).await.unwrap().unwrap();
        assert_eq!(table.ply, 0, "{accepted:?}");
        // Friday 11:00, a bank of 60 h (48 - 1 + 24, at most 60): 13 h on Friday, the weekend
        // paused, 47 h from Monday.
        assert_eq!(table.deadline, Some(FRIDAY + 5 * DAY - HOUR));
    }
);
