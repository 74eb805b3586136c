//! The small things a player meets on every move: the waiting line, where the focus goes,
//! the arrow keys on Herfor's triangles, the keyboard's order of the turn's controls.

use fantoccini::Locator;
use fantoccini::key::Key;
use moot::games::herfor::{Herfor, HerforOptions};

use crate::a11y::{focused_point, press, random_game};
use crate::harness::{Browser, ONE_AT_A_TIME};

/// When the computer moves first, the options page says at once that it is thinking (its
/// first move is searched before the game's page arrives); on the game page the waiting
/// line has one ellipsis, not two.
#[actix_web::test]
async fn a_computer_moving_first_shows_a_waiting_line_with_one_ellipsis() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("smalls-waiting").await;
    browser
        .open("/play/hirth?target=1&computer=first&strength=strong")
        .await;
    browser.wait_for_styles().await;
    let shown = browser
        .client
        .execute(
            "document.querySelector('form.options button[type=submit]').click(); \
             const line = document.getElementById('starting'); \
             return line ? [line.textContent, line.getAttribute('role')] : null;",
            vec![],
        )
        .await
        .expect("a script runs");
    assert_eq!(
        shown,
        serde_json::json!(["The computer is thinking about its first move…", "status"]),
        "the options page says so at once"
    );
    browser
        .client
        .wait()
        .for_element(Locator::Css("section.play"))
        .await
        .expect("the game's page arrives");
    browser.wait_for_page().await;

    browser
        .open("/play/herfor?size=5&pie=false&computer=second&strength=easy&moves=")
        .await;
    browser.wait_for_styles().await;
    let waiting = browser
        .client
        .execute(
            "document.querySelector('figure.board svg button.move').click(); \
             const line = document.getElementById('turn'); \
             return [line.textContent, getComputedStyle(line, '::after').content];",
            vec![],
        )
        .await
        .expect("a script runs");
    let words = waiting[0].as_str().unwrap_or_default();
    assert!(words.ends_with("The computer is thinking…"), "{words}");
    assert_eq!(words.matches('…').count(), 1, "{words}");
    assert!(
        matches!(waiting[1].as_str(), Some("none" | "normal")),
        "no second ellipsis drawn after it: {waiting}"
    );
    browser.finish().await;
}

/// What has the focus on the open page: its tag and class, whether it shows a focus ring
/// (`:focus-visible`), and whether it is the board or inside it.
async fn focus(browser: &Browser) -> (String, bool, bool) {
    let found = browser
        .client
        .execute(
            r#"const e = document.activeElement;
               return [e.tagName.toLowerCase() + "." + (e.getAttribute("class") || ""),
                       e.matches(":focus-visible"), !!e.closest("figure.board")];"#,
            vec![],
        )
        .await
        .expect("a script runs");
    (
        found[0].as_str().unwrap_or_default().to_owned(),
        found[1].as_bool().unwrap_or(false),
        found[2].as_bool().unwrap_or(false),
    )
}

