//! Challenges: a game offered to anyone (listed, filtered, paged) or to one player (an
//! invitation); accepted by exactly one of two racing players, which opens one table with both
//! seated as chosen; cancelled by its creator; declined by the invited player; each told in the
//! players' feeds; bad requests refused with a problem naming what was wrong.

use actix_web::http::header;
use actix_web::test::TestRequest;
use moot::tables::Tables;
use moot::tables::player_feed::{FeedCatchUp, Notice};
use serde_json::{Value, json};

use crate::both;
use crate::tables::db::{self, call, get, new_player, roomy};

/// `{request}` with the player's `credential` as Bearer.
fn bearer(request: TestRequest, credential: &str) -> TestRequest {
    request.insert_header((header::AUTHORIZATION, format!("Bearer {credential}")))
}

/// `POST /api/v1/challenges` with `body` by the player holding `credential`.
fn offer(credential: &str, body: Value) -> TestRequest {
    bearer(
        TestRequest::post().uri("/api/v1/challenges").set_json(body),
        credential,
    )
}

/// `POST /api/v1/challenges/{id}/accept` by the player holding `credential` (none: a new one).
fn accept(id: &str, credential: Option<&str>) -> TestRequest {
    let request = TestRequest::post()
        .uri(&format!("/api/v1/challenges/{id}/accept"))
        .set_json(json!({}));
    match credential {
        Some(credential) => bearer(request, credential),
        None => request,
    }
}

/// `GET /api/v1/challenges{query}`.
fn list(query: &str) -> TestRequest {
    TestRequest::get().uri(&format!("/api/v1/challenges{query}"))
}

/// The ids of a page of challenges.
fn ids(page: &Value) -> Vec<String> {
    page["challenges"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

/// The notices of `player`'s feed (by its id) from the start, with what each is filed under.
async fn notices(tables: &Tables, player: &str) -> Vec<(String, Notice)> {
    match tables.feed_events(player, 0, 1000).await.unwrap() {
        FeedCatchUp::Events(events) => events.into_iter().map(|e| (e.table_id, e.notice)).collect(),
        FeedCatchUp::Reset { last } => panic!("a reset at {last}"),
    }
}

both!(
    a_challenge_on_a_clock_of_another_kind_is_not_listed_as_without_a_clock,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (_, ann) = new_player(&app, "Ann").await;
        let mut made = Vec::new();
        for clock in [
            json!(null),
            json!({"kind": "per_move", "hours": 12}),
            json!({"kind": "bank", "initial_hours": 48, "increment_hours": 24, "max_hours": 96}),
        ] {
            let answer = call(&app, offer(&ann, json!({"game": "herfor", "clock": clock}))).await;
            assert_eq!(answer.status, 201, "{answer:#?}");
            made.push(answer.body["id"].as_str().unwrap().to_owned());
        }
        let no_clock = call(&app, list("?days_per_move=none")).await;
        assert_eq!(no_clock.status, 200, "{no_clock:#?}");
        assert_eq!(ids(&no_clock.body), vec![made[0].clone()]);
        let all = call(&app, list("")).await;
        assert_eq!(ids(&all.body).len(), 3);
    }
);

both!(
    open_challenges_are_listed_newest_first_filtered_and_paged,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (_, ann) = new_player(&app, "Ann").await;
        let (bo_id, bo) = new_player(&app, "Bo").await;
        let mut made = Vec::new();
        for (game, days) in [
            ("herfor", json!(3)),
            ("tara", json!(null)),
            ("herfor", json!(null)),
            ("hirth", json!(5)),
        ] {
            let answer = call(
                &app,
                offer(&ann, json!({"game": game, "days_per_move": days})),
            )
            .await;
            assert_eq!(answer.status, 201, "{answer:#?}");
            let id = answer.body["id"].as_str().unwrap().to_owned();
            assert_eq!(
                answer.location.as_deref(),
                Some(&*format!("/api/v1/challenges/{id}"))
            );
            assert_eq!(answer.body["status"], "open");
            assert_eq!(answer.body["seat"], "random");
            assert_eq!(answer.body["creator"]["name"], "Ann");
            made.push(id);
            // Apart in time, so that "newest first" is the order made.
            tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        }
        // An invitation is not listed.
        let invitation = call(&app, offer(&ann, json!({"game": "tara", "invite": bo_id}))).await;
        assert_eq!(invitation.status, 201, "{invitation:#?}");
        assert_eq!(invitation.body["invited"], bo_id.as_str());

        let all = call(&app, list("")).await;
        assert_eq!(all.status, 200, "{all:#?}");
        let newest_first: Vec<String> = made.iter().rev().cloned().collect();
        assert_eq!(ids(&all.body), newest_first);
        assert!(all.body.get("next").is_none());

        let herfor = call(&app, list("?game=herfor")).await;
        assert_eq!(ids(&herfor.body), vec![made[2].clone(), made[0].clone()]);
        let three_days = call(&app, list("?game=herfor&days_per_move=3")).await;
        assert_eq!(ids(&three_days.body), vec![made[0].clone()]);
        let no_clock = call(&app, list("?days_per_move=none")).await;
        assert_eq!(ids(&no_clock.body), vec![made[2].clone(), made[1].clone()]);

        // Pages of one, each linking to the next.
        let mut seen = Vec::new();
        let mut next = Some("/api/v1/challenges?limit=1".to_owned());
        while let Some(uri) = next {
            let page = call(&app, TestRequest::get().uri(&uri)).await;
            assert_eq!(page.status, 200, "{page:#?}");
            seen.extend(ids(&page.body));
            next = page.body["next"].as_str().map(str::to_owned);
        }
        assert_eq!(seen, newest_first);

        // Accepted, a challenge leaves the list.
        let taken = call(&app, accept(&made[3], Some(&bo))).await;
        assert_eq!(taken.status, 201, "{taken:#?}");
        let after = call(&app, list("")).await;
        assert_eq!(ids(&after.body), newest_first[1..].to_vec());

        // Bad filters name the parameter.
        for (query, field) in [
            ("?game=chess", "game"),
            ("?days_per_move=0", "days_per_move"),
            ("?days_per_move=soon", "days_per_move"),
            ("?seat=middle", "seat"),
            ("?limit=0", "limit"),
            ("?limit=101", "limit"),
            ("?after=nowhere", "after"),
            ("?colour=red", "colour"),
            ("?game=tara&game=hirth", "game"),
        ] {
            let refused = call(&app, list(query)).await;
            let problem = refused.problem(400, "invalid_query");
            assert_eq!(problem["field"], field, "{query}");
        }
    }
);

