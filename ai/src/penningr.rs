//! Hirþ's Penningr (H10) offered and answered from the search's value of the position and the
//! match score (H11), never as a reflex of the tree.
//!
//! The value is read as the chance `p` of winning the game under way ([`win_chance`]); a game
//! is counted as won by one point times the doubling factor, and every later game as an even
//! one-point game ([`match_chance`]). Then:
//! - **answer**: accept when the chance of winning the match by playing on at the higher factor
//!   is at least the chance left after giving up (the offerer scores 1 for a refused double, 2
//!   for a refused triple);
//! - **offer** only at the start of a turn, when clearly ahead ([`OFFER_FROM`]), when the offer
//!   gains match chance whatever the answer, and when the search does not expect more from
//!   playing on than a refusal would score ("too good to offer").

use std::time::Instant;

use super::player::Player;
use super::{Analysis, Budget, MoveStat, TurnPlan, analyse_until, plan_turn};
use moot_games::hirth::{Hirth, HirthState, Move, Phase};
use moot_games::{Game, Seat, Turn};

/// The least value the search gives a won game (see `Player::outcome` for Hirþ): a value this
/// high is read as a sure win.
const SURE_WIN: f64 = 0.7;
/// What a won game's points add to its value, per point, up to five (`Player::outcome`).
const POINT_WORTH: f64 = 0.3 / 5.0;
/// The least chance of winning the game at which the computer offers: clearly ahead, since an
/// offer hands the Penningr to the opponent (only the holder may offer next).
pub const OFFER_FROM: f64 = 0.75;
/// The least gain of match chance an offer must bring.
const MIN_GAIN: f64 = 0.005;

/// The chance of winning the game under way read from a value in −1…1 for the same seat.
pub fn win_chance(value: f64) -> f64 {
    0.5 * (1.0 + (value / SURE_WIN).clamp(-1.0, 1.0))
}

/// The chance of winning a match needing `need` points while the opponent needs `other`, when
/// every game from here is an even game worth one point: `need` wins before `other` losses.
pub fn match_chance(need: u32, other: u32) -> f64 {
    if need == 0 {
        return 1.0;
    }
    if other == 0 {
        return 0.0;
    }
    // Σ_{k < other} C(need − 1 + k, k) / 2^(need + k), term by term.
    let mut term = 0.5f64.powi(need as i32);
    let mut sum = term;
    for k in 1..other {
        term *= f64::from(need - 1 + k) / f64::from(k) * 0.5;
        sum += term;
    }
    sum.min(1.0)
}

/// Where a seat stands in the match: the points it needs, those its opponent needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// Points the seat still needs to reach the match target (H11); 0 once it has.
    pub own: u32,
    /// Points its opponent still needs.
    pub other: u32,
}

impl Needs {
    /// The needs of `seat` in `state`.
    pub fn of(state: &HirthState, seat: Seat) -> Needs {
        let target = state.options.target;
        let need = |s: Seat| target.saturating_sub(state.points[s.index()]);
        Needs {
            own: need(seat),
            other: need(seat.other()),
        }
    }

    /// The match chance after the game under way, won with chance `p` at `factor`.
    fn play_on(self, p: f64, factor: u8) -> f64 {
        let f = u32::from(factor);
        p * match_chance(self.own.saturating_sub(f), self.other)
            + (1.0 - p) * match_chance(self.own, self.other.saturating_sub(f))
    }
}

/// Whether the seat offered the Penningr at `factor` (its needs `needs`, its chance `p` of
/// winning the game played on) accepts it rather than give up.
pub fn accepts(needs: Needs, p: f64, factor: u8) -> bool {
    // Giving up scores the offerer 1 for a double, 2 for a triple: the factor before (H10).
    let give_up = match_chance(needs.own, needs.other.saturating_sub(u32::from(factor)));
    needs.play_on(p, factor + 1) >= give_up
}

/// Whether the mover, with chance `p` of winning the game and `value` its search value, gains
/// by offering the Penningr at `factor`.
pub fn offers(needs: Needs, p: f64, value: f64, factor: u8) -> bool {
    if p < OFFER_FROM {
        return false;
    }
    let refused = match_chance(needs.own.saturating_sub(u32::from(factor)), needs.other);
    // Too good to offer: the search expects more from playing on than the points a refusal
    // scores, unless those points win the match.
    let refusal_value = SURE_WIN + POINT_WORTH * f64::from(factor);
    if value > refusal_value && refused < 1.0 {
        return false;
    }
    let keep = needs.play_on(p, factor);
    // The opponent answers as is best for it, the worse for the mover.
    let accepted = needs.play_on(p, factor + 1);
    accepted.min(refused) > keep + MIN_GAIN
}

