//! Refused taps say why, by rule, in the turn's bar that stays on screen; the page of a new
//! friend's table offers the friend's link first, to share or copy.

use fantoccini::Locator;
use serde_json::Value;

use crate::a11y::{axe_source, violations};
use crate::harness::{Browser, ONE_AT_A_TIME};

/// Fails on any serious or critical axe violation of the page as it is now.
async fn no_serious_violation(browser: &Browser, axe: &str, what: &str) {
    let serious: Vec<String> = violations(browser, axe)
        .await
        .into_iter()
        .filter(|(serious, _)| *serious)
        .map(|(_, line)| line)
        .collect();
    assert!(serious.is_empty(), "{what}: {serious:#?}");
}

const PHONE: (u32, u32) = (360, 740);
const DESKTOP: (u32, u32) = (1280, 800);

/// What the turn's bar says after a tap: its words, the rule link's address and words, and
/// whether the bar is inside the window.
async fn bar(browser: &Browser) -> (String, String, String, bool) {
    let seen = browser
        .client
        .execute(
            "const bar = document.getElementById('why'); \
             if (!bar) return ['', '', '', false]; \
             const link = bar.querySelector('a'); \
             const r = bar.getBoundingClientRect(); \
             return [bar.textContent, link ? link.getAttribute('href') : '', \
                     link ? link.textContent : '', \
                     r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight \
                       && !!bar.closest('div.turn')];",
            vec![],
        )
        .await
        .expect("a script runs");
    let text = |i: usize| seen[i].as_str().unwrap_or_default().to_owned();
    (text(0), text(1), text(2), seen[3] == Value::Bool(true))
}

/// Scrolls the spot into the middle of the window and taps it, as a finger does.
async fn tap_spot(browser: &Browser, css: &str) {
    browser
        .client
        .execute(
            &format!("document.querySelector({css:?}).scrollIntoView({{block: 'center'}});"),
            vec![],
        )
        .await
        .expect("a script runs");
    browser.tap(Locator::Css(css)).await;
}

