//! Words that fit a drawing: an SVG `<text>` never wraps nor stops at a box's edge, so the
//! drawings measure their words (by an estimate of the glyphs' width, the fonts being the
//! reader's), wrap them into lines, and squeeze a line that still would not fit
//! (`textLength`), so that no word is clipped nor overflows its box on any screen.

use maud::{Markup, html};

/// The width of an average glyph as a share of the font size: generous for the serif and
/// sans fonts the pages and pictures use, so that an estimate errs on the wide side.
const GLYPH: f32 = 0.58;

/// The estimated width of `words` at `size`.
pub fn width(words: &str, size: f32) -> f32 {
    words.chars().count() as f32 * size * GLYPH
}

/// `words` as lines of at most `max` wide at `size`: whole words, except one that alone is
/// wider (it gets a line of its own and is squeezed when drawn).
pub fn wrap(words: &str, size: f32, max: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in words.split_whitespace() {
        match lines.last_mut() {
            Some(line) if width(&format!("{line} {word}"), size) <= max => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// One line of text at (`x`, `y`) with `anchor`, squeezed to `max` wide when its estimate is
/// wider.
pub fn line(words: &str, x: f32, y: f32, size: f32, max: f32, anchor: &str) -> Markup {
    let squeeze = width(words, size) > max;
    html! {
        text x=(x) y=(y) font-size=(size) text-anchor=(anchor)
            textLength=[squeeze.then_some(max)] lengthAdjust=[squeeze.then_some("spacingAndGlyphs")] {
            (words)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_wrap_into_lines_that_fit() {
        let lines = wrap(
            "Silfr chooses where the beaten Lofðungr retreats",
            10.0,
            100.0,
        );
        assert!(lines.len() > 1, "{lines:?}");
        for l in &lines {
            assert!(width(l, 10.0) <= 100.0 || !l.contains(' '), "{l}");
        }
        assert_eq!(
            lines.join(" "),
            "Silfr chooses where the beaten Lofðungr retreats"
        );
        assert_eq!(wrap("", 10.0, 100.0), Vec::<String>::new());
    }

    #[test]
    fn a_line_too_wide_is_squeezed_to_its_box_and_a_short_one_is_not() {
        let long = line("Gull Norðr Archipelago", 0.0, 10.0, 12.0, 100.0, "start").into_string();
        assert!(
            long.contains(r#"textLength="100" lengthAdjust="spacingAndGlyphs""#),
            "{long}"
        );
        let short = line("Miðr", 0.0, 10.0, 12.0, 100.0, "middle").into_string();
        assert_eq!(
            short,
            r#"<text x="0" y="10" font-size="12" text-anchor="middle">Miðr</text>"#
        );
    }
}
