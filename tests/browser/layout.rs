//! Hirþ's play page laid out for both screens: on a desktop the whole board, the mover's home
//! and reserve and the end of the turn in one window; on a phone the mover's end of the board
//! and the end of the turn on the first screen, the Penningr offer a secondary control after
//! it; and the moves' tags on the board never over the piece counts.

use fantoccini::Locator;
use moot::games::hirth::{Colour, Hirth, HirthOptions, HirthState, Move, Phase, Space};
use moot::games::{Game, Seat, Turn};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use serde_json::json;

use crate::fit::{PHONE, SMALL_PHONE};
use crate::harness::{Browser, ONE_AT_A_TIME};
use crate::play::{hirth_five_step_turn, hirth_link};

/// A desktop's window, as the players reported it.
const DESKTOP: (u32, u32) = (1280, 800);

fn replayed(moves: &[String]) -> HirthState {
    let mut state = Hirth::new_game(&HirthOptions { target: 1 }).expect("a game");
    for text in moves {
        let mv = Hirth::parse_move(&state, text).expect("a move of the game");
        Hirth::apply(&mut state, &mv).expect("legal");
    }
    state
}

/// Two positions mid-turn, one for each colour: the five-step turn's mover after two steps,
/// and the other colour after the first step of its next turn.
fn mid_turns() -> Vec<Vec<String>> {
    let (before, turn) = hirth_five_step_turn();
    let first = [before.clone(), turn[..2].to_vec()].concat();
    let mut next = [before, turn].concat();
    let state = replayed(&next);
    let step = Hirth::legal_moves(&state)
        .into_iter()
        .map(|mv| Hirth::format_move(&state, &mv))
        .find(|text| !text.starts_with("end") && text != "offer" && text != "give-up")
        .expect("a step");
    next.push(step);
    vec![first, next]
}

/// The mover's colour as the board's titles name it (`Gull`), and its seat.
fn mover(moves: &[String]) -> (String, Seat) {
    let state = replayed(moves);
    let Turn::ToAct(seat) = Hirth::turn(&state) else {
        panic!("someone acts mid-turn");
    };
    let colour = match state.position.mover {
        Colour::Gull => "Gull",
        Colour::Silfr => "Silfr",
    };
    (colour.to_owned(), seat)
}

/// The page of `moves` against the computer, which plays the other seat than the mover's.
fn against_the_computer(moves: &[String]) -> String {
    let computer = match mover(moves).1 {
        Seat::First => "second",
        Seat::Second => "first",
    };
    format!("{}&computer={computer}&strength=easy", hirth_link(moves))
}

/// Where the board, the mover's home and reserve and the end of the turn lie in the window
/// as it is: `true` for each inside it, else its box; the board's height; whether the page is
/// wider than the window.
const IN_THE_WINDOW: &str = r#"
    const mover = arguments[0];
    const titled = (css, start) => Array.from(document.querySelectorAll(css))
      .find(g => g.querySelector("title").textContent.startsWith(start));
    const inside = e => {
      if (!e) return "missing";
      const r = e.getBoundingClientRect();
      const ok = r.width > 0 && r.left >= -0.5 && r.top >= -0.5
        && r.right <= window.innerWidth + 0.5 && r.bottom <= window.innerHeight + 0.5;
      return ok || `${r.left.toFixed(0)},${r.top.toFixed(0)} to ${r.right.toFixed(0)},${r.bottom.toFixed(0)}`;
    };
    const board = document.querySelector("figure.board svg.hirth");
    return [
      inside(board),
      inside(titled("svg.hirth g.space", mover + "'s home")),
      inside(titled("svg.hirth g.reserve", mover + "'s reserve")),
      inside(document.querySelector('div.turn button[value^="end"]')),
      board ? Math.round(board.getBoundingClientRect().height) : 0,
      document.documentElement.scrollWidth > window.innerWidth,
    ];"#;

