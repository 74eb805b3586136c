//! Any bytes as a Herfor state (JSON, objects only), then every method on a state that validates;
//! or, led by `@`, a game played from the start choosing moves by the bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use moot_games::herfor::Herfor;

fuzz_target!(|data: &[u8]| moot_fuzz::state::<Herfor>(data));
