//! "Find an opponent" on the pages, with plain forms and the player's cookie (no script): a
//! browser offers a game, another finds it on `/challenges` and plays it, and both reach the
//! same table at `/table/{id}/mine`; the creator cancels; an invitation by player id is
//! accepted or declined on its page; a POST from another site is refused.

use actix_web::dev::Service;
use actix_web::http::header;
use actix_web::test::{self, TestRequest};

use crate::both;
use crate::tables::db::{self, roomy};

/// An answer: status, `Location`, the player cookie set (if any), the body.
struct Answer {
    status: u16,
    location: Option<String>,
    player: Option<String>,
    body: String,
}

/// A browser: the player's cookie it keeps, if any.
#[derive(Default)]
struct Browser {
    player: Option<String>,
}

impl Browser {
    async fn send<S, B>(&mut self, app: &S, request: TestRequest) -> Answer
    where
        S: Service<
                actix_http::Request,
                Response = actix_web::dev::ServiceResponse<B>,
                Error = actix_web::Error,
            >,
        B: actix_web::body::MessageBody,
    {
        let request = request.insert_header(("sec-fetch-site", "same-origin"));
        let request = match &self.player {
            Some(player) => {
                request.insert_header((header::COOKIE, format!("moot_player={player}")))
            }
            None => request,
        };
        let response = app
            .call(request.to_request())
            .await
            .expect("the app answers");
        let location = response
            .headers()
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let player = response
            .headers()
            .get_all(header::SET_COOKIE)
            .filter_map(|v| v.to_str().ok())
            .find_map(|c| {
                c.strip_prefix("moot_player=")
                    .and_then(|rest| rest.split(';').next())
                    .map(str::to_owned)
            });
        if let Some(player) = &player {
            self.player = Some(player.clone());
        }
        let status = response.status().as_u16();
        let body = String::from_utf8_lossy(&test::read_body(response).await).into_owned();
        Answer {
            status,
            location,
            player,
            body,
        }
    }
}

fn form(uri: &str, body: &str) -> TestRequest {
    TestRequest::post()
        .uri(uri)
        .insert_header((header::CONTENT_TYPE, "application/x-www-form-urlencoded"))
        .set_payload(body.to_owned())
}

fn get(uri: &str) -> TestRequest {
    TestRequest::get().uri(uri)
}

/// The challenge page a create answer leads to, and its id.
fn challenge_of(answer: &Answer) -> (String, String) {
    assert_eq!(answer.status, 303, "{}", answer.body);
    let page = answer.location.clone().expect("a Location");
    let id = page
        .strip_prefix("/challenges/")
        .expect("a challenge's page")
        .to_owned();
    (page, id)
}

