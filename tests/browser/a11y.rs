//! Accessibility in a real Chromium: axe-core (the npm package's `axe.min.js`, installed by
//! `scripts/test` into `tests/browser/axe/`) runs on every kind of page at desktop and phone
//! size and fails on any serious or critical violation; on a phone the board's targets are at
//! least 44 px (WCAG 2.5.5).

use std::path::Path;

use fantoccini::Locator;
use moot::games::herfor::{Herfor, HerforOptions};
use moot::games::hirth::{Hirth, HirthOptions, Phase};
use moot::games::tara::{Tara, TaraOptions};
use moot::games::{Game, Turn};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::Value;

use crate::harness::{Browser, ONE_AT_A_TIME, Scheme};

/// The sizes every page is checked at: a desktop and a phone (CSS pixels).
pub const DESKTOP: (u32, u32) = (1280, 900);
pub const PHONE: (u32, u32) = (390, 844);

pub fn axe_source() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/browser/axe/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; scripts/test installs axe-core (cd tests/browser/axe && npm ci)",
            path.display()
        )
    })
}

/// A random game of `G` from `options` played to its end, as notation. Offers and giving up
/// are left out for `calm` moves; after that a game that wanders (random Hirþ can) is ended by
/// offering the Penningr and giving up.
pub fn random_game<G: Game>(options: &G::Options, seed: u64, calm: usize) -> Vec<String> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut state = G::new_game(options).expect("the options are valid");
    let mut played = Vec::new();
    while let Turn::ToAct(_) = G::turn(&state) {
        assert!(played.len() < 2 * calm + 200, "the game ends: {played:?}");
        let moves: Vec<(String, G::Move)> = G::legal_moves(&state)
            .into_iter()
            .map(|mv| (G::format_move(&state, &mv), mv))
            .collect();
        let ending = ["give-up", "offer"]
            .iter()
            .find_map(|word| moves.iter().find(|(text, _)| text == word));
        let quiet: Vec<&(String, G::Move)> = moves
            .iter()
            .filter(|(text, _)| text != "offer" && text != "give-up")
            .collect();
        let (text, mv) = match ending {
            Some(end) if played.len() >= calm || quiet.is_empty() => end,
            _ => *quiet.choose(&mut rng).expect("a move to play"),
        };
        G::apply(&mut state, mv).expect("a legal move applies");
        played.push(text.clone());
    }
    played
}

/// The moves of a random Hirþ game up to a beaten Lofðungr's retreat with a choice (H7).
fn hirth_retreat() -> Vec<String> {
    (0..200)
        .find_map(|seed| {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut state = Hirth::new_game(&HirthOptions { target: 1 }).ok()?;
            let mut played = Vec::new();
            for _ in 0..400 {
                if let Phase::Retreat { .. } = state.phase {
                    return Some(played);
                }
                let moves: Vec<(String, _)> = Hirth::legal_moves(&state)
                    .into_iter()
                    .map(|mv| (Hirth::format_move(&state, &mv), mv))
                    .filter(|(text, _)| text != "offer" && text != "give-up")
                    .collect();
                let (text, mv) = moves.choose(&mut rng)?;
                Hirth::apply(&mut state, mv).ok()?;
                played.push(text.clone());
            }
            None
        })
        .expect("a random game reaches a retreat")
}

/// A page of `game` with these options and moves.
fn game_page(game: &str, options: &str, moves: &[String]) -> String {
    let joined = moves.join(".");
    let sep = if options.is_empty() { "" } else { "&" };
    format!("/play/{game}?{options}{sep}moves={joined}")
}