#[actix_web::test]
async fn a_refused_tap_says_why_in_the_bar_on_screen_with_a_link_to_the_rule() {
    let axe = axe_source();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("refusals").await;
    for size in [PHONE, DESKTOP] {
        let wide = size.0;
        browser.set_viewport(size).await;

        // Herfor: a point taken, and a point touching the mover's own colour (F3).
        browser
            .open("/play/herfor?size=5&pie=false&moves=c3.a1")
            .await;
        browser.wait_for_styles().await;
        tap_spot(&browser, r#"#board g.point[data-point="a1"]"#).await;
        let (words, href, rule, shown) = bar(&browser).await;
        assert!(
            words.starts_with("a1 already holds a white stone."),
            "{words}"
        );
        assert_eq!(
            (href.as_str(), rule.as_str()),
            ("/rules/herfor#F3", "Rule F3: A turn")
        );
        assert!(shown, "the bar is on screen at {wide} px");
        tap_spot(&browser, r#"#board g.point[data-point="c2"]"#).await;
        let (words, href, _, shown) = bar(&browser).await;
        assert!(
            words.starts_with("c2 touches a black stone and forms no invading phalanx"),
            "{words}"
        );
        assert_eq!(href, "/rules/herfor#F3");
        assert!(shown, "the bar is on screen at {wide} px");
        browser.screenshot(&format!("refusal-herfor-{wide}")).await;
        no_serious_violation(&browser, &axe, &format!("herfor's refusal at {wide} px")).await;

        // Tara: in setup a taken hill (T3); then a hill no king reaches (T4).
        browser.open("/play/tara?moves=D4").await;
        browser.wait_for_styles().await;
        tap_spot(&browser, r#"#board g.hill[data-hill="D4"]"#).await;
        let (words, href, rule, shown) = bar(&browser).await;
        assert!(words.starts_with("D4 already holds a ringfort."), "{words}");
        assert_eq!(
            (href.as_str(), rule.as_str()),
            ("/rules/tara#T3", "Rule T3: Setup")
        );
        assert!(shown, "the bar is on screen at {wide} px");
        browser
            .open(&format!(
                "/play/tara?moves={}",
                crate::smalls::tara_until_a_king_can_step().join(".")
            ))
            .await;
        browser.wait_for_styles().await;
        let far = browser
            .client
            .execute(
                "const h = [...document.querySelectorAll('#board g.hill[data-why]')] \
                   .find(h => h.dataset.why.startsWith('No ')); return h ? h.dataset.hill : null;",
                vec![],
            )
            .await
            .expect("a script runs");
        let far = far.as_str().expect("a hill no king reaches").to_owned();
        tap_spot(&browser, &format!(r#"#board g.hill[data-hill="{far}"]"#)).await;
        let (words, href, rule, shown) = bar(&browser).await;
        assert!(
            words.contains(&format!(
                "king is a knight's move (two hills one way, one the other) from {far}."
            )),
            "{words}"
        );
        assert_eq!(
            (href.as_str(), rule.as_str()),
            ("/rules/tara#T4", "Rule T4: Moving")
        );
        assert!(shown, "the bar is on screen at {wide} px");
        browser.screenshot(&format!("refusal-tara-{wide}")).await;

        // Hirþ: a space with no piece near (H3); the Lofðungr stopped on 1 (H4).
        browser.open("/play/hirth?target=1&moves=L01").await;
        browser.wait_for_styles().await;
        tap_spot(&browser, r#"#board g.space[data-space="5"]"#).await;
        let (words, href, _, shown) = bar(&browser).await;
        assert!(
            words.starts_with("Gull has no piece on 5 or next to it"),
            "{words}"
        );
        assert_eq!(href, "/rules/hirth#H3");
        assert!(shown, "the bar is on screen at {wide} px");
        tap_spot(&browser, r#"#board g.space[data-space="1"]"#).await;
        let (words, href, rule, shown) = bar(&browser).await;
        assert!(
            words.starts_with("The Lofðungr on 1 has stopped this turn"),
            "{words}"
        );
        assert_eq!(
            (href.as_str(), rule.as_str()),
            ("/rules/hirth#H4", "Rule H4: Control and stopping")
        );
        assert!(shown, "the bar is on screen at {wide} px");
        browser.screenshot(&format!("refusal-hirth-{wide}")).await;
        no_serious_violation(&browser, &axe, &format!("hirth's refusal at {wide} px")).await;

        // The rule's link opens the rule on the rules page.
        browser.click_to_next_page(Locator::Css("#why a")).await;
        assert!(browser.url().await.ends_with("/rules/hirth#H4"));
        assert_eq!(browser.count("article.rules h3#H4").await, 1);
    }
    browser.finish().await;
}

/// The friend page's form, filled with both names and sent: the new table's page.
async fn open_table(browser: &Browser) {
    browser
        .open("/play/herfor/friend?size=3&pie=false&simple=false&moves=")
        .await;
    for (css, name) in [("#option-name", "Ana"), ("#option-friend", "Bo")] {
        browser
            .client
            .find(Locator::Css(css))
            .await
            .expect("the name's field")
            .send_keys(name)
            .await
            .expect("the name is typed");
    }
    browser
        .click_to_next_page(Locator::Css("form.options button[type=submit]"))
        .await;
}

/// The new table's links and buttons as shown: each link field's id and whole text, in page
/// order, and the shown buttons as `data-… id`.
async fn links_and_buttons(browser: &Browser) -> (Vec<(String, String)>, Vec<String>) {
    let seen = browser
        .client
        .execute(
            "return [[...document.querySelectorAll('textarea.link')].map(t => [t.id, t.value]), \
                     [...document.querySelectorAll('p.link-buttons button')] \
                       .filter(b => b.getClientRects().length > 0) \
                       .map(b => (b.dataset.share ? 'share ' + b.dataset.share : 'copy ' + b.dataset.copy))];",
            vec![],
        )
        .await
        .expect("a script runs");
    (
        serde_json::from_value(seen[0].clone()).expect("the links"),
        serde_json::from_value(seen[1].clone()).expect("the buttons"),
    )
}

#[actix_web::test]
async fn the_table_ready_page_lists_the_friends_link_first_to_share_or_copy() {
    let axe = axe_source();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::one_with_tables("table-ready", true).await;
    browser.set_viewport(PHONE).await;
    open_table(&browser).await;
    browser.wait_for_styles().await;
    assert_eq!(browser.text("#send-heading").await, "Send this link to Bo");
    assert_eq!(browser.text("#keep-heading").await, "Your seat — keep it");
    let (links, buttons) = links_and_buttons(&browser).await;
    let ids: Vec<&str> = links.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["their-link", "your-link", "watch-link"]);
    for (id, href) in &links {
        assert!(
            href.starts_with(&format!("{}/table/", browser.base)),
            "{id}: {href}"
        );
    }
    assert_ne!(links[0].1, links[1].1);
    // Headless Chromium on Linux has no share sheet: Copy for every link.
    let can_share = browser
        .client
        .execute("return typeof navigator.share === 'function';", vec![])
        .await
        .expect("a script runs");
    assert_eq!(
        can_share,
        Value::Bool(false),
        "this Chromium has no share sheet"
    );
    assert_eq!(
        buttons,
        ["copy their-link", "copy your-link", "copy watch-link"]
    );
    // Each field shows its whole link, not a part to scroll through.
    let cut = browser
        .client
        .execute(
            "return [...document.querySelectorAll('textarea.link')] \
               .filter(t => t.scrollHeight > t.clientHeight + 1).map(t => t.id);",
            vec![],
        )
        .await
        .expect("a script runs");
    assert_eq!(cut, serde_json::json!([]), "links shown in part at 360 px");
    let sideways = browser
        .client
        .execute(
            "const root = document.documentElement; return root.scrollWidth > root.clientWidth;",
            vec![],
        )
        .await
        .expect("a script runs");
    assert_eq!(
        sideways,
        Value::Bool(false),
        "nothing scrolls sideways at 360 px"
    );
    browser.screenshot("table-ready-360").await;
    no_serious_violation(&browser, &axe, "the table-ready page at 360 px").await;

    // A browser with a share sheet: the script, run again with one, puts Share in Copy's
    // place for the friend's link and shares that link.
    browser
        .client
        .execute(
            "Object.defineProperty(navigator, 'share', { configurable: true, \
               value: function (data) { window.shared = data; return Promise.resolve(); } }); \
             const again = document.createElement('script'); \
             again.src = '/static/moot.js?again'; \
             again.onload = () => { window.ranAgain = true; }; \
             document.body.appendChild(again);",
            vec![],
        )
        .await
        .expect("a script runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while browser
        .client
        .execute("return window.ranAgain === true;", vec![])
        .await
        .expect("a script runs")
        != Value::Bool(true)
    {
        assert!(std::time::Instant::now() < deadline, "the script ran again");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let (_, buttons) = links_and_buttons(&browser).await;
    assert_eq!(
        buttons,
        ["share their-link", "copy your-link", "copy watch-link"]
    );
    browser
        .tap(Locator::Css(r#"button[data-share="their-link"]"#))
        .await;
    let shared = browser
        .client
        .execute("return window.shared;", vec![])
        .await
        .expect("a script runs");
    assert_eq!(shared["url"], Value::String(links[0].1.clone()));
    assert_eq!(
        shared["text"],
        Value::String("Play Herfor with me on Moot: this link is your seat.".into())
    );
    browser.screenshot("table-ready-share-360").await;
    browser.finish().await;

    // Without JavaScript the links are there whole, the friend's first, with no buttons.
    let plain = Browser::one_with_tables("table-ready-plain", false).await;
    plain.set_viewport(PHONE).await;
    open_table(&plain).await;
    let (links, buttons) = links_and_buttons(&plain).await;
    let ids: Vec<&str> = links.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["their-link", "your-link", "watch-link"]);
    for (id, href) in &links {
        assert!(
            href.starts_with(&format!("{}/table/", plain.base)),
            "{id}: {href}"
        );
    }
    assert!(buttons.is_empty(), "{buttons:?}");
    plain.screenshot("table-ready-plain-360").await;
    plain.finish().await;
}
