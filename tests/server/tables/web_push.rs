//! Notices on the pages (Web Push): "Turn on notifications" on "Your games" and on the
//! browser's own seat's page, rendered hidden for the script to show, for a browser with a
//! player only; `POST`/`DELETE /your-games/notifications` keep and forget a browser's
//! subscription for the cookie's player, as the API does for a credential, from Moot's own
//! pages only, every refusal a clear 4xx problem.

use actix_web::http::header;
use actix_web::test::TestRequest;
use serde_json::{Value, json};

use crate::both;
use crate::common::push_service::{PushBrowser, PushService};
use crate::tables::db::{self, call, create, new_player, roomy};

/// The pages' route.
const ROUTE: &str = "/your-games/notifications";

/// The push services of these tests listen on this machine, over plain HTTP.
fn private_allowed() -> moot::tables::TableLimits {
    moot::tables::TableLimits {
        allow_private_webhooks: true,
        ..roomy()
    }
}

/// A request of Moot's own page's script, with the browser's cookie if it has one.
fn from_page(request: TestRequest, cookie: Option<&str>) -> TestRequest {
    let request = request.insert_header(("sec-fetch-site", "same-origin"));
    match cookie {
        Some(credential) => {
            request.insert_header((header::COOKIE, format!("moot_player={credential}")))
        }
        None => request,
    }
}

fn turn_on(cookie: Option<&str>, subscription: &Value) -> TestRequest {
    from_page(
        TestRequest::post().uri(ROUTE).set_json(subscription),
        cookie,
    )
}

fn turn_off(cookie: Option<&str>, endpoint: &str) -> TestRequest {
    let query: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("endpoint", endpoint)
        .finish();
    from_page(
        TestRequest::delete().uri(&format!("{ROUTE}?{query}")),
        cookie,
    )
}

both!(
    the_pages_turn_a_browsers_notifications_on_and_off_for_the_cookies_player,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), private_allowed()).await;
        let service = PushService::start(&[]);
        let browser = PushBrowser::new(&service, "ana-laptop");
        let ana = new_player(&app, "Ana").await.1;
        let id = tables.player(&ana).await.unwrap().expect("Ana").id;

        let kept = call(&app, turn_on(Some(&ana), &browser.subscription())).await;
        assert_eq!(kept.status, 201, "{:#}", kept.body);
        assert_eq!(kept.body["endpoint"], browser.endpoint.as_str());
        let again = call(&app, turn_on(Some(&ana), &browser.subscription())).await;
        assert_eq!(again.status, 200, "sent again: {:#}", again.body);
        let held = tables.subscriptions(&id).await.unwrap();
        assert_eq!(held.len(), 1);
        assert_eq!(held[0].endpoint, browser.endpoint);

        let gone = call(&app, turn_off(Some(&ana), &browser.endpoint)).await;
        assert_eq!(gone.status, 204, "{:#}", gone.body);
        assert!(tables.subscriptions(&id).await.unwrap().is_empty());
        let twice = call(&app, turn_off(Some(&ana), &browser.endpoint)).await;
        assert_eq!(twice.problem(404, "not_found")["field"], "endpoint");
    }
);