/// Every kind of page: (name, path).
pub fn pages() -> Vec<(String, String)> {
    let mut pages: Vec<(String, String)> = vec![("home".into(), "/".into())];
    for game in ["herfor", "tara", "hirth"] {
        pages.push((format!("rules {game}"), format!("/rules/{game}")));
        pages.push((format!("options {game}"), format!("/play/{game}")));
    }
    let games = [
        (
            "herfor",
            "size=5&pie=false",
            random_game::<Herfor>(
                &HerforOptions {
                    size: 5,
                    pie: false,
                    ..HerforOptions::default()
                },
                1,
                200,
            ),
        ),
        (
            "tara",
            "",
            random_game::<Tara>(&TaraOptions::default(), 1, 400),
        ),
        (
            "hirth",
            "target=1",
            random_game::<Hirth>(&HirthOptions { target: 1 }, 1, 120),
        ),
    ];
    for (game, options, moves) in &games {
        let middle = &moves[..moves.len() / 2];
        pages.push((format!("{game} mid-game"), game_page(game, options, middle)));
        pages.push((format!("{game} finished"), game_page(game, options, moves)));
    }
    let attack = crate::scripts::hirth_attack();
    let mut moves = attack.before.clone();
    moves.extend(attack.steps.iter().cloned());
    pages.push((
        "hirth attacking".into(),
        game_page("hirth", "target=1", &moves),
    ));
    pages.push((
        "hirth retreat".into(),
        game_page("hirth", "target=1", &hirth_retreat()),
    ));
    pages.push((
        "herfor size 3".into(),
        "/play/herfor?size=3&pie=false&moves=b2.c3".into(),
    ));
    pages.push((
        "herfor size 7".into(),
        "/play/herfor?size=7&pie=false&moves=d4".into(),
    ));
    pages.push(("API reference".into(), "/docs/".into()));
    pages.push((
        "embed".into(),
        "/embed/herfor?size=5&pie=false&moves=c3.b2".into(),
    ));
    pages.push(("error: no such game".into(), "/play/chess".into()));
    pages.push((
        "error: illegal move".into(),
        "/play/herfor?size=5&pie=false&moves=zz9".into(),
    ));
    pages
}

/// Runs axe on the open page: its violations, one line each, and whether each is serious or
/// critical.
pub async fn violations(browser: &Browser, axe: &str) -> Vec<(bool, String)> {
    browser
        .client
        .execute(&format!("{axe}\n;return true;"), vec![])
        .await
        .expect("axe-core loads into the page");
    let found = browser
        .client
        .execute_async(
            r#"const done = arguments[arguments.length - 1];
               axe.run(document, { resultTypes: ["violations"] })
                 .then(r => done(r.violations), e => done([{ id: "axe failed", impact: "critical", help: String(e), nodes: [] }]));"#,
            vec![],
        )
        .await
        .expect("axe runs");
    let Value::Array(violations) = found else {
        panic!("axe answered {found}")
    };
    violations
        .iter()
        .map(|v| {
            let targets: Vec<String> = v["nodes"]
                .as_array()
                .map(|nodes| {
                    nodes
                        .iter()
                        .take(3)
                        .map(|n| n["target"].to_string())
                        .collect()
                })
                .unwrap_or_default();
            let serious = matches!(v["impact"].as_str(), Some("serious" | "critical"));
            let line = format!(
                "{} ({}): {} — {} nodes, e.g. {}",
                v["id"].as_str().unwrap_or("?"),
                v["impact"].as_str().unwrap_or("?"),
                v["help"].as_str().unwrap_or(""),
                v["nodes"].as_array().map_or(0, Vec::len),
                targets.join(" ")
            );
            (serious, line)
        })
        .collect()
}

pub async fn resize(browser: &Browser, (width, height): (u32, u32)) {
    browser
        .client
        .set_window_size(width, height)
        .await
        .expect("the window is resized");
}

#[actix_web::test]
async fn axe_finds_no_serious_violation_on_any_page_and_none_on_the_embed_at_desktop_and_phone_size()
 {
    axe_on_every_page(Scheme::Light).await;
}

/// The same pages in the dark theme: its colours read as well as the light ones.
#[actix_web::test]
async fn axe_finds_no_serious_violation_on_any_page_in_the_dark_theme() {
    axe_on_every_page(Scheme::Dark).await;
}

