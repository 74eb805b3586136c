//! The tables on the pages: "Play a friend" opens a table and shows both seat links once; two
//! players play a whole Herfor game from their seat links with the pages' forms; spectators
//! watch; a seat link is kept out of caches and `Referer`; a stale page, a wrong link and a
//! resignation are answered as a player expects.

use actix_web::dev::Service;
use actix_web::http::header;
use actix_web::test::{self, TestRequest};

use crate::both;
use crate::tables::db::{self, roomy};

/// A page's answer: status, the headers the tests read, the body.
struct Page {
    status: u16,
    location: Option<String>,
    cache_control: Option<String>,
    referrer_policy: Option<String>,
    body: String,
}

async fn get<S, B>(app: &S, request: TestRequest) -> Page
where
    S: Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let response = app
        .call(request.to_request())
        .await
        .expect("the app answers");
    let header_of = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let (location, cache_control, referrer_policy) = (
        header_of(header::LOCATION),
        header_of(header::CACHE_CONTROL),
        header_of(header::REFERRER_POLICY),
    );
    let status = response.status().as_u16();
    let body = String::from_utf8_lossy(&test::read_body(response).await).into_owned();
    Page {
        status,
        location,
        cache_control,
        referrer_policy,
        body,
    }
}

fn form(uri: &str, body: &str) -> TestRequest {
    TestRequest::post()
        .uri(uri)
        .insert_header((header::CONTENT_TYPE, "application/x-www-form-urlencoded"))
        .set_payload(body.to_owned())
}

/// The value of the read-only field `id` on the new table's page, as a path.
fn link(page: &str, id: &str) -> String {
    let start =
        format!(r#"<textarea class="link" id="{id}" readonly rows="3" spellcheck="false">"#);
    let at = page
        .find(&start)
        .unwrap_or_else(|| panic!("no {id} in {page}"))
        + start.len();
    let url = &page[at..at + page[at..].find('<').expect("a closed field")];
    url.split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|slash| rest[slash..].to_owned()))
        .unwrap_or_else(|| panic!("{url} is an absolute URL"))
}

