//! "Turn on notifications" in Chromium: a player at a friend's table turns notifications on on
//! "Your games" (permission granted as a person's "Allow" would, through DevTools), Moot's
//! service worker is registered for the whole site and active, the opponent moves (through the
//! API, with the seat's credential) and the test's push service gets a push that decrypts to
//! the player's `your_turn` at that table, opening its seat's page; "Turn off notifications"
//! forgets it, and the next turn pushes nothing; her seat's page has the control too; with the
//! permission denied the control says
//! how to allow it. The control passes axe in light and dark. With JavaScript off the control
//! is not shown.
//!
//! Headless Chromium on a machine without the internet cannot subscribe at a real push service
//! (Chromium's is Google's, FCM): `PushManager.prototype.subscribe` would fail. So the test
//! replaces that one method in the page, before the click, with one that answers a
//! subscription at the test's own push service on 127.0.0.1 with keys the test made: everything
//! else (the permission, the worker, the server's key, the page's route, Moot's push) is real.

use std::time::{Duration, Instant};

use fantoccini::Locator;
use moot::games::Game;
use moot::games::herfor::Herfor;
use serde_json::{Value, json};

use crate::a11y::{axe_source, violations};
use crate::harness::push_service::{PushBrowser, PushService};
use crate::harness::{Browser, ONE_AT_A_TIME};
use crate::your_games::{open_table, script};

/// The control's state, as the script says it (`on`, `off`, `blocked`, `failed`).
async fn state(browser: &Browser) -> String {
    script(
        browser,
        "var s = document.getElementById('notifications'); \
         return s && !s.hidden ? (s.getAttribute('data-state') || 'shown') : 'not shown';",
    )
    .await
}

