//! A kept table's page as its players and spectators see it: the clock counts down, the reload
//! link shows only where it helps, and the page that reloads itself on the opponent's move
//! opens at the status line.

use std::time::{Duration, Instant};

use fantoccini::Locator;
use serde_json::Value;

use crate::fit::{PHONE, SMALL_PHONE};
use crate::harness::{Browser, ONE_AT_A_TIME};

async fn run(browser: &Browser, script: &str) -> Value {
    browser
        .client
        .execute(script, vec![])
        .await
        .expect("a script runs")
}

/// The value of a read-only link field on the new table's page, as a path.
async fn link(browser: &Browser, id: &str) -> String {
    let url = browser
        .client
        .find(Locator::Css(&format!("#{id}")))
        .await
        .unwrap_or_else(|e| panic!("#{id}: {e}"))
        .prop("value")
        .await
        .expect("its value")
        .expect("a link");
    url.strip_prefix(&browser.base)
        .unwrap_or_else(|| panic!("{url} is on {}", browser.base))
        .to_owned()
}

/// The reload link: `none` when the page has none, else whether it shows.
async fn reload_link(browser: &Browser) -> String {
    run(
        browser,
        "var a = document.querySelector('div.table-seats a.reload'); \
         return !a ? 'none' : a.getClientRects().length > 0 ? 'shown: ' + a.textContent : 'hidden';",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

async fn countdown(browser: &Browser) -> String {
    browser.text("p.clock .countdown").await
}

/// Waits until the countdown reads other than `before`, and returns it.
async fn countdown_after(browser: &Browser, before: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = countdown(browser).await;
        if now != before {
            return now;
        }
        assert!(
            Instant::now() < deadline,
            "the countdown stayed at {before}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The ply the seat's form would send: it changes with every move committed.
async fn ply(browser: &Browser) -> String {
    run(
        browser,
        "var f = document.querySelector('input[name=ply]'); return f ? f.value : '';",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

#[actix_web::test]
async fn a_tables_clock_counts_down_the_reload_link_shows_only_where_it_helps_and_a_move_lands_on_the_status()
 {
    let _one = ONE_AT_A_TIME.lock().await;
    let browsers = Browser::with_tables("table-page", &[true, true, false]).await;
    let [black, white, plain] = &browsers[..] else {
        unreachable!("three browsers")
    };
    // Black opens a Herfor table (the friend page's clock: 3 days per move).
    black.open("/play/herfor?size=5&pie=false&computer=").await;
    black
        .click_to_next_page(Locator::Css("div.start button[formaction]"))
        .await;
    black
        .click_to_next_page(Locator::Css("form.options button[type=submit]"))
        .await;
    let (mine, theirs, watch) = (
        link(black, "your-link").await,
        link(black, "their-link").await,
        link(black, "watch-link").await,
    );

    // Black's own turn: no reload link; the clock counts down Black's 3 days.
    black.open(&mine).await;
    assert_eq!(reload_link(black).await, "none", "one's own turn");
    // Seconds are rounded up: a moment after opening, all three days are left.
    assert_eq!(countdown(black).await, "3 d 0 h left");
    let clock = black.text("p.clock").await;
    assert!(
        clock.starts_with("3 days per move: 3 d 0 h left for your move, due by "),
        "{clock}"
    );
    let when = black
        .client
        .find(Locator::Css("p.clock time"))
        .await
        .expect("the deadline")
        .attr("datetime")
        .await
        .expect("its attribute")
        .expect("a datetime");
    assert!(
        when.len() == "2026-12-05T15:00:00Z".len() && when.ends_with('Z'),
        "{when}"
    );
    assert!(
        !clock.ends_with("UTC."),
        "the script writes the deadline in the viewer's time: {clock}"
    );
    // The clock follows the viewer's clock's pace: two days on, one day is left, then minutes
    // and seconds.
    run(
        black,
        "var real = Date.now; window.shift = 0; Date.now = function () { return real() + window.shift; }; \
         window.shift = 2 * 86400e3;",
    )
    .await;
    assert_eq!(
        countdown_after(black, "3 d 0 h left").await,
        "23 h 59 min left"
    );
    run(black, "window.shift = 3 * 86400e3 - 30 * 60e3;").await;
    let minutes = countdown_after(black, "23 h 59 min left").await;
    assert!(
        minutes.starts_with("29 min ") && minutes.ends_with(" s left"),
        "{minutes}"
    );
    let seconds = countdown_after(black, &minutes).await;
    assert!(
        seconds.starts_with("29 min ") && seconds != minutes,
        "ticking by the second: {seconds}"
    );

    // White waits for Black: with live updates the reload link is hidden, without the
    // script it shows.
    white.set_viewport(SMALL_PHONE).await;
    white.open(&theirs).await;
    white.wait_for_styles().await;
    assert_eq!(reload_link(white).await, "hidden", "live updates are on");
    plain.open(&theirs).await;
    assert_eq!(
        reload_link(plain).await,
        "shown: Reload to see the opponent's move",
        "without the script, while waiting"
    );
    assert!(
        plain.text("p.clock").await.ends_with(" UTC."),
        "without the script the deadline stays in words"
    );
    plain.open(&watch).await;
    assert_eq!(reload_link(plain).await, "none", "spectators");
    assert_eq!(
        plain.text("p.clock").await,
        format!(
            "3 days per move: 2 d 23 h left for the first player's move, due by {}.",
            plain.text("p.clock time").await
        )
    );

    // Black moves: White's page reloads itself and opens with the status line at the top of
    // the screen, the board under it.
    run(white, "window.scrollTo(0, 0);").await;
    let before = ply(white).await;
    black
        .click_to_next_page(Locator::Css("svg.herfor button.move"))
        .await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while ply(white).await == before {
        assert!(Instant::now() < deadline, "White's page did not follow");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Ready once it has landed: its load handler is the last place it lands.
    white.wait_for_page().await;
    let landed = run(
        white,
        "var r = document.getElementById('turn').getBoundingClientRect(); \
         return [window.scrollY, r.top, r.bottom, window.innerHeight];",
    )
    .await;
    let at = |i: usize| landed[i].as_f64().unwrap_or(f64::NAN);
    assert!(
        at(0) > 0.0 && at(1).abs() < 2.0 && at(2) <= at(3),
        "the status line is at the top of the screen: {landed}"
    );
    assert!(white.text("p.status").await.starts_with("You ("));
    assert_eq!(reload_link(white).await, "none", "White's own turn now");

    white.set_viewport(PHONE).await;
    run(
        white,
        "document.getElementById('turn').scrollIntoView({ block: 'start' });",
    )
    .await;
    black.set_viewport(PHONE).await;
    black.open(&mine).await;
    black.wait_for_styles().await;
    run(
        black,
        "document.querySelector('div.table-seats').scrollIntoView({ block: 'center' });",
    )
    .await;
    black.screenshot("table-countdown-390").await;
    for browser in browsers {
        browser.finish().await;
    }
}