/// Runs axe on every page at desktop and phone size in `scheme`, screenshots each, and fails
/// on any serious or critical violation (on the embed, any violation).
async fn axe_on_every_page(scheme: Scheme) {
    let axe = axe_source();
    let pages = pages();
    let _one = ONE_AT_A_TIME.lock().await;
    let (browser, prefix) = match scheme {
        Scheme::Light => (Browser::start("a11y").await, "a11y"),
        Scheme::Dark => (Browser::start_dark("a11y-dark").await, "a11y-dark"),
    };
    let mut failures = Vec::new();
    for size in [DESKTOP, PHONE] {
        resize(&browser, size).await;
        for (name, path) in &pages {
            browser.open(path).await;
            settle(&browser, path).await;
            assert_eq!(
                browser.prefers_dark().await,
                scheme == Scheme::Dark,
                "{name} is seen in the {scheme:?} scheme"
            );
            let file: String = name
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                .collect();
            browser
                .screenshot(&format!("{prefix}-{file}-{}", size.0))
                .await;
            // The embed, a page in other sites' frames, is clean of every impact.
            let strict = name == "embed";
            for (serious, violation) in violations(&browser, &axe).await {
                let line = format!("{name} at {}×{}: {violation}", size.0, size.1);
                if serious || strict {
                    failures.push(line);
                } else {
                    eprintln!("(lesser) {line}");
                }
            }
        }
    }
    browser.finish().await;
    for failure in &failures {
        eprintln!("{failure}");
    }
    assert!(
        failures.is_empty(),
        "{} serious or critical axe violations in the {scheme:?} scheme:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Waits until the open page is laid out as a reader sees it: loaded, and the API reference
/// drawn by its script, with an operation of each kind opened (a body sent, query
/// parameters, a table's creation, an event stream: their parameters, bodies and answers).
pub async fn settle(browser: &Browser, path: &str) {
    browser
        .client
        .wait()
        .for_element(Locator::Css("body"))
        .await
        .expect("the page loads");
    if path.starts_with("/docs/") {
        browser
            .client
            .wait()
            .for_element(Locator::Css(".swagger-ui .opblock"))
            .await
            .expect("the API reference shows its operations");
        browser
            .client
            .execute(
                "['herfor-herfor_apply', 'hirth-hirth_animation_of_link', 'tables-create_table', \
                  'tables-table_events'].forEach(id => \
                   document.querySelector('#operations-' + id + ' .opblock-summary-control').click());",
                vec![],
            )
            .await
            .expect("a script runs");
        browser
            .client
            .wait()
            .for_element(Locator::Css(
                "#operations-tables-table_events.is-open .responses-wrapper",
            ))
            .await
            .expect("the operations open");
    }
}

/// Presses and releases one key in the focused element.
pub async fn press(browser: &Browser, key: fantoccini::key::Key) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let key: char = key.into();
    let actions = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    browser
        .client
        .perform_actions(actions)
        .await
        .expect("the key is pressed");
}

/// What has the focus, as `tag.class` and whether it is inside the board.
async fn focused(browser: &Browser) -> (String, bool) {
    let found = browser
        .client
        .execute(
            r#"const e = document.activeElement;
               return [e.tagName.toLowerCase() + "." + (e.getAttribute("class") || ""),
                       !!e.closest("svg.board")];"#,
            vec![],
        )
        .await
        .expect("a script runs");
    (
        found[0].as_str().unwrap_or_default().to_owned(),
        found[1].as_bool().unwrap_or(false),
    )
}

/// The first Tab reaches the skip link; following it, the next Tab is on the board, before
/// the site's links and every control beside the board.
#[actix_web::test]
async fn the_skip_link_comes_first_and_then_the_board() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("a11y-tab").await;
    for path in [
        "/play/herfor?size=5&pie=false&moves=c3",
        "/play/tara?moves=d4",
        "/play/hirth?target=1&moves=He",
    ] {
        browser.open(path).await;
        // The first Tab on a fresh page may only give the page the keyboard: the first
        // element it reaches is what counts.
        press(&browser, fantoccini::key::Key::Tab).await;
        if focused(&browser).await.0 == "body." {
            press(&browser, fantoccini::key::Key::Tab).await;
        }
        assert_eq!(focused(&browser).await, ("a.skip".into(), false), "{path}");
        press(&browser, fantoccini::key::Key::Enter).await;
        press(&browser, fantoccini::key::Key::Tab).await;
        let (element, on_board) = focused(&browser).await;
        assert!(
            on_board && element.starts_with("button.move"),
            "{path}: {element} has the focus"
        );
    }
    browser.finish().await;
}

/// The board's point with the focus, its name (its button's title), and where it is.
pub async fn focused_point(browser: &Browser) -> (String, f64, f64) {
    let found = browser
        .client
        .execute(
            r#"const e = document.activeElement; const r = e.getBoundingClientRect();
               return [e.getAttribute("title") || "", r.left + r.width / 2, r.top + r.height / 2];"#,
            vec![],
        )
        .await
        .expect("a script runs");
    (
        found[0].as_str().unwrap_or_default().to_owned(),
        found[1].as_f64().unwrap_or(0.0),
        found[2].as_f64().unwrap_or(0.0),
    )
}

