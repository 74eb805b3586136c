//! The play page at phone size: the turn's controls on the first screen, a Hirþ turn
//! composed on the page and sent whole (and played without JavaScript), and a double click
//! against the computer starting one search.

use std::time::{Duration, Instant};

use fantoccini::Locator;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use moot::games::hirth::{Hirth, HirthOptions};
use moot::games::{Game, Turn};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;

use crate::harness::{Browser, ONE_AT_A_TIME};

const PHONE: (u32, u32) = (390, 844);

async fn phone(browser: &Browser) {
    browser
        .client
        .set_window_size(PHONE.0, PHONE.1)
        .await
        .expect("a phone-sized window");
}

/// Whether the element's box lies inside the first screen, unscrolled.
async fn on_first_screen(browser: &Browser, css: &str) -> bool {
    let script = format!(
        "window.scrollTo(0, 0); var e = document.querySelector({css:?}); \
         if (!e) return 'missing'; var r = e.getBoundingClientRect(); \
         return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;"
    );
    let answer = browser
        .client
        .execute(&script, vec![])
        .await
        .expect("a script runs");
    assert_ne!(answer, serde_json::json!("missing"), "{css} is on the page");
    answer == serde_json::json!(true)
}

/// After Black's first stone with the pie rule, the swap; in a Hirþ turn, its end; each with
/// undo and the hint: all on the first screen of a phone.
#[actix_web::test]
async fn the_turns_controls_are_on_a_phones_first_screen() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("play-controls").await;
    phone(&browser).await;
    browser.open("/play/herfor?size=5&pie=true&moves=c3").await;
    for css in [
        r#"div.turn button[value="swap"]"#,
        "div.turn button[name=undo]",
        "div.turn button[name=hint]",
        "div.turn a.new-game",
    ] {
        assert!(on_first_screen(&browser, css).await, "{css}");
    }
    assert!(
        !browser.is_open("details.actions").await,
        "the list of every move is folded away"
    );
    browser.screenshot("play-herfor-phone-swap").await;

    browser.open("/play/hirth?target=1&moves=He").await;
    assert!(
        on_first_screen(&browser, r#"div.turn button[value^="end"]"#).await,
        "the end of the turn"
    );
    assert!(on_first_screen(&browser, "div.turn button[name=undo]").await);
    assert!(on_first_screen(&browser, "div.turn a.new-game").await);
    browser.screenshot("play-hirth-phone-end").await;
    // Shown to the board's foot (the page or the board's window scrolled), the turn's end
    // is still in sight.
    let in_sight = browser
        .client
        .execute(
            "document.getElementById('board').scrollIntoView({block: 'end'});              const board = document.getElementById('board').getBoundingClientRect();              const end = document.querySelector('div.turn button[value^=\"end\"]').getBoundingClientRect();              return [end.top >= 0 && end.bottom <= window.innerHeight,                      board.bottom <= window.innerHeight + 1];",
            vec![],
        )
        .await
        .expect("a script runs");
    assert_eq!(
        in_sight,
        serde_json::json!([true, true]),
        "scrolled to the board's foot, the end of the turn stays on screen"
    );
    browser.screenshot("play-hirth-phone-scrolled").await;
    browser.finish().await;
}

