//! A game's rules page: the rules the game writes, framed with a heading and links to play.

use maud::{Markup, html};

use crate::layout::layout;

/// What a game's rules page shows: the rules for players, the notation and the binding rules.
#[derive(Clone, Debug, Default)]
pub struct RulesView {
    /// The game's name, in the title and the heading (`Herfor: the rules`).
    pub game_name: String,
    /// The game's play page, linked by the `Play` buttons above and below the rules.
    pub play_href: String,
    /// The rules, written by the game for players.
    pub body: Markup,
    /// The game's move notation, for players typing moves and for programs.
    pub notation: Markup,
    /// The binding rules in full, each rule's heading anchored by its id (`#F3`).
    pub binding: Markup,
    /// The rule ids, in order, for the index.
    pub rule_ids: Vec<String>,
}

/// A game's rules page: the rules for players between two `Play` buttons, then the notation,
/// then the binding rules in full with an index of their ids.
pub fn page(view: &RulesView) -> Markup {
    layout(
        &format!("{} rules", view.game_name),
        html! {
            article.rules {
                h1 { (view.game_name) ": the rules" }
                p.play { a.button href=(view.play_href) { "Play " (view.game_name) } }
                (view.body)
                p.play { a.button href=(view.play_href) { "Play " (view.game_name) } }
                section.notation { (view.notation) }
                section.binding {
                    h2 { "The rules in full" }
                    p { "The rules as Moot's engine applies them; errors cite their ids." }
                    nav.rule-index aria-label="Rule ids" {
                        @for id in &view.rule_ids { a href={ "#" (id) } { (id) } " " }
                    }
                    (view.binding)
                }
            }
        },
    )
}