/// The search within `budget` with the Penningr decided. Offered it, the seat searches the
/// game played on after accepting (the offerer's turn at the higher factor) and accepts or
/// gives up by [`accepts`]; otherwise the position itself is searched and [`decide`] applies.
pub fn search(
    state: &HirthState,
    budget: Budget,
    seed: u64,
    cutoff: Option<Instant>,
) -> Analysis<Move> {
    match (state.phase, Hirth::turn(state)) {
        (Phase::Offer, Turn::ToAct(seat)) => answer(state, seat, budget, seed, cutoff),
        _ => decide(state, analyse_until::<Hirth>(state, budget, seed, cutoff)),
    }
}

/// A whole turn from one search tree ([`plan_turn`]) with the Penningr decided as by
/// [`search`]: an offer is answered by [`answer`]; otherwise the root's values decide the first
/// move ([`decide`]). The plan follows the tree only while it agrees with that decision, and
/// stops before any later offer or answer, which is decided when it comes.
pub fn plan(
    state: &HirthState,
    budget: Budget,
    seed: u64,
    cutoff: Option<Instant>,
) -> TurnPlan<Move> {
    if let (Phase::Offer, Turn::ToAct(seat)) = (state.phase, Hirth::turn(state)) {
        let answered = answer(state, seat, budget, seed, cutoff);
        return TurnPlan {
            moves: answered.best_move.iter().cloned().collect(),
            playouts: answered.playouts,
            top_ups: 0,
            root: answered,
        };
    }
    let mut plan = plan_turn::<Hirth>(state, budget, seed, cutoff);
    plan.root = decide(state, plan.root);
    match &plan.root.best_move {
        Some(first) if plan.moves.first() == Some(first) => cut_at_decisions(&mut plan.moves),
        Some(first) => plan.moves = vec![first.clone()],
        None => {}
    }
    plan
}

/// Accept or give up: the value of playing on, seen by `seat`, is the search's of the position
/// after accepting; if the offerer's searched line ends the game within its turn, that end
/// (a mean over the lines tried understates a win the tree has found).
fn answer(
    state: &HirthState,
    seat: Seat,
    budget: Budget,
    seed: u64,
    cutoff: Option<Instant>,
) -> Analysis<Move> {
    let mut accepted = state.clone();
    Hirth::play_unchecked(&mut accepted, &Move::Accept);
    let after = analyse_until::<Hirth>(&accepted, budget, seed, cutoff);
    let seen = |first: f64| if seat == Seat::First { first } else { -first };
    let mut line = accepted.clone();
    let mut line_end = None;
    for mv in &after.pv {
        if Hirth::turn(&line) == Turn::ToAct(seat) || line_end.is_some() {
            break;
        }
        Hirth::play_unchecked(&mut line, mv);
        line_end = Hirth::outcome(state, &line).map(seen);
    }
    // Else the offerer's value (it acts after accepting), turned round.
    let accept_value = line_end.unwrap_or(-after.value);
    let mut given_up = state.clone();
    Hirth::play_unchecked(&mut given_up, &Move::GiveUp);
    let give_up_value = Hirth::outcome(state, &given_up).map_or(-1.0, seen);
    let needs = Needs::of(state, seat);
    let accept = accepts(needs, win_chance(accept_value), state.coin.factor);
    let (chosen, value) = if accept {
        (Move::Accept, accept_value)
    } else {
        (Move::GiveUp, give_up_value)
    };
    let mut pv = vec![chosen.clone()];
    if accept {
        pv.extend(after.pv);
        cut_at_decisions(&mut pv);
    }
    Analysis {
        value,
        margin: None,
        best_move: Some(chosen),
        pv,
        moves: vec![
            MoveStat {
                mv: Move::Accept,
                visits: after.playouts,
                value: accept_value,
            },
            MoveStat {
                mv: Move::GiveUp,
                visits: 0,
                value: give_up_value,
            },
        ],
        playouts: after.playouts,
        elapsed: after.elapsed,
    }
}

