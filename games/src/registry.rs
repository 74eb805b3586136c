//! The registry: the one list of games. [`GAME_IDS`] and [`with_game!`](crate::with_game) are
//! both made from it, so no id is listed without an engine to dispatch to, and no engine is
//! dispatched to without its id listed. Every per-game dispatch of the other crates goes
//! through `with_game!`, so a game added here must implement their traits too (`Strategy`,
//! `PageGame`, …): the compiler names what is missing.

use super::{Game, GameInfo};

/// Hands the list of games to the macro `$callback` of this crate, after `$args`, as
/// `[module::Type, …]`: each game's engine module and type, in the order pages and listings
/// show them. Adding a game is one entry here (besides its module).
#[doc(hidden)]
#[macro_export]
macro_rules! registered_games {
    ($callback:ident!($($args:tt)*)) => {
        $crate::$callback!($($args)* [hirth::Hirth, tara::Tara, herfor::Herfor])
    };
}

/// Calls `$body` with `$G` bound to the engine type of the game named by `$id` (a `&str`), or
/// evaluates `$unknown` when no game has that id. A `match` on the registered games' ids, so
/// callers get code monomorphised for each engine and no trait objects.
///
/// ```ignore
/// let moves = with_game!(id, G => legal_move_count::<G>(state), else return Err(unknown(id)));
/// ```
#[macro_export]
macro_rules! with_game {
    ($id:expr, $G:ident => $body:expr, else $unknown:expr) => {
        $crate::registered_games!(dispatch_game!($id, $G, $body, $unknown;))
    };
}

/// [`with_game!`](crate::with_game)'s `match`, one arm per game of the registry.
#[doc(hidden)]
#[macro_export]
macro_rules! dispatch_game {
    ($id:expr, $G:ident, $body:expr, $unknown:expr; [$($module:ident::$Engine:ident),+]) => {
        match $id {
            $(
                <$crate::$module::$Engine as $crate::Game>::ID => {
                    type $G = $crate::$module::$Engine;
                    $body
                }
            )+
            _ => $unknown,
        }
    };
}

/// The registry's ids, in its order.
#[doc(hidden)]
#[macro_export]
macro_rules! registered_ids {
    ([$($module:ident::$Engine:ident),+]) => {
        &[$(<$crate::$module::$Engine as $crate::Game>::ID),+]
    };
}

/// The ids of every game, in the order pages and listings show them; [`with_game!`](crate::with_game)
/// maps each to its engine.
pub const GAME_IDS: &[&str] = registered_games!(registered_ids!());

/// The id of the game whose rule ids start with the letter of `rule` (`F3` → `herfor`).
pub fn game_of_rule(rule: &str) -> Option<&'static str> {
    let letter = rule.chars().next()?;
    GAME_IDS
        .iter()
        .copied()
        .find(|id| with_game!(*id, G => G::RULE_LETTER == letter, else false))
}

/// Listing facts for every game.
pub fn all_games() -> Vec<GameInfo> {
    GAME_IDS
        .iter()
        .map(
            |id| with_game!(*id, G => info::<G>(), else unreachable!("every listed id has a game")),
        )
        .collect()
}

fn info<G: Game>() -> GameInfo {
    GameInfo {
        id: G::ID,
        name: G::NAME,
        default_options: serde_json::to_value(G::Options::default()).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry's ids and its dispatch are made from one list; this guards what the list
    /// cannot say: that no two engines share an id or a rule letter.
    #[test]
    fn every_listed_id_names_its_engine_and_each_game_has_its_own_rule_letter() {
        let mut letters = Vec::new();
        for id in GAME_IDS {
            let (engine_id, letter) = with_game!(*id, G => (G::ID, G::RULE_LETTER),
                else panic!("{id} is listed but with_game! has no engine for it"));
            assert_eq!(engine_id, *id);
            assert!(!letters.contains(&letter), "{letter} names two games");
            letters.push(letter);
            assert_eq!(game_of_rule(&format!("{letter}1")), Some(*id));
        }
        assert_eq!(game_of_rule("X1"), None);
        assert_eq!(game_of_rule(""), None);
    }

    /// The example moves are a game's legal opening: the documentation's links play.
    #[test]
    fn every_game_plays_its_example_moves_from_the_default_options() {
        fn plays<G: Game>() {
            let mut state = G::new_game(&G::Options::default()).expect("the default options");
            for text in G::EXAMPLE_MOVES {
                let mv = G::parse_move(&state, text).expect(text);
                G::apply(&mut state, &mv).expect(text);
            }
        }
        for id in GAME_IDS {
            with_game!(*id, G => plays::<G>(), else unreachable!());
        }
    }
}
