//! Every page fits a phone's width: nothing scrolls sideways, and every part of a board (its
//! points, stones, last-move marks, words) lies inside the screen.

use crate::a11y::{pages, resize, settle};
use crate::harness::{Browser, ONE_AT_A_TIME};

/// The phones the pages are laid out for (CSS pixels): a small one and a common one.
pub const SMALL_PHONE: (u32, u32) = (360, 740);
pub const PHONE: (u32, u32) = (390, 844);

/// On the open page: the width inside the vertical scroll bar, the document's scroll width, and every drawn part
/// of a board whose box reaches outside the viewport's width (as `tag.class (left–right)`).
async fn overflow(browser: &Browser) -> (f64, f64, Vec<String>) {
    let found = browser
        .client
        .execute(
            r#"const width = document.documentElement.clientWidth;
               const out = [];
               for (const svg of document.querySelectorAll("svg.board")) {
                 for (const e of [svg, ...svg.querySelectorAll("*")]) {
                   const r = e.getBoundingClientRect();
                   // Hidden parts (a closed choice, a stone not yet placed) have no box.
                   if (r.width === 0 && r.height === 0) continue;
                   if (getComputedStyle(e).visibility === "hidden") continue;
                   if (r.left < -0.5 || r.right > width + 0.5)
                     out.push(`${e.tagName}.${e.getAttribute("class") || ""} ${e.getAttribute("data-point") || ""} (${r.left.toFixed(1)}–${r.right.toFixed(1)})`);
                 }
               }
               return [width, document.documentElement.scrollWidth, out];"#,
            vec![],
        )
        .await
        .expect("a script runs");
    let parts = found[2]
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| p.as_str().unwrap_or_default().to_owned())
        .collect();
    (
        found[0].as_f64().unwrap_or(0.0),
        found[1].as_f64().unwrap_or(f64::MAX),
        parts,
    )
}

/// At 360×740 and 390×844 no page is wider than the screen, and on every board (Herfor's
/// sizes 3, 5 and 7, Tara, Hirþ mid-game and finished) every point and mark is inside it.
#[actix_web::test]
async fn no_page_scrolls_sideways_and_every_board_is_inside_a_phones_screen() {
    let pages = pages();
    let _one = ONE_AT_A_TIME.lock().await;
    let browser = Browser::start("fit").await;
    let mut failures = Vec::new();
    let mut boards = 0;
    for size in [SMALL_PHONE, PHONE] {
        resize(&browser, size).await;
        for (name, path) in &pages {
            browser.open(path).await;
            settle(&browser, path).await;
            // The embed, a board alone, has no skip link to see the stylesheet by.
            if browser.count("a.skip").await > 0 {
                browser.wait_for_styles().await;
            }
            let (width, scroll, outside) = overflow(&browser).await;
            assert!(
                width <= f64::from(size.0),
                "the window is {}px wide: the viewport is {width}",
                size.0
            );
            if scroll > width {
                failures.push(format!("{name} at {}: {scroll}px wide in {width}", size.0));
            }
            for part in outside {
                failures.push(format!("{name} at {}: {part} outside", size.0));
            }
            boards += browser.count("svg.board").await;
        }
    }
    browser.finish().await;
    assert!(boards >= 2 * 12, "the pages have boards: {boards}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
