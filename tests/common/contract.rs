//! The contract check: every answer the HTTP test suites get on a documented operation is
//! validated against the schema the served document declares for its path, method and status.
//!
//! The document's schemas are JSON Schema 2020-12 (OpenAPI 3.1); each body schema is compiled
//! with every component under `$defs`, references rewritten to point there, once per
//! (path, method, status).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::{Map, Value, json};

const COMPONENTS: &str = "#/components/schemas/";

/// Why an answer breaks the contract, or `Ok` (also for paths and methods the document does not
/// describe: pages, unknown routes).
pub fn check(
    method: &str,
    path: &str,
    status: u16,
    content_type: &str,
    body: &Value,
) -> Result<(), String> {
    let document = moot::contract();
    let Some(operation) = document["paths"]
        .get(path)
        .and_then(|item| item.get(method.to_ascii_lowercase()))
    else {
        return Ok(());
    };
    let responses = &operation["responses"];
    let Some(response) = responses.get(status.to_string()) else {
        return Err(format!("{method} {path}: status {status} is not declared"));
    };
    let media = content_type.split(';').next().unwrap_or_default().trim();
    let Some(schema) = response["content"]
        .get(media)
        .map(|content| &content["schema"])
    else {
        return Err(format!(
            "{method} {path} {status}: {media:?} is not a declared content type"
        ));
    };
    let validator = validator(&format!("{method} {path} {status} {media}"), schema)?;
    let errors: Vec<String> = validator
        .iter_errors(body)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{method} {path} {status}: the body breaks the schema:\n  {}",
            errors.join("\n  ")
        ))
    }
}

/// The compiled schema of one response, cached.
fn validator(key: &str, schema: &Value) -> Result<Arc<jsonschema::Validator>, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<jsonschema::Validator>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(validator) = cache.lock().unwrap().get(key) {
        return Ok(validator.clone());
    }
    let validator = Arc::new(compile(schema)?);
    cache
        .lock()
        .unwrap()
        .insert(key.to_owned(), validator.clone());
    Ok(validator)
}

/// A standalone JSON Schema for `schema`, a schema of the served document.
pub fn compile(schema: &Value) -> Result<jsonschema::Validator, String> {
    let mut defs = moot::contract()["components"]["schemas"].clone();
    to_defs(&mut defs);
    let mut root = schema.clone();
    to_defs(&mut root);
    let standalone = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "allOf": [root],
        "$defs": defs,
    });
    jsonschema::validator_for(&standalone).map_err(|e| format!("the schema does not compile: {e}"))
}

fn to_defs(json: &mut Value) {
    match json {
        Value::Object(members) => {
            for (key, value) in members.iter_mut() {
                match value {
                    Value::String(target) if key == "$ref" => {
                        if let Some(name) = target.strip_prefix(COMPONENTS) {
                            *target = format!("#/$defs/{name}");
                        }
                    }
                    _ => to_defs(value),
                }
            }
            // OpenAPI's annotations that JSON Schema does not know; `discriminator` only
            // guides generators (the `oneOf` does the validating).
            strip(members);
        }
        Value::Array(items) => items.iter_mut().for_each(to_defs),
        _ => {}
    }
}

fn strip(members: &mut Map<String, Value>) {
    members.remove("discriminator");
}