both!(
    of_two_racing_accepts_one_opens_the_table_seated_as_chosen_and_the_other_is_409,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (ann_id, ann) = new_player(&app, "Ann").await;
        let (bo_id, bo) = new_player(&app, "Bo").await;
        let (cy_id, cy) = new_player(&app, "Cy").await;
        let made = call(
            &app,
            offer(
                &ann,
                json!({"game": "herfor", "options": {"size": 5}, "days_per_move": 2, "seat": "second"}),
            ),
        )
        .await;
        assert_eq!(made.status, 201, "{made:#?}");
        let id = made.body["id"].as_str().unwrap().to_owned();

        let (one, other) = tokio::join!(
            call(&app, accept(&id, Some(&bo))),
            call(&app, accept(&id, Some(&cy)))
        );
        let (won, lost, winner_id, winner) = match (one.status.as_u16(), other.status.as_u16()) {
            (201, _) => (one, other, &bo_id, &bo),
            (_, 201) => (other, one, &cy_id, &cy),
            _ => panic!("no accept won: {one:#?} {other:#?}"),
        };
        lost.problem(409, "challenge_taken");

        // The table: Ann second as she chose, the acceptor first, both named, with the clock.
        let table = &won.body["table"];
        let table_id = table["id"].as_str().unwrap().to_owned();
        assert_eq!(won.body["seat"], "first");
        assert_eq!(table["seats"][1]["name"], "Ann");
        assert_eq!(table["days_per_move"], 2);
        assert_eq!(table["options"]["size"], 5);
        assert_eq!(won.body["challenge"]["status"], "accepted");
        assert_eq!(won.body["challenge"]["table_id"], table_id.as_str());
        assert!(won.body["player"].get("credential").is_none());
        assert_eq!(won.body["player"]["id"], winner_id.as_str());
        let read = call(&app, get(&table_id)).await;
        assert_eq!(read.status, 200);

        // Exactly one table: in both players' lists, and in the loser's none.
        let tables_of = |credential: &str| {
            bearer(
                TestRequest::get().uri("/api/v1/players/me/tables"),
                credential,
            )
        };
        let anns = call(&app, tables_of(&ann)).await;
        assert_eq!(anns.body["tables"].as_array().unwrap().len(), 1);
        assert_eq!(anns.body["tables"][0]["id"], table_id.as_str());
        assert_eq!(anns.body["tables"][0]["seat"], "second");
        let winners = call(&app, tables_of(winner)).await;
        assert_eq!(winners.body["tables"][0]["id"], table_id.as_str());
        assert_eq!(winners.body["tables"][0]["seat"], "first");
        let loser = if winner == &bo { &cy } else { &bo };
        let losers = call(&app, tables_of(loser)).await;
        assert_eq!(losers.body["tables"].as_array().unwrap().len(), 0);

        // The seat's credential plays; the creator's feed was told, with the table.
        let first = call(
            &app,
            db::play(
                &table_id,
                won.body["credential"].as_str().unwrap(),
                &moot_first_move(table),
                0,
            ),
        )
        .await;
        assert_eq!(first.status, 200, "{first:#?}");
        let told = notices(&tables, &ann_id).await;
        assert!(
            told.iter().any(|(filed, notice)| filed == &table_id
                && matches!(notice, Notice::ChallengeAccepted { challenge_id, by_id, .. }
                    if *challenge_id == id && by_id == winner_id)),
            "{told:#?}"
        );
        assert!(
            told.iter()
                .any(|(filed, n)| filed == &table_id && n.kind() == "table_started")
        );
        // Read again, the challenge names its table; accepting again is 409.
        let again = call(
            &app,
            TestRequest::get().uri(&format!("/api/v1/challenges/{id}")),
        )
        .await;
        assert_eq!(again.body["status"], "accepted");
        assert_eq!(again.body["table_id"], table_id.as_str());
        call(&app, accept(&id, Some(&cy)))
            .await
            .problem(409, "challenge_taken");
        // The creator can no longer cancel it.
        call(
            &app,
            bearer(
                TestRequest::delete().uri(&format!("/api/v1/challenges/{id}")),
                &ann,
            ),
        )
        .await
        .problem(409, "challenge_taken");
    }
);

