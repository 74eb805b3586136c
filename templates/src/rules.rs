//! A game's rules page: the rules the game writes, framed with a heading and links to play.

use maud::{Markup, html};

use crate::layout::layout;

#[derive(Clone, Debug, Default)]
pub struct RulesView {
    pub game_name: String,
    pub play_href: String,
    /// The rules, written by the game for players.
    pub body: Markup,
}

pub fn page(view: &RulesView) -> Markup {
    layout(
        &format!("{} rules", view.game_name),
        html! {
            article.rules {
                h1 { (view.game_name) ": the rules" }
                p.play { a.button href=(view.play_href) { "Play " (view.game_name) } }
                (view.body)
                p.play { a.button href=(view.play_href) { "Play " (view.game_name) } }
            }
        },
    )
}