/// At 1280×800, mid-turn for each colour (two at one screen and against the computer): as the
/// page opens, fresh or after a move (at the status line, `#turn`), the whole board, scaled to the
/// window's height (at least 600 px of its 800), the mover's home and reserve and the end of
/// the turn are all inside the window, and nothing scrolls sideways.
#[actix_web::test]
async fn on_a_desktop_the_whole_board_the_movers_home_and_reserve_and_the_turns_end_share_one_window()
 {
    let positions = mid_turns();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("layout-desktop").await;
    browser.set_viewport(DESKTOP).await;
    let mut movers = Vec::new();
    for moves in &positions {
        let (colour, _) = mover(moves);
        for (who, link) in [
            ("two at one screen", hirth_link(moves)),
            ("against the computer", against_the_computer(moves)),
        ] {
            // Opened fresh (at its top) and after a move (at the status line).
            for at in ["", "#turn"] {
                browser.open(&format!("{link}{at}")).await;
                browser.wait_for_styles().await;
                let seen = browser
                    .client
                    .execute(IN_THE_WINDOW, vec![json!(colour)])
                    .await
                    .expect("a script runs");
                browser
                    .screenshot(&format!(
                        "hirth-desktop-1280-{colour}-{}{}",
                        who.replace(' ', "-"),
                        if at.is_empty() { "-fresh" } else { "" }
                    ))
                    .await;
                let height = seen[4].as_u64().unwrap_or(0);
                assert_eq!(
                    (&seen[0], &seen[1], &seen[2], &seen[3], &seen[5]),
                    (
                        &json!(true),
                        &json!(true),
                        &json!(true),
                        &json!(true),
                        &json!(false)
                    ),
                    "{colour} {who}: the board, {colour}'s home, reserve and the turn's end in the window, \
                 nothing sideways: {seen} ({link}{at})"
                );
                assert!(
                    (600..=800).contains(&height),
                    "{colour} {who}: the board scaled to the window's height: {height} px"
                );
            }
        }
        movers.push(colour);
    }
    assert!(
        movers.contains(&"Gull".to_owned()) && movers.contains(&"Silfr".to_owned()),
        "both colours' turns: {movers:?}"
    );
    // The picture of the page for the report: the first position, two at one screen.
    browser
        .open(&format!("{}#turn", hirth_link(&positions[0])))
        .await;
    browser.wait_for_styles().await;
    browser.screenshot("hirth-desktop-1280").await;
    browser.finish().await;
}

/// What the turn's controls show on a phone's first screen (unscrolled): the mover's home and
/// reserve inside the board's window and the screen, the end of the turn on the screen, which
/// control comes first, and the Penningr offer's place and fill against the end's.
const FIRST_SCREEN: &str = r#"
    window.scrollTo(0, 0);
    const mover = arguments[0];
    const titled = (css, start) => Array.from(document.querySelectorAll(css))
      .find(g => g.querySelector("title").textContent.startsWith(start));
    const board = document.getElementById("board").getBoundingClientRect();
    const shown = e => {
      if (!e) return "missing";
      const r = e.getBoundingClientRect();
      return (r.height > 0 && r.top >= Math.max(0, board.top) - 1
        && r.bottom <= Math.min(window.innerHeight, board.bottom) + 1)
        || `${r.top.toFixed(0)} to ${r.bottom.toFixed(0)} in ${board.top.toFixed(0)} to ${board.bottom.toFixed(0)}`;
    };
    const end = document.querySelector('div.turn button[value^="end"]');
    const e = end.getBoundingClientRect();
    const controls = Array.from(document.querySelectorAll("div.turn div.controls button"));
    const offer = document.querySelector('div.turn button[value="offer"]');
    return [
      shown(titled("svg.hirth g.space", mover + "'s home")),
      shown(titled("svg.hirth g.reserve", mover + "'s reserve")),
      e.top >= 0 && e.bottom <= window.innerHeight,
      controls[0] ? controls[0].value : "none",
      offer ? controls.indexOf(offer) : -1,
      controls.length,
      offer ? getComputedStyle(offer).backgroundColor : "none",
      getComputedStyle(end).backgroundColor,
      Math.round(board.height),
    ];"#;