/// A legal first move of the table's game, from its state.
fn moot_first_move(table: &Value) -> String {
    use rand::SeedableRng;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    match table["game"].as_str().unwrap() {
        "herfor" => db::random_move::<moot::games::herfor::Herfor>(table, &mut rng),
        "tara" => db::random_move::<moot::games::tara::Tara>(table, &mut rng),
        _ => db::random_move::<moot::games::hirth::Hirth>(table, &mut rng),
    }
}

both!(
    a_cancelled_challenge_is_not_listed_and_cannot_be_accepted,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (_, ann) = new_player(&app, "Ann").await;
        let (_, bo) = new_player(&app, "Bo").await;
        let made = call(&app, offer(&ann, json!({"game": "tara", "seat": "first"}))).await;
        let id = made.body["id"].as_str().unwrap().to_owned();
        let cancel = |credential: &str| {
            bearer(
                TestRequest::delete().uri(&format!("/api/v1/challenges/{id}")),
                credential,
            )
        };
        call(&app, cancel(&bo))
            .await
            .problem(403, "not_your_challenge");
        let cancelled = call(&app, cancel(&ann)).await;
        assert_eq!(cancelled.status, 200, "{cancelled:#?}");
        assert_eq!(cancelled.body["status"], "cancelled");
        assert!(ids(&call(&app, list("")).await.body).is_empty());
        call(&app, accept(&id, Some(&bo)))
            .await
            .problem(409, "challenge_closed");
        call(&app, cancel(&ann))
            .await
            .problem(409, "challenge_closed");
    }
);

