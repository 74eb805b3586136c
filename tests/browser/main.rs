//! Browser tests in a real headless Chromium: games played by clicking, as people would.

mod a11y;
mod challenges;
mod cross_origin;
mod dark;
mod embed;
mod fit;
mod friend;
mod harness;
mod home;
mod layout;
mod looks;
mod notify;
mod play;
mod refusals;
mod rematch;
mod review;
mod scripts;
mod smalls;
mod sound;
mod tables;
mod takeback;
mod walk;
mod your_games;

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
    // Both sides at this screen: the computer is the form's default opponent.
    browser
        .client
        .find(Locator::Css(r#"select[name="computer"] option[value=""]"#))
        .await
        .expect("a friend at this screen is offered")
        .click()
        .await
        .expect("a friend at this screen");
    browser.screenshot("herfor-options").await;
    browser
        .click_to_next_page(Locator::Css("form.options button[type=submit]"))
        .await;
    assert!(browser.text("p.status").await.starts_with("Black to play"));
    assert_eq!(
        browser.count("svg.herfor button.move").await,
        19,
        "every point of the empty board"
    );

    // The board works from the keyboard: a point takes the focus and Enter plays it.
    let before = browser.url().await;
    browser
        .client
        .find(Locator::Css(r#"svg.herfor button.move[data-point="c3"]"#))
        .await
        .expect("c3 is a button")
        .send_keys(&fantoccini::key::Key::Enter.to_string())
        .await
        .expect("Enter on c3");
    browser.wait_until_left(&before).await;
    assert_eq!(browser.record().await, "c3", "Enter on c3 played it");
    browser
        .click_to_next_page(Locator::Css("div.turn button[name=undo]"))
        .await;

    let mut moves = 0;
    while browser.count("p.status.finished").await == 0 {
        assert!(moves < 60, "a size-3 game ends within 60 moves");
        if browser.count("svg.herfor button.move").await > 0 {
            browser
                .click_to_next_page(Locator::Css("svg.herfor button.move"))
                .await;
        } else {
            browser
                .click_to_next_page(Locator::Css("div.turn button[name=play]"))
                .await;
        }
        moves += 1;
    }
    let status = browser.text("p.status").await;
    assert!(status.starts_with("Game over:"), "{status}");
    assert!(browser.text("table.score").await.contains("stones"));
    let record = browser.record().await;
    assert_eq!(record.split_whitespace().count(), moves, "{record}");
    assert!(
        record.ends_with("pass pass"),
        "two passes end the game: {record}"
    );
    browser.screenshot("herfor-finished").await;

    // Undo goes back one move; the game is on again.
    browser
        .click_to_next_page(Locator::Css("div.turn button[name=undo]"))
        .await;
    assert!(browser.count("p.status.finished").await == 0);
    browser.screenshot("herfor-undone").await;

    browser.open("/rules/herfor").await;
    assert!(browser.text("article.rules h1").await.contains("Herfor"));
    browser.screenshot("herfor-rules").await;
    browser.finish().await;
}

/// Tara from its options page: the six setup placements, then king moves, each by clicking a
/// highlighted hill on the board.
#[actix_web::test]
async fn tara_six_setup_placements_and_king_moves_by_clicking_hills() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("tara").await;
    // Both sides at this screen (`computer=` chooses them; the form's default is the computer).
    browser.open("/play/tara?computer=").await;
    browser
        .click_to_next_page(Locator::Css("form.options button[type=submit]"))
        .await;
    for placement in 1..=6 {
        assert!(
            browser
                .content("section.actions h2")
                .await
                .starts_with("Build a ringfort"),
            "placement {placement} is a setup placement"
        );
        browser
            .click_to_next_page(Locator::Css("figure.board svg button.move"))
            .await;
    }
    browser.screenshot("tara-after-setup").await;
    assert!(
        browser
            .content("section.actions h2")
            .await
            .starts_with("The king on"),
        "after the setup, kings move"
    );
    // A hill several kings can reach opens a choice: take the hills with one move.
    for _ in 0..4 {
        browser
            .click_to_next_page(Locator::Css(
                "figure.board svg button.move:not(g.choices button)",
            ))
            .await;
    }
    let record = browser.record().await;
    let moves: Vec<&str> = record.split_whitespace().collect();
    assert_eq!(moves.len(), 10, "{record}");
    assert!(
        moves[..6].iter().all(|m| m.len() == 2),
        "six hills: {record}"
    );
    assert!(
        moves[6..]
            .iter()
            .all(|m| m.contains('-') || m.contains('x')),
        "four king moves: {record}"
    );
    assert!(
        browser
            .text("section.happened")
            .await
            .contains("king moved from")
    );
    browser.screenshot("tara-king-moves").await;
    browser.finish().await;
}

/// Hirþ from a link to the start of a turn: the steps with an attack clicked on the board, the
/// end of the movement phase chosen from the list of entries, and the battle reported.
#[actix_web::test]
async fn hirth_turn_with_an_attack_its_battle_and_the_entry_choice() {
    let script = scripts::hirth_attack();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("hirth").await;
    let link = form_urlencoded::Serializer::new(String::new())
        .append_pair("target", &script.options.target.to_string())
        .append_pair("moves", &script.before.join("."))
        .finish();
    browser.open(&format!("/play/hirth?{link}")).await;
    for step in &script.steps {
        browser.play(step).await;
    }
    let ends = browser
        .client
        .find_all(Locator::XPath(
            "//section[@class='actions']//button[starts-with(code, 'end')]",
        ))
        .await
        .expect("a search")
        .len();
    assert_eq!(
        ends,
        script.ends.len(),
        "every choice of entries is offered: {:?}",
        script.ends
    );
    browser.screenshot("hirth-before-battle").await;
    // Some attackers stay where they attacked from: a real choice of entries.
    let choice = script
        .ends
        .iter()
        .find(|e| e.contains('>'))
        .expect("a choice with stays");
    browser.play(choice).await;
    let happened = browser.text("section.happened").await;
    assert!(happened.contains("Battle on"), "{happened}");
    let record = browser.record().await;
    assert!(
        record.contains('>'),
        "the record has the attack and its battle note: {record}"
    );
    browser.screenshot("hirth-after-battle").await;
    // On a phone the board and the side panel stack.
    browser
        .client
        .set_window_size(390, 844)
        .await
        .expect("a phone-sized window");
    browser.screenshot("hirth-phone").await;
    browser.finish().await;
}

/// Herfor against the computer: it moves first, answers each click, and gives a hint.
#[actix_web::test]
async fn herfor_against_the_computer_with_a_hint() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("herfor-computer").await;
    browser.open("/play/herfor?size=3&pie=false").await;
    for choice in [
        r#"select[name="computer"] option[value="first"]"#,
        r#"select[name="strength"] option[value="easy"]"#,
    ] {
        browser
            .client
            .find(Locator::Css(choice))
            .await
            .expect("the choice is offered")
            .click()
            .await
            .expect("chosen");
    }
    browser
        .click_to_next_page(Locator::Css("form.options button[type=submit]"))
        .await;
    assert_eq!(
        browser.text("p.opponent").await,
        "You (White) play against the computer (easy)."
    );
    assert_eq!(browser.record().await.split_whitespace().count(), 1);
    browser
        .click_to_next_page(Locator::Css("figure.board svg button.move"))
        .await;
    assert_eq!(
        browser.record().await.split_whitespace().count(),
        3,
        "the computer answered the click"
    );
    browser
        .click_to_next_page(Locator::Css("div.turn button[name=hint]"))
        .await;
    let advice = browser.text("div.hint").await;
    assert!(
        advice.contains("The computer suggests: Place a white stone on"),
        "{advice}"
    );
    browser
        .click_to_next_page(Locator::Css("div.hint button"))
        .await;
    assert_eq!(browser.record().await.split_whitespace().count(), 5);
    browser.screenshot("herfor-computer").await;
    browser.finish().await;
}
