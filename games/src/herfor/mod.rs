//! Herfor: placement, invasions and flips on a hexagonal board of triangles
//! (`rules/herfor.md`, rules F1–F6).
//!
//! - [`geometry`]: the one compile-time table of the size-7 board (smaller boards are its
//!   central hexagon), point names (F1);
//! - [`rules`]: placement legality and flips on bitboards (F2, F3, F6);
//! - [`state`]: options, the state, its JSON form and `validate`;
//! - [`moves`]: moves and their notation; [`report`]: events and the score;
//! - [`playout`]: the search's compact position, legal placements as a bit set;
//!   [`cells`]: its sets in two widths, [`wide`]: the padded grid they use (and `simd`: its
//!   legal placements with AVX-512 where the CPU has it).
//!
//! Seats: [`Seat::First`](crate::Seat::First) is the player who places first: Black, or White
//! after a swap (F5).
//! Colours in statuses and JSON are `"black"` and `"white"`.
//!
//! Readings of the rules made here:
//! - `moves_played` counts every move: placements, passes and the swap. Colours alternate on
//!   every move but the swap, which keeps White to move (the first player, now White, moves
//!   next; the black stone stays black).
//! - `validate` also checks what the counters imply: until the first pass every move but the
//!   swap placed a stone; passes come at most one between placements; and a player who passed
//!   (the last one or two moves) must still have no legal placement, since the board is unchanged.
//! - The swap is offered together with White's placements right after the first placement, and
//!   nowhere else. Passes can never happen before it: White always has a legal placement then.
//! - A point name that is well formed but off the board (`k9` on size 5) is an illegal move
//!   (F1), not an unreadable one.

pub mod cells;
pub mod geometry;
pub mod moves;
pub mod playout;
pub mod report;
pub mod rules;
#[cfg(target_arch = "x86_64")]
mod simd;
pub mod state;
pub mod wide;

#[cfg(test)]
mod tests;

pub use geometry::Point;
pub use moves::HerforMove;
pub use playout::{Placement, Position};
pub use report::{HerforEvent, HerforScore};
pub use state::{Colour, HerforOptions, HerforState};

use geometry::{board_mask, point_name};

use super::{Game, InvalidOptions, InvalidState, MoveError, Status, Turn};

/// The Herfor engine.
pub struct Herfor;

impl Herfor {
    /// Places a stone for the mover, returning the flipped stones. The move must be legal.
    fn place(state: &mut HerforState, p: Point) -> wide::Wide {
        let mover = state.to_move;
        let (own, enemy) = (
            state.stones[mover.index()],
            state.stones[mover.other().index()],
        );
        let flipped = rules::flips(p, own, enemy, state.options.simple);
        state.stones[mover.index()] = own | wide::Wide::cell(wide::cell_of(p)) | flipped;
        state.stones[mover.other().index()] = enemy & !flipped;
        state.to_move = mover.other();
        state.passes_in_a_row = 0;
        state.moves_played += 1;
        flipped
    }

    /// Records a pass (F4): the first pass of the game gives the button to the opponent.
    /// Returns the colour the button went to, if this pass gave it out.
    fn pass(state: &mut HerforState) -> Option<Colour> {
        let mover = state.to_move;
        let given = state.button.is_none().then(|| mover.other());
        state.button = state.button.or(given);
        state.to_move = mover.other();
        state.passes_in_a_row += 1;
        state.moves_played += 1;
        given
    }

    fn swap(state: &mut HerforState) {
        state.swapped = true;
        state.moves_played += 1;
    }

    fn check_placement(state: &HerforState, p: Point) -> Result<(), MoveError> {
        let size = state.size();
        let name = || point_name(size, p).unwrap_or_default();
        if board_mask(size) & p.bit() == 0 {
            return Err(MoveError::illegal(
                "F1",
                format!("point #{} is not on the size-{size} board", p.0),
            ));
        }
        if let Some(colour) = state.stone_at(p) {
            return Err(MoveError::illegal(
                "F3",
                format!("{} already holds a {} stone", name(), colour.name()),
            ));
        }
        let mover = state.to_move;
        let (own, enemy) = (
            state.stones[mover.index()],
            state.stones[mover.other().index()],
        );
        if !rules::placement_allowed(p, own, enemy) {
            return Err(MoveError::illegal(
                "F3",
                format!(
                    "{} touches a {} stone and forms no invading phalanx: a stone may only touch its own colour when it lines up between two enemy phalanxes",
                    name(),
                    mover.name()
                ),
            ));
        }
        Ok(())
    }

    fn game_over_event(state: &HerforState) -> HerforEvent {
        let score = report::score(state);
        HerforEvent::GameOver {
            winner: score.winner.unwrap_or(Colour::Black),
            black_total: score.black_total,
            white_total: score.white_total,
        }
    }
}

/// A point name on some board, as a regular expression: a row letter, `a`–`m` (13 rows on
/// size 7), and a number from 1 to 13 without leading zero, either case (F1).
macro_rules! point_form {
    () => {
        "[a-mA-M](1[0-3]|[1-9])"
    };
}

/// A point name on some board, as a regular expression (unanchored): what a state's stone
/// lists hold. Whether the point is on this board's size is the reader's to say.
pub const POINT_FORM: &str = point_form!();