/// With the script the board is ONE tab stop (a roving tabindex), and the arrow
/// keys move between its points in their direction; the next Tab leaves the board. Without
/// the script every point is a tab stop of its own.
#[actix_web::test]
async fn the_board_is_one_tab_stop_and_the_arrow_keys_move_between_its_points() {
    use fantoccini::key::Key;
    let path = "/play/herfor?size=5&pie=false&moves=c3";
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("a11y-roving").await;
    browser.open(path).await;
    let stops = "figure.board svg button:not([tabindex='-1'])";
    assert_eq!(browser.count("figure.board svg button").await, 60);
    // The script makes the board one stop once it runs.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while browser.count(stops).await != 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "one tab stop on the board"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // Following the skip link, the next Tab is on the board.
    press(&browser, Key::Tab).await;
    if focused(&browser).await.0 == "body." {
        press(&browser, Key::Tab).await;
    }
    assert_eq!(focused(&browser).await.0, "a.skip");
    press(&browser, Key::Enter).await;
    press(&browser, Key::Tab).await;
    let (first, x, y) = focused_point(&browser).await;
    assert!(first.starts_with("Place a white stone on "), "{first}");
    press(&browser, Key::Right).await;
    let (right, x2, y2) = focused_point(&browser).await;
    assert_ne!(right, first);
    assert!(
        x2 > x && (y2 - y).abs() < 1.0,
        "{first} → {right}: along the row"
    );
    // The first point is in the bottom row: up a row, and down again.
    press(&browser, Key::Up).await;
    let (up, _, y3) = focused_point(&browser).await;
    assert!(y3 < y2, "{right} → {up}: up a row");
    press(&browser, Key::Down).await;
    let (down, _, y4) = focused_point(&browser).await;
    assert!(y4 > y3, "{up} → {down}: down a row");
    press(&browser, Key::Left).await;
    assert_eq!(browser.count(stops).await, 1, "still one tab stop");
    press(&browser, Key::Tab).await;
    let (element, on_board) = focused(&browser).await;
    assert!(!on_board, "the next Tab leaves the board: {element}");
    browser.finish().await;

    let browser = Browser::start_without_script("a11y-roving-noscript").await;
    browser.open(path).await;
    assert_eq!(
        browser.count(stops).await,
        60,
        "without the script every point is a tab stop"
    );
    browser.finish().await;
}

/// The boxes (CSS px) of the targets `css` finds on the open page: (class, width, height).
async fn targets(browser: &Browser, css: &str) -> Vec<(String, f64, f64)> {
    let found = browser
        .client
        .execute(
            r#"return [...document.querySelectorAll(arguments[0])].map(a => {
                 const r = a.getBoundingClientRect();
                 return [a.getAttribute("class"), r.width, r.height];
               });"#,
            vec![serde_json::json!(css)],
        )
        .await
        .expect("a script runs");
    found
        .as_array()
        .expect("a list")
        .iter()
        .map(|t| {
            (
                t[0].as_str().unwrap_or_default().to_owned(),
                t[1].as_f64().unwrap_or(0.0),
                t[2].as_f64().unwrap_or(0.0),
            )
        })
        .collect()
}

