//! The move sound: off by default, a pressed toggle when on, remembered across pages, and the
//! page makes an AudioContext only when it is on (the page's root tells: `data-audio`).

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

#[actix_web::test]
async fn the_move_sound_is_off_by_default_remembered_and_sounds_only_when_on() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("sound").await;
    browser
        .open("/play/herfor?size=3&pie=false&computer=second&strength=easy&moves=")
        .await;
    assert_eq!(
        state(&browser).await,
        ("false".to_owned(), "none".to_owned(), "0".to_owned())
    );
    browser
        .click_to_next_page(Locator::Css("svg.herfor button.move"))
        .await;
    assert!(browser.url().await.ends_with("#turn"));
    assert_eq!(
        state(&browser).await,
        ("false".to_owned(), "none".to_owned(), "0".to_owned()),
        "off: the computer's answer makes no AudioContext"
    );
    // Turned on: the press sounds a click.
    browser.tap(Locator::Css("#sound")).await;
    assert_eq!(
        state(&browser).await,
        ("true".to_owned(), "running".to_owned(), "1".to_owned())
    );
    // Remembered: the next move's page is on, and sounds the computer's answer.
    browser
        .click_to_next_page(Locator::Css("svg.herfor button.move"))
        .await;
    let (pressed, audio, _) = state(&browser).await;
    assert_eq!(pressed, "true");
    assert_ne!(audio, "none", "on: the page with the answer sounds it");
    browser.client.refresh().await.expect("a reload");
    assert_eq!(
        state(&browser).await.0,
        "true",
        "remembered across a reload"
    );
    // Off again, and remembered off.
    browser.tap(Locator::Css("#sound")).await;
    assert_eq!(state(&browser).await.0, "false");
    browser.client.refresh().await.expect("a reload");
    assert_eq!(
        state(&browser).await,
        ("false".to_owned(), "none".to_owned(), "0".to_owned())
    );
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
