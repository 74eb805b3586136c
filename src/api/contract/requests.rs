//! Request bodies described exactly as the server reads them, where utoipa's derive cannot say
//! it: `evaluate` takes at most one budget, and `new`'s body may be left out but is never `null`.

use serde_json::{Value, json};

use crate::compute::AiConfig;

pub fn tighten(document: &mut Value) {
    one_budget_at_most(document);
    exactly_one(document, "ApplyRequest", ["move", "moves"]);
    exactly_one(document, "ReplayRequest", ["moves", "record"]);
    default_caps(document);
    optional_bodies(document);
}

/// The budget members of `EvaluateRequest`, of which a request sends one at most.
pub const BUDGETS: [&str; 3] = ["playouts", "millis", "strength"];

/// Neither member sent (or both `null`), or both sent: the server refuses either. Said with
/// `not`, which generators ignore, so the body stays one plain type for clients. A member
/// "sent" is one of its own type, not `null`: said with that type rather than with
/// `{"type": "null"}`, which openapi-generator cannot read inside `not` (its Python generator
/// stops on it).
fn exactly_one(document: &mut Value, schema_name: &str, [first, second]: [&str; 2]) {
    let schemas = super::schemas(document);
    let Some(schema) = schemas.get(schema_name) else {
        return;
    };
    let (Some(first_sent), Some(second_sent)) = (
        sent(schemas, &schema["properties"][first]),
        sent(schemas, &schema["properties"][second]),
    ) else {
        return;
    };
    let neither = json!({"properties": {
        first: {"not": first_sent}, second: {"not": second_sent},
    }});
    let both = json!({
        "required": [first, second],
        "properties": {first: first_sent, second: second_sent},
    });
    if let Some(schema) = schemas.get_mut(schema_name) {
        schema["not"] = json!({ "anyOf": [neither, both] });
    }
}

/// `EvaluateRequest` is refused when two budgets are sent (a `null` member counts as absent,
/// as the server reads it).
fn one_budget_at_most(document: &mut Value) {
    let schemas = super::schemas(document);
    let Some(schema) = schemas.get("EvaluateRequest") else {
        return;
    };
    let mut pairs = Vec::new();
    for (i, first) in BUDGETS.iter().enumerate() {
        for second in &BUDGETS[i + 1..] {
            let (Some(first_sent), Some(second_sent)) = (
                sent(schemas, &schema["properties"][*first]),
                sent(schemas, &schema["properties"][*second]),
            ) else {
                continue;
            };
            pairs.push(json!({
                "required": [first, second],
                "properties": {*first: first_sent, *second: second_sent},
            }));
        }
    }
    if let Some(schema) = schemas.get_mut("EvaluateRequest") {
        schema["not"] = json!({ "anyOf": pairs });
    }
}

/// What a member that may be `null` is when it is sent: `{"type": T}` of its non-null type
/// (`["string", "null"]` → `string`; `oneOf [StrengthName, null]` → `StrengthName`'s type).
fn sent(schemas: &serde_json::Map<String, Value>, member: &Value) -> Option<Value> {
    let of_type = |schema: &Value| -> Option<Value> {
        let schema = match schema["$ref"].as_str() {
            Some(reference) => schemas.get(reference.rsplit('/').next()?)?,
            None => schema,
        };
        match &schema["type"] {
            Value::String(name) if name != "null" => Some(json!({ "type": name })),
            Value::Array(names) => {
                let names: Vec<&Value> = names.iter().filter(|n| *n != "null").collect();
                (names.len() == 1).then(|| json!({ "type": names[0] }))
            }
            _ => None,
        }
    };
    of_type(member).or_else(|| {
        ["oneOf", "anyOf"]
            .iter()
            .filter_map(|union| member[*union].as_array())
            .flatten()
            .filter(|variant| **variant != json!({"type": "null"}))
            .find_map(of_type)
    })
}

/// `playouts` and `millis` up to the caps of a server started with the default limits.
fn default_caps(document: &mut Value) {
    let defaults = AiConfig::default();
    let Some(schema) = super::schemas(document)
        .get_mut("EvaluateRequest")
        .and_then(|request| request.get_mut("properties"))
    else {
        return;
    };
    for (member, cap, flag) in [
        (
            "playouts",
            u64::from(defaults.max_playouts),
            "--max-playouts",
        ),
        ("millis", defaults.max_millis, "--max-millis"),
    ] {
        if schema[member].is_object() {
            schema[member]["maximum"] = json!(cap);
            let description = schema[member]["description"].as_str().unwrap_or_default();
            schema[member]["description"] = json!(format!(
                "{description} The maximum is the default cap; a server started with `{flag}` \
                 has its own (a budget over it is refused with 422 `budget_too_large`)."
            ));
        }
    }
}

/// A request body declared `oneOf [X, null]` (utoipa's `Option<X>`) is an optional body of
/// schema `X`: the server reads an empty body as `{}` and refuses a `null` one.
fn optional_bodies(document: &mut Value) {
    let Some(paths) = document["paths"].as_object_mut() else {
        return;
    };
    for operation in paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
    {
        let Some(body) = operation.get_mut("requestBody") else {
            continue;
        };
        let Some(contents) = body.get_mut("content").and_then(Value::as_object_mut) else {
            continue;
        };
        let mut optional = false;
        for content in contents.values_mut() {
            let schema = &mut content["schema"];
            let Some([first, second]) = schema["oneOf"]
                .as_array()
                .map(Vec::as_slice)
                .and_then(|items| <&[Value; 2]>::try_from(items).ok())
                .cloned()
            else {
                continue;
            };
            if second == json!({"type": "null"}) && first.get("$ref").is_some() {
                *schema = first;
                optional = true;
            }
        }
        if optional {
            body["required"] = json!(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_one_is_said_with_the_members_types_not_null() {
        let mut document = json!({"components": {"schemas": {"ApplyRequest": {
            "type": "object",
            "properties": {
                "move": {"type": ["string", "null"]},
                "moves": {"type": ["array", "null"], "items": {"type": "string"}}}}}}});
        tighten(&mut document);
        let not = &document["components"]["schemas"]["ApplyRequest"]["not"];
        assert_eq!(
            not,
            &json!({"anyOf": [
                {"properties": {"move": {"not": {"type": "string"}}, "moves": {"not": {"type": "array"}}}},
                {"required": ["move", "moves"],
                 "properties": {"move": {"type": "string"}, "moves": {"type": "array"}}}]})
        );
    }

    #[test]
    fn an_optional_body_loses_its_null() {
        let mut document = json!({"paths": {"/new": {"post": {"requestBody": {"content": {
            "application/json": {"schema": {"oneOf": [
                {"$ref": "#/components/schemas/NewGameRequest"}, {"type": "null"}]}}}}}}},
            "components": {"schemas": {}}});
        tighten(&mut document);
        let body = &document["paths"]["/new"]["post"]["requestBody"];
        assert_eq!(body["required"], false);
        assert_eq!(
            body["content"]["application/json"]["schema"],
            json!({"$ref": "#/components/schemas/NewGameRequest"})
        );
    }
}
