//! The home page: for players, each game with its board, what it is like and a way to play the
//! computer at once; below, for developers, the API with each game's options as it takes them.

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
    /// "Find an opponent", where the server keeps tables.
    pub challenges_href: Option<String>,
}

/// One game on the home page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameCard {
    /// The game's id (`herfor`): the card's anchor on the page.
    pub id: String,
    /// The game's name for people, the card's heading (`Herfor`).
    pub name: String,
    /// A picture of the game's board (the picture API's link).
    pub picture_href: String,
    /// What the picture shows, in words (its `alt`).
    pub picture_alt: String,
    /// One line on what the game is like.
    pub what: String,
    /// How long a game takes.
    pub length: String,
    /// Who plays.
    pub players: String,
    /// The game against the computer at its defaults: the card's first button.
    pub computer_href: String,
    /// A game against a friend at a distance, where the server keeps tables of games: the
    /// page that opens one (a friend at the same screen is one of the options page's choices).
    pub friend_href: Option<String>,
    /// The options page, to choose the board, the opponent and its strength first.
    pub options_href: String,
    /// The game's rules page, the card's `Rules` link.
    pub rules_href: String,
    /// The API endpoint that starts this game.
    pub api_href: String,
    /// The game's options as the API takes them, for the developers' section.
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

/// The home page: a card per game for players, then the API for developers.
pub fn page(view: &HomeView) -> Markup {
    layout(
        "Three games",
        html! {
            section.intro {
                h1 { "Moot" }
                @if view.games.iter().any(|game| game.friend_href.is_some()) {
                    p { "Three board games to play in the browser: against the computer, with a friend at the same screen, or with a friend far away, who gets a link to the table and plays when they like." }
                }
                @if let Some(href) = &view.challenges_href {
                    p { a.button.secondary href=(href) { "Find an opponent" } " among the players waiting for a game, or offer one." }
                } @else {
                    p { "Three board games to play in the browser, against the computer or a friend at the same screen." }
                }
            }
            section.games aria-labelledby="games" {
                h2 #games { "The games" }
                @if view.games.is_empty() {
                    p { "No game is registered yet." }
                }
                @for game in &view.games {
                    (card(game))
                }
            }
            (developers(view))
        },
    )
}

fn card(game: &GameCard) -> Markup {
    html! {
        article.game id=(game.id) {
            img.board src=(game.picture_href) alt=(game.picture_alt) width="240" height="240" loading="lazy";
            div.about {
                h3 { (game.name) }
                p.what { (game.what) }
                p.links {
                    a.button href=(game.computer_href) { "Play the computer" }
                    @if let Some(friend) = &game.friend_href {
                        a.button.secondary href=(friend) { "Play a friend" }
                    }
                    a.button.secondary href=(game.options_href) { "Choose the options" }
                    a href=(game.rules_href) { "Rules" }
                }
                dl.facts {
                    div { dt { "Length" } dd { (game.length) } }
                    div { dt { "Players" } dd { (game.players) } }
                }
            }
        }
    }
}

/// For developers: the API, and each game's options as it takes them.
fn developers(view: &HomeView) -> Markup {
    html! {
        section.developers aria-labelledby="developers" {
            h2 #developers { "For developers" }
            p {
                "Moot is also a referee for programs: send a position and get back the legal "
                "moves, the position after a move, the score, a picture, or a whole game "
                "replayed. The API is stateless: the client holds the game's state. "
                a href=(view.docs_href) { "Read the API documentation" }
                " or fetch the "
                a href=(view.openapi_href) { "OpenAPI document" } "."
            }
            @for game in &view.games {
                section.api-game aria-label=(format!("{} in the API", game.name)) {
                    h3 { (game.name) ": " code { "POST " (game.api_href) } }
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn herfor() -> GameCard {
        GameCard {
            id: "herfor".into(),
            name: "Herfor".into(),
            picture_href: "/api/v1/games/herfor/picture?moves=c3".into(),
            picture_alt: "A Herfor board".into(),
            what: "Stones on a hexagon".into(),
            length: "Up to 61 stones".into(),
            players: "Two players".into(),
            computer_href: "/play/herfor?computer=second&strength=normal&moves=".into(),
            friend_href: None,
            options_href: "/play/herfor".into(),
            rules_href: "/rules/herfor".into(),
            api_href: "/api/v1/games/herfor/new".into(),
            options: vec![OptionLine {
                name: "size".into(),
                default: "7".into(),
                description: Some("Points per side".into()),
            }],
        }
    }

    #[test]
    fn a_card_shows_the_board_what_the_game_is_like_and_plays_the_computer_first() {
        let view = HomeView {
            games: vec![herfor()],
            docs_href: "/docs/".into(),
            openapi_href: "/o.json".into(),
            challenges_href: None,
        };
        let page = page(&view).into_string();
        let card = &page[page
            .find(r#"<article class="game" id="herfor">"#)
            .expect("a card")..];
        let card = &card[..card.find("</article>").expect("the card's end")];
        assert!(card.contains(r#"<img class="board" src="/api/v1/games/herfor/picture?moves=c3" alt="A Herfor board""#), "{card}");
        assert!(card.contains("<h3>Herfor</h3><p class=\"what\">Stones on a hexagon</p>"));
        assert!(card.contains("<dt>Length</dt><dd>Up to 61 stones</dd>"));
        let computer = card
            .find(r#"<a class="button" href="/play/herfor?computer=second&amp;strength=normal&amp;moves=">Play the computer</a>"#)
            .expect("the computer, first");
        assert!(computer < card.find("Choose the options").expect("the options"));
        assert!(!card.contains("Play a friend"), "no tables yet");
        assert!(
            !card.contains("<code>size</code>"),
            "no API names for players"
        );
        // The API's names are for developers, below the games.
        let developers = page
            .find("For developers")
            .expect("the developers' section");
        assert!(developers > page.find("</article>").expect("the card's end"));
        assert!(
            page[developers..].contains(
                "<td><code>size</code></td><td><code>7</code></td><td>Points per side</td>"
            )
        );
        assert!(page.contains(r#"href="/docs/""#));
    }

    #[test]
    fn a_card_offers_a_friend_once_there_is_a_way_to_play_one() {
        let view = HomeView {
            games: vec![GameCard {
                friend_href: Some("/play/herfor/friend".into()),
                ..herfor()
            }],
            ..HomeView::default()
        };
        let page = page(&view).into_string();
        let computer = page.find(">Play the computer</a>").expect("the computer");
        let friend = page
            .find(r#"<a class="button secondary" href="/play/herfor/friend">Play a friend</a>"#)
            .expect("a friend");
        assert!(computer < friend, "{page}");
        assert!(
            page.contains("or with a friend far away, who gets a link to the table"),
            "the intro says so: {page}"
        );
        let without = page_of_herfor_without_tables();
        assert!(without.contains("against the computer or a friend at the same screen"));
        assert!(!without.contains("far away"), "{without}");
    }

    fn page_of_herfor_without_tables() -> String {
        page(&HomeView {
            games: vec![herfor()],
            ..HomeView::default()
        })
        .into_string()
    }

    #[test]
    fn home_says_so_when_no_game_is_registered() {
        let page = page(&HomeView::default()).into_string();
        assert!(page.contains("No game is registered yet."));
    }
}
