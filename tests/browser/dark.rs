//! The dark theme, as a system set to dark asks for it (`prefers-color-scheme: dark`): the pages
//! on dark paper, every colour of the boards given its dark counterpart, the last move and the
//! legal targets in sight on every board; and the light theme's boards in their own colours.

use serde_json::Value;

use crate::a11y::{pages, settle};
use crate::harness::{Browser, ONE_AT_A_TIME};

/// The sizes the games are looked at: a phone and a laptop (CSS pixels).
const SIZES: [(u32, u32); 2] = [(390, 844), (1280, 800)];

/// The game pages in the middle of a game, a move just played and the next one's targets
/// shown: (game, path).
fn mid_games() -> Vec<(&'static str, String)> {
    let pages = pages();
    ["herfor", "tara", "hirth"]
        .into_iter()
        .map(|game| {
            let name = format!("{game} mid-game");
            let (_, path) = pages
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("{name} is among the pages"));
            (game, path.clone())
        })
        .collect()
}

/// Every page that draws a board: the games at every stage the pages list, and the embed.
fn board_pages() -> Vec<(String, String)> {
    pages()
        .into_iter()
        .filter(|(name, path)| {
            (path.starts_with("/play/") || path.starts_with("/embed/"))
                && path.contains("moves=")
                && !name.starts_with("error")
        })
        .collect()
}

