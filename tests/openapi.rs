//! The OpenAPI document: the committed `openapi/openapi.json` is what the code generates, every
//! request and response body has an example, and the game-dependent members list every game.
//!
//! After changing the API, regenerate the committed file with
//! `MOOT_WRITE_OPENAPI=1 cargo test --test openapi`.

use std::collections::BTreeMap;
use std::path::Path;

use moot::games::{GAME_IDS, Game};
use serde_json::Value;
use utoipa::ToSchema;

const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");

fn generated() -> String {
    moot::openapi()
        .to_pretty_json()
        .expect("the document serialises")
        + "\n"
}

fn document() -> Value {
    serde_json::from_str(&generated()).unwrap()
}

#[test]
fn committed_openapi_json_is_what_the_code_generates() {
    let generated = generated();
    if std::env::var_os("MOOT_WRITE_OPENAPI").is_some() {
        std::fs::write(COMMITTED, &generated).expect("openapi/openapi.json is writable");
    }
    let committed = std::fs::read_to_string(Path::new(COMMITTED)).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: regenerate it with `MOOT_WRITE_OPENAPI=1 cargo test --test openapi` and commit it"
    );
}

#[test]
fn served_document_is_the_generated_one() {
    let served = actix_web::rt::System::new().block_on(async {
        let app = actix_web::test::init_service(moot::app()).await;
        let request = actix_web::test::TestRequest::get()
            .uri("/api-docs/openapi.json")
            .to_request();
        actix_web::test::call_and_read_body_json::<_, _, Value>(&app, request).await
    });
    assert_eq!(served, document());
}

/// The schema names of every request and response body, by `$ref`.
fn body_schemas(document: &Value) -> Vec<String> {
    let mut names = Vec::new();
    for item in document["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            let bodies = operation["requestBody"]["content"]
                .as_object()
                .into_iter()
                .flatten()
                .chain(
                    operation["responses"]
                        .as_object()
                        .unwrap()
                        .values()
                        .flat_map(|r| r["content"].as_object().into_iter().flatten()),
                );
            // JSON bodies only: a picture (`image/png`, `image/svg+xml`) has no schema to name.
            for (_, content) in bodies.filter(|(media, _)| media.contains("json")) {
                let schema = &content["schema"];
                let reference = schema["$ref"]
                    .as_str()
                    .or_else(|| schema["oneOf"][0]["$ref"].as_str());
                names.push(
                    reference
                        .expect("bodies are named schemas")
                        .trim_start_matches("#/components/schemas/")
                        .to_owned(),
                );
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

#[test]
fn every_request_and_response_schema_has_an_example() {
    let document = document();
    let names = body_schemas(&document);
    for expected in [
        "ApplyRequest",
        "ApplyResponse",
        "GamesResponse",
        "Problem",
        "ReplayRequest",
        "StateRequest",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} is a body: {names:?}"
        );
    }
    for name in &names {
        let example = &document["components"]["schemas"][name]["example"];
        assert!(example.is_object(), "{name} has no example");
    }
}

#[test]
fn examples_are_accepted_by_the_api() {
    // The request examples were computed by playing; they must still be valid requests.
    let document = document();
    let schemas = &document["components"]["schemas"];
    let first = GAME_IDS[0];
    let cases = [
        ("NewGameRequest", "new"),
        ("StateRequest", "legal-moves"),
        ("ApplyRequest", "apply"),
        ("StateRequest", "score"),
        ("ReplayRequest", "replay"),
    ];
    actix_web::rt::System::new().block_on(async {
        let app = actix_web::test::init_service(moot::app()).await;
        for (schema, operation) in cases {
            let request = actix_web::test::TestRequest::post()
                .uri(&format!("/api/v1/games/{first}/{operation}"))
                .set_json(&schemas[schema]["example"])
                .to_request();
            let response = actix_web::test::call_service(&app, request).await;
            assert_eq!(response.status(), 200, "{schema} example on {operation}");
        }
    });
}

fn schema_of<T: ToSchema>(out: &mut Vec<(String, Value)>, with_dependencies: bool) {
    out.push((
        T::name().into_owned(),
        serde_json::to_value(T::schema()).unwrap(),
    ));
    if with_dependencies {
        let mut dependencies = Vec::new();
        T::schemas(&mut dependencies);
        out.extend(
            dependencies
                .into_iter()
                .map(|(name, schema)| (name, serde_json::to_value(schema).unwrap())),
        );
    }
}

/// A game's schemas as the engine declares them (name, JSON): its State, Options, Event and
/// Score, in that order, then (with `with_dependencies`) everything they refer to.
fn raw_schemas(id: &str, with_dependencies: bool) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    moot::with_game!(id, G => {
        schema_of::<<G as Game>::State>(&mut out, false);
        schema_of::<<G as Game>::Options>(&mut out, false);
        schema_of::<<G as Game>::Event>(&mut out, false);
        schema_of::<<G as Game>::Score>(&mut out, false);
        if with_dependencies {
            schema_of::<<G as Game>::State>(&mut out, true);
            schema_of::<<G as Game>::Options>(&mut out, true);
            schema_of::<<G as Game>::Event>(&mut out, true);
            schema_of::<<G as Game>::Score>(&mut out, true);
        }
    }, else unreachable!());
    out
}

