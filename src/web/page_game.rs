//! What a game gives the play pages: its board picture, words for its moves and events, its
//! rules. Everything else on the pages is generic over [`Game`].

use maud::Markup;
use moot_templates::drawing::{Drawing, Look, page_svg};

use super::replay::Ply;
use crate::games::Game;

/// A legal move as a page offers it: the move, its notation, and what its button on the board
/// sends.
#[derive(Clone, Debug)]
pub struct Playable<M> {
    pub mv: M,
    pub notation: String,
    /// The value of the move's button on the board: its notation on a page; empty in a
    /// picture, which draws the move's target without a button.
    pub play: String,
}

/// The game-specific parts of the play pages. Implementations turn engine data into view data
/// and call the views in the `moot-templates` crate; views know nothing of the rules.
pub trait PageGame: Game {
    /// The board as inline SVG. Every legal move a click on the board can say is drawn as a
    /// button of the page's form over the highlighted point/hill/space, titled with its words;
    /// `playable` holds every legal move of the position (empty when the game is over).
    /// `last` is the last turn, its moves with their events (empty before the first move, and
    /// on pictures of the rules); the board marks what it did. `hint` is the computer's hinted
    /// move, marked where it plays.
    fn board(
        state: &Self::State,
        playable: &[Playable<Self::Move>],
        last: &[Ply<Self>],
        hint: Option<&Self::Move>,
    ) -> Markup {
        page_svg(&Self::drawing(state, playable, last, hint, Look::default()))
    }

    /// The board's drawing, self-contained, as [`board`](PageGame::board) shows it on a page
    /// and the pictures show it alone: one drawing code for both. `look` turns the board or
    /// leaves out the coordinates.
    fn drawing(
        state: &Self::State,
        playable: &[Playable<Self::Move>],
        last: &[Ply<Self>],
        hint: Option<&Self::Move>,
        look: Look,
    ) -> Drawing;

    /// Words for a move on its button, in this position (before it is played):
    /// `Place a stone on c3`, `Retreat the Lofðungr to Miðr`.
    fn label(state: &Self::State, mv: &Self::Move) -> String;

    /// The heading under which a move's button is listed (`Placements`, `Answer the offer`).
    fn group(state: &Self::State, mv: &Self::Move) -> String;

    /// What one event of a move did, in words (`Flipped b2, b3 to black`).
    fn describe(event: &Self::Event) -> String;

    /// The facts beside the board that the picture does not show at a glance (reserves, steps
    /// left this turn, the doubling factor, the match score…).
    fn panel(state: &Self::State) -> Markup;

    /// The rules for players: short, with a picture of the board.
    fn rules() -> Markup;

    /// The score at the end in words, as (what, how much) rows: by default every member of
    /// the engine's score; games whose score holds codes (a victory's kind, seats) say it
    /// in words.
    fn score_words(state: &Self::State) -> Vec<(String, String)> {
        super::view::score_rows(&Self::score(state))
    }
}
