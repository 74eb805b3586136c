//! `null` and a member left out mean the same to the server, both ways:
//!
//! - [`optional`]: members that may be `null` may also be left out: serde reads a missing
//!   `Option` member as `None`. utoipa already leaves such members out of `required`, except in
//!   a generic's instance (`PerColour<Option<String>>`, whose `red` and `blue` it lists as
//!   required though the server takes `{"red": null}` and `{}`).
//! - [`null_as_left_out`]: members that may be left out may also be `null`: the server reads a
//!   member given as `null` as left out (`moot_games::json`), as generated clients write the
//!   optional members they hold no value for.

use serde_json::Value;

pub fn optional(document: &mut Value) {
    for schema in super::schemas(document).values_mut() {
        let Some(members) = schema.as_object_mut() else {
            continue;
        };
        let nullable: Vec<String> = members
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| {
                properties
                    .iter()
                    .filter(|(_, property)| takes_null(property))
                    .map(|(name, _)| name.clone())
                    .collect()
            })
            .unwrap_or_default();
        let Some(Value::Array(required)) = members.get_mut("required") else {
            continue;
        };
        required.retain(|name| {
            !name
                .as_str()
                .is_some_and(|name| nullable.iter().any(|n| n == name))
        });
        if required.is_empty() {
            members.remove("required");
        }
    }
}

pub fn null_as_left_out(document: &mut Value) {
    for schema in super::schemas(document).values_mut() {
        each_object(schema);
    }
}

/// Every object schema within `schema` (its properties', items' and variants' too): each
/// member it does not require takes `null`.
fn each_object(schema: &mut Value) {
    let Some(members) = schema.as_object_mut() else {
        return;
    };
    let required: Vec<String> = members
        .get("required")
        .and_then(Value::as_array)
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(properties)) = members.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            each_object(property);
            // A constant (a tag, or its deprecated alias) is never sent as `null`.
            let constant = property.get("const").is_some();
            if !required.contains(name) && !constant && !takes_null(property) {
                nullable(property);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = members.get_mut(key) {
            each_object(inner);
        }
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(Value::Array(variants)) = members.get_mut(key) {
            variants.iter_mut().for_each(each_object);
        }
    }
}

/// `schema`, taking `null` besides: a type gets `"null"` beside it (and in its `enum`, if any);
/// anything else (a reference, a union) becomes one variant of a `oneOf` with `null`, as utoipa
/// writes an `Option`. Never a `null` inside `anyOf` or `not`, which some generators cannot read.
fn nullable(schema: &mut Value) {
    let Some(members) = schema.as_object_mut() else {
        return;
    };
    if members.is_empty() {
        return; // any value, `null` included
    }
    let simple = !["$ref", "oneOf", "anyOf", "allOf", "not"]
        .iter()
        .any(|key| members.contains_key(*key));
    match members.get_mut("type") {
        Some(Value::String(kind)) if simple => {
            let kind = std::mem::take(kind);
            members.insert("type".into(), serde_json::json!([kind, "null"]));
        }
        Some(Value::Array(kinds)) if simple => kinds.push("null".into()),
        _ => {
            let description = members.remove("description");
            let default = members.remove("default");
            let inner = std::mem::take(schema);
            *schema = serde_json::json!({"oneOf": [inner, {"type": "null"}]});
            for (key, value) in [("description", description), ("default", default)] {
                if let Some(value) = value {
                    schema[key] = value;
                }
            }
            return;
        }
    }
    if let Some(Value::Array(values)) = members.get_mut("enum") {
        values.push(Value::Null);
    }
}

fn takes_null(schema: &Value) -> bool {
    let null = serde_json::json!({"type": "null"});
    ["oneOf", "anyOf"].iter().any(|union| {
        schema[*union]
            .as_array()
            .is_some_and(|variants| variants.contains(&null))
    }) || schema["type"]
        .as_array()
        .is_some_and(|types| types.iter().any(|t| t == "null"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_nullable_member_is_not_required() {
        let mut document = json!({"components": {"schemas": {"PerColour_Option_String": {
            "type": "object",
            "properties": {
                "red": {"oneOf": [{"type": "null"}, {"type": "string"}]},
                "blue": {"oneOf": [{"type": "null"}, {"type": "string"}]}},
            "required": ["red", "blue"]},
            "Other": {"type": "object", "properties": {"a": {"type": "string"},
                "b": {"type": ["string", "null"]}}, "required": ["a", "b"]}}}});
        optional(&mut document);
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["PerColour_Option_String"].get("required"), None);
        assert_eq!(schemas["Other"]["required"], json!(["a"]));
    }

    #[test]
    fn a_member_that_may_be_left_out_takes_null() {
        let mut document = json!({"components": {"schemas": {"Group": {
            "type": "object",
            "properties": {
                "h": {"type": "integer", "minimum": 0},
                "kind": {"type": "string", "enum": ["a", "b"]},
                "cell": {"$ref": "#/components/schemas/Cell", "description": "Its cell."},
                "maybe": {"type": ["string", "null"]},
                "needed": {"type": "integer"},
                "list": {"type": "array", "items": {"type": "object",
                    "properties": {"stopped": {"type": "boolean"}}}}},
            "required": ["needed"]}}}});
        null_as_left_out(&mut document);
        let properties = &document["components"]["schemas"]["Group"]["properties"];
        assert_eq!(
            properties["h"],
            json!({"type": ["integer", "null"], "minimum": 0})
        );
        assert_eq!(
            properties["kind"],
            json!({"type": ["string", "null"], "enum": ["a", "b", null]})
        );
        assert_eq!(
            properties["cell"],
            json!({"oneOf": [{"$ref": "#/components/schemas/Cell"}, {"type": "null"}],
                "description": "Its cell."})
        );
        assert_eq!(properties["maybe"], json!({"type": ["string", "null"]}));
        assert_eq!(
            properties["needed"],
            json!({"type": "integer"}),
            "required: no null"
        );
        assert_eq!(
            properties["list"]["items"]["properties"]["stopped"],
            json!({"type": ["boolean", "null"]}),
            "within items too"
        );
    }
}
