//! Any text as a Hirþ record (H12): reading never panics, and a record that reads replays to a
//! state whose written record reads back to the same moves and the same state.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| moot_fuzz::record_hirth(data));
