//! Positions for the browser tests, found by playing the engines: the tests open them by link
//! (as a friend's link would) and then play the interesting part by clicking.

use moot::games::hirth::{Hirth, HirthOptions};
use moot::games::{Game, Turn};
use rand::rngs::SmallRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

/// A Hirþ turn with an attack that the attacker wins, so that ending the movement phase
/// offers a choice of which attackers enter.
#[derive(Debug)]
pub struct HirthAttack {
    pub options: HirthOptions,
    /// The moves before the turn.
    pub before: Vec<String>,
    /// The turn's steps, the attack among them.
    pub steps: Vec<String>,
    /// The ways to end the turn: which attackers enter (at least two).
    pub ends: Vec<String>,
}

/// Random games, ending turns early and never offering the Penningr, until a turn has an
/// attack with an entry choice; the shortest such over a few seeds.
pub fn hirth_attack() -> HirthAttack {
    let options = HirthOptions { target: 1 };
    (0..40)
        .filter_map(|seed| hirth_attack_from(options.clone(), seed))
        .min_by_key(|found| found.before.len() + found.steps.len())
        .expect("some random game has an attack with an entry choice")
}

fn hirth_attack_from(options: HirthOptions, seed: u64) -> Option<HirthAttack> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut state = Hirth::new_game(&options).ok()?;
    let mut played: Vec<String> = Vec::new();
    let mut turn_start = 0;
    for _ in 0..600 {
        let Turn::ToAct(_) = Hirth::turn(&state) else {
            return None;
        };
        let moves: Vec<_> = Hirth::legal_moves(&state)
            .into_iter()
            .map(|mv| (Hirth::format_move(&state, &mv), mv))
            .filter(|(text, _)| text != "offer" && text != "give-up")
            .collect();
        let ends: Vec<String> = moves
            .iter()
            .map(|(text, _)| text.clone())
            .filter(|text| text.starts_with("end"))
            .collect();
        let attacked = played[turn_start..].iter().any(|m| m.contains('>'));
        if attacked && ends.len() >= 2 {
            return Some(HirthAttack {
                options,
                before: played[..turn_start].to_vec(),
                steps: played[turn_start..].to_vec(),
                ends,
            });
        }
        let steps: Vec<_> = moves
            .iter()
            .filter(|(t, _)| !t.starts_with("end"))
            .collect();
        let end_now = !ends.is_empty() && (steps.is_empty() || rng.random_bool(0.2));
        let (text, mv) = if end_now {
            moves.iter().find(|(t, _)| t.starts_with("end"))?
        } else {
            // Attacks first when there are any: they are what the test is after.
            let attacks: Vec<_> = steps.iter().filter(|(t, _)| t.contains('>')).collect();
            match attacks.choose(&mut rng) {
                Some(attack) => **attack,
                None => *steps.choose(&mut rng)?,
            }
        };
        Hirth::apply(&mut state, mv).ok()?;
        played.push(text.clone());
        if text.starts_with("end") || text.starts_with("retreat") {
            turn_start = played.len();
        }
    }
    None
}
