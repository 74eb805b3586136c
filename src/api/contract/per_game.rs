//! One path per game and operation, typed with the game's own schemas.
//!
//! The generic bodies that hold a game-dependent member (`ApplyRequest` holds a `GameState`,
//! `Ply` a `GameEvent`, and so on up to `EvaluateResponse`) are copied per game under the game's
//! prefix (`HerforApplyRequest`), with the unions replaced by the game's schema (`HerforState`)
//! and the shared `Status` by the game's (`HerforStatus`, whose colours are the game's). Each
//! copy carries an example played in that game. The games' listing becomes a union of the
//! games' own listings, discriminated by `id`.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use super::{notation, refs};
use crate::api::examples;
use crate::api::schemas::{game_roots, schema_prefix};
use moot_games::Game;
use moot_games::with_game;

/// The unions of every game's schemas, in the order of [`game_roots`]'s names.
const UNIONS: [&str; 4] = ["GameState", "GameOptions", "GameEvent", "GameScore"];
/// The shared status, specialised per game with the game's colours.
const STATUS: &str = "Status";
/// The listing of every game: stays one schema, a union of the games' listings.
const GAMES_RESPONSE: &str = "GamesResponse";
const GAME_LISTING: &str = "GameListing";

/// What the document needs to know of a game.
struct GameInfo {
    id: &'static str,
    name: &'static str,
    prefix: String,
    roots: [String; 4],
    /// The `version` every state of the game carries.
    version: Value,
}

fn games() -> Vec<GameInfo> {
    game_roots()
        .into_iter()
        .filter_map(|(id, roots)| {
            with_game!(id, G => {
                let state = G::new_game(&<G as Game>::Options::default()).ok()?;
                let version = serde_json::to_value(&state).ok()?.get("version").cloned()?;
                Some(GameInfo { id, name: G::NAME, prefix: schema_prefix(id), roots, version })
            }, else None)
        })
        .collect()
}

pub fn specialise(document: &mut Value) {
    let games = games();
    let dependent = dependents(super::schemas(document));
    let shared = held_by_shared_paths(document, &dependent);
    for game in &games {
        add_schemas(document, game, &dependent);
    }
    let listings: Vec<(String, String)> = games
        .iter()
        .map(|game| (game.id.to_owned(), format!("{}{GAME_LISTING}", game.prefix)))
        .collect();
    super::schemas(document).insert(GAME_LISTING.to_owned(), listing_union(&listings));
    add_paths(document, &games, &dependent);
    unite_by_game(super::schemas(document), &games, &shared);
    add_tags(document, &games);
}

/// The game-dependent schemas that paths without a `{game}` parameter hold (the tables': a
/// table names its game in its body), directly or through another.
fn held_by_shared_paths(document: &Value, dependent: &BTreeSet<String>) -> BTreeSet<String> {
    let mut held: BTreeSet<String> = document["paths"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(path, _)| !path.contains("{game}"))
        .flat_map(|(_, item)| refs::referenced(item))
        .collect();
    loop {
        let more: BTreeSet<String> = held
            .iter()
            .flat_map(|name| refs::referenced(&document["components"]["schemas"][name]))
            .filter(|name| !held.contains(name))
            .collect();
        if more.is_empty() {
            return held.intersection(dependent).cloned().collect();
        }
        held.extend(more);
    }
}

/// Makes each schema of `shared` that always has a `game` member a union of the games' copies,
/// told apart by `game` (each copy's `game` is its id), so a table is typed with its game's state
/// and options. The others (which hold such a union, or name their game only sometimes, as a
/// player's feed event does: a union needs its discriminator in every member) stay one schema,
/// with the first game's example.
fn unite_by_game(schemas: &mut Map<String, Value>, games: &[GameInfo], shared: &BTreeSet<String>) {
    for name in shared {
        let Some(generic) = schemas.get(name).cloned() else {
            continue;
        };
        let copies: Vec<(String, String)> = games
            .iter()
            .map(|game| (game.id.to_owned(), format!("{}{name}", game.prefix)))
            .collect();
        let first_example = copies
            .first()
            .and_then(|(_, copy)| schemas.get(copy))
            .and_then(|copy| copy.get("example"))
            .cloned();
        let names_its_game = generic["required"]
            .as_array()
            .is_some_and(|required| required.iter().any(|member| member == "game"));
        if !names_its_game {
            if let (Some(example), Some(schema)) = (first_example, schemas.get_mut(name)) {
                schema["example"] = example;
            }
            continue;
        }
        for (id, copy) in &copies {
            if let Some(schema) = schemas.get_mut(copy) {
                schema["properties"]["game"] = json!({
                    "type": "string",
                    "const": id,
                    "description": format!("The game's id: always `{id}`."),
                });
            }
        }
        let mapping: Map<String, Value> = copies
            .iter()
            .map(|(id, copy)| (id.clone(), refs::to(copy)["$ref"].clone()))
            .collect();
        let mut union = json!({
            "oneOf": copies.iter().map(|(_, copy)| refs::to(copy)).collect::<Vec<_>>(),
            "discriminator": {"propertyName": "game", "mapping": mapping},
        });
        if let Some(description) = generic.get("description") {
            union["description"] = description.clone();
        }
        if let Some(example) = first_example {
            union["example"] = example;
        }
        schemas.insert(name.clone(), union);
    }
}

/// The schemas that hold a game-dependent member, directly or through another.
fn dependents(schemas: &Map<String, Value>) -> BTreeSet<String> {
    let mut dependent: BTreeSet<String> = BTreeSet::new();
    loop {
        let before = dependent.len();
        for (name, schema) in schemas {
            if UNIONS.contains(&name.as_str()) || name == STATUS || name == GAMES_RESPONSE {
                continue;
            }
            let holds = refs::referenced(schema).iter().any(|target| {
                UNIONS.contains(&target.as_str()) || target == STATUS || dependent.contains(target)
            });
            if holds {
                dependent.insert(name.clone());
            }
        }
        if dependent.len() == before {
            return dependent;
        }
    }
}

