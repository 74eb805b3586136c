//! The Elo ladder: a round robin among agents, and ratings fitted to its results.
//!
//! Every pair of agents plays the same number of games, seats alternating (the arena's
//! [`run`](crate::arena::run)). The ratings are the Bradley–Terry model's maximum-likelihood
//! fit on the Elo scale — the first agent scores against the second with probability
//! `1 / (1 + 10^((R₂ − R₁) / 400))` — with the first agent listed (random, by convention)
//! anchored at 0. A draw counts as half a win for each side. Each pair that met also gets one
//! virtual draw (a weak prior, as BayesElo does), so an agent that won every game still gets a
//! finite rating instead of an infinite one; with hundreds of games a pair it moves a rating by
//! a few points at most. The 95% intervals come from the curvature of the likelihood at its
//! maximum (the inverse of the observed information), relative to the anchor. Those intervals
//! overlap more than two agents' difference is uncertain (both carry the anchor's noise), so
//! [`Fit::difference`] gives the difference between two agents its own interval from the whole
//! covariance: Var(a − b) = Var(a) + Var(b) − 2 Cov(a, b).

use crate::arena::{self, Matchup, Tally};
use moot_ai::{Agent, Strategy};

/// Elo points per natural-log unit of the strength ratio: `400 / ln 10`.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// Half the width of a 95% normal interval, in standard deviations.
const Z95: f64 = 1.959_964;
/// Virtual draws added to each pair that met.
const PRIOR_DRAWS: f64 = 1.0;

/// The games two agents of the ladder played, from the first one's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    /// Indices into the ladder's agents.
    pub first: usize,
    pub second: usize,
    pub tally: Tally,
}

impl Pairing {
    /// The first agent's points: wins plus half the draws.
    fn points(&self) -> f64 {
        f64::from(self.tally.wins) + 0.5 * f64::from(self.tally.draws)
    }

    fn games(&self) -> f64 {
        f64::from(self.tally.games())
    }
}

/// One agent's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    /// The 95% interval (the anchor's is 0–0: it is the reference).
    pub low: f64,
    pub high: f64,
}

/// Plays the round robin: `games` games between every pair of `agents`, each pair seeded from
/// `seed` and its place in the schedule, so the results do not depend on the threads.
pub fn play<G: Strategy>(
    options: &G::Options,
    agents: &[Agent],
    games: u32,
    seed: u64,
    threads: usize,
) -> Result<Vec<Pairing>, String> {
    let mut pairings = Vec::new();
    for first in 0..agents.len() {
        for second in first + 1..agents.len() {
            let matchup = Matchup {
                options: options.clone(),
                agents: [agents[first], agents[second]],
                games,
                seed: seed ^ ((first as u64) << 32 | second as u64),
                threads,
            };
            let (tally, _) = arena::run::<G>(&matchup)?;
            pairings.push(Pairing {
                first,
                second,
                tally,
            });
        }
    }
    Ok(pairings)
}

/// The fitted ladder: each agent's rating, and the covariance of the ratings (Elo², the
/// anchor's row and column zero) for the intervals of differences.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub ratings: Vec<Rating>,
    covariance: Vec<Vec<f64>>,
}

impl Fit {
    /// `a`'s rating minus `b`'s, with its 95% interval.
    pub fn difference(&self, a: usize, b: usize) -> Rating {
        let c = &self.covariance;
        let elo = self.ratings[a].elo - self.ratings[b].elo;
        let variance = c[a][a] + c[b][b] - 2.0 * c[a][b];
        // An agent without games makes it ∞ − ∞: unbounded.
        let sd = match variance.is_nan() {
            true => f64::INFINITY,
            false => variance.max(0.0).sqrt(),
        };
        Rating {
            elo,
            low: elo - Z95 * sd,
            high: elo + Z95 * sd,
        }
    }

    /// The agents from the highest rated down, each with its difference to the next one
    /// (`None` for the last).
    pub fn neighbours(&self) -> Vec<(usize, Option<(usize, Rating)>)> {
        let mut order: Vec<usize> = (0..self.ratings.len()).collect();
        order.sort_by(|&a, &b| self.ratings[b].elo.total_cmp(&self.ratings[a].elo));
        (0..order.len())
            .map(|k| {
                let below = order.get(k + 1).map(|&b| (b, self.difference(order[k], b)));
                (order[k], below)
            })
            .collect()
    }
}

