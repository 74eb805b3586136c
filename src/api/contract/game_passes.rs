//! What each game adds to the published document besides the passes every game shares: each
//! game's contract file ([`super::herfor`], [`super::tara`], [`super::hirth`]) implements
//! [`GamePasses`], and [`super::publish`] runs every registered game's at the three places
//! where a game's own schemas have the names it needs. Dispatched through the games' registry,
//! so a registered game without its contract file does not compile.

use serde_json::Value;

use moot_games::{GAME_IDS, Game, with_game};

/// A game's own passes over the published document; by default none.
pub trait GamePasses: Game {
    /// On the schemas as the engine's types name them (`TaraState`, `HerforState`), before the
    /// paths are made per game ([`super::per_game`]).
    fn schemas(_document: &mut Value) {}

    /// On the game's own requests (`HerforApplyRequest`), once [`super::per_game`] has made
    /// them and [`super::patterns`] has patterned their moves.
    fn requests(_document: &mut Value) {}

    /// On the variants of the game's tagged unions (`HirthPhaseRetreat`), once
    /// [`super::variants`] has named them.
    fn variants(_document: &mut Value) {}
}

/// Where among the shared passes a game's own pass runs.
#[derive(Clone, Copy, Debug)]
pub enum Stage {
    /// [`GamePasses::schemas`].
    Schemas,
    /// [`GamePasses::requests`].
    Requests,
    /// [`GamePasses::variants`].
    Variants,
}

/// Runs every registered game's pass of `stage`, in the registry's order.
pub fn run(document: &mut Value, stage: Stage) {
    for id in GAME_IDS {
        with_game!(*id, G => pass::<G>(document, stage),
            else unreachable!("every listed id has a game"));
    }
}

fn pass<G: GamePasses>(document: &mut Value, stage: Stage) {
    match stage {
        Stage::Schemas => G::schemas(document),
        Stage::Requests => G::requests(document),
        Stage::Variants => G::variants(document),
    }
}
