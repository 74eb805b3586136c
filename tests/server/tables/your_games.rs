//! "Your games" on the pages: a player key kept in the cookie `moot_player`, made on the first
//! "Play a friend" and when a seat's link is opened in a browser without one; each browser's
//! player finds its tables on `/your-games` (its turn first) and plays them at
//! `/table/{id}/mine` with JavaScript off; every page's header counts the tables awaiting its
//! move; a cookie that is no player's is replaced; a link preview's fetch takes no seat; no
//! credential in any link or page of these.

use actix_web::dev::Service;
use actix_web::http::header;
use actix_web::test::{self, TestRequest};

use crate::both;
use crate::tables::db::{self, roomy};

/// An answer: status, `Location`, the `Set-Cookie` headers, `Cache-Control`, the body.
struct Answer {
    status: u16,
    location: Option<String>,
    cookies: Vec<String>,
    cache_control: Option<String>,
    body: String,
}

impl Answer {
    /// The value `Set-Cookie` gives `moot_player`, if it sets it.
    fn player(&self) -> Option<String> {
        self.cookies.iter().find_map(|c| {
            c.strip_prefix("moot_player=")
                .and_then(|rest| rest.split(';').next())
                .map(str::to_owned)
        })
    }
}

/// A browser: the player's cookie it keeps, if any.
#[derive(Default, Clone)]
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
        // A person's browser opening a page, as browsers tell it.
        let request = request
            .insert_header(("sec-fetch-mode", "navigate"))
            .insert_header(("sec-fetch-dest", "document"));
        let request = match &self.player {
            Some(player) => {
                request.insert_header((header::COOKIE, format!("moot_player={player}")))
            }
            None => request,
        };
        let answer = send(app, request).await;
        match answer.player() {
            Some(value) if value.is_empty() => self.player = None,
            Some(value) => self.player = Some(value),
            None => {}
        }
        answer
    }
}

async fn send<S, B>(app: &S, request: TestRequest) -> Answer
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
    let headers = response.headers();
    let location = headers
        .get(header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let cache_control = headers
        .get(header::CACHE_CONTROL)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let cookies = headers
        .get_all(header::SET_COOKIE)
        .filter_map(|v| v.to_str().ok())
        .map(str::to_owned)
        .collect();
    let status = response.status().as_u16();
    let body = String::from_utf8_lossy(&test::read_body(response).await).into_owned();
    Answer {
        status,
        location,
        cookies,
        cache_control,
        body,
    }
}

fn form(uri: &str, body: &str) -> TestRequest {
    TestRequest::post()
        .uri(uri)
        .insert_header((header::CONTENT_TYPE, "application/x-www-form-urlencoded"))
        .set_payload(body.to_owned())
}

/// The friend form's answer for a Herfor size-3 table with a 3-day clock, `Ana` against `Bo`.
fn open_table() -> TestRequest {
    form(
        "/play/herfor/friend",
        "size=3&pie=false&simple=false&moves=&days=3&name=Ana&friend=Bo",
    )
}