/// The moves before a Hirþ turn of five steps, and the turn: the five steps, each leaving
/// the same player to act, then the move that ends it.
pub(crate) fn hirth_five_step_turn() -> (Vec<String>, Vec<String>) {
    let options = HirthOptions { target: 1 };
    for seed in 0..200 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut state = Hirth::new_game(&options).expect("a game");
        let mut played: Vec<String> = Vec::new();
        let mut turn_start = 0;
        for _ in 0..200 {
            let Turn::ToAct(seat) = Hirth::turn(&state) else {
                break;
            };
            let moves: Vec<(String, _)> = Hirth::legal_moves(&state)
                .into_iter()
                .map(|mv| (Hirth::format_move(&state, &mv), mv))
                .filter(|(t, _)| t != "offer" && t != "give-up")
                .collect();
            let steps: Vec<_> = moves
                .iter()
                .filter(|(_, mv)| {
                    let mut after = state.clone();
                    Hirth::apply(&mut after, mv).is_ok() && Hirth::turn(&after) == Turn::ToAct(seat)
                })
                .collect();
            let ends: Vec<_> = moves.iter().filter(|(t, _)| t.starts_with("end")).collect();
            let taken = played.len() - turn_start;
            if taken == 5 && !ends.is_empty() {
                let (end, _) = ends.choose(&mut rng).expect("an end");
                let mut turn = played[turn_start..].to_vec();
                turn.push(end.clone());
                return (played[..turn_start].to_vec(), turn);
            }
            let (text, mv) = match steps.choose(&mut rng) {
                Some(step) if taken < 5 => *step,
                _ => moves.choose(&mut rng).expect("a move"),
            };
            Hirth::apply(&mut state, mv).expect("a legal move");
            played.push(text.clone());
            if Hirth::turn(&state) != Turn::ToAct(seat) {
                turn_start = played.len();
            }
        }
    }
    panic!("no random game has a turn of five steps");
}

pub(crate) fn hirth_link(moves: &[String]) -> String {
    let query = form_urlencoded::Serializer::new(String::new())
        .append_pair("target", "1")
        .append_pair("moves", &moves.join("."))
        .finish();
    format!("/play/hirth?{query}")
}

/// With the script, the five steps show on the page as they are clicked (no page load: a
/// mark set on the page survives them), a step can be taken back, and the end of the turn
/// sends the whole turn as one request.
#[actix_web::test]
async fn a_whole_hirth_turn_of_five_steps_is_composed_on_the_page_and_sent_at_once() {
    let (before, turn) = hirth_five_step_turn();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("play-hirth-compose").await;
    phone(&browser).await;
    let start = hirth_link(&before);
    browser.open(&start).await;
    let url = browser.url().await;
    browser
        .client
        .execute("window.mootMark = 'no page load';", vec![])
        .await
        .expect("a script runs");
    let (end, steps) = turn.split_last().expect("a turn");
    for (index, step) in steps.iter().enumerate() {
        browser.play(step).await;
        let composed = browser.composed().await;
        assert!(
            composed.contains(&steps[..=index].join(", ")),
            "step {} shows: {composed}",
            index + 1
        );
    }
    assert_eq!(browser.url().await, url, "no step loaded a page");
    browser.screenshot("play-hirth-composed").await;
    // Take the fifth step back, and play it again.
    browser
        .client
        .find(Locator::Id("undo-step"))
        .await
        .expect("the undo of a step")
        .click()
        .await
        .expect("clicked");
    assert!(
        browser.composed().await.contains(&steps[..4].join(", ")),
        "four steps left"
    );
    assert!(!browser.composed().await.contains(&steps[..5].join(", ")));
    browser.play(&steps[4]).await;
    let mark = browser
        .client
        .execute("return window.mootMark || null;", vec![])
        .await
        .expect("a script runs");
    assert_eq!(mark, serde_json::json!("no page load"));
    // The end sends the turn: one request from the position before it.
    browser.play(end).await;
    let after = browser.url().await;
    let expected = format!(
        "{}{}",
        browser.base,
        hirth_link(&[before, turn.clone()].concat())
    );
    assert_eq!(
        after.split('#').next(),
        Some(expected.as_str()),
        "the turn was played"
    );
    let mark = browser
        .client
        .execute("return window.mootMark || null;", vec![])
        .await
        .expect("a script runs");
    assert_eq!(
        mark,
        serde_json::Value::Null,
        "the turn's answer is a new page"
    );
    // The turn was played by clicks: the next page rings no point of the board.
    let focused = browser
        .client
        .execute(
            "var e = document.activeElement; return [!!e.closest('#board'), e.matches(':focus-visible')];",
            vec![],
        )
        .await
        .expect("a script runs");
    assert_ne!(
        focused,
        serde_json::json!([true, true]),
        "no focus ring on the board at {after}"
    );
    browser.screenshot("play-hirth-sent").await;
    browser.finish().await;
}

