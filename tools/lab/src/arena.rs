//! Matches between two agents: N games with alternating seats, on several threads, and the
//! win rate with its 95% Wilson interval.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use moot_ai::{Agent, Strategy};
use moot_games::{Seat, Turn};

/// Plies after which an arena game is stopped and counted as a draw. Only the aimless reach
/// it: Hirþ's random against greedy, in 16 of 40 games of the ladder of 2 December 2026.
pub const MAX_PLIES: u32 = 5_000;

/// What to play.
#[derive(Clone, Debug)]
pub struct Matchup<O> {
    pub options: O,
    /// The agent measured, and its opponent.
    pub agents: [Agent; 2],
    pub games: u32,
    pub seed: u64,
    pub threads: usize,
}

/// The games from the measured agent's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games stopped at [`MAX_PLIES`] (also counted as draws).
    pub unfinished: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Wins plus half the draws, over the games.
    pub fn score(&self) -> f64 {
        let n = self.games().max(1) as f64;
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }

    /// The 95% Wilson score interval of [`Tally::score`].
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.score(), f64::from(self.games()))
    }
}

/// The Wilson score interval at 95% for a proportion `p` out of `n` trials.
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_964;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// How one game ended for the measured agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    Win,
    Draw,
    Loss,
    Unfinished,
}

/// Plays the matchup: game `i` gives the measured agent the first seat when `i` is even, and
/// is seeded by the matchup's seed and `i`, so results do not depend on the threads.
pub fn run<G: Strategy>(matchup: &Matchup<G::Options>) -> Result<(Tally, Duration), String> {
    let start = G::new_game(&matchup.options).map_err(|e| format!("options: {e}"))?;
    if matchup.agents.contains(&Agent::Perfect) && !G::solved(&start) {
        return Err(format!(
            "perfect plays only where the game is solved (Herfor on boards of size {}), not {} \
             with these options",
            moot_ai::perfect::SOLVED_SIZE,
            G::ID
        ));
    }
    let started = Instant::now();
    let next = AtomicU32::new(0);
    let mut ends = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..matchup.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= matchup.games {
                            break mine;
                        }
                        mine.push(play_one::<G>(&start, matchup, i));
                    }
                })
            })
            .collect();
        for worker in workers {
            ends.extend(worker.join().expect("an arena game panicked"));
        }
    });
    let mut tally = Tally::default();
    for end in ends {
        match end {
            GameEnd::Win => tally.wins += 1,
            GameEnd::Draw => tally.draws += 1,
            GameEnd::Loss => tally.losses += 1,
            GameEnd::Unfinished => {
                tally.draws += 1;
                tally.unfinished += 1;
            }
        }
    }
    Ok((tally, started.elapsed()))
}

fn play_one<G: Strategy>(start: &G::State, matchup: &Matchup<G::Options>, i: u32) -> GameEnd {
    let measured = if i.is_multiple_of(2) {
        Seat::First
    } else {
        Seat::Second
    };
    let seed = matchup.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(i);
    let mut rng = SmallRng::seed_from_u64(seed);
    let agent_of = |seat: Seat| {
        if seat == measured {
            matchup.agents[0]
        } else {
            matchup.agents[1]
        }
    };
    let mut state = start.clone();
    for _ in 0..MAX_PLIES {
        let seat = match G::turn(&state) {
            Turn::ToAct(seat) => seat,
            Turn::Won(seat) if seat == measured => return GameEnd::Win,
            Turn::Won(_) => return GameEnd::Loss,
            Turn::Drawn => return GameEnd::Draw,
        };
        let Some(mv) = agent_of(seat).choose::<G>(&state, &mut rng) else {
            return GameEnd::Unfinished;
        };
        G::play_unchecked(&mut state, &mv);
    }
    GameEnd::Unfinished
}

#[cfg(test)]
mod tests {
    use moot_games::herfor::Herfor;

    use super::*;

    #[test]
    fn wilson_interval_matches_the_textbook_values() {
        // 190 of 200: 95% Wilson interval 0.910–0.973.
        let (low, high) = wilson(0.95, 200.0);
        assert!(
            (low - 0.9104).abs() < 1e-3 && (high - 0.9727).abs() < 1e-3,
            "{low} {high}"
        );
        let (low, high) = wilson(1.0, 20.0);
        assert!((low - 0.8389).abs() < 1e-3 && high == 1.0, "{low} {high}");
    }

    #[test]
    fn arena_results_do_not_depend_on_the_threads() {
        use moot_games::herfor::HerforOptions;
        let matchup = |threads| Matchup {
            options: HerforOptions {
                size: 3,
                pie: false,
                simple: false,
            },
            agents: [Agent::Greedy, Agent::Random],
            games: 12,
            seed: 9,
            threads,
        };
        let (one, _) = run::<Herfor>(&matchup(1)).unwrap();
        let (two, _) = run::<Herfor>(&matchup(2)).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.games(), 12);
    }

    #[test]
    fn the_arena_refuses_perfect_where_the_game_is_not_solved() {
        let matchup = Matchup {
            options: moot_games::herfor::HerforOptions::default(),
            agents: [Agent::Perfect, Agent::Random],
            games: 2,
            seed: 1,
            threads: 1,
        };
        let refused = run::<Herfor>(&matchup).unwrap_err();
        assert!(refused.contains("solved"), "{refused}");
    }
}
