//! Tagged unions with named variants and a discriminator.
//!
//! serde's internally tagged enums come out of utoipa as `oneOf` inline objects, each with a
//! one-value `enum` for the tag; generators then name the variants `HerforEventType0`. Here each
//! variant becomes a schema named after the union and its tag (`HerforEventPlaced`), the tag a
//! `const`, and the union gets a `discriminator` mapping each tag to its variant.

use serde_json::{Map, Value, json};

use super::refs;

pub fn name_variants(document: &mut Value) {
    let schemas = super::schemas(document);
    let unions: Vec<String> = schemas
        .iter()
        .filter(|(_, schema)| schema["oneOf"].is_array() && schema.get("discriminator").is_none())
        .map(|(name, _)| name.clone())
        .collect();
    for union in unions {
        let Some(variants) = schemas[&union]["oneOf"].as_array().cloned() else {
            continue;
        };
        let Some(tag) = common_tag(&variants) else {
            continue;
        };
        let mut mapping = Map::new();
        let mut items = Vec::new();
        for mut variant in variants {
            let value = variant["properties"][&tag]["enum"][0]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let name = format!("{union}{}", pascal(&value));
            variant["title"] = json!(name);
            let mut tag_schema = json!({"type": "string", "const": value});
            if let Some(description) = variant["properties"][&tag].get("description") {
                tag_schema["description"] = description.clone();
            }
            variant["properties"][&tag] = tag_schema;
            schemas.insert(name.clone(), variant);
            let reference = refs::to(&name);
            mapping.insert(value, reference["$ref"].clone());
            items.push(reference);
        }
        let schema = &mut schemas[&union];
        schema["oneOf"] = Value::Array(items);
        schema["discriminator"] = json!({"propertyName": tag, "mapping": mapping});
    }
}

/// Tara's and Hirþ's events also carry `event`, the name of their tag before every game's was
/// `type` (see `ops::EVENT_ALIAS_GAMES`): each variant of those unions declares it, deprecated,
/// with the same value as `type`.
pub fn event_alias(document: &mut Value) {
    let schemas = super::schemas(document);
    for game in crate::api::ops::EVENT_ALIAS_GAMES {
        let union = format!("{}Event", pascal(game));
        let variants: Vec<String> = schemas
            .get(&union)
            .and_then(|u| u["oneOf"].as_array())
            .into_iter()
            .flatten()
            .filter_map(|v| v["$ref"].as_str())
            .filter_map(|r| r.rsplit('/').next().map(str::to_owned))
            .collect();
        for name in variants {
            let Some(variant) = schemas.get_mut(&name) else {
                continue;
            };
            let value = variant["properties"]["type"]["const"].clone();
            variant["properties"]["event"] = json!({
                "type": "string",
                "const": value,
                "deprecated": true,
                "description": "The same as `type`, under the name these events had before every game's were tagged `type`: read `type`.",
            });
        }
    }
}

/// The member every variant requires with a single string value of its own, if there is one.
fn common_tag(variants: &[Value]) -> Option<String> {
    let first = variants.first()?;
    let candidates = first["required"].as_array()?;
    candidates.iter().filter_map(Value::as_str).find_map(|tag| {
        let mut seen = std::collections::BTreeSet::new();
        variants
            .iter()
            .all(|variant| {
                let inline = variant.get("$ref").is_none();
                let required = variant["required"]
                    .as_array()
                    .is_some_and(|required| required.iter().any(|r| r == tag));
                let single = variant["properties"][tag]["enum"]
                    .as_array()
                    .filter(|values| values.len() == 1)
                    .and_then(|values| values[0].as_str());
                inline && required && single.is_some_and(|value| seen.insert(value.to_owned()))
            })
            .then(|| tag.to_owned())
    })
}

/// `thungur_hnifur` → `ThungurHnifur`, `give-up` → `GiveUp`.
fn pascal(value: &str) -> String {
    value
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
                .collect::<String>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tagged_union_gets_named_variants_and_a_discriminator() {
        let mut document = json!({"components": {"schemas": {"Event": {"oneOf": [
            {"type": "object", "required": ["type", "point"], "properties": {
                "type": {"type": "string", "enum": ["placed"]}, "point": {"type": "string"}}},
            {"type": "object", "required": ["type"], "properties": {
                "type": {"type": "string", "enum": ["passed_on"]}}},
        ]}}}});
        name_variants(&mut document);
        let schemas = &document["components"]["schemas"];
        assert_eq!(schemas["Event"]["oneOf"][1], refs::to("EventPassedOn"));
        assert_eq!(schemas["Event"]["discriminator"]["propertyName"], "type");
        assert_eq!(
            schemas["Event"]["discriminator"]["mapping"]["placed"],
            "#/components/schemas/EventPlaced"
        );
        assert_eq!(
            schemas["EventPlaced"]["properties"]["type"]["const"],
            "placed"
        );
        assert_eq!(schemas["EventPlaced"]["title"], "EventPlaced");
    }

    #[test]
    fn a_nullable_reference_is_not_a_tagged_union() {
        let variants = [refs::to("Seat"), json!({"type": "null"})];
        assert_eq!(common_tag(&variants), None);
    }
}