/// The search's answer with the Penningr decided in the movement phase: at the start of a
/// turn, offer by [`offers`]; otherwise (and when not offering) the best move that is not an
/// offer. The line (`pv`) stops before any later offer or answer, which are decided when they
/// come.
pub fn decide(state: &HirthState, mut analysis: Analysis<Move>) -> Analysis<Move> {
    let (Phase::Movement, Turn::ToAct(seat)) = (state.phase, Hirth::turn(state)) else {
        cut_at_decisions(&mut analysis.pv);
        return analysis;
    };
    let Some(best) = best_non_offer(&analysis) else {
        return analysis;
    };
    let at_turn_start = state.position.steps == 0;
    let may_offer = analysis.moves.iter().any(|m| m.mv == Move::Offer);
    let needs = Needs::of(state, seat);
    let chosen = if at_turn_start
        && may_offer
        && offers(needs, win_chance(best.value), best.value, state.coin.factor)
    {
        Move::Offer
    } else {
        best.mv.clone()
    };
    if let Some(s) = stat(&analysis, &chosen).filter(|s| s.visits > 0) {
        analysis.value = s.value;
    }
    if analysis.pv.first() != Some(&chosen) {
        analysis.pv = vec![chosen.clone()];
    }
    cut_at_decisions(&mut analysis.pv);
    analysis.best_move = Some(chosen);
    analysis
}

/// Ends a line before any offer or answer after its first move: those are decided when they
/// come, not by the tree.
fn cut_at_decisions(pv: &mut Vec<Move>) {
    let decision = |mv: &Move| matches!(mv, Move::Offer | Move::Accept | Move::GiveUp);
    if let Some(cut) = pv.iter().skip(1).position(decision) {
        pv.truncate(cut + 1);
    }
}

fn stat<'a>(analysis: &'a Analysis<Move>, mv: &Move) -> Option<&'a MoveStat<Move>> {
    analysis.moves.iter().find(|s| s.mv == *mv)
}