/// The maximum-likelihood ratings of `players` agents from their pairings, agent 0 anchored
/// at 0. An agent that played no game gets 0 with an unbounded interval.
pub fn fit(players: usize, pairings: &[Pairing]) -> Fit {
    // Strengths in natural-log units; agent 0 stays at 0. Newton's method on the others:
    // the log-likelihood is concave, and the prior draws keep its maximum finite.
    let mut theta = vec![0.0; players];
    let free = players.saturating_sub(1);
    let mut covariance = vec![vec![0.0; free]; free];
    for _ in 0..100 {
        let (gradient, information) = derivatives(&theta, pairings);
        let Some(inverse) = invert(
            &information[1..]
                .iter()
                .map(|r| r[1..].to_vec())
                .collect::<Vec<_>>(),
        ) else {
            break;
        };
        let mut largest_step: f64 = 0.0;
        for i in 0..free {
            let step: f64 = (0..free).map(|j| inverse[i][j] * gradient[j + 1]).sum();
            theta[i + 1] += step;
            largest_step = largest_step.max(step.abs());
        }
        covariance = inverse;
        if largest_step < 1e-10 {
            break;
        }
    }
    let played = |i: usize| {
        pairings
            .iter()
            .any(|p| (p.first == i || p.second == i) && p.tally.games() > 0)
    };
    // In Elo², the anchor's row and column zero; an agent without games unbounded.
    let elo_covariance: Vec<Vec<f64>> = (0..players)
        .map(|i| {
            (0..players)
                .map(|j| match (i, j) {
                    (0, _) | (_, 0) => 0.0,
                    _ if !played(i) || !played(j) => f64::INFINITY,
                    _ => covariance
                        .get(i - 1)
                        .and_then(|row| row.get(j - 1))
                        .map_or(f64::INFINITY, |v| v * ELO_PER_NAT * ELO_PER_NAT),
                })
                .collect()
        })
        .collect();
    let ratings = (0..players)
        .map(|i| {
            let elo = theta[i] * ELO_PER_NAT;
            let sd = elo_covariance[i][i].max(0.0).sqrt();
            Rating {
                elo,
                low: elo - Z95 * sd,
                high: elo + Z95 * sd,
            }
        })
        .collect();
    Fit {
        ratings,
        covariance: elo_covariance,
    }
}

/// The gradient of the log-likelihood (with the prior draws) and the observed information
/// (minus its Hessian) at `theta`.
fn derivatives(theta: &[f64], pairings: &[Pairing]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = theta.len();
    let mut gradient = vec![0.0; n];
    let mut information = vec![vec![0.0; n]; n];
    for pairing in pairings {
        let games = pairing.games() + PRIOR_DRAWS;
        if pairing.games() == 0.0 {
            continue;
        }
        let points = pairing.points() + 0.5 * PRIOR_DRAWS;
        let (a, b) = (pairing.first, pairing.second);
        let expected = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
        let residual = points - games * expected;
        gradient[a] += residual;
        gradient[b] -= residual;
        let weight = games * expected * (1.0 - expected);
        information[a][a] += weight;
        information[b][b] += weight;
        information[a][b] -= weight;
        information[b][a] -= weight;
    }
    // An agent without games: no gradient; unit information keeps the system solvable.
    for (i, row) in information.iter_mut().enumerate() {
        if row[i] == 0.0 {
            row[i] = 1.0;
        }
    }
    (gradient, information)
}

