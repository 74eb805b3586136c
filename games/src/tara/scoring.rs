//! Kingdoms, territory and the points of T12.

use serde::Serialize;

use super::board::Board;
use super::geometry::groups;
use super::state::{Colour, PerColour, TaraState};

/// How a finished game came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Each colour's points for the game (T12).
    pub points: PerColour<u32>,
    /// The colour with more points; `None` when they are equal.
    pub winner: Option<Colour>,
    /// In words: `double capture by Red`, `Red has fewer kingdoms (6 to 7)`.
    pub reason: String,
}

/// The number of kingdoms (T7) of a set of ringforts.
pub fn kingdoms(ringforts: u64) -> u32 {
    groups(ringforts).count() as u32
}

/// How a game was decided, with the figures its words need.
#[derive(Clone, Copy)]
enum Reason {
    DoubleCapture(Colour),
    FewerKingdoms {
        winner: Colour,
        w: u32,
        l: u32,
    },
    MoreTerritory {
        winner: Colour,
        kingdoms: u32,
        w: u32,
        l: u32,
    },
    Equal {
        kingdoms: u32,
        territory: u32,
    },
}

/// The points and winner of a finished game (T12), as [`outcome`] without its words: what the
/// search and the game's status need.
pub fn points_and_winner(state: &TaraState) -> (PerColour<u32>, Option<Colour>) {
    let (points, winner, _) = decide(state);
    (points, winner)
}

/// The result of a finished game (T12), from its final position.
pub fn outcome(state: &TaraState) -> Outcome {
    let (points, winner, reason) = decide(state);
    let reason = match reason {
        Reason::DoubleCapture(winner) => format!("double capture by {}", winner.title()),
        Reason::FewerKingdoms { winner, w, l } => {
            format!("{} has fewer kingdoms ({w} to {l})", winner.title())
        }
        Reason::MoreTerritory {
            winner,
            kingdoms,
            w,
            l,
        } => format!(
            "equal kingdoms ({kingdoms}); {} has more territory ({w} to {l})",
            winner.title()
        ),
        Reason::Equal {
            kingdoms,
            territory,
        } => format!("equal kingdoms ({kingdoms}) and territory ({territory})"),
    };
    Outcome {
        points,
        winner,
        reason,
    }
}

fn decide(state: &TaraState) -> (PerColour<u32>, Option<Colour>, Reason) {
    let board = Board::of(state);
    let captured = |c: Colour| *state.captured.get(c) as u32;
    if let Some(winner) = Colour::BOTH.into_iter().find(|&c| captured(c) >= 2) {
        // Double capture: one point per captured king; the loser keeps one for its own capture.
        let points = PerColour {
            red: captured(Colour::Red),
            blue: captured(Colour::Blue),
        };
        return (points, Some(winner), Reason::DoubleCapture(winner));
    }
    let kingdoms_of = |c: Colour| kingdoms(board.ringforts(c));
    let territory_of = |c: Colour| board.ringforts(c).count_ones();
    let (red_k, blue_k) = (kingdoms_of(Colour::Red), kingdoms_of(Colour::Blue));
    let (red_t, blue_t) = (territory_of(Colour::Red), territory_of(Colour::Blue));
    let mut points = PerColour {
        red: captured(Colour::Red),
        blue: captured(Colour::Blue),
    };
    let (winner, margin, reason) = if red_k != blue_k {
        let winner = if red_k < blue_k {
            Colour::Red
        } else {
            Colour::Blue
        };
        let (w, l) = if winner == Colour::Red {
            (red_k, blue_k)
        } else {
            (blue_k, red_k)
        };
        (Some(winner), l - w, Reason::FewerKingdoms { winner, w, l })
    } else if red_t != blue_t {
        let winner = if red_t > blue_t {
            Colour::Red
        } else {
            Colour::Blue
        };
        let (w, l) = if winner == Colour::Red {
            (red_t, blue_t)
        } else {
            (blue_t, red_t)
        };
        let reason = Reason::MoreTerritory {
            winner,
            kingdoms: red_k,
            w,
            l,
        };
        (Some(winner), w - l, reason)
    } else {
        let reason = Reason::Equal {
            kingdoms: red_k,
            territory: red_t,
        };
        (None, 0, reason)
    };
    match winner {
        Some(winner) => *points.get_mut(winner) += 2 + margin,
        None => {
            points.red += 1;
            points.blue += 1;
        }
    }
    (points, winner, reason)
}

/// One colour's side of the score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct ColourScore {
    /// Kingdoms: groups of linked ringforts, a single ringfort counting as one (T7).
    pub kingdoms: u32,
    /// Territory: the number of ringforts.
    pub territory: u32,
    /// Enemy kings this colour has captured.
    pub captured_kings: u8,
    /// Kings of this colour still on the board.
    pub kings_on_board: u8,
    /// Points of T12 for this game, once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
    /// In a match, the points of both games so far (game 1, plus this game once it is over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_points: Option<u32>,
}

/// The score at any moment (T12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema))]
pub struct TaraScore {
    /// Red's kingdoms, territory, captures and points.
    pub red: ColourScore,
    /// Blue's kingdoms, territory, captures and points.
    pub blue: ColourScore,
    /// The game of the match (1 or 2); 1 outside a match.
    pub game: u8,
    /// The (current) game is over.
    pub over: bool,
    /// The winner of the game, once it is over and not drawn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Colour>,
    /// How the game was decided, once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The winner of the match, once both games are over and the points differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_winner: Option<Colour>,
}

/// Match totals once the match is decided: `Some(totals)` when both games are over.
pub fn match_totals(state: &TaraState) -> Option<PerColour<u32>> {
    let earlier = state.game1_points.unwrap_or_default();
    if !state.options.is_match {
        return None;
    }
    let current = if state.over {
        points_and_winner(state).0
    } else {
        PerColour::default()
    };
    Some(PerColour {
        red: earlier.red + current.red,
        blue: earlier.blue + current.blue,
    })
}

/// The colour with more points in a finished match (None for equal points).
pub fn match_winner(totals: &PerColour<u32>) -> Option<Colour> {
    match totals.red.cmp(&totals.blue) {
        std::cmp::Ordering::Greater => Some(Colour::Red),
        std::cmp::Ordering::Less => Some(Colour::Blue),
        std::cmp::Ordering::Equal => None,
    }
}

/// The score of a position (T12), at any moment of the game or match.
pub fn score(state: &TaraState) -> TaraScore {
    let board = Board::of(state);
    let result = state.over.then(|| outcome(state));
    let totals = match_totals(state);
    let side = |c: Colour| ColourScore {
        kingdoms: kingdoms(board.ringforts(c)),
        territory: board.ringforts(c).count_ones(),
        captured_kings: *state.captured.get(c),
        kings_on_board: board.kings(c).count_ones() as u8,
        points: result.as_ref().map(|r| *r.points.get(c)),
        match_points: totals.map(|t| *t.get(c)),
    };
    let match_over = state.options.is_match && state.over && state.game == 2;
    TaraScore {
        red: side(Colour::Red),
        blue: side(Colour::Blue),
        game: state.game,
        over: state.over,
        winner: result.as_ref().and_then(|r| r.winner),
        result: result.map(|r| r.reason),
        match_winner: if match_over {
            totals.and_then(|t| match_winner(&t))
        } else {
            None
        },
    }
}