#[test]
fn game_dependent_members_are_one_of_every_games_schemas() {
    let document = document();
    let schemas = &document["components"]["schemas"];
    for (kind, union) in ["GameState", "GameOptions", "GameEvent", "GameScore"]
        .into_iter()
        .enumerate()
    {
        let listed: Vec<&str> = schemas[union]["oneOf"]
            .as_array()
            .unwrap_or_else(|| panic!("{union} is a oneOf"))
            .iter()
            .map(|r| {
                r["$ref"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("#/components/schemas/")
            })
            .collect();
        assert_eq!(listed.len(), GAME_IDS.len(), "{union}");
        for (id, name) in GAME_IDS.iter().zip(&listed) {
            // The member is the engine's own schema (its name may carry the game's prefix).
            let (raw_name, raw_schema) = &raw_schemas(id, false)[kind];
            assert!(
                name.ends_with(raw_name.as_str()),
                "{union}: {id}'s {raw_name} is listed as {name}"
            );
            assert_eq!(
                strip_refs(&schemas[*name]),
                strip_refs(raw_schema),
                "{union}: {id}"
            );
        }
    }
}

/// Two games may name different schemas alike (`Colour`): the document keeps both, each under
/// the game's prefix (`TaraColour`), so neither overwrites the other.
#[test]
fn schema_names_two_games_use_differently_are_prefixed_with_the_game() {
    let document = document();
    let schemas = &document["components"]["schemas"];
    let mut first_seen: BTreeMap<String, (String, Value)> = BTreeMap::new();
    for id in GAME_IDS {
        for (name, schema) in raw_schemas(id, true) {
            let Some((other, earlier)) = first_seen.get(&name).cloned() else {
                first_seen.insert(name, (id.to_string(), schema));
                continue;
            };
            if strip_refs(&earlier) == strip_refs(&schema) || other == *id {
                continue;
            }
            for (game, expected) in [(other.as_str(), &earlier), (id, &schema)] {
                let prefixed = format!("{}{name}", moot::api::schemas::schema_prefix(game));
                assert_eq!(
                    strip_refs(&schemas[&prefixed]),
                    strip_refs(expected),
                    "{prefixed}"
                );
            }
        }
    }
}

#[test]
fn every_reference_in_the_document_resolves() {
    fn walk(value: &Value, schemas: &Value) {
        match value {
            Value::Object(members) => {
                if let Some(Value::String(target)) = members.get("$ref") {
                    let name = target.trim_start_matches("#/components/schemas/");
                    assert!(schemas[name].is_object(), "dangling reference {target}");
                }
                members.values().for_each(|v| walk(v, schemas));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, schemas)),
            _ => {}
        }
    }
    let document = document();
    walk(&document, &document["components"]["schemas"]);
}

/// A schema with every `$ref` reduced to a marker, to compare content across renamings.
fn strip_refs(schema: &Value) -> Value {
    match schema {
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        if k == "$ref" {
                            Value::Null
                        } else {
                            strip_refs(v)
                        },
                    )
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(strip_refs).collect()),
        other => other.clone(),
    }
}

#[test]
fn evaluate_documents_its_strength_names_its_501_and_its_503() {
    let document = document();
    let strength = &document["components"]["schemas"]["EvaluateRequest"]["properties"]["strength"];
    let pattern = strength["pattern"]
        .as_str()
        .expect("a pattern for strength");
    for name in moot::ai::Strength::ALL.map(|s| s.name()) {
        assert!(pattern.contains(name), "{name} in {pattern}");
    }
    let responses = &document["paths"]["/api/v1/games/{game}/evaluate"]["post"]["responses"];
    assert!(
        responses["501"]["description"]
            .as_str()
            .unwrap()
            .contains("evaluate_off")
    );
    assert!(responses["503"]["headers"]["Retry-After"].is_object());
}
