//! Playing against the computer: who it plays, how strongly, and its moves and hints, searched
//! off the async workers under the play pages' own limit on searches at once (API callers
//! cannot starve the players), one client's share of it, and the server's wall-clock cap. The
//! same computer turn or hint asked for twice at once (a double click, a reload) is searched
//! once.

use std::any::Any;
use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use actix_web::http::StatusCode;

use super::error::{PageError, page_on_panic};
use crate::compute::flights::Flights;
use crate::compute::pool::Pool;
use crate::compute::shares::Clients;
use crate::compute::{AiConfig, Surface};
use moot_ai::{Budget, Strategy, Strength, Thought, think};
use moot_games::Game;
use moot_present::link::{Link, Opponent};

/// The computer plays at most this many moves in one request (a whole Hirþ turn and its
/// decisions fit); the next request goes on if it is still to act.
const MOVES_PER_REQUEST: usize = 32;

/// The play pages' computer player: its permits, its clients' shares and its searches in
/// flight, apart from the API's, so API callers cannot starve the players. Clones share them.
#[derive(Clone, Debug)]
pub struct PageSearches {
    config: AiConfig,
    pool: Pool,
    clients: Clients,
    /// The computer's moves: the link of the position after them.
    moves: Flights<Result<String, PageError>>,
    /// The computer's hints: its thoughts, of every game.
    hints: Hints,
}

impl Surface for PageSearches {
    fn new(config: AiConfig) -> Self {
        PageSearches {
            config,
            pool: Pool::new(config.max_page_evaluations),
            clients: Clients::new(config.share(config.max_page_evaluations)),
            moves: Flights::default(),
            hints: Hints::default(),
        }
    }

    fn permits(&self) -> &Pool {
        &self.pool
    }
}

impl PageSearches {
    /// The server's settings for searches: whether hints are offered, whom to trust for a
    /// client's address.
    pub fn config(&self) -> AiConfig {
        self.config
    }

    /// The pages' permits: `max_page_evaluations` searches at once.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The pages' clients, each with its share of the pages' permits.
    pub fn clients(&self) -> &Clients {
        &self.clients
    }

    /// Hint searches under way, of every game.
    pub fn hints_in_flight(&self) -> usize {
        self.hints.in_flight()
    }
}

/// A hint's thought, of whichever game it was searched in: each game's thoughts are of its own
/// moves, so the one map of every game's hints in flight holds them as `Any`. The flight's key
/// names the game, so whoever joins a flight reads the thought as its own game's.
type AnyThought = Arc<dyn Any + Send + Sync>;

/// The hint searches in flight of every game, by game, budget and position.
type Hints = Flights<Result<AnyThought, PageError>>;

/// The seed of a search: the number of moves played, so a reload gets the same move.
fn seed<G: Game>(position: &Link<G>) -> u64 {
    position.moves.len() as u64
}

/// Runs a search on the blocking pool under one of the pages' permits and a slot of the
/// client's share; a busy server gets a 503 page that links `back` to the position (with a
/// truthful `Retry-After`), one with the computer player off a 501 page.
async fn search<T: Send + 'static>(
    searches: &PageSearches,
    client: Option<IpAddr>,
    back: String,
    work: impl FnOnce() -> Result<T, PageError> + Send + 'static,
) -> Result<T, PageError> {
    if searches.config.max_evaluations == 0 {
        // `--max-evaluations 0` turns the computer player off on this server.
        return Err(PageError::new(
            StatusCode::NOT_IMPLEMENTED,
            "The computer player is off",
            "This server does not run the computer player: play against a friend instead.",
        ));
    }
    let busy = || {
        PageError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "The computer is busy",
            "Other games are thinking right now. Try again in a moment: nothing is lost.",
        )
        .with_link("Back to the position", back.clone())
        .retry_after(searches.config.wall_cap().retry_after_seconds())
    };
    let slot = searches.clients.start(client).map_err(|_| busy())?;
    // Waits its turn for a permit, fair between clients.
    let permit = searches
        .pool
        .acquire(client, searches.config.patience())
        .await
        .ok_or_else(busy)?;
    crate::blocking::off_workers(move || {
        let _held = (permit, slot);
        page_on_panic(work)
    })
    .await
    .map_err(|e| {
        PageError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong in Moot",
            format!("The computer could not think: {e}"),
        )
    })?
}