/// The relative luminance of CSS colours and the contrast between two of them (WCAG 2), for
/// the scripts below.
const COLOURS: &str = r#"
  const channels = c => (c.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
  const luminance = c => {
    const [r, g, b] = channels(c).map(v => v / 255)
      .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const paper = getComputedStyle(document.documentElement).backgroundColor;
"#;

/// What one must see on a game's board, each against what it lies on: (what, the mark's
/// selector and property, then its ground: the mark's nearest enclosing element matching a
/// selector, the ground's selector inside it and the ground's property; or the page's paper,
/// where the enclosing selector is empty).
fn marks(game: &str) -> Vec<[&'static str; 6]> {
    let paper = |what, mark, property| [what, mark, property, "", "", ""];
    match game {
        "herfor" => vec![
            paper("a legal target", "svg.herfor circle.target", "stroke"),
            [
                "a target's name",
                "svg.herfor text.name",
                "fill",
                "g",
                "circle.target",
                "fill",
            ],
            [
                "the last stone",
                "svg.herfor circle.last.placed",
                "fill",
                "g",
                "circle.stone",
                "fill",
            ],
            paper(
                "a black stone's rim",
                "svg.herfor circle.stone.black",
                "stroke",
            ),
            paper("a white stone", "svg.herfor circle.stone.white", "fill"),
            [
                "a black stone beside a white one",
                "svg.herfor circle.stone.black",
                "fill",
                "svg",
                "circle.stone.white",
                "fill",
            ],
            paper("the grid", "svg.herfor g.grid", "stroke"),
        ],
        "tara" => vec![
            [
                "a legal target",
                "svg.tara circle.target",
                "stroke",
                "g.hill",
                "circle",
                "fill",
            ],
            [
                "the last move",
                "svg.tara circle.last",
                "stroke",
                "g.hill",
                "circle",
                "fill",
            ],
            [
                "a ringfort's wall",
                "svg.tara circle.ringfort",
                "stroke",
                "g.hill",
                "circle",
                "fill",
            ],
            [
                "a king",
                "svg.tara polygon.king",
                "fill",
                "g.hill",
                "circle",
                "fill",
            ],
            [
                "a hill",
                "svg.tara g.hill circle",
                "stroke",
                "svg",
                "rect",
                "fill",
            ],
        ],
        "hirth" => vec![
            paper("a legal target", "svg.hirth rect.target", "stroke"),
            [
                "the last turn",
                "svg.hirth rect.last",
                "stroke",
                "g.space",
                "rect",
                "fill",
            ],
            [
                "a space's words",
                "svg.hirth g.space g.name",
                "fill",
                "g.space",
                "rect",
                "fill",
            ],
            paper("a Lofðungr", "svg.hirth .lofdungr", "fill"),
        ],
        _ => unreachable!("{game} is not a game"),
    }
}

/// Each of `game`'s marks on the open page: (what, the contrast against its ground, the two
/// colours); a mark not on the page has no contrast.
async fn contrasts(browser: &Browser, game: &str) -> Vec<(String, Option<f64>, String)> {
    let marks = marks(game);
    let found = browser
        .client
        .execute(
            &format!(
                r#"{COLOURS}
                return arguments[0].map(([what, mark, property, around, ground, groundProperty]) => {{
                  const el = document.querySelector(mark);
                  if (!el) return [what, null, "not on the page"];
                  const colour = getComputedStyle(el)[property];
                  let under = paper;
                  if (around) {{
                    const g = el.parentNode.closest(around)?.querySelector(ground);
                    if (!g) return [what, null, ground + " is not under it"];
                    under = getComputedStyle(g)[groundProperty];
                  }}
                  return [what, contrast(colour, under), colour + " on " + under];
                }});"#
            ),
            vec![serde_json::json!(marks)],
        )
        .await
        .expect("a script runs");
    found
        .as_array()
        .expect("a list")
        .iter()
        .map(|m| {
            (
                m[0].as_str().unwrap_or("?").to_owned(),
                m[1].as_f64(),
                m[2].as_str().unwrap_or("?").to_owned(),
            )
        })
        .collect()
}

/// The luminance of the page's paper and of its words.
async fn paper_and_ink(browser: &Browser) -> (f64, f64) {
    let found = browser
        .client
        .execute(
            &format!(
                "{COLOURS} return [luminance(paper), luminance(getComputedStyle(document.body).color)];"
            ),
            vec![],
        )
        .await
        .expect("a script runs");
    (
        found[0].as_f64().expect("a number"),
        found[1].as_f64().expect("a number"),
    )
}

/// The colours a board's drawing names (its `fill` and `stroke` attributes) and those it is
/// shown in: (the element, the property, the attribute's colour, the colour shown), for every
/// attribute that names a colour.
async fn drawn_colours(browser: &Browser) -> Vec<[String; 4]> {
    let found = browser
        .client
        .execute(
            r##"const probe = document.createElement("span");
               document.body.append(probe);
               const css = c => { probe.style.color = ""; probe.style.color = c; return getComputedStyle(probe).color; };
               const seen = [];
               for (const el of document.querySelectorAll("svg.board, svg.board *")) {
                 for (const property of ["fill", "stroke"]) {
                   const named = el.getAttribute(property);
                   if (!named || !named.startsWith("#")) continue;
                   const tag = el.tagName + (el.getAttribute("class") ? "." + el.getAttribute("class").replace(/ /g, ".") : "");
                   seen.push([tag, property, css(named), getComputedStyle(el)[property]]);
                 }
               }
               probe.remove();
               return seen;"##,
            vec![],
        )
        .await
        .expect("a script runs");
    let Value::Array(found) = found else {
        panic!("the script answered {found}")
    };
    found
        .iter()
        .map(|c| std::array::from_fn(|i| c[i].as_str().unwrap_or("?").to_owned()))
        .collect()
}

/// In the dark, each game's page is dark paper with light words, and on its board the last
/// move, the legal targets and both sides' pieces stand at least 3:1 against what they lie on
/// (the words 4.5:1), at a phone's size and a laptop's. Screenshots: dark-{game}-{width}.png.
#[actix_web::test]
async fn each_game_page_is_dark_with_the_last_move_and_the_targets_in_sight() {
    let games = mid_games();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start_dark("dark").await;
    let mut failures = Vec::new();
    for size in SIZES {
        browser.set_viewport(size).await;
        for (game, path) in &games {
            browser.open(path).await;
            browser.wait_for_styles().await;
            assert!(browser.prefers_dark().await, "{game} sees a dark system");
            let (paper, ink) = paper_and_ink(&browser).await;
            assert!(paper < 0.02, "{game}'s paper is dark: luminance {paper}");
            assert!(ink > 0.6, "{game}'s words are light: luminance {ink}");
            for (what, ratio, colours) in contrasts(&browser, game).await {
                let least = if what.contains("words") || what.contains("name") {
                    4.5
                } else {
                    3.0
                };
                match ratio {
                    Some(ratio) if ratio >= least => {}
                    _ => failures.push(format!(
                        "{game} at {}: {what}: {ratio:?} ({colours})",
                        size.0
                    )),
                }
            }
            browser.screenshot(&format!("dark-{game}-{}", size.0)).await;
        }
    }
    browser.finish().await;
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// In the dark every colour a board's drawing names is shown as its dark counterpart: a colour
/// added to a drawing without one would stay light on the dark page.
#[actix_web::test]
async fn in_the_dark_every_colour_of_every_board_is_recoloured() {
    let pages = board_pages();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start_dark("dark-colours").await;
    let mut kept = std::collections::BTreeSet::new();
    for (name, path) in &pages {
        browser.open(path).await;
        // The embed has no skip link for wait_for_styles to see.
        settle(&browser, path).await;
        let drawn = drawn_colours(&browser).await;
        assert!(!drawn.is_empty(), "{name} draws a board");
        for [tag, property, named, shown] in drawn {
            if named == shown {
                kept.insert(format!("{tag} {property} {named} ({name})"));
            }
        }
    }
    browser.finish().await;
    assert!(
        kept.is_empty(),
        "colours left as in the light theme:\n{}",
        kept.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// In the light theme the pages are the paper's colours and a board shows every colour its
/// drawing names, as its pictures do: the dark theme's rules do not reach it. Screenshots:
/// light-{game}-{width}.png, to set beside the dark ones.
#[actix_web::test]
async fn in_the_light_the_boards_keep_their_drawings_colours() {
    let games = mid_games();
    let pages = board_pages();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("light-colours").await;
    for size in SIZES {
        browser.set_viewport(size).await;
        for (game, path) in &games {
            browser.open(path).await;
            browser.wait_for_styles().await;
            assert!(!browser.prefers_dark().await, "{game} sees a light system");
            let (paper, _) = paper_and_ink(&browser).await;
            assert!(paper > 0.9, "{game}'s paper is light: luminance {paper}");
            browser
                .screenshot(&format!("light-{game}-{}", size.0))
                .await;
        }
    }
    let mut changed = std::collections::BTreeSet::new();
    for (name, path) in &pages {
        browser.open(path).await;
        // The embed has no skip link for wait_for_styles to see.
        settle(&browser, path).await;
        let drawn = drawn_colours(&browser).await;
        assert!(!drawn.is_empty(), "{name} draws a board");
        for [tag, property, named, shown] in drawn {
            if named != shown {
                changed.insert(format!("{tag} {property} {named} shown {shown} ({name})"));
            }
        }
    }
    browser.finish().await;
    assert!(
        changed.is_empty(),
        "colours changed in the light theme:\n{}",
        changed.into_iter().collect::<Vec<_>>().join("\n")
    );
}
