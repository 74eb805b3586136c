//! The game-dependent members of requests and responses (`state`, `options`, `score`, events)
//! travel as JSON; their OpenAPI schema is `oneOf` the registered games' own schemas.
//!
//! Each marker type here implements [`ToSchema`] by walking [`GAME_IDS`], so a game that is added
//! to the registry appears in the document with no change to the API code.

use std::borrow::Cow;

use utoipa::openapi::schema::{OneOfBuilder, Schema};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use crate::games::{GAME_IDS, Game};
use crate::with_game;

macro_rules! game_union {
    ($(#[doc = $doc:literal])* $marker:ident = $name:literal, $assoc:ident) => {
        $(#[doc = $doc])*
        pub struct $marker;

        impl PartialSchema for $marker {
            fn schema() -> RefOr<Schema> {
                let mut one_of = OneOfBuilder::new().description(Some(concat!($($doc),*).trim()));
                for id in GAME_IDS {
                    let name: Cow<'static, str> = with_game!(*id, G => <<G as Game>::$assoc as ToSchema>::name(), else continue);
                    one_of = one_of.item(Ref::from_schema_name(name));
                }
                Schema::OneOf(one_of.build()).into()
            }
        }

        impl ToSchema for $marker {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }

            fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                for id in GAME_IDS {
                    with_game!(*id, G => {
                        type T = <G as Game>::$assoc;
                        schemas.push((<T as ToSchema>::name().into_owned(), <T as PartialSchema>::schema()));
                        <T as ToSchema>::schemas(schemas);
                    }, else continue);
                }
            }
        }
    };
}

game_union! {
    /// A game state, as the game's own versioned JSON: one of the games' state schemas.
    GameState = "GameState", State
}

game_union! {
    /// The options of a game: one of the games' option schemas.
    GameOptions = "GameOptions", Options
}

game_union! {
    /// What a move caused (flips, captures, battles): one of the games' event schemas.
    GameEvent = "GameEvent", Event
}

game_union! {
    /// The rule-specific score breakdown: one of the games' score schemas.
    GameScore = "GameScore", Score
}