/// On phones of 360×740 and 390×844, mid-turn for each colour: the mover's home and reserve
/// and the end of the turn are on the first screen, unscrolled; the first control is not the
/// Penningr offer, which comes last, unfilled (the end of the turn is filled).
#[actix_web::test]
async fn on_a_phone_the_movers_end_and_the_turns_end_come_first_and_the_penningr_offer_is_secondary()
 {
    let positions = mid_turns();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("layout-phone").await;
    let mut offers = 0;
    for size in [SMALL_PHONE, PHONE] {
        browser.set_viewport(size).await;
        for (i, moves) in positions.iter().enumerate() {
            let (colour, _) = mover(moves);
            let link = hirth_link(moves);
            browser.open(&link).await;
            browser.wait_for_styles().await;
            let seen = browser
                .client
                .execute(FIRST_SCREEN, vec![json!(colour)])
                .await
                .expect("a script runs");
            if i == 0 {
                browser.screenshot(&format!("hirth-phone-{}", size.0)).await;
            }
            browser
                .screenshot(&format!("hirth-phone-{}-{colour}", size.0))
                .await;
            assert_eq!(
                (&seen[0], &seen[1], &seen[2]),
                (&json!(true), &json!(true), &json!(true)),
                "{colour} at {size:?}: the home, the reserve and the turn's end on the first screen: {seen} ({link})"
            );
            assert_ne!(seen[3], json!("offer"), "{colour} at {size:?}: {seen}");
            assert_ne!(seen[3], json!("none"), "{colour} at {size:?}: {seen}");
            if seen[4] != json!(-1) {
                offers += 1;
                assert_eq!(
                    seen[4].as_i64(),
                    seen[5].as_i64().map(|n| n - 1),
                    "{colour} at {size:?}: the offer is the last control: {seen}"
                );
                assert_ne!(
                    seen[6], seen[7],
                    "{colour} at {size:?}: the offer is not filled as the end of the turn is: {seen}"
                );
            }
        }
    }
    assert!(offers > 0, "the Penningr offer was on some page");
    browser.finish().await;
}

/// A Hirþ game's moves up to a position where three or four of the mover's pieces can move to
/// one space already holding the mover's counted pieces (loose Hirþ or a Karve), and that
/// space: its moves are two rows of badges over those pieces.
fn badges_over_pieces() -> (Vec<String>, Space) {
    for seed in 0..300 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut state = Hirth::new_game(&HirthOptions { target: 1 }).expect("a game");
        let mut played = Vec::new();
        for _ in 0..300 {
            let Turn::ToAct(_) = Hirth::turn(&state) else {
                break;
            };
            let moves: Vec<Move> = Hirth::legal_moves(&state)
                .into_iter()
                .filter(|mv| !matches!(mv, Move::Offer | Move::GiveUp))
                .collect();
            if state.phase == Phase::Movement {
                let pos = &state.position;
                for space in Space::all() {
                    let into = moves
                        .iter()
                        .filter(|mv| matches!(mv, Move::Go { to, .. } if *to == space))
                        .count();
                    let here = pos.board.group(space, pos.mover);
                    if (3..=4).contains(&into) && (here.h > 0 || !here.karves.is_empty()) {
                        return (played, space);
                    }
                }
            }
            let Some(mv) = moves.choose(&mut rng) else {
                break;
            };
            played.push(Hirth::format_move(&state, mv));
            Hirth::apply(&mut state, mv).expect("legal");
        }
    }
    panic!("no random game has three moves to a space holding counted pieces");
}

