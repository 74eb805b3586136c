//! The forms of a Hirþ state that JSON Schema can say, as the state reader has them: a board's
//! spaces are named by their keys (`0`–`9`, `m`), and a phase has no member besides its `kind`
//! and, in a retreat, `from`. (That pieces add up to each side's count, or that a phase fits
//! the position, are rules the schema cannot say; the server refuses them with
//! `invalid_state`.)

use serde_json::{Value, json};

use super::game_passes::GamePasses;
use super::refs;
use moot_games::hirth::Hirth;

impl GamePasses for Hirth {
    fn variants(document: &mut Value) {
        forms(document);
    }
}

/// Names a board's keys and closes each phase (after [`super::variants`], which names the
/// phase's variants, `HirthPhaseRetreat`).
fn forms(document: &mut Value) {
    let schemas = super::schemas(document);
    if let Some(board) = schemas.get_mut("HirthBoard") {
        board["propertyNames"] = refs::to("HirthSpace");
    }
    let phases = ["Movement", "Offer", "Retreat", "Over"];
    for phase in phases.map(|kind| format!("HirthPhase{kind}")) {
        if let Some(variant) = schemas.get_mut(&phase) {
            variant["additionalProperties"] = json!(false);
        }
    }
}
