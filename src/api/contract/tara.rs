//! The bounds of a Tara state that JSON Schema can say, as `validate` checks them: a hill is one
//! of the 45 (`B1`–`F7`, and `A2`–`A6`, `G2`–`G6`: the corners are not hills), a colour has at
//! most 30 ringforts and 3 kings, each hill at most once per list, and at most 3 enemy kings
//! captured; and a Level 1 game has no sacrificed king (T11: sacrifices belong to Level 2).
//! (That kings on the board and captured ones make 3 at most, or that a king stands on its own
//! ringfort, are rules the schema cannot say; the server refuses them with `invalid_state`.)

use serde_json::{Value, json};

use super::game_passes::GamePasses;
use moot_games::tara::Tara;
use moot_games::tara::state::{KINGS_PER_COLOUR, RINGFORTS_PER_COLOUR};

impl GamePasses for Tara {
    fn schemas(document: &mut Value) {
        bounds(document);
    }
}

/// A hill's name, either case, as `Hill::parse` reads it.
pub fn hill_pattern() -> String {
    format!("^{}$", moot_games::tara::HILL_FORM)
}

/// Bounds a Tara state's hills, lists and captures, and its sacrifices by level (before
/// [`super::per_game`]).
fn bounds(document: &mut Value) {
    let Some(Value::Object(state)) = super::schemas(document).get_mut("TaraState") else {
        return;
    };
    // Unless the options say Level 2, each colour's `sacrificed` is `null` (or left out).
    let level_two = json!({
        "type": "object",
        "properties": {"options": {
            "type": "object",
            "properties": {"level": {"const": 2}},
            "required": ["level"],
        }},
        "required": ["options"],
    });
    let none = json!({"type": "null"});
    state.insert("if".into(), level_two);
    state.insert(
        "else".into(),
        json!({"properties": {"sacrificed": {"properties": {"red": none, "blue": none}}}}),
    );
    let Some(properties) = state.get_mut("properties") else {
        return;
    };
    let hills = |most: usize| {
        json!({"type": "array", "items": {"type": "string", "pattern": hill_pattern()},
            "maxItems": most, "uniqueItems": true})
    };
    let captured = json!({"type": "integer", "format": "int32", "minimum": 0,
        "maximum": KINGS_PER_COLOUR});
    // Each a named schema, which generated clients name after it (not `TaraStateCaptured`).
    let mut named = Vec::new();
    for (member, name, each) in [
        ("ringforts", "TaraRingforts", hills(RINGFORTS_PER_COLOUR)),
        ("kings", "TaraKings", hills(KINGS_PER_COLOUR)),
        ("captured", "TaraCapturedKings", captured),
    ] {
        let Some(property) = properties.get_mut(member) else {
            continue;
        };
        let mut schema = json!({
            "type": "object",
            "properties": {"red": each, "blue": each},
            "required": ["red", "blue"],
            "additionalProperties": false,
        });
        if let Some(description) = property.get("description") {
            schema["description"] = description.clone();
        }
        if let Some(example) = property.get("example") {
            schema["example"] = example.clone();
        }
        *property = super::refs::to(name);
        named.push((name, schema));
    }
    let schemas = super::schemas(document);
    for (name, schema) in named {
        schemas.insert(name.to_owned(), schema);
    }
}
