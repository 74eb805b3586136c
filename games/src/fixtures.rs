//! Hand-built positions shared by the engines' tests and the server's page tests: compiled in
//! the engines' own tests and with the feature `fixtures` (the server's dev-dependency).

/// Tara positions, each valid under the rules it is built for.
pub mod tara {
    use crate::tara::{Colour, PerColour, TaraState};

    /// Manoeuvres, Red to move: a Red ringfort on F4, Red kings D4, B6, F2.
    pub fn manoeuvres() -> TaraState {
        let mut state = TaraState::from_diagram([
            "# . . B . . #",
            ". R . . . B .",
            ". . . . . . .",
            ". . . R . r .",
            ". . . . . . .",
            ". B . . . R .",
            "# . . . . . #",
        ]);
        // Seven ringforts and Red to move: Blue started (T3, T5).
        state.options.first = Colour::Blue;
        state
    }

    /// A full board, both in Battle, Red to move: B1 is a Blue single besieged by Red; A5–A6 a
    /// Blue pair otherwise surrounded by Red.
    pub fn full_board() -> TaraState {
        let mut state = TaraState::from_diagram([
            "# R r b b b #",
            "b r r b B b b",
            "b r r b b b B",
            "r r r b b b b",
            "R r R b b B b",
            "r r r b b b b",
            "# b r b b b #",
        ]);
        state.battle = PerColour {
            red: true,
            blue: true,
        };
        state
    }

    /// A full board at Level 2, Red to move, both in Battle, one Red king already captured. B3 is a
    /// Red single besieged by Blue; the Blue king on B2 stands on a single besieged by Red.
    pub fn sacrifice_position() -> TaraState {
        let mut state = TaraState::from_diagram([
            "# b b b R r #",
            "b b b b b r r",
            "b b R b b r r",
            "B b b b b r r",
            "b r b b b r r",
            "r B r b B r r",
            "# r b b b r #",
        ]);
        state.options.level = 2;
        state.battle = PerColour {
            red: true,
            blue: true,
        };
        state.captured.blue = 1;
        state
    }
}

/// Hirþ helpers for hand-built positions.
pub mod hirth {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use rand::seq::IndexedRandom;

    use crate::Game;
    use crate::hirth::{Colour, Hirth, HirthState, Move, Phase, Reserve, Space};

    /// A game of the default options `plies` seeded random moves in (no offers), carried on
    /// to the start of a turn: its moves in notation, and the state.
    pub fn mid_game(plies: usize, seed: u64) -> (Vec<String>, HirthState) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut state = Hirth::new_game(&Default::default()).expect("the defaults");
        let mut moves = Vec::new();
        let at_turn_start = |s: &HirthState| s.phase == Phase::Movement && s.position.steps == 0;
        while moves.len() < plies || !at_turn_start(&state) {
            let legal: Vec<Move> = Hirth::legal_moves(&state)
                .into_iter()
                .filter(|mv| !matches!(mv, Move::Offer))
                .collect();
            let mv = legal.choose(&mut rng).expect("a game under way");
            moves.push(Hirth::format_move(&state, mv));
            Hirth::apply(&mut state, mv).expect("a legal move");
        }
        (moves, state)
    }

    /// Makes the reserves up to 15 H and 3 K a side.
    pub fn fill_reserves(state: &mut HirthState) {
        let pos = &mut state.position;
        for c in Colour::BOTH {
            let mut h = *pos.removed.get(c) as u32;
            let mut k = 0;
            for s in Space::all() {
                h += pos.board.group(s, c).all_h();
                k += pos.board.group(s, c).karves.len() as u32;
            }
            for line in pos.lines.iter().filter(|_| pos.mover == c) {
                h += line.pieces.all_h();
                k += line.pieces.karves.len() as u32;
            }
            *pos.reserve.get_mut(c) = Reserve {
                h: 15 - h as u8,
                k: 3 - k as u8,
            };
        }
    }
}

/// The moves, in notation, of a seeded random game of `count` moves or fewer (fewer when the
/// game ends first). Nobody offers or gives up the Hirþ doubling coin, so Hirþ games run long:
/// the long-game page tests and the page bench.
pub fn random_game<G: crate::Game>(options: &G::Options, count: usize, seed: u64) -> Vec<String> {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut state = G::new_game(options).expect("valid options");
    let mut moves = Vec::new();
    while moves.len() < count {
        let legal: Vec<_> = G::legal_moves(&state)
            .into_iter()
            .filter(|mv| !matches!(G::format_move(&state, mv).as_str(), "offer" | "give-up"))
            .collect();
        let Some(mv) = legal.choose(&mut rng) else {
            break;
        };
        moves.push(G::format_move(&state, mv));
        G::apply(&mut state, mv).expect("a legal move");
    }
    moves
}