/// The path of the read-only link field `id` on the new table's page.
fn link(page: &str, id: &str) -> String {
    let start =
        format!(r#"<textarea class="link" id="{id}" readonly rows="3" spellcheck="false">"#);
    let at = page
        .find(&start)
        .unwrap_or_else(|| panic!("no {id} in {page}"))
        + start.len();
    let url = &page[at..at + page[at..].find('<').expect("a closed field")];
    let rest = url.split_once("://").expect("an absolute URL").1;
    rest[rest.find('/').expect("a path")..].to_owned()
}

/// The table's id in a seat's path.
fn table_id(seat_path: &str) -> String {
    seat_path
        .split('/')
        .nth(2)
        .expect("/table/{id}/…")
        .to_owned()
}

/// The moves a page offers.
fn offered(page: &str) -> Vec<String> {
    page.split(r#"name="play" value=""#)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|value| !value.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The secrets of a path: its last segment when it is a seat's.
fn secret_of(seat_path: &str) -> String {
    seat_path.rsplit('/').next().expect("a segment").to_owned()
}

both!(
    the_first_play_a_friend_keeps_a_player_in_an_http_only_lax_cookie_that_holds_the_creators_seat,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let mut ana = Browser::default();
        let created = ana.send(&app, open_table()).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let cookie = created
            .cookies
            .iter()
            .find(|c| c.starts_with("moot_player="))
            .expect("the player's cookie");
        let player = ana.player.clone().expect("a player");
        assert_eq!(player.len(), 64);
        for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=34560000"] {
            assert!(cookie.contains(flag), "{flag}: {cookie}");
        }
        assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
        assert!(
            !created.body.contains(&player),
            "the credential is in no page"
        );
        // The creator's seat is the player's: the player's credential opens it.
        let yours = link(&created.body, "your-link");
        let id = table_id(&yours);
        let api = send(
            &app,
            TestRequest::get()
                .uri("/api/v1/players/me/tables")
                .insert_header((header::AUTHORIZATION, format!("Bearer {player}"))),
        )
        .await;
        assert!(api.body.contains(&id), "{}", api.body);
        // The next table is the same player's: no new cookie.
        let again = ana.send(&app, open_table()).await;
        assert_eq!(again.status, 200);
        assert_eq!(again.player(), None, "{:?}", again.cookies);

        // Over TLS at a trusted proxy, the cookie is `Secure`.
        let limits = moot::tables::TableLimits {
            trust_forwarded: true,
            ..roomy()
        };
        let behind = db::app(db::tables(&url, 100).await, limits).await;
        let secure = send(
            &behind,
            open_table().insert_header(("x-forwarded-proto", "https")),
        )
        .await;
        let cookie = secure
            .cookies
            .iter()
            .find(|c| c.starts_with("moot_player="))
            .expect("the player's cookie");
        assert!(cookie.contains("; Secure"), "{cookie}");
    }
);

both!(
    the_creator_and_the_friend_find_the_table_on_their_own_games_their_turn_first_and_play_it_without_javascript,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let (mut ana, mut bo) = (Browser::default(), Browser::default());
        let none = bo.send(&app, TestRequest::get().uri("/your-games")).await;
        assert_eq!(none.status, 200);
        assert!(none.body.contains("This browser has no games yet"), "{}", none.body);
        assert!(none.body.contains(">Play a friend</a>"), "{}", none.body);
        assert!(!none.body.contains("your-games-link"), "no count without a cookie");

        let first = ana.send(&app, open_table()).await;
        let (yours, theirs) = (link(&first.body, "your-link"), link(&first.body, "their-link"));
        let shared = table_id(&yours);
        // Ana looks at the friend's link in her own browser: the seat stays free for Bo.
        let looked = ana.send(&app, TestRequest::get().uri(&theirs)).await;
        assert_eq!(looked.status, 200);
        // A chat's link preview fetches the link as it is sent: no player, the seat stays free.
        let preview = send(&app, TestRequest::get().uri(&theirs)).await;
        assert_eq!(preview.status, 200);
        assert_eq!(preview.player(), None, "{:?}", preview.cookies);
        let prerender = send(
            &app,
            TestRequest::get()
                .uri(&theirs)
                .insert_header(("sec-fetch-mode", "navigate"))
                .insert_header(("sec-fetch-dest", "document"))
                .insert_header(("sec-purpose", "prefetch;prerender")),
        )
        .await;
        assert_eq!(prerender.player(), None, "{:?}", prerender.cookies);
        // Bo's browser gets a player of its own, which takes the seat of the link.
        let joined = bo.send(&app, TestRequest::get().uri(&theirs)).await;
        assert_eq!(joined.status, 200, "{}", joined.body);
        let bos = bo.player.clone().expect("Bo's browser has a player");
        assert_ne!(Some(&bos), ana.player.as_ref());
        // Ana's second table, which only she sits at.
        let second = ana.send(&app, open_table()).await;
        let alone = table_id(&link(&second.body, "your-link"));

        // Ana plays her first move at the shared table from her own seat's page.
        let mine = format!("/table/{shared}/mine");
        let page = ana.send(&app, TestRequest::get().uri(&mine)).await;
        assert_eq!(page.status, 200, "{}", page.body);
        assert_eq!(page.cache_control.as_deref(), Some("private, no-store"));
        assert!(page.body.contains(&format!(r#"action="{mine}#turn""#)), "the move's form");
        assert!(page.body.contains(&format!(r#"action="{mine}/resign""#)), "resigning");
        assert!(page.body.contains(&format!(r#"data-reload="{mine}""#)), "the reload");
        for secret in [ana.player.clone().unwrap(), secret_of(&yours), secret_of(&theirs)] {
            assert!(!page.body.contains(&secret), "no credential in the seat's page");
        }
        let moves = offered(&page.body);
        let played = ana
            .send(&app, form(&mine, &format!("ply=0&play={}", moves[0])))
            .await;
        assert_eq!(played.status, 303, "{}", played.body);
        assert_eq!(played.location.as_deref(), Some(&*format!("{mine}#turn")));

        // Ana: her turn at the table she sits at alone first, then the shared one.
        let list = ana.send(&app, TestRequest::get().uri("/your-games")).await;
        assert_eq!(list.status, 200, "{}", list.body);
        let at_alone = list.body.find(&format!("/table/{alone}/mine")).expect("Ana's own table");
        let at_shared = list.body.find(&format!("/table/{shared}/mine")).expect("the shared table");
        assert!(at_alone < at_shared, "her turn first: {}", list.body);
        assert!(list.body.contains("Herfor against Bo"), "{}", list.body);
        assert!(list.body.contains("Your opponent's turn"), "{}", list.body);
        assert!(list.body.contains("1 move played"), "{}", list.body);
        assert!(list.body.contains(r#"<span class="countdown" data-left=""#), "{}", list.body);
        assert!(list.body.contains(">Your games (1)</a>"), "{}", list.body);
        // Bo: the shared table, his turn.
        let list = bo.send(&app, TestRequest::get().uri("/your-games")).await;
        assert!(list.body.contains(&format!("/table/{shared}/mine")), "{}", list.body);
        assert!(list.body.contains("Herfor against Ana"), "{}", list.body);
        assert!(list.body.contains("<strong>Your turn</strong>"), "{}", list.body);
        for page in [&list.body, &page.body] {
            assert!(!page.contains(&bos) && !page.contains(&secret_of(&theirs)));
            assert!(!page.contains("/seat/"), "no seat link: {page}");
        }
        // Bo answers from his own seat's page, and the count moves back to Ana.
        let bos_page = format!("/table/{shared}/mine");
        let page = bo.send(&app, TestRequest::get().uri(&bos_page)).await;
        let reply = offered(&page.body);
        let played = bo
            .send(&app, form(&bos_page, &format!("ply=1&play={}", reply[0])))
            .await;
        assert_eq!(played.status, 303, "{}", played.body);
        let home = ana.send(&app, TestRequest::get().uri("/")).await;
        assert!(home.body.contains(">Your games (2)</a>"), "{}", home.body);
        assert_eq!(home.cache_control.as_deref(), Some("private, no-cache"));
        let home = bo.send(&app, TestRequest::get().uri("/")).await;
        assert!(home.body.contains(r#"data-count="0">Your games</a>"#), "{}", home.body);
        // Without the cookie, no link, and no seat of one's own.
        let stranger = send(&app, TestRequest::get().uri("/")).await;
        assert!(!stranger.body.contains("your-games-link"));
        let nobody = send(&app, TestRequest::get().uri(&mine)).await;
        assert_eq!(nobody.status, 404, "{}", nobody.body);
        assert!(nobody.body.contains("Not one of your games"), "{}", nobody.body);
    }
);

both!(
    a_cookie_that_is_no_players_is_replaced_and_never_an_error_page,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let forged = "ab".repeat(32);
        let mut browser = Browser {
            player: Some(forged.clone()),
        };
        let home = browser.send(&app, TestRequest::get().uri("/")).await;
        assert_eq!(home.status, 200);
        let list = browser
            .send(&app, TestRequest::get().uri("/your-games"))
            .await;
        assert_eq!(list.status, 200, "{}", list.body);
        assert!(list.body.contains("This browser has no games yet"));
        assert!(
            list.cookies
                .iter()
                .any(|c| c.starts_with("moot_player=;") && c.contains("Max-Age=0")),
            "forgotten: {:?}",
            list.cookies
        );
        // A forged cookie at "Play a friend" gets a new player.
        let mut browser = Browser {
            player: Some(forged.clone()),
        };
        let created = browser.send(&app, open_table()).await;
        assert_eq!(created.status, 200, "{}", created.body);
        let made = browser.player.clone().expect("a player");
        assert_ne!(made, forged);
        let list = browser
            .send(&app, TestRequest::get().uri("/your-games"))
            .await;
        assert!(list.body.contains("Herfor against Bo"), "{}", list.body);
        // A cookie that could not be a credential at all is no player either.
        let mut junk = Browser {
            player: Some("not-a-key".into()),
        };
        let page = junk.send(&app, TestRequest::get().uri("/your-games")).await;
        assert_eq!(page.status, 200);
        let seat = link(&created.body, "their-link");
        let joined = junk.send(&app, TestRequest::get().uri(&seat)).await;
        assert_eq!(joined.status, 200, "{}", joined.body);
        assert!(junk.player.as_deref().is_some_and(|p| p.len() == 64));
    }
);

both!(
    the_browsers_feed_is_opened_by_its_cookie_and_refused_without_a_player,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let mut ana = Browser::default();
        ana.send(&app, open_table()).await;
        let player = ana.player.clone().expect("a player");
        let response = app
            .call(
                TestRequest::get()
                    .uri("/your-games/events")
                    .insert_header((header::COOKIE, format!("moot_player={player}")))
                    .to_request(),
            )
            .await
            .expect("the app answers");
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(
            response
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok()),
            Some("text/event-stream")
        );
        drop(response);
        for cookie in [None, Some("cd".repeat(32))] {
            let request = TestRequest::get().uri("/your-games/events");
            let request = match cookie {
                Some(value) => {
                    request.insert_header((header::COOKIE, format!("moot_player={value}")))
                }
                None => request,
            };
            let refused = send(&app, request).await;
            assert_eq!(refused.status, 401, "{}", refused.body);
            assert!(
                refused.body.contains("unknown_player_key"),
                "{}",
                refused.body
            );
        }
    }
);

both!(
    every_change_of_the_browsers_own_seat_is_refused_from_another_sites_page,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let mut ana = Browser::default();
        let first = ana.send(&app, open_table()).await;
        let id = table_id(&link(&first.body, "your-link"));
        let mine = format!("/table/{id}/mine");
        let page = ana.send(&app, TestRequest::get().uri(&mine)).await;
        let moves = offered(&page.body);
        let cookie = format!("moot_player={}", ana.player.clone().expect("Ana's player"));
        // Each form of the own seat's page, posted from another site's page with Ana's cookie:
        // as a browser tells it (`Sec-Fetch-Site`), and as an older one does (`Origin` alone).
        let changes = [
            (mine.clone(), format!("ply=0&play={}", moves[0])),
            (format!("{mine}/resign"), String::new()),
            (format!("{mine}/abort"), String::new()),
            (format!("{mine}/claim"), String::new()),
            (format!("{mine}/vacation"), String::new()),
            (format!("{mine}/takeback"), String::new()),
            (format!("{mine}/takeback/decline"), String::new()),
            (format!("{mine}/rematch"), String::new()),
            (format!("{mine}/rematch/decline"), String::new()),
        ];
        let from_elsewhere: [(&str, &str); 2] = [
            ("sec-fetch-site", "cross-site"),
            ("origin", "https://evil.example"),
        ];
        for (uri, body) in &changes {
            for told in from_elsewhere {
                let refused = send(
                    &app,
                    form(uri, body)
                        .insert_header((header::COOKIE, cookie.clone()))
                        .insert_header(told),
                )
                .await;
                assert_eq!(refused.status, 403, "{uri} with {told:?}: {}", refused.body);
                assert!(
                    refused.body.contains("Moot&#39;s own pages")
                        || refused.body.contains("Moot's own pages"),
                    "{uri}: the page says why: {}",
                    refused.body
                );
            }
        }
        // Nothing changed: no move, no resignation, no vacation, nothing asked.
        let table = db::call(&app, db::get(&id)).await;
        assert_eq!(table.body["ply"], 0, "{}", table.body);
        assert_eq!(table.body["status"], "ongoing", "{}", table.body);
        // The same move from Moot's own page is taken.
        let played = send(
            &app,
            form(&mine, &format!("ply=0&play={}", moves[0]))
                .insert_header((header::COOKIE, cookie.clone()))
                .insert_header(("sec-fetch-site", "same-origin")),
        )
        .await;
        assert_eq!(played.status, 303, "{}", played.body);
    }
);
