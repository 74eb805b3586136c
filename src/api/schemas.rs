//! The game-dependent members of requests and responses (`state`, `options`, `score`, events)
//! travel as JSON; their OpenAPI schema is `oneOf` the registered games' own schemas.
//!
//! Each marker type here implements [`ToSchema`] by walking [`GAME_IDS`], so a game that is added
//! to the registry appears in the document with no change to the API code.
//!
//! Games name their schemas independently, so two may both have a `Colour` that differ. The
//! document has one namespace: such a name is prefixed with each game's id (`HerforColour`,
//! `TaraColour`) and the game's references are rewritten to match. Names that games share for
//! the same schema (`Seat`, `Status`) stay as they are.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use utoipa::openapi::schema::{OneOfBuilder, Schema};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use moot_games::with_game;
use moot_games::{GAME_IDS, Game};

type Components = Vec<(String, RefOr<Schema>)>;

/// One game's schemas as the document holds them.
struct GameSchemas {
    /// The names of its State, Options, Event and Score schemas, in that order.
    roots: [String; 4],
    components: Components,
}

fn collect<T: ToSchema>(roots: &mut Vec<String>, components: &mut Components) {
    roots.push(T::name().into_owned());
    components.push((T::name().into_owned(), T::schema()));
    T::schemas(components);
}

fn game_schemas<G: Game>() -> GameSchemas {
    let (mut roots, mut components) = (Vec::new(), Vec::new());
    collect::<G::State>(&mut roots, &mut components);
    collect::<G::Options>(&mut roots, &mut components);
    collect::<G::Event>(&mut roots, &mut components);
    collect::<G::Score>(&mut roots, &mut components);
    let roots = roots
        .try_into()
        .unwrap_or_else(|_| unreachable!("four roots were collected"));
    GameSchemas { roots, components }
}

/// Every game's schemas, with the names that clash between games made distinct.
fn registry() -> &'static [GameSchemas] {
    static REGISTRY: OnceLock<Vec<GameSchemas>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let games: Vec<(&str, GameSchemas)> = GAME_IDS
            .iter()
            .filter_map(|id| with_game!(*id, G => Some((G::ID, game_schemas::<G>())), else None))
            .collect();
        let clashing = clashing_names(&games);
        games
            .into_iter()
            .map(|(name, schemas)| namespaced(name, schemas, &clashing))
            .collect()
    })
}

/// The names that two games use for schemas that differ.
fn clashing_names(games: &[(&str, GameSchemas)]) -> BTreeSet<String> {
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    let mut clashing = BTreeSet::new();
    for (_, schemas) in games {
        for (name, schema) in &schemas.components {
            let json = serde_json::to_string(schema).unwrap_or_default();
            match seen.get(name.as_str()) {
                Some(earlier) if *earlier != json => {
                    clashing.insert(name.clone());
                }
                Some(_) => {}
                None => {
                    seen.insert(name, json);
                }
            }
        }
    }
    clashing
}

/// Prefixes the clashing names of one game with the game's id in Pascal case (`Tara`), in its
/// components and in every reference its schemas make.
fn namespaced(id: &str, schemas: GameSchemas, clashing: &BTreeSet<String>) -> GameSchemas {
    let prefix = schema_prefix(id);
    let rename = |name: &str| {
        if clashing.contains(name) {
            format!("{prefix}{name}")
        } else {
            name.to_owned()
        }
    };
    let rewrite = |schema: RefOr<Schema>| -> RefOr<Schema> {
        let mut json = serde_json::to_value(&schema).unwrap_or_default();
        rewrite_refs(&mut json, &rename);
        serde_json::from_value(json).unwrap_or(schema)
    };
    GameSchemas {
        roots: schemas.roots.map(|root| rename(&root)),
        components: schemas
            .components
            .into_iter()
            .map(|(name, schema)| (rename(&name), rewrite(schema)))
            .collect(),
    }
}

fn rewrite_refs(json: &mut serde_json::Value, rename: &impl Fn(&str) -> String) {
    const PREFIX: &str = "#/components/schemas/";
    match json {
        serde_json::Value::Object(members) => {
            for (key, value) in members.iter_mut() {
                match value {
                    serde_json::Value::String(target)
                        if key == "$ref" && target.starts_with(PREFIX) =>
                    {
                        *target = format!("{PREFIX}{}", rename(&target[PREFIX.len()..]));
                    }
                    _ => rewrite_refs(value, rename),
                }
            }
        }
        serde_json::Value::Array(items) => {
            items.iter_mut().for_each(|item| rewrite_refs(item, rename))
        }
        _ => {}
    }
}