/// Waits until the control is in `wanted`; fails saying what its status line said.
async fn wait_for_state(browser: &Browser, wanted: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let seen = state(browser).await;
        if seen == wanted {
            return;
        }
        let said = script(
            browser,
            "var p = document.getElementById('notify-status'); return p ? p.textContent : '';",
        )
        .await;
        assert!(
            Instant::now() < deadline,
            "the control stayed {seen:?} ({said:?}), not {wanted:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Replaces `PushManager.prototype.subscribe` in the open page (see the module's note) with
/// one answering `subscription` (a `PushSubscription.toJSON()`), and records what it was
/// asked: `window.mootAsked` (`userVisibleOnly`, the key's length) and `window.mootUnsubscribed`.
async fn fake_push_service(browser: &Browser, subscription: &Value) {
    browser
        .client
        .execute(
            r#"const json = arguments[0];
               PushManager.prototype.subscribe = function (options) {
                 window.mootAsked = {
                   userVisibleOnly: options.userVisibleOnly,
                   key: new Uint8Array(options.applicationServerKey).length,
                 };
                 return Promise.resolve({
                   endpoint: json.endpoint,
                   expirationTime: null,
                   toJSON: function () { return json; },
                   unsubscribe: function () {
                     window.mootUnsubscribed = true;
                     return Promise.resolve(true);
                   },
                 });
               };
               return true;"#,
            vec![subscription.clone()],
        )
        .await
        .expect("the page's PushManager is replaced");
}

/// Plays a legal move at table `id` with a seat's `credential`, through the API.
async fn play(http: &reqwest::Client, base: &str, id: &str, credential: &str) {
    let read = http
        .get(format!("{base}/api/v1/tables/{id}"))
        .send()
        .await
        .expect("the table")
        .bytes()
        .await
        .expect("its body");
    let table: Value = serde_json::from_slice(&read).expect("JSON");
    let state: <Herfor as Game>::State =
        serde_json::from_value(table["state"].clone()).expect("a Herfor state");
    let mv = Herfor::format_move(&state, &Herfor::legal_moves(&state)[0]);
    let played = http
        .post(format!("{base}/api/v1/tables/{id}/moves"))
        .bearer_auth(credential)
        .header("content-type", "application/json")
        .body(json!({"move": mv, "ply": table["ply"]}).to_string())
        .send()
        .await
        .expect("the move is sent");
    assert_eq!(played.status(), 200, "{mv}: {:?}", played.text().await);
}

/// The seat credential at the end of a seat link's field on the new table's page.
async fn seat_link(browser: &Browser, field: &str) -> (String, String) {
    let link = browser
        .client
        .find(Locator::Css(field))
        .await
        .expect("the seat's link")
        .prop("value")
        .await
        .expect("its value")
        .expect("a link");
    let parts: Vec<&str> = link.rsplit('/').collect();
    // …/table/{id}/seat/{credential}
    (parts[2].to_owned(), parts[0].to_owned())
}

/// Runs axe on the open page; fails on anything serious.
async fn no_serious_violations(browser: &Browser, axe: &str, when: &str) {
    let serious: Vec<String> = violations(browser, axe)
        .await
        .into_iter()
        .filter_map(|(serious, line)| serious.then_some(line))
        .collect();
    assert!(serious.is_empty(), "{when}: {serious:#?}");
}

#[actix_web::test]
async fn a_player_turns_notifications_on_gets_its_turn_pushed_and_turns_them_off() {
    let _one = ONE_AT_A_TIME.lock().await;
    let ana = Browser::one_with_pushes("notify").await;
    let service = PushService::start(&[]);
    let keys = PushBrowser::new(&service, "ana-browser");
    let http = reqwest::Client::new();
    ana.devtools(
        "Browser.grantPermissions",
        json!({"permissions": ["notifications"], "origin": ana.base}),
    )
    .await;

    // Ana opens a table for a friend: her seat is first, and Herfor's first seat moves first.
    open_table(&ana).await;
    let (id, ana_seat) = seat_link(&ana, "#your-link").await;
    let (_, bo_seat) = seat_link(&ana, "#their-link").await;

    ana.open("/your-games").await;
    ana.wait_for_styles().await;
    wait_for_state(&ana, "off").await;
    assert_eq!(ana.text("#notify").await, "Turn on notifications");
    let axe = axe_source();
    no_serious_violations(&ana, &axe, "off, light").await;

    fake_push_service(&ana, &keys.subscription()).await;
    ana.tap(Locator::Css("#notify")).await;
    wait_for_state(&ana, "on").await;
    assert_eq!(ana.text("#notify").await, "Turn off notifications");
    assert!(
        ana.text("#notify-status")
            .await
            .starts_with("Notifications are on")
    );
    let asked = ana
        .client
        .execute("return window.mootAsked;", vec![])
        .await
        .expect("a script runs");
    assert_eq!(
        asked,
        json!({"userVisibleOnly": true, "key": 65}),
        "subscribed with the server's P-256 key, every push shown"
    );
    // Moot's worker, for the whole site, running.
    let registration = ana
        .client
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
               navigator.serviceWorker.getRegistration().then(r => done(r ? {
                 scope: r.scope,
                 active: r.active ? r.active.state : null,
                 script: r.active ? r.active.scriptURL : null,
               } : null), e => done(String(e)));"#,
            vec![],
        )
        .await
        .expect("a script runs");
    assert_eq!(
        registration,
        json!({
            "scope": format!("{}/", ana.base),
            "active": "activated",
            "script": format!("{}/push-worker.js", ana.base),
        })
    );
    ana.screenshot("notify-on").await;
    no_serious_violations(&ana, &axe, "on, light").await;
    ana.devtools(
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "prefers-color-scheme", "value": "dark"}]}),
    )
    .await;
    assert!(ana.prefers_dark().await);
    ana.screenshot("notify-on-dark").await;
    no_serious_violations(&ana, &axe, "on, dark").await;

    // Ana moves, then Bo: Ana's turn comes, pushed to her browser.
    play(&http, &ana.base, &id, &ana_seat).await;
    play(&http, &ana.base, &id, &bo_seat).await;
    let posts = service
        .until(Duration::from_secs(20), |posts| !posts.is_empty())
        .await;
    assert_eq!(posts[0].path, keys.path());
    let notice: Value = serde_json::from_str(&keys.read(&posts[0])).expect("a JSON notice");
    assert_eq!(notice["type"], "your_turn", "{notice:#}");
    assert_eq!(notice["table_id"], id.as_str());
    assert_eq!(
        notice["url"],
        format!("/table/{id}/mine"),
        "her seat's page"
    );

    // Turned off: the server forgets it and the browser unsubscribes; her next turn is not
    // pushed. (A push is written with the move that makes it due and posted at once: the wait
    // below is many times what the first one took.)
    ana.tap(Locator::Css("#notify")).await;
    wait_for_state(&ana, "off").await;
    assert_eq!(ana.text("#notify").await, "Turn on notifications");
    let unsubscribed = ana
        .client
        .execute("return window.mootUnsubscribed === true;", vec![])
        .await
        .expect("a script runs");
    assert_eq!(unsubscribed, json!(true));
    no_serious_violations(&ana, &axe, "off, dark").await;
    play(&http, &ana.base, &id, &ana_seat).await;
    play(&http, &ana.base, &id, &bo_seat).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(service.posts().len(), 1, "nothing pushed after turning off");

    // Her seat's page has the control too (off: the browser holds no real subscription).
    ana.open(&format!("/table/{id}/mine")).await;
    ana.wait_for_styles().await;
    wait_for_state(&ana, "off").await;
    ana.screenshot("notify-mine-dark").await;
    no_serious_violations(&ana, &axe, "a seat's page, dark").await;

    // Denied in the browser's settings: the control says so, and how to allow them.
    ana.devtools(
        "Browser.setPermission",
        json!({
            "permission": {"name": "notifications"},
            "setting": "denied",
            "origin": ana.base,
        }),
    )
    .await;
    ana.open("/your-games").await;
    wait_for_state(&ana, "blocked").await;
    let said = ana.text("#notify-status").await;
    assert!(said.contains("set Notifications to Allow"), "{said}");
    no_serious_violations(&ana, &axe, "blocked").await;
    ana.finish().await;
}

#[actix_web::test]
async fn without_javascript_the_notifications_control_is_not_shown() {
    let _one = ONE_AT_A_TIME.lock().await;
    let ana = Browser::one_with_tables("notify-no-script", false).await;
    open_table(&ana).await;
    ana.open("/your-games").await;
    assert!(
        ana.text("#your-games-list")
            .await
            .contains("Herfor against your friend")
    );
    let control = ana
        .client
        .find(Locator::Css("#notify"))
        .await
        .expect("the control is in the page, hidden");
    assert!(
        !control.is_displayed().await.expect("displayed or not"),
        "push needs the script: no control without it"
    );
    ana.finish().await;
}
