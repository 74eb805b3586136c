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
            for (_, content) in bodies {
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

#[test]
fn game_dependent_members_are_one_of_every_games_schemas() {
    let document = document();
    let schemas = &document["components"]["schemas"];
    for (union, names) in [
        (
            "GameState",
            game_schema_names(
                |id| moot::with_game!(id, G => <<G as Game>::State as ToSchema>::name().into_owned(), else unreachable!()),
            ),
        ),
        (
            "GameOptions",
            game_schema_names(
                |id| moot::with_game!(id, G => <<G as Game>::Options as ToSchema>::name().into_owned(), else unreachable!()),
            ),
        ),
        (
            "GameScore",
            game_schema_names(
                |id| moot::with_game!(id, G => <<G as Game>::Score as ToSchema>::name().into_owned(), else unreachable!()),
            ),
        ),
        (
            "GameEvent",
            game_schema_names(
                |id| moot::with_game!(id, G => <<G as Game>::Event as ToSchema>::name().into_owned(), else unreachable!()),
            ),
        ),
    ] {
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
        assert_eq!(listed, names, "{union}");
        for name in names {
            assert!(schemas[&name].is_object(), "{name} is in the components");
        }
    }
}

fn game_schema_names(name: impl Fn(&str) -> String) -> Vec<String> {
    GAME_IDS.iter().map(|id| name(id)).collect()
}

/// Two games naming different schemas alike would silently overwrite one in the document.
#[test]
fn games_do_not_share_schema_names_for_different_schemas() {
    let mut seen: BTreeMap<String, (String, Value)> = BTreeMap::new();
    for id in GAME_IDS {
        let mut schemas: Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )> = Vec::new();
        moot::with_game!(*id, G => {
            type S = <G as Game>::State;
            type O = <G as Game>::Options;
            type C = <G as Game>::Score;
            type E = <G as Game>::Event;
            schemas.push((<S as ToSchema>::name().into_owned(), <S as utoipa::PartialSchema>::schema()));
            <S as ToSchema>::schemas(&mut schemas);
            schemas.push((<O as ToSchema>::name().into_owned(), <O as utoipa::PartialSchema>::schema()));
            <O as ToSchema>::schemas(&mut schemas);
            schemas.push((<C as ToSchema>::name().into_owned(), <C as utoipa::PartialSchema>::schema()));
            <C as ToSchema>::schemas(&mut schemas);
            schemas.push((<E as ToSchema>::name().into_owned(), <E as utoipa::PartialSchema>::schema()));
            <E as ToSchema>::schemas(&mut schemas);
        }, else unreachable!());
        for (name, schema) in schemas {
            let schema = serde_json::to_value(schema).unwrap();
            if let Some((other, earlier)) = seen.get(&name) {
                assert!(
                    other == id || earlier == &schema,
                    "{id} and {other} both name a different schema {name:?}: give one `#[schema(as = …)]`"
                );
            }
            seen.insert(name, (id.to_string(), schema));
        }
    }
}
