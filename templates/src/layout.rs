//! The page frame every page shares: head, site header, main content, footer.

use maud::{DOCTYPE, Markup, PreEscaped, html};

/// The header's place for the link to the browser's own games: the server puts the link there
/// for a browser with a player (its count of tables awaiting that player differs per browser,
/// so the pages themselves stay the same for everyone).
pub const YOUR_GAMES_SLOT: &str = "<!--your-games-->";

/// The stylesheet's path; the server embeds and serves it.
pub const STYLESHEET_HREF: &str = "/static/moot.css";

/// What a link to a page shows where it is pasted (a chat, a forum): its title, a line of
/// words and a picture, as Open Graph and Twitter card tags. URLs are absolute.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    /// The preview's title, as `og:title` and `twitter:title`.
    pub title: String,
    /// The line of words under the title, as `og:description` and `twitter:description`.
    pub description: String,
    /// The page's own URL.
    pub url: String,
    /// The picture's URL (a PNG).
    pub image: String,
    /// The picture in words.
    pub image_alt: String,
}

/// The head's tags of a link preview. Twitter's card takes its picture from `og:image`: a
/// long game's picture link is not repeated.
pub fn preview_tags(preview: &Preview) -> Markup {
    html! {
        meta property="og:type" content="website";
        meta property="og:site_name" content="Moot";
        meta property="og:title" content=(preview.title);
        meta property="og:description" content=(preview.description);
        meta property="og:url" content=(preview.url);
        meta property="og:image" content=(preview.image);
        meta property="og:image:type" content="image/png";
        meta property="og:image:alt" content=(preview.image_alt);
        meta name="twitter:card" content="summary_large_image";
        meta name="twitter:title" content=(preview.title);
        meta name="twitter:description" content=(preview.description);
        meta name="twitter:image:alt" content=(preview.image_alt);
    }
}

/// A whole HTML page: `title` in the tab and as the page's heading context, `body` in `<main>`.
pub fn layout(title: &str, body: Markup) -> Markup {
    layout_with_preview(title, None, body)
}

/// The `<head>` every page has: charset, viewport, `title` in the tab, the stylesheet and the
/// link preview when there is one.
pub fn head(title: &str, preview: Option<&Preview>) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) " — Moot" }
            link rel="stylesheet" href=(STYLESHEET_HREF);
            link rel="icon" type="image/png" href="/favicon.ico";
            @if let Some(preview) = preview { (preview_tags(preview)) }
        }
    }
}

/// The first tab stop of a page: a link past the site's links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skip {
    /// Where it goes (`#main`).
    pub href: &'static str,
    /// The link's words (`Skip to the content`).
    pub words: &'static str,
}

impl Skip {
    /// To the page's content.
    pub const CONTENT: Skip = Skip {
        href: "#main",
        words: "Skip to the content",
    };
    /// To a play page's board, its first control for the keyboard (the turn's buttons sit
    /// above it for the eye, one Shift+Tab away).
    pub const BOARD: Skip = Skip {
        href: "#board",
        words: "Skip to the board",
    };
}

/// A whole HTML page whose link shows `preview` where it is pasted.
pub fn layout_with_preview(title: &str, preview: Option<&Preview>, body: Markup) -> Markup {
    layout_with_skip(title, preview, Skip::CONTENT, body)
}

/// A whole HTML page whose first tab stop is `skip`.
pub fn layout_with_skip(
    title: &str,
    preview: Option<&Preview>,
    skip: Skip,
    body: Markup,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title, preview))
            body {
                // The first tab stop: past the site's links, to the page or its board.
                a.skip href=(skip.href) { (skip.words) }
                header.site {
                    a.brand href="/" { "Moot" }
                    nav aria-label="Site" {
                        a href="/" { "Games" }
                        a href="/docs/" { "API" }
                        (PreEscaped(YOUR_GAMES_SLOT))
                    }
                }
                main #main tabindex="-1" { (body) }
                footer.site {
                    "Moot referees Hirþ, The High Kings of Tara and Herfor. "
                    a href="/api-docs/openapi.json" { "OpenAPI" }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_wraps_the_body_with_title_and_stylesheet() {
        let page = layout("Herfor", html! { p { "board" } }).into_string();
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(page.contains("<title>Herfor — Moot</title>"));
        assert!(page.contains(r#"href="/static/moot.css""#));
        assert!(page.contains(r#"<main id="main" tabindex="-1"><p>board</p></main>"#));
        let skip = page
            .find(r##"<a class="skip" href="#main">"##)
            .expect("a skip link");
        assert!(
            skip < page.find("<header").expect("a header"),
            "the first link"
        );
    }

    #[test]
    fn a_preview_puts_open_graph_and_twitter_tags_in_the_head() {
        let preview = Preview {
            title: "Herfor: Black to play".into(),
            description: "a & b".into(),
            url: "https://moot.example/play/herfor?moves=c3".into(),
            image: "https://moot.example/api/v1/games/herfor/picture?moves=c3&pixels=1200".into(),
            image_alt: "The board".into(),
        };
        let page = layout_with_preview("Herfor", Some(&preview), html! {}).into_string();
        let head = &page[..page.find("</head>").expect("a head")];
        assert!(head.contains(r#"<meta property="og:image" content="https://moot.example/api/v1/games/herfor/picture?moves=c3&amp;pixels=1200">"#), "{head}");
        assert!(head.contains(r#"<meta name="twitter:card" content="summary_large_image">"#));
        assert!(head.contains(r#"<meta property="og:description" content="a &amp; b">"#));
        assert!(!layout("Herfor", html! {}).into_string().contains("og:"));
    }

    #[test]
    fn layout_escapes_the_title() {
        let page = layout("<script>", html! {}).into_string();
        assert!(page.contains("&lt;script&gt; — Moot"));
    }
}