/// For each space: the moves' tags (labels and single tags) whose middle lies in its box,
/// against the piece counts drawn in it (loose Hirþ `×n`, a Karve's crew); every overlap of a
/// tag with a count, and how many spaces had both.
const TAGS_OVER_COUNTS: &str = r#"
    const tags = Array.from(document.querySelectorAll(
      "svg.hirth g.move rect.label, svg.hirth g.move text.tag"))
      .map(e => [e.textContent || "label", e.getBoundingClientRect()]);
    const overlaps = [];
    let checked = 0;
    for (const space of document.querySelectorAll("svg.hirth g.space")) {
      const box = space.querySelector(":scope > rect").getBoundingClientRect();
      const mine = tags.filter(([, r]) => {
        const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
        return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
      });
      const counts = Array.from(space.querySelectorAll("g.pieces text.count, g.pieces text.crew"))
        .map(e => [e.textContent, e.getBoundingClientRect()]);
      if (mine.filter(([tag]) => tag === "label").length >= 3 && counts.length > 0) checked += 1;
      for (const [tag, t] of mine)
        for (const [count, c] of counts)
          if (t.left < c.right && c.left < t.right && t.top < c.bottom && c.top < t.bottom)
            overlaps.push(`${space.querySelector("title").textContent.split(":")[0]}: ${tag} over ${count}`);
    }
    return [checked, overlaps];"#;

/// Three or four moves to a space holding the mover's counted pieces (two rows of badges):
/// at 1280×800 and at 390×844 no tag of a move (`H←1`, `K0←1`) overlaps a piece count.
#[actix_web::test]
async fn the_moves_tags_do_not_cover_the_piece_counts() {
    let (moves, space) = badges_over_pieces();
    let link = hirth_link(&moves);
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("layout-tags").await;
    for size in [DESKTOP, PHONE] {
        browser.set_viewport(size).await;
        browser.open(&format!("{link}#turn")).await;
        browser.wait_for_styles().await;
        let seen = browser
            .client
            .execute(TAGS_OVER_COUNTS, vec![])
            .await
            .expect("a script runs");
        browser.screenshot(&format!("hirth-tags-{}", size.0)).await;
        assert!(
            seen[0].as_u64().unwrap_or(0) >= 1,
            "space {} has two rows of badges over counted pieces at {size:?}: {seen} ({link})",
            space.name()
        );
        assert_eq!(seen[1], json!([]), "tags over counts at {size:?} ({link})");
    }
    browser.finish().await;
}

/// A kept table's seat page is the same page: at 1280×800, at the first seat's turn with a
/// step taken (Gull enters an H), scrolled to the status line as after a move, the whole
/// board, Gull's home and reserve and the end of the turn are in the window.
#[actix_web::test]
async fn on_a_desktop_a_tables_seat_page_shows_the_board_and_the_turns_end_in_one_window() {
    let _one = ONE_AT_A_TIME.lock().await;
    // The second browser only shares the app (finishing it would stop the app too).
    let (gull, other) = Browser::two_with_tables("layout-table").await;
    gull.set_viewport(DESKTOP).await;
    gull.open("/play/hirth?target=1&computer=").await;
    gull.click_to_next_page(Locator::Css("div.start button[formaction]"))
        .await;
    gull.click_to_next_page(Locator::Css("form.options button[type=submit]"))
        .await;
    gull.click_to_next_page(Locator::Css("p.again a.button"))
        .await;
    assert!(gull.url().await.contains("/seat/"), "{}", gull.url().await);
    gull.wait_for_styles().await;
    gull.play("He").await;
    gull.client
        .execute("document.getElementById('turn').scrollIntoView();", vec![])
        .await
        .expect("a script runs");
    let seen = gull
        .client
        .execute(IN_THE_WINDOW, vec![json!("Gull")])
        .await
        .expect("a script runs");
    gull.screenshot("hirth-desktop-1280-table").await;
    assert_eq!(
        (&seen[0], &seen[1], &seen[2], &seen[3], &seen[5]),
        (
            &json!(true),
            &json!(true),
            &json!(true),
            &json!(true),
            &json!(false)
        ),
        "the seat's board, Gull's home, reserve and the turn's end in the window: {seen}"
    );
    other.finish().await;
    gull.finish().await;
}
