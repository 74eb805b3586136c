//! References between schemas (`{"$ref": "#/components/schemas/Name"}`).

use std::collections::BTreeSet;

use serde_json::{Value, json};

pub const PREFIX: &str = "#/components/schemas/";

/// A reference to the schema `name`.
pub fn to(name: &str) -> Value {
    json!({ "$ref": format!("{PREFIX}{name}") })
}

/// The schema names `json` refers to, at any depth.
pub fn referenced(json: &Value) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    collect(json, &mut names);
    names
}

fn collect(json: &Value, names: &mut BTreeSet<String>) {
    match json {
        Value::Object(members) => {
            for (key, value) in members {
                match value {
                    Value::String(target) if key == "$ref" => {
                        if let Some(name) = target.strip_prefix(PREFIX) {
                            names.insert(name.to_owned());
                        }
                    }
                    _ => collect(value, names),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect(item, names)),
        _ => {}
    }
}

/// Points every reference to a schema that `rename` maps elsewhere to the new name.
pub fn rename(json: &mut Value, rename: &impl Fn(&str) -> Option<String>) {
    match json {
        Value::Object(members) => {
            for (key, value) in members.iter_mut() {
                match value {
                    Value::String(target) if key == "$ref" => {
                        if let Some(new) = target.strip_prefix(PREFIX).and_then(rename) {
                            *target = format!("{PREFIX}{new}");
                        }
                    }
                    _ => self::rename(value, rename),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| self::rename(item, rename)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_references_at_any_depth_and_lists_them() {
        let mut json = json!({"properties": {"a": to("GameState"),
            "b": {"items": to("Seat")}}});
        rename(&mut json, &|name| {
            (name == "GameState").then(|| "HerforState".to_owned())
        });
        assert_eq!(json["properties"]["a"], to("HerforState"));
        assert_eq!(
            referenced(&json).into_iter().collect::<Vec<_>>(),
            ["HerforState", "Seat"]
        );
    }
}