both!(
    an_invitation_is_declined_or_accepted_by_the_invited_alone_and_the_creator_is_told,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let (ann_id, ann) = new_player(&app, "Ann").await;
        let (bo_id, bo) = new_player(&app, "Bo").await;
        let (_, cy) = new_player(&app, "Cy").await;
        let invite = |game: &str| offer(&ann, json!({"game": game, "invite": bo_id}));
        let decline = |id: &str, credential: &str| {
            bearer(
                TestRequest::post().uri(&format!("/api/v1/challenges/{id}/decline")),
                credential,
            )
        };

        // Declined: only by Bo; Ann hears of it.
        let first = call(&app, invite("herfor")).await;
        let first_id = first.body["id"].as_str().unwrap().to_owned();
        let received = notices(&tables, &bo_id).await;
        assert!(
            received.iter().any(|(filed, n)| filed == &first_id
                && matches!(n, Notice::ChallengeReceived { from_id, from, game, .. }
                    if *from_id == ann_id && from.as_deref() == Some("Ann") && game == "herfor")),
            "{received:#?}"
        );
        call(&app, decline(&first_id, &cy))
            .await
            .problem(403, "not_invited");
        call(&app, decline(&first_id, &ann))
            .await
            .problem(403, "not_invited");
        let declined = call(&app, decline(&first_id, &bo)).await;
        assert_eq!(declined.status, 200, "{declined:#?}");
        assert_eq!(declined.body["status"], "declined");
        let told = notices(&tables, &ann_id).await;
        assert!(
            told.iter().any(
                |(_, n)| matches!(n, Notice::ChallengeDeclined { challenge_id, by_id }
                if *challenge_id == first_id && *by_id == bo_id)
            ),
            "{told:#?}"
        );
        call(&app, accept(&first_id, Some(&bo)))
            .await
            .problem(409, "challenge_closed");

        // Accepted: not by Cy, nor by someone without a key, nor by Ann herself; by Bo.
        let second = call(&app, invite("tara")).await;
        let second_id = second.body["id"].as_str().unwrap().to_owned();
        call(&app, accept(&second_id, Some(&cy)))
            .await
            .problem(403, "not_invited");
        call(&app, accept(&second_id, None))
            .await
            .problem(403, "not_invited");
        call(&app, accept(&second_id, Some(&ann)))
            .await
            .problem(409, "own_challenge");
        let accepted = call(&app, accept(&second_id, Some(&bo))).await;
        assert_eq!(accepted.status, 201, "{accepted:#?}");
        let table_id = accepted.body["table"]["id"].as_str().unwrap().to_owned();
        let told = notices(&tables, &ann_id).await;
        assert!(
            told.iter().any(|(filed, n)| *filed == table_id
                && matches!(n, Notice::ChallengeAccepted { by, .. } if by.as_deref() == Some("Bo"))),
            "{told:#?}"
        );
    }
);

both!(
    an_accept_without_a_player_key_makes_a_player_and_answers_its_credential_once,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (_, ann) = new_player(&app, "Ann").await;
        let made = call(&app, offer(&ann, json!({"game": "hirth"}))).await;
        let id = made.body["id"].as_str().unwrap();
        let accepted = call(
            &app,
            TestRequest::post()
                .uri(&format!("/api/v1/challenges/{id}/accept"))
                .set_json(json!({"name": "Dee"})),
        )
        .await;
        assert_eq!(accepted.status, 201, "{accepted:#?}");
        assert_eq!(accepted.body["player"]["name"], "Dee");
        let credential = accepted.body["player"]["credential"].as_str().unwrap();
        let me = call(
            &app,
            bearer(
                TestRequest::get().uri("/api/v1/players/me/tables"),
                credential,
            ),
        )
        .await;
        assert_eq!(me.status, 200, "{me:#?}");
        assert_eq!(
            me.body["tables"][0]["id"],
            accepted.body["table"]["id"].clone()
        );
        let seats = &accepted.body["table"]["seats"];
        let names: Vec<&str> = (0..2).map(|i| seats[i]["name"].as_str().unwrap()).collect();
        assert!(
            names.contains(&"Ann") && names.contains(&"Dee"),
            "{names:?}"
        );
    }
);