/// After a move played by a click, the next page puts no focus ring on a point nobody chose;
/// after one played from the keyboard the board has the focus, to play on from the keys. A
/// board with nothing to tap (the game over) never takes the focus, so it gets no frame.
#[actix_web::test]
async fn after_a_click_no_ring_lands_on_the_board_and_a_finished_board_gets_no_frame() {
    let finished = random_game::<Herfor>(
        &HerforOptions {
            size: 3,
            pie: false,
            ..HerforOptions::default()
        },
        1,
        200,
    );
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("smalls-focus").await;
    browser.open("/play/herfor?size=5&pie=false&moves=c3").await;
    browser.wait_for_styles().await;
    browser
        .click_to_next_page(Locator::Css(
            r#"figure.board svg button.move[data-point="a1"]"#,
        ))
        .await;
    // Ready: the script, which would give the board the focus, has done so by then.
    browser.wait_for_styles().await;
    let (element, ring, on_board) = focus(&browser).await;
    assert!(
        !(ring && on_board),
        "after a click: {element} has a focus ring on the board"
    );

    // From the keyboard: Enter on a point; the next page's board has the focus.
    let point = browser
        .client
        .find(Locator::Css(
            r#"figure.board svg button.move[data-point="e5"]"#,
        ))
        .await
        .expect("e5 is a button");
    let before = browser.url().await;
    point
        .send_keys(&Key::Enter.to_string())
        .await
        .expect("Enter on e5");
    browser.wait_until_left(&before).await;
    browser.wait_for_styles().await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !focus(&browser).await.2 {
        assert!(
            std::time::Instant::now() < deadline,
            "after Enter the board has the focus: {:?}",
            focus(&browser).await
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    browser
        .open(&format!(
            "/play/herfor?size=3&pie=false&moves={}#turn",
            finished.join(".")
        ))
        .await;
    browser.wait_for_styles().await;
    assert_eq!(browser.count("p.status.finished").await, 1);
    let (element, _, on_board) = focus(&browser).await;
    assert!(!on_board, "a finished board takes no focus: {element}");
    browser.finish().await;
}

/// On Herfor's triangles ArrowUp goes to a neighbour in the row above (a3 → b3 or b4), not to
/// the point straight above two rows up (c4).
#[actix_web::test]
async fn herfor_arrow_up_goes_to_a_neighbour_in_the_row_above() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("smalls-arrows").await;
    browser.open("/play/herfor?size=5&pie=false&moves=").await;
    browser.wait_for_styles().await;
    browser
        .client
        .execute(
            r#"document.querySelector('figure.board svg button.move[data-point="a3"]').focus();"#,
            vec![],
        )
        .await
        .expect("a3 takes the focus");
    let (a3, _, y) = focused_point(&browser).await;
    assert!(a3.ends_with(" a3"), "{a3}");
    press(&browser, Key::Up).await;
    let (up, _, y_up) = focused_point(&browser).await;
    assert!(up.ends_with(" b3") || up.ends_with(" b4"), "a3 → {up}");
    assert!(y_up < y, "{up} is above a3");
    press(&browser, Key::Down).await;
    let (down, ..) = focused_point(&browser).await;
    assert!(
        down.ends_with(" a3") || down.ends_with(" a4"),
        "{up} → {down}"
    );
    browser.finish().await;
}

/// The turn's controls are above the board, and the keyboard meets them there: from the
/// status line, Tab reaches Undo and Hint before the board.
#[actix_web::test]
async fn undo_and_hint_come_before_the_board_for_the_keyboard() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("smalls-order").await;
    browser.open("/play/herfor?size=5&pie=false&moves=c3").await;
    browser.wait_for_styles().await;
    browser
        .client
        .execute(
            "const line = document.getElementById('turn'); line.tabIndex = -1; line.focus();",
            vec![],
        )
        .await
        .expect("the status line takes the focus");
    let mut seen = Vec::new();
    for _ in 0..6 {
        press(&browser, Key::Tab).await;
        let (element, _, on_board) = focus(&browser).await;
        let name = browser
            .client
            .execute(
                "return document.activeElement.getAttribute('name') || '';",
                vec![],
            )
            .await
            .expect("a script runs");
        if on_board {
            seen.push("board".to_owned());
            break;
        }
        seen.push(format!("{element}[{}]", name.as_str().unwrap_or_default()));
    }
    let at = |what: &str| seen.iter().position(|s| s.contains(what));
    let (undo, hint, board) = (at("[undo]"), at("[hint]"), at("board"));
    assert!(
        undo.is_some() && hint.is_some() && board.is_some(),
        "{seen:?}"
    );
    assert!(undo < board && hint < board, "{seen:?}");
    browser.finish().await;
}

/// The setup moves of a Tara game (T3) and the next ones, until the player to move has a king
/// that can step: the link's moves.
pub(crate) fn tara_until_a_king_can_step() -> Vec<String> {
    use moot::games::Game;
    use moot::games::tara::Tara;
    let mut state = Tara::new_game(&Default::default()).expect("a Tara game");
    let mut moves = Vec::new();
    loop {
        let legal = Tara::legal_moves(&state);
        let texts: Vec<String> = legal.iter().map(|m| Tara::format_move(&state, m)).collect();
        if texts.iter().any(|t| t.contains('-')) {
            return moves;
        }
        moves.push(texts[0].clone());
        Tara::apply(&mut state, &legal[0]).expect("a legal move");
    }
}

