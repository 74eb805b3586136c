//! "Find an opponent" in Chromium: one browser offers a game on `/challenges`, another finds it
//! there and plays it, and both reach the same table (the first page moving on by itself); the
//! list, the form, the challenge's page and the friend page's offer have no serious
//! accessibility violation (axe).

use fantoccini::Locator;

use crate::a11y::{axe_source, violations};
use crate::harness::{Browser, ONE_AT_A_TIME};

/// axe's serious and critical violations on `browser`'s page.
async fn serious(browser: &Browser, axe: &str) -> Vec<String> {
    violations(browser, axe)
        .await
        .into_iter()
        .filter_map(|(serious, line)| serious.then_some(line))
        .collect()
}

/// The path of `browser`'s page.
pub async fn path(browser: &Browser) -> String {
    let url = browser.url().await;
    url.strip_prefix(&browser.base)
        .unwrap_or_else(|| panic!("{url} is on the app"))
        .to_owned()
}

#[actix_web::test]
async fn two_browsers_meet_through_find_an_opponent_and_reach_the_same_table() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (ana, bo) = Browser::two_with_tables("challenges").await;
    let axe = axe_source();

    // The friend page's "Offer it to anyone" form is clean too.
    ana.open("/play/tara/friend").await;
    ana.wait_for_styles().await;
    let friend = serious(&ana, &axe).await;
    assert!(friend.is_empty(), "the friend page: {friend:#?}");

    // Ana offers Tara with a 3-day clock, from the home page's link.
    ana.open("/").await;
    ana.click_to_next_page(Locator::Css(r#"a[href="/challenges"]"#))
        .await;
    ana.wait_for_styles().await;
    let list = serious(&ana, &axe).await;
    assert!(list.is_empty(), "the list: {list:#?}");
    for choice in [
        r#"select[name="game"] option[value="tara"]"#,
        r#"select[name="days_per_move"] option[value="3"]"#,
    ] {
        ana.tap(Locator::Css(choice)).await;
    }
    ana.client
        .find(Locator::Css("input#name"))
        .await
        .expect("the name field")
        .send_keys("Ana")
        .await
        .expect("the name typed");
    ana.click_to_next_page(Locator::Css("form.challenge-form button[type=submit]"))
        .await;
    ana.wait_for_styles().await;
    let challenge = path(&ana).await;
    assert!(challenge.starts_with("/challenges/"), "{challenge}");
    let waiting = ana.text("p.status").await;
    assert!(waiting.contains("Waiting for an opponent"), "{waiting}");
    let page = serious(&ana, &axe).await;
    assert!(page.is_empty(), "the challenge's page: {page:#?}");

    // Bo finds it on the list and plays it: he lands on his seat.
    bo.open("/challenges").await;
    let listed = bo.text("ul.challenges").await;
    assert!(listed.contains("Tara with Ana"), "{listed}");
    bo.click_to_next_page(Locator::Css("ul.challenges form button[type=submit]"))
        .await;
    let seat = path(&bo).await;
    assert!(
        seat.starts_with("/table/") && seat.ends_with("/mine"),
        "{seat}"
    );

    // Ana's page, left open, moves on by itself (her feed tells it the challenge was
    // accepted) to the same table.
    let mut at = path(&ana).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while at == challenge {
        assert!(
            std::time::Instant::now() < deadline,
            "Ana stayed on {challenge}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        at = path(&ana).await;
    }
    assert_eq!(at, seat, "both players at one table");
    ana.finish().await;
    bo.finish().await;
}
