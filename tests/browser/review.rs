//! Looking back through a game: the status line says which move the page shows and the way
//! back, and the arrow keys step through the moves (but not on the board or in a field).

use fantoccini::Locator;
use fantoccini::key::Key;

use crate::a11y::press;
use crate::harness::{Browser, ONE_AT_A_TIME};

/// Waits until the browser has left `before`: the URL it went to.
async fn arrived(browser: &Browser, before: &str) -> String {
    browser.wait_until_left(before).await;
    browser.url().await
}

/// Presses `key` and says where it sent the browser: `stayed`, or the address the page asked
/// for. A key's handler asks for the next page as the key is pressed, and the page's
/// `navigate` event (the Navigation API's) fires as it asks, before any answer: read once
/// the press is done, it tells without waiting to see whether the page stays.
async fn press_watching(browser: &Browser, key: Key) -> String {
    browser
        .client
        .execute(
            "window.mootTestWent = 'stayed'; \
             navigation.addEventListener('navigate', function (e) { \
               window.mootTestWent = e.destination.url; });",
            vec![],
        )
        .await
        .expect("a script runs");
    press(browser, key).await;
    let went = browser
        .client
        .execute("return window.mootTestWent || 'to a new page';", vec![])
        .await
        .expect("a script runs");
    went.as_str().unwrap_or_default().to_owned()
}

#[actix_web::test]
async fn the_arrow_keys_step_through_the_moves_and_the_status_says_which_is_shown() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("review").await;
    browser.set_viewport((1280, 800)).await;
    let game = "/play/herfor?size=3&pie=false&computer=&moves=c3.b2.a1";
    browser.open(game).await;
    assert!(browser.text("p.status").await.starts_with("White to play"));
    // From the game now, Left goes a turn back.
    browser
        .client
        .find(Locator::Css("h1"))
        .await
        .expect("the heading")
        .click()
        .await
        .expect("a click on the page");
    let before = browser.url().await;
    // The page asks for the turn before as the key is pressed (what tells a key that stays).
    let went = press_watching(&browser, Key::Left).await;
    assert!(
        went.contains("at=2") || went == "to a new page",
        "Left went {went}"
    );
    let url = arrived(&browser, &before).await;
    assert!(url.contains("at=2"), "{url}");
    assert_eq!(
        browser.text("p.status").await,
        "Move 2 of 3: White played b2 — looking back; “Back to the game” shows it as it stands"
    );
    browser.wait_for_styles().await;
    browser.screenshot("review-1280").await;
    let before = browser.url().await;
    press(&browser, Key::Left).await;
    let url = arrived(&browser, &before).await;
    assert!(url.contains("at=1"), "{url}");
    assert!(
        browser
            .text("p.status")
            .await
            .starts_with("Move 1 of 3: Black played c3"),
    );
    let before = browser.url().await;
    press(&browser, Key::Left).await;
    arrived(&browser, &before).await;
    assert!(
        browser
            .text("p.status")
            .await
            .starts_with("The start of the game, before move 1 of 3")
    );
    // At the start there is no turn before: Left stays.
    let before = browser.url().await;
    assert_eq!(
        press_watching(&browser, Key::Left).await,
        "stayed",
        "nothing before the start"
    );
    assert_eq!(browser.url().await, before, "nothing before the start");
    // Right steps on, to the game as it stands.
    for expected in [
        "Move 1 of 3: Black played c3",
        "Move 2 of 3: White played b2",
        "White to play",
    ] {
        let before = browser.url().await;
        press(&browser, Key::Right).await;
        arrived(&browser, &before).await;
        let status = browser.text("p.status").await;
        assert!(status.starts_with(expected), "{status}");
    }
    assert!(!browser.url().await.contains("at="));
    // On the board the arrow keys move between its points, and the page stays.
    browser
        .client
        .execute(
            "document.querySelector('svg.herfor button.move').focus();",
            vec![],
        )
        .await
        .expect("a script runs");
    let before = browser.url().await;
    assert_eq!(
        press_watching(&browser, Key::Left).await,
        "stayed",
        "the board keeps its arrows"
    );
    assert_eq!(browser.url().await, before, "the board keeps its arrows");
    let focused = browser
        .client
        .execute(
            "return !!document.activeElement.closest('svg.board');",
            vec![],
        )
        .await
        .expect("a script runs");
    assert_eq!(
        focused.as_bool(),
        Some(true),
        "the focus stays on the board"
    );
    browser.finish().await;
}
