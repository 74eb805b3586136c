//! The seam between a board's drawing and where it is shown. Each board view draws itself
//! once, self-contained (colours and strokes as presentation attributes, no stylesheet needed),
//! as a [`Drawing`]; a play page wraps it in a scalable `<svg>` ([`page_svg`]) whose stylesheet
//! adds only the interactive layer (hover, focus), and a picture wraps it in a sized `<svg>`
//! with a background and an optional caption ([`picture_svg`]).

use std::borrow::Cow;

use maud::{Markup, html};

/// How a board is drawn besides the position: what a picture may choose, a page leaves at
/// the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Turned half a turn: the second seat at the bottom.
    pub flipped: bool,
    /// The coordinate labels (row letters, column letters and row numbers) drawn.
    pub coordinates: bool,
}

impl Default for Look {
    fn default() -> Self {
        Look {
            flipped: false,
            coordinates: true,
        }
    }
}

impl Look {
    /// `view` as this look shows it: itself, or turned half a turn by `turn`.
    pub fn orient<'a, V: Clone>(&self, view: &'a V, turn: impl FnOnce(&V) -> V) -> Cow<'a, V> {
        if self.flipped {
            Cow::Owned(turn(view))
        } else {
            Cow::Borrowed(view)
        }
    }
}

/// A board drawn in SVG user units.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// What the picture shows, in words (its `<title>`).
    pub title: String,
    /// The class of the page's `<svg>` besides `board` (`herfor`).
    pub class: &'static str,
    pub width: f32,
    pub height: f32,
    /// The board carries buttons (a player's board on a page): a page shows it as a labelled
    /// group of controls, not as one image (whose parts a screen reader could not reach).
    pub controls: bool,
    /// The shapes, self-contained: no stylesheet is needed to draw them as they look.
    pub body: Markup,
}

/// The paper behind a picture, as on the pages.
pub const PAPER: &str = "#faf7f0";
/// The ink of words outside a board.
pub const INK: &str = "#1d1b18";

/// The board as a page shows it: an SVG that scales to its container; a group of labelled
/// controls when it has buttons, else one image. Its `width` and `height` are its natural size,
/// one pixel a unit, which a phone's stylesheet keeps where the container would shrink the
/// targets below a finger's width.
pub fn page_svg(drawing: &Drawing) -> Markup {
    let role = if drawing.controls { "group" } else { "img" };
    html! {
        svg class=(format!("board {}", drawing.class)) xmlns="http://www.w3.org/2000/svg" width=(drawing.width) height=(drawing.height) viewBox=(format!("0 0 {} {}", drawing.width, drawing.height)) role=(role) aria-label=(drawing.title) {
            title { (drawing.title) }
            (drawing.body)
        }
    }
}

/// The height of the caption line under a picture's board, as a share of the board's width.
const CAPTION: f32 = 0.075;

/// The size in pixels of a picture whose longer side is `pixels`, with a caption line or not.
pub fn picture_size(drawing: &Drawing, pixels: u32, caption: bool) -> (u32, u32) {
    let (width, height) = user_size(drawing, caption);
    let scale = pixels as f32 / width.max(height);
    (
        (width * scale).round().max(1.0) as u32,
        (height * scale).round().max(1.0) as u32,
    )
}

fn user_size(drawing: &Drawing, caption: bool) -> (f32, f32) {
    let extra = if caption {
        drawing.width * CAPTION
    } else {
        0.0
    };
    (drawing.width, drawing.height + extra)
}

/// The board as a standalone picture `pixels` on its longer side: a background, the board,
/// and the caption line under it when there is one. `font` names the font of its words.
pub fn picture_svg(drawing: &Drawing, pixels: u32, caption: Option<&str>, font: &str) -> Markup {
    let (width, height) = user_size(drawing, caption.is_some());
    let (px_width, px_height) = picture_size(drawing, pixels, caption.is_some());
    let line = drawing.width * CAPTION;
    html! {
        svg xmlns="http://www.w3.org/2000/svg" width=(px_width) height=(px_height) viewBox=(format!("0 0 {width} {height}")) font-family=(font) {
            title { (drawing.title) }
            rect width=(width) height=(height) fill=(PAPER) {}
            (drawing.body)
            @if let Some(words) = caption {
                text.caption x=(width / 2.0) y=(drawing.height + line * 0.62) text-anchor="middle" font-size=(line * 0.5) fill=(INK) { (words) }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Drawing {
        Drawing {
            title: "A <board>".into(),
            class: "test",
            width: 200.0,
            height: 100.0,
            controls: false,
            body: html! { circle r="3" {} },
        }
    }

    #[test]
    fn a_page_svg_scales_and_names_its_board() {
        let svg = page_svg(&square()).into_string();
        assert!(svg.starts_with(r#"<svg class="board test" xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100" role="img" aria-label="A &lt;board&gt;"><title>A &lt;board&gt;</title><circle r="3"></circle></svg>"#), "{svg}");
    }

    #[test]
    fn a_board_with_buttons_is_a_labelled_group_of_controls_not_an_image() {
        let board = Drawing {
            controls: true,
            body: html! { foreignObject { button value="a1" title="Play a1" {} } },
            ..square()
        };
        let svg = page_svg(&board).into_string();
        assert!(
            svg.starts_with(r#"<svg class="board test" xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100" role="group" aria-label="A &lt;board&gt;">"#),
            "{svg}"
        );
        assert!(!svg.contains("role=\"img\""));
    }

    #[test]
    fn a_picture_has_its_size_in_pixels_a_background_and_the_caption_under_the_board() {
        let svg = picture_svg(&square(), 400, None, "Serif").into_string();
        assert!(
            svg.contains(r#"width="400" height="200" viewBox="0 0 200 100" font-family="Serif""#),
            "{svg}"
        );
        assert!(
            svg.contains(
                r##"<rect width="200" height="100" fill="#faf7f0"></rect><circle r="3">"##
            )
        );
        assert!(!svg.contains("caption"));
        let svg = picture_svg(&square(), 400, Some("Black & white"), "Serif").into_string();
        assert!(
            svg.contains(r#"width="400" height="230" viewBox="0 0 200 115""#),
            "{svg}"
        );
        assert!(svg.contains(">Black &amp; white</text>"));
        assert_eq!(picture_size(&square(), 64, true), (64, 37));
    }
}
