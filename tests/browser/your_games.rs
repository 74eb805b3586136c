//! "Your games" in two browsers (two profiles, two cookie jars) playing friend tables, at a
//! phone's size and a desktop's: each finds the table on its own "Your games"; the one whose
//! turn it is sees the header's count and a dot on the tab's icon, and both move to the other
//! browser, live, after a move; axe finds nothing serious on "Your games".

use std::time::{Duration, Instant};

use fantoccini::Locator;
use serde_json::Value;

use crate::a11y::{axe_source, violations};
use crate::harness::{Browser, ONE_AT_A_TIME};

/// A phone's viewport and a desktop's.
const SIZES: [(u32, u32); 2] = [(390, 844), (1280, 800)];

/// What a script answers in the open page, as text.
pub async fn script(browser: &Browser, code: &str) -> String {
    match browser
        .client
        .execute(code, vec![])
        .await
        .expect("a script runs")
    {
        Value::String(text) => text,
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The header link's words (empty without one) and whether the tab's icon has its dot.
async fn count_and_badge(browser: &Browser) -> (String, String) {
    let words = script(
        browser,
        "var a = document.querySelector('a.your-games-link'); return a ? a.textContent : '';",
    )
    .await;
    let badge = script(
        browser,
        "return document.documentElement.getAttribute('data-badge') || '';",
    )
    .await;
    (words, badge)
}

/// Waits until the header shows `words` and the icon's dot is `badge` (`on`/`off`).
async fn wait_for(browser: &Browser, words: &str, badge: &str, who: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let seen = count_and_badge(browser).await;
        if seen.0 == words && seen.1 == badge {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{who}: wanted {words:?} with the dot {badge}, saw {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The header's words for `n` tables awaiting the browser's player.
fn words(n: usize) -> String {
    if n == 0 {
        "Your games".to_owned()
    } else {
        format!("Your games ({n})")
    }
}

/// Opens a Herfor size-3 table for a friend in `creator`'s browser: the friend's link's path.
pub async fn open_table(creator: &Browser) -> String {
    creator
        .open("/play/herfor/friend?size=3&pie=false&simple=false&moves=")
        .await;
    creator
        .click_to_next_page(Locator::Css("form.options button[type=submit]"))
        .await;
    let theirs = creator
        .client
        .find(Locator::Css("#their-link"))
        .await
        .expect("the friend's link")
        .prop("value")
        .await
        .expect("its value")
        .expect("a link");
    theirs
        .strip_prefix(&creator.base)
        .unwrap_or_else(|| panic!("{theirs} is on the app"))
        .to_owned()
}

#[actix_web::test]
async fn two_browsers_find_their_table_on_your_games_and_the_count_and_badge_follow_the_turn() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (ana, bo) = Browser::two_with_tables("your-games").await;
    let axe = axe_source();
    for (round, size) in SIZES.into_iter().enumerate() {
        ana.set_viewport(size).await;
        bo.set_viewport(size).await;
        let theirs = open_table(&ana).await;
        // Bo opens the link Ana sent: his browser's player takes the seat.
        bo.open(&theirs).await;
        bo.open("/your-games").await;
        let listed = bo.text("#your-games-list").await;
        assert!(listed.contains("Herfor against your friend"), "{listed}");
        // Bo waits at every table so far but his earlier ones.
        wait_for(
            &bo,
            &words(round),
            if round > 0 { "on" } else { "off" },
            "Bo",
        )
        .await;

        // Ana's turn at the new table: the count and the dot.
        ana.open("/your-games").await;
        ana.wait_for_styles().await;
        let listed = ana.text("#your-games-list").await;
        assert!(listed.contains("Herfor against your friend"), "{listed}");
        assert!(listed.contains("Your turn"), "{listed}");
        wait_for(&ana, &words(1), "on", "Ana").await;
        let overflow = script(
            &ana,
            "return String(document.documentElement.scrollWidth - window.innerWidth);",
        )
        .await;
        assert_eq!(
            overflow, "0",
            "{size:?}: the page is no wider than the screen"
        );
        ana.screenshot(&format!("your-games-{}", size.0)).await;
        let serious: Vec<String> = violations(&ana, &axe)
            .await
            .into_iter()
            .filter_map(|(serious, line)| serious.then_some(line))
            .collect();
        assert!(serious.is_empty(), "{size:?}: {serious:#?}");

        // Ana plays from her own seat's page, reached from the list (no credential in it).
        let first = ana
            .client
            .find(Locator::Css("ul.your-games li.turn h2 a"))
            .await
            .expect("the table awaiting Ana");
        let href = first.attr("href").await.expect("its link").expect("a link");
        assert!(href.ends_with("/mine"), "{href}");
        ana.click_to_next_page(Locator::Css("ul.your-games li.turn h2 a"))
            .await;
        ana.wait_for_styles().await;
        let ply = "var f = document.querySelector('input[name=ply]'); return f ? f.value : '';";
        let before = script(&ana, ply).await;
        ana.client
            .find(Locator::Css("svg.herfor button.move"))
            .await
            .expect("a move offered")
            .click()
            .await
            .expect("the click lands");
        let deadline = Instant::now() + Duration::from_secs(20);
        while script(&ana, ply).await == before {
            assert!(Instant::now() < deadline, "Ana's move was not played");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // The turn moves to Bo: his open "Your games" follows, and Ana's dot goes.
        wait_for(&bo, &words(round + 1), "on", "Bo after Ana's move").await;
        wait_for(&ana, &words(0), "off", "Ana after her move").await;
        let listed = bo.text("#your-games-list").await;
        assert!(listed.contains("Your turn"), "{listed}");
        // Every table's clock on the list read anew counts down in Bo's own time.
        let clocks = bo.count("ul.your-games p.clock time").await;
        assert_eq!(clocks, round + 1, "{listed}");
        assert_eq!(bo.count("ul.your-games p.clock time[title]").await, clocks);
    }
    ana.finish().await;
    bo.finish().await;
}
