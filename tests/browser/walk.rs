//! The whole way of two players who do not know each other, in two browsers: one offers a game
//! on "Find an opponent", the other plays it from the list, both reach the same table; the
//! first move is played and the waiting player's clock counts down (the viewer's clock moved
//! on); the game ends (a resignation); the winner offers a rematch, the other's page shows it
//! by itself, it is accepted, and both pages land on the rematch, colours swapped.

use std::time::{Duration, Instant};

use crate::a11y::{axe_source, violations};
use crate::challenges::path;
use crate::harness::{Browser, ONE_AT_A_TIME};
use crate::rematch::{press_in, wait_for_section};
use fantoccini::Locator;

/// axe's serious and critical violations on `browser`'s page, with its details all open.
async fn serious(browser: &Browser, axe: &str) -> Vec<String> {
    browser
        .client
        .execute(
            "document.querySelectorAll('details').forEach(function (d) { d.open = true; });",
            vec![],
        )
        .await
        .expect("a script runs");
    violations(browser, axe)
        .await
        .into_iter()
        .filter_map(|(serious, line)| serious.then_some(line))
        .collect()
}

/// Whether `browser`'s seat is to play (its status says so).
async fn to_play(browser: &Browser) -> bool {
    browser.text("p.status").await.starts_with("You (")
}

/// Waits until `browser`'s clock reads other than `before`, and returns it.
async fn countdown_after(browser: &Browser, before: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = browser.text("p.clock .countdown").await;
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

/// Waits until `browser` is at `wanted` (whatever the fragment) and the page there is ready.
async fn wait_for_path(browser: &Browser, wanted: &str, who: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while path(browser).await.split('#').next() != Some(wanted) {
        assert!(
            Instant::now() < deadline,
            "{who} stayed at {}",
            path(browser).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    browser.wait_for_page().await;
}

#[actix_web::test]
async fn two_strangers_meet_through_a_challenge_play_against_the_clock_finish_and_rematch() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (ana, bo) = Browser::two_with_tables("walk").await;
    let axe = axe_source();

    // Ana offers Herfor, a day a move (the form, its own clock's fields open, is clean).
    ana.open("/challenges").await;
    ana.wait_for_styles().await;
    let form = serious(&ana, &axe).await;
    assert!(
        form.is_empty(),
        "the challenges' page, every field open: {form:#?}"
    );
    ana.open("/challenges").await;
    for choice in [
        r#"select[name="game"] option[value="herfor"]"#,
        r#"select[name="days_per_move"] option[value="1"]"#,
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
    let challenge = path(&ana).await;
    assert!(challenge.starts_with("/challenges/"), "{challenge}");

    // Bo plays it from the list; Ana's page moves on to the same table by itself.
    bo.open("/challenges").await;
    assert!(bo.text("ul.challenges").await.contains("Herfor with Ana"));
    bo.click_to_next_page(Locator::Css("ul.challenges form button[type=submit]"))
        .await;
    let seat = path(&bo).await;
    assert!(seat.ends_with("/mine"), "{seat}");
    wait_for_path(&ana, &seat, "Ana").await;
    let table = seat.split('/').nth(2).expect("a table's id").to_owned();

    // Whoever was drawn to move first plays; the other's page follows, the clock running.
    ana.open(&seat).await;
    let (first, second) = if to_play(&ana).await {
        (&ana, &bo)
    } else {
        (&bo, &ana)
    };
    assert!(to_play(first).await, "one of them moves first");
    let mv = first
        .client
        .execute(
            "return document.querySelector('details.actions button[name=play]').value;",
            vec![],
        )
        .await
        .expect("a move is offered");
    first.play(mv.as_str().expect("a move")).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while !to_play(second).await {
        assert!(
            Instant::now() < deadline,
            "the second player's page stayed waiting"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    second.wait_for_page().await;
    let clock = second.text("p.clock").await;
    assert!(
        clock.starts_with("1 day per move: ") && clock.contains("left for your move"),
        "{clock}"
    );
    // The viewer's clock moves on (the page counts from the time left, at the viewer's pace):
    // half an hour before the deadline, minutes and seconds, ticking.
    second
        .client
        .execute(
            "var real = Date.now; Date.now = function () { return real() + 86400e3 - 30 * 60e3; };",
            vec![],
        )
        .await
        .expect("a script runs");
    let before = second.text("p.clock .countdown").await;
    let minutes = countdown_after(second, &before).await;
    assert!(
        minutes.starts_with("29 min ") && minutes.ends_with(" s left"),
        "{minutes}"
    );
    let ticked = countdown_after(second, &minutes).await;
    assert!(
        ticked.starts_with("29 min "),
        "ticking by the second: {ticked}"
    );

    // The second player resigns: the game is over on both pages.
    second.open(&seat).await;
    second
        .client
        .find(Locator::Css("details.resign:not(.abort) summary"))
        .await
        .expect("Resign…")
        .click()
        .await
        .expect("Resign… opens");
    second
        .click_to_next_page(Locator::Css("details.resign:not(.abort) button"))
        .await;
    assert!(second.text("p.status").await.starts_with("Game over"));

    // The winner offers a rematch; the other's page shows it by itself; accepted, both land on
    // the rematch.
    first.open(&seat).await;
    press_in(first, "rematch", "Offer a rematch").await;
    second.open(&seat).await;
    wait_for_section(second, "rematch", "offers a rematch", "the loser").await;
    press_in(second, "rematch", "Accept the rematch").await;
    let rematch = path(second).await;
    assert!(
        rematch.starts_with("/table/") && !rematch.contains(&table),
        "{rematch}"
    );
    let rematch_seat = rematch.split('#').next().unwrap_or_default().to_owned();
    wait_for_path(first, &rematch_seat, "the winner").await;
    assert!(
        second
            .text("div.table-seats")
            .await
            .contains("You sit in the first seat")
            != first
                .text("div.table-seats")
                .await
                .contains("You sit in the first seat"),
        "one first seat"
    );
    first.screenshot("walk-rematch").await;
    ana.finish().await;
    bo.finish().await;
}
