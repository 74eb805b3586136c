//! Any bytes as a Hirth state (JSON, objects only), then every method on a state that validates;
//! or, led by `@`, a game played from the start choosing moves by the bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use moot_games::hirth::Hirth;

fuzz_target!(|data: &[u8]| moot_fuzz::state::<Hirth>(data));
