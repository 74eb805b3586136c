//! The home page: what Moot is, the games with their options, links to rules and API docs.

use maud::{Markup, html};

use crate::layout::layout;

/// Everything the home page shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HomeView {
    /// One card per game, in the order the page lists them.
    pub games: Vec<GameCard>,
    /// Swagger UI.
    pub docs_href: String,
    /// The OpenAPI document.
    pub openapi_href: String,
}

/// One game on the home page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameCard {
    /// The game's id (`herfor`): the card's anchor on the page.
    pub id: String,
    /// The game's name for people, the card's heading (`Herfor`).
    pub name: String,
    /// The game's rules page, the card's `Rules` link.
    pub rules_href: String,
    /// The play page, for games that have one.
    pub play_href: String,
    /// The API endpoint that starts this game.
    pub api_href: String,
    /// The game's options, one row each in the card's table (`No options.` when there are none).
    pub options: Vec<OptionLine>,
}

/// An option with its default, written as JSON.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OptionLine {
    /// The option's name as the API takes it (`size`).
    pub name: String,
    /// Its default value, written as JSON (`5`).
    pub default: String,
    /// What it means, in words (the option's description in the API schema); blank without one.
    pub description: Option<String>,
}

/// The home page: what Moot is, a card per game with its links and options, and links to the
/// API documentation.
pub fn page(view: &HomeView) -> Markup {
    layout(
        "Three games",
        html! {
            section.intro {
                h1 { "Moot" }
                p {
                    "A referee for three board games. Programs send a position and get back the legal "
                    "moves, the position after a move, the score, or a whole game replayed; people can "
                    "read the rules and play in the browser."
                }
                p {
                    "The API is stateless: the client holds the game's state. "
                    a href=(view.docs_href) { "Read the API documentation" }
                    " or fetch the "
                    a href=(view.openapi_href) { "OpenAPI document" } "."
                }
            }
            section.games {
                h2 { "The games" }
                @if view.games.is_empty() {
                    p { "No game is registered yet." }
                }
                @for game in &view.games {
                    (card(game))
                }
            }
        },
    )
}

fn card(game: &GameCard) -> Markup {
    html! {
        article.game id=(game.id) {
            h3 { (game.name) }
            p.links {
                a.button href=(game.play_href) { "Play" } " · "
                a href=(game.rules_href) { "Rules" }
                " · API: "
                code { "POST " (game.api_href) }
            }
            @if game.options.is_empty() {
                p { "No options." }
            } @else {
                table.options {
                    thead { tr { th { "Option" } th { "Default" } th { "Meaning" } } }
                    tbody {
                        @for option in &game.options {
                            tr {
                                td { code { (option.name) } }
                                td { code { (option.default) } }
                                td { (option.description.as_deref().unwrap_or("")) }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn herfor() -> GameCard {
        GameCard {
            id: "herfor".into(),
            name: "Herfor".into(),
            rules_href: "/rules/herfor".into(),
            play_href: "/play/herfor".into(),
            api_href: "/api/v1/games/herfor/new".into(),
            options: vec![OptionLine {
                name: "size".into(),
                default: "7".into(),
                description: Some("Points per side".into()),
            }],
        }
    }

    #[test]
    fn home_lists_each_game_with_rules_link_and_options() {
        let view = HomeView {
            games: vec![herfor()],
            docs_href: "/docs/".into(),
            openapi_href: "/o.json".into(),
        };
        let page = page(&view).into_string();
        assert!(page.contains(r#"<article class="game" id="herfor"><h3>Herfor</h3>"#));
        assert!(page.contains(r#"href="/rules/herfor""#));
        assert!(page.contains(r#"<a class="button" href="/play/herfor">Play</a>"#));
        assert!(
            page.contains(
                "<td><code>size</code></td><td><code>7</code></td><td>Points per side</td>"
            )
        );
        assert!(page.contains(r#"href="/docs/""#));
    }

    #[test]
    fn home_says_so_when_no_game_is_registered() {
        let page = page(&HomeView::default()).into_string();
        assert!(page.contains("No game is registered yet."));
    }
}