both!(
    two_browsers_meet_through_the_list_and_reach_the_same_table,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let mut ann = Browser::default();
        let mut bo = Browser::default();

        // The list and its form, with no player yet: the form asks a name.
        let empty = ann.send(&app, get("/challenges")).await;
        assert_eq!(empty.status, 200);
        assert!(
            empty.body.contains("No one is waiting just now."),
            "{}",
            empty.body
        );
        assert!(
            empty
                .body
                .contains(r#"<form class="challenge-form" method="post" action="/challenges">"#)
        );
        assert!(empty.body.contains(r#"name="name""#));

        // Ann offers Tara, 3 days a move, moving first; a player is made for her browser.
        let made = ann
            .send(
                &app,
                form(
                    "/challenges",
                    "game=tara&days_per_move=3&seat=first&name=Ann&invite=",
                ),
            )
            .await;
        assert!(made.player.is_some(), "the browser gets its player");
        let (page, id) = challenge_of(&made);
        let waiting = ann.send(&app, get(&page)).await;
        assert_eq!(waiting.status, 200);
        assert!(
            waiting.body.contains("Waiting for an opponent"),
            "{}",
            waiting.body
        );
        assert!(
            waiting
                .body
                .contains(&format!(r#"action="/challenges/{id}/cancel""#))
        );

        // Bo finds it, and plays it.
        let list = bo.send(&app, get("/challenges")).await;
        assert!(list.body.contains("Tara with Ann"), "{}", list.body);
        assert!(list.body.contains("3 days per move"));
        let play = format!("/challenges/{id}/accept");
        assert!(
            list.body.contains(&format!(r#"action="{play}""#)),
            "{}",
            list.body
        );
        // Ann's own is listed without a Play form for her.
        let own = ann.send(&app, get("/challenges")).await;
        assert!(
            !own.body.contains(&format!(r#"action="{play}""#)),
            "{}",
            own.body
        );
        let played = bo.send(&app, form(&play, "")).await;
        assert_eq!(played.status, 303, "{}", played.body);
        assert!(played.player.is_some());
        let seat = played.location.clone().expect("the seat page");
        assert!(
            seat.starts_with("/table/") && seat.ends_with("/mine"),
            "{seat}"
        );

        // Both reach the same table: Bo at his seat, Ann from her challenge's page.
        let bos = bo.send(&app, get(&seat)).await;
        assert_eq!(bos.status, 200, "{}", bos.body);
        let anns = ann.send(&app, get(&page)).await;
        assert_eq!(anns.status, 303);
        assert_eq!(anns.location.as_deref(), Some(seat.as_str()));
        assert_eq!(ann.send(&app, get(&seat)).await.status, 200);

        // It left the list; a third browser's Play is refused, saying why.
        let cy_list = Browser::default().send(&app, get("/challenges")).await;
        assert!(!cy_list.body.contains("Tara with Ann"));
        let late = Browser::default().send(&app, form(&play, "")).await;
        assert_eq!(late.status, 409);
        assert!(late.body.contains("Someone was quicker"), "{}", late.body);

        // Your games shows the player's id and links here.
        let games = bo.send(&app, get("/your-games")).await;
        assert!(games.body.contains("Your player id"), "{}", games.body);
        assert!(games.body.contains(r#"href="/challenges""#));
    }
);

both!(
    a_challenge_is_cancelled_from_its_page_and_a_foreign_post_is_refused,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let mut ann = Browser::default();
        let made = ann
            .send(&app, form("/challenges", "game=herfor&seat=random"))
            .await;
        let (page, id) = challenge_of(&made);
        let cancel = format!("/challenges/{id}/cancel");

        // Another site's form is refused, and changes nothing.
        let foreign = app
            .call(
                form(&cancel, "")
                    .insert_header(("sec-fetch-site", "cross-site"))
                    .insert_header((
                        header::COOKIE,
                        format!("moot_player={}", ann.player.clone().unwrap()),
                    ))
                    .to_request(),
            )
            .await
            .unwrap();
        assert_eq!(foreign.status().as_u16(), 403);
        // Someone else cannot cancel it.
        let other = Browser::default().send(&app, form(&cancel, "")).await;
        assert_eq!(other.status, 403, "{}", other.body);

        let cancelled = ann.send(&app, form(&cancel, "")).await;
        assert_eq!(cancelled.status, 303);
        assert_eq!(cancelled.location.as_deref(), Some(page.as_str()));
        let shown = ann.send(&app, get(&page)).await;
        assert!(shown.body.contains("Cancelled"), "{}", shown.body);
        assert!(!shown.body.contains(&cancel));
        let list = Browser::default().send(&app, get("/challenges")).await;
        assert!(!list.body.contains(&page));
        let late = Browser::default()
            .send(&app, form(&format!("/challenges/{id}/accept"), ""))
            .await;
        assert_eq!(late.status, 409);

        // A bad form is a 400 page naming the field.
        for body in [
            "game=chess",
            "game=tara&days_per_move=0",
            "game=tara&seat=middle",
            "game=tara&invite=Bo",
        ] {
            let refused = ann.send(&app, form("/challenges", body)).await;
            assert_eq!(refused.status, 400, "{body}: {}", refused.body);
        }
    }
);

both!(
    an_invitation_by_player_id_is_answered_on_its_page_by_the_invited_alone,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let mut ann = Browser::default();
        let mut bo = Browser::default();
        // Bo's browser gets a player by opening a challenge of its own, then reads its id.
        bo.send(&app, form("/challenges", "game=tara&name=Bo"))
            .await;
        let games = bo.send(&app, get("/your-games")).await;
        let at = games.body.find("Your player id").expect("the id shown");
        let code = &games.body[at..];
        let start = code.find("<code>").unwrap() + "<code>".len();
        let bo_id = code[start..start + 32].to_owned();

        for (answer, expected) in [("decline", "Declined"), ("accept", "")] {
            let made = ann
                .send(
                    &app,
                    form(
                        "/challenges",
                        &format!("game=hirth&name=Ann&invite={bo_id}"),
                    ),
                )
                .await;
            let (page, id) = challenge_of(&made);
            // Not listed; a stranger sees no form; Bo sees Accept and Decline.
            let list = Browser::default().send(&app, get("/challenges")).await;
            assert!(!list.body.contains(&page));
            let stranger = Browser::default().send(&app, get(&page)).await;
            assert!(
                stranger.body.contains("invitation to another player"),
                "{}",
                stranger.body
            );
            assert!(!stranger.body.contains(&format!("/challenges/{id}/accept")));
            let refused = Browser::default()
                .send(&app, form(&format!("/challenges/{id}/accept"), ""))
                .await;
            assert_eq!(refused.status, 403, "{}", refused.body);
            let invited = bo.send(&app, get(&page)).await;
            assert!(invited.body.contains("Ann invites you"), "{}", invited.body);
            assert!(
                invited
                    .body
                    .contains(&format!(r#"action="/challenges/{id}/accept""#))
            );
            assert!(
                invited
                    .body
                    .contains(&format!(r#"action="/challenges/{id}/decline""#))
            );
            let answered = bo
                .send(&app, form(&format!("/challenges/{id}/{answer}"), ""))
                .await;
            assert_eq!(answered.status, 303, "{}", answered.body);
            if answer == "decline" {
                let shown = ann.send(&app, get(&page)).await;
                assert!(shown.body.contains(expected), "{}", shown.body);
            } else {
                let seat = answered.location.unwrap();
                assert!(seat.ends_with("/mine"));
                let anns = ann.send(&app, get(&page)).await;
                assert_eq!(anns.location.as_deref(), Some(seat.as_str()));
            }
        }
    }
);

both!(
    the_friend_page_offers_its_options_to_anyone_and_bad_options_are_refused,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let mut ann = Browser::default();
        let friend = ann
            .send(
                &app,
                get("/play/herfor/friend?size=5&pie=false&simple=false&moves="),
            )
            .await;
        assert_eq!(friend.status, 200);
        assert!(
            friend
                .body
                .contains(r#"<form class="options offer" method="post" action="/challenges">"#),
            "{}",
            friend.body
        );
        assert!(
            friend
                .body
                .contains(r#"<input type="hidden" name="game" value="herfor">"#)
        );
        let made = ann
            .send(
                &app,
                form(
                    "/challenges",
                    "game=herfor&size=5&pie=false&simple=false&days_per_move=3",
                ),
            )
            .await;
        let (_, id) = challenge_of(&made);
        let read = ann
            .send(&app, get(&format!("/api/v1/challenges/{id}")))
            .await;
        let challenge: serde_json::Value = serde_json::from_str(&read.body).unwrap();
        assert_eq!(challenge["options"]["size"], 5, "{challenge:#}");
        assert_eq!(challenge["days_per_move"], 3);
        let list = Browser::default().send(&app, get("/challenges")).await;
        assert!(list.body.contains("size 5"), "{}", list.body);
        for body in ["game=herfor&size=big", "game=herfor&colour=red"] {
            let refused = ann.send(&app, form("/challenges", body)).await;
            assert!(
                (400..500).contains(&refused.status),
                "{body}: {} {}",
                refused.status,
                refused.body
            );
        }
    }
);