/// Without JavaScript the same turn is played step by step, each a page.
#[actix_web::test]
async fn a_whole_hirth_turn_of_five_steps_is_played_without_javascript() {
    let (before, turn) = hirth_five_step_turn();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start_without_script("play-hirth-noscript").await;
    phone(&browser).await;
    browser.open(&hirth_link(&before)).await;
    // One click on the board plays a step: its button sends the form, the next page is the
    // position after it.
    let first = format!(
        r#"figure.board svg button[name="play"][value="{}"]"#,
        turn[0]
    );
    assert_eq!(
        browser.count(&first).await,
        1,
        "the first step is on the board"
    );
    let page = browser.url().await;
    browser.play(&turn[0]).await;
    assert_ne!(browser.url().await, page, "one click, one page");
    assert!(!browser.url().await.contains("#move-"));
    assert!(
        !browser.is_open("details.actions").await,
        "the list stays folded"
    );
    for step in &turn[1..] {
        browser.play(step).await;
    }
    let expected = format!(
        "{}{}",
        browser.base,
        hirth_link(&[before, turn.clone()].concat())
    );
    assert_eq!(
        browser.url().await.split('#').next(),
        Some(expected.as_str())
    );
    assert!(
        browser.text("section.happened").await.contains(&turn[0]),
        "the page says what the turn did"
    );
    browser.screenshot("play-hirth-noscript").await;
    browser.finish().await;
}

