//! The downloads a game page's record offers beside the moves: the position's picture and the
//! game's animation, where the pictures can draw them.

use moot_present::link::Link;
use moot_present::page_game::PageGame;
use moot_present::preview::{animation_href, picture_href};

/// The record's neighbours to download, for a game the animation API draws whole (its
/// frames: the start and each move): the position's picture, and the game as an animation
/// once it has a move. A longer game's page offers neither: each link repeats the moves,
/// and the page's size is kept to one copy in the form (and the preview's).
pub fn downloads<G: PageGame>(view: &mut moot_templates::play::RecordView, position: &Link<G>) {
    if position.moves.len() >= moot_pictures::animation::MAX_FRAMES {
        return;
    }
    view.picture_href = Some(picture_href(
        position,
        &[
            ("pixels", "1200".to_owned()),
            ("caption", "true".to_owned()),
        ],
    ));
    view.animation_href = (!position.moves.is_empty())
        .then(|| animation_href(position, &[("caption", "true".to_owned())]));
    view.file_stem = G::ID.to_owned();
}
