//! How each game looks at the sizes players use (two phones and a laptop), in the light and the
//! dark theme, saved as screenshots to look at; and the words a table and a single Hirþ game
//! show in the browser: the players' names, never a match that is not there.

use fantoccini::Locator;

use crate::a11y::pages;
use crate::harness::{Browser, ONE_AT_A_TIME};

/// Two phones and a laptop (CSS pixels).
const SIZES: [(u32, u32); 3] = [(360, 740), (390, 844), (1280, 800)];

/// The page's path for `name` among the accessibility tests' pages.
fn page(name: &str) -> String {
    pages()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} is among the pages"))
        .1
}

/// The page's width against its window's, and the board's left and right edges.
async fn widths(browser: &Browser) -> (f64, f64, f64, f64) {
    let seen = browser
        .client
        .execute(
            "const board = document.querySelector('figure.board svg').getBoundingClientRect(); \
             return [document.documentElement.scrollWidth, window.innerWidth, board.left, board.right];",
            vec![],
        )
        .await
        .expect("a script runs");
    let at = |i: usize| seen[i].as_f64().expect("a number");
    (at(0), at(1), at(2), at(3))
}

#[actix_web::test]
async fn each_game_in_the_middle_fits_two_phones_and_a_laptop_in_the_light_and_the_dark() {
    let _one = ONE_AT_A_TIME.lock().await;
    for (theme, dark) in [("light", false), ("dark", true)] {
        let browser = if dark {
            Browser::start_dark(&format!("looks-{theme}")).await
        } else {
            Browser::start(&format!("looks-{theme}")).await
        };
        assert_eq!(browser.prefers_dark().await, dark, "the {theme} theme");
        for game in ["herfor", "tara", "hirth"] {
            let path = page(&format!("{game} mid-game"));
            for size in SIZES {
                browser.set_viewport(size).await;
                browser.open(&path).await;
                browser.wait_for_styles().await;
                let (page_width, window, left, right) = widths(&browser).await;
                let at = format!("{game}, {theme}, {}×{}", size.0, size.1);
                assert!(page_width <= window, "{at}: the page scrolls sideways");
                assert!(
                    left >= 0.0 && right <= window + 0.5,
                    "{at}: the board lies from {left} to {right} in a window {window} wide"
                );
                browser
                    .screenshot(&format!("look-{game}-{theme}-{}", size.0))
                    .await;
            }
        }
        browser.finish().await;
    }
}

/// The page's words as the reader sees them.
async fn words(browser: &Browser) -> String {
    browser.text("main").await
}

#[actix_web::test]
async fn a_tables_names_show_on_its_pages_and_a_single_hirth_game_never_speaks_of_a_match() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::one_with_tables("looks-names", true).await;

    // A single Hirþ game (to one point) at the two screens, in the middle and at its end.
    for name in ["hirth mid-game", "hirth finished"] {
        browser.open(&page(name)).await;
        let said = words(&browser).await;
        assert!(!said.to_lowercase().contains("match"), "{name}: {said}");
        assert!(said.contains("Hirþ"), "{name}: the page is read: {said}");
    }
    assert!(
        browser.text("p.status").await.starts_with("Game over"),
        "the finished page says the game is over"
    );

    // A Hirþ table between Ana and Bo, made from the friend page.
    browser.open("/play/hirth/friend?target=1&moves=").await;
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
    assert_eq!(browser.text("#send-heading").await, "Send this link to Bo");
    let links = browser
        .client
        .execute(
            "return ['their-link', 'your-link', 'watch-link'] \
               .map(id => document.getElementById(id).value);",
            vec![],
        )
        .await
        .expect("a script runs");
    let link = |i: usize| links[i].as_str().expect("a link").to_owned();
    let (theirs, mine, watch) = (link(0), link(1), link(2));

    browser.visit(&mine).await;
    let seat = browser.text("div.table-seats").await;
    assert!(
        seat.contains("Ana") && seat.contains("Bo"),
        "Ana's seat names both: {seat}"
    );
    assert!(!words(&browser).await.to_lowercase().contains("match"));
    browser.visit(&theirs).await;
    let seat = browser.text("div.table-seats").await;
    assert!(
        seat.contains("Ana") && seat.contains("Bo"),
        "Bo's seat names both: {seat}"
    );
    // Bo resigns; the spectators read who did, and who won, by name.
    browser
        .client
        .find(Locator::Css("details.resign:not(.abort) summary"))
        .await
        .expect("Resign…")
        .click()
        .await
        .expect("Resign… opens");
    browser
        .click_to_next_page(Locator::Css("details.resign:not(.abort) button"))
        .await;
    browser.visit(&watch).await;
    let watched = words(&browser).await;
    assert!(watched.contains("Bo resigned; Ana won"), "{watched}");
    assert!(!watched.to_lowercase().contains("match"), "{watched}");
    browser.screenshot("looks-watch-resigned").await;
    browser.finish().await;
}
