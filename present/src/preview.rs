//! What a play page's link shows where it is pasted: the position's picture (the picture API's
//! GET form of the same link) with whose turn it is, as Open Graph and Twitter card tags.

use moot_templates::layout::Preview;

use super::link::{Link, MOVES, SEPARATOR, encode};
use super::page_game::{PageGame, PlayerNames};
use super::replay::Replayed;
use super::view::status_line;

/// The size of a preview's picture: the longer side, in pixels (the cards' large images).
pub const PREVIEW_PIXELS: u32 = 1200;

/// The picture API's GET form of a position: its options and moves (not the page's own
/// parameters, which do not change the position), then the picture's `extra` parameters.
pub fn picture_href<G: PageGame>(position: &Link<G>, extra: &[(&str, String)]) -> String {
    media_href(position, "picture", extra)
}

/// The animation API's GET form of a game: its options and moves, then `extra`.
pub fn animation_href<G: PageGame>(position: &Link<G>, extra: &[(&str, String)]) -> String {
    media_href(position, "animation", extra)
}

/// `/api/v1/games/{game}/{what}` with the position's options and moves, then `extra`.
fn media_href<G: PageGame>(position: &Link<G>, what: &str, extra: &[(&str, String)]) -> String {
    let mut pairs = position.option_pairs().to_vec();
    pairs.push((
        MOVES.to_owned(),
        position.moves.join(&SEPARATOR.to_string()),
    ));
    pairs.extend(extra.iter().map(|(n, v)| ((*n).to_owned(), v.clone())));
    format!("/api/v1/games/{}/{what}?{}", G::ID, encode(&pairs))
}

/// The preview of a game page at `origin` (`https://moot.example`).
pub fn preview<G: PageGame>(origin: &str, position: &Link<G>, game: &Replayed<G>) -> Preview {
    let mut status = status_line(&G::status(&game.state));
    // A shared link names the players by colour, as between two at one screen.
    if let Some(words) = G::end_words(&game.state, PlayerNames::default()) {
        status.detail = words;
    }
    let plies = match game.plies.len() {
        0 => "No move yet".to_owned(),
        1 => "1 move played".to_owned(),
        n => format!("{n} moves played"),
    };
    let detail = if status.detail.is_empty() {
        String::new()
    } else {
        format!(" — {}", status.detail)
    };
    Preview {
        title: format!("{}: {}", G::NAME, status.headline),
        description: format!("{plies}{detail}. A game on Moot."),
        url: format!("{origin}{}", position.href()),
        image: format!(
            "{origin}{}",
            picture_href(
                position,
                &[
                    ("pixels", PREVIEW_PIXELS.to_string()),
                    ("caption", "true".to_owned())
                ]
            )
        ),
        image_alt: format!("The {} board: {}", G::NAME, status.headline),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::Query;
    use crate::replay::replay;
    use moot_games::herfor::Herfor;

    #[test]
    fn a_preview_points_at_the_picture_of_the_same_position() {
        let query = Query::parse("size=3&pie=false&computer=second&moves=c3");
        let (position, _) = Link::<Herfor>::read(&query).expect("a link");
        let game = replay(&position).expect("a game");
        let preview = preview("https://moot.example", &position, &game);
        assert_eq!(
            preview.image,
            "https://moot.example/api/v1/games/herfor/picture?pie=false&simple=false&size=3&moves=c3&pixels=1200&caption=true"
        );
        assert!(
            preview.url.starts_with("https://moot.example/play/herfor?"),
            "{}",
            preview.url
        );
        assert!(
            preview.title.starts_with("Herfor: White to play"),
            "{}",
            preview.title
        );
        assert!(preview.description.starts_with("1 move played"));
    }
}