/// The inverse of a small symmetric positive-definite matrix (Gauss–Jordan with partial
/// pivoting), `None` when it is singular. A ladder has a handful of agents: a linear-algebra
/// crate would cost more to build than these lines.
fn invert(matrix: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut wide = row.clone();
            wide.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            wide
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let p = a[col][col];
        a[col].iter_mut().for_each(|v| *v /= p);
        for row in 0..n {
            if row != col {
                let factor = a[row][col];
                if factor != 0.0 {
                    let pivot_row = a[col].clone();
                    for (v, p) in a[row].iter_mut().zip(&pivot_row) {
                        *v -= factor * p;
                    }
                }
            }
        }
    }
    Some(a.into_iter().map(|row| row[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    fn pairing(first: usize, second: usize, wins: u32, draws: u32, losses: u32) -> Pairing {
        Pairing {
            first,
            second,
            tally: Tally {
                wins,
                draws,
                losses,
                unfinished: 0,
            },
        }
    }

    #[test]
    fn a_three_to_one_score_is_191_elo_apart() {
        // 300 wins and 100 losses, plus the prior's draw: 300.5 / 401 points.
        let ratings = fit(2, &[pairing(1, 0, 300, 0, 100)]).ratings;
        let expected = 400.0 * (300.5f64 / 100.5).log10();
        assert_eq!(ratings[0].elo, 0.0);
        assert!(
            (ratings[1].elo - expected).abs() < 1e-6,
            "{} vs {expected}",
            ratings[1].elo
        );
        assert!(ratings[1].low < ratings[1].elo && ratings[1].elo < ratings[1].high);
        // About ±37 Elo at 400 games and a 75% score.
        let half = (ratings[1].high - ratings[1].low) / 2.0;
        assert!((30.0..45.0).contains(&half), "half width {half}");
    }

    #[test]
    fn even_results_rate_equal_and_draws_count_half() {
        let ratings = fit(
            3,
            &[
                pairing(0, 1, 10, 20, 10),
                pairing(1, 2, 0, 40, 0),
                pairing(0, 2, 15, 10, 15),
            ],
        )
        .ratings;
        for rating in &ratings {
            assert!(rating.elo.abs() < 1e-9, "{ratings:?}");
        }
    }

    #[test]
    fn a_clean_sweep_gets_a_finite_rating() {
        let ratings = fit(2, &[pairing(0, 1, 0, 0, 200)]).ratings;
        assert!(
            ratings[1].elo.is_finite() && ratings[1].elo > 600.0,
            "{ratings:?}"
        );
        assert!(ratings[1].low.is_finite());
    }

    /// A round robin among agents of these true ratings, `games` games a pair.
    fn simulated(truth: &[f64], games: u32, seed: u64) -> Vec<Pairing> {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pairings = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let p = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
                let (mut wins, mut draws, mut losses) = (0, 0, 0);
                // Some games drawn, the expected score kept at p.
                let drawn = 0.2 * p.min(1.0 - p);
                for _ in 0..games {
                    if rng.random::<f64>() < drawn {
                        draws += 1;
                    } else if rng.random::<f64>() < (p - drawn / 2.0) / (1.0 - drawn) {
                        wins += 1;
                    } else {
                        losses += 1;
                    }
                }
                pairings.push(pairing(a, b, wins, draws, losses));
            }
        }
        pairings
    }

    #[test]
    fn known_ratings_are_recovered_from_simulated_round_robins() {
        let truth = [0.0, 150.0, 300.0, 600.0];
        let pairings = simulated(&truth, 2000, 7);
        let ratings = fit(truth.len(), &pairings).ratings;
        for (rating, truth) in ratings.iter().zip(truth).skip(1) {
            // Within about three standard deviations, which are small at 2000 games a pair.
            let half = (rating.high - rating.low) / 2.0;
            assert!(half < 40.0, "{ratings:?}");
            assert!((rating.elo - truth).abs() < 1.5 * half, "{ratings:?}");
        }
    }

    #[test]
    fn an_agent_without_games_keeps_an_unbounded_interval() {
        let ratings = fit(3, &[pairing(0, 1, 5, 0, 5)]).ratings;
        assert_eq!(ratings[2].elo, 0.0);
        assert!(ratings[2].low.is_infinite() && ratings[2].high.is_infinite());
        assert!(ratings[1].high.is_finite());
    }

    #[test]
    fn the_difference_with_the_anchor_is_the_rating_itself() {
        let fitted = fit(2, &[pairing(1, 0, 300, 0, 100)]);
        let difference = fitted.difference(1, 0);
        let rating = fitted.ratings[1];
        for (a, b) in [
            (difference.elo, rating.elo),
            (difference.low, rating.low),
            (difference.high, rating.high),
        ] {
            assert!((a - b).abs() < 1e-9, "{difference:?} vs {rating:?}");
        }
    }

    #[test]
    fn a_difference_has_the_interval_of_the_games_between_the_two() {
        // A chain 0 – 1 – 2: the anchor met agent 1 only 20 times, agents 1 and 2 met 2000
        // times. Agent 2's rating carries the anchor's noise, its difference with agent 1 only
        // that pair's: 1 / (games · p · (1 − p)) in squared log units, prior draw included.
        let fitted = fit(3, &[pairing(0, 1, 5, 0, 15), pairing(2, 1, 1300, 0, 700)]);
        let (games, points) = (2001.0, 1300.5);
        let p: f64 = points / games;
        let half = Z95 * ELO_PER_NAT / (games * p * (1.0 - p)).sqrt();
        let expected = 400.0 * (points / (games - points)).log10();
        let difference = fitted.difference(2, 1);
        assert!((difference.elo - expected).abs() < 1e-6, "{difference:?}");
        assert!(
            (difference.high - difference.elo - half).abs() < 1e-6,
            "{difference:?}: half width {half}"
        );
        let rating = fitted.ratings[2];
        assert!(rating.high - rating.elo > 4.0 * half, "{rating:?}");
    }

    #[test]
    fn neighbours_150_apart_are_told_apart_by_their_differences() {
        let truth = [0.0, 800.0, 950.0, 1100.0];
        let fitted = fit(truth.len(), &simulated(&truth, 400, 11));
        let neighbours = fitted.neighbours();
        let order: Vec<usize> = neighbours.iter().map(|&(agent, _)| agent).collect();
        assert_eq!(order, [3, 2, 1, 0]);
        for &(above, below) in &neighbours {
            let Some((below, difference)) = below else {
                assert_eq!(above, 0);
                continue;
            };
            let true_difference = truth[above] - truth[below];
            assert!(
                difference.low < true_difference && true_difference < difference.high,
                "{above} over {below}: {difference:?}"
            );
            assert!(difference.low > 0.0, "{above} over {below}: {difference:?}");
            // Above the anchor, narrower than the two ratings' own intervals laid end to end
            // (the anchor's is 0 wide: the step to it is the rating itself).
            let (a, b) = (fitted.ratings[above], fitted.ratings[below]);
            assert!(
                below == 0
                    || difference.high - difference.low < (a.high - a.low + b.high - b.low) / 2.0,
                "{difference:?} vs {a:?}, {b:?}"
            );
        }
    }

    #[test]
    fn a_difference_with_an_agent_without_games_is_unbounded() {
        let fitted = fit(3, &[pairing(0, 1, 5, 0, 5)]);
        let difference = fitted.difference(2, 1);
        assert!(difference.low.is_infinite() && difference.high.is_infinite());
    }
}
