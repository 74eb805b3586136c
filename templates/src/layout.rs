//! The page frame every page shares: head, site header, main content, footer.

use maud::{DOCTYPE, Markup, html};

/// The stylesheet's path; the server embeds and serves it.
pub const STYLESHEET_HREF: &str = "/static/moot.css";

/// A whole HTML page: `title` in the tab and as the page's heading context, `body` in `<main>`.
pub fn layout(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " — Moot" }
                link rel="stylesheet" href=(STYLESHEET_HREF);
            }
            body {
                header.site {
                    a.brand href="/" { "Moot" }
                    nav {
                        a href="/" { "Games" }
                        a href="/docs/" { "API" }
                    }
                }
                main { (body) }
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
        assert!(page.contains("<main><p>board</p></main>"));
    }

    #[test]
    fn layout_escapes_the_title() {
        let page = layout("<script>", html! {}).into_string();
        assert!(page.contains("&lt;script&gt; — Moot"));
    }
}
