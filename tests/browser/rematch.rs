//! A rematch in two browsers (two profiles, two cookie jars): a friend table played to its end
//! (a resignation), the winner offers a rematch on its own seat's page, the other player's page
//! shows the offer by itself (live, from its player's feed), the other accepts, and both pages
//! land on the rematch, colours swapped; axe finds nothing serious on the finished seat's page.

use std::time::{Duration, Instant};

use fantoccini::Locator;

use crate::a11y::{axe_source, violations};
use crate::harness::{Browser, ONE_AT_A_TIME};
use crate::your_games::open_table;

/// The id in a table page's URL (`/table/{id}/…`).
fn table_of(url: &str) -> String {
    url.split("/table/")
        .nth(1)
        .and_then(|rest| rest.split(['/', '#', '?']).next())
        .unwrap_or_else(|| panic!("{url} is a table's page"))
        .to_owned()
}

/// Waits until `browser`'s page is at a URL for which `arrived` holds, and ready there: what
/// the URL is.
async fn wait_for_url(browser: &Browser, arrived: impl Fn(&str) -> bool, what: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let url = browser.url().await;
        if arrived(&url) {
            browser.wait_for_page().await;
            return url;
        }
        assert!(Instant::now() < deadline, "{what}: still at {url}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the page shows `words` in its rematch section.
async fn wait_for_rematch(browser: &Browser, words: &str, who: &str) {
    wait_for_section(browser, "rematch", words, who).await
}

/// Waits until the page shows `words` in its `section` of that class (`rematch`, `takeback`).
pub async fn wait_for_section(browser: &Browser, section: &str, words: &str, who: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let shown = browser
            .client
            .execute(
                "var s = document.querySelector('section.' + arguments[0]); \
                 return s ? s.textContent : '';",
                vec![serde_json::json!(section)],
            )
            .await
            .expect("a script runs");
        let shown = shown.as_str().unwrap_or_default().to_owned();
        if shown.contains(words) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{who}: wanted {words:?}, saw {shown:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Presses the rematch's button `words`, brought to the middle of the window first, and waits
/// for the next page.
async fn press(browser: &Browser, words: &str) {
    press_in(browser, "rematch", words).await
}

/// Presses the button `words` of the page's `section` of that class, brought to the middle of
/// the window first, and waits for the next page.
pub async fn press_in(browser: &Browser, section: &str, words: &str) {
    let button = format!("//section[@class='{section}']//button[.='{words}']");
    let found = browser
        .client
        .find(Locator::XPath(&button))
        .await
        .unwrap_or_else(|e| panic!("{words} is on the page: {e}"));
    browser
        .client
        .execute(
            "arguments[0].scrollIntoView({block: 'center'});",
            vec![serde_json::to_value(&found).expect("an element")],
        )
        .await
        .expect("a script runs");
    browser.click_to_next_page(Locator::XPath(&button)).await;
}

#[actix_web::test]
async fn a_rematch_offered_in_one_browser_is_seen_live_and_accepted_in_the_other() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (ana, bo) = Browser::two_with_tables("rematch").await;
    let axe = axe_source();
    let theirs = open_table(&ana).await;
    let id = table_of(&theirs);
    // Bo opens the link Ana sent (his browser's player takes the seat) and resigns at once.
    bo.open(&format!("/table/{id}/mine")).await;
    assert!(bo.url().await.contains("/mine"), "{}", bo.url().await);
    bo.open(&theirs).await;
    bo.open(&format!("/table/{id}/mine")).await;
    bo.client
        .find(Locator::Css("details.resign:not(.abort) summary"))
        .await
        .expect("Resign…")
        .click()
        .await
        .expect("Resign… opens");
    bo.click_to_next_page(Locator::Css("details.resign:not(.abort) button"))
        .await;
    assert!(bo.text("p.status").await.starts_with("Game over"));

    // Ana, on her own seat's page, offers a rematch; Bo's open page shows it by itself.
    ana.open(&format!("/table/{id}/mine")).await;
    ana.wait_for_styles().await;
    press(&ana, "Offer a rematch").await;
    wait_for_rematch(&ana, "You offered a rematch", "Ana").await;
    let serious: Vec<String> = violations(&ana, &axe)
        .await
        .into_iter()
        .filter_map(|(serious, line)| serious.then_some(line))
        .collect();
    assert!(
        serious.is_empty(),
        "axe on the finished seat's page, its offer standing: {serious:#?}"
    );
    wait_for_rematch(&bo, "offers a rematch", "Bo").await;
    bo.screenshot("rematch-offered").await;

    // Bo accepts: his page opens the rematch, and Ana's follows by itself.
    press(&bo, "Accept the rematch").await;
    let bo_at = wait_for_url(&bo, |url| !url.contains(&id), "Bo on the rematch").await;
    let rematch = table_of(&bo_at);
    let ana_at = wait_for_url(
        &ana,
        |url| url.contains(&format!("/table/{rematch}/mine")),
        "Ana follows to the rematch",
    )
    .await;
    assert!(ana_at.contains(&rematch));
    // Colours swapped: Ana moved first before, Bo now.
    assert!(
        bo.text("div.table-seats")
            .await
            .contains("You sit in the first seat"),
        "{}",
        bo.text("div.table-seats").await
    );
    assert!(
        ana.text("div.table-seats")
            .await
            .contains("You sit in the second seat"),
        "{}",
        ana.text("div.table-seats").await
    );
    ana.screenshot("rematch-opened").await;
    ana.finish().await;
}
