//! The friendly error page: what was wrong, and a way back.

use maud::{Markup, html};

use crate::layout::layout;

/// What the error page shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ErrorView {
    /// The HTTP status, shown under the links (`HTTP 422`).
    pub status: u16,
    /// The page's title and heading, in words for people (`This game cannot be replayed`).
    pub title: String,
    /// What was wrong, in a sentence under the heading.
    pub detail: String,
    /// Links out: (words, href).
    pub links: Vec<(String, String)>,
}

/// The error page: the heading, what was wrong, links out and back to all games, the status.
pub fn page(view: &ErrorView) -> Markup {
    layout(
        &view.title,
        html! {
            section.error role="alert" {
                h1 { (view.title) }
                p.detail { (view.detail) }
                p.links {
                    @for (words, href) in &view.links { a href=(href) { (words) } " " }
                    a href="/" { "All games" }
                }
                p.code { "HTTP " (view.status) }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_page_says_what_was_wrong_and_links_back() {
        let page = page(&ErrorView {
            status: 422,
            title: "This game cannot be replayed".into(),
            detail: "move 2 (c3): c3 already holds a black stone".into(),
            links: vec![(
                "The position before it".into(),
                "/play/herfor?moves=c3".into(),
            )],
        })
        .into_string();
        assert!(page.contains("<h1>This game cannot be replayed</h1><p class=\"detail\">move 2 (c3): c3 already holds a black stone</p>"));
        assert!(page.contains(r#"<a href="/play/herfor?moves=c3">The position before it</a>"#));
        assert!(page.contains("HTTP 422"));
    }
}
