//! The move notations JSON Schema can state exactly, as patterns: each engine's
//! [`Game::MOVE_FORM`] (Herfor's and Tara's moves), on its requests and links. The engines trim
//! white space around a move or a name, so the patterns allow it (Rust's `trim`: Unicode
//! White_Space); a game's own names (Herfor's points) are patterned by its contract file.
//!
//! What a pattern cannot say stays a 422 of the server: whether a well-formed name is on this
//! board's size, whether the point is free, whether the move is legal in the position (the
//! rule it breaks is named in the problem). Hirþ's step notation (`H3i[Kii*]`, `end >6Lm`) is
//! only described: its readers check more than a pattern could.

use serde_json::Value;

use moot_games::Game;

/// Unicode White_Space, which `str::trim` removes (ECMA's `\s` differs: it has U+FEFF and lacks
/// U+0085).
const SPACE: &str = r"[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*";

/// Both ends anchored, white space allowed around `inner`.
pub(super) fn trimmed(inner: &str) -> String {
    format!("^{SPACE}({inner}){SPACE}$")
}

/// A move of `game` without anchors or white space, when its notation is regular enough to
/// state exactly ([`Game::MOVE_FORM`]).
fn move_form(game: &str) -> Option<&'static str> {
    moot_games::with_game!(game, G => G::MOVE_FORM, else None)
}

/// The pattern of a move of `game`, when its notation is regular enough to state exactly.
pub fn move_pattern(game: &str) -> Option<String> {
    move_form(game).map(trimmed)
}

/// The pattern of a link's `moves` (`c3.b2`): moves joined by `.`, each with white space
/// around it as a move may have, or nothing (the start; white space alone reads as nothing
/// too, `link::split_moves`).
pub fn link_moves_pattern(game: &str) -> Option<String> {
    let form = move_form(game)?;
    let one = format!("{SPACE}({form}){SPACE}");
    Some(format!("^({one}(\\.{one})*|{SPACE})$"))
}

/// A link's moves (the picture and animation `moves` parameter) that each game plays: the
/// generic example (`c3.b2`, Herfor's) is not a Hirþ game.
fn example_link(game: &str) -> Option<String> {
    moot_games::with_game!(game, G => Some(G::EXAMPLE_MOVES.join(".")), else None)
}

/// Gives each game's picture and animation operations an example link of that game, and the
/// pattern of its moves where the notation has one (after [`super::per_game`]).
pub fn links(document: &mut Value) {
    let Some(paths) = document["paths"].as_object_mut() else {
        return;
    };
    for game in moot_games::GAME_IDS {
        let Some(example) = example_link(game) else {
            continue;
        };
        for operation in ["picture", "animation"] {
            let path = format!("/api/v1/games/{game}/{operation}");
            let Some(parameters) = paths
                .get_mut(&path)
                .and_then(|item| item["get"]["parameters"].as_array_mut())
            else {
                continue;
            };
            for parameter in parameters.iter_mut().filter(|p| p["name"] == "moves") {
                parameter["example"] = Value::String(example.clone());
                if let Some(pattern) = link_moves_pattern(game) {
                    parameter["schema"]["pattern"] = Value::String(pattern);
                }
            }
        }
    }
}

