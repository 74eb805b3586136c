//! Two players far apart, each in their own browser, play a whole Herfor game through the links
//! "Play a friend" gives: one opens the table and sends the other their seat's link.

use std::time::{Duration, Instant};

use fantoccini::Locator;

use crate::harness::{Browser, ONE_AT_A_TIME};

/// The ply the seat's form would send: it changes with every move committed.
async fn ply(browser: &Browser) -> String {
    browser
        .client
        .execute(
            "var f = document.querySelector('input[name=ply]'); return f ? f.value : '';",
            vec![],
        )
        .await
        .expect("a script runs")
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Clicks the first move the seat's board offers (or, with none, the first of the turn's
/// controls: the pass), and waits for the seat's page after the move.
async fn play_first(browser: &Browser) {
    let before = ply(browser).await;
    let css = if browser.count("svg.herfor button.move").await > 0 {
        "svg.herfor button.move"
    } else {
        "div.controls button.move"
    };
    browser
        .client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} is offered: {e}"))
        .click()
        .await
        .expect("the click lands");
    let deadline = Instant::now() + Duration::from_secs(20);
    while ply(browser).await == before {
        assert!(Instant::now() < deadline, "the move was not played");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    browser.wait_for_page().await;
}

#[actix_web::test]
async fn two_browsers_play_a_whole_herfor_game_through_the_friend_links() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (black, white) = Browser::two_with_tables("friend").await;
    black.open("/play/herfor?size=3&pie=false&computer=").await;
    black
        .click_to_next_page(Locator::Css("div.start button[formaction]"))
        .await;
    black
        .click_to_next_page(Locator::Css("form.options button[type=submit]"))
        .await;
    assert!(
        black
            .text("section.created")
            .await
            .contains("You play Black and move first"),
        "{}",
        black.text("section.created").await
    );
    let theirs = black
        .client
        .find(Locator::Css("#their-link"))
        .await
        .expect("the friend's link")
        .prop("value")
        .await
        .expect("its value")
        .expect("a link");
    assert!(
        theirs.starts_with(&format!("{}/table/", black.base)),
        "{theirs}"
    );
    black
        .click_to_next_page(Locator::Css("p.again a.button"))
        .await;
    white.visit(&theirs).await;
    assert!(
        white
            .text("p.status")
            .await
            .starts_with("Waiting for Opponent (Black)")
    );
    assert_eq!(
        white.count("svg.herfor button.move").await,
        0,
        "white waits"
    );

    let (mut acting, mut waiting) = (&black, &white);
    let mut plies = 0;
    // From the mover's page showing the move to the waiting page showing it.
    let mut delays = Vec::new();
    while !acting.text("p.status").await.starts_with("Game over") {
        assert!(
            acting.text("p.status").await.starts_with("You ("),
            "{}",
            acting.text("p.status").await
        );
        let title = acting.client.title().await.expect("a title");
        assert!(title.starts_with("Your turn · Herfor"), "{title}");
        let title = waiting.client.title().await.expect("a title");
        assert!(title.starts_with("Herfor"), "{title}");
        let before = ply(waiting).await;
        play_first(acting).await;
        plies += 1;
        assert!(plies < 100, "the game did not end");
        // The other player's page follows the table: it shows the move by itself.
        let moved = Instant::now();
        let deadline = moved + Duration::from_secs(20);
        while ply(waiting).await == before {
            assert!(
                Instant::now() < deadline,
                "the waiting page did not show the move by itself"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        delays.push(moved.elapsed());
        // Shown, and following the table again for the next move.
        waiting.wait_for_page().await;
        std::mem::swap(&mut acting, &mut waiting);
    }
    delays.sort();
    let median = delays[delays.len() / 2];
    eprintln!("the waiting page showed each move after (sorted): {delays:?}");
    assert!(
        median <= Duration::from_secs(1),
        "the waiting page shows a move within a second (median {median:?})"
    );
    for browser in [&black, &white] {
        let status = browser.text("p.status").await;
        assert!(
            status.starts_with("Game over: you won") || status.starts_with("Game over: you lost"),
            "{status}"
        );
    }
    assert_ne!(
        black.text("p.status").await,
        white.text("p.status").await,
        "one won, the other lost"
    );
    black.screenshot("friend-finished").await;
    white.finish().await;
    black.finish().await;
}
