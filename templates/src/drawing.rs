//! The seam between a board's drawing and where it is shown. Each board view draws itself
//! once, self-contained (colours and strokes as presentation attributes, no stylesheet needed),
//! as a [`Drawing`]; a play page wraps it in a scalable `<svg>` ([`page_svg`]) whose stylesheet
//! adds only the interactive layer (hover, focus) and, in the dark theme, each colour's dark
//! counterpart (by the colour it replaces), and a picture wraps it in a sized `<svg>` with a
//! background and an optional caption ([`picture_svg`]).

use std::borrow::Cow;

use maud::{Markup, html};

use crate::fit;

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
    /// The board's width in user units: the `<svg>`'s natural width and its viewBox.
    pub width: f32,
    /// The board's height in user units, likewise.
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

/// The height of the caption's first line under a picture's board, as a share of the board's
/// width; its words are half as high. A caption too long for one line wraps onto a second,
/// `CAPTION_NEXT` of a first line lower.
const CAPTION: f32 = 0.075;
const CAPTION_NEXT: f32 = 0.6;
/// The caption's lines at most: the last takes the rest, squeezed if it must be.
const CAPTION_LINES: usize = 2;

/// The lines of `caption` under a board `width` wide: wrapped to fit, at most
/// [`CAPTION_LINES`].
pub fn caption_lines(caption: &str, width: f32) -> Vec<String> {
    let mut lines = fit::wrap(caption, width * CAPTION / 2.0, caption_room(width));
    if lines.len() > CAPTION_LINES {
        let rest = lines.split_off(CAPTION_LINES - 1).join(" ");
        lines.push(rest);
    }
    lines
}

/// The width a caption's line may take: the board's, less a margin on each side.
fn caption_room(width: f32) -> f32 {
    width * 0.94
}

/// The size in pixels of a picture whose longer side is `pixels`, with `lines` lines of
/// caption.
pub fn picture_size(drawing: &Drawing, pixels: u32, lines: usize) -> (u32, u32) {
    let (width, height) = user_size(drawing, lines);
    let scale = pixels as f32 / width.max(height);
    (
        (width * scale).round().max(1.0) as u32,
        (height * scale).round().max(1.0) as u32,
    )
}

fn user_size(drawing: &Drawing, lines: usize) -> (f32, f32) {
    let line = drawing.width * CAPTION;
    let extra = match lines {
        0 => 0.0,
        n => line + line * CAPTION_NEXT * (n - 1) as f32,
    };
    (drawing.width, drawing.height + extra)
}

/// The room a picture keeps under its board for a caption.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptionRoom {
    /// The lines the caption takes: a still picture.
    Fit,
    /// The most lines any caption takes, whatever this one's: an animation's frames, whose
    /// captions differ but whose size must not.
    Most,
}

/// The board as a standalone picture `pixels` on its longer side: a background, the board,
/// and the caption under it when there is one, its lines fitting the board's width, in
/// `room`. `font` names the font of its words.
pub fn picture_svg(
    drawing: &Drawing,
    pixels: u32,
    caption: Option<&str>,
    room: CaptionRoom,
    font: &str,
) -> Markup {
    let lines = caption.map_or_else(Vec::new, |c| caption_lines(c, drawing.width));
    let rows = match room {
        CaptionRoom::Fit => lines.len(),
        CaptionRoom::Most if caption.is_some() => CAPTION_LINES,
        CaptionRoom::Most => 0,
    };
    let (width, height) = user_size(drawing, rows);
    let (px_width, px_height) = picture_size(drawing, pixels, rows);
    let line = drawing.width * CAPTION;
    html! {
        svg xmlns="http://www.w3.org/2000/svg" width=(px_width) height=(px_height) viewBox=(format!("0 0 {width} {height}")) font-family=(font) {
            title { (drawing.title) }
            rect width=(width) height=(height) fill=(PAPER) {}
            (drawing.body)
            @if !lines.is_empty() {
                g.caption fill=(INK) {
                    @for (i, words) in lines.iter().enumerate() {
                        (fit::line(words, width / 2.0, drawing.height + line * (0.62 + CAPTION_NEXT * i as f32), line / 2.0, caption_room(width), "middle"))
                    }
                }
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
        let svg = picture_svg(&square(), 400, None, CaptionRoom::Fit, "Serif").into_string();
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
        let svg = picture_svg(
            &square(),
            400,
            Some("Black & white"),
            CaptionRoom::Fit,
            "Serif",
        )
        .into_string();
        assert!(
            svg.contains(r#"width="400" height="230" viewBox="0 0 200 115""#),
            "{svg}"
        );
        assert!(svg.contains(">Black &amp; white</text>"));
        assert_eq!(picture_size(&square(), 64, 1), (64, 37));
    }

    /// A caption wider than the board wraps onto a second line (the picture grows to hold it),
    /// every line within the board's width less its margins; what a second line cannot hold
    /// is squeezed into it.
    #[test]
    fn a_long_caption_wraps_onto_two_lines_that_fit_the_board() {
        let words = "Game over: Black wins · both players passed: black 15.5 – white 4";
        let lines = caption_lines(words, 200.0);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines.join(" "), words);
        for line in &lines {
            assert!(fit::width(line, 7.5) <= 188.0, "{line}");
        }
        let svg = picture_svg(&square(), 400, Some(words), CaptionRoom::Fit, "Serif").into_string();
        assert!(
            svg.contains(r#"width="400" height="248" viewBox="0 0 200 124""#),
            "{svg}"
        );
        assert_eq!(svg.matches("<text ").count(), 2, "{svg}");
        assert!(!svg.contains("textLength"), "{svg}");
        let long = "word ".repeat(40);
        let lines = caption_lines(&long, 200.0);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines.join(" "), long.trim());
        let svg = picture_svg(&square(), 400, Some(&long), CaptionRoom::Fit, "Serif").into_string();
        assert!(
            svg.contains(r#"textLength="188" lengthAdjust="spacingAndGlyphs""#),
            "{svg}"
        );
    }

    /// An animation's frames keep the room of the longest caption, so a short caption and a
    /// wrapped one make pictures of one size (and no caption, no room).
    #[test]
    fn frames_keep_the_most_caption_room_whatever_their_caption() {
        let short = picture_svg(&square(), 400, Some("Black"), CaptionRoom::Most, "Serif");
        let long = "Game over: Black wins · both players passed: black 15.5 – white 4";
        let wrapped = picture_svg(&square(), 400, Some(long), CaptionRoom::Most, "Serif");
        for svg in [short.into_string(), wrapped.into_string()] {
            assert!(
                svg.contains(r#"width="400" height="248" viewBox="0 0 200 124""#),
                "{svg}"
            );
        }
        let bare = picture_svg(&square(), 400, None, CaptionRoom::Most, "Serif").into_string();
        assert!(bare.contains(r#"height="200""#), "{bare}");
    }
}
