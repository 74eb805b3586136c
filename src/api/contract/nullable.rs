//! Members that may be `null` may also be left out: serde reads a missing `Option` member as
//! `None`. utoipa already leaves such members out of `required`, except in a generic's
//! instance (`PerColour<Option<String>>`, whose `red` and `blue` it lists as required though the
//! server takes `{"red": null}` and `{}`).

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
}
