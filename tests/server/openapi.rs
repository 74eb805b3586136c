//! The OpenAPI document: the committed `openapi/openapi.json` is what the code generates, every
//! request and response body has an example, and the game-dependent members list every game.
//!
//! After changing the API, regenerate the committed file with
//! `MOOT_WRITE_OPENAPI=1 cargo test --test server openapi::`.

use std::collections::BTreeMap;
use std::path::Path;

use moot::games::{GAME_IDS, Game};
use serde_json::Value;
use utoipa::ToSchema;

const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");

fn generated() -> String {
    serde_json::to_string_pretty(moot::contract()).expect("the document serialises") + "\n"
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
        "openapi/openapi.json is stale: regenerate it with `MOOT_WRITE_OPENAPI=1 cargo test --test server openapi::` and commit it"
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
        "HerforApplyRequest",
        "TaraApplyResponse",
        "GamesResponse",
        "Problem",
        "HirthReplayRequest",
        "HerforStateRequest",
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
    // The request examples were computed by playing each game; they must still be valid requests.
    let document = document();
    let schemas = &document["components"]["schemas"];
    let cases = [
        ("NewGameRequest", "new"),
        ("StateRequest", "legal-moves"),
        ("ApplyRequest", "apply"),
        ("StateRequest", "score"),
        ("ReplayRequest", "replay"),
        ("EvaluateRequest", "evaluate"),
    ];
    actix_web::rt::System::new().block_on(async {
        let app = actix_web::test::init_service(moot::app()).await;
        for id in GAME_IDS {
            let prefix = moot::api::schemas::schema_prefix(id);
            for (schema, operation) in cases {
                let example = &schemas[format!("{prefix}{schema}")]["example"];
                assert!(example.is_object(), "{prefix}{schema} has an example");
                let request = actix_web::test::TestRequest::post()
                    .uri(&format!("/api/v1/games/{id}/{operation}"))
                    .set_json(example)
                    .to_request();
                let response = actix_web::test::call_service(&app, request).await;
                assert_eq!(
                    response.status(),
                    200,
                    "{prefix}{schema} example on {operation}"
                );
            }
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

fn target(reference: &Value) -> &str {
    reference["$ref"]
        .as_str()
        .unwrap_or_else(|| panic!("a reference: {reference}"))
        .trim_start_matches("#/components/schemas/")
}

/// Each game's paths carry that game's own state, options, event and score schemas, and no
/// union of every game's schemas is left.
#[test]
fn each_games_paths_are_typed_with_its_own_schemas() {
    let document = document();
    let schemas = &document["components"]["schemas"];
    for id in GAME_IDS {
        let prefix = moot::api::schemas::schema_prefix(id);
        let post =
            |operation: &str| &document["paths"][format!("/api/v1/games/{id}/{operation}")]["post"];
        let body = |operation: &str| {
            target(&post(operation)["requestBody"]["content"]["application/json"]["schema"])
                .to_owned()
        };
        let answer = |operation: &str| {
            target(&post(operation)["responses"]["200"]["content"]["application/json"]["schema"])
                .to_owned()
        };
        assert_eq!(body("apply"), format!("{prefix}ApplyRequest"));
        assert_eq!(answer("apply"), format!("{prefix}ApplyResponse"));
        assert_eq!(post("apply")["operationId"], format!("{id}_apply"));
        assert_eq!(post("apply")["tags"], serde_json::json!([id]));
        assert!(
            post("apply")["parameters"].is_null(),
            "no {{game}} parameter left"
        );
        let raw = raw_schemas(id, false);
        let members = [
            (&schemas[body("apply")]["properties"]["state"], 0),
            (
                &schemas[body("new")]["properties"]["options"]["oneOf"][0],
                1,
            ),
            (
                &schemas[format!("{prefix}Ply")]["properties"]["events"]["items"],
                2,
            ),
            (&schemas[answer("score")]["properties"]["score"], 3),
        ];
        for (member, kind) in members {
            let name = target(member);
            assert!(
                name.ends_with(raw[kind].0.as_str()),
                "{id}: {name} is its {}",
                raw[kind].0
            );
            assert_eq!(shape(&schemas[name]), shape(&raw[kind].1), "{id}: {name}");
        }
        let status = target(&schemas[answer("legal-moves")]["properties"]["status"]);
        assert_eq!(status, format!("{prefix}Status"));
        let version = &schemas[target(&schemas[body("apply")]["properties"]["state"])]["properties"]
            ["version"];
        assert_eq!(version["const"], 1, "{id}: version is const 1");
    }
    for union in [
        "GameState",
        "GameOptions",
        "GameEvent",
        "GameScore",
        "ApplyRequest",
        "Status",
    ] {
        assert!(schemas[union].is_null(), "{union} is not published");
    }
    assert!(
        document["paths"]
            .as_object()
            .unwrap()
            .keys()
            .all(|path| !path.contains("{game}")),
        "every game's path is concrete"
    );
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
            if shape(&earlier) == shape(&schema) || other == *id {
                continue;
            }
            for (game, expected) in [(other.as_str(), &earlier), (id, &schema)] {
                let prefixed = format!("{}{name}", moot::api::schemas::schema_prefix(game));
                if schemas[&prefixed].is_null() {
                    continue; // a tagged union's variant, published under its own names
                }
                assert_eq!(shape(&schemas[&prefixed]), shape(expected), "{prefixed}");
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

/// What a schema holds, independent of names, descriptions and ranges: its members (at any
/// depth) and its enumerated values.
fn shape(schema: &Value) -> Value {
    match schema {
        Value::Object(members) => Value::Object(
            members
                .iter()
                .filter(|(k, _)| {
                    matches!(
                        k.as_str(),
                        "properties" | "items" | "enum" | "required" | "additionalProperties"
                    ) || members.contains_key("properties")
                        && members["properties"].get(k.as_str()).is_some()
                })
                .map(|(k, v)| {
                    let v = if k == "properties" {
                        Value::Array(
                            v.as_object()
                                .unwrap()
                                .keys()
                                .map(|k| Value::String(k.clone()))
                                .collect(),
                        )
                    } else {
                        shape(v)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(shape).collect()),
        other => other.clone(),
    }
}

/// Every union says how to tell its variants apart (a discriminator), except a member that may
/// be `null` (`oneOf` a schema and `null`); every variant has a name.
#[test]
fn every_union_has_a_discriminator_and_named_variants() {
    fn walk(value: &Value, at: &str) {
        let Value::Object(members) = value else {
            if let Value::Array(items) = value {
                items.iter().for_each(|item| walk(item, at));
            }
            return;
        };
        if let Some(Value::Array(variants)) = members.get("oneOf") {
            let nullable = variants.len() == 2 && variants.iter().any(|v| v["type"] == "null");
            let named = variants
                .iter()
                .all(|v| v["$ref"].is_string() || v["title"].is_string());
            assert!(
                nullable
                    || members.contains_key("discriminator")
                    || named && variants.iter().all(|v| v["$ref"].is_null()),
                "{at}: a union without a discriminator"
            );
            assert!(nullable || named, "{at}: a union with unnamed variants");
        }
        for (key, value) in members {
            walk(value, &format!("{at}/{key}"));
        }
    }
    let document = document();
    walk(&document, "");
    assert_eq!(
        document["components"]["schemas"]["HerforEvent"]["discriminator"]["propertyName"],
        "type"
    );
    assert_eq!(
        document["components"]["schemas"]["GameListing"]["discriminator"]["propertyName"],
        "id"
    );
}

#[test]
fn every_error_status_is_declared_with_the_problem_schema() {
    let document = document();
    for (path, item) in document["paths"].as_object().unwrap() {
        if !path.starts_with("/api/") {
            continue;
        }
        for (method, operation) in item.as_object().unwrap() {
            let responses = operation["responses"].as_object().unwrap();
            assert!(
                !responses.contains_key("4XX"),
                "{method} {path}: a blanket 4XX"
            );
            let expected: &[&str] = if method == "post" {
                &["400", "413", "415", "422", "500"]
            } else {
                &["500"]
            };
            for status in expected {
                let schema = &responses[*status]["content"]["application/problem+json"]["schema"];
                assert_eq!(target(schema), "Problem", "{method} {path} {status}");
            }
        }
    }
}

#[test]
fn descriptions_hold_no_rust_doc_links() {
    let text = generated();
    assert!(!text.contains("[`"), "a Rust doc link in the document");
}

#[test]
fn hirth_notation_is_documented_with_examples() {
    let document = document();
    let apply = &document["paths"]["/api/v1/games/hirth/apply"]["post"]["description"];
    let text = apply.as_str().expect("hirth_apply describes the notation");
    for example in [
        "`He`",
        "`L13`",
        "`L1>3`",
        "`H3i`",
        "`Hr3`",
        "[Kii]",
        "`He>0`",
        "`end >6Lm`",
        "^",
        "`offer`",
        "`accept`",
        "`give-up`",
        "`retreat 8`",
    ] {
        assert!(text.contains(example), "{example} in {text}");
    }
}

#[test]
fn evaluate_documents_its_strength_seed_budgets_501_and_503() {
    let document = document();
    let schemas = &document["components"]["schemas"];
    let request = &schemas["HerforEvaluateRequest"];
    let strength = &schemas[target(&request["properties"]["strength"]["oneOf"][0])];
    // The play pages' strengths, and `perfect` (the proven answer, where a game is solved).
    let mut names: Vec<&str> = moot::ai::Strength::ALL.map(|s| s.name()).to_vec();
    names.push(moot::api::analysis::PERFECT);
    assert_eq!(strength["enum"], serde_json::json!(names));
    assert_eq!(
        request["properties"]["seed"]["maximum"],
        9_007_199_254_740_991_u64
    );
    assert!(request["not"]["anyOf"].is_array(), "at most one budget");
    let responses = &document["paths"]["/api/v1/games/herfor/evaluate"]["post"]["responses"];
    assert!(
        responses["501"]["description"]
            .as_str()
            .unwrap()
            .contains("evaluate_off")
    );
    assert!(responses["503"]["headers"]["Retry-After"].is_object());
}

/// utoipa never writes `null` for a member of the document; a pass that did (indexing a missing
/// member mutably) breaks generators. Examples may hold `null`s: they are data.
#[test]
fn no_member_of_the_document_is_null() {
    fn walk(value: &Value, at: &str) {
        match value {
            Value::Null => panic!("{at} is null"),
            Value::Object(members) => members
                .iter()
                .filter(|(key, _)| *key != "example" && *key != "default")
                .for_each(|(key, value)| walk(value, &format!("{at}/{key}"))),
            Value::Array(items) => items.iter().for_each(|item| walk(item, at)),
            _ => {}
        }
    }
    walk(&document(), "");
}

/// What openapi-generator 7 refuses or stops on: a license with neither `identifier` nor
/// `url` (its validation), `{"type": "null"}` inside `not` (its Python generator); and image
/// answers without a schema, which generated clients read as JSON or text.
#[test]
fn the_document_is_one_openapi_generator_reads() {
    let document = document();
    assert_eq!(document["info"]["license"]["identifier"], "MIT");
    fn no_null_inside(value: &Value, at: &str, inside_not: bool) {
        match value {
            Value::Object(members) => {
                assert!(
                    !(inside_not && members.get("type") == Some(&Value::from("null"))),
                    "{{\"type\": \"null\"}} inside `not` at {at}"
                );
                for (key, member) in members {
                    no_null_inside(member, &format!("{at}/{key}"), inside_not || key == "not");
                }
            }
            Value::Array(items) => items
                .iter()
                .for_each(|item| no_null_inside(item, at, inside_not)),
            _ => {}
        }
    }
    no_null_inside(&document, "", false);
    let mut images = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        for operation in item.as_object().unwrap().values() {
            let answer = &operation["responses"]["200"]["content"];
            for (media_type, content) in answer.as_object().into_iter().flatten() {
                if media_type.starts_with("image/") {
                    images += 1;
                    assert_eq!(
                        content["schema"],
                        serde_json::json!({"type": "string", "format": "binary"}),
                        "{path} {media_type}"
                    );
                }
            }
        }
    }
    assert_eq!(
        images,
        3 * 6,
        "png and svg for two pictures, apng and png for animations, per game"
    );
}