/// The play-page searches the server has started, from its metrics.
async fn page_searches(browser: &Browser) -> u64 {
    let text = browser
        .client
        .execute_async(
            "var done = arguments[0]; fetch('/metrics').then(r => r.text()).then(done);",
            vec![],
        )
        .await
        .expect("the metrics")
        .as_str()
        .unwrap_or_default()
        .to_owned();
    text.lines()
        .find_map(|line| line.strip_prefix("moot_page_searches_total "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no page searches in the metrics:\n{text}")) as u64
}

/// A double click on a point against the computer sends one move: the page shows it at
/// once with the computer thinking, and the server searches one answer.
#[actix_web::test]
async fn a_double_click_against_the_computer_starts_one_search() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("play-double-click").await;
    phone(&browser).await;
    browser
        .open("/play/herfor?size=7&pie=false&computer=second&strength=strong&moves=")
        .await;
    assert_eq!(page_searches(&browser).await, 0);
    let before = browser.url().await;
    let point = browser
        .client
        .find(Locator::Css(r#"svg.herfor button.move[data-point="d4"]"#))
        .await
        .expect("d4 is offered");
    let double = MouseActions::new("mouse".to_owned())
        .then(PointerAction::MoveToElement {
            element: point,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    browser
        .client
        .perform_actions(double)
        .await
        .expect("a double click");
    // While the computer thinks (or already answered), the page said so.
    let status = browser
        .client
        .execute(
            "var s = document.getElementById('turn'); return s ? s.textContent : '';",
            vec![],
        )
        .await
        .expect("a script runs");
    let status = status.as_str().unwrap_or_default().to_owned();
    if browser.url().await == before {
        assert!(
            status.contains("You (Black) played d4.") && status.contains("thinking"),
            "{status}"
        );
        browser.screenshot("play-thinking").await;
    }
    browser.wait_until_left(&before).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while browser.count("ol.moves").await == 0 {
        assert!(Instant::now() < deadline, "the computer answered");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let record = browser.record().await;
    assert_eq!(
        record.split_whitespace().count(),
        2,
        "d4 and the answer: {record}"
    );
    assert!(
        record.starts_with("d4 "),
        "the point clicked, then the answer: {record}"
    );
    assert_eq!(
        page_searches(&browser).await,
        1,
        "one search for a double click"
    );
    browser.finish().await;
}

/// Clicks a board's button by script and reports, in the same turn of the page's event loop
/// (before the next page can arrive), what `probe` returns: what the click drew at once.
async fn click_and_probe(browser: &Browser, css: &str, probe: &str) -> serde_json::Value {
    browser
        .client
        .execute(
            &format!("document.querySelector(arguments[0]).click(); {probe}"),
            vec![serde_json::json!(css)],
        )
        .await
        .expect("a script runs")
}

/// A Herfor position (size 5, no pie rule) with Black to move and a placement that flips
/// white stones (F3): the moves to it, the point, and the points it flips.
fn herfor_flipping_position() -> (Vec<String>, String, Vec<String>) {
    use moot::games::herfor::{Colour, Herfor, HerforEvent, HerforOptions};
    let options = HerforOptions {
        size: 5,
        pie: false,
        simple: false,
    };
    let mut state = Herfor::new_game(&options).expect("a game");
    let mut moves = Vec::new();
    let mut rng = SmallRng::seed_from_u64(11);
    loop {
        let legal = Herfor::legal_moves(&state);
        if state.to_move() == Colour::Black {
            for mv in &legal {
                let mut after = state.clone();
                let events = Herfor::apply(&mut after, mv).expect("a legal move");
                if let Some(HerforEvent::Placed { point, flipped, .. }) = events.first()
                    && !flipped.is_empty()
                {
                    return (moves, point.clone(), flipped.clone());
                }
            }
        }
        let mv = *legal.choose(&mut rng).expect("the game goes on");
        moves.push(Herfor::format_move(&state, &mv));
        Herfor::apply(&mut state, &mv).expect("a legal move");
    }
}

/// Against the computer, the player's own stone is drawn at once where they
/// clicked, and the stones it flips (F3) turn to the player's colour, while the computer
/// thinks; then the computer's answer arrives. The status says who played.
#[actix_web::test]
async fn herfor_the_players_stone_is_drawn_at_once_while_the_computer_thinks() {
    let (moves, point, flipped) = herfor_flipping_position();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("play-own-stone").await;
    browser
        .open(&format!(
            "/play/herfor?size=5&pie=false&computer=second&moves={}",
            moves.join(".")
        ))
        .await;
    let before = browser.url().await;
    assert_eq!(
        browser.count(r#"#own-stone[visibility="hidden"]"#).await,
        1,
        "the stone waits, hidden"
    );
    let stones = |names: &[String]| {
        names
            .iter()
            .map(|n| format!(r#"g[data-point="{n}"] circle.stone"#))
            .collect::<Vec<_>>()
    };
    let flipped_css = serde_json::to_string(&stones(&flipped)).expect("json");
    let classes = format!(
        "return {flipped_css}.map(function (c) {{ return document.querySelector(c).getAttribute('class'); }});"
    );
    let white = browser
        .client
        .execute(&classes, vec![])
        .await
        .expect("a script runs");
    assert!(
        white
            .as_array()
            .is_some_and(|a| a.iter().all(|c| c == "stone white")),
        "white before the move: {white}"
    );
    let drawn = click_and_probe(
        &browser,
        &format!(r#"svg.herfor button[data-point="{point}"]"#),
        &format!(
            r#"var s = document.getElementById("own-stone");
               var f = document.querySelector('svg.herfor button[data-point="{point}"]').parentNode;
               var flipped = {flipped_css}.map(function (c) {{
                   var stone = document.querySelector(c);
                   return stone.getAttribute("class") + " " + stone.getAttribute("fill"); }});
               return [s.getAttribute("visibility"), s.getAttribute("class"),
                       parseFloat(s.getAttribute("cx")) - parseFloat(f.getAttribute("x")) - parseFloat(f.getAttribute("width")) / 2,
                       parseFloat(s.getAttribute("cy")) - parseFloat(f.getAttribute("y")) - parseFloat(f.getAttribute("height")) / 2,
                       document.getElementById("turn").textContent,
                       flipped, s.getAttribute("class") + " " + s.getAttribute("fill")];"#
        ),
    )
    .await;
    assert_eq!(drawn[0], "visible", "{drawn}");
    assert_eq!(drawn[1], "stone black", "{drawn}");
    assert_eq!(
        (drawn[2].as_f64(), drawn[3].as_f64()),
        (Some(0.0), Some(0.0)),
        "on {point}: {drawn}"
    );
    assert!(
        drawn[4]
            .as_str()
            .unwrap_or_default()
            .contains(&format!("You (Black) played {point}.")),
        "{drawn}"
    );
    assert_eq!(
        drawn[5].as_array().map(Vec::len),
        Some(flipped.len()),
        "{drawn}"
    );
    assert!(
        drawn[5]
            .as_array()
            .is_some_and(|a| a.iter().all(|c| *c == drawn[6])),
        "{flipped:?} flipped to black at once: {drawn}"
    );
    browser.wait_until_left(&before).await;
    browser.finish().await;
}

/// A Tara king's move is drawn at once: the player's king on the hill it goes to,
/// the king it leaves faded.
#[actix_web::test]
async fn tara_the_players_king_is_drawn_on_its_hill_at_once() {
    use moot::games::tara::{Tara, TaraOptions};
    // Past the setup: a position where the player to move has a king's step on the board.
    let mut state = Tara::new_game(&TaraOptions::default()).expect("a game");
    let mut moves = Vec::new();
    let mut rng = SmallRng::seed_from_u64(7);
    let step = loop {
        let legal = Tara::legal_moves(&state);
        if let Some(step) = legal
            .iter()
            .find(|mv| Tara::format_move(&state, mv).contains('-'))
        {
            break Tara::format_move(&state, step);
        }
        let mv = *legal.choose(&mut rng).expect("a move");
        moves.push(Tara::format_move(&state, &mv));
        Tara::apply(&mut state, &mv).expect("a legal move");
    };
    let (from, to) = step.split_once('-').expect("from-to");
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("play-own-king").await;
    browser
        .open(&format!("/play/tara?moves={}", moves.join(".")))
        .await;
    let before = browser.url().await;
    let drawn = click_and_probe(
        &browser,
        &format!(r#"figure.board svg button[value="{step}"]"#),
        &format!(
            r#"var p = document.getElementById("own-piece");
               var to = document.querySelector('g.hill[data-hill="{to}"] circle');
               var from = document.querySelector('g.hill[data-hill="{from}"] g.crown');
               return [p.getAttribute("visibility"), p.getAttribute("transform"),
                       "translate(" + to.getAttribute("cx") + " " + to.getAttribute("cy") + ")",
                       from.getAttribute("opacity"), document.getElementById("turn").textContent];"#
        ),
    )
    .await;
    assert_eq!(drawn[0], "visible", "{step}: {drawn}");
    assert_eq!(drawn[1], drawn[2], "{step}: the king on {to}: {drawn}");
    assert_eq!(drawn[3], "0.25", "{step}: the king leaves {from}: {drawn}");
    // Between two at one screen the status names the colour that played, not "You".
    let mover = state.to_move.title();
    assert!(
        drawn[4]
            .as_str()
            .unwrap_or_default()
            .starts_with(&format!("{mover} played {step}.")),
        "{drawn}"
    );
    browser.wait_until_left(&before).await;
    browser.finish().await;
}

/// A Tara king's move that captures a ringfort (T7) turns it to the player's colour
/// at once, and the kings it captures leave the board, as the server wrote on its button.
#[actix_web::test]
async fn tara_a_captured_ringfort_turns_to_the_players_colour_at_once() {
    use moot::games::tara::{Tara, TaraEvent, TaraOptions};
    let mut state = Tara::new_game(&TaraOptions::default()).expect("a game");
    let mut moves = Vec::new();
    let mut rng = SmallRng::seed_from_u64(3);
    let (capture, to, kings) = 'search: loop {
        let legal = Tara::legal_moves(&state);
        for mv in &legal {
            let mut after = state.clone();
            let events = Tara::apply(&mut after, mv).expect("a legal move");
            if let Some(to) = events.iter().find_map(|e| match e {
                TaraEvent::RingfortCaptured { to, .. } => Some(to.to_string()),
                _ => None,
            }) {
                let kings: Vec<String> = events
                    .iter()
                    .flat_map(|e| match e {
                        TaraEvent::KingsCaptured { hills, .. } => {
                            hills.iter().map(ToString::to_string).collect()
                        }
                        _ => Vec::new(),
                    })
                    .collect();
                break 'search (Tara::format_move(&state, mv), to, kings);
            }
        }
        let mv = *legal.choose(&mut rng).expect("the game goes on");
        moves.push(Tara::format_move(&state, &mv));
        Tara::apply(&mut state, &mv).expect("a legal move");
        if Tara::legal_moves(&state).is_empty() {
            state = Tara::new_game(&TaraOptions::default()).expect("a game");
            moves.clear();
        }
    };
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("play-capture").await;
    browser
        .open(&format!("/play/tara?moves={}", moves.join(".")))
        .await;
    let before = browser.url().await;
    let fill = format!(
        r#"document.querySelector('g.hill[data-hill="{to}"] circle.ringfort').getAttribute("fill")"#
    );
    let kings_css = serde_json::to_string(
        &kings
            .iter()
            .map(|h| format!(r#"g.hill[data-hill="{h}"] g.crown"#))
            .collect::<Vec<_>>(),
    )
    .expect("json");
    let drawn = click_and_probe(
        &browser,
        &format!(r#"figure.board svg button[value="{capture}"]"#),
        &format!(
            r#"var own = document.querySelector('#own-piece circle.ringfort').getAttribute("fill");
               var kings = {kings_css}.map(function (c) {{ return document.querySelector(c).getAttribute("visibility"); }});
               return [{fill}, own, kings];"#
        ),
    )
    .await;
    assert_eq!(
        drawn[0], drawn[1],
        "{capture}: the ringfort on {to} in the player's colour: {drawn}"
    );
    assert!(
        drawn[2]
            .as_array()
            .is_some_and(|a| a.len() == kings.len() && a.iter().all(|v| v == "hidden")),
        "{capture}: the kings captured on {kings:?} are gone: {drawn}"
    );
    browser.wait_until_left(&before).await;
    browser.finish().await;
}

/// A Tara king's move whose new ringfort joins the player's ringforts beside it
/// (T6, in Battle) draws the bridges at once, in the player's colour, as the server wrote on
/// its button.
#[actix_web::test]
async fn tara_a_new_ringforts_bridges_are_drawn_at_once() {
    use moot::games::tara::board::Board;
    use moot::games::tara::geometry::hills_of;
    use moot::games::tara::{Tara, TaraOptions};
    // The pairs of one colour's adjacent ringforts on a board.
    let linked = |board: &Board, colour| {
        let forts = board.ringforts(colour);
        hills_of(forts)
            .flat_map(|hill| {
                hills_of(hill.neighbours() & forts)
                    .filter(move |next| next.0 > hill.0)
                    .map(move |next| (hill.to_string(), next.to_string()))
            })
            .collect::<Vec<_>>()
    };
    let mut state = Tara::new_game(&TaraOptions::default()).expect("a game");
    let mut moves = Vec::new();
    let mut rng = SmallRng::seed_from_u64(5);
    let (linking, bridges) = 'search: loop {
        let legal = Tara::legal_moves(&state);
        let before = linked(&Board::of(&state), state.to_move);
        for mv in &legal {
            let mut after = state.clone();
            Tara::apply(&mut after, mv).expect("a legal move");
            let new: Vec<_> = linked(&Board::of(&after), state.to_move)
                .into_iter()
                .filter(|pair| !before.contains(pair))
                .collect();
            if !new.is_empty() {
                break 'search (Tara::format_move(&state, mv), new);
            }
        }
        let mv = *legal.choose(&mut rng).expect("the game goes on");
        moves.push(Tara::format_move(&state, &mv));
        Tara::apply(&mut state, &mv).expect("a legal move");
        if Tara::legal_moves(&state).is_empty() {
            state = Tara::new_game(&TaraOptions::default()).expect("a game");
            moves.clear();
        }
    };
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("play-bridges").await;
    browser
        .open(&format!("/play/tara?moves={}", moves.join(".")))
        .await;
    let before = browser.url().await;
    let pairs = serde_json::to_string(&bridges).expect("json");
    // For each new pair: whether a bridge in the player's colour joins the two hills' centres.
    let drawn = click_and_probe(
        &browser,
        &format!(r#"figure.board svg button[value="{linking}"]"#),
        &format!(
            r##"var ink = document.querySelector('#own-piece circle.ringfort').getAttribute("stroke");
               var centre = function (h) {{
                 var c = document.querySelector('g.hill[data-hill="' + h + '"] circle');
                 return c.getAttribute("cx") + "," + c.getAttribute("cy");
               }};
               var lines = [...document.querySelectorAll("figure.board svg line.bridge")]
                 .filter(function (l) {{ return !l.closest("#own-bridge, #their-bridge"); }})
                 .map(function (l) {{
                   return [l.getAttribute("x1") + "," + l.getAttribute("y1"),
                           l.getAttribute("x2") + "," + l.getAttribute("y2"),
                           l.getAttribute("stroke")];
                 }});
               return {pairs}.map(function (pair) {{
                 var a = centre(pair[0]), b = centre(pair[1]);
                 return lines.some(function (l) {{
                   return l[2] === ink && ((l[0] === a && l[1] === b) || (l[0] === b && l[1] === a));
                 }});
               }});"##
        ),
    )
    .await;
    assert!(
        drawn.as_array().is_some_and(
            |a| a.len() == bridges.len() && a.iter().all(|v| v.as_bool() == Some(true))
        ),
        "{linking}: the bridges {bridges:?} drawn in the player's colour: {drawn}"
    );
    browser.wait_until_left(&before).await;
    browser.finish().await;
}

/// Tara's options name the first player's colour in the computer's choices, and
/// follow the choice of colour on the form.
#[actix_web::test]
async fn tara_options_follow_the_colour_chosen() {
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("options-colour").await;
    browser.open("/play/tara").await;
    let you_first = r#"select[name="computer"] option[value="second"]"#;
    assert_eq!(
        browser.content(you_first).await,
        "The computer; you move first (red)"
    );
    browser
        .client
        .find(Locator::Css(r#"select[name="first"] option[value="blue"]"#))
        .await
        .expect("Blue")
        .click()
        .await
        .expect("chosen");
    assert_eq!(
        browser.content(you_first).await,
        "The computer; you move first (blue)"
    );
    assert_eq!(
        browser
            .content(r#"select[name="computer"] option[value="first"]"#)
            .await,
        "The computer; it moves first (blue)"
    );
    browser.finish().await;
}

/// Mid-game on a phone (a viewport of 360×740 and of 390×844), whichever colour moves: its
/// home, its reserve and the button that ends the turn are all on the first screen,
/// unscrolled.
#[actix_web::test]
async fn hirth_the_movers_home_reserve_and_the_turns_end_share_a_phones_first_screen() {
    let (before, turn) = hirth_five_step_turn();
    // Two positions mid-turn: the five-step turn's mover, and the other colour's next turn.
    let mut positions = vec![[before.clone(), turn[..2].to_vec()].concat()];
    let mut state = Hirth::new_game(&HirthOptions { target: 1 }).expect("a game");
    let mut played = Vec::new();
    for text in before.iter().chain(&turn) {
        let mv = Hirth::parse_move(&state, text).expect("a move of the game");
        Hirth::apply(&mut state, &mv).expect("legal");
        played.push(text.clone());
    }
    let first = Hirth::legal_moves(&state)
        .into_iter()
        .map(|mv| Hirth::format_move(&state, &mv))
        .find(|text| !text.starts_with("end") && text != "offer" && text != "give-up")
        .expect("a step");
    played.push(first);
    positions.push(played);

    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("play-hirth-first-screen").await;
    let mut movers = Vec::new();
    for size in [(360, 740), PHONE] {
        browser.set_viewport(size).await;
        for moves in &positions {
            browser.open(&hirth_link(moves)).await;
            browser.wait_for_styles().await;
            let seen = browser
                .client
                .execute(
                    r#"window.scrollTo(0, 0);
                       const mover = document.querySelector("p.status strong").textContent.split(" ")[0];
                       const titled = (css, start) => Array.from(document.querySelectorAll(css))
                         .find(g => g.querySelector("title").textContent.startsWith(start));
                       const board = document.getElementById("board").getBoundingClientRect();
                       const shown = e => {
                         if (!e) return false;
                         const r = e.getBoundingClientRect();
                         return r.height > 0 && r.top >= Math.max(0, board.top) - 1
                           && r.bottom <= Math.min(window.innerHeight, board.bottom) + 1;
                       };
                       const end = document.querySelector('div.turn button[value^="end"]').getBoundingClientRect();
                       return [mover,
                               shown(titled("svg.hirth g.space", mover + "'s home")),
                               shown(titled("svg.hirth g.reserve", mover + "'s reserve")),
                               end.top >= 0 && end.bottom <= window.innerHeight];"#,
                    vec![],
                )
                .await
                .expect("a script runs");
            let mover = seen[0].as_str().unwrap_or_default().to_owned();
            browser
                .screenshot(&format!("play-hirth-first-screen-{mover}-{}", size.0))
                .await;
            assert_eq!(
                seen,
                serde_json::json!([mover, true, true, true]),
                "{mover}'s home, reserve and the end of the turn at {size:?}: {}",
                hirth_link(moves)
            );
            movers.push(mover);
        }
    }
    assert!(
        movers.contains(&"Gull".to_owned()) && movers.contains(&"Silfr".to_owned()),
        "both colours' ends: {movers:?}"
    );
    browser.finish().await;
}

/// At the end of every game, on a phone (viewports of 360×740 and 390×844): "Play again" and
/// "New game" are on the first screen, beside the result.
#[actix_web::test]
async fn at_the_end_play_again_and_new_game_are_on_a_phones_first_screen() {
    let finished: Vec<(String, String)> = crate::a11y::pages()
        .into_iter()
        .filter(|(name, _)| name.ends_with(" finished"))
        .collect();
    assert_eq!(finished.len(), 3, "a finished game of each game");
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("play-finished-first-screen").await;
    for size in [(360, 740), PHONE] {
        browser.set_viewport(size).await;
        for (name, path) in &finished {
            browser.open(path).await;
            browser.wait_for_styles().await;
            assert!(
                browser.text("p.status").await.starts_with("Game over"),
                "{name}"
            );
            for css in [r#"p.again a[href*="moves="]"#, "p.again a.secondary"] {
                assert!(
                    on_first_screen(&browser, css).await,
                    "{css} of {name} at {size:?}"
                );
            }
        }
    }
    browser.finish().await;
}
