//! The move sound: off by default, a pressed toggle when on, remembered across pages, and the
//! page makes an AudioContext only when it is on (the page's root tells: `data-audio`).

use std::time::{Duration, Instant};

use fantoccini::Locator;

use crate::harness::{Browser, ONE_AT_A_TIME};

async fn state(browser: &Browser) -> (String, String, String) {
    let found = browser
        .client
        .execute(
            "var b = document.getElementById('sound'); var r = document.documentElement; \
             return [b && !b.hidden ? b.getAttribute('aria-pressed') : 'not shown', \
                     r.getAttribute('data-audio') || 'none', r.getAttribute('data-sounds') || '0'];",
            vec![],
        )
        .await
        .expect("a script runs");
    let at = |i: usize| found[i].as_str().unwrap_or_default().to_owned();
    (at(0), at(1), at(2))
}

/// Waits until the control's state (see [`state`]) is one `wanted` accepts, as a click's
/// effects (an AudioContext's state among them) may come a moment after it; fails after 10 s
/// saying `what` and what the state was.
async fn wait_for(
    browser: &Browser,
    wanted: impl Fn(&(String, String, String)) -> bool,
    what: &str,
) -> (String, String, String) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let seen = state(browser).await;
        if wanted(&seen) {
            return seen;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: the control stayed {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the control's state is exactly `(pressed, audio, sounds)`.
async fn wait_for_exactly(
    browser: &Browser,
    (pressed, audio, sounds): (&str, &str, &str),
    what: &str,
) {
    wait_for(
        browser,
        |(p, a, s)| p == pressed && a == audio && s == sounds,
        &format!("{what} (wanted {:?})", (pressed, audio, sounds)),
    )
    .await;
}

#[actix_web::test]
async fn the_move_sound_is_off_by_default_remembered_and_sounds_only_when_on() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("sound").await;
    browser
        .open("/play/herfor?size=3&pie=false&computer=second&strength=easy&moves=")
        .await;
    wait_for_exactly(&browser, ("false", "none", "0"), "off by default").await;
    browser
        .click_to_next_page(Locator::Css("svg.herfor button.move"))
        .await;
    assert!(browser.url().await.ends_with("#turn"));
    wait_for_exactly(
        &browser,
        ("false", "none", "0"),
        "off: the computer's answer makes no AudioContext",
    )
    .await;
    // Turned on: the press sounds a click.
    browser.tap(Locator::Css("#sound")).await;
    wait_for_exactly(
        &browser,
        ("true", "running", "1"),
        "turned on, a click sounds",
    )
    .await;
    // Remembered: the next move's page is on, and sounds the computer's answer.
    browser
        .click_to_next_page(Locator::Css("svg.herfor button.move"))
        .await;
    wait_for(
        &browser,
        |(pressed, audio, _)| pressed == "true" && audio != "none",
        "on: the page with the answer sounds it",
    )
    .await;
    browser.reload().await;
    wait_for(
        &browser,
        |(pressed, ..)| pressed == "true",
        "remembered across a reload",
    )
    .await;
    // Off again, and remembered off.
    browser.tap(Locator::Css("#sound")).await;
    wait_for(&browser, |(pressed, ..)| pressed == "false", "turned off").await;
    browser.reload().await;
    wait_for_exactly(&browser, ("false", "none", "0"), "remembered off").await;
    browser.finish().await;
}

#[actix_web::test]
async fn without_the_script_the_sound_toggle_is_not_shown() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start_without_script("sound-plain").await;
    browser
        .open("/play/herfor?size=3&pie=false&computer=&moves=c3")
        .await;
    let shown = browser
        .client
        .find(Locator::Css("#sound"))
        .await
        .expect("the toggle is in the page")
        .is_displayed()
        .await
        .expect("its display");
    assert!(
        !shown,
        "a toggle that does nothing without the script is hidden"
    );
    browser.finish().await;
}
