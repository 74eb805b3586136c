//! The fuzz targets' bodies, generic over [`Game`], so that each target is one line.
//!
//! - [`state`]: bytes as a JSON state; a state that reads and validates must survive every
//!   method, and every legal move must apply, write and read back (notation round trip) and lead
//!   to a state that validates again. Bytes starting with `@` instead play a game from the start,
//!   each byte choosing one of the legal moves, and check every state on the way.
//! - [`record_hirth`]: text as a Hirþ record (H12): reading never panics; a record that reads
//!   replays, and the record the engine then writes reads back to the same state.

use moot_games::hirth::{Hirth, HirthOptions};
use moot_games::{Game, Turn, json};
use serde_json::Value;

/// The most legal moves tried per state (Hirþ positions can offer hundreds of steps).
const MOVES_TRIED: usize = 64;

pub fn state<G: Game>(data: &[u8]) {
    if let Some(choices) = data.strip_prefix(b"@") {
        return play::<G>(choices);
    }
    let (json_bytes, text) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let Ok(value) = serde_json::from_slice::<Value>(json_bytes) else {
        return;
    };
    let Ok(state) = json::from_value::<G::State>(&value) else {
        return;
    };
    if G::validate(&state).is_err() {
        return;
    }
    exercise::<G>(&state);
    // Any text as a move in this position: reading it never panics, a move read is checked.
    if let Some(text) = text.and_then(|t| std::str::from_utf8(t).ok())
        && let Ok(mv) = G::parse_move(&state, text)
    {
        let mut next = state.clone();
        if G::apply(&mut next, &mv).is_ok() {
            G::validate(&next).expect("a state after a legal move validates");
        } else {
            assert_eq!(next, state, "a refused move leaves the state unchanged");
        }
    }
}

/// A game from the start, each byte choosing a legal move; every state on the way validates.
fn play<G: Game>(choices: &[u8]) {
    let mut state = G::new_game(&G::Options::default()).expect("the default options are valid");
    let mut moves = Vec::new();
    for &b in choices {
        moves.clear();
        G::legal_moves_into(&state, &mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = &moves[b as usize % moves.len()];
        G::apply(&mut state, mv).expect("a legal move applies");
        G::validate(&state).expect("a state reached by legal moves validates");
    }
    exercise::<G>(&state);
}

/// Every method on a valid state.
pub fn exercise<G: Game>(state: &G::State) {
    let turn = G::turn(state);
    let _ = G::status(state);
    let _ = G::score(state);
    let _ = G::write_record(state);
    let _ = G::options(state);
    // The state as the API writes it reads back equal, and valid.
    let written = serde_json::to_value(state).expect("a state writes as JSON");
    let back: G::State = json::from_value(&written).expect("a written state reads back");
    assert_eq!(&back, state, "a state reads back as written");
    G::validate(&back).expect("a written state validates");
    let moves = G::legal_moves(state);
    assert_eq!(
        moves.is_empty(),
        !matches!(turn, Turn::ToAct(_)),
        "moves exist exactly while someone is to act"
    );
    for mv in moves.iter().take(MOVES_TRIED) {
        let text = G::format_move(state, mv);
        let read = G::parse_move(state, &text)
            .unwrap_or_else(|e| panic!("the move written {text:?} reads back: {e}"));
        assert_eq!(&read, mv, "{text:?} reads back as the same move");
        let mut next = state.clone();
        G::apply(&mut next, mv).unwrap_or_else(|e| panic!("legal {text:?} applies: {e}"));
        G::validate(&next).unwrap_or_else(|e| panic!("after {text:?}: {e}"));
        let mut fast = state.clone();
        G::play_unchecked(&mut fast, mv);
        assert_eq!(
            without_history::<G>(&fast),
            without_history::<G>(&next),
            "play_unchecked({text:?}) agrees with apply"
        );
        let _ = G::status(&next);
        let _ = G::score(&next);
    }
}

/// The state as JSON without Hirþ's history (`record`, `log`): the fast path (`play_unchecked`)
/// writes no history, by design (the search never reads it); everything else must agree.
fn without_history<G: Game>(state: &G::State) -> Value {
    let mut value = serde_json::to_value(state).expect("a state writes as JSON");
    if let Some(members) = value.as_object_mut() {
        members.remove("record");
        members.remove("log");
    }
    value
}

/// A Hirþ record: the first byte picks the match target (1–5), the rest is the text.
pub fn record_hirth(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let options = HirthOptions {
        target: 1 + u32::from(first % 5),
    };
    let Ok(record) = Hirth::read_record(&options, text) else {
        return;
    };
    let state = replay(&options, &record.moves);
    let written = Hirth::write_record(&state).expect("Hirþ writes its records");
    let again = Hirth::read_record(&options, &written)
        .unwrap_or_else(|e| panic!("the written record reads back: {e}\n{written}"));
    let replayed = replay(&options, &again.moves);
    assert_eq!(
        Hirth::write_record(&replayed).as_deref(),
        Some(written.as_str()),
        "writing the record is stable"
    );
}

fn replay(options: &HirthOptions, moves: &[<Hirth as Game>::Move]) -> <Hirth as Game>::State {
    let mut state = Hirth::new_game(options).expect("targets 1-5 are valid");
    for mv in moves {
        Hirth::apply(&mut state, mv).expect("a move read from a record applies");
        Hirth::validate(&state).expect("a state read from a record validates");
    }
    state
}
