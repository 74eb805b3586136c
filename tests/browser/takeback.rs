//! A takeback in two browsers (two profiles, two cookie jars): at a friend table Ana plays a
//! move and asks to take it back on her own seat's page; Bo's open page shows the request by
//! itself (live, the table's `takeback_asked` notice); Bo lets her, and Ana's page goes back
//! to her turn by itself (the table's `takeback` event); axe finds nothing serious on Bo's page
//! with the request standing.

use std::time::{Duration, Instant};

use crate::a11y::{axe_source, violations};
use crate::harness::{Browser, ONE_AT_A_TIME};
use crate::rematch::{press_in, wait_for_section};
use crate::your_games::open_table;

/// The ply the seat's form would send: it changes with every change committed.
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

#[actix_web::test]
async fn a_move_asked_back_in_one_browser_is_seen_live_and_let_go_in_the_other() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (ana, bo) = Browser::two_with_tables("takeback").await;
    let axe = axe_source();
    let theirs = open_table(&ana).await;
    let id = theirs
        .split("/table/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("a table's link")
        .to_owned();
    // Bo opens the link Ana sent (his browser's player takes the seat) and waits on his page.
    bo.open(&theirs).await;
    bo.open(&format!("/table/{id}/mine")).await;
    assert!(bo.url().await.contains("/mine"), "{}", bo.url().await);

    // Ana plays her first move, then asks to take it back.
    ana.open(&format!("/table/{id}/mine")).await;
    ana.wait_for_styles().await;
    let first = ana
        .client
        .execute(
            "return document.querySelector('details.actions button[name=play]').value;",
            vec![],
        )
        .await
        .expect("a move is offered");
    ana.play(first.as_str().expect("a move")).await;
    assert_eq!(ply(&ana).await, "1");
    // Opened anew: the form's answer is the same page at `#turn`, another address.
    ana.open(&format!("/table/{id}/mine")).await;
    press_in(&ana, "takeback", "Ask to take back your move").await;
    wait_for_section(
        &ana,
        "takeback",
        "You asked to take back your last move",
        "Ana",
    )
    .await;

    // Bo's page shows the request by itself, with both answers.
    wait_for_section(&bo, "takeback", "asks to take back their last move", "Bo").await;
    let serious: Vec<String> = violations(&bo, &axe)
        .await
        .into_iter()
        .filter_map(|(serious, line)| serious.then_some(line))
        .collect();
    assert!(
        serious.is_empty(),
        "axe on the seat's page, a takeback asked for: {serious:#?}"
    );
    bo.screenshot("takeback-asked").await;
    press_in(&bo, "takeback", "Let them take it back").await;
    assert_eq!(ply(&bo).await, "0");

    // Ana's page follows: her move is awaited again, nothing asked for.
    let deadline = Instant::now() + Duration::from_secs(20);
    while ply(&ana).await != "0" {
        assert!(
            Instant::now() < deadline,
            "Ana's page stayed at ply {}",
            ply(&ana).await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    ana.wait_for_page().await;
    assert!(
        ana.text("p.status")
            .await
            .starts_with("You (Black) to play"),
        "{}",
        ana.text("p.status").await
    );
    ana.screenshot("takeback-taken").await;
    ana.finish().await;
}