/// The computer's moves from this position while it is to act, searched on the blocking pool:
/// the link of the position after them. Identical requests at once share one search.
pub async fn reply<G: Strategy>(
    searches: &PageSearches,
    client: Option<IpAddr>,
    position: Link<G>,
    state: G::State,
    opponent: Opponent,
) -> Result<String, PageError> {
    let budget = searches.config.capped(opponent.strength.budget::<G>());
    let back = position.href();
    let key = format!("{}|{budget:?}|{back}", G::ID);
    let searches_for_work = searches.clone();
    let work = async move {
        let cutoff = searches_for_work.config.wall_cap().cutoff();
        search(&searches_for_work, client, back, move || {
            play_computer(position, state, opponent, budget, Some(cutoff)).map(|next| next.href())
        })
        .await
    };
    searches.moves.run(key, work).await.0
}

/// The computer's moves from this position while it is to act, within `budget` (its
/// strength's, within the server's caps): the position after them. One search gives the whole
/// of a turn ([`Strategy::planned`]): the computer walks down the searched tree while it is
/// still to act, searching a subtree further (in the same tree) where a choice rests on too
/// few playouts; it starts a new search only if a turn goes on past the plan (cut short by
/// `cutoff`, the wall-clock cap of the request, or by a Hirþ Penningr decision, which is made
/// when it comes). Past `cutoff` it starts no new search; the next request goes on.
pub fn play_computer<G: Strategy>(
    position: Link<G>,
    state: G::State,
    opponent: Opponent,
    budget: Budget,
    cutoff: Option<Instant>,
) -> Result<Link<G>, PageError> {
    play_turn(position, state, opponent, budget, cutoff).map(|(position, _)| position)
}

/// How a computer turn was searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Searched {
    /// Search trees built.
    searches: usize,
    /// Subtrees searched further inside them.
    top_ups: u32,
}

/// [`play_computer`], and how it searched.
fn play_turn<G: Strategy>(
    mut position: Link<G>,
    mut state: G::State,
    opponent: Opponent,
    budget: Budget,
    cutoff: Option<Instant>,
) -> Result<(Link<G>, Searched), PageError> {
    let before = position.moves.len();
    let mut searched = Searched::default();
    // The rest of the planned turn, next move first.
    let mut plan: VecDeque<G::Move> = VecDeque::new();
    while position.moves.len() - before < MOVES_PER_REQUEST && opponent.to_act::<G>(&state) {
        let mv = match plan.pop_front() {
            Some(mv) => mv,
            None => {
                if position.moves.len() > before && cutoff.is_some_and(|c| Instant::now() >= c) {
                    break;
                }
                let root = G::search_root(&state);
                let turn = G::planned(&root, budget, seed(&position), cutoff);
                searched.searches += 1;
                searched.top_ups += turn.top_ups;
                plan.extend(turn.moves);
                let Some(first) = plan.pop_front() else {
                    break;
                };
                first
            }
        };
        let notation = G::format_move(&state, &mv);
        G::apply(&mut state, &mv).map_err(|e| {
            PageError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong in Moot",
                format!("The computer chose {notation}, which the rules refuse: {e}"),
            )
        })?;
        position.moves.push(notation);
    }
    // Sending the browser back to the same link would loop.
    if position.moves.len() == before {
        return Err(PageError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong in Moot",
            "The computer is to act but found no move.",
        ));
    }
    Ok((position, searched))
}

/// The engine's advice for the player to act: proven where the game is solved and the proof
/// fits the request, else the search at [`hint_strength`] (within the caps). Identical
/// requests at once (a double click, a reload) share one search.
pub async fn hint<G: Strategy>(
    searches: &PageSearches,
    client: Option<IpAddr>,
    position: &Link<G>,
    state: G::State,
) -> Result<Thought<G::Move>, PageError> {
    let seed = seed(position);
    let budget = searches
        .config
        .capped(hint_strength(position.opponent).budget::<G>());
    let back = position.href();
    let key = format!("{}|{budget:?}|{back}", G::ID);
    let searches_for_work = searches.clone();
    let work = async move {
        let cutoff = searches_for_work.config.wall_cap().cutoff();
        search(&searches_for_work, client, back, move || {
            let thought = think::<G>(&G::search_root(&state), budget, seed, Some(cutoff));
            Ok(Arc::new(thought) as AnyThought)
        })
        .await
    };
    let thought = searches.hints.run(key, work).await.0?;
    // The key starts with the game's id: a flight joined is always of this game.
    thought
        .downcast_ref::<Thought<G::Move>>()
        .cloned()
        .ok_or_else(|| {
            PageError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "Something went wrong in Moot",
                "The computer's hint was of another game.",
            )
        })
}