/// The most visited root move that is not an offer (the better value among equals).
fn best_non_offer(analysis: &Analysis<Move>) -> Option<&MoveStat<Move>> {
    analysis
        .moves
        .iter()
        .filter(|s| s.mv != Move::Offer)
        .max_by(|a, b| {
            a.visits
                .cmp(&b.visits)
                .then(a.value.total_cmp(&b.value))
                .then(std::cmp::Ordering::Greater)
        })
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::*;
    use crate::{Agent, Strength, search};
    use moot_games::hirth::HirthOptions;

    /// The first game of a match, no points yet.
    const FIRST_GAME: &str = r#""gull":"first","points":[0,0]"#;
    /// The second game: Gull is the second seat, which won the first game by 4 points.
    const SECOND_GAME_GULL_NEEDS_ONE: &str = r#""gull":"second","points":[0,4],"results":[
        {"winner":"second","winner_colour":"silfr","victory":"thungur_hnifur","factor":2,"points":4}]"#;

    /// A hand-built Hirþ position: `board` and `reserve` as the state's JSON, Gull to act in
    /// `phase` at the start of its turn, the match (`target`, and `game`: Gull's seat, points
    /// and results) as given.
    fn position(
        board: &str,
        reserve: &str,
        removed: &str,
        phase: &str,
        target: u32,
        game: &str,
    ) -> HirthState {
        let json = format!(
            r#"{{"version":1,"options":{{"target":{target}}},
             "position":{{"board":{board},"reserve":{reserve},"removed":{removed},"mover":"gull","steps":0}},
             "phase":{{"kind":"{phase}"}},"coin":{{"factor":1,"holder":null}},{game},"round":9}}"#
        );
        let state: HirthState = serde_json::from_str(&json).expect("a state");
        Hirth::validate(&state).expect("a valid position");
        state
    }

    /// Gull far ahead without a win this turn: Silfr has six Hirþ left, on 5 and 6; Gull holds
    /// 3, 4 and Miðr with three each and has every Hirþ.
    fn gull_far_ahead(phase: &str, target: u32, game: &str) -> HirthState {
        position(
            r#"{"0":{"gull":{"l":true}},"3":{"gull":{"h":3}},"4":{"gull":{"h":3}},"m":{"gull":{"h":3}},
               "5":{"silfr":{"h":3}},"6":{"silfr":{"h":3}},"9":{"silfr":{"l":true}}}"#,
            r#"{"gull":{"h":6,"k":3},"silfr":{"h":0,"k":3}}"#,
            r#"{"gull":0,"silfr":9}"#,
            phase,
            target,
            game,
        )
    }

    /// Silfr's Lofðungr alone on Miðr, every space around it Gull's: Drepið (5 points) this
    /// turn.
    fn silfr_king_trapped(phase: &str, target: u32, game: &str) -> HirthState {
        position(
            r#"{"0":{"gull":{"l":true}},"3":{"gull":{"h":2}},"4":{"gull":{"h":1}},"5":{"gull":{"h":1}},
               "6":{"gull":{"h":1}},"m":{"silfr":{"l":true}},"9":{"silfr":{"h":2}}}"#,
            r#"{"gull":{"h":10,"k":3},"silfr":{"h":13,"k":3}}"#,
            r#"{"gull":0,"silfr":0}"#,
            phase,
            target,
            game,
        )
    }

    fn decided(state: &HirthState, strength: Strength) -> Move {
        search::<Hirth>(state, strength.budget::<Hirth>(), 7, None)
            .best_move
            .expect("a move")
    }

    #[test]
    fn h11_match_chance_counts_even_one_point_games() {
        assert_eq!(match_chance(0, 3), 1.0);
        assert_eq!(match_chance(2, 0), 0.0);
        assert!((match_chance(1, 1) - 0.5).abs() < 1e-12);
        // Needing 1 against 2: lose only by losing the next two games.
        assert!((match_chance(1, 2) - 0.75).abs() < 1e-12);
        // 2 against 3: 11/16.
        assert!((match_chance(2, 3) - 11.0 / 16.0).abs() < 1e-12);
        for (a, b) in [(3, 5), (7, 2), (40, 45)] {
            assert!((match_chance(a, b) + match_chance(b, a) - 1.0).abs() < 1e-9);
        }
        // The largest target stays finite.
        assert!(match_chance(1000, 1000).is_finite());
    }

    #[test]
    fn h11_the_take_point_of_a_long_match_is_near_a_quarter() {
        let far = Needs {
            own: 100,
            other: 100,
        };
        assert!(accepts(far, 0.3, 1));
        assert!(!accepts(far, 0.2, 1));
    }

    #[test]
    fn h11_giving_up_that_loses_the_match_is_never_chosen() {
        // The offerer needs one point: giving up hands it the match; any chance is better.
        let last = Needs { own: 4, other: 1 };
        assert!(accepts(last, 0.02, 1));
    }

    #[test]
    fn h10_an_offer_that_cannot_matter_is_not_made() {
        // Target 1: any won game wins the match, whatever the factor.
        let one = Needs { own: 1, other: 1 };
        assert!(!offers(one, 0.9, 0.5, 1));
        // Clearly ahead in a match to 5.
        let five = Needs { own: 5, other: 5 };
        assert!(offers(five, 0.9, 0.5, 1));
        assert!(!offers(five, 0.6, 0.1, 1), "not clearly ahead");
        assert!(!offers(five, 1.0, 0.9, 1), "too good: play on for more");
    }

    #[test]
    fn h10_offers_when_clearly_ahead() {
        let state = gull_far_ahead("movement", 5, FIRST_GAME);
        assert_eq!(decided(&state, Strength::Normal), Move::Offer);
    }

    #[test]
    fn h10_does_not_offer_when_the_offer_cannot_matter() {
        let state = gull_far_ahead("movement", 1, FIRST_GAME);
        assert_ne!(decided(&state, Strength::Normal), Move::Offer);
    }

    #[test]
    fn h10_plays_on_when_too_good_to_offer() {
        // A refusal would score 1; the Drepið this turn scores 5.
        let state = silfr_king_trapped("movement", 5, FIRST_GAME);
        assert_ne!(decided(&state, Strength::Normal), Move::Offer);
    }

    #[test]
    fn h10_never_offers_at_the_first_action_of_an_even_game() {
        for target in [1, 3, 5, 11] {
            let state = Hirth::new_game(&HirthOptions { target }).expect("a target");
            for strength in [Strength::Easy, Strength::Normal] {
                for seed in 0..4 {
                    let mut rng = SmallRng::seed_from_u64(seed);
                    let mv = Agent::Mcts(strength.budget::<Hirth>())
                        .choose::<Hirth>(&state, &mut rng)
                        .expect("a move");
                    assert_ne!(
                        mv,
                        Move::Offer,
                        "target {target}, {strength:?}, seed {seed}"
                    );
                }
            }
        }
    }

    #[test]
    fn h11_accepts_when_giving_up_loses_more() {
        // Gull offered at the start of an even game of a match to 5.
        let mut state = Hirth::new_game(&HirthOptions { target: 5 }).expect("defaults");
        Hirth::apply(&mut state, &Move::Offer).expect("an offer");
        assert_eq!(decided(&state, Strength::Normal), Move::Accept);
    }

    #[test]
    fn h11_accepts_far_behind_when_giving_up_loses_the_match() {
        // Gull needs one point: a refusal ends the match, playing on keeps a chance.
        let state = silfr_king_trapped("offer", 5, SECOND_GAME_GULL_NEEDS_ONE);
        assert_eq!(decided(&state, Strength::Normal), Move::Accept);
    }

    #[test]
    fn h11_gives_up_when_playing_on_loses_more() {
        // Playing on is the Drepið at double stake (10 points); giving up costs 1.
        let state = silfr_king_trapped("offer", 5, FIRST_GAME);
        assert_eq!(decided(&state, Strength::Normal), Move::GiveUp);
    }
}