/// A tap that plays nothing says why, in the turn's bar: on Tara's board a tap on a king that
/// can move marks the hills its moves end on (and a second tap clears them); on Herfor's a tap
/// on a stone says the point is taken, by rule F3.
#[actix_web::test]
async fn a_tap_that_plays_nothing_says_why_and_a_tapped_king_shows_where_it_can_go() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("smalls-taps").await;
    let moves = tara_until_a_king_can_step();
    browser
        .open(&format!("/play/tara?moves={}", moves.join(".")))
        .await;
    browser.wait_for_styles().await;
    let before = browser.text("#turn").await;
    // The king with the most moves, and where they end, as the moves' buttons say.
    let (king, ends) = {
        let found = browser
            .client
            .execute(
                "const ends = {}; \
                 for (const b of document.querySelectorAll('#board button[data-from]')) { \
                   (ends[b.dataset.from] ||= new Set()).add(b.dataset.to); } \
                 const [king, to] = Object.entries(ends).sort((a, b) => b[1].size - a[1].size)[0]; \
                 return [king, [...to].sort()];",
                vec![],
            )
            .await
            .expect("a script runs");
        let king = found[0].as_str().expect("a king that can move").to_owned();
        let ends: Vec<String> = serde_json::from_value(found[1].clone()).unwrap();
        (king, ends)
    };
    assert!(!ends.is_empty());
    let on_king = Locator::Css(&format!(
        r#"#board g.hill[data-hill="{king}"] polygon.king"#
    ));
    browser.tap(on_king).await;
    let marked = browser
        .client
        .execute(
            "return [document.getElementById('board').classList.contains('picking'), \
             [...document.querySelectorAll('#board g.hill.reach')].map(h => h.dataset.hill).sort()];",
            vec![],
        )
        .await
        .expect("a script runs");
    assert_eq!(marked[0], true, "the board is picking");
    assert_eq!(
        marked[1],
        serde_json::json!(ends),
        "the king's moves' hills are marked"
    );
    let said = browser.text("#why").await;
    assert!(
        said.starts_with(&format!("The king on {king} can go to {}", ends.join(", "))),
        "{said}"
    );
    assert_eq!(browser.text("#turn").await, before, "the status line stays");
    // Tapped again: every move shows, and the bar is empty again.
    browser.tap(on_king).await;
    assert_eq!(browser.count("#board g.hill.reach").await, 0);
    assert_eq!(browser.text("#why").await, "");

    browser.open("/play/herfor?size=3&pie=false&moves=c3").await;
    browser.wait_for_styles().await;
    browser
        .tap(Locator::Css(r#"#board g.point[data-point="c3"]"#))
        .await;
    let said = browser.text("#why").await;
    assert_eq!(said, "c3 already holds a black stone. Rule F3: A turn");
    browser.finish().await;
}

/// The move list steps through the game: an entry opens the position after its turn to look
/// at (no move offered, the computer does not answer), the steps go on, and "Back to the
/// game" returns to it.
#[actix_web::test]
async fn the_move_list_opens_each_turns_position_and_leads_back_to_the_game() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("smalls-move-list").await;
    browser
        .open("/play/herfor?size=3&pie=false&computer=second&strength=easy&moves=")
        .await;
    browser.wait_for_styles().await;
    for _ in 0..2 {
        browser
            .click_to_next_page(Locator::Css("figure.board svg button.move"))
            .await;
    }
    // The game's link, without the fragment the form's answer keeps.
    let without_fragment = |url: String| url.split('#').next().unwrap_or_default().to_owned();
    let game = without_fragment(browser.url().await);
    let record = browser.record().await;
    let moves: Vec<&str> = record.split(' ').collect();
    assert_eq!(moves.len(), 4, "two moves and two answers: {record}");
    let stones = "figure.board g.point circle.stone";
    assert_eq!(browser.count(stones).await, 4);

    // The first turn: Black's first stone alone, nothing to play, the computer silent.
    browser
        .click_to_next_page(Locator::Css("ol.moves li:nth-child(2) a"))
        .await;
    assert!(
        browser.url().await.ends_with("&at=1"),
        "{}",
        browser.url().await
    );
    assert_eq!(browser.count(stones).await, 1);
    assert_eq!(browser.count("figure.board svg button.move").await, 0);
    assert!(
        browser
            .text("nav.look-back")
            .await
            .starts_with("After turn 1 of 4"),
        "{}",
        browser.text("nav.look-back").await
    );
    assert_eq!(
        browser.text("ol.moves [aria-current]").await,
        format!("1.Black {}", moves[0])
    );

    // On to the next turn, then back to the game as it stands.
    browser
        .click_to_next_page(Locator::Css("nav.look-back a[rel=next]"))
        .await;
    assert!(browser.url().await.ends_with("&at=2"));
    assert_eq!(browser.count(stones).await, 2);
    browser
        .click_to_next_page(Locator::LinkText("Back to the game"))
        .await;
    assert_eq!(without_fragment(browser.url().await), game);
    assert_eq!(browser.count(stones).await, 4);
    assert!(browser.count("figure.board svg button.move").await > 0);
    browser.finish().await;
}
