//! The words of `evaluate`: the budget and seed a request asks for, read within the server's
//! caps, and the analysis written as the answer. How the search is governed (permits, shares,
//! the cache) is [`super::evaluate`]'s.

use std::time::Duration;

use super::problem::{ApiError, ErrorCode};
use super::types::{EvaluateRequest, EvaluateResponse, MoveEvaluation};
use crate::compute::AiConfig;
use moot_ai::{Budget, Player, Strategy, Strength, Thought};

/// The strength that asks for the proven answer.
pub const PERFECT: &str = "perfect";

/// The largest `seed`: the largest integer JavaScript holds exactly (2^53 − 1), so that every
/// client can send every seed.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// The request's seed (0 when left out), refused over [`MAX_SEED`].
pub fn seed(request: &EvaluateRequest) -> Result<u64, ApiError> {
    match request.seed {
        Some(seed) if seed > MAX_SEED => Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!("seed: {seed} is over {MAX_SEED} (2^53 − 1), the largest seed taken"),
        )
        .with_field("seed")),
        seed => Ok(seed.unwrap_or(0)),
    }
}

/// The budget asked for in game `G`, within the caps: at most one of `playouts`, `millis`,
/// `strength` (whose playouts depend on the game); none (and `perfect`, whose proof may fall
/// back to a search) means the normal strength. An error names the member sent, which the
/// client can change.
pub fn budget<G: Strategy>(
    config: &AiConfig,
    request: &EvaluateRequest,
) -> Result<Budget, ApiError> {
    let max_playouts = u64::from(config.max_playouts);
    match (request.playouts, request.millis, &request.strength) {
        (Some(n), None, None) => {
            within("playouts", n, max_playouts, &format!("{n} is"))?;
            // Within the cap, which is a u32.
            Ok(Budget::Playouts(u32::try_from(n).unwrap_or(u32::MAX)))
        }
        (None, Some(ms), None) => {
            within("millis", ms, config.max_millis, &format!("{ms} is"))?;
            Ok(Budget::Millis(ms))
        }
        (None, None, name) => {
            let strength = match name.as_deref() {
                None | Some(PERFECT) => Strength::Normal,
                Some(name) => Strength::from_name(name).ok_or_else(|| {
                    ApiError::new(
                        ErrorCode::InvalidRequest,
                        format!(
                            "strength: {name:?} is not a strength: use easy, normal, strong \
                             or perfect"
                        ),
                    )
                    .with_field("strength")
                })?,
            };
            let budget = strength.budget::<G>();
            let (asked, cap, unit) = match budget {
                Budget::Playouts(n) => (u64::from(n), max_playouts, "playouts"),
                Budget::Millis(ms) => (ms, config.max_millis, "milliseconds"),
            };
            let what = format!("{} is {asked} {unit},", strength.name());
            within("strength", asked, cap, &what)?;
            Ok(budget)
        }
        _ => Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "send at most one of `playouts`, `millis` and `strength`",
        )),
    }
}

/// Refuses a budget of 0 or over `cap`; `what` is the budget in words, for the message.
fn within(field: &'static str, asked: u64, cap: u64, what: &str) -> Result<(), ApiError> {
    if asked == 0 {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!("{field}: the budget must be at least 1"),
        )
        .with_field(field));
    }
    if asked > cap {
        return Err(ApiError::new(
            ErrorCode::BudgetTooLarge,
            format!("{field}: {what} over this server's cap of {cap}"),
        )
        .with_field(field));
    }
    Ok(())
}

/// The analysis (and its proof, if any) with moves in the game's notation.
pub fn answer<G: Player>(state: &G::State, thought: &Thought<G::Move>) -> EvaluateResponse {
    let analysis = &thought.analysis;
    let mut line = state.clone();
    let pv = analysis
        .pv
        .iter()
        .map(|mv| {
            let text = G::format_move(&line, mv);
            G::play_unchecked(&mut line, mv);
            text
        })
        .collect();
    EvaluateResponse {
        value: analysis.value,
        margin: analysis.margin,
        best_move: analysis
            .best_move
            .as_ref()
            .map(|mv| G::format_move(state, mv)),
        pv,
        moves: analysis
            .moves
            .iter()
            .map(|stat| MoveEvaluation {
                mv: G::format_move(state, &stat.mv),
                visits: stat.visits,
                value: stat.value,
            })
            .collect(),
        playouts: analysis.playouts,
        elapsed_ms: millis(analysis.elapsed),
        cached: false,
        exact: thought.proof.is_some(),
        best_moves: thought
            .proof
            .iter()
            .flat_map(|p| &p.best)
            .map(|mv| G::format_move(state, mv))
            .collect(),
        status: G::status(state),
    }
}

fn millis(elapsed: Duration) -> f64 {
    (elapsed.as_secs_f64() * 1e6).round() / 1e3
}
