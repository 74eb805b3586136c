//! Replays a link's moves through the engine: the position now, and what each move did.

use super::link::{Link, LinkError};
use moot_games::{Game, MoveError, Seat, Status, Turn};

/// One move as played, with who played it and what it caused.
pub struct Ply<G: Game> {
    /// The move as the engine read it from the link.
    pub mv: G::Move,
    /// The move in the engine's own notation (the record's form).
    pub notation: String,
    /// The seat that chose it.
    pub seat: Seat,
    /// The colour it played, in the engine's word (`black`, `gull`): a turn is a run of one
    /// colour, and after Herfor's swap a seat changes colour.
    pub colour: String,
    /// What the engine says the move did, in order: the page's words for it and the board's
    /// marks of the last turn.
    pub events: Vec<G::Event>,
}

/// A link's game, replayed.
pub struct Replayed<G: Game> {
    /// The position after the link's last move.
    pub state: G::State,
    /// Every move of the link, oldest first.
    pub plies: Vec<Ply<G>>,
}

impl<G: Game> std::fmt::Debug for Replayed<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replayed")
            .field("state", &self.state)
            .field("plies", &self.plies.len())
            .finish()
    }
}

impl<G: Game> Replayed<G> {
    /// The record in the game's notation: its own format where it has one (Hirþ), else the
    /// moves in order.
    pub fn record(&self) -> String {
        G::write_record(&self.state).unwrap_or_else(|| {
            self.plies
                .iter()
                .map(|p| p.notation.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    /// The last turn: the last run of moves by one colour (a Hirþ turn's steps, one Herfor
    /// placement), oldest first; empty before the first move.
    pub fn last_turn(&self) -> &[Ply<G>] {
        &self.plies[self.turn_start(self.plies.len())..]
    }

    /// Where the turn of the ply before `end` starts: the index of the first move of its run
    /// of one colour (`end` itself when `end` is 0).
    pub fn turn_start(&self, end: usize) -> usize {
        let Some(last) = end.checked_sub(1).map(|i| &self.plies[i]) else {
            return 0;
        };
        self.plies[..end]
            .iter()
            .rposition(|p| p.colour != last.colour)
            .map_or(0, |i| i + 1)
    }
}

/// Plays the link's moves from the start; the first one refused is named, with the engine's
/// reason and a link to the position before it.
pub fn replay<G: Game>(position: &Link<G>) -> Result<Replayed<G>, LinkError> {
    let mut state = G::new_game(&position.options)?;
    let mut plies = Vec::with_capacity(position.moves.len());
    for (index, text) in position.moves.iter().enumerate() {
        let refused = |error: MoveError| LinkError::RefusedMove {
            index,
            text: text.clone(),
            error,
            before: position.truncated(index).href(),
        };
        let (Turn::ToAct(seat), Status::Ongoing { colour, .. }) =
            (G::turn(&state), G::status(&state))
        else {
            return Err(refused(MoveError::GameOver));
        };
        let mv = G::parse_move(&state, text).map_err(refused)?;
        let notation = G::format_move(&state, &mv);
        let events = G::apply(&mut state, &mv).map_err(refused)?;
        plies.push(Ply {
            mv,
            notation,
            seat,
            colour,
            events,
        });
    }
    Ok(Replayed { state, plies })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::Query;
    use moot_games::herfor::Herfor;

    fn replayed(query: &str) -> Result<Replayed<Herfor>, LinkError> {
        let (position, _) = Link::<Herfor>::read(&Query::parse(query))?;
        replay(&position)
    }

    #[test]
    fn replay_plays_every_move_and_keeps_its_events() {
        let game = replayed("size=3&pie=false&moves=c3.B2").expect("accepted");
        assert_eq!(game.plies.len(), 2);
        assert_eq!(
            game.plies[1].notation, "b2",
            "the record uses the engine's notation"
        );
        assert_eq!(game.plies[1].colour, "white");
        assert_eq!(game.record(), "c3 b2");
    }

    #[test]
    fn a_turn_starts_where_its_run_of_one_colour_does() {
        let game = replayed("size=3&pie=false&moves=c3.b2.a1").expect("accepted");
        assert_eq!(game.turn_start(0), 0);
        assert_eq!(game.turn_start(3), 2, "a Herfor turn is one placement");
        assert_eq!(game.turn_start(2), 1);
    }

    #[test]
    fn the_last_turn_is_the_last_run_of_one_colour() {
        assert!(replayed("size=3").expect("accepted").last_turn().is_empty());
        let game = replayed("size=3&pie=false&moves=c3.b2").expect("accepted");
        let notations: Vec<&str> = game
            .last_turn()
            .iter()
            .map(|p| p.notation.as_str())
            .collect();
        assert_eq!(notations, ["b2"]);
        // After the swap White moves again: both of White's moves are its last turn.
        let game = replayed("size=3&moves=c3.swap.b2").expect("accepted");
        let notations: Vec<&str> = game
            .last_turn()
            .iter()
            .map(|p| p.notation.as_str())
            .collect();
        assert_eq!(notations, ["swap", "b2"]);
    }

    #[test]
    fn an_illegal_move_is_named_with_the_engines_reason_and_a_way_back() {
        let error = replayed("size=3&pie=false&moves=c3.c3").expect_err("refused");
        assert!(
            error
                .to_string()
                .contains("Move 2 of the link, \"c3\", cannot be played: illegal move (F3): c3 already holds a black stone"),
            "{error}"
        );
        let LinkError::RefusedMove { index, before, .. } = error else {
            panic!("{error:?}");
        };
        assert_eq!(index, 1);
        assert_eq!(
            before,
            "/play/herfor?pie=false&simple=false&size=3&moves=c3"
        );
    }

    #[test]
    fn an_unreadable_move_is_named() {
        let error = replayed("moves=zz9z").expect_err("refused").to_string();
        assert!(
            error.contains("Move 1 of the link, \"zz9z\", cannot be played: cannot read"),
            "{error}"
        );
    }
}