/// The moves a page offers: the values of its move buttons.
fn offered(page: &str) -> Vec<String> {
    page.split(r#"name="play" value=""#)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|value| !value.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The ply the seat's form sends.
fn ply(page: &str) -> u64 {
    let start = r#"<input type="hidden" name="ply" value=""#;
    let at = page.find(start).expect("the ply field") + start.len();
    page[at..at + page[at..].find('"').unwrap()]
        .parse()
        .expect("a ply")
}

/// Opens a Herfor size-3 table from the options form: the creator's and the friend's seat
/// paths, and the spectators' path.
async fn open<S, B>(app: &S) -> (String, String, String)
where
    S: Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    // Home offers each game with a friend far away, at the game's defaults.
    let home = get(app, TestRequest::get().uri("/")).await;
    assert!(
        home.body.contains(
            r#"<a class="button secondary" href="/play/herfor/friend">Play a friend</a>"#
        ),
        "{}",
        home.body
    );
    let options = get(app, TestRequest::get().uri("/play/herfor")).await;
    assert!(
        options.body.contains(r#"formaction="/play/herfor/friend""#),
        "the options form offers a friend: {}",
        options.body
    );
    // The options form's GET: the options chosen, and the clock to choose.
    let friend = get(
        app,
        TestRequest::get().uri(
            "/play/herfor/friend?size=3&pie=false&simple=false&moves=&computer=&strength=normal",
        ),
    )
    .await;
    assert_eq!(friend.status, 200, "{}", friend.body);
    assert!(
        friend
            .body
            .contains(r#"<form class="options" method="post" action="/play/herfor/friend">"#),
        "{}",
        friend.body
    );
    assert!(
        friend
            .body
            .contains(r#"<input type="hidden" name="size" value="3">"#),
        "{}",
        friend.body
    );
    assert!(
        friend
            .body
            .contains(r#"<select id="option-days" name="days">"#)
    );
    assert!(
        friend
            .body
            .contains(r#"<input id="option-name" type="text" name="name" maxlength="40""#),
        "the players' names may be given: {}",
        friend.body
    );
    let too_long = get(
        app,
        form(
            "/play/herfor/friend",
            &format!(
                "size=3&pie=false&simple=false&moves=&days=3&name={}",
                "a".repeat(41)
            ),
        ),
    )
    .await;
    assert_eq!(too_long.status, 400, "{}", too_long.body);
    assert!(
        too_long.body.contains("Name not accepted"),
        "{}",
        too_long.body
    );
    // A right-to-left override would turn the page's words around it.
    let reversing = get(
        app,
        form(
            "/play/herfor/friend",
            "size=3&pie=false&simple=false&moves=&days=3&name=%E2%80%AEBob",
        ),
    )
    .await;
    assert_eq!(reversing.status, 400, "{}", reversing.body);
    assert!(
        !reversing.body.contains('\u{202E}'),
        "the override is not echoed raw"
    );
    let created = get(
        app,
        form(
            "/play/herfor/friend",
            "size=3&pie=false&simple=false&moves=&days=3&name=+Ana+&friend=Bo",
        ),
    )
    .await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(created.cache_control.as_deref(), Some("private, no-store"));
    assert_eq!(created.referrer_policy.as_deref(), Some("no-referrer"));
    assert!(
        created.body.contains("You play Black and move first"),
        "{}",
        created.body
    );
    // The friend's link first, named after the friend; the creator's own after it, to keep.
    let send = created
        .body
        .find("Send this link to Bo")
        .expect("the friend's link's heading");
    let theirs = created
        .body
        .find(r#"id="their-link""#)
        .expect("the friend's link");
    let keep = created
        .body
        .find("Your seat — keep it")
        .expect("the creator's link's heading");
    let yours = created
        .body
        .find(r#"id="your-link""#)
        .expect("the creator's link");
    assert!(
        send < theirs && theirs < keep && keep < yours,
        "{}",
        created.body
    );
    (
        link(&created.body, "your-link"),
        link(&created.body, "their-link"),
        link(&created.body, "watch-link"),
    )
}

both!(
    two_friends_play_a_whole_herfor_game_from_their_seat_links,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (mine, theirs, watch) = open(&app).await;
        assert_ne!(mine, theirs);
        let mut plies = 0;
        loop {
            let pages = [
                get(&app, TestRequest::get().uri(&mine)).await,
                get(&app, TestRequest::get().uri(&theirs)).await,
            ];
            for page in &pages {
                assert_eq!(page.status, 200, "{}", page.body);
                assert!(
                    page.body
                        .contains("Players: Ana (first seat), Bo (second seat)."),
                    "{}",
                    page.body
                );
                assert_eq!(page.cache_control.as_deref(), Some("private, no-store"));
                assert_eq!(page.referrer_policy.as_deref(), Some("no-referrer"));
            }
            if pages[0].body.contains("Game over") {
                assert!(
                    !pages[0].body.contains("data-events"),
                    "a finished table's page follows nothing"
                );
                assert!(pages[1].body.contains("Game over"));
                assert!(offered(&pages[0].body).is_empty() && offered(&pages[1].body).is_empty());
                break;
            }
            // While it goes on, each page follows the table's events.
            for page in &pages {
                assert!(
                    page.body.contains(r#" data-events="/api/v1/tables/"#),
                    "{}",
                    page.body
                );
            }
            // Exactly one seat is offered moves; the other waits for it.
            let acting = match (
                offered(&pages[0].body).is_empty(),
                offered(&pages[1].body).is_empty(),
            ) {
                (false, true) => 0,
                (true, false) => 1,
                other => panic!("one seat acts at a time: {other:?}\n{}", pages[0].body),
            };
            // The waiting seat waits for the acting one by the name its player gave.
            let waited = format!("Waiting for {} (", ["Ana", "Bo"][acting]);
            assert!(
                pages[1 - acting].body.contains(&waited),
                "{}",
                pages[1 - acting].body
            );
            assert!(
                pages[acting].body.contains("You ("),
                "{}",
                pages[acting].body
            );
            // The reload link is for the waiting seat only (the script hides it while live
            // updates follow the table); both count down the awaited move's time.
            let reload = r#"<a class="reload" href="/table/"#;
            assert!(
                !pages[acting].body.contains(reload),
                "{}",
                pages[acting].body
            );
            assert!(
                pages[1 - acting].body.contains(reload),
                "{}",
                pages[1 - acting].body
            );
            for page in &pages {
                assert!(
                    page.body.contains(
                        r#"<p class="clock">3 days per move: <span class="countdown" data-left=""#
                    ),
                    "{}",
                    page.body
                );
                assert!(page.body.contains(r#" left</span> for "#), "{}", page.body);
            }
            let seat = [&mine, &theirs][acting];
            let moves = offered(&pages[acting].body);
            // The last offered is a pass once the board fills; placements come first.
            let mv = &moves[plies % moves.len()];
            let seen = ply(&pages[acting].body);
            assert_eq!(seen, plies as u64);
            let played = get(&app, form(seat, &format!("ply={seen}&play={mv}"))).await;
            assert_eq!(played.status, 303, "{mv}: {}", played.body);
            assert_eq!(played.location.as_deref(), Some(&*format!("{seat}#turn")));
            plies += 1;
            assert!(plies < 200, "the game did not end");
        }

        // The spectators see the finished game, its record, and no seat's move.
        let watched = get(&app, TestRequest::get().uri(&watch)).await;
        assert_eq!(watched.status, 200);
        assert!(watched.body.contains("Game over") && watched.body.contains("You are watching"));
        assert!(offered(&watched.body).is_empty());
        assert_ne!(watched.cache_control.as_deref(), Some("private, no-store"));
        let record = get(&app, TestRequest::get().uri(&format!("{watch}/record"))).await;
        assert_eq!(record.status, 200);
        assert!(!record.body.trim().is_empty(), "the record of a whole game");
        // The API tells the same story.
        let id = watch.trim_start_matches("/table/");
        let api = get(
            &app,
            TestRequest::get().uri(&format!("/api/v1/tables/{id}")),
        )
        .await;
        assert!(api.body.contains(r#""status":"finished""#), "{}", api.body);
        assert!(api.body.contains(&format!(r#""ply":{plies}"#)));
    }
);

both!(
    a_seat_aborts_from_its_page_until_both_have_moved,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (mine, theirs, _) = open(&app).await;
        let abort_form = |page: &str| format!(r#"action="{page}/abort""#);
        let page = get(&app, TestRequest::get().uri(&mine)).await;
        assert!(page.body.contains(&abort_form(&mine)), "{}", page.body);
        // Black has moved, White not: either may still call it off.
        let played = get(&app, form(&mine, "ply=0&play=c3")).await;
        assert_eq!(played.status, 303, "{}", played.body);
        for seat in [&mine, &theirs] {
            let page = get(&app, TestRequest::get().uri(seat)).await;
            assert!(page.body.contains(&abort_form(seat)), "{}", page.body);
        }
        // Both have moved: no abort offered, and one sent anyway is refused on the page.
        let played = get(&app, form(&theirs, "ply=1&play=b2")).await;
        assert_eq!(played.status, 303, "{}", played.body);
        for seat in [&mine, &theirs] {
            let page = get(&app, TestRequest::get().uri(seat)).await;
            assert!(!page.body.contains(&abort_form(seat)), "{}", page.body);
        }
        let late = get(&app, form(&format!("{mine}/abort"), "")).await;
        assert_eq!(late.status, 409, "{}", late.body);
        assert!(late.body.contains("Too late to abort"), "{}", late.body);

        // At a new table, White calls it off before anyone moved: no result, on both pages.
        let (mine, theirs, watch) = open(&app).await;
        let aborted = get(&app, form(&format!("{theirs}/abort"), "")).await;
        assert_eq!(aborted.status, 303, "{}", aborted.body);
        for page in [&mine, &theirs, &watch] {
            let shown = get(&app, TestRequest::get().uri(page)).await;
            assert!(shown.body.contains("Table aborted"), "{}", shown.body);
            assert!(shown.body.contains("no result"), "{}", shown.body);
            assert!(offered(&shown.body).is_empty(), "nothing more to play");
        }
    }
);

both!(
    a_stale_page_a_wrong_link_and_a_resignation_are_answered_on_the_page,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (mine, theirs, watch) = open(&app).await;

        // Black plays c3; a second send from the same (now stale) page is refused, not played.
        let played = get(&app, form(&mine, "ply=0&play=c3")).await;
        assert_eq!(played.status, 303, "{}", played.body);
        let stale = get(&app, form(&theirs, "ply=0&play=b2")).await;
        assert_eq!(stale.status, 409, "{}", stale.body);
        assert!(stale.body.contains("The table moved on"), "{}", stale.body);
        // Out of turn, and an illegal move, with the engine's reason.
        let early = get(&app, form(&mine, "ply=1&play=b2")).await;
        assert_eq!(early.status, 403, "{}", early.body);
        let taken = get(&app, form(&theirs, "ply=1&play=c3")).await;
        assert_eq!(taken.status, 422, "{}", taken.body);
        assert!(taken.body.contains("cannot be played"), "{}", taken.body);

        // A seat link with a wrong credential is no seat.
        let (table, _) = mine.rsplit_once('/').unwrap();
        let wrong = get(
            &app,
            TestRequest::get().uri(&format!("{table}/{}", "0".repeat(64))),
        )
        .await;
        assert_eq!(wrong.status, 403, "{}", wrong.body);
        assert_eq!(wrong.cache_control.as_deref(), Some("private, no-store"));
        let unknown = get(
            &app,
            TestRequest::get().uri(&format!("/table/{}", "0".repeat(32))),
        )
        .await;
        assert_eq!(unknown.status, 404, "{}", unknown.body);

        // White resigns: Black has won, both pages say so, and nothing more is played.
        let page = get(&app, TestRequest::get().uri(&theirs)).await;
        assert!(
            page.body.contains(&format!(r#"action="{theirs}/resign""#)),
            "{}",
            page.body
        );
        let resigned = get(&app, form(&format!("{theirs}/resign"), "")).await;
        assert_eq!(resigned.status, 303, "{}", resigned.body);
        let won = get(&app, TestRequest::get().uri(&mine)).await;
        assert!(won.body.contains("Game over: you won"), "{}", won.body);
        assert!(won.body.contains("Your opponent resigned"), "{}", won.body);
        // Again with the same friend: a rematch at this table, no new links to send.
        assert!(
            won.body
                .contains(&format!(r#"<form method="post" action="{mine}/rematch">"#)),
            "a rematch with the same friend: {}",
            won.body
        );
        assert!(
            !won.body.contains("Reload to see"),
            "nothing more to reload for"
        );
        assert!(offered(&won.body).is_empty());
        let lost = get(&app, TestRequest::get().uri(&theirs)).await;
        assert!(lost.body.contains("Game over: you lost"), "{}", lost.body);
        let after = get(&app, form(&mine, "ply=1&play=b2")).await;
        assert_eq!(after.status, 410, "{}", after.body);
        let watched = get(&app, TestRequest::get().uri(&watch)).await;
        assert!(
            watched.body.contains("Bo resigned; Ana won"),
            "{}",
            watched.body
        );
    }
);

both!(
    a_hirth_turn_composed_on_the_page_is_checked_whole_and_committed_step_by_step,
    |url: String| async move {
        use moot::games::Game;
        use moot::games::Turn;
        use moot::games::hirth::Hirth;

        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = get(&app, form("/play/hirth/friend", "target=3&days=")).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let (mine, watch) = (
            link(&created.body, "your-link"),
            link(&created.body, "watch-link"),
        );
        let id = watch.trim_start_matches("/table/");
        let table = get(
            &app,
            TestRequest::get().uri(&format!("/api/v1/tables/{id}")),
        )
        .await;
        let table: serde_json::Value = serde_json::from_str(&table.body).expect("a table");
        assert_eq!(table["to_act"], "first", "{table:#}");

        // The first seat's whole turn: a step after which it acts again while there is one,
        // then the step that ends the turn.
        let mut state: <Hirth as Game>::State =
            serde_json::from_value(table["state"].clone()).expect("a Hirþ state");
        let mut steps = Vec::new();
        while first_acts(&Hirth::turn(&state)) {
            let moves = Hirth::legal_moves(&state);
            let continues = |mv: &&<Hirth as Game>::Move| {
                let mut after = state.clone();
                Hirth::apply(&mut after, mv).is_ok() && first_acts(&Hirth::turn(&after))
            };
            let mv = moves.iter().find(continues).unwrap_or(&moves[0]);
            steps.push(Hirth::format_move(&state, mv));
            Hirth::apply(&mut state, mv).expect("a legal step");
            assert!(steps.len() < 50, "the turn ended");
        }
        assert!(steps.len() > 1, "a turn of several steps: {steps:?}");

        // A turn with a wrong last step is refused whole: nothing is committed.
        let mut wrong = steps.clone();
        wrong.push("Z9".to_owned());
        let refused = get(
            &app,
            form(&mine, &format!("ply=0&play={}", wrong.join("."))),
        )
        .await;
        assert_eq!(refused.status, 422, "{}", refused.body);
        let after = get(
            &app,
            TestRequest::get().uri(&format!("/api/v1/tables/{id}")),
        )
        .await;
        assert!(after.body.contains(r#""ply":0"#), "{}", after.body);

        // The whole turn is played: one ply per step, and the second seat is to act.
        let played = get(
            &app,
            form(&mine, &format!("ply=0&play={}", steps.join("."))),
        )
        .await;
        assert_eq!(played.status, 303, "{}", played.body);
        let after = get(
            &app,
            TestRequest::get().uri(&format!("/api/v1/tables/{id}")),
        )
        .await;
        let after: serde_json::Value = serde_json::from_str(&after.body).expect("a table");
        assert_eq!(after["ply"], steps.len(), "{after:#}");
        assert_eq!(after["to_act"], "second", "{after:#}");

        fn first_acts(turn: &Turn) -> bool {
            *turn == Turn::ToAct(moot::games::Seat::First)
        }
    }
);

both!(
    a_table_made_through_the_api_gives_each_seat_its_page,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = db::call(
            &app,
            db::create(serde_json::json!({"game": "herfor", "options": {"size": 3}, "names": ["Ana", "Bo"]})),
        )
        .await;
        let (id, credentials) = db::seats(&created.body);
        let play = |seat: usize| {
            created.body["seats"][seat]["play_url"]
                .as_str()
                .expect("a play URL")
                .to_owned()
        };
        assert_eq!(play(0), format!("/table/{id}/seat/{}", credentials[0]));
        let first = get(&app, TestRequest::get().uri(&play(0))).await;
        assert_eq!(first.status, 200, "{}", first.body);
        assert!(
            first.body.contains("You sit in the first seat"),
            "{}",
            first.body
        );
        assert_eq!(first.cache_control.as_deref(), Some("private, no-store"));
        let second = get(&app, TestRequest::get().uri(&play(1))).await;
        // The seat waits for its opponent by the name given, with their colour.
        assert!(second.body.contains("Waiting for Ana ("), "{}", second.body);
        let watch = created.body["watch_page_url"]
            .as_str()
            .expect("a watch page");
        assert_eq!(watch, format!("/table/{id}"));
        let watching = get(&app, TestRequest::get().uri(watch)).await;
        assert_eq!(watching.status, 200);
        assert!(
            watching.body.contains("You are watching this game."),
            "{}",
            watching.body
        );
        // The spectators read who resigned and who won by their names.
        db::call(&app, db::act(&id, &credentials[1], "resign"))
            .await
            .ok();
        let watching = get(&app, TestRequest::get().uri(watch)).await;
        assert!(
            watching.body.contains("Bo resigned; Ana won"),
            "{}",
            watching.body
        );
    }
);

both!(
    a_tables_move_list_steps_through_its_game_on_the_tables_own_pages,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (mine, theirs, watch) = open(&app).await;
        for (seat, ply, mv) in [(&mine, 0, "c3"), (&theirs, 1, "b2"), (&mine, 2, "a1")] {
            let played = get(&app, form(seat, &format!("ply={ply}&play={mv}"))).await;
            assert_eq!(played.status, 303, "{mv}: {}", played.body);
        }
        // Each page lists the turns as links to itself at the position after them.
        for path in [&mine, &watch] {
            let page = get(&app, TestRequest::get().uri(path)).await;
            for (at, mv) in [(1, "c3"), (2, "b2")] {
                assert!(
                    page.body.contains(&format!(
                        r#"<a href="{path}?at={at}"><span class="n">{at}.</span>"#
                    )) && page.body.contains(&format!("<code>{mv}</code>")),
                    "{path} at {at}: {}",
                    page.body
                );
            }
        }
        // A seat's earlier position: to look at, no move, no live updates; back to the seat.
        let earlier = get(&app, TestRequest::get().uri(&format!("{mine}?at=1"))).await;
        assert_eq!(earlier.status, 200, "{}", earlier.body);
        assert_eq!(earlier.cache_control.as_deref(), Some("private, no-store"));
        assert!(
            earlier.body.contains("After turn 1 of 3"),
            "{}",
            earlier.body
        );
        assert!(offered(&earlier.body).is_empty(), "{}", earlier.body);
        assert!(!earlier.body.contains("data-events"), "{}", earlier.body);
        assert!(
            earlier.body.contains(&format!(
                r#"<a class="button" href="{mine}">Back to the game</a>"#
            )),
            "{}",
            earlier.body
        );
        assert!(
            earlier
                .body
                .contains(&format!(r#"href="{mine}?at=2" rel="next">"#)),
            "{}",
            earlier.body
        );
        // Past the game's moves: a friendly refusal.
        let past = get(&app, TestRequest::get().uri(&format!("{watch}?at=9"))).await;
        assert_eq!(past.status, 400, "{}", past.body);
        assert!(
            past.body.contains("from 0 to the 3 of this game"),
            "{}",
            past.body
        );
    }
);

both!(
    a_finished_tables_seats_offer_and_accept_a_rematch_from_their_pages_and_open_it,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = db::call(
            &app,
            db::create(serde_json::json!({"game": "herfor", "options": {"size": 3}, "names": ["Ana", "Bo"]})),
        )
        .await;
        let (id, [ana, bo]) = db::seats(&created.body);
        let (ana_page, bo_page) = (
            format!("/table/{id}/seat/{ana}"),
            format!("/table/{id}/seat/{bo}"),
        );
        // While the game goes on, no rematch is offered.
        let going = get(&app, TestRequest::get().uri(&ana_page)).await;
        assert!(!going.body.contains("rematch"), "{}", going.body);
        db::call(&app, db::act(&id, &bo, "resign")).await.ok();

        // Ana offers: her page says she waits for Bo, with a form to withdraw.
        let offer_form = format!(r#"<form method="post" action="{ana_page}/rematch">"#);
        let finished = get(&app, TestRequest::get().uri(&ana_page)).await;
        assert!(finished.body.contains(&offer_form), "{}", finished.body);
        assert!(finished.body.contains("Offer a rematch"));
        let offered = get(&app, form(&format!("{ana_page}/rematch"), "")).await;
        assert_eq!(offered.status, 303);
        assert_eq!(offered.location, Some(format!("{ana_page}#turn")));
        let waiting = get(&app, TestRequest::get().uri(&ana_page)).await;
        assert!(
            waiting
                .body
                .contains("You offered a rematch; waiting for Bo to accept."),
            "{}",
            waiting.body
        );
        assert!(
            waiting
                .body
                .contains(&format!(r#"action="{ana_page}/rematch/decline""#))
        );

        // Bo sees the offer, with Accept and Decline; accepting opens the rematch's page for
        // the same link's credential, Bo now in the first seat.
        let asked = get(&app, TestRequest::get().uri(&bo_page)).await;
        assert!(
            asked
                .body
                .contains("Ana offers a rematch: you would sit in the first seat this time."),
            "{}",
            asked.body
        );
        assert!(asked.body.contains("Accept the rematch") && asked.body.contains(">Decline<"));
        let accepted = get(&app, form(&format!("{bo_page}/rematch"), "")).await;
        assert_eq!(accepted.status, 303);
        let location = accepted.location.expect("a redirect");
        let new_id = location
            .strip_prefix("/table/")
            .and_then(|rest| rest.split('/').next())
            .expect("a table's page")
            .to_owned();
        assert_ne!(new_id, id);
        assert_eq!(location, format!("/table/{new_id}/seat/{bo}#turn"));
        let rematch = get(
            &app,
            TestRequest::get().uri(&format!("/table/{new_id}/seat/{bo}")),
        )
        .await;
        assert_eq!(rematch.status, 200);
        assert!(
            rematch.body.contains("You sit in the first seat"),
            "{}",
            rematch.body
        );
        assert!(
            rematch
                .body
                .contains("Players: Bo (first seat), Ana (second seat).")
        );
        // Sent again, the form lands on the rematch; the old pages link to it.
        let again = get(&app, form(&format!("{bo_page}/rematch"), "")).await;
        assert_eq!(again.location.as_deref(), Some(location.as_str()));
        let old = get(&app, TestRequest::get().uri(&ana_page)).await;
        assert!(
            old.body.contains(&format!(
                r#"href="/table/{new_id}/seat/{ana}">Play the rematch"#
            )),
            "{}",
            old.body
        );
        let watched = get(&app, TestRequest::get().uri(&format!("/table/{id}"))).await;
        assert!(
            watched
                .body
                .contains(&format!(r#"href="/table/{new_id}">Watch the rematch"#)),
            "{}",
            watched.body
        );
    }
);

both!(
    a_rematch_declined_from_the_page_leaves_the_offer_to_make_again,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = db::call(&app, db::create(serde_json::json!({"game": "tara"}))).await;
        let (id, [first, second]) = db::seats(&created.body);
        db::call(&app, db::act(&id, &first, "resign")).await.ok();
        let (first_page, second_page) = (
            format!("/table/{id}/seat/{first}"),
            format!("/table/{id}/seat/{second}"),
        );
        get(&app, form(&format!("{first_page}/rematch"), "")).await;
        let asked = get(&app, TestRequest::get().uri(&second_page)).await;
        assert!(
            asked
                .body
                .contains("The first player offers a rematch: you would sit in the first seat"),
            "{}",
            asked.body
        );
        let declined = get(&app, form(&format!("{second_page}/rematch/decline"), "")).await;
        assert_eq!(declined.location, Some(format!("{second_page}#turn")));
        // Declining again changes nothing and lands on the page, which offers a rematch anew.
        let again = get(&app, form(&format!("{second_page}/rematch/decline"), "")).await;
        assert_eq!(again.status, 303);
        for page in [&first_page, &second_page] {
            let shown = get(&app, TestRequest::get().uri(page)).await;
            assert!(shown.body.contains("Offer a rematch"), "{}", shown.body);
            assert!(!shown.body.contains("offers a rematch"));
        }
        // A wrong link is refused as at the seat's other forms.
        let wrong = get(
            &app,
            form(&format!("/table/{id}/seat/{}/rematch", "0".repeat(64)), ""),
        )
        .await;
        assert_eq!(wrong.status, 403);
    }
);

both!(
    a_seat_asks_from_its_page_to_take_back_its_move_and_the_other_lets_it,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let created = db::call(
            &app,
            db::create(serde_json::json!({"game": "herfor", "options": {"size": 3, "pie": false}, "names": ["Ana", "Bo"]})),
        )
        .await;
        let (id, [ana, bo]) = db::seats(&created.body);
        let (ana_page, bo_page) = (
            format!("/table/{id}/seat/{ana}"),
            format!("/table/{id}/seat/{bo}"),
        );
        // Before any move, nothing to take back.
        let fresh = get(&app, TestRequest::get().uri(&ana_page)).await;
        assert!(!fresh.body.contains("takeback"), "{}", fresh.body);
        let mv = db::random_move::<moot::games::herfor::Herfor>(
            &created.body["table"],
            &mut <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(5),
        );
        db::call(&app, db::play(&id, &ana, &mv, 0)).await.ok();

        // Ana played last and Bo is awaited: her page offers the takeback, Bo's does not.
        let ask_form = format!(r#"<form method="post" action="{ana_page}/takeback">"#);
        let moved = get(&app, TestRequest::get().uri(&ana_page)).await;
        assert!(moved.body.contains(&ask_form), "{}", moved.body);
        assert!(moved.body.contains("Ask to take back your move"));
        let awaited = get(&app, TestRequest::get().uri(&bo_page)).await;
        assert!(!awaited.body.contains("takeback"), "{}", awaited.body);
        let asked = get(&app, form(&format!("{ana_page}/takeback"), "")).await;
        assert_eq!(asked.status, 303);
        assert_eq!(asked.location, Some(format!("{ana_page}#turn")));
        let waiting = get(&app, TestRequest::get().uri(&ana_page)).await;
        assert!(
            waiting
                .body
                .contains("You asked to take back your last move; waiting for Bo to answer."),
            "{}",
            waiting.body
        );
        assert!(
            waiting
                .body
                .contains(&format!(r#"action="{ana_page}/takeback/decline""#))
        );

        // Bo sees it, with both answers, and lets her: the table is back at the start, Ana to
        // move; sent again, the form lands on the page as it stands.
        let theirs = get(&app, TestRequest::get().uri(&bo_page)).await;
        assert!(
            theirs
                .body
                .contains("Ana asks to take back their last move."),
            "{}",
            theirs.body
        );
        assert!(theirs.body.contains("Let them take it back") && theirs.body.contains(">Decline<"));
        let watched = get(&app, TestRequest::get().uri(&format!("/table/{id}"))).await;
        assert!(
            watched
                .body
                .contains("Ana asks to take back their last move.")
        );
        let accepted = get(&app, form(&format!("{bo_page}/takeback"), "")).await;
        assert_eq!(accepted.location, Some(format!("{bo_page}#turn")));
        assert_eq!(db::call(&app, db::get(&id)).await.ok()["ply"], 0);
        let again = get(&app, form(&format!("{bo_page}/takeback"), "")).await;
        assert_eq!(again.location, Some(format!("{bo_page}#turn")));
        let back = get(&app, TestRequest::get().uri(&ana_page)).await;
        assert!(!back.body.contains("asks to take back"), "{}", back.body);
        assert_eq!(ply(&back.body), 0);
    }
);

both!(
    a_rematch_from_the_pages_counts_against_the_addresss_share_of_new_tables,
    |url: String| async move {
        // One new table an address, and no more for an hour.
        let limits = moot::tables::TableLimits {
            create_burst: 1,
            create_every: std::time::Duration::from_secs(3600),
            ..roomy()
        };
        let app = db::app(db::tables(&url, 100).await, limits).await;
        let created = db::call(
            &app,
            db::create(serde_json::json!({"game": "herfor", "options": {"size": 3}})),
        )
        .await;
        let (id, [ana, bo]) = db::seats(&created.body);
        db::call(&app, db::act(&id, &bo, "resign")).await.ok();
        // The table was the address's one: the offer from the page is refused, none opens.
        let ana_page = format!("/table/{id}/seat/{ana}");
        let refused = get(&app, form(&format!("{ana_page}/rematch"), "")).await;
        assert_eq!(refused.status, 429, "{}", refused.body);
        assert!(
            refused.body.contains("opened many tables"),
            "{}",
            refused.body
        );
        let page = get(&app, TestRequest::get().uri(&ana_page)).await;
        assert!(
            page.body.contains("Offer a rematch"),
            "no offer stands: {}",
            page.body
        );
    }
);
