//! The embeddable board: a view-only position for a frame on another site, without the site's
//! header and footer, with a line saying whose turn it is and a link to the full page.

use maud::{DOCTYPE, Markup, html};

use crate::layout::head;

/// What the embeddable board shows: the position, whose turn it is, and a link to the game.
#[derive(Clone, Debug, Default)]
pub struct EmbedView {
    /// The game's name, for the frame's title and its heading for screen readers (`Herfor`).
    pub game_name: String,
    /// Whose turn it is, or the result.
    pub headline: String,
    /// The board, without links.
    pub board: Markup,
    /// The full play page of the position (absolute, so that it leaves the frame whole).
    pub play_href: String,
}

/// The embeddable board: a page of its own for a frame, with no site header or footer.
pub fn page(view: &EmbedView) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("{}: {}", view.game_name, view.headline), None))
            body.embed {
                // A page of its own in the frame: its content in a main landmark, under a
                // heading that names it (for screen readers; the board shows which game).
                main {
                    h1.visually-hidden { (view.game_name) }
                    figure.board { (view.board) }
                    p.embed-line {
                        span.status role="status" { (view.headline) }
                        " · "
                        a href=(view.play_href) target="_blank" rel="noopener" { "Open on Moot" }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_embed_is_the_board_a_line_and_a_link_out_without_the_site_around() {
        let view = EmbedView {
            game_name: "Herfor".into(),
            headline: "Black <to> play".into(),
            board: html! { svg {} },
            play_href: "https://moot.example/play/herfor?moves=c3".into(),
        };
        let page = page(&view).into_string();
        assert!(
            page.contains(r#"<body class="embed"><main><h1 class="visually-hidden">Herfor</h1><figure class="board"><svg></svg></figure>"#),
            "{page}"
        );
        assert!(page.contains("Black &lt;to&gt; play"));
        assert!(page.contains(r#"<a href="https://moot.example/play/herfor?moves=c3" target="_blank" rel="noopener">Open on Moot</a>"#));
        assert!(!page.contains("header") && !page.contains("footer"));
    }
}
