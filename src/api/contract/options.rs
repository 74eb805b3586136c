//! Each game's options as a client needs them: every option declares its default (the value a
//! member left out takes), and the GET picture and animation operations, which read the
//! options from the query as `/play/{game}` links do, declare them as query parameters.
//!
//! Hirþ's option `target` (the points that win the match) and the picture flag `targets` (the
//! legal targets highlighted) keep their names: links already carry both, and a generated
//! client's parameters `target` and `targets` do not collide. Their descriptions tell them apart.

use serde_json::{Value, json};

use crate::api::schemas::game_roots;
use moot_games::Game;
use moot_games::with_game;

/// The GET operations that read a game's options from the query.
const LINK_OPERATIONS: [&str; 2] = ["picture", "animation"];

pub fn declare(document: &mut Value) {
    for (id, roots) in game_roots() {
        let options_schema = &roots[1];
        let Some(defaults) = with_game!(id, G => serde_json::to_value(<G as Game>::Options::default()).ok(), else None)
        else {
            continue;
        };
        let Some(properties) = super::schemas(document)
            .get_mut(options_schema)
            .and_then(|schema| schema.get_mut("properties"))
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        for (name, property) in properties.iter_mut() {
            if let Some(default) = defaults.get(name) {
                property["default"] = default.clone();
            }
        }
        let properties = properties.clone();
        for operation in LINK_OPERATIONS {
            let path = format!("/api/v1/games/{id}/{operation}");
            let Some(parameters) = document
                .pointer_mut(&format!(
                    "/paths/{}/get/parameters",
                    path.replace('/', "~1")
                ))
                .and_then(Value::as_array_mut)
            else {
                continue;
            };
            // The options first, as a link writes them, before `moves` and the picture's own.
            let options = properties.iter().map(|(name, property)| {
                let mut schema = property.clone();
                let description = schema
                    .as_object_mut()
                    .and_then(|schema| schema.remove("description"))
                    .and_then(|d| d.as_str().map(str::to_owned))
                    .unwrap_or_default();
                json!({
                    "name": name,
                    "in": "query",
                    "required": false,
                    "description": format!("The game's option `{name}`: {description}"),
                    "schema": schema,
                })
            });
            let picture_own = std::mem::take(parameters);
            parameters.extend(options);
            parameters.extend(picture_own);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_has_its_default_and_is_a_query_parameter_of_the_links() {
        let document = crate::contract();
        for (id, roots) in game_roots() {
            let options = &document["components"]["schemas"][&roots[1]]["properties"];
            for (name, property) in options.as_object().expect("options") {
                assert!(property.get("default").is_some(), "{id}: {name}");
                for operation in LINK_OPERATIONS {
                    let path = format!("/api/v1/games/{id}/{operation}");
                    let parameters = document["paths"][&path]["get"]["parameters"]
                        .as_array()
                        .expect("parameters");
                    assert!(
                        parameters
                            .iter()
                            .any(|p| p["name"] == *name && p["in"] == "query"),
                        "{path}: {name}"
                    );
                }
            }
        }
    }
}