/// On a 390 px phone every target on Tara's and Hirþ's boards is at least 44 × 44 px (WCAG
/// 2.5.5): the whole cell takes the click, and a crowded spot opens a choice of large buttons.
/// Herfor's board fits the screen's width, so its larger sizes have smaller cells: at least
/// 24 px (WCAG 2.5.8), each the whole cell around its point.
#[actix_web::test]
async fn every_board_target_is_a_finger_wide_on_a_phone() {
    let tara = random_game::<Tara>(&TaraOptions::default(), 1, 400);
    let attack = crate::scripts::hirth_attack();
    let mut hirth = attack.before.clone();
    hirth.extend(attack.steps.iter().cloned());
    let pages = [
        (
            "herfor-5-phone",
            "/play/herfor?size=5&pie=false&moves=c3".to_owned(),
        ),
        (
            "herfor-7-phone",
            "/play/herfor?size=7&pie=false&moves=d4".to_owned(),
        ),
        (
            "tara-phone",
            game_page("tara", "", &tara[..tara.len().min(12)]),
        ),
        (
            "hirth-start-phone",
            "/play/hirth?target=1&moves=He".to_owned(),
        ),
        ("hirth-attack-phone", game_page("hirth", "target=1", &hirth)),
    ];
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("a11y-targets").await;
    resize(&browser, PHONE).await;
    let mut small = Vec::new();
    for (name, path) in &pages {
        browser.open(path).await;
        browser.wait_for_styles().await;
        let mut found = targets(
            &browser,
            "figure.board svg button.move:not(g.choices button), figure.board a.chooser",
        )
        .await;
        assert!(!found.is_empty(), "{name}: the board has targets");
        let least = |badge: bool| {
            found
                .iter()
                .filter(|(class, ..)| class.contains("badge") == badge)
                .map(|&(_, w, h)| w.min(h))
                .reduce(f64::min)
        };
        eprintln!(
            "{name}: {} targets; smallest side {:?} px (whole spots), {:?} px (badges)",
            found.len(),
            least(false),
            least(true)
        );
        browser.screenshot(name).await;
        // The first crowded spot's choice, opened.
        if browser.count("figure.board a.chooser").await > 0 {
            browser
                .client
                .find(Locator::Css("figure.board a.chooser"))
                .await
                .expect("a chooser")
                .click()
                .await
                .expect("the choice opens");
            let buttons = targets(
                &browser,
                "figure.board g.choices:target button, figure.board g.choices:target a",
            )
            .await;
            assert!(
                buttons.len() >= 3,
                "{name}: two moves or more and the way back"
            );
            eprintln!(
                "{name}: a choice of {} buttons, smallest side {:?} px",
                buttons.len(),
                buttons.iter().map(|&(_, w, h)| w.min(h)).reduce(f64::min)
            );
            browser.screenshot(&format!("{name}-choice")).await;
            found.extend(buttons);
        }
        let least = if name.starts_with("herfor") {
            24.0
        } else {
            44.0
        };
        for (class, w, h) in &found {
            if w.min(*h) < least {
                small.push(format!("{name}: {class} {w:.1}×{h:.1}"));
            }
        }
    }
    browser.finish().await;
    assert!(small.is_empty(), "targets too small: {small:#?}");
}

/// No word on Hirþ's board is clipped or runs out of its box on a phone: the caption stays
/// inside the board, the words of a space or reserve inside its box.
#[actix_web::test]
async fn hirth_words_fit_their_boxes_on_a_phone() {
    let attack = crate::scripts::hirth_attack();
    let mut attacking = attack.before.clone();
    attacking.extend(attack.steps.iter().cloned());
    let pages = [
        (
            "hirth-start-phone",
            "/play/hirth?target=1&moves=He".to_owned(),
        ),
        (
            "hirth-attack-phone",
            game_page("hirth", "target=1", &attacking),
        ),
        (
            "hirth-retreat-phone",
            game_page("hirth", "target=1", &hirth_retreat()),
        ),
    ];
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("a11y-words").await;
    resize(&browser, PHONE).await;
    let mut outside = Vec::new();
    for (name, path) in &pages {
        browser.open(path).await;
        let found = browser
            .client
            .execute(
                r#"const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1
                                        && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
                   const svg = document.querySelector("figure.board svg.hirth");
                   const out = [];
                   for (const t of svg.querySelectorAll("g.caption text"))
                     if (!inside(t.getBoundingClientRect(), svg.getBoundingClientRect())) out.push(t.textContent);
                   for (const g of svg.querySelectorAll("g.space, g.reserve")) {
                     const box = g.querySelector(":scope > rect").getBoundingClientRect();
                     for (const t of g.querySelectorAll("text"))
                       if (!inside(t.getBoundingClientRect(), box)) out.push(t.textContent);
                   }
                   return out;"#,
                vec![],
            )
            .await
            .expect("a script runs");
        for words in found.as_array().expect("a list") {
            outside.push(format!("{name}: {words}"));
        }
        browser.screenshot(name).await;
    }
    browser.finish().await;
    assert!(outside.is_empty(), "words out of their boxes: {outside:#?}");
}