/// Puts each game's move pattern on its requests' `move` and `moves` (after
/// [`super::per_game`], which names them `HerforApplyRequest`, `TaraReplayRequest`, …).
pub fn moves(document: &mut Value) {
    for game in moot_games::GAME_IDS {
        let Some(pattern) = move_pattern(game) else {
            continue;
        };
        let prefix = crate::api::schemas::schema_prefix(game);
        for request in ["ApplyRequest", "ReplayRequest"] {
            let Some(properties) = super::schemas(document)
                .get_mut(&format!("{prefix}{request}"))
                .and_then(|schema| schema.get_mut("properties"))
            else {
                continue;
            };
            if let Some(one) = properties.get_mut("move") {
                one["pattern"] = Value::String(pattern.clone());
            }
            if let Some(items) = properties
                .get_mut("moves")
                .and_then(|list| list.get_mut("items"))
            {
                items["pattern"] = Value::String(pattern.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::herfor::herfor_point;
    use super::*;
    use moot_games::herfor::{Herfor, HerforOptions};
    use moot_games::tara::{Tara, TaraOptions};
    use serde_json::json;

    fn matches(pattern: &str, text: &str) -> bool {
        jsonschema::is_valid(&json!({"type": "string", "pattern": pattern}), &json!(text))
    }

    /// Moves off the pattern that the engine must refuse too (422): the schema may only refuse
    /// what the server refuses.
    fn refused_off_the_pattern<G: Game>(state: &G::State, pattern: &str, texts: &[&str]) {
        for text in texts {
            assert!(!matches(pattern, text), "{text:?} matches {pattern}");
            assert!(
                G::parse_move(state, text).is_err(),
                "{text:?} is off the pattern but the engine reads it"
            );
        }
    }

    #[test]
    fn f1_every_herfor_point_and_move_matches_the_patterns_on_every_size() {
        let pattern = move_pattern("herfor").expect("Herfor moves have a pattern");
        for size in 3..=7 {
            let options = HerforOptions {
                size,
                ..HerforOptions::default()
            };
            let state = Herfor::new_game(&options).expect("a valid size");
            let moves = Herfor::legal_moves(&state);
            assert_eq!(
                moves.len(),
                3 * usize::from(size) * (usize::from(size) - 1) + 1
            );
            for mv in &moves {
                let text = Herfor::format_move(&state, mv);
                assert!(matches(&pattern, &text), "{text} (size {size})");
                assert!(matches(&herfor_point(), &text), "{text} (size {size})");
                let shouted = format!(" {} \t", text.to_uppercase());
                assert!(matches(&pattern, &shouted), "{shouted:?}");
                assert!(Herfor::parse_move(&state, &shouted).is_ok(), "{shouted:?}");
            }
        }
        for text in ["pass", "PASS", "Swap", "\u{85}swap\u{3000}"] {
            assert!(matches(&pattern, text), "{text:?}");
        }
    }

    #[test]
    fn f1_strings_off_the_herfor_patterns_are_refused_by_the_engine() {
        let largest = HerforOptions {
            size: 7,
            ..HerforOptions::default()
        };
        let state = Herfor::new_game(&largest).expect("size 7");
        let pattern = move_pattern("herfor").expect("a pattern");
        let off = [
            "",
            " ",
            "c",
            "3c",
            "c0",
            "c03",
            "c14",
            "n1",
            "z5",
            "c3c",
            "c 3",
            "pas",
            "passes",
            "\u{feff}c3",
            "c3.",
            "e5,e6",
        ];
        refused_off_the_pattern::<Herfor>(&state, &pattern, &off);
        for text in off {
            assert!(!matches(&herfor_point(), text), "{text:?}");
        }
    }

    #[test]
    fn t13_every_tara_move_of_a_played_game_matches_the_pattern() {
        let pattern = move_pattern("tara").expect("Tara moves have a pattern");
        for level in [1, 2] {
            let options = TaraOptions {
                level,
                ..TaraOptions::default()
            };
            let mut state = Tara::new_game(&options).expect("valid options");
            // The first listed move each turn, through setup and into the kings' moves.
            for _ in 0..80 {
                let moves = Tara::legal_moves(&state);
                let Some(first) = moves.first().cloned() else {
                    break;
                };
                for mv in &moves {
                    let text = Tara::format_move(&state, mv);
                    assert!(matches(&pattern, &text), "{text}");
                    let lower = format!("\n{}", text.to_lowercase());
                    assert!(matches(&pattern, &lower), "{lower:?}");
                }
                Tara::apply(&mut state, &first).expect("a listed move is legal");
            }
        }
        for text in ["pass", "Next", " D4 ", "d7-e5", "D7xE5", "C5sB3"] {
            assert!(matches(&pattern, text), "{text:?}");
        }
    }

    #[test]
    fn t13_strings_off_the_tara_pattern_are_refused_by_the_engine() {
        let state = Tara::new_game(&TaraOptions::default()).expect("defaults");
        let pattern = move_pattern("tara").expect("a pattern");
        let off = [
            "",
            "D",
            "A1",
            "G7",
            "H4",
            "D8",
            "D0",
            "D4-",
            "D4-E",
            "D4+E5",
            "D4 E5",
            "D4-E5-F6",
            "pas",
            "nextt",
            "D44",
            "\u{feff}D4",
        ];
        refused_off_the_pattern::<Tara>(&state, &pattern, &off);
    }

    /// A link's moves match their pattern exactly when the link reader reads them as moves of
    /// the notation: joined by single dots, each trimmed, or nothing at all.
    #[test]
    fn f1_t13_link_moves_match_the_pattern_the_link_reader_reads() {
        let herfor = link_moves_pattern("herfor").expect("Herfor links have a pattern");
        for text in ["", " ", "c3", "c3.b2", " c3 . PASS.swap", "e5.e6.pass.pass"] {
            assert!(matches(&herfor, text), "{text:?}");
        }
        for text in [
            "c3.",
            ".c3",
            "c3..b2",
            "c3,b2",
            "c3 b2",
            "c3.n1",
            "\u{feff}c3",
        ] {
            assert!(!matches(&herfor, text), "{text:?}");
        }
        let tara = link_moves_pattern("tara").expect("Tara links have a pattern");
        for text in ["D4.C5", "D4.C5.next.D4-E6", " d7xe5 "] {
            assert!(matches(&tara, text), "{text:?}");
        }
        for text in ["D4.", "D4-.C5", "A1", "c3.b2.z9"] {
            assert!(!matches(&tara, text), "{text:?}");
        }
        assert_eq!(link_moves_pattern("hirth"), None);
    }
}