/// The name a schema takes in `game`'s copies: the game's own for a union, the prefixed copy
/// for a dependent schema, none for the others (they are shared).
fn renamer<'a>(
    game: &'a GameInfo,
    dependent: &'a BTreeSet<String>,
) -> impl Fn(&str) -> Option<String> + 'a {
    move |name| {
        if let Some(kind) = UNIONS.iter().position(|union| *union == name) {
            Some(game.roots[kind].clone())
        } else if name == STATUS || dependent.contains(name) {
            Some(format!("{}{name}", game.prefix))
        } else {
            None
        }
    }
}

fn add_schemas(document: &mut Value, game: &GameInfo, dependent: &BTreeSet<String>) {
    let rename = renamer(game, dependent);
    let schemas = super::schemas(document);
    for name in dependent.iter().map(String::as_str).chain([STATUS]) {
        let Some(mut copy) = schemas.get(name).cloned() else {
            continue;
        };
        refs::rename(&mut copy, &rename);
        match examples::of_game(game.id, name) {
            Some(example) => copy["example"] = example,
            None => {
                if let Some(members) = copy.as_object_mut() {
                    members.remove("example");
                }
            }
        }
        if name == STATUS {
            colours_of(&mut copy, &format!("{}Colour", game.prefix), schemas);
        }
        if name == GAME_LISTING {
            copy["properties"]["id"] = json!({
                "type": "string",
                "const": game.id,
                "description": format!("The id used in the API's paths: always `{}`.", game.id),
            });
            copy["title"] = json!(format!("{}{GAME_LISTING}", game.prefix));
        }
        schemas.insert(rename(name).unwrap_or_else(|| name.to_owned()), copy);
    }
    if let Some(state) = schemas.get_mut(&game.roots[0]) {
        state["properties"]["version"] = json!({
            "type": "integer",
            "const": game.version,
            "description": format!("The version of the state's JSON form: {}.", game.version),
        });
    }
}

/// Types a status's `colour` and `winner_colour` with the game's colour schema, when it has one.
fn colours_of(status: &mut Value, colour: &str, schemas: &Map<String, Value>) {
    if !schemas.contains_key(colour) {
        return;
    }
    for variant in status["oneOf"].as_array_mut().into_iter().flatten() {
        for member in ["colour", "winner_colour"] {
            if let Some(property) = variant
                .get_mut("properties")
                .and_then(|properties| properties.get_mut(member))
            {
                let mut typed = refs::to(colour);
                if let Some(description) = property.get("description") {
                    typed["description"] = description.clone();
                }
                *property = typed;
            }
        }
    }
}

fn listing_union(listings: &[(String, String)]) -> Value {
    let mapping: Map<String, Value> = listings
        .iter()
        .map(|(id, name)| (id.clone(), refs::to(name)["$ref"].clone()))
        .collect();
    json!({
        "description": "One game: its id in URLs, its name, and its options; `id` tells which.",
        "oneOf": listings.iter().map(|(_, name)| refs::to(name)).collect::<Vec<_>>(),
        "discriminator": {"propertyName": "id", "mapping": mapping},
    })
}

/// Replaces each path with a `{game}` parameter by one path per game.
fn add_paths(document: &mut Value, games: &[GameInfo], dependent: &BTreeSet<String>) {
    let Some(paths) = document["paths"].as_object_mut() else {
        return;
    };
    let generic: Vec<String> = paths
        .keys()
        .filter(|path| path.contains("{game}"))
        .cloned()
        .collect();
    for path in generic {
        let Some(item) = paths.remove(&path) else {
            continue;
        };
        for game in games {
            let mut concrete = item.clone();
            for operation in concrete
                .as_object_mut()
                .into_iter()
                .flat_map(|item| item.values_mut())
            {
                specialise_operation(operation, game);
            }
            refs::rename(&mut concrete, &renamer(game, dependent));
            paths.insert(path.replace("{game}", game.id), concrete);
        }
    }
}

fn specialise_operation(operation: &mut Value, game: &GameInfo) {
    if let Some(id) = operation["operationId"].as_str() {
        operation["operationId"] = json!(format!("{}_{id}", game.id));
    }
    operation["tags"] = json!([game.id]);
    if let Some(parameters) = operation
        .get_mut("parameters")
        .and_then(Value::as_array_mut)
    {
        parameters.retain(|parameter| parameter["name"] != "game");
        if parameters.is_empty()
            && let Some(members) = operation.as_object_mut()
        {
            members.remove("parameters");
        }
    }
    if let Some(summary) = operation["summary"].as_str() {
        operation["summary"] = json!(format!("{}: {summary}", game.name));
    }
    let plays = ["apply", "legal_moves", "replay"]
        .iter()
        .any(|op| operation["operationId"] == format!("{}_{op}", game.id));
    if plays {
        operation["description"] = json!(notation::of(game.id));
    }
}

fn add_tags(document: &mut Value, games: &[GameInfo]) {
    let tags: Vec<Value> = document["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .cloned()
        .chain(games.iter().map(|game| {
            json!({
                "name": game.id,
                "description": format!(
                    "{}: start, list legal moves, apply moves, score, replay, evaluate. Rules: `/rules/{}`.\n\n{}",
                    game.name, game.id, notation::of(game.id)
                ),
            })
        }))
        .collect();
    document["tags"] = Value::Array(tags);
}
