//! The home page and the options pages on a phone: the first way to play, and "Play a friend",
//! are on the first screen.

use fantoccini::Locator;

use crate::fit::{PHONE, SMALL_PHONE};
use crate::harness::{Browser, ONE_AT_A_TIME};

/// The bottom of the first element `css` matches, and the viewport's height.
async fn bottom(browser: &Browser, css: &str) -> (f64, f64) {
    let found = browser
        .client
        .execute(
            "var e = document.querySelector(arguments[0]); \
             return [e ? e.getBoundingClientRect().bottom + window.scrollY : -1, window.innerHeight];",
            vec![serde_json::json!(css)],
        )
        .await
        .expect("a script runs");
    (
        found[0].as_f64().unwrap_or(-1.0),
        found[1].as_f64().unwrap_or(0.0),
    )
}

async fn on_first_screen(browser: &Browser, css: &str, page: &str) {
    let (bottom, height) = bottom(browser, css).await;
    assert!(bottom > 0.0, "{css} is on {page}");
    assert!(
        bottom <= height,
        "{css} on {page} ends at {bottom}px, below the first screen ({height}px)"
    );
}

#[actix_web::test]
async fn on_a_phone_home_and_the_options_pages_offer_the_computer_and_a_friend_on_the_first_screen()
{
    let _one = ONE_AT_A_TIME.lock().await;
    let browsers = Browser::with_tables("home", &[true]).await;
    let browser = &browsers[0];
    for size in [SMALL_PHONE, PHONE] {
        browser.set_viewport(size).await;
        browser.open("/").await;
        browser.wait_for_styles().await;
        let intro = browser.text("section.intro p").await;
        assert!(
            intro.contains("against the computer") && intro.contains("a friend far away"),
            "{intro}"
        );
        if size == SMALL_PHONE {
            browser.screenshot("home-360").await;
        }
        on_first_screen(browser, "article.game p.links a.button", "home").await;
        on_first_screen(
            browser,
            r#"article.game p.links a[href$="/friend"]"#,
            "home",
        )
        .await;
        if size == SMALL_PHONE {
            browser.screenshot("home-360").await;
        }
        for game in ["herfor", "tara", "hirth"] {
            browser.open(&format!("/play/{game}")).await;
            browser.wait_for_styles().await;
            let page = format!("the {game} options at {}", size.0);
            if size == SMALL_PHONE {
                browser.screenshot(&format!("options-{game}-360")).await;
            }
            on_first_screen(browser, "div.start button[formaction]", &page).await;
            let widths = browser
                .client
                .execute(
                    "const root = document.documentElement; return [root.scrollWidth, root.clientWidth];",
                    vec![],
                )
                .await
                .expect("a script runs");
            assert!(
                widths[0].as_f64() <= widths[1].as_f64(),
                "{page} scrolls sideways: {widths:?}"
            );
        }
    }
    // Home's "Play a friend" opens the friend page at the game's defaults.
    browser.open("/").await;
    browser
        .click_to_next_page(Locator::Css(r#"#herfor a[href="/play/herfor/friend"]"#))
        .await;
    assert_eq!(browser.text("h1").await, "Play Herfor with a friend");
    for browser in browsers {
        browser.finish().await;
    }
}
