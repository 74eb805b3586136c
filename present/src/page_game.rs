//! What a game gives the play pages: its board picture, words for its moves and events, its
//! rules. Everything else on the pages is generic over [`Game`]. Each game implements
//! [`PageGame`] in its own module of this crate; the pages reach it through the games' registry.

use maud::Markup;
use moot_templates::drawing::{Drawing, Look, page_svg};

use super::replay::Ply;
use super::rulebook::Rulebook;
use super::words::capitalised;
use moot_games::{Game, Seat};

/// Who plays on a page: against the computer, the seat it plays; at a kept table, the seat of
/// the page's player. A page names each player one way everywhere (status, panel, events,
/// end): by colour between two people at one screen (`Red`); against the computer `You (Red)`
/// and `Computer (Blue)`; at a table `You (Red)` and `Opponent (Blue)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerNames {
    /// The seat the computer plays; `None` for two people at one screen.
    pub computer: Option<Seat>,
    /// The seat of the page's player at a table, whose opponent plays from elsewhere.
    pub you: Option<Seat>,
}

impl PlayerNames {
    /// Whether the page speaks to one of the players ("you"), not to both at one screen.
    pub fn personal(self) -> bool {
        self.computer.is_some() || self.you.is_some()
    }

    /// The player in `seat`, who plays `colour` (a colour word such as `gull`): `Gull`,
    /// `You (Gull)`, `Computer (Silfr)`, `Opponent (Silfr)`.
    pub fn name(self, seat: Seat, colour: &str) -> String {
        let colour = capitalised(colour);
        match (self.computer, self.you) {
            (Some(computer), _) if computer == seat => format!("Computer ({colour})"),
            (Some(_), _) => format!("You ({colour})"),
            (None, Some(you)) if you == seat => format!("You ({colour})"),
            (None, Some(_)) => format!("Opponent ({colour})"),
            (None, None) => colour,
        }
    }

    /// The player's, before a thing of theirs: `Gull's`, `your`, `the computer's`, `the
    /// opponent's`.
    pub fn whose(self, seat: Seat, colour: &str) -> String {
        match (self.computer, self.you) {
            (Some(computer), _) if computer == seat => "the computer's".to_owned(),
            (Some(_), _) => "your".to_owned(),
            (None, Some(you)) if you == seat => "your".to_owned(),
            (None, Some(_)) => "the opponent's".to_owned(),
            (None, None) => format!("{}'s", capitalised(colour)),
        }
    }
}

/// A legal move as a page offers it: the move, its notation, and what its button on the board
/// sends.
#[derive(Clone, Debug)]
pub struct Playable<M> {
    /// The move as the engine has it.
    pub mv: M,
    /// Its notation, which its button in the move list sends.
    pub notation: String,
    /// The value of the move's button on the board: its notation on a page; empty in a
    /// picture, which draws the move's target without a button.
    pub play: String,
}

/// What a move would do, by the engine: its events, played on a copy of the position. The
/// board's buttons say what they change from these, so the script draws a move at once
/// without knowing the rules.
pub fn events_of<G: Game>(state: &G::State, mv: &G::Move) -> Vec<G::Event> {
    let mut after = state.clone();
    G::apply(&mut after, mv).unwrap_or_default()
}

/// What a newcomer reads of a game before playing it, on the home page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intro {
    /// One line on what the game is like.
    pub what: &'static str,
    /// How long a game takes, in moves or turns.
    pub length: &'static str,
    /// Who plays.
    pub players: &'static str,
}

/// One of a game's options in a player's words: what the options page calls it and says of
/// it, instead of its name in the API and the rule it cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionWords {
    /// The option's name as a player would say it (`Board size`).
    pub label: &'static str,
    /// What choosing it changes, in a sentence.
    pub help: &'static str,
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

    /// Whether a move is a choice beside the turn rather than a step of it (Hirþ's Penningr
    /// offer, a doubling of the stakes): the page offers it after the turn's other controls,
    /// as a secondary button. By default none is.
    fn secondary(_state: &Self::State, _mv: &Self::Move) -> bool {
        false
    }

    /// What each event of a played move did, in words (`A black stone on b2 flipped b3`);
    /// events that name a player name them as `players` does, in the colours of the game
    /// the event belongs to. `options` are the game's (a Hirþ game to one point is a single
    /// game, not a match).
    fn describe(ply: &Ply<Self>, options: &Self::Options, players: PlayerNames) -> Vec<String>;

    /// The facts beside the board that the picture does not show at a glance (reserves, steps
    /// left this turn, the doubling factor, the match score…), the players named as
    /// `players` does.
    fn panel(state: &Self::State, players: PlayerNames) -> Markup;

    /// The rules for players: short, with a picture of the board.
    fn rules() -> Markup;

    /// What the game is like, how long it takes and who plays, for the home page.
    const INTRO: Intro;

    /// The game's binding rules and move notation, as Markdown: its `/rules/{game}` page, and
    /// the rule ids that problems cite.
    const RULEBOOK: Rulebook;

    /// The option called `name` in the API, in a player's words; `None` for an option the
    /// game does not word (the options page then shows the API's name and description).
    fn option_words(name: &str) -> Option<OptionWords>;

    /// What the status line says under "Game over", where the engine's reason does not say
    /// it the pages' way (a Hirþ match's score in seat order): the players named as
    /// `players` does. By default none: the engine's reason, after the winner's name against
    /// the computer.
    fn end_words(_state: &Self::State, _players: PlayerNames) -> Option<String> {
        None
    }

    /// The score at the end in words, as (what, how much) rows: by default every member of
    /// the engine's score; games whose score holds codes (a victory's kind, seats) say it
    /// in words, the players named as `players` does.
    fn score_words(state: &Self::State, _players: PlayerNames) -> Vec<(String, String)> {
        super::words::score_rows(&Self::score(state))
    }
}

#[cfg(test)]
mod tests {
    use super::PageGame;
    use moot_games::{GAME_IDS, with_game};

    /// Every game of the registry has its pages: a game registered in `moot-games` without its
    /// module here does not compile, and one without words for the home page is caught here.
    #[test]
    fn every_registered_game_has_its_pages() {
        fn intro_of<G: PageGame>() -> &'static str {
            G::INTRO.what
        }
        for id in GAME_IDS {
            let what = with_game!(*id, G => intro_of::<G>(), else unreachable!());
            assert!(!what.is_empty(), "{id}");
        }
    }
}
