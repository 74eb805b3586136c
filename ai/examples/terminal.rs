//! Play a game against Moot's computer player in a terminal, with `moot-games` and `moot-ai`
//! alone: no server.
//!
//! ```sh
//! cargo run --release -p moot-ai --example terminal -- herfor normal
//! ```
//!
//! The first argument is the game (`herfor`, `tara`, `hirth`; its default options), the second
//! the computer's strength (`easy`, `normal`, `strong`). You play first. Type a move in the
//! game's notation (`c3` in Herfor, `?` lists the legal moves); the computer answers until it
//! is your turn again. An empty line or the end of input stops.

use std::io::{BufRead, Write};

use moot_ai::{Strategy, Strength, think};
use moot_games::{Seat, Status, Turn, with_game};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map_or("herfor", String::as_str);
    let strength = match args.get(1).map(String::as_str) {
        None => Strength::Normal,
        Some(name) => Strength::from_name(name).unwrap_or_else(|| {
            eprintln!("{name:?} is not a strength: easy, normal or strong");
            std::process::exit(2)
        }),
    };
    let stdin = std::io::stdin();
    let outcome = with_game!(game, G => play::<G>(strength, stdin.lock(), std::io::stdout()),
        else Err(format!("no game {game:?}: the games are {}", moot_games::GAME_IDS.join(", "))));
    if let Err(e) = outcome {
        eprintln!("{e}");
        std::process::exit(2);
    }
}

/// Plays one game from the start of `G` with its default options: the person in the first seat
/// reading moves from `input`, the computer in the second at `strength`. Returns how it ended.
fn play<G: Strategy>(
    strength: Strength,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<Status, String> {
    let mut state = G::new_game(&G::Options::default()).map_err(|e| e.to_string())?;
    let mut lines = input.lines();
    let say = |output: &mut dyn Write, text: String| {
        writeln!(output, "{text}").map_err(|e| format!("cannot write: {e}"))
    };
    loop {
        let seat = match G::turn(&state) {
            Turn::ToAct(seat) => seat,
            Turn::Won(_) | Turn::Drawn => {
                let status = G::status(&state);
                say(&mut output, format!("The game is over: {status:?}"))?;
                return Ok(status);
            }
        };
        if seat == Seat::Second {
            // The number of legal moves seeds the search: a game replays the same way.
            let seed = G::legal_moves(&state).len() as u64;
            let thought = think::<G>(&state, strength.budget::<G>(), seed, None);
            let mv = thought
                .analysis
                .best_move
                .ok_or("the computer has no move")?;
            let text = G::format_move(&state, &mv);
            G::apply(&mut state, &mv).map_err(|e| e.to_string())?;
            say(&mut output, format!("The computer plays {text}."))?;
            continue;
        }
        if let Status::Ongoing { decision, .. } = G::status(&state) {
            say(
                &mut output,
                format!("Your move ({decision}); ? lists them:"),
            )?;
        }
        let Some(Ok(line)) = lines.next() else {
            return Ok(G::status(&state));
        };
        let line = line.trim();
        if line.is_empty() {
            return Ok(G::status(&state));
        }
        if line == "?" {
            let moves: Vec<String> = G::legal_moves(&state)
                .iter()
                .map(|mv| G::format_move(&state, mv))
                .collect();
            say(&mut output, moves.join(" "))?;
            continue;
        }
        match G::parse_move(&state, line).and_then(|mv| G::apply(&mut state, &mv)) {
            Ok(_) => {}
            Err(refused) => say(&mut output, format!("Refused: {refused}."))?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use moot_games::Game;
    use moot_games::herfor::Herfor;

    /// A whole game typed in: every legal move is offered on `?`, a refused move is explained,
    /// and the computer answers each move until the game ends.
    #[test]
    fn a_whole_herfor_game_is_played_from_typed_moves() {
        // Herfor's default options: size 5 with the pie rule (F5). The person plays the first
        // legal move each time, whatever the computer did; a wrong move is refused first.
        let mut state = Herfor::new_game(&Default::default()).unwrap();
        let mut typed = String::from("?\nzz9\n");
        let mut transcript = Vec::new();
        // Replays what the loop will do, to type the person's moves in advance.
        while let Turn::ToAct(seat) = Herfor::turn(&state) {
            let mv = if seat == Seat::First {
                let mv = Herfor::legal_moves(&state)[0];
                typed.push_str(&Herfor::format_move(&state, &mv));
                typed.push('\n');
                mv
            } else {
                let seed = Herfor::legal_moves(&state).len() as u64;
                let budget = Strength::Easy.budget::<Herfor>();
                think::<Herfor>(&state, budget, seed, None)
                    .analysis
                    .best_move
                    .unwrap()
            };
            Herfor::apply(&mut state, &mv).unwrap();
        }
        let status = play::<Herfor>(Strength::Easy, typed.as_bytes(), &mut transcript).unwrap();
        assert!(matches!(status, Status::Finished { .. }), "{status:?}");
        assert_eq!(status, Herfor::status(&state));
        let transcript = String::from_utf8(transcript).unwrap();
        assert!(transcript.contains("Refused: "), "{transcript}");
        assert!(transcript.contains("The computer plays "), "{transcript}");
        assert!(transcript.contains("The game is over"), "{transcript}");
    }
}