/// The prefix of a game's schema names that clash with another game's: `tara` → `Tara`.
pub fn schema_prefix(id: &str) -> String {
    let mut chars = id.chars().filter(char::is_ascii_alphanumeric);
    chars
        .next()
        .map(|first| first.to_ascii_uppercase())
        .into_iter()
        .chain(chars)
        .collect()
}

/// Each registered game's id with the names in the document of its State, Options, Event and
/// Score schemas.
pub fn game_roots() -> Vec<(&'static str, [String; 4])> {
    GAME_IDS
        .iter()
        .copied()
        .filter(|id| with_game!(*id, G => { let _ = G::ID; true }, else false))
        .zip(registry())
        .map(|(id, game)| (id, game.roots.clone()))
        .collect()
}

/// The name in the document of each game's root schema of one kind (0 State … 3 Score).
pub fn root_names(kind: usize) -> Vec<String> {
    registry()
        .iter()
        .map(|game| game.roots[kind].clone())
        .collect()
}

macro_rules! game_union {
    ($(#[doc = $doc:literal])* $marker:ident = $name:literal, $kind:expr) => {
        $(#[doc = $doc])*
        pub struct $marker;

        impl PartialSchema for $marker {
            fn schema() -> RefOr<Schema> {
                let one_of = root_names($kind)
                    .into_iter()
                    .fold(OneOfBuilder::new().description(Some(concat!($($doc),*).trim())), |one_of, name| {
                        one_of.item(Ref::from_schema_name(name))
                    });
                Schema::OneOf(one_of.build()).into()
            }
        }

        impl ToSchema for $marker {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed($name)
            }

            fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
                for game in registry() {
                    schemas.extend(game.components.iter().cloned());
                }
            }
        }
    };
}

game_union! {
    /// A game state, as the game's own versioned JSON: one of the games' state schemas.
    GameState = "GameState", 0
}

game_union! {
    /// The options of a game: one of the games' option schemas.
    GameOptions = "GameOptions", 1
}

game_union! {
    /// What a move caused (flips, captures, battles): one of the games' event schemas.
    GameEvent = "GameEvent", 2
}

game_union! {
    /// The rule-specific score breakdown: one of the games' score schemas.
    GameScore = "GameScore", 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rewrite_refs_renames_references_at_any_depth() {
        let mut schema = json!({"properties": {"to_move": {"$ref": "#/components/schemas/Colour"},
            "seats": {"items": {"$ref": "#/components/schemas/Seat"}}}});
        let rename = |name: &str| {
            if name == "Colour" {
                "TaraColour".to_owned()
            } else {
                name.to_owned()
            }
        };
        rewrite_refs(&mut schema, &rename);
        assert_eq!(
            schema["properties"]["to_move"]["$ref"],
            "#/components/schemas/TaraColour"
        );
        assert_eq!(
            schema["properties"]["seats"]["items"]["$ref"],
            "#/components/schemas/Seat"
        );
    }

    #[test]
    fn every_registered_game_has_its_four_root_schemas() {
        for kind in 0..4 {
            assert_eq!(root_names(kind).len(), GAME_IDS.len());
        }
    }

    /// The bounds a link's option is refused with are the ones the published schema states.
    fn option_bounds_match_the_schema<G: moot_games::Game>() {
        let schema = serde_json::to_value(<G::Options as utoipa::PartialSchema>::schema())
            .expect("a schema");
        let properties = schema["properties"]
            .as_object()
            .expect("options are an object");
        for (name, property) in properties {
            let stated = property["minimum"]
                .as_i64()
                .zip(property["maximum"].as_i64());
            assert_eq!(G::option_bounds(name), stated, "{} option {name}", G::ID);
        }
    }

    #[test]
    fn every_games_option_bounds_match_its_schema() {
        for id in GAME_IDS {
            moot_games::with_game!(*id, G => option_bounds_match_the_schema::<G>(), else unreachable!());
        }
    }
}