both!(
    bad_challenges_are_refused_naming_what_was_wrong,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (ann_id, ann) = new_player(&app, "Ann").await;
        for (body, status, code, field) in [
            (json!({"game": "chess"}), 422, "invalid_request", "game"),
            (
                json!({"game": "herfor", "options": {"size": "big"}}),
                422,
                "invalid_options",
                "",
            ),
            (
                json!({"game": "herfor", "days_per_move": 0}),
                422,
                "invalid_request",
                "days_per_move",
            ),
            (
                json!({"game": "herfor", "seat": "middle"}),
                422,
                "invalid_request",
                "",
            ),
            (
                json!({"game": "herfor", "invite": "Bo"}),
                422,
                "invalid_request",
                "invite",
            ),
            (
                json!({"game": "herfor", "invite": "0".repeat(32)}),
                422,
                "invalid_request",
                "invite",
            ),
            (
                json!({"game": "herfor", "invite": ann_id}),
                422,
                "invalid_request",
                "invite",
            ),
        ] {
            let refused = call(&app, offer(&ann, body.clone())).await;
            let problem = refused.problem(status, code);
            if !field.is_empty() {
                assert_eq!(problem["field"], field, "{body}");
            }
        }
        // No player key, a wrong one.
        call(
            &app,
            TestRequest::post()
                .uri("/api/v1/challenges")
                .set_json(json!({"game": "herfor"})),
        )
        .await
        .problem(401, "unknown_player_key");
        call(&app, offer(&"0".repeat(64), json!({"game": "herfor"})))
            .await
            .problem(401, "unknown_player_key");
        // No such challenge.
        for id in ["nope", &"a".repeat(32)] {
            call(
                &app,
                TestRequest::get().uri(&format!("/api/v1/challenges/{id}")),
            )
            .await
            .problem(404, "unknown_challenge");
            call(&app, accept(id, Some(&ann)))
                .await
                .problem(404, "unknown_challenge");
        }
        // At most 20 open a player.
        for _ in 0..20 {
            let made = call(&app, offer(&ann, json!({"game": "tara"}))).await;
            assert_eq!(made.status, 201, "{made:#?}");
        }
        call(&app, offer(&ann, json!({"game": "tara"})))
            .await
            .problem(409, "too_many_challenges");
    }
);

both!(
    challenges_left_open_seven_days_expire,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let ann = tables
            .create_player(Some("Ann".into()), None, 0)
            .await
            .unwrap();
        let bo = tables.create_player(None, None, 0).await.unwrap();
        let t0 = moot::tables::now();
        let made = tables
            .create_challenge(
                &ann.player.id,
                moot::tables::challenges::NewChallenge {
                    game: "tara",
                    options: "{}".into(),
                    clock: None,
                    creator_seat: None,
                    invite: None,
                },
                t0,
            )
            .await
            .unwrap();
        let later = t0 + moot::tables::challenges::EXPIRES;
        let page = tables
            .open_challenges(Default::default(), None, 10, later)
            .await
            .unwrap();
        assert!(page.challenges.is_empty());
        let refused = tables
            .accept_challenge(
                &made.id,
                moot::tables::challenges::Acceptor::Credential(bo.credential.clone()),
                None,
                later,
            )
            .await
            .unwrap_err();
        assert!(
            matches!(
                refused,
                moot::tables::TableError::ChallengeClosed("expired")
            ),
            "{refused:?}"
        );
        tables.sweep(later, 30).await.unwrap();
        let read = tables.challenge(&made.id, t0).await.unwrap();
        assert_eq!(
            read.status,
            moot::tables::challenges::ChallengeStatus::Expired
        );
    }
);

both!(
    an_accept_sent_again_with_its_idempotency_key_is_answered_the_same_and_made_once,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (_, ann) = new_player(&app, "Ann").await;
        let (_, bo) = new_player(&app, "Bo").await;
        let (_, cy) = new_player(&app, "Cy").await;
        let made = call(&app, offer(&ann, json!({"game": "herfor"}))).await;
        let id = made.body["id"].as_str().unwrap().to_owned();
        let keyed = |credential: &str| {
            accept(&id, Some(credential))
                .insert_header(("Idempotency-Key", "3f1c9e2a-7b4d-4e8f-a1c2-5d6e7f8a9b0c"))
        };
        let first = call(&app, keyed(&bo)).await;
        assert_eq!(first.status, 201, "{first:#?}");
        let again = call(&app, keyed(&bo)).await;
        assert_eq!(again.status, 201, "{again:#?}");
        assert_eq!(again.body, first.body);
        // The same key with another request (another player) is refused.
        call(&app, keyed(&cy))
            .await
            .problem(422, "idempotency_key_reused");
        // Without the key, a second accept is the race's loser.
        call(&app, accept(&id, Some(&cy)))
            .await
            .problem(409, "challenge_taken");
    }
);