both!(
    the_pages_notification_routes_refuse_other_sites_browsers_without_a_player_and_bad_bodies_with_a_clear_4xx,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), private_allowed()).await;
        let service = PushService::start(&[]);
        let browser = PushBrowser::new(&service, "ana-phone");
        let ana = new_player(&app, "Ana").await.1;
        let id = tables.player(&ana).await.unwrap().expect("Ana").id;
        let subscription = browser.subscription();

        // No cookie, or one that is no player's.
        let none = call(&app, turn_on(None, &subscription)).await;
        assert!(
            none.problem(401, "unknown_player_key")["detail"]
                .as_str()
                .unwrap()
                .contains("this browser holds no player"),
            "{none:#?}"
        );
        let forged = "0".repeat(64);
        call(&app, turn_on(Some(&forged), &subscription))
            .await
            .problem(401, "unknown_player_key");
        call(&app, turn_off(None, &browser.endpoint))
            .await
            .problem(401, "unknown_player_key");

        // Another site's page, as the browser tells it, or by its origin.
        let cross = call(
            &app,
            TestRequest::post()
                .uri(ROUTE)
                .insert_header(("sec-fetch-site", "cross-site"))
                .insert_header((header::COOKIE, format!("moot_player={ana}")))
                .set_json(&subscription),
        )
        .await;
        cross.problem(403, "cors_refused");
        let elsewhere = call(
            &app,
            TestRequest::delete()
                .uri(&format!("{ROUTE}?endpoint=x"))
                .insert_header(("origin", "https://games.example"))
                .insert_header((header::COOKIE, format!("moot_player={ana}"))),
        )
        .await;
        elsewhere.problem(403, "cors_refused");
        assert!(tables.subscriptions(&id).await.unwrap().is_empty());

        // What the API refuses, the pages refuse alike, naming the field.
        let mut short = subscription.clone();
        short["keys"]["auth"] = json!("BTBZ");
        let refused = call(&app, turn_on(Some(&ana), &short)).await;
        assert_eq!(
            refused.problem(422, "invalid_request")["field"],
            "keys.auth"
        );
        call(&app, turn_on(Some(&ana), &json!([1, 2])))
            .await
            .problem(422, "invalid_request");
        call(
            &app,
            from_page(
                TestRequest::delete().uri(ROUTE),
                Some(ana.as_str()),
            ),
        )
        .await
        .problem(400, "invalid_query");
        // Push services are on the internet unless the server lets webhooks post inside.
        let strict = db::app(tables.clone(), roomy()).await;
        let inside = call(&strict, turn_on(Some(&ana), &subscription)).await;
        assert_eq!(inside.problem(422, "invalid_request")["field"], "endpoint");
        assert!(tables.subscriptions(&id).await.unwrap().is_empty());
    }
);

both!(
    the_notifications_control_is_rendered_hidden_for_a_browser_with_a_player_on_your_games_and_its_own_seat,
    |url: String| async move {
        let tables = db::tables(&url, 100).await;
        let app = db::app(tables.clone(), roomy()).await;
        let ana = new_player(&app, "Ana").await.1;
        let with_cookie = |uri: &str| {
            TestRequest::get()
                .uri(uri)
                .insert_header((header::COOKIE, format!("moot_player={ana}")))
        };
        let control = r#"<section class="notifications" id="notifications" hidden"#;
        let button = r#"<button class="secondary" id="notify" type="button">Turn on notifications</button>"#;

        let page = call(&app, with_cookie("/your-games")).await;
        assert_eq!(page.status, 200);
        let html = page.body.as_str().unwrap();
        assert!(html.contains(control), "{html}");
        assert!(html.contains(button), "{html}");
        assert!(html.contains(r#"role="status" aria-live="polite""#));
        // Without a player there is nothing to turn on.
        let stranger = call(&app, TestRequest::get().uri("/your-games")).await;
        assert!(!stranger.body.as_str().unwrap().contains("notifications"));

        // The browser's own seat's page has it; the spectators' page has not.
        let made = call(
            &app,
            create(json!({"game": "herfor", "options": {"size": 3}, "player_credentials": [ana, null]})),
        )
        .await;
        assert_eq!(made.status, 201, "{:#}", made.body);
        let table = made.body["table"]["id"].as_str().unwrap().to_owned();
        let mine = call(&app, with_cookie(&format!("/table/{table}/mine"))).await;
        assert_eq!(mine.status, 200, "{:#}", mine.body);
        assert!(mine.body.as_str().unwrap().contains(control));
        let watch = call(&app, with_cookie(&format!("/table/{table}"))).await;
        assert_eq!(watch.status, 200);
        assert!(!watch.body.as_str().unwrap().contains(control));
    }
);

both!(
    the_pages_notification_route_names_its_methods_to_a_get,
    |url: String| async move {
        let app = db::app(db::tables(&url, 100).await, roomy()).await;
        let got = call(&app, TestRequest::get().uri(ROUTE)).await;
        got.problem(405, "method_not_allowed");
        assert_eq!(got.allow.as_deref(), Some("POST, DELETE"), "{got:#?}");
    }
);
