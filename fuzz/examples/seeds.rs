//! Writes seed corpora for the state targets: JSON states of random games at several lengths.
//! `cargo run --example seeds` (from `fuzz/`, no nightly needed).

use moot_games::herfor::Herfor;
use moot_games::hirth::Hirth;
use moot_games::tara::Tara;
use moot_games::{Game, random_opening};

fn write<G: Game>(target: &str) {
    let dir = format!("corpus/{target}");
    std::fs::create_dir_all(&dir).expect("corpus folder");
    for seed in 0..40u64 {
        let plies = [0, 3, 10, 30, 80, 200][seed as usize % 6];
        let state = random_opening::<G>(plies, seed);
        let json = serde_json::to_string(&state).expect("a state writes as JSON");
        std::fs::write(format!("{dir}/seed-{seed}.json"), json).expect("seed file");
    }
}

/// Records of random Hirþ games (default options: the first byte 4 makes the target 5).
fn records() {
    let dir = "corpus/record_hirth";
    std::fs::create_dir_all(dir).expect("corpus folder");
    for seed in 0..40u64 {
        let state = random_opening::<Hirth>(20 + 15 * seed as usize, seed);
        let mut bytes = vec![4u8];
        bytes.extend(Hirth::write_record(&state).unwrap_or_default().into_bytes());
        std::fs::write(format!("{dir}/seed-{seed}.txt"), bytes).expect("seed file");
    }
}

fn main() {
    records();
    write::<Hirth>("state_hirth");
    write::<Tara>("state_tara");
    write::<Herfor>("state_herfor");
}