impl Game for Herfor {
    const ID: &'static str = "herfor";
    const NAME: &'static str = "Herfor";
    const RULE_LETTER: char = 'F';
    const NOTATION: &'static str = "**Move notation (Herfor).** A move is one of:\n\
- a point name (F1): rows are letters from the bottom row `a` upwards (2n−1 rows), points are \
numbered from 1 at the left of each row: on size 3 `a1`…`a3`, the middle row `c1`…`c5`, the \
top `e1`…`e3`; on size 5 `a1`…`a5`, `e1`…`e9`, `i1`…`i5`. Example: `c3`;\n\
- `pass` (F4), only when no placement is legal;\n\
- `swap` (F5): the second player's answer to the first stone, with the pie rule on.\n\n\
Moves are read case-insensitively and written in lower case.";
    const EXAMPLE_MOVES: &'static [&'static str] = &["c3", "b2"];
    const MOVE_FORM: Option<&'static str> =
        Some(concat!(point_form!(), "|[pP][aA][sS][sS]|[sS][wW][aA][pP]"));

    type Options = HerforOptions;
    type State = HerforState;
    type Move = HerforMove;
    type Event = HerforEvent;
    type Score = HerforScore;

    fn option_bounds(name: &str) -> Option<(i64, i64)> {
        (name == "size").then_some((geometry::MIN_SIZE.into(), geometry::MAX_SIZE.into()))
    }

    fn new_game(options: &HerforOptions) -> Result<HerforState, InvalidOptions> {
        if !(geometry::MIN_SIZE..=geometry::MAX_SIZE).contains(&options.size) {
            return Err(InvalidOptions {
                field: "size".into(),
                reason: format!(
                    "{} points per side: the board has 3 to 7 (F1)",
                    options.size
                ),
            });
        }
        Ok(HerforState::start(*options))
    }

    fn options(state: &HerforState) -> HerforOptions {
        state.options
    }

    fn validate(state: &HerforState) -> Result<(), InvalidState> {
        state::validate(state)
    }

    fn turn(state: &HerforState) -> Turn {
        if state.is_over() {
            match report::leader(state) {
                Some(colour) => Turn::Won(state.seat_of(colour)),
                None => Turn::Drawn,
            }
        } else {
            Turn::ToAct(state.seat_of(state.to_move))
        }
    }

    fn status(state: &HerforState) -> Status {
        if state.is_over() {
            let winner = report::leader(state);
            let score = report::score(state);
            return Status::Finished {
                winner: winner.map(|c| state.seat_of(c)),
                winner_colour: winner.map(|c| c.name().to_string()),
                reason: format!(
                    "both players passed: black {} – white {}",
                    score.black_total, score.white_total
                ),
            };
        }
        let colour = state.to_move;
        let decision = if !state.can_place(colour) {
            "pass: no legal placement".to_string()
        } else if state.swap_available() {
            "swap to take Black, or place a white stone".to_string()
        } else {
            format!("place a {} stone", colour.name())
        };
        Status::Ongoing {
            to_act: state.seat_of(colour),
            colour: colour.name().to_string(),
            decision,
        }
    }

    fn legal_moves_into(state: &HerforState, out: &mut Vec<HerforMove>) {
        if state.is_over() {
            return;
        }
        let mover = state.to_move;
        let own = state.stones[mover.index()];
        let enemy = state.stones[mover.other().index()];
        let legal = rules::legal_placements(state.empty_cells(), own, enemy);
        if legal.is_empty() {
            out.push(HerforMove::Pass);
            return;
        }
        // Written to a buffer on the stack and copied at once: pushing one by one reloads the
        // vector's length and pointer for every move.
        let mut buffer = [HerforMove::Pass; geometry::POINTS];
        let mut count = 0;
        for (slot, cell) in buffer.iter_mut().zip(legal.cells()) {
            *slot = HerforMove::Place(wide::point_of(cell));
            count += 1;
        }
        out.extend_from_slice(&buffer[..count]);
        if state.swap_available() {
            out.push(HerforMove::Swap);
        }
    }

    fn apply(state: &mut HerforState, mv: &HerforMove) -> Result<Vec<HerforEvent>, MoveError> {
        if state.is_over() {
            return Err(MoveError::GameOver);
        }
        let mover = state.to_move;
        match *mv {
            HerforMove::Place(p) => {
                Self::check_placement(state, p)?;
                let flipped = Self::place(state, p);
                let size = state.size();
                Ok(vec![HerforEvent::Placed {
                    colour: mover,
                    point: point_name(size, p).unwrap_or_default(),
                    flipped: flipped
                        .points()
                        .filter_map(|q| point_name(size, q))
                        .collect(),
                }])
            }
            HerforMove::Pass => {
                if state.can_place(mover) {
                    return Err(MoveError::illegal(
                        "F4",
                        format!(
                            "{} has a legal placement, and may pass only without one",
                            mover.name()
                        ),
                    ));
                }
                let button_to = Self::pass(state);
                let mut events = vec![HerforEvent::Passed {
                    colour: mover,
                    button_to,
                }];
                if state.is_over() {
                    events.push(Self::game_over_event(state));
                }
                Ok(events)
            }
            HerforMove::Swap => {
                if !state.options.pie {
                    return Err(MoveError::illegal("F5", "the pie rule is off in this game"));
                }
                if !state.swap_available() {
                    return Err(MoveError::illegal(
                        "F5",
                        "a swap can only answer the very first placement",
                    ));
                }
                Self::swap(state);
                Ok(vec![HerforEvent::Swapped {
                    black: state.seat_of(Colour::Black),
                }])
            }
        }
    }

    fn play_unchecked(state: &mut HerforState, mv: &HerforMove) {
        match *mv {
            HerforMove::Place(p) => {
                Self::place(state, p);
            }
            HerforMove::Pass => {
                Self::pass(state);
            }
            HerforMove::Swap => Self::swap(state),
        }
    }

    fn score(state: &HerforState) -> HerforScore {
        report::score(state)
    }

    fn parse_move(state: &HerforState, text: &str) -> Result<HerforMove, MoveError> {
        moves::parse(state, text)
    }

    fn format_move(state: &HerforState, mv: &HerforMove) -> String {
        moves::format(state, mv)
    }
}
