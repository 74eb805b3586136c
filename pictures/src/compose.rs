//! A position's picture as a self-contained SVG document: the game's drawing (the one the
//! pages show), turned or not, with or without its coordinates, last-move marks and targets,
//! on a background, with an optional caption.

use moot_templates::drawing::{self, CaptionRoom, Look};

use super::font::FAMILY;
use super::options::{Bottom, PictureOptions};
use moot_games::Status;
use moot_present::page_game::PlayerNames;
use moot_present::replay::Ply;
use moot_present::view::status_line;
use moot_present::{PageGame, Playable};

/// The longest caption drawn whole (on two lines under the board at most); a longer one
/// keeps only its headline.
const CAPTION_MAX: usize = 90;

/// The picture of `state` as an SVG document. `last` is the last turn (its plies, oldest
/// first), marked when the options ask for it; empty when unknown.
pub fn picture_svg<G: PageGame>(
    state: &G::State,
    last: &[Ply<G>],
    options: &PictureOptions,
) -> String {
    svg::<G>(state, last, options, CaptionRoom::Fit)
}

/// The picture of `state` as one frame of an animation: as [`picture_svg`], but a caption
/// gets the room of the longest, so that every frame has one size.
pub fn frame_svg<G: PageGame>(
    state: &G::State,
    last: &[Ply<G>],
    options: &PictureOptions,
) -> String {
    svg::<G>(state, last, options, CaptionRoom::Most)
}

fn svg<G: PageGame>(
    state: &G::State,
    last: &[Ply<G>],
    options: &PictureOptions,
    room: CaptionRoom,
) -> String {
    let look = Look {
        flipped: options.bottom == Bottom::Second,
        coordinates: options.coordinates,
    };
    let last = if options.last { last } else { &[] };
    let targets = if options.targets {
        targets::<G>(state)
    } else {
        Vec::new()
    };
    let drawing = G::drawing(state, &targets, last, None, look);
    let caption = options.caption.then(|| caption::<G>(state));
    drawing::picture_svg(&drawing, options.pixels, caption.as_deref(), room, FAMILY).into_string()
}

/// The legal moves, as targets on the board; a picture is no page, so they link nowhere.
fn targets<G: PageGame>(state: &G::State) -> Vec<Playable<G::Move>> {
    if matches!(G::status(state), Status::Finished { .. }) {
        return Vec::new();
    }
    G::legal_moves(state)
        .into_iter()
        .map(|mv| Playable {
            notation: G::format_move(state, &mv),
            play: String::new(),
            mv,
        })
        .collect()
}

/// Whose turn it is and what they decide, or the result and why, in the pages' words for
/// players at one screen (colours: a picture has no "you").
pub fn caption<G: PageGame>(state: &G::State) -> String {
    let line = status_line(&G::status(state));
    // The game's own end words name the winner: they follow "Game over" alone.
    let whole = match G::end_words(state, PlayerNames::default()) {
        Some(words) => format!("Game over: {words}"),
        None => format!("{} · {}", line.headline, line.detail),
    };
    if line.detail.is_empty() || whole.chars().count() > CAPTION_MAX {
        line.headline
    } else {
        whole
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use moot_games::Game;
    use moot_games::herfor::{Herfor, HerforOptions};

    fn start() -> <Herfor as Game>::State {
        Herfor::new_game(&HerforOptions {
            size: 3,
            pie: false,
            simple: false,
        })
        .expect("a game")
    }

    /// A game's start with its default options.
    fn new_state<G: Game>() -> G::State {
        G::new_game(&G::Options::default()).expect("a game")
    }

    #[test]
    fn a_picture_is_sized_captioned_and_shows_targets_only_when_asked() {
        let options = PictureOptions {
            pixels: 300,
            ..PictureOptions::default()
        };
        let plain = picture_svg::<Herfor>(&start(), &[], &options);
        assert!(
            plain.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="300""#),
            "{plain}"
        );
        assert!(plain.contains(r#"font-family="DejaVu Sans""#));
        assert!(!plain.contains("class=\"target\""));
        assert!(!plain.contains("class=\"caption\""));
        let rich = picture_svg::<Herfor>(
            &start(),
            &[],
            &PictureOptions {
                targets: true,
                caption: true,
                ..options
            },
        );
        assert!(rich.contains("class=\"target\""));
        assert!(rich.contains(">Black to play"), "{rich}");
        // A picture links nowhere: its targets are drawn, not wrapped in empty links.
        assert!(!rich.contains("<a "), "{rich}");
    }

    /// A finished single Hirþ game (a target of 1 point) is captioned as the pages say it: the
    /// winner, how and for how many points, and no match (the engine's status says `match
    /// 0–1`, in seat order).
    #[test]
    fn a_finished_single_hirth_game_is_captioned_winner_first() {
        use moot_games::hirth::{Hirth, HirthOptions};
        use moot_games::{Seat, Turn};
        let options = HirthOptions { target: 1 };
        let won_by_second = |seed: u64| {
            let moves = moot_games::fixtures::random_game::<Hirth>(&options, 5000, seed);
            let mut state = Hirth::new_game(&options).expect("a match");
            for m in &moves {
                let mv = Hirth::parse_move(&state, m).expect("a move");
                Hirth::apply(&mut state, &mv).expect("a legal move");
            }
            (Hirth::turn(&state) == Turn::Won(Seat::Second)).then_some(state)
        };
        let state = (0..60)
            .find_map(won_by_second)
            .expect("a random match the second seat wins");
        let caption = caption::<Hirth>(&state);
        let points = state.points[1];
        assert!(
            caption.starts_with("Game over: Silfr won the game by "),
            "{caption}"
        );
        let plural = if points == 1 { "" } else { "s" };
        assert!(
            caption.ends_with(&format!(": {points} point{plural}")),
            "{caption}"
        );
        assert!(!caption.contains("match"), "{caption}");
        assert!(caption.chars().count() <= CAPTION_MAX, "{caption}");
    }

    #[test]
    fn tara_and_hirth_targets_in_a_picture_are_no_links() {
        let options = PictureOptions {
            targets: true,
            ..PictureOptions::default()
        };
        let tara = picture_svg::<moot_games::tara::Tara>(
            &new_state::<moot_games::tara::Tara>(),
            &[],
            &options,
        );
        assert!(tara.contains("class=\"move"), "{tara}");
        assert!(!tara.contains("<a "), "{tara}");
        let hirth = picture_svg::<moot_games::hirth::Hirth>(
            &new_state::<moot_games::hirth::Hirth>(),
            &[],
            &options,
        );
        assert!(hirth.contains("class=\"move"), "{hirth}");
        assert!(!hirth.contains("<a "), "{hirth}");
    }

    #[test]
    fn the_second_seat_at_the_bottom_turns_the_board() {
        let svg = |bottom| {
            picture_svg::<Herfor>(
                &start(),
                &[],
                &PictureOptions {
                    bottom,
                    ..PictureOptions::default()
                },
            )
        };
        assert_ne!(svg(Bottom::First), svg(Bottom::Second));
        let no_labels = picture_svg::<Herfor>(
            &start(),
            &[],
            &PictureOptions {
                coordinates: false,
                ..PictureOptions::default()
            },
        );
        assert!(svg(Bottom::First).contains("class=\"rows\""));
        assert!(!no_labels.contains("class=\"rows\""));
    }
}