/// How hard the computer thinks for a hint: as hard as it plays against the player when that
/// is strong, and never less than normal (an easy opponent's hints are still good advice).
pub fn hint_strength(opponent: Option<Opponent>) -> Strength {
    match opponent.map(|o| o.strength) {
        Some(Strength::Strong) => Strength::Strong,
        _ => Strength::Normal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use moot_games::hirth::{Hirth, HirthState};
    use moot_games::{Seat, Turn};

    /// A Hirþ game `plies` seeded random moves in, at the start of a turn: the link's
    /// position and its state.
    fn hirth_mid_game(plies: usize, seed: u64) -> (Link<Hirth>, HirthState) {
        let (moves, state) = moot_games::fixtures::hirth::mid_game(plies, seed);
        let mut position = Link::<Hirth>::start(Default::default()).expect("the defaults");
        position.moves = moves;
        (position, state)
    }

    #[test]
    fn a_hirth_turn_is_played_from_one_search_tree() {
        let (position, state) = hirth_mid_game(40, 3);
        let Turn::ToAct(seat) = Hirth::turn(&state) else {
            panic!("the game goes on")
        };
        let opponent = Opponent {
            seat,
            strength: Strength::Strong,
        };
        let before = position.moves.len();
        let (after, searched) = play_turn(
            position,
            state,
            opponent,
            Strength::Strong.budget::<Hirth>(),
            None,
        )
        .expect("a reply");
        let played = &after.moves[before..];
        // Every move of the turn from one tree: one search per step would be six here. The
        // deeper choices were searched further in that tree, which tries no offer after a
        // turn's first step (the computer offers only at its start, H10), so the plan is not
        // cut short by one.
        assert!(played.len() >= 2, "{played:?}");
        assert_eq!(searched.searches, 1, "searches for the turn {played:?}");
        assert!(searched.top_ups >= 1, "{searched:?}");
        assert!(
            !played.iter().skip(1).any(|m| m == "offer"),
            "no offer mid-turn: {played:?}"
        );
        // The turn was played to its end: the other player acts now.
        let replayed = moot_present::replay::replay(&after)
            .expect("legal moves")
            .state;
        assert_ne!(Hirth::turn(&replayed), Turn::ToAct(seat), "{played:?}");
    }

    #[test]
    fn h11_the_page_computer_answers_an_offer_from_the_search_value() {
        // Silfr (the second seat) is offered the Penningr with its Lofðungr trapped on Miðr:
        // playing on is a Drepið at double stake, giving up costs one point.
        let state: HirthState = serde_json::from_str(
            r#"{"version":1,"options":{"target":5},
            "position":{"board":{"0":{"gull":{"l":true}},"3":{"gull":{"h":2}},"4":{"gull":{"h":1}},
              "5":{"gull":{"h":1}},"6":{"gull":{"h":1}},"m":{"silfr":{"l":true}},"9":{"silfr":{"h":2}}},
              "reserve":{"gull":{"h":10,"k":3},"silfr":{"h":13,"k":3}},"removed":{"gull":0,"silfr":0},
              "mover":"gull","steps":0},
            "phase":{"kind":"offer"},"coin":{"factor":1,"holder":null},"gull":"first",
            "points":[0,0],"round":9}"#,
        )
        .expect("a state");
        let position = Link::<Hirth>::start(Default::default()).expect("the defaults");
        let opponent = Opponent {
            seat: Seat::Second,
            strength: Strength::Normal,
        };
        let after = play_computer(
            position,
            state,
            opponent,
            Strength::Normal.budget::<Hirth>(),
            None,
        )
        .expect("a reply");
        // The match goes on: in the next game the computer plays Gull and starts.
        assert_eq!(after.moves[0], "give-up", "{:?}", after.moves);
    }
}
