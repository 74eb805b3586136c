//! Herfor's own passes over the published document. A state's stones are point names
//! ([`herfor_point`], from the engine's `POINT_FORM`). Herfor's points depend on the board's
//! size (F1): `e9` is a point name but not a point of a size-3 board. Each size's points are
//! listed here from the engine, and a state's stones, an `apply`'s moves and a `replay`'s moves
//! get the pattern of the size their options say, as JSON Schema's `if`/`then`/`else`, nested:
//! size 3, 4, 6 or 7, else the default 5 (options left out, `null` or without a size).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::game_passes::GamePasses;
use super::patterns::trimmed;
use moot_games::Game;
use moot_games::herfor::{Herfor, HerforOptions};

impl GamePasses for Herfor {
    fn schemas(document: &mut Value) {
        point_names(document);
    }

    fn requests(document: &mut Value) {
        sizes(document);
    }
}

/// The sizes a board may have, the default last (the `else` at the end of the chain).
const SIZES: [u8; 5] = [3, 4, 6, 7, DEFAULT_SIZE];
const DEFAULT_SIZE: u8 = 5;

/// The points of a board of `size`, unanchored, either case: `[aA](1|2|3)|[bB](1|2|3|4)|…`.
pub fn points_on(size: u8) -> String {
    let options = HerforOptions {
        size,
        ..HerforOptions::default()
    };
    let Ok(start) = Herfor::new_game(&options) else {
        unreachable!("Herfor's sizes 3 to 7 make boards");
    };
    // At the start every point is a legal placement, and nothing else is.
    let mut rows: BTreeMap<char, Vec<String>> = BTreeMap::new();
    for mv in Herfor::legal_moves(&start) {
        let name = Herfor::format_move(&start, &mv);
        let mut chars = name.chars();
        if let Some(row) = chars.next() {
            rows.entry(row).or_default().push(chars.collect());
        }
    }
    rows.iter()
        .map(|(row, numbers)| {
            let upper = row.to_ascii_uppercase();
            format!("[{row}{upper}]({})", numbers.join("|"))
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// A point of a board of `size`, as a state lists it (white space around it allowed).
pub fn point_pattern(size: u8) -> String {
    trimmed(&points_on(size))
}

/// A move on a board of `size`: one of its points, `pass` or `swap`.
pub fn move_pattern(size: u8) -> String {
    trimmed(&format!(
        "{}|[pP][aA][sS][sS]|[sS][wW][aA][pP]",
        points_on(size)
    ))
}

/// The pattern of a Herfor point name as a state lists it.
pub fn herfor_point() -> String {
    trimmed(moot_games::herfor::POINT_FORM)
}

/// Puts the point pattern on a Herfor state's stone lists (before [`super::per_game`]).
fn point_names(document: &mut Value) {
    let Some(properties) = super::schemas(document)
        .get_mut("HerforState")
        .and_then(|state| state.get_mut("properties"))
    else {
        return;
    };
    for colour in ["black", "white"] {
        if let Some(items) = properties
            .get_mut(colour)
            .and_then(|list| list.get_mut("items"))
        {
            items["pattern"] = Value::String(herfor_point());
        }
    }
}

/// Gives the Herfor schemas their size-dependent patterns (after [`super::per_game`], which
/// names the requests).
fn sizes(document: &mut Value) {
    let stones = |size| {
        let point = json!({"items": {"pattern": point_pattern(size)}});
        json!({"properties": {"black": point, "white": point}})
    };
    let moves = |size| {
        let pattern = move_pattern(size);
        json!({"properties": {
            "move": {"pattern": pattern},
            "moves": {"items": {"pattern": pattern}},
        }})
    };
    let schemas = super::schemas(document);
    for (name, size_at, then) in [
        (
            "HerforState",
            &["options"][..],
            &stones as &dyn Fn(u8) -> Value,
        ),
        ("HerforApplyRequest", &["state", "options"][..], &moves),
        ("HerforReplayRequest", &["options"][..], &moves),
    ] {
        if let Some(Value::Object(schema)) = schemas.get_mut(name) {
            by_size(schema, size_at, then);
        }
    }
}

/// Adds to `schema` the chain `if` (the size at `size_at` is 3) `then` `then(3)` `else` `if`
/// … `else` `then(5)`.
fn by_size(schema: &mut Map<String, Value>, size_at: &[&str], then: &dyn Fn(u8) -> Value) {
    let Some((default, others)) = SIZES.split_last() else {
        return;
    };
    let mut chain = then(*default);
    for &size in others.iter().rev() {
        chain = json!({"if": size_is(size_at, size), "then": then(size), "else": chain});
    }
    if let Value::Object(chain) = chain {
        schema.extend(chain);
    }
}

/// The condition "the object at `path` has `size` `size`": each level an object that holds
/// the next (a `null` or missing level is no size, so the default).
fn size_is(path: &[&str], size: u8) -> Value {
    let mut condition = json!({
        "type": "object",
        "properties": {"size": {"const": size}},
        "required": ["size"],
    });
    for member in path.iter().rev() {
        condition = json!({
            "type": "object",
            "properties": {*member: condition},
            "required": [member],
        });
    }
    condition
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> bool {
        jsonschema::is_valid(&json!({"type": "string", "pattern": pattern}), &json!(text))
    }

    /// Every point of each size matches that size's pattern, in either case; a point of the
    /// largest board off a smaller one matches not, and the engine refuses it there too.
    #[test]
    fn f1_each_size_patterns_exactly_its_own_points() {
        let largest = Herfor::new_game(&HerforOptions {
            size: 7,
            ..HerforOptions::default()
        })
        .expect("size 7");
        let every_name: Vec<String> = Herfor::legal_moves(&largest)
            .iter()
            .map(|mv| Herfor::format_move(&largest, mv))
            .collect();
        for size in 3..=7 {
            let state = Herfor::new_game(&HerforOptions {
                size,
                ..HerforOptions::default()
            })
            .expect("a size");
            let (points, moves) = (point_pattern(size), move_pattern(size));
            for name in &every_name {
                let on_board = Herfor::parse_move(&state, name).is_ok();
                assert_eq!(matches(&points, name), on_board, "{name} on size {size}");
                let shouted = format!(" {} ", name.to_uppercase());
                assert_eq!(matches(&moves, &shouted), on_board, "{shouted:?}");
            }
            for word in ["pass", "SWAP"] {
                assert!(matches(&moves, word) && !matches(&points, word), "{word}");
            }
        }
    }

    #[test]
    fn the_size_condition_holds_only_for_that_size_in_an_object() {
        let condition = size_is(&["state", "options"], 3);
        let check = |value: Value| jsonschema::is_valid(&condition, &value);
        assert!(check(json!({"state": {"options": {"size": 3}}})));
        assert!(!check(json!({"state": {"options": {"size": 5}}})));
        assert!(!check(json!({"state": {"options": {}}})));
        assert!(!check(json!({"state": {"options": null}})));
        assert!(!check(json!({})));
    }
}
