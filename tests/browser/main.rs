//! Browser tests in a real headless Chromium: games played by clicking, as people would.

mod harness;

use fantoccini::Locator;
use harness::{Browser, ONE_AT_A_TIME};

/// A whole Herfor game on the smallest board, from the home page, clicking the first
/// highlighted point each time (or the pass button when none) until the score shows.
#[actix_web::test]
async fn herfor_whole_game_on_the_smallest_board_by_clicking() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("herfor").await;
    browser.open("/").await;
    browser
        .click_to_next_page(Locator::Css(r#"a.button[href="/play/herfor"]"#))
        .await;
    browser
        .client
        .find(Locator::Css(r#"select[name="size"] option[value="3"]"#))
        .await
        .expect("size 3 is offered")
        .click()
        .await
        .expect("size 3 is chosen");
    browser
        .client
        .find(Locator::Css(r#"select[name="pie"] option[value="false"]"#))
        .await
        .expect("the pie rule can be turned off")
        .click()
        .await
        .expect("no pie rule");
    browser
        .click_to_next_page(Locator::Css("form.options button[type=submit]"))
        .await;
    assert!(browser.text("p.status").await.starts_with("Black to play"));
    assert_eq!(
        browser.count("svg.herfor a.move").await,
        19,
        "every point of the empty board"
    );

    let mut moves = 0;
    while browser.count("p.status.finished").await == 0 {
        assert!(moves < 60, "a size-3 game ends within 60 moves");
        if browser.count("svg.herfor a.move").await > 0 {
            browser
                .click_to_next_page(Locator::Css("svg.herfor a.move"))
                .await;
        } else {
            browser
                .click_to_next_page(Locator::Css("section.actions a.button"))
                .await;
        }
        moves += 1;
    }
    let status = browser.text("p.status").await;
    assert!(status.starts_with("Game over:"), "{status}");
    assert!(browser.text("table.score").await.contains("Black total"));
    let record = browser.text("section.record pre").await;
    assert_eq!(record.split_whitespace().count(), moves, "{record}");
    assert!(
        record.ends_with("pass pass"),
        "two passes end the game: {record}"
    );
    browser.screenshot("herfor-finished").await;

    // Undo goes back one move; the game is on again.
    browser
        .click_to_next_page(Locator::LinkText("Undo the last move"))
        .await;
    assert!(browser.count("p.status.finished").await == 0);
    browser.screenshot("herfor-undone").await;
    browser.finish().await;
}
