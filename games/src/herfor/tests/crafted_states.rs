//! Crafted states: whatever a client sends, `validate` either refuses it or every other
//! method works on it without panicking.

use proptest::prelude::*;

use crate::herfor::geometry::{Bits, board_mask};
use crate::herfor::wide::Wide;
use crate::herfor::{Colour, Herfor, HerforMove, HerforOptions, HerforState};
use crate::{Game, Turn};

fn crafted() -> impl Strategy<Value = HerforState> {
    (
        (1u8..=9, any::<bool>(), any::<bool>()),
        (any::<u128>(), any::<u128>(), any::<u128>(), any::<bool>()),
        (
            any::<bool>(),
            0u8..4,
            0u8..4,
            0u32..300,
            any::<bool>(),
            0u8..4,
        ),
    )
        .prop_map(|(options, stones, counters)| {
            let (size, pie, simple) = options;
            let (black, white, sparse, full) = stones;
            let (white_to_move, button, passes, moves, swapped, mode) = counters;
            let mut state = HerforState::start(HerforOptions { size, pie, simple });
            // A random share of the points, or the whole board (where both must pass).
            let mask: Bits = board_mask(size.clamp(3, 7)) & if full { Bits::MAX } else { sparse };
            state.stones = [
                Wide::from_bits(black & mask),
                Wide::from_bits(!black & mask & if full { Bits::MAX } else { white }),
            ];
            let stones = state.stones[0].count_ones() + state.stones[1].count_ones();
            state.button = [None, Some(Colour::Black), Some(Colour::White), None][button as usize];
            state.swapped = swapped;
            if mode == 0 {
                // Raw: counters as drawn.
                state.to_move = if white_to_move {
                    Colour::White
                } else {
                    Colour::Black
                };
                state.passes_in_a_row = passes;
                state.moves_played = moves;
            } else {
                // Counters that fit the stones, so that deeper invariants get exercised.
                state.swapped = swapped && pie && stones >= 1;
                let swap = u32::from(state.swapped);
                state.passes_in_a_row = if state.button.is_some() {
                    passes.min(2)
                } else {
                    0
                };
                let extra = if state.button.is_some() {
                    1 + u32::from(passes)
                } else {
                    0
                };
                state.moves_played = stones + swap + extra;
                let black_next = (state.moves_played - swap).is_multiple_of(2);
                state.to_move = if black_next {
                    Colour::Black
                } else {
                    Colour::White
                };
            }
            state
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn validated_states_never_make_the_engine_panic(state in crafted()) {
        let json = serde_json::to_string(&state).unwrap();
        let back: HerforState = serde_json::from_str(&json).unwrap();
        if Herfor::validate(&back).is_ok() {
            prop_assert_eq!(&back, &state);
            let _ = Herfor::status(&state);
            let _ = Herfor::score(&state);
            let moves = Herfor::legal_moves(&state);
            prop_assert_eq!(moves.is_empty(), !matches!(Herfor::turn(&state), Turn::ToAct(_)));
            for mv in moves.iter().chain([HerforMove::Pass, HerforMove::Swap].iter()) {
                let mut next = state.clone();
                let text = Herfor::format_move(&state, mv);
                let applied = Herfor::apply(&mut next, mv);
                prop_assert_eq!(applied.is_ok(), moves.contains(mv), "{} in {}", text, json);
                if applied.is_ok() {
                    prop_assert!(Herfor::validate(&next).is_ok(), "{} in {}", text, json);
                }
            }
        }
    }
}
